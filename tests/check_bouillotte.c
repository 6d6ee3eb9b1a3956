/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bouillotte: the seed's worked cases, scenarios of every rule, the referee. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "games/vying.h"
#include "testutil.h"

#define V(t) ((struct vying *)(t).st)

/* The seed's example: D deals, A B C speak; hearts and diamonds 39 each. */
static const char *EXAMPLE =
	"AD QH KD KH  9C AC QD 8D  8H 8C AS QS  AH  KS 9S 8S 9H 9D KC QC\n";

/* Chips of a seat at the end of deal k (1, 2...). */
static int end_chips(const struct tu_game *t, int k, int seat)
{
	int i = -1;
	for (int n = 0; n < k; n++) {
		i = tu_events_find(&t->ev, EV_HAND_END, i + 1);
		ck_assert_int_ge(i, 0);
	}
	return t->ev.e[i].values[seat];
}

static int last_showdown(const struct tu_game *t)
{
	int i = -1, j;
	while ((j = tu_events_find(&t->ev, EV_SHOWDOWN, i + 1)) >= 0)
		i = j;
	return i;
}

START_TEST(tie_won_by_position)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	tu_game_stack(&t, EXAMPLE);
	tu_game_start(&t);
	/* C called while four were in: he may still raise, and stands. */
	tu_game_script(&t, "0 pass\n1 open 1\n2 call\n3 fold\n0 fold\n2 pass\n");
	int i = last_showdown(&t);
	ck_assert_int_ge(i, 0);
	const struct event *e = &t.ev.e[i];
	ck_assert_int_eq(e->winner, 1);
	ck_assert_int_eq(e->code, VY_POINT);
	ck_assert_int_eq(e->value, SUIT_HEARTS);
	ck_assert_int_eq(e->points, 39);
	ck_assert_int_eq(e->ncards, 12); /* folded hands shown too */
	/* B takes 7: A's 1, B 2, C 2, D 2. */
	ck_assert_int_eq(end_chips(&t, 1, 1), 100 - 2 + 7);
	ck_assert_int_eq(end_chips(&t, 1, 0), 99);
	ck_assert_int_eq(end_chips(&t, 1, 3), 98);
	tu_game_release(&t);

	/* Had A stayed in, diamonds would have won for A. */
	tu_game_init(&t, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	tu_game_stack(&t, EXAMPLE);
	tu_game_start(&t);
	int kind, suit, pts;
	ck_assert_int_eq(vying_best(V(t), 0x7, -1, &kind, &suit, &pts), 0);
	ck_assert_int_eq(suit, SUIT_DIAMONDS);
	ck_assert_int_eq(pts, 39);
	ck_assert_int_eq(vying_best(V(t), 0x6, -1, &kind, &suit, &pts), 1);
	ck_assert_int_eq(suit, SUIT_HEARTS);
	tu_game_release(&t);
}
END_TEST

START_TEST(levels_17_14)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 1, NULL);
	struct vying *v = V(t);
	/* Stakes 2, 5, 8, 16; the 5 are all the second player had; the first folded. */
	int stakes[4] = { 2, 5, 8, 16 };
	for (int s = 0; s < 4; s++) {
		v->in_deal[s] = 1;
		v->stake[s] = stakes[s];
		v->chips[s] = s == 1 ? 0 : 50;
	}
	v->folded[0] = 1;
	int amounts[VY_MAX + 1];
	unsigned cont[VY_MAX + 1];
	ck_assert_int_eq(vying_levels(v, amounts, cont), 2);
	ck_assert_int_eq(amounts[0], 17);
	ck_assert_int_eq(amounts[1], 14);
	ck_assert_uint_eq(cont[0], 0xe);
	ck_assert_uint_eq(cont[1], 0xc); /* seat 2 may still call */
	tu_game_release(&t);
}
END_TEST

START_TEST(all_pass_carries)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 5, (const char *const[]){ "straddle=no", NULL });
	tu_game_start(&t);
	ck_assert_int_eq(vying_pot(V(t)), 5);
	tu_game_script(&t, "0 pass\n1 pass\n2 pass\n3 pass\n");
	int he = tu_events_find(&t.ev, EV_HAND_END, 0);
	ck_assert_int_ge(he, 0);
	ck_assert_int_eq(t.ev.e[he].pot, 5);
	/* New deal: seat 0 deals and alone adds a chip. */
	ck_assert_int_eq(V(t)->dealer, 0);
	ck_assert_int_eq(V(t)->hand, 2);
	ck_assert_int_eq(vying_pot(V(t)), 6);
	ck_assert_int_eq(V(t)->stake[0], 1);
	ck_assert_int_eq(V(t)->stake[1], 0);
	ck_assert_int_eq(V(t)->dead, 5);
	/* Opening needs the largest stake (1) and at least one chip. */
	ck_assert_int_eq(vying_min_open(V(t), 1), 1);
	tu_game_script(&t, "1 open 3\n2 fold\n3 fold\n0 fold\n");
	ck_assert_int_eq(end_chips(&t, 2, 1), 99 + 6); /* 99 after the first ante; 5 carried + 1 */
	tu_game_release(&t);
}
END_TEST

/* An all-in everybody folds to: what nobody matched comes back before the
 * pot, which holds only what was matched (the dealer's 2 against the 2 of
 * the winner's 100, and the two other antes). */
START_TEST(uncalled_allin_comes_back)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 allin\n1 fold\n2 fold\n3 fold\n");
	int back = -1, pot = -1, i = -1;
	while ((i = tu_events_find(&t.ev, EV_PAYMENT, i + 1)) >= 0) {
		const struct event *e = &t.ev.e[i];
		if (e->reason == EV_PAY_RETURN) {
			ck_assert_int_eq(e->to, 0);
			ck_assert_int_eq(pot, -1); /* before the pot */
			back = e->amount;
		} else if (e->reason == EV_PAY_UNCONTESTED) {
			ck_assert_int_eq(e->to, 0);
			pot = e->amount;
		}
	}
	ck_assert_int_eq(back, 98);
	ck_assert_int_eq(pot, 6);
	ck_assert_int_eq(end_chips(&t, 1, 0), 104);
	tu_game_release(&t);

	/* Called in full: nothing comes back. */
	tu_game_init(&t, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 open 1\n1 fold\n2 fold\n3 fold\n");
	for (i = -1; (i = tu_events_find(&t.ev, EV_PAYMENT, i + 1)) >= 0;)
		ck_assert_int_ne(t.ev.e[i].reason, EV_PAY_RETURN);
	ck_assert_int_eq(end_chips(&t, 1, 0), 99 + 5);
	tu_game_release(&t);
}
END_TEST

START_TEST(straddle_unanswered)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 5, NULL);
	tu_game_start(&t);
	/* No card is dealt before the straddles. */
	ck_assert_int_eq(tu_events_count(&t.ev, EV_DEAL), 0);
	ck_assert_int_eq(vying_to_act(V(t)), 0);
	struct action l[GAME_MAX_LEGAL];
	int n = vying_legal(V(t), l, GAME_MAX_LEGAL);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(l[0].kind, ACT_STRADDLE);
	ck_assert_int_eq(l[0].amount, 5);
	tu_game_script(&t, "0 straddle\n");
	ck_assert_int_eq(vying_straddle_amount(V(t)), 10);
	tu_game_script(&t, "1 decline\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_DEAL), 4);
	/* The right of the straddler speaks first; all pass: the straddler wins. */
	tu_game_script(&t, "1 pass\n2 pass\n3 pass\n");
	ck_assert_int_eq(end_chips(&t, 1, 0), 100 - 6 + 10);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 0);
	tu_game_release(&t);
}
END_TEST

START_TEST(straddler_calls_free_or_raises)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 5, NULL);
	tu_game_start(&t);
	tu_game_script(&t, "0 straddle\n1 straddle\n2 decline\n"); /* stakes 6, 11, 1, 2: pot 20 */
	ck_assert_int_eq(vying_pot(V(t)), 20);
	/* seat 2 speaks first, seat 1 (the last straddler) last. */
	ck_assert_int_eq(vying_to_act(V(t)), 2);
	struct refusal why;
	ck_assert_int_eq(tu_game_try(&t, "open 5", &why), -1);
	ck_assert_int_eq(why.code, VY_REF_MIN_OPEN);
	ck_assert_int_eq(why.amount, 10);
	ck_assert_int_eq(tu_game_try(&t, "call", &why), -1);
	ck_assert_int_eq(why.code, VY_REF_NOT_OPENED);
	tu_game_script(&t, "2 open 10\n3 fold\n0 fold\n");
	/* The straddler may call for nothing. */
	ck_assert_int_eq(vying_to_call(V(t), 1), 0);
	tu_game_script(&t, "1 call\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	tu_game_release(&t);
}
END_TEST

START_TEST(buyback_order)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 5, 4, 5, (const char *const[]){ "buyback=yes", NULL });
	tu_game_start(&t);
	/* 5 players, ante all: pot 6. */
	tu_game_script(&t, "0 straddle\n1 straddle\n");
	ck_assert_int_eq(vying_to_act(V(t)), 0); /* the buy-back */
	struct action l[4];
	ck_assert_int_eq(vying_legal(V(t), l, 4), 2);
	ck_assert_int_eq(l[0].kind, ACT_BUYBACK);
	ck_assert_int_eq(l[0].amount, 24);
	tu_game_script(&t, "0 decline\n2 straddle\n1 buyback\n");
	/* Seat 1 bought back: it speaks last, seat 2 first. */
	ck_assert_int_eq(V(t)->last_straddler, 1);
	ck_assert_int_eq(vying_to_act(V(t)), 2);
	tu_game_script(&t, "2 pass\n3 pass\n4 pass\n0 pass\n");
	ck_assert_int_eq(V(t)->hand, 2);
	ck_assert_int_eq(end_chips(&t, 1, 1), 100 - 1 - 12 - 48 + 6 + 6 + 12 + 24 + 48);
	tu_game_release(&t);
}
END_TEST

START_TEST(two_survivors_call)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 7, (const char *const[]){ "straddle=no", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 open 3\n1 fold\n2 fold\n3 call\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	for (int i = 0; i < t.ev.n; i++)
		ck_assert(!(t.ev.e[i].type == EV_PHASE && t.ev.e[i].note == EV_NOTE_EXTRA_ROUND));
	tu_game_release(&t);
}
END_TEST

static int count_phase(const struct tu_game *t, enum ev_note note)
{
	int n = 0;
	for (int i = 0; i < t->ev.n; i++)
		n += t->ev.e[i].type == EV_PHASE && t->ev.e[i].note == note;
	return n;
}

START_TEST(three_survivors_extra_round)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 7, (const char *const[]){ "straddle=no", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 open 3\n1 call\n2 fold\n3 call\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 0);
	ck_assert_int_eq(count_phase(&t, EV_NOTE_EXTRA_ROUND), 1);
	/* From the right of the opener; the opener may not raise his own bet. */
	ck_assert_int_eq(vying_to_act(V(t)), 1);
	struct refusal why;
	ck_assert_int_eq(tu_game_try(&t, "call", &why), -1);
	ck_assert_int_eq(why.code, VY_REF_EXTRA_ROUND);
	tu_game_script(&t, "1 raise 5\n3 call\n0 call\n");
	ck_assert_int_eq(count_phase(&t, EV_NOTE_EXTRA_ROUND), 2);
	ck_assert_int_eq(vying_to_act(V(t)), 3);
	tu_game_script(&t, "3 pass\n0 pass\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	tu_game_release(&t);
}
END_TEST

/* The seed's third case: a call made while three or more were in still owes
 * the extra round when a later fold leaves two. */
START_TEST(call_among_three_keeps_extra_round)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 7, (const char *const[]){ "straddle=no", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 open 3\n1 call\n2 fold\n3 fold\n");
	/* Seat 1 called with four in: it may raise or stand. */
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 0);
	ck_assert_int_eq(count_phase(&t, EV_NOTE_EXTRA_ROUND), 1);
	ck_assert_int_eq(vying_to_act(V(t)), 1);
	struct action l[GAME_MAX_LEGAL];
	int n = vying_legal(V(t), l, GAME_MAX_LEGAL);
	ck_assert_int_eq(l[0].kind, ACT_PASS);
	ck_assert_int_eq(l[1].kind, ACT_RAISE);
	ck_assert_int_eq(n, 3);
	/* A raise answered by the only other survivor: that call ends it. */
	tu_game_script(&t, "1 raise 4\n0 call\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	ck_assert_int_eq(count_phase(&t, EV_NOTE_EXTRA_ROUND), 1);
	tu_game_release(&t);

	/* Standing ends it with a showdown. */
	tu_game_init(&t, "bouillotte", 4, 3, 7, (const char *const[]){ "straddle=no", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 open 3\n1 fold\n2 call\n3 fold\n2 pass\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	tu_game_release(&t);

	/* The fold came first: the call was made between two, no extra round. */
	tu_game_init(&t, "bouillotte", 4, 3, 7, (const char *const[]){ "straddle=no", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 open 3\n1 fold\n2 fold\n3 call\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	ck_assert_int_eq(count_phase(&t, EV_NOTE_EXTRA_ROUND), 0);
	tu_game_release(&t);
}
END_TEST

/* Every survivor but one is all in: nobody could answer a raise, so nobody
 * is asked to raise or stand. */
START_TEST(all_but_one_all_in_no_extra_round)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 7, (const char *const[]){ "straddle=no", "brelan_pay=0", NULL });
	V(t)->chips[0] = V(t)->bought[0] = 5;
	V(t)->chips[1] = V(t)->bought[1] = 8;
	tu_game_start(&t);
	/* Seat 0 all in for 4 (stake 5), seat 1 all in over it (stake 8),
	 * seat 2 calls, seat 3 folds: three survivors, one with chips. */
	tu_game_script(&t, "0 allin\n1 allin\n2 call\n3 fold\n");
	ck_assert_int_eq(count_phase(&t, EV_NOTE_EXTRA_ROUND), 0);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	ck_assert_int_eq(V(t)->hand, 2);
	tu_game_release(&t);

	/* The same after a call among three and a fold: the caller is the last
	 * with chips, facing an all-in bettor. */
	tu_game_init(&t, "bouillotte", 4, 3, 7, (const char *const[]){ "straddle=no", "brelan_pay=0", NULL });
	V(t)->chips[0] = V(t)->bought[0] = 5;
	tu_game_start(&t);
	tu_game_script(&t, "0 allin\n1 call\n2 fold\n3 fold\n");
	ck_assert_int_eq(count_phase(&t, EV_NOTE_EXTRA_ROUND), 0);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	tu_game_release(&t);
}
END_TEST

START_TEST(reraises)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 9, (const char *const[]){ "straddle=no", NULL });
	tu_game_start(&t);
	tu_game_script(&t, "0 open 2\n1 raise 5\n2 fold\n3 fold\n");
	struct refusal why;
	ck_assert_int_eq(tu_game_try(&t, "raise 3", &why), -1);
	ck_assert_int_eq(why.code, VY_REF_MIN_RAISE);
	ck_assert_int_eq(why.amount, 4);
	ck_assert_int_eq(tu_game_try(&t, "raise 200", &why), -1);
	ck_assert_int_eq(why.code, VY_REF_TOO_MANY);
	tu_game_script(&t, "0 raise 10\n1 raise 20\n0 call\n");
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	int w = t.ev.e[last_showdown(&t)].winner;
	/* Seats 0 and 1 both staked 26; with the antes of 2 and 3 the pot is 55. */
	ck_assert_int_eq(end_chips(&t, 1, w), 100 - 26 + 55);
	tu_game_release(&t);
}
END_TEST

/* Levels: seat 0 all in short wins the first level on spades (40, a tie with
 * clubs won by position); the second level goes to the highest spade among
 * seats 1 and 2 (Bouillotte's fixed suit), though recounting would give
 * seat 1 the clubs by position. */
static const char *LEVELS =
	"KS QH KD QC  9C 9H KC AD  KH AC 9S QS  AS  AH 8H QD 9D 8D 8C 8S\n";

START_TEST(allin_levels_fixed_suit)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 1,
	             (const char *const[]){ "straddle=no", "brelan_pay=0", "cave=30", NULL });
	tu_game_stack(&t, LEVELS);
	V(t)->chips[0] = V(t)->bought[0] = 5;
	tu_game_start(&t);
	tu_game_script(&t, "0 allin\n1 raise 10\n2 call\n3 fold\n");
	ck_assert_int_eq(count_phase(&t, EV_NOTE_EXTRA_ROUND), 1);
	int amounts[VY_MAX + 1];
	unsigned cont[VY_MAX + 1];
	ck_assert_int_eq(vying_levels(V(t), amounts, cont), 2);
	ck_assert_int_eq(amounts[0], 17);
	ck_assert_int_eq(amounts[1], 12);
	tu_game_script(&t, "2 pass\n");
	ck_assert_int_eq(end_chips(&t, 1, 0), 17);
	ck_assert_int_eq(end_chips(&t, 1, 1), 19);
	ck_assert_int_eq(end_chips(&t, 1, 2), 31);
	ck_assert_int_eq(end_chips(&t, 1, 3), 28);
	const struct event *e = &t.ev.e[last_showdown(&t)];
	ck_assert_int_eq(e->winner, 0);
	ck_assert_uint_eq(e->winners, 0x5);
	tu_game_release(&t);
}
END_TEST

/* A brelan carre of nines (turned 9C) for seat 1, a brelan of kings for seat 2. */
static const char *BRELANS =
	"AS 9S KS QS  AH 9H KH QH  8S 9D KD 8H  9C  AD QD 8D AC KC QC 8C\n";

START_TEST(brelan_payments)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 1, (const char *const[]){ "straddle=no", NULL });
	tu_game_stack(&t, BRELANS);
	tu_game_start(&t);
	tu_game_script(&t, "0 open 1\n1 call\n2 call\n3 fold\n");
	tu_game_script(&t, "1 pass\n2 pass\n");
	/* Seat 1 wins the pot (8) with the brelan carre, is paid 2 by seats 0 and
	 * 3 and nets 1 from seat 2; seat 2 is paid 1 by seats 0 and 3. */
	ck_assert_int_eq(end_chips(&t, 1, 1), 98 + 8 + 2 + 2 + 1);
	ck_assert_int_eq(end_chips(&t, 1, 2), 98 - 1 + 1 + 1);
	ck_assert_int_eq(end_chips(&t, 1, 0), 98 - 3);
	ck_assert_int_eq(end_chips(&t, 1, 3), 98 - 3);
	const struct event *e = &t.ev.e[last_showdown(&t)];
	ck_assert_int_eq(e->code, VY_CARRE);
	tu_game_release(&t);

	/* brelan_pay=0: no payments; brelans=no: the point wins. */
	tu_game_init(&t, "bouillotte", 4, 3, 1,
	             (const char *const[]){ "straddle=no", "brelans=no", NULL });
	tu_game_stack(&t, BRELANS);
	tu_game_start(&t);
	tu_game_script(&t, "0 open 1\n1 call\n2 call\n3 fold\n1 pass\n2 pass\n");
	e = &t.ev.e[last_showdown(&t)];
	ck_assert_int_eq(e->code, VY_POINT);
	int sum = 0;
	for (int s = 0; s < 4; s++)
		sum += end_chips(&t, 1, s);
	ck_assert_int_eq(sum, 400);
	ck_assert_int_eq(end_chips(&t, 1, e->winner), 98 + 8);
	tu_game_release(&t);
}
END_TEST

START_TEST(mistigri)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 4, 3, 1, (const char *const[]){ "mistigri=yes", NULL });
	card_t h[3] = { card_make(RANK_QUEEN, SUIT_CLUBS), card_make(RANK_NINE, SUIT_HEARTS),
	                card_make(RANK_NINE, SUIT_DIAMONDS) };
	int r;
	ck_assert_int_eq(vying_combo(&V(t)->cfg, h, card_make(RANK_ACE, SUIT_SPADES), &r), VY_MISTIGRI);
	ck_assert_int_eq(r, RANK_NINE);
	h[2] = card_make(RANK_NINE, SUIT_SPADES);
	ck_assert_int_eq(vying_combo(&V(t)->cfg, h, card_make(RANK_ACE, SUIT_SPADES), &r), VY_POINT);
	tu_game_release(&t);
	/* Impossible with three players (no queens). */
	const struct game_ops *g = registry_ops("bouillotte");
	struct rules rr;
	char err[128];
	rules_init(&rr, g->rules, g->nrules);
	ck_assert_int_eq(rules_set_arg(&rr, "mistigri=yes", err, sizeof err), 0);
	card_t pack[CARD_MAX_PACK];
	ck_assert_int_eq(g->pack(&rr, 3, pack, err, sizeof err), -1);
	rules_init(&rr, g->rules, g->nrules);
	ck_assert_int_eq(g->pack(&rr, 3, pack, err, sizeof err), 16);
	ck_assert_int_eq(g->pack(&rr, 4, pack, err, sizeof err), 20);
	ck_assert_int_eq(g->pack(&rr, 5, pack, err, sizeof err), 24);
}
END_TEST

START_TEST(antes_take_the_last_chips)
{
	struct tu_game t;
	tu_game_init(&t, "bouillotte", 3, 2, 1, (const char *const[]){ "straddle=no", NULL });
	struct vying *v = V(t);
	v->chips[0] = v->bought[0] = 1;
	v->chips[1] = v->bought[1] = 1;
	v->chips[2] = v->bought[2] = 2;
	tu_game_start(&t);
	/* Nobody can speak: the hands are compared at once. */
	ck_assert_int_eq(tu_events_count(&t.ev, EV_SHOWDOWN), 1);
	int w = t.ev.e[last_showdown(&t)].winner;
	ck_assert_int_eq(end_chips(&t, 1, w), 4);
	tu_game_release(&t);
}
END_TEST

START_TEST(no_rebuy_ends)
{
	tu_referee("bouillotte", 3, (const char *const[]){ "rebuy=no", "cave=10", NULL }, 4, 0, 3, 0);
}
END_TEST

/* Big caves bought again and again: the winners' stacks and the losers'
 * net results grew past an int after some 13,000 deals. Every action is
 * audited (the chips counted and bounded); once the table holds its most
 * chips, a player without chips leaves, and the game ends by itself. */
START_TEST(rebuys_bounded)
{
	static const char *const big[] = { "cave=100000", "rebuy=yes", NULL };
	ck_assert_int_gt(tu_referee("bouillotte", 4, big, 1, 0, 1, 3000000), 40000);
	/* The same game watched: rebuys went up to the bound, then stopped. */
	struct tu_game t;
	tu_referee_game(&t, "bouillotte", 4, big, 0, 1);
	const struct vying *v = t.st;
	long bought = 0;
	int standings[VY_MAX];
	t.g->standings(t.st, standings);
	for (int s = 0; s < 4; s++) {
		bought += v->bought[s];
		ck_assert_int_ge(standings[s], -VY_CHIPS_MAX);
		ck_assert_int_le(standings[s], VY_CHIPS_MAX);
	}
	ck_assert_int_le(bought, VY_CHIPS_MAX);
	ck_assert_int_gt(bought, VY_CHIPS_MAX - 100000 * 5);
	ck_assert_int_gt(v->hand, 5000);
	tu_game_release(&t);
}
END_TEST

START_TEST(referee_all_options)
{
	static const char *const straddle[] = { "straddle=yes", "straddle=no" };
	static const char *const buyback[] = { "buyback=no", "buyback=yes" };
	static const char *const ante[] = { "ante=all", "ante=dealer" };
	static const char *const pay[] = { "brelan_pay=1", "brelan_pay=0" };
	static const char *const br[] = { "brelans=yes", "brelans=no" };
	static const char *const rebuy[] = { "rebuy=yes", "rebuy=no" };
	long total = 0;
	for (int m = 0; m < 64; m++) {
		for (int p = 3; p <= 5; p++) {
			const char *rules[10] = { straddle[m & 1], buyback[(m >> 1) & 1], ante[(m >> 2) & 1],
			                          pay[(m >> 3) & 1], br[(m >> 4) & 1], rebuy[(m >> 5) & 1],
			                          "hands=12", "cave=40", NULL, NULL };
			if (p > 3 && (m & 3) == 3)
				rules[8] = "mistigri=yes";
			total += tu_referee("bouillotte", p, rules, getenv("VYSOAK") ? 40 : 1, (m + p) % 3, (uint64_t)(m * 7 + p), 0);
		}
	}
	ck_assert_int_gt(total, 1000);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bouillotte");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, tie_won_by_position);
	tcase_add_test(tc, levels_17_14);
	tcase_add_test(tc, all_pass_carries);
	tcase_add_test(tc, straddle_unanswered);
	tcase_add_test(tc, straddler_calls_free_or_raises);
	tcase_add_test(tc, buyback_order);
	tcase_add_test(tc, two_survivors_call);
	tcase_add_test(tc, three_survivors_extra_round);
	tcase_add_test(tc, call_among_three_keeps_extra_round);
	tcase_add_test(tc, all_but_one_all_in_no_extra_round);
	tcase_add_test(tc, reraises);
	tcase_add_test(tc, allin_levels_fixed_suit);
	tcase_add_test(tc, brelan_payments);
	tcase_add_test(tc, uncalled_allin_comes_back);
	tcase_add_test(tc, mistigri);
	tcase_add_test(tc, antes_take_the_last_chips);
	tcase_add_test(tc, no_rebuy_ends);
	tcase_add_test(tc, rebuys_bounded);
	tcase_add_test(tc, referee_all_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
