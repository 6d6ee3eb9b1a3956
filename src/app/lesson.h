/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lesson: a spoken lesson of a game, read from a lesson file of the data
 * folder (DATADIR/lessons/GAME/NN.lesson, docs/lessons.md): a stacked deal
 * in the words of `--deck` and `--actions` files, and the narrator's
 * sentences (English msgids, said through the catalogues).
 *
 *   # a comment
 *   game bourre              the game (first)
 *   players 3                the number of players (default: the game's)
 *   dealer 2                 the first dealer (default 0)
 *   rule hands=1             a rule option (repeatable)
 *   title Staying or passing the lesson's name in the menu
 *   intro SENTENCE           said before the deal
 *   deck                     the packs, as in a --deck file, up to `end`
 *   ...
 *   end
 *   before 0 play 5S         a move played before the lesson begins, unheard
 *                            (any seat, the learner's too; before any other step)
 *   say SENTENCE             said when the lesson reaches this line
 *   1 stay                   another seat's move, as in an --actions file
 *   you play QH | play 9H    the learner's move: any of these is accepted
 *                            (the lesson goes on from the first)
 *   wrong SENTENCE           why another move is not the one (after `you`)
 *   summary SENTENCE         said at the end of the lesson
 *
 * The learner is seat 0; a `say` asks for each of the learner's moves,
 * right before its `you`. A lesson ends when its moves are played. */
#ifndef TAPIS_LESSON_H
#define TAPIS_LESSON_H

#include <stddef.h>

#include "core/action.h"
#include "core/game.h"
#include "core/rules.h"

/* The limits of one lesson file (the data folder is ours, but a file is
 * still read as a stranger's). */
#define LESSON_FILE_MAX (256 * 1024)
#define LESSON_MAX_STEPS 512
#define LESSON_MAX_ALTS 8
#define LESSON_TEXT_MAX 600
#define LESSON_MAX_PER_GAME 16
#define LESSON_ID_MAX 48

enum lesson_step_kind {
	LESSON_SAY,    /* narration */
	LESSON_MOVE,   /* another seat's move */
	LESSON_YOU,    /* the learner's move */
};

struct lesson_step {
	int kind;                    /* enum lesson_step_kind */
	int line;                    /* in the file */
	int seat;
	struct action alt[LESSON_MAX_ALTS];  /* LESSON_MOVE: alt[0]; LESSON_YOU: any of them */
	int nalt;
	const char *text;            /* LESSON_SAY: the msgid; LESSON_YOU: why another move is wrong (may be NULL) */
};

struct lesson {
	char id[LESSON_ID_MAX];      /* "bourre-1": the game and the file's number */
	char path[512];
	const struct game_ops *g;
	int players, dealer;
	struct rules rules;
	struct deckstack stack;
	const char *title, *intro, *summary;   /* msgids */
	struct lesson_step *steps;
	int nsteps;
	int nbefore;                 /* the first steps: moves played before the lesson, unheard */
	char *text;                  /* the file's text; the msgids point into it */
};

/* Read and check a lesson file: its words, its packs for its options, and
 * every move played in order from the deal (each of the learner's moves
 * too, the rest of the lesson going on from it). 0, or -1 with
 * "FILE:LINE: problem". lesson_release after either. */
int lesson_load(struct lesson *l, const char *path, char *err, size_t errlen);
int lesson_parse(struct lesson *l, const char *text, const char *path, char *err, size_t errlen);
void lesson_release(struct lesson *l);

/* The same check alone (lesson_load runs it). 0, or -1 with a message. */
int lesson_check(const struct lesson *l, char *err, size_t errlen);

/* Every sentence of a lesson, title first: calls fn with each msgid and
 * its line (0: the title's); stops at the first non-zero fn returns. */
int lesson_sentences(const struct lesson *l, int (*fn)(void *ctx, const char *msgid, int line), void *ctx);

/* The lesson files of game, in order, into paths (at most max):
 * DATADIR/lessons/NAME/NN.lesson. Returns how many. */
int lesson_list(const struct game_ops *g, char paths[][512], int max);

/* 1 when the learner's move a is one the step allows. */
int lesson_allows(const struct lesson_step *s, const struct action *a);

/* Progress, in the settings' `lessons` line: space-separated ids. */
int lesson_done(const char *progress, const char *id);
/* Add id to progress (size bytes); 0, or -1 when it does not fit. */
int lesson_mark_done(char *progress, size_t size, const char *id);

#endif
