/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/learn.h"

#include <stdio.h>
#include <string.h>

#include "app/lesson.h"
#include "app/local.h"
#include "app/registry.h"
#include "app/session.h"
#include "app/table.h"
#include "app/tutor.h"
#include "app/view.h"
#include "core/cue.h"
#include "core/err.h"
#include "core/sbuf.h"
#include "i18n/i18n.h"
#include "words/french.h"
#include "speech/speech.h"
#include "ui/menu.h"
#include "ui/play.h"
#include "ui/term.h"

/* advance's word that the lesson's moves are all played. */
enum { LEARN_END = 200 };

/* The lesson at the keyboard: app/tutor walks it, this port says its
 * narration and lets ui/play read the keys. */
struct learn_port {
	struct tutor tu;
	struct view *v;
	struct session *ses;
};

static void narrate(struct learn_port *p, const char *msgid)
{
	table_say(p->tu.t, _(msgid), SPEECH_QUEUE);
}

static const struct view_state *lp_state(void *ctx)
{
	struct learn_port *p = ctx;
	return view_state(p->v);
}

/* The narration as it comes, and the other seats' moves once what came
 * before has been heard. */
static int lp_advance(void *ctx, int idle, char *err, size_t errlen)
{
	struct learn_port *p = ctx;
	if (table_output_failed(p->tu.t, err, errlen) < 0)
		return 1;
	const char *msgid;
	int next;
	while ((next = tutor_next(&p->tu, &msgid)) == TUTOR_SAY)
		narrate(p, msgid);
	if (next == TUTOR_END)
		return idle ? LEARN_END : 0;
	if (next != TUTOR_MOVE || !idle)
		return 0;
	return tutor_play(&p->tu, err, errlen) < 0 ? 3 : 0;
}

static int lp_awaits(void *ctx)
{
	struct learn_port *p = ctx;
	return tutor_awaits(&p->tu);
}

/* The learner's move: played when the lesson allows it; else refused (by
 * the game when it breaks a rule, with its reason), with the lesson's
 * explanation, and never played. */
static int lp_act(void *ctx, const struct action *a)
{
	struct learn_port *p = ctx;
	struct refusal why;
	const char *explain;
	int verdict = tutor_act(&p->tu, a, &why, &explain);
	if (verdict == TUTOR_PLAYED)
		return 0;
	if (verdict == TUTOR_REFUSED)
		view_refusal(p->v, &why);
	else if (verdict == TUTOR_WRONG)
		session_cue(p->ses, CUE_ILLEGAL);
	if (explain)
		narrate(p, explain);
	return -1;
}

static void lp_verbosity(void *ctx, int verbosity)
{
	struct learn_port *p = ctx;
	view_set_verbosity(p->v, verbosity);
}

static void lp_hint(void *ctx)
{
	struct learn_port *p = ctx;
	view_hint(p->v);
}

int learn_run(struct session *ses, const struct lesson *l, int *done)
{
	*done = 0;
	struct table_options o;
	tutor_options(l, &o);
	struct table t;
	struct local loc;
	char err[ERR_MAX];
	if (table_open(&t, &o, err, sizeof err) < 0) {
		fprintf(stderr, "tapis: %s\n", err);
		return 1;
	}
	if (local_open(&loc, &t, 0, &ses->sp, ses->audio, err, sizeof err) < 0) {
		fprintf(stderr, "tapis: %s\n", err);
		table_close(&t);
		return 1;
	}
	struct view quiet, *v = table_local_view(&t);
	if (!v) {
		if (view_init(&quiet, &t, 0, i18n_lang(), NULL, err, sizeof err) < 0) {
			local_close(&loc);
			table_close(&t);
			return 1;
		}
		v = &quiet;
	}
	term_open();
	struct sbuf b;
	sb_clear(&b);
	sb_printf(&b, "%s. %s", _(l->title), _(l->intro));
	table_say(&t, b.s, SPEECH_QUEUE);
	struct learn_port lp = { .v = v, .ses = ses };
	tutor_begin(&lp.tu, l, &t, err, sizeof err);   /* lesson_load played them all */
	view_refresh(v);
	view_set_verbosity(v, ses->set.verbosity);
	struct play_port port = { .state = lp_state, .advance = lp_advance, .awaits = lp_awaits, .act = lp_act,
	                          .verbosity = lp_verbosity, .hint = lp_hint, .ctx = &lp, .unsaved = 1 };
	int rc = play_port_run(&port, ses, err, sizeof err);
	if (rc == LEARN_END || (rc == 0 && tutor_over(&lp.tu))) {
		rc = 0;
		*done = 1;
		table_say(&t, _(l->summary), SPEECH_QUEUE);
		if (lesson_mark_done(ses->set.lessons, sizeof ses->set.lessons, l->id) == 0)
			session_save_settings(ses);
		while (speech_busy(&ses->sp) && term_read_key(20) == KEY_NONE)
			session_pump(ses);
	} else if (rc == 3 || rc == 1) {
		fprintf(stderr, "tapis: %s\n", err);
	}
	if (table_finish_output(&t, err, sizeof err) < 0 && rc == 0)
		rc = 1;
	if (v == &quiet)
		view_release(&quiet);
	local_close(&loc);
	table_close(&t);
	return rc;
}

/* The lessons of g: the menu, each said with whether it is done, then
 * "Play a first game". */
static int lessons_of(struct session *ses, const struct game_ops *g, const struct game_ops **first)
{
	char paths[LESSON_MAX_PER_GAME][512];
	int n = lesson_list(g, paths, LESSON_MAX_PER_GAME);
	int sel = 0;
	for (;;) {
		struct lesson ls[LESSON_MAX_PER_GAME];
		char labels[LESSON_MAX_PER_GAME][256];
		const char *items[LESSON_MAX_PER_GAME + 1];
		int ok[LESSON_MAX_PER_GAME], ni = 0, next = -1;
		char err[ERR_MAX];
		for (int i = 0; i < n; i++) {
			ok[i] = lesson_load(&ls[i], paths[i], err, sizeof err) == 0;
			if (!ok[i]) {
				fprintf(stderr, "tapis: %s\n", err);
				lesson_release(&ls[i]);
				continue;
			}
			int done = lesson_done(ses->set.lessons, ls[i].id);
			if (!done && next < 0)
				next = ni;
			/* TRANSLATORS: a lesson in the lessons' menu: its number, its name, and ", done" when done. */
			snprintf(labels[ni], sizeof labels[ni], done ? _("%1$d. %2$s, done") : _("%1$d. %2$s"), ni + 1,
			         _(ls[i].title));
			items[ni] = labels[ni];
			ls[ni] = ls[i];
			ni++;
		}
		items[ni] = _("Play a first game");
		struct sbuf title;
		sb_clear(&title);
		sb_printf(&title, _("Lessons of %s."), _(g->title));
		char fr[SBUF_SIZE];
		const char *heading = strcmp(i18n_lang(), "fr") ? title.s : french_contract(title.s, fr, sizeof fr);
		if (sel == 0 && next >= 0)
			sel = next;
		int k = menu_run(&ses->sp, heading, items, ni + 1, sel < ni + 1 ? sel : 0);
		int rc = 0, done = 0;
		if (k >= 0 && k < ni)
			rc = learn_run(ses, &ls[k], &done);
		for (int i = 0; i < ni; i++)
			lesson_release(&ls[i]);
		if (k == MENU_QUIT)
			return term_interrupted() ? term_interrupt_status() : 0;
		if (k == MENU_BACK)
			return MENU_BACK;
		if (k == ni) {
			*first = g;
			return LEARN_FIRST_GAME;
		}
		if (rc)
			return rc;
		if (!done)
			return 0;   /* the player quit the lesson */
		term_open();
		sel = k + 1;    /* the next lesson, or "Play a first game" after the last */
	}
}

int learn_menu(struct session *ses, const struct game_ops *g, const struct game_ops **first)
{
	term_open();
	if (g) {
		int rc = lessons_of(ses, g, first);
		return rc == MENU_BACK ? 0 : rc;
	}
	for (;;) {
		const char *items[16];
		int n = 0;
		for (int i = 0; registry_games[i].ops && n < 16; i++)
			items[n++] = _(registry_games[i].ops->title);
		int k = menu_run(&ses->sp, _("Learn which game?"), items, n, 0);
		if (k == MENU_QUIT)
			return term_interrupted() ? term_interrupt_status() : 0;
		if (k < 0)
			return MENU_BACK;
		int rc = lessons_of(ses, registry_games[k].ops, first);
		if (rc != MENU_BACK)
			return rc;
	}
}
