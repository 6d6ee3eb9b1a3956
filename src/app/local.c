/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/local.h"

#include <string.h>

#include "app/table.h"
#include "audio/audio.h"
#include "i18n/i18n.h"
#include "speech/speech.h"

static void local_say(void *ctx, const struct view_say *m)
{
	struct local *l = ctx;
	if (m->cue >= 0 && m->cue < CUE_COUNT && l->audio)
		audio_cue(l->audio, (enum cue)m->cue, m->seat);
	if (l->sp && m->text[0])
		/* A view's text (or a server's) is in its final words: the French
		 * contractions were made where it was phrased, and never touch a
		 * person's name nor a chat line. */
		speech_say(l->sp, m->text, (m->interrupt ? SPEECH_INTERRUPT : SPEECH_QUEUE) | SPEECH_PHRASED);
}

/* What the table itself says (table_say), already in its final words. */
static void local_tell(void *ctx, const char *text, int flags)
{
	struct local *l = ctx;
	if (l->sp)
		speech_say(l->sp, text, (flags & SPEECH_INTERRUPT) | SPEECH_PHRASED);
}

struct view_sink local_sink(struct local *l)
{
	struct view_sink s = { local_say, NULL, l };
	return s;
}

int local_open(struct local *l, struct table *t, int seat, struct speech *sp, struct audio *audio,
               char *err, size_t errlen)
{
	memset(l, 0, sizeof *l);
	l->sp = sp;
	l->audio = audio;
	if (!sp && !audio)
		return 0;   /* nothing to hear: no view (the keys make their own) */
	if (audio)
		audio_set_table(audio, t->opt.players, seat, t->g->clockwise);
	struct view_sink s = local_sink(l);
	if (view_init(&l->view, t, seat, i18n_lang(), &s, err, errlen) < 0)
		return -1;
	l->attached = 1;
	struct table_player p = { &l->view, local_tell, l, NULL };
	/* Text on a stream: checked and flushed with the hand history. */
	if (sp && sp->backend == &speech_text_backend && sp->out)
		p.text = sp->out;
	table_set_player(t, &p);
	return 0;
}

void local_close(struct local *l)
{
	if (!l->attached)
		return;
	/* The table may have been closed first: the view knows (view.t). */
	if (l->view.t && table_local_view(l->view.t) == &l->view)
		table_set_player(l->view.t, NULL);
	view_release(&l->view);
	l->attached = 0;
}
