/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tutor: a lesson (app/lesson) played at a table, wherever the table is:
 * the terminal's `tapis learn` (ui/learn) and a server's lesson table. The
 * tutor walks the lesson's steps: it gives the narration to say (msgids:
 * the caller says each in its listener's language), plays the other
 * seats' moves when asked, and judges the learner's: a move the lesson
 * allows is played, any other is refused (by the game with its reason
 * when it breaks a rule) with the lesson's explanation, and never played.
 *
 * The learner is seat 0 (TUTOR_LEARNER); every seat of the table is a
 * person's (SEAT_HUMAN), the tutor playing the others. Nothing is kept
 * but the step reached: a tutor holds no memory of its own. */
#ifndef TAPIS_TUTOR_H
#define TAPIS_TUTOR_H

#include <stddef.h>

#include "app/lesson.h"
#include "core/action.h"

struct table;
struct table_options;

#define TUTOR_LEARNER 0

/* What comes next in the lesson (tutor_next). */
enum tutor_next {
	TUTOR_SAY,    /* a sentence of narration to say: *msgid */
	TUTOR_MOVE,   /* another seat's move, played by tutor_play */
	TUTOR_WAIT,   /* the learner's move (tutor_act) */
	TUTOR_END,    /* every move played: the summary is next (lesson.summary) */
};

/* What became of the learner's move (tutor_act). */
enum tutor_verdict {
	TUTOR_PLAYED = 0,   /* the lesson's move: played */
	TUTOR_REFUSED,      /* against the rules: why holds the game's reason; then *explain */
	TUTOR_WRONG,        /* legal but not the lesson's: *explain */
	TUTOR_NOT_NOW,      /* not the learner's turn in the lesson: nothing to say */
};

struct tutor {
	const struct lesson *l;
	struct table *t;
	int step;     /* the next step of the lesson */
};

/* The table options of lesson l (its game, players, dealer, rules and
 * packs; every seat a person's); o is zeroed first. */
void tutor_options(const struct lesson *l, struct table_options *o);
/* Begin the lesson at t (opened with tutor_options, not started): the
 * table started, the moves before the lesson played unheard (as a saved
 * game is resumed). The caller says the title and intro first. 0, or -1
 * with a message. */
int tutor_begin(struct tutor *tu, const struct lesson *l, struct table *t, char *err, size_t errlen);
/* What comes next; TUTOR_SAY gives the sentence in *msgid and goes past it. */
int tutor_next(struct tutor *tu, const char **msgid);
/* Play the other seat's move that comes next (TUTOR_MOVE). 0, or -1 with
 * "FILE:LINE: 'move' refused". */
int tutor_play(struct tutor *tu, char *err, size_t errlen);
/* 1 when the lesson waits for the learner's move and the table for seat 0. */
int tutor_awaits(const struct tutor *tu);
/* Judge the learner's move (enum tutor_verdict); why: the game's refusal
 * (TUTOR_REFUSED); *explain: the msgid to say after a refusal or a
 * wrong move. */
int tutor_act(struct tutor *tu, const struct action *a, struct refusal *why, const char **explain);
/* 1 when the lesson's moves are all played. */
int tutor_over(const struct tutor *tu);

#endif
