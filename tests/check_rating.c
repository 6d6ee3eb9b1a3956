/* SPDX-License-Identifier: GPL-3.0-or-later */
/* check_rating: Glicko-2 against the worked example of Glickman's
 * "Example of the Glicko-2 system", and the ratings of a whole table. */
#include <check.h>
#include <math.h>

#include "net/store/rating.h"
#include "testutil.h"

/* The paper's player: 1500, RD 200, sigma 0.06, tau 0.5, against 1400/30
 * (won), 1550/100 (lost) and 1700/300 (lost): 1464.06, RD 151.52, sigma
 * 0.05999. */
START_TEST(paper_example)
{
	struct rating me = { 1500, 200, 0.06 };
	struct rating_game g[3] = {
		{ { 1400, 30, 0.06 }, 1.0 },
		{ { 1550, 100, 0.06 }, 0.0 },
		{ { 1700, 300, 0.06 }, 0.0 },
	};
	struct rating r = rating_update(me, g, 3, 0.5);
	ck_assert_msg(fabs(r.r - 1464.06) < 0.01, "r %f", r.r);
	ck_assert_msg(fabs(r.rd - 151.52) < 0.01, "RD %f", r.rd);
	ck_assert_msg(fabs(r.sigma - 0.05999) < 0.00001, "sigma %f", r.sigma);
}
END_TEST

/* A period without games: only the deviation grows, never past a new
 * player's. */
START_TEST(idle_period)
{
	struct rating me = { 1620, 80, 0.06 };
	struct rating r = rating_update(me, NULL, 0, RATING_TAU);
	ck_assert(r.r == 1620 && r.sigma == 0.06);
	ck_assert_msg(fabs(r.rd - sqrt(80.0 * 80 + 0.06 * 0.06 * 173.7178 * 173.7178)) < 1e-6, "RD %f", r.rd);
	struct rating fresh;
	rating_init(&fresh);
	ck_assert(rating_update(fresh, NULL, 0, RATING_TAU).rd == RATING_START_RD);
}
END_TEST

/* Four new players: first, two sharing second place, last. The winner
 * gains what the last loses, the two level players move the same and
 * stay between them; the same table played the other way round mirrors
 * it. */
START_TEST(one_table)
{
	struct rating p[4];
	for (int i = 0; i < 4; i++)
		rating_init(&p[i]);
	int rank[4] = { 0, 1, 1, 3 };
	rating_game(p, rank, 4, RATING_TAU);
	ck_assert(p[0].r > p[1].r && p[1].r > p[3].r);
	ck_assert(fabs(p[1].r - p[2].r) < 1e-9);
	ck_assert_msg(fabs((p[0].r - 1500) + (p[3].r - 1500)) < 1e-6, "%f %f", p[0].r, p[3].r);
	ck_assert(fabs(p[1].r - 1500) < 1e-6);
	for (int i = 0; i < 4; i++)
		ck_assert(p[i].rd < RATING_START_RD);
	/* A strong favourite who wins gains little; an upset moves a lot. */
	struct rating a[2] = { { 1800, 60, 0.06 }, { 1400, 60, 0.06 } };
	struct rating b[2] = { { 1800, 60, 0.06 }, { 1400, 60, 0.06 } };
	rating_game(a, (int[]){ 0, 1 }, 2, RATING_TAU);
	rating_game(b, (int[]){ 1, 0 }, 2, RATING_TAU);
	ck_assert(a[0].r - 1800 < 1800 - b[0].r);
	ck_assert(b[1].r - 1400 > 5 * (a[0].r - 1800));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rating");
	TCase *t = tcase_create("rating");
	tcase_add_test(t, paper_example);
	tcase_add_test(t, idle_period);
	tcase_add_test(t, one_table);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
