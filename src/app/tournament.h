/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tournament: `tapis tournament`, bots against bots (docs/tapis.6, TOURNAMENT).
 *
 * Each deal k is a one-deal game seeded from the tournament seed and k (La
 * Bouillabaisse, whose rounds each have their own aim, plays its whole
 * game of six rounds as one "deal"). It is
 * played twice: first level A at the even seats and level B at the odd ones,
 * then the other way round, with the same cards (the bots draw from their own
 * generator, the game from its seed). A deal's result is A's average seat
 * result minus B's (net chips; points of La Bouillabaisse, where lower is
 * better; for Le Brouc, +1000 when A's team wins the deal, -1000 when it
 * loses, 0 on equal points), averaged over the two plays. */
#ifndef TAPIS_TOURNAMENT_H
#define TAPIS_TOURNAMENT_H

#include <stdint.h>
#include <stdio.h>

#include "core/game.h"

struct tournament_spec {
	const struct game_ops *game;
	int level_a, level_b;
	int players;                 /* 0: the game's default */
	int deals;
	int budget;                  /* search budget of the bots (ms), 0: the default */
	uint64_t seed;
	const char *const *rule_args;  /* "key=value", NULL-terminated, may be NULL */
};

struct tournament_result {
	int deals;
	double mean, ci_low, ci_high;
	double ms_a, ms_b;           /* mean decision time of each level */
	long decisions_a, decisions_b;
	char better;                 /* 'a', 'b' or 'u' (unsure) */
};

/* Play the tournament; 0, or -1 with a message (bad rules, players). */
int tournament_run(const struct tournament_spec *spec, struct tournament_result *res, char *err,
                   size_t errlen);

/* `tapis tournament GAME ...`: argv[0] is "tournament"; returns the exit status. */
int tournament_main(int argc, char **argv);

#endif
