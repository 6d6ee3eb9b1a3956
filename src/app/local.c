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
		audio_cue(l->audio, (enum audio_cue)m->cue, m->seat);
	if (l->sp && m->text[0])
		/* A view's text (or a server's) is in its final words: the French
		 * contractions were made where it was phrased, and never touch a
		 * person's name nor a chat line. */
		speech_say(l->sp, m->text, (m->interrupt ? SPEECH_INTERRUPT : SPEECH_QUEUE) | SPEECH_PHRASED);
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
	if (audio)
		audio_set_table(audio, t->opt.players, seat, t->g->clockwise);
	struct view_sink s = local_sink(l);
	return view_init(&l->view, t, seat, i18n_lang(), &s, err, errlen);
}

void local_close(struct local *l)
{
	view_release(&l->view);
}
