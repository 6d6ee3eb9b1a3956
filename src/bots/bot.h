/* bot: computer opponents. A bot sees only a view (the state redacted for
 * its seat), never the real state, so it cannot cheat; it may resample the
 * hidden cards to search. Levels: 0 random legal moves, 1 simple rules,
 * 2 the default heuristic, 3 and up: stronger (search) where a game has it. */
#ifndef TAPIS_BOT_H
#define TAPIS_BOT_H

#include "core/action.h"
#include "core/game.h"
#include "core/rng.h"

#define BOT_LEVEL_DEFAULT 2

struct bot_ops {
	const char *game;  /* game_ops name */
	/* Choose a legal action for `seat` (the seat to act) from its view. */
	void (*choose)(const void *view, int seat, int level, struct rng *rng, struct action *out);
	/* Optional: 0 for a legal action no bot plays on purpose (a renege that
	 * a strict Bourre table accepts), 1 otherwise; NULL: every legal action
	 * is proper. Random play and the fallback keep to proper actions. */
	int (*proper)(const void *st, const struct action *a);
};

/* Registry by game name (NULL when none: bot_choose then plays randomly). */
const struct bot_ops *bot_find(const char *game);

/* A uniformly random legal action, proper when the game's bot says which
 * are (an amount range gives a random amount). */
void bot_random(const struct game_ops *g, const void *st, struct rng *rng, struct action *out);

/* The whole decision for a seat: makes the view (a redacted copy of st),
 * asks the game's bot at that level (random at level 0 or with no bot),
 * and checks the answer is legal (falls back to random otherwise). */
void bot_choose(const struct game_ops *g, const void *st, int level, struct rng *rng, struct action *out);

#endif
