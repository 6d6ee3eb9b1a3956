/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Le Brelan: passe, carres, tapis, the point recomputed stage by stage,
 * brelan payments, caves, the referee. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "games/vying.h"
#include "testutil.h"

#define V(t) ((struct vying *)(t).st)

static int end_chips(const struct tu_game *t, int k, int seat)
{
	int i = -1;
	for (int n = 0; n < k; n++) {
		i = tu_events_find(&t->ev, EV_HAND_END, i + 1);
		ck_assert_int_ge(i, 0);
	}
	return t->ev.e[i].values[seat];
}

static int last_event(const struct tu_game *t, int type)
{
	int i = -1, j;
	while ((j = tu_events_find(&t->ev, type, i + 1)) >= 0)
		i = j;
	return i;
}

/* Seat 0 (all in for 4) wins the first stage on clubs (37, tied with
 * diamonds, won by primaute); between seats 1 and 2 the point is counted
 * again: seat 2 now owns the clubs (JC), seat 1 the diamonds, 37 each, and
 * seat 1 wins by primaute. */
static const char *STAGES =
	"KC 9D 9C 8S  8H JH JC TD  TH JD 8D 8C  AS  KS QS JS TS 9S AH KH QH 9H AD KD QD AC QC TC\n";

START_TEST(point_recomputed_each_stage)
{
	struct tu_game t;
	tu_game_init(&t, "brelan", 4, 3, 1, (const char *const[]){ "cave=30", NULL });
	tu_game_stack(&t, STAGES);
	V(t)->chips[0] = V(t)->bought[0] = 5;
	tu_game_start(&t);
	ck_assert_int_eq(V(t)->dead, 4);
	ck_assert_int_eq(vying_min_open(V(t), 0), 4);
	tu_game_script(&t, "0 allin\n1 raise 10\n2 call\n3 fold\n");
	ck_assert_int_eq(end_chips(&t, 1, 0), 16);
	ck_assert_int_eq(end_chips(&t, 1, 1), 31);
	ck_assert_int_eq(end_chips(&t, 1, 2), 19);
	ck_assert_int_eq(end_chips(&t, 1, 3), 29);
	const struct event *e = &t.ev.e[last_event(&t, EV_SHOWDOWN)];
	ck_assert_int_eq(e->winner, 0);
	ck_assert_int_eq(e->value, SUIT_CLUBS);
	ck_assert_uint_eq(e->winners, 0x3);
	tu_game_release(&t);
}
END_TEST

START_TEST(tapis_wins_only_the_passe)
{
	struct tu_game t;
	tu_game_init(&t, "brelan", 4, 3, 1, (const char *const[]){ "cave=30", NULL });
	tu_game_stack(&t, STAGES);
	V(t)->chips[0] = V(t)->bought[0] = 1;   /* the passe takes his last chip */
	tu_game_start(&t);
	ck_assert_int_eq(V(t)->chips[0], 0);
	/* With no chips he may still pass or open "tapis". */
	struct action l[8];
	int n = vying_legal(V(t), l, 8);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(l[1].kind, ACT_ALLIN);
	ck_assert_int_eq(l[1].amount, 0);
	/* Once the game is open he holds tapis without being asked: the
	 * script goes round him. */
	tu_game_script(&t, "0 pass\n1 open 4\n2 raise 6\n3 fold\n1 call\n");
	/* Seat 0 has the best point: the passe only (4). Seats 1 and 2 then
	 * play for their stakes (6 each): seat 1 by primaute as above. */
	ck_assert_int_eq(end_chips(&t, 1, 0), 4);
	ck_assert_int_eq(end_chips(&t, 1, 1), 29 - 6 + 12);
	ck_assert_int_eq(end_chips(&t, 1, 2), 29 - 6);
	tu_game_release(&t);

	/* Everybody passes: the tapis may open to play for the passe. */
	tu_game_init(&t, "brelan", 4, 3, 1, (const char *const[]){ "cave=30", NULL });
	tu_game_stack(&t, STAGES);
	V(t)->chips[0] = V(t)->bought[0] = 1;
	tu_game_start(&t);
	tu_game_script(&t, "0 allin\n1 call\n2 fold\n3 fold\n");
	ck_assert_int_eq(end_chips(&t, 1, 0), 4);
	tu_game_release(&t);
}
END_TEST

START_TEST(passe_doubles)
{
	struct tu_game t;
	tu_game_init(&t, "brelan", 3, 2, 5, (const char *const[]){ "passe_chips=2", NULL });
	tu_game_start(&t);
	ck_assert_int_eq(V(t)->dead, 6);
	tu_game_script(&t, "0 pass\n1 pass\n2 pass\n");
	ck_assert_int_eq(V(t)->dealer, 0);
	ck_assert_int_eq(V(t)->dead, 12);
	ck_assert_int_eq(vying_min_open(V(t), 1), 12);
	tu_game_script(&t, "1 pass\n2 pass\n0 pass\n");
	ck_assert_int_eq(V(t)->dead, 18);
	/* Opening, then the earlier passers fold or call; no extra round. */
	tu_game_script(&t, "2 pass\n0 open 18\n1 fold\n2 call\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	tu_game_release(&t);

	/* passe=dealer: the dealer alone; passe=none: nothing carried. */
	tu_game_init(&t, "brelan", 3, 2, 5, (const char *const[]){ "passe=dealer", NULL });
	tu_game_start(&t);
	ck_assert_int_eq(V(t)->dead, 1);
	ck_assert_int_eq(V(t)->chips[2], 99);
	tu_game_script(&t, "0 pass\n1 pass\n2 pass\n");
	/* The new dealer adds his stake to the one left on the table. */
	ck_assert_int_eq(V(t)->dealer, 0);
	ck_assert_int_eq(V(t)->dead, 2);
	ck_assert_int_eq(V(t)->chips[2], 99);
	ck_assert_int_eq(V(t)->chips[0], 99);
	ck_assert_int_eq(V(t)->chips[1], 100);
	tu_game_script(&t, "1 pass\n2 pass\n0 pass\n");
	ck_assert_int_eq(V(t)->dealer, 1);
	ck_assert_int_eq(V(t)->dead, 3);
	ck_assert_int_eq(V(t)->chips[1], 99);
	/* In the hand history: one passe payment a deal, by its dealer. */
	int payers[3] = { 0, 0, 0 };
	for (int i = 0; i < t.ev.n; i++) {
		const struct event *e = &t.ev.e[i];
		if (e->type == EV_PAYMENT && strcmp(e->reason, "passe") == 0) {
			ck_assert_int_eq(e->to, -1);
			ck_assert_int_eq(e->amount, 1);
			payers[e->from]++;
		}
	}
	ck_assert_int_eq(payers[0], 1);
	ck_assert_int_eq(payers[1], 1);
	ck_assert_int_eq(payers[2], 1);
	/* The opener must put in at least the whole passe. */
	ck_assert_int_eq(vying_min_open(V(t), 2), 3);
	tu_game_release(&t);
	tu_game_init(&t, "brelan", 3, 2, 5, (const char *const[]){ "passe=none", "carre=yes", NULL });
	tu_game_start(&t);
	ck_assert_int_eq(V(t)->dead, 0);
	ck_assert_int_eq(V(t)->phase, VY_BET); /* no carre without a passe */
	ck_assert_int_eq(vying_min_open(V(t), 0), 1);
	tu_game_script(&t, "0 pass\n1 pass\n2 pass\n");
	ck_assert_int_eq(V(t)->dead, 0);
	tu_game_release(&t);
}
END_TEST

START_TEST(carre_orders)
{
	struct tu_game t;
	tu_game_init(&t, "brelan", 5, 4, 5, (const char *const[]){ "carre=yes", "carre_levels=4", NULL });
	tu_game_start(&t);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_DEAL), 0);
	/* Carre 5, contrecarre 10; the carre declines the surcarre, seat 2
	 * tricarres (20), seat 1 declines the surcontrecarre, seat 3 quadricarres (40). */
	tu_game_script(&t, "0 straddle\n1 straddle\n0 decline\n2 straddle\n1 decline\n3 straddle\n");
	ck_assert_int_eq(V(t)->stake[0], 5);
	ck_assert_int_eq(V(t)->stake[1], 10);
	ck_assert_int_eq(V(t)->stake[2], 20);
	ck_assert_int_eq(V(t)->stake[3], 40);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_DEAL), 5);
	/* The game is open: the right of the quadricarre speaks first, and
	 * the quadricarre last. */
	ck_assert_int_eq(vying_to_act(V(t)), 4);
	struct refusal why;
	ck_assert_int_eq(tu_game_try(&t, "pass", &why), -1);
	ck_assert_int_eq(why.code, VY_REF_OPENED);
	tu_game_script(&t, "4 fold\n0 fold\n1 fold\n2 fold\n");
	/* Everybody folded: seat 3 takes the passe and the carres, gets his own back. */
	ck_assert_int_eq(end_chips(&t, 1, 3), 99 + 5 + 5 + 10 + 20);
	tu_game_release(&t);

	/* Surcarre: the first carre buys the last word back; the contrecarre speaks first. */
	tu_game_init(&t, "brelan", 4, 3, 5, (const char *const[]){ "carre=yes", "carre_levels=3", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 straddle\n1 straddle\n0 buyback\n");
	ck_assert_int_eq(V(t)->stake[0], 4 + 16);
	ck_assert_int_eq(vying_to_act(V(t)), 1);
	/* The carre may call for nothing or raise when his turn comes. */
	tu_game_script(&t, "1 call\n2 fold\n3 fold\n");
	ck_assert_int_eq(vying_to_call(V(t), 0), 0);
	tu_game_script(&t, "0 raise 5\n1 fold\n");
	ck_assert_int_eq(end_chips(&t, 1, 0), 99 + 4 + 20);
	tu_game_release(&t);

	/* Two levels only: after the contrecarre nothing more. */
	tu_game_init(&t, "brelan", 4, 3, 5, (const char *const[]){ "carre=yes", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 straddle\n1 straddle\n");
	ck_assert_int_eq(V(t)->phase, VY_BET);
	ck_assert_int_eq(vying_to_act(V(t)), 2);
	tu_game_release(&t);

	/* Forced carre: seat 0 pays it at once; seat 1 may contrecarre. */
	tu_game_init(&t, "brelan", 4, 3, 5, (const char *const[]){ "carre=forced", NULL });
	tu_game_start(&t);
	ck_assert_int_eq(V(t)->stake[0], 4);
	ck_assert_int_eq(vying_to_act(V(t)), 1);
	tu_game_script(&t, "1 decline\n1 call\n2 call\n3 fold\n0 call\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	tu_game_release(&t);
}
END_TEST

/* Brelan of aces for seat 0, of kings for seat 1, of queens for seat 2 (28 cards). */
static const char *BRELANS =
	"AS KS QS JS  AH KH QH JH  AD KD QD TS  9C  JD JC TH TD TC 9S 9H 9D 8S 8H 8D 8C AC KC QC\n";

START_TEST(brelan_payments_both_ways)
{
	struct tu_game t;
	tu_game_init(&t, "brelan", 4, 3, 5, (const char *const[]){ "brelan_pay=2", NULL });
	tu_game_stack(&t, BRELANS);
	tu_game_start(&t);
	tu_game_script(&t, "0 open 4\n1 call\n2 fold\n3 fold\n");
	/* Seat 0 wins 4 + 8; the three brelans cancel each other; seat 3 pays
	 * 2 to each of them though he folded. */
	ck_assert_int_eq(end_chips(&t, 1, 0), 99 - 4 + 12 + 2);
	ck_assert_int_eq(end_chips(&t, 1, 1), 99 - 4 + 2);
	ck_assert_int_eq(end_chips(&t, 1, 2), 99 + 2);
	ck_assert_int_eq(end_chips(&t, 1, 3), 99 - 6);
	tu_game_release(&t);
	/* Default: no payments. */
	tu_game_init(&t, "brelan", 4, 3, 5, NULL);
	tu_game_stack(&t, BRELANS);
	tu_game_start(&t);
	tu_game_script(&t, "0 open 4\n1 call\n2 fold\n3 fold\n");
	ck_assert_int_eq(end_chips(&t, 1, 3), 99);
	ck_assert_int_eq(end_chips(&t, 1, 0), 99 - 4 + 12);
	tu_game_release(&t);
}
END_TEST

START_TEST(turned_pair_is_no_brelan)
{
	struct tu_game t;
	tu_game_init(&t, "brelan", 4, 3, 5, NULL);
	card_t h[3] = { card_make(RANK_NINE, SUIT_HEARTS), card_make(RANK_NINE, SUIT_DIAMONDS),
	                card_make(RANK_ACE, SUIT_SPADES) };
	int r;
	ck_assert_int_eq(vying_combo(&V(t)->cfg, h, card_make(RANK_NINE, SUIT_CLUBS), &r), VY_POINT);
	h[2] = card_make(RANK_NINE, SUIT_SPADES);
	ck_assert_int_eq(vying_combo(&V(t)->cfg, h, card_make(RANK_NINE, SUIT_CLUBS), &r), VY_CARRE);
	ck_assert_int_eq(vying_combo(&V(t)->cfg, h, card_make(RANK_TEN, SUIT_CLUBS), &r), VY_BRELAN);
	tu_game_release(&t);
	const struct game_ops *g = registry_ops("brelan");
	struct rules rr;
	char err[128];
	card_t pack[CARD_MAX_PACK];
	static const char *const packs[] = { "pack=20", "pack=24", "pack=28", "pack=32", "pack=36" };
	for (int i = 0; i < 5; i++) {
		rules_init(&rr, g->rules, g->nrules);
		ck_assert_int_eq(rules_set_arg(&rr, packs[i], err, sizeof err), 0);
		ck_assert_int_eq(g->pack(&rr, 4, pack, err, sizeof err), 20 + 4 * i);
	}
}
END_TEST

START_TEST(caves_and_recave)
{
	/* Brelan cave: 3 caves of 10 each, recaves from those left. */
	struct tu_game t;
	tu_game_init(&t, "brelan", 2, 1, 5, (const char *const[]){ "caves=3", "cave=10", NULL });
	tu_game_start(&t);
	ck_assert_int_eq(V(t)->chips[0], 9);
	ck_assert_int_eq(V(t)->reserve[0], 20);
	tu_game_script(&t, "0 allin\n1 call\n");
	int loser = end_chips(&t, 1, 0) == 0 ? 0 : 1;
	ck_assert_int_eq(end_chips(&t, 1, loser), 0);
	ck_assert_int_eq(V(t)->reserve[loser], 10);
	ck_assert_int_eq(V(t)->chips[loser], 9);
	tu_game_release(&t);
	/* A waiting cave may be added between deals, before the cards. */
	tu_game_init(&t, "brelan", 2, 1, 5, (const char *const[]){ "caves=3", "cave=10", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 open 2\n1 fold\n");
	ck_assert_int_eq(V(t)->phase, VY_CAVE);
	ck_assert_int_eq(vying_to_act(V(t)), 1);
	struct refusal why;
	ck_assert_int_eq(tu_game_try(&t, "pass", &why), -1);
	ck_assert_int_eq(why.code, VY_REF_CAVE_NOW);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_DEAL), 2); /* the new deal's cards not yet given */
	tu_game_script(&t, "1 take\n");
	ck_assert_int_eq(V(t)->reserve[1], 10);
	ck_assert_int_eq(V(t)->chips[1], 9 + 10 - 1);
	ck_assert_int_eq(V(t)->chips[0], 11 - 1);
	ck_assert_int_eq(V(t)->phase, VY_BET);
	tu_game_release(&t);
	tu_referee("brelan", 3, (const char *const[]){ "caves=3", "cave=10", NULL }, 3, 0, 11, 0);
	tu_referee("brelan", 4, (const char *const[]){ "caves=4", "cave=10", NULL }, 3, 2, 11, 0);
	tu_referee("brelan", 3, (const char *const[]){ "recave=between", "cave=10", "hands=40", NULL }, 3,
	           0, 12, 0);
	tu_referee("brelan", 4, (const char *const[]){ "cave=10", NULL }, 3, 0, 13, 0);
}
END_TEST

START_TEST(referee_all_options)
{
	static const char *const pack[] = { "pack=20", "pack=24", "pack=28", "pack=32", "pack=36" };
	static const char *const passe[] = { "passe=all", "passe=dealer", "passe=none" };
	static const char *const carre[] = { "carre=no", "carre=yes", "carre=forced" };
	long total = 0;
	int k = 0;
	for (int pa = 0; pa < 3; pa++)
		for (int c = 0; c < 3; c++)
			for (int lv = 1; lv <= 4; lv++)
				for (int pay = 0; pay <= 2; pay++) {
					char lvs[32], pays[32];
					snprintf(lvs, sizeof lvs, "carre_levels=%d", lv);
					snprintf(pays, sizeof pays, "brelan_pay=%d", pay);
					int players = 2 + k % 4;
					const char *rules[10] = { pack[k % 5], passe[pa], carre[c], lvs, pays,
					                          k % 2 ? "recave=between" : "recave=no",
					                          k % 7 == 3 ? "caves=2" : "caves=1",
					                          "hands=10", "cave=30", NULL };
					if (getenv("VYDBG")) fprintf(stderr, "k=%d %s %s %s %s %s %s %s p=%d\n", k, rules[0], rules[1], rules[2], rules[3], rules[4], rules[5], rules[6], players);
					total += tu_referee("brelan", players, rules, getenv("VYSOAK") ? 40 : 1, k % 3, (uint64_t)k, 0);
					k++;
				}
	ck_assert_int_gt(total, 1000);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("brelan");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, point_recomputed_each_stage);
	tcase_add_test(tc, tapis_wins_only_the_passe);
	tcase_add_test(tc, passe_doubles);
	tcase_add_test(tc, carre_orders);
	tcase_add_test(tc, brelan_payments_both_ways);
	tcase_add_test(tc, turned_pair_is_no_brelan);
	tcase_add_test(tc, caves_and_recave);
	tcase_add_test(tc, referee_all_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
