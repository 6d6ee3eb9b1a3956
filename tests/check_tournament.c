/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tapis tournament: deterministic for a seed, fair to both sides (swapping
 * the levels gives the opposite result), and it tells levels apart. */
#include <math.h>
#include <stdio.h>

#include "app/registry.h"
#include "app/tournament.h"
#include "bots/bot.h"
#include "testutil.h"

static struct tournament_result run(const char *game, int a, int b, int deals, uint64_t seed)
{
	struct tournament_spec sp = { registry_ops(game), a, b, 0, deals, 2, seed, NULL };
	struct tournament_result r;
	char err[256];
	ck_assert_msg(tournament_run(&sp, &r, err, sizeof err) == 0, "%s", err);
	return r;
}

START_TEST(same_seed_same_result)
{
	struct tournament_result r1 = run("brelan", 2, 1, 40, 5);
	struct tournament_result r2 = run("brelan", 2, 1, 40, 5);
	ck_assert(r1.mean == r2.mean && r1.ci_low == r2.ci_low && r1.ci_high == r2.ci_high);
	ck_assert_int_eq(r1.decisions_a, r2.decisions_a);
	struct tournament_result r3 = run("brelan", 2, 1, 40, 6);
	ck_assert(r3.mean != r1.mean || r3.decisions_a != r1.decisions_a);
}
END_TEST

/* A at the even seats then the odd ones: B,A plays the same games as A,B. */
START_TEST(swapping_levels_negates)
{
	for (const struct registry_game *e = registry_games; e->ops; e++) {
		struct tournament_result ab = run(e->ops->name, 1, 0, 6, 9);
		struct tournament_result ba = run(e->ops->name, 0, 1, 6, 9);
		ck_assert_msg(fabs(ab.mean + ba.mean) < 1e-9, "%s: %f vs %f", e->ops->name, ab.mean, ba.mean);
		ck_assert(ab.ci_low <= ab.mean && ab.mean <= ab.ci_high);
		ck_assert_int_eq(ab.decisions_a, ba.decisions_b);
	}
}
END_TEST

START_TEST(levels_told_apart)
{
	/* La Bouillabaisse: lower is better, so the stronger A has a negative mean. */
	struct tournament_result r = run("bouillabaisse", 2, 0, 30, 3);
	printf("bouillabaisse 2 vs 0, 30 deals: %+.2f (%+.2f to %+.2f)\n", r.mean, r.ci_low, r.ci_high);
	ck_assert_int_eq(r.better, 'a');
	ck_assert(r.ci_high < 0);
	r = run("bouillabaisse", 0, 2, 30, 3);
	ck_assert_int_eq(r.better, 'b');
	r = run("brouc", 2, 0, 60, 4);
	printf("brouc 2 vs 0, 60 deals: %+.1f (%+.1f to %+.1f)\n", r.mean, r.ci_low, r.ci_high);
	ck_assert_int_eq(r.better, 'a');
	/* The same level on both sides: nothing to tell. */
	r = run("brelan", 2, 2, 60, 4);
	ck_assert_int_eq(r.better, 'u');
}
END_TEST

START_TEST(bad_specs)
{
	char err[256];
	struct tournament_result r;
	struct tournament_spec sp = { registry_ops("brouc"), 2, 1, 3, 10, 2, 1, NULL };
	ck_assert_int_eq(tournament_run(&sp, &r, err, sizeof err), -1);
	const char *bad[] = { "hands=x", NULL };
	struct tournament_spec sp2 = { registry_ops("brelan"), 2, 1, 0, 10, 2, 1, bad };
	ck_assert_int_eq(tournament_run(&sp2, &r, err, sizeof err), -1);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tournament");
	TCase *tc = tcase_create("tournament");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, same_seed_same_result);
	tcase_add_test(tc, swapping_levels_negates);
	tcase_add_test(tc, levels_told_apart);
	tcase_add_test(tc, bad_specs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
