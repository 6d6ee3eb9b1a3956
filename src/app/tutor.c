/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/tutor.h"

#include <string.h>

#include "app/table.h"
#include "core/err.h"
#include "i18n/i18n.h"

void tutor_options(const struct lesson *l, struct table_options *o)
{
	memset(o, 0, sizeof *o);
	o->game = l->g;
	o->players = l->players;
	o->dealer = l->dealer;
	o->seed = 1;
	o->rules = l->rules;
	o->deck_stack = &l->stack;
	for (int s = 0; s < o->players; s++)
		o->seat_kind[s] = SEAT_HUMAN;   /* the lesson plays the others */
}

int tutor_begin(struct tutor *tu, const struct lesson *l, struct table *t, char *err, size_t errlen)
{
	tu->l = l;
	tu->t = t;
	tu->step = 0;
	/* The moves before the lesson, as a saved game is resumed: unheard,
	 * the deal they begin from too (the intro says where the lesson
	 * stands). */
	if (l->nbefore)
		t->silent++;
	table_start(t);
	int rc = 0;
	for (; tu->step < l->nbefore && rc == 0; tu->step++) {
		struct refusal why;
		if (table_act(t, l->steps[tu->step].seat, &l->steps[tu->step].alt[0], &why) < 0) {
			errf(err, errlen, "%s:%d: refused", l->path, l->steps[tu->step].line);
			rc = -1;
		}
	}
	if (l->nbefore)
		t->silent--;
	return rc;
}

int tutor_next(struct tutor *tu, const char **msgid)
{
	const struct lesson *l = tu->l;
	if (tu->step >= l->nsteps)
		return TUTOR_END;
	const struct lesson_step *s = &l->steps[tu->step];
	switch (s->kind) {
	case LESSON_SAY:
		*msgid = s->text;
		tu->step++;
		return TUTOR_SAY;
	case LESSON_MOVE:
		return TUTOR_MOVE;
	default:
		return TUTOR_WAIT;
	}
}

int tutor_play(struct tutor *tu, char *err, size_t errlen)
{
	const struct lesson *l = tu->l;
	if (tu->step >= l->nsteps || l->steps[tu->step].kind != LESSON_MOVE) {
		errf(err, errlen, "%s: no move of another seat comes now", l->path);
		return -1;
	}
	const struct lesson_step *s = &l->steps[tu->step];
	struct refusal why;
	if (table_act(tu->t, s->seat, &s->alt[0], &why) < 0) {
		char buf[ACT_STR_MAX];
		errf(err, errlen, "%s:%d: '%s' refused", l->path, s->line, act_format(&s->alt[0], buf, sizeof buf));
		return -1;
	}
	tu->step++;
	return 0;
}

int tutor_awaits(const struct tutor *tu)
{
	return tu->step < tu->l->nsteps && tu->l->steps[tu->step].kind == LESSON_YOU &&
	       table_awaits(tu->t, TUTOR_LEARNER);
}

int tutor_over(const struct tutor *tu) { return tu->step >= tu->l->nsteps; }

int tutor_act(struct tutor *tu, const struct action *a, struct refusal *why, const char **explain)
{
	*explain = NULL;
	memset(why, 0, sizeof *why);
	if (!tutor_awaits(tu))
		return TUTOR_NOT_NOW;
	const struct lesson_step *s = &tu->l->steps[tu->step];
	if (lesson_allows(s, a)) {
		if (table_act(tu->t, TUTOR_LEARNER, a, why) < 0)
			return TUTOR_REFUSED;   /* the table could not take it (nothing to explain) */
		tu->step++;
		return TUTOR_PLAYED;
	}
	*explain = s->text ? s->text : N_("That is not the move of this lesson. Try again.");
	struct action legal[GAME_MAX_LEGAL];
	int n = tu->l->g->legal(tu->t->st, legal, GAME_MAX_LEGAL);
	/* The game's own reason first, when the move breaks a rule: asked of
	 * the table, which refuses it (an illegal move is never played). */
	if (!act_in_list(a, legal, n) && table_act(tu->t, TUTOR_LEARNER, a, why) < 0)
		return TUTOR_REFUSED;
	return TUTOR_WRONG;
}
