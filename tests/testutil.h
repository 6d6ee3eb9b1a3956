/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the Check suites: capturing events, scripted games,
 * and the referee that plays random games and checks every invariant. */
#ifndef TAPIS_TESTUTIL_H
#define TAPIS_TESTUTIL_H

#include <check.h>

#include "bots/bot.h"
#include "core/event.h"
#include "core/game.h"

/* The game's bot, from app/registry (every game there has one). */
const struct bot_ops *tu_bot(const struct game_ops *g);

/* Runs one suite (CK_FORK as the environment says); returns the exit status.
 * Run by hand, the suite finds the source tree from its own path
 * (<top>/BUILD/tests/check_X): TAPIS_DATADIR, TAPIS_LOCALEDIR and
 * TAPIS_BIN are set when missing, and <top> is the working directory. */
int tu_run(Suite *s);

/* Events captured from a sink. */
struct tu_events {
	int n, cap;
	struct event *e;
};
void tu_events_init(struct tu_events *ev);
void tu_events_release(struct tu_events *ev);
struct sink tu_events_sink(struct tu_events *ev);
/* Index of the first event of a type at or after `from`, or -1. */
int tu_events_find(const struct tu_events *ev, int type, int from);
int tu_events_count(const struct tu_events *ev, int type);

/* A game under test: state and setup. */
struct tu_game {
	const struct game_ops *g;
	void *st;
	struct rules rules;
	struct deckstack *stack;   /* owned, may be NULL */
	struct tu_events ev;
};
/* Make a game: rule strings "key=value" (NULL-terminated array, may be
 * NULL), dealer -1 for random. Fails the test on a refused setup. */
void tu_game_init(struct tu_game *t, const char *game, int players, int dealer,
                  uint64_t seed, const char *const *rules);
/* Stack packs from text (the --deck file format). */
void tu_game_stack(struct tu_game *t, const char *deck_text);
void tu_game_start(struct tu_game *t);
void tu_game_release(struct tu_game *t);
/* Apply "SEAT ACTION" lines (the --actions format), each must be legal and
 * for the seat to act: the test fails naming the line otherwise. */
void tu_game_script(struct tu_game *t, const char *lines);
/* Apply one action text for the seat to act; returns 0 or -1 and why. */
int tu_game_try(struct tu_game *t, const char *action, struct refusal *why);

/* The referee: play `games` random games (bots at `level`, 0 = random legal
 * moves) with these players and rules, and after every action check: the
 * game's audit, legal actions never empty while the game is on, a clone fed
 * the same action emits the same events and ends equal, and at the end a
 * replay of the recorded actions from the same setup gives the same events
 * and state. `max_actions` bounds a game (0: 100000). Returns the number of
 * actions played. */
long tu_referee(const char *game, int players, const char *const *rules,
                int games, int level, uint64_t seed, long max_actions);

/* The first game tu_referee(game, players, rules, 1, level, seed, ...)
 * plays, played again into t up to its end (events not kept), to look at
 * its final state. */
void tu_referee_game(struct tu_game *t, const char *game, int players, const char *const *rules,
                     int level, uint64_t seed);

#endif
