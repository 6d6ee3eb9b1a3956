/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bots of Bouillotte and Le Brelan: the default bot (level 2) against a
 * random bettor (level 0) and a fixed-threshold one (level 1), over fixed
 * seeds; the figures are printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "bots/bot.h"
#include "games/vying.h"
#include "testutil.h"

/* Net chips of seat 0 (at `level`) against opponents at `opp`, summed
 * over `games` games of `hands` deals each. */
static long match(const char *game, int players, const char *const *rules, int level, int opp,
                  int games, uint64_t seed)
{
	const struct game_ops *g = registry_ops(game);
	ck_assert_ptr_nonnull(g);
	long net = 0;
	void *st = malloc(g->state_size);
	for (int k = 0; k < games; k++) {
		struct rules r;
		char err[256];
		rules_init(&r, g->rules, g->nrules);
		for (int i = 0; rules[i]; i++)
			ck_assert(rules_set_arg(&r, rules[i], err, sizeof err) == 0);
		uint64_t gs = rng_derive(seed, (uint64_t)k);
		struct game_setup setup = { players, -1, gs, &r, NULL };
		memset(st, 0, g->state_size);
		ck_assert(g->init(st, &setup, err, sizeof err) == 0);
		g->start(st, NULL);
		struct rng brng;
		rng_seed(&brng, rng_derive(gs, 7));
		int seat;
		while ((seat = g->to_act(st)) >= 0) {
			struct action a;
			bot_choose(g, tu_bot(g), st, seat == 0 ? level : opp, &brng, &a);
			struct refusal why;
			ck_assert(g->apply(st, &a, NULL, &why) == 0);
		}
		int sd[GAME_MAX_SEATS];
		g->standings(st, sd);
		net += sd[0];
	}
	free(st);
	return net;
}

static const char *const BOUILLOTTE[] = { "hands=200", NULL };
static const char *const BRELAN[] = { "hands=200", "recave=between", NULL };

/* Net chips of seat 0 in five match-ups; the default bot must beat the
 * random bettor and the fixed-threshold one, and by more than the
 * threshold bot does. */
static void compare_bots(const char *game, const char *const *rules, uint64_t seed)
{
	long vs_random = match(game, 4, rules, 2, 0, 10, seed);
	long vs_threshold = match(game, 4, rules, 2, 1, 10, seed);
	long thr_vs_random = match(game, 4, rules, 1, 0, 10, seed);
	long random_vs_threshold = match(game, 4, rules, 0, 1, 10, seed);
	long thr_vs_thr = match(game, 4, rules, 1, 1, 10, seed);
	printf("%s, 10 games x 200 deals, net chips of seat 0: level 2 vs random %+ld, "
	       "level 2 vs threshold %+ld, threshold vs random %+ld, random vs threshold %+ld, "
	       "threshold vs threshold %+ld\n",
	       game, vs_random, vs_threshold, thr_vs_random, random_vs_threshold, thr_vs_thr);
	ck_assert_int_gt(vs_random, 0);
	ck_assert_int_gt(vs_threshold, 0);
	ck_assert_int_gt(vs_random, thr_vs_random);
	ck_assert_int_gt(vs_threshold, thr_vs_thr);
}

START_TEST(bouillotte_bots)
{
	compare_bots("bouillotte", BOUILLOTTE, 42);
}
END_TEST

START_TEST(brelan_bots)
{
	compare_bots("brelan", BRELAN, 44);
}
END_TEST

/* Level 3's bets: how many are bluffs (a bet with less than an even share
 * of the pot's chances). Seats at level 3 play a few games; every bet of
 * the hint (level 3's own choice) is counted. */
static void bluff_share(const char *game, const char *const *rules, uint64_t seed, long *bets, long *bluffs)
{
	const struct game_ops *g = registry_ops(game);
	void *st = malloc(g->state_size);
	*bets = *bluffs = 0;
	for (int k = 0; k < 4; k++) {
		struct rules r;
		char err[256];
		rules_init(&r, g->rules, g->nrules);
		for (int i = 0; rules[i]; i++)
			ck_assert(rules_set_arg(&r, rules[i], err, sizeof err) == 0);
		struct game_setup setup = { 4, -1, rng_derive(seed, (uint64_t)k), &r, NULL };
		memset(st, 0, g->state_size);
		ck_assert(g->init(st, &setup, err, sizeof err) == 0);
		g->start(st, NULL);
		struct rng brng;
		rng_seed(&brng, rng_derive(seed, 100 + (uint64_t)k));
		while (g->to_act(st) >= 0) {
			struct action a;
			struct bot_reason why;
			bot_hint(g, tu_bot(g), st, 3, &brng, &a, &why);
			if (why.code == BOT_WHY_BET || why.code == BOT_WHY_BLUFF) {
				(*bets)++;
				*bluffs += why.code == BOT_WHY_BLUFF;
			}
			struct refusal refused;
			ck_assert(g->apply(st, &a, NULL, &refused) == 0);
		}
	}
	free(st);
}

START_TEST(level3_bluffs)
{
	static const char *const rules[] = { "hands=50", NULL };
	const char *games[] = { "bouillotte", "brelan" };
	for (int i = 0; i < 2; i++) {
		long bets, bluffs;
		bluff_share(games[i], rules, 50 + (uint64_t)i, &bets, &bluffs);
		printf("%s, level 3 at every seat, 200 deals: %ld bets, %ld of them bluffs (%.1f%%)\n", games[i], bets,
		       bluffs, bets ? 100.0 * (double)bluffs / (double)bets : 0.0);
		ck_assert_int_gt(bets, 50);
		ck_assert_int_gt(bluffs, 0);
		ck_assert_int_lt(bluffs * 3, bets);
	}
}
END_TEST

START_TEST(bots_in_referee)
{
	tu_referee("bouillotte", 4, (const char *const[]){ "hands=20", "buyback=yes", NULL }, 2, 2, 5, 0);
	tu_referee("brelan", 5, (const char *const[]){ "hands=20", "carre=yes", "carre_levels=4", NULL }, 2,
	           2, 6, 0);
	tu_referee("brelan", 2, (const char *const[]){ "hands=20", "carre=forced", NULL }, 2, 1, 7, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vying_bots");
	TCase *tc = tcase_create("bots");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, bouillotte_bots);
	tcase_add_test(tc, brelan_bots);
	tcase_add_test(tc, bots_in_referee);
	tcase_add_test(tc, level3_bluffs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
