/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The referee over drawn combinations of rule options: for every game, a
 * player count and about half of its options drawn from a seeded generator
 * (defaults, bounds, values between, every choice), bots of a drawn level,
 * tu_referee after every action and a replay of every game. The other
 * suites run fixed combinations; this one finds the pairs nobody wrote
 * down. TAPIS_REFEREE_COMBOS (default 6) sets the combinations per game and
 * TAPIS_REFEREE_SEED (default 1) the draw; a failure names the seed, and
 * TAPIS_REFEREE_VERBOSE=1 prints each combination before it is played. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "core/game.h"
#include "core/rng.h"
#include "core/rules.h"
#include "testutil.h"

#define OPT_LEN 48

/* The options that only say how long a game lasts: drawn apart. */
static int is_length(const char *key)
{
	return !strcmp(key, "hands") || !strcmp(key, "games") || !strcmp(key, "parties");
}

/* "key=value" for one option, drawn. */
static void draw_value(const struct rule_def *d, struct rng *r, char *buf, size_t n)
{
	static const char ranks[] = "AKQJT98765432", suits[] = "SHDC";
	int x = (int)rng_below(r, 100);
	switch (d->type) {
	case RULE_INT: {
		int hi = d->max > d->min + 20 ? d->min + 20 : d->max;
		int v = x < 30 ? (d->def > d->min ? d->def : d->min)
		      : x < 45 ? d->min
		      : x < 55 ? d->max
		      : d->min + (int)rng_below(r, (uint32_t)(hi - d->min + 1));
		if (d->none_word && x % 7 == 0)
			snprintf(buf, n, "%s=%s", d->key, d->none_word);
		else
			snprintf(buf, n, "%s=%d", d->key, v);
		break;
	}
	case RULE_CHOICE: {
		int c = 0;
		while (d->choices[c])
			c++;
		snprintf(buf, n, "%s=%s", d->key, d->choices[rng_below(r, (uint32_t)c)]);
		break;
	}
	case RULE_SUIT:
		snprintf(buf, n, "%s=%c", d->key, suits[rng_below(r, 4)]);
		break;
	case RULE_RANK:
		snprintf(buf, n, "%s=%c", d->key, ranks[rng_below(r, 13)]);
		break;
	case RULE_CARD:
		snprintf(buf, n, "%s=%c%c", d->key, ranks[rng_below(r, 13)], suits[rng_below(r, 4)]);
		break;
	}
	if (d->allow_random && x >= 90)
		snprintf(buf, n, "%s=random", d->key);
}

/* Whether the game accepts these options with that many players. */
static int playable(const struct game_ops *g, int players, const char *const *opts)
{
	struct rules r;
	char err[256];
	rules_init(&r, g->rules, g->nrules);
	for (int i = 0; opts[i]; i++)
		if (rules_set_arg(&r, opts[i], err, sizeof err) != 0)
			return 0;
	void *st = calloc(1, g->state_size);
	ck_assert(st != NULL);
	struct game_setup setup = { players, -1, 1, &r, NULL };
	int ok = g->init(st, &setup, err, sizeof err) == 0;
	free(st);
	return ok;
}

static long env_long(const char *name, long def)
{
	const char *s = getenv(name);
	return s && *s ? strtol(s, NULL, 10) : def;
}

START_TEST(drawn_options)
{
	const struct game_ops *g = registry_games[_i].ops;
	long combos = env_long("TAPIS_REFEREE_COMBOS", 6);
	uint64_t seed = (uint64_t)env_long("TAPIS_REFEREE_SEED", 1);
	struct rng r;
	rng_seed(&r, rng_derive(seed, (uint64_t)_i));
	int has_hands = 0;
	for (int i = 0; i < g->nrules; i++)
		has_hands |= !strcmp(g->rules[i].key, "hands");
	long played = 0, drawn = 0, actions = 0;
	for (long c = 0; played < combos && drawn < combos * 20; c++, drawn++) {
		char store[RULES_MAX + 1][OPT_LEN];
		const char *opts[RULES_MAX + 2];
		int n = 0;
		int players = g->min_players + (int)rng_below(&r, (uint32_t)(g->max_players - g->min_players + 1));
		for (int i = 0; i < g->nrules; i++)
			if (!is_length(g->rules[i].key) && rng_below(&r, 2)) {
				draw_value(&g->rules[i], &r, store[n], OPT_LEN);
				opts[n] = store[n];
				n++;
			}
		/* Games without a natural end stop after a few deals. */
		if (has_hands) {
			snprintf(store[n], OPT_LEN, "hands=%d", 1 + (int)rng_below(&r, 12));
			opts[n] = store[n];
			n++;
		}
		opts[n] = NULL;
		int level = (int)rng_below(&r, 4), games = 1 + (int)rng_below(&r, 2);
		uint64_t gseed = rng_derive(seed, 1000 + (uint64_t)c);
		if (!playable(g, players, opts))
			continue;
		if (getenv("TAPIS_REFEREE_VERBOSE")) {
			fprintf(stderr, "%s players %d level %d seed %llu:", g->name, players, level,
			        (unsigned long long)gseed);
			for (int i = 0; opts[i]; i++)
				fprintf(stderr, " %s", opts[i]);
			fputc('\n', stderr);
		}
		/* A game may have no decision at all (caves of one chip gone in
		 * the antes): the referee still checks it. */
		actions += tu_referee(g->name, players, opts, games, level, gseed, 0);
		played++;
	}
	ck_assert_msg(played == combos, "%s: only %ld of %ld combinations playable", g->name, played, combos);
	ck_assert_msg(actions > 0, "%s: no action in %ld games", g->name, played);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("referee_options");
	TCase *tc = tcase_create("drawn");
	int n = 0;
	while (registry_games[n].ops)
		n++;
	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, drawn_options, 0, n);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
