/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Le Brouc and L'Homme de Brou: deal, play, combinations, scoring, the
 * referee, and the bot's strength. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "testutil.h"

#include "bots/bot.h"
#include "games/brouc.h"
#include "i18n/i18n.h"
#include "words/talk.h"

#define ST(t) ((struct brouc_state *)(t)->st)

/* A pack text dealing hands[s] (8 cards each: the 1-card packet, the three
 * of the 3-card packet, the four of the 4-card packet) with dealer d: the
 * dealer's eighth card is the pack's last, the turned-up trump. */
static void make_pack(int dealer, const char *const hands[4], char *out, size_t len)
{
	card_t h[4][8];
	for (int s = 0; s < 4; s++) {
		const char *p = hands[s];
		for (int i = 0; i < 8; i++) {
			while (*p == ' ')
				p++;
			size_t used = card_parse_prefix(p, &h[s][i]);
			ck_assert_msg(used > 0, "bad hand %s", hands[s]);
			p += used;
		}
	}
	static const int first[3] = { 0, 1, 4 }, size[3] = { 1, 3, 4 };
	size_t n = 0;
	out[0] = '\0';
	for (int k = 0; k < 3; k++)
		for (int i = 1; i <= 4; i++) {
			int s = (dealer + i) % 4;
			for (int j = 0; j < size[k]; j++) {
				char b[CARD_STR_MAX];
				n += (size_t)snprintf(out + n, len - n, "%s ", card_str(h[s][first[k] + j], b));
			}
		}
}

static void stacked(struct tu_game *t, const char *const *rules, int dealer, const char *const hands[4])
{
	char text[512];
	make_pack(dealer, hands, text, sizeof text);
	tu_game_init(t, "brouc", 4, dealer, 1, rules);
	tu_game_stack(t, text);
	tu_game_start(t);
}

static void audit_ok(struct tu_game *t)
{
	char err[256];
	ck_assert_msg(t->g->audit(t->st, err, sizeof err) == 0, "audit: %s", err);
}

/* Sum of the EV_DECLARE points from event `from`. */
static int declared(const struct tu_game *t, int from, int *count)
{
	int sum = 0, n = 0;
	for (int i = from; i < t->ev.n; i++)
		if (t->ev.e[i].type == EV_DECLARE) {
			sum += t->ev.e[i].points;
			n++;
		}
	if (count)
		*count = n;
	return sum;
}

/* Plays the first legal card until the deal `hand` is over. */
static void play_out(struct tu_game *t, int hand)
{
	while (t->g->to_act(t->st) >= 0 && t->g->hand_number(t->st) == hand) {
		struct action legal[GAME_MAX_LEGAL];
		int n = t->g->legal(t->st, legal, GAME_MAX_LEGAL);
		ck_assert_int_gt(n, 0);
		struct sink s = tu_events_sink(&t->ev);
		struct refusal why;
		ck_assert_int_eq(t->g->apply(t->st, &legal[0], &s, &why), 0);
		audit_ok(t);
	}
}

/* ---- the deal ---- */

START_TEST(test_deal_packets)
{
	/* A pack in plain order, dealer 1: seat 2 first, packets 1, 3, 4. */
	card_t pack[32];
	char err[64];
	const struct game_ops *g = registry_ops("brouc");
	ck_assert_int_eq(g->pack(NULL, 4, pack, err, sizeof err), 32);
	char text[256];
	size_t n = 0;
	for (int i = 0; i < 32; i++) {
		char b[CARD_STR_MAX];
		n += (size_t)snprintf(text + n, sizeof text - n, "%s ", card_str(pack[i], b));
	}
	struct tu_game t;
	tu_game_init(&t, "brouc", 4, 1, 7, NULL);
	tu_game_stack(&t, text);
	tu_game_start(&t);
	int want[4][8];
	for (int k = 0, pos = 0; k < 3; k++) {
		static const int size[3] = { 1, 3, 4 }, first[3] = { 0, 1, 4 };
		for (int i = 1; i <= 4; i++) {
			int s = (1 + i) % 4;
			for (int j = 0; j < size[k]; j++)
				want[s][first[k] + j] = pos++;
		}
	}
	ck_assert_int_eq(want[2][0], 0);
	ck_assert_int_eq(want[3][0], 1);
	ck_assert_int_eq(want[1][0], 3);
	ck_assert_int_eq(want[2][1], 4);
	ck_assert_int_eq(want[2][4], 16);
	ck_assert_int_eq(want[1][7], 31);
	for (int s = 0; s < 4; s++) {
		card_t wc[8], hc[8];
		for (int i = 0; i < 8; i++)
			wc[i] = pack[want[s][i]];
		ck_assert_int_eq(t.g->hand(t.st, s, hc), 8);
		ck_assert_msg(card_same_multiset(wc, 8, hc, 8), "seat %d", s);
	}
	/* The hand_start carries the pack; each seat sees its own deal only. */
	int hs = tu_events_find(&t.ev, EV_HAND_START, 0);
	ck_assert_int_ge(hs, 0);
	ck_assert_int_eq(t.ev.e[hs].ncards, 32);
	ck_assert_int_eq(memcmp(t.ev.e[hs].cards, pack, 32), 0);
	ck_assert_int_eq(t.ev.e[hs].dealer, 1);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_DEAL), 4);
	for (int i = 0; i < t.ev.n; i++)
		if (t.ev.e[i].type == EV_DEAL)
			ck_assert_uint_eq(t.ev.e[i].visible, EV_SEAT(t.ev.e[i].seat));
	/* The last card goes to the dealer face up and names trumps. */
	int tu = tu_events_find(&t.ev, EV_TURNUP, 0);
	ck_assert_int_ge(tu, 0);
	ck_assert_uint_eq(t.ev.e[tu].cards[0], pack[31]);
	ck_assert_int_eq(ST(&t)->trump, card_suit(pack[31]));
	card_t h1[8];
	t.g->hand(t.st, 1, h1);
	ck_assert_int_ge(card_find(h1, 8, pack[31]), 0);
	/* The dealer's right (seat 2) leads. */
	ck_assert_int_eq(t.g->to_act(t.st), 2);
	audit_ok(&t);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_points_and_order)
{
	card_t pack[32];
	char err[64];
	ck_assert_int_eq(registry_ops("brouc")->pack(NULL, 4, pack, err, sizeof err), 32);
	int sum = 0;
	for (int i = 0; i < 32; i++)
		sum += brouc_points(pack[i]);
	ck_assert_int_eq(sum, 120);
	ck_assert_int_lt(registry_ops("brouc")->pack(NULL, 3, pack, err, sizeof err), 0);
	card_t a, t, k;
	card_parse("AS", &a);
	card_parse("TS", &t);
	card_parse("KS", &k);
	ck_assert(brouc_beats(a, t, SUIT_SPADES, SUIT_HEARTS));
	ck_assert(brouc_beats(t, k, SUIT_SPADES, SUIT_HEARTS));
	card_t h7;
	card_parse("7H", &h7);
	ck_assert(brouc_beats(h7, a, SUIT_SPADES, SUIT_HEARTS));
	ck_assert(!brouc_beats(a, h7, SUIT_SPADES, SUIT_HEARTS));
}
END_TEST

START_TEST(test_rounding)
{
	struct brouc_state st;
	memset(&st, 0, sizeof st);
	st.variant = BROUC_MODERN;
	ck_assert_int_eq(brouc_round(&st, 45), 5);
	ck_assert_int_eq(brouc_round(&st, 44), 4);
	ck_assert_int_eq(brouc_round(&st, 55), 6);
	ck_assert_int_eq(brouc_round(&st, 0), 0);
	ck_assert_int_eq(brouc_round(&st, 120), 12);
	st.variant = BROUC_HOMME;
	ck_assert_int_eq(brouc_round(&st, 65), 70);
	ck_assert_int_eq(brouc_round(&st, 64), 60);
	ck_assert_int_eq(brouc_round(&st, -15), -10);
	ck_assert_int_eq(brouc_round(&st, -16), -20);
	ck_assert_int_eq(brouc_round(&st, -62), -60);
}
END_TEST

/* A real deal ending in ..5 adds the total rounded up. */
START_TEST(test_rounding_in_play)
{
	static const char *const rules[] = { "hands=1", NULL };
	int found = 0;
	for (uint64_t seed = 1; seed < 400 && found < 2; seed++) {
		struct tu_game t;
		tu_game_init(&t, "brouc", 4, 0, seed, rules);
		tu_game_start(&t);
		play_out(&t, 1);
		const struct brouc_state *st = ST(&t);
		for (int k = 0; k < 2; k++) {
			ck_assert_int_eq(st->score[k], (st->dealpts[k] + 5) / 10);
			if (st->dealpts[k] % 10 == 5) {
				ck_assert_int_eq(st->score[k] * 10, st->dealpts[k] + 5);
				found++;
			}
		}
		tu_game_release(&t);
	}
	ck_assert_int_ge(found, 1);
}
END_TEST

/* ---- combinations ---- */

/* Trumps hearts (7H turned), dealer 3, seat 0 leads and wins the first
 * trick: seat 0 holds K-Q-J of spades (30, not 20 + 30) and K-Q of trumps
 * (40), seat 2 K-Q of clubs (20). */
static const char *const HAND_COMBOS[4] = {
	"AD KS QS JS KH QH 7C 8C",
	"7D AS TS 9S 8S 7S 9C JC",
	"8D KC QC AC TC AH TH JH",
	"9D TD KD QD JD 9H 8H 7H",
};

START_TEST(test_combos_in_hand)
{
	struct tu_game t;
	stacked(&t, NULL, 3, HAND_COMBOS);
	ck_assert_int_eq(ST(&t)->trump, SUIT_HEARTS);
	int from = t.ev.n;
	tu_game_script(&t, "0 play AD\n1 play 7D\n2 play 8D\n3 play 9D\n");
	int n;
	ck_assert_int_eq(declared(&t, from, &n), 90);
	ck_assert_int_eq(n, 3);
	const struct brouc_state *st = ST(&t);
	ck_assert_int_eq(st->cardpts[0], 11);
	ck_assert_int_eq(st->dealpts[0], 101);
	ck_assert_int_eq(st->dealpts[1], 0);
	/* Each declaration: seat, kind, points. */
	int seen = 0;
	for (int i = from; i < t.ev.n; i++) {
		const struct event *e = &t.ev.e[i];
		if (e->type != EV_DECLARE)
			continue;
		ck_assert_int_eq(e->winner, 0);
		if (e->seat == 0 && e->code == BROUC_KQJ) {
			ck_assert_int_eq(e->points, 30);
			ck_assert_int_eq(e->ncards, 3);
			seen |= 1;
		} else if (e->seat == 0 && e->code == BROUC_KQ) {
			ck_assert_int_eq(e->points, 40);
			ck_assert_int_eq(card_suit(e->cards[0]), SUIT_HEARTS);
			seen |= 2;
		} else if (e->seat == 2 && e->code == BROUC_KQ) {
			ck_assert_int_eq(e->points, 20);
			seen |= 4;
		}
	}
	ck_assert_int_eq(seen, 7);
	/* Team 1's first trick: seat 3 still holds K-Q-J of diamonds. Seat 0
	 * leads 7C, seat 1 wins with JC. */
	from = t.ev.n;
	tu_game_script(&t, "0 play 7C\n1 play JC\n2 play TC\n3 play 7H\n");
	/* Seat 3 trumped: team 1 wins; hand combos: seat 3 K-Q-J diamonds 30. */
	ck_assert_int_eq(declared(&t, from, &n), 30);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(ST(&t)->dealpts[1], 10 + 2 + 30);
	/* No more hand combinations for either team later. */
	from = t.ev.n;
	tu_game_script(&t, "3 play KD\n0 play KS\n1 play AS\n2 play KC\n");
	ck_assert_int_eq(declared(&t, from, &n), 0);
	audit_ok(&t);
	tu_game_release(&t);
}
END_TEST

/* Trumps hearts (8H turned), dealer 3, seat 0 leads. */
static const char *const TRICK_COMBOS[4] = {
	"QC QH 7S 8S 9S 7D 8D 9D",
	"KC KH AS TS JS TC JC 9C",
	"AC JH 8C KS KD AD TD TH",
	"7C AH QS QD JD 9H 7H 8H",
};

START_TEST(test_combos_in_trick)
{
	struct tu_game t;
	stacked(&t, NULL, 3, TRICK_COMBOS);
	int from = t.ev.n, n;
	tu_game_script(&t, "0 play QC\n1 play KC\n2 play AC\n3 play 7C\n");
	/* K-Q of clubs in the trick, taken by seat 2: 20. */
	ck_assert_int_eq(declared(&t, from, &n), 20);
	ck_assert_int_eq(n, 1);
	int d = tu_events_find(&t.ev, EV_DECLARE, from);
	ck_assert_int_eq(t.ev.e[d].code, BROUC_KQ | BROUC_IN_TRICK);
	ck_assert_int_eq(t.ev.e[d].seat, 2);
	ck_assert_int_eq(ST(&t)->dealpts[0], 18 + 20);
	from = t.ev.n;
	tu_game_script(&t, "2 play JH\n3 play AH\n0 play QH\n1 play KH\n");
	/* K-Q-J of trumps, taken by seat 3: 60 once (not 40 + 60). */
	ck_assert_int_eq(declared(&t, from, &n), 60);
	ck_assert_int_eq(n, 1);
	d = tu_events_find(&t.ev, EV_DECLARE, from);
	ck_assert_int_eq(t.ev.e[d].code, BROUC_KQJ | BROUC_IN_TRICK);
	ck_assert_int_eq(t.ev.e[d].winner, 1);
	ck_assert_int_eq(ST(&t)->dealpts[1], 20 + 60);
	ck_assert_int_eq(ST(&t)->dealpts[0], 38);
	audit_ok(&t);
	play_out(&t, 1);
	tu_game_release(&t);
}
END_TEST

/* L'Homme de Brou: combinations in tricks doubled and taken off the
 * opponents, below zero. */
START_TEST(test_homme_subtraction)
{
	static const char *const rules[] = { "variant=homme", NULL };
	struct tu_game t;
	stacked(&t, rules, 3, TRICK_COMBOS);
	int n;
	tu_game_script(&t, "0 play QC\n1 play KC\n2 play AC\n3 play 7C\n");
	ck_assert_int_eq(declared(&t, 0, &n), 40);
	ck_assert_int_eq(ST(&t)->dealpts[0], 18 + 40);
	ck_assert_int_eq(ST(&t)->dealpts[1], -40);
	tu_game_script(&t, "2 play JH\n3 play AH\n0 play QH\n1 play KH\n");
	ck_assert_int_eq(declared(&t, 0, &n), 40 + 120);
	ck_assert_int_eq(ST(&t)->dealpts[0], 18 + 40 - 120);
	ck_assert_int_eq(ST(&t)->dealpts[0], -62);
	ck_assert_int_eq(ST(&t)->dealpts[1], 20 + 120 - 40);
	audit_ok(&t);
	/* Hand combinations are not doubled. */
	struct tu_game h;
	stacked(&h, rules, 3, HAND_COMBOS);
	tu_game_script(&h, "0 play AD\n1 play 7D\n2 play 8D\n3 play 9D\n");
	ck_assert_int_eq(declared(&h, 0, &n), 90);
	ck_assert_int_eq(ST(&h)->dealpts[1], 0);
	tu_game_release(&h);
	/* At the end of the deal the negative total is rounded to tens. */
	play_out(&t, 1);
	ck_assert_int_eq(ST(&t)->hand_no, 2);
	tu_game_release(&t);
}
END_TEST

/* ---- play restrictions ---- */

/* Trumps hearts (8H turned), dealer 3; spades all with seat 0. */
static const char *const UNDER[4] = {
	"7S 8S 9S JS QS KS TS AS",
	"KH TH AC TC KC JC 9C 8C",
	"AH 9H 7D AD TD KD 8D 7C",
	"QC QD JD 9D JH 7H QH 8H",
};

START_TEST(test_undertrump)
{
	struct tu_game t;
	stacked(&t, NULL, 3, UNDER);
	struct refusal why;
	tu_game_script(&t, "0 play 7S\n1 play KH\n");
	/* Seat 2 may not play 9H under the king of trumps while it has other
	 * cards. */
	ck_assert_int_eq(tu_game_try(&t, "play 9H", &why), -1);
	ck_assert_int_eq(why.code, BROUC_R_UNDERTRUMP);
	card_t kh;
	card_parse("KH", &kh);
	ck_assert_uint_eq(why.card, kh);
	struct action legal[GAME_MAX_LEGAL];
	int n = t.g->legal(t.st, legal, GAME_MAX_LEGAL);
	ck_assert_int_eq(n, 7); /* all but 9H */
	tu_game_script(&t, "2 play AH\n");
	/* Seat 3: 8H and JH and 7H are refused, QH completes K-Q of trumps. */
	ck_assert_int_eq(tu_game_try(&t, "play 8H", &why), -1);
	ck_assert_int_eq(why.code, BROUC_R_UNDERTRUMP);
	card_t ah;
	card_parse("AH", &ah);
	ck_assert_uint_eq(why.card, ah);
	ck_assert_int_eq(tu_game_try(&t, "play JH", &why), -1);
	ck_assert_int_eq(tu_game_try(&t, "play 7H", &why), -1);
	/* Not in hand, and a refusal changes nothing. */
	ck_assert_int_eq(tu_game_try(&t, "play AS", &why), -1);
	ck_assert_int_eq(why.code, BROUC_R_NOT_IN_HAND);
	ck_assert_int_eq(t.g->to_act(t.st), 3);
	tu_game_script(&t, "3 play QH\n");
	/* Seat 2 wins 18 points, K-Q of trumps in the trick (40), and seat 0's
	 * K-Q-J of spades in hand (30). */
	ck_assert_int_eq(ST(&t)->dealpts[0], 18 + 40 + 30);
	/* Follow suit. */
	tu_game_script(&t, "2 play AD\n");
	ck_assert_int_eq(tu_game_try(&t, "play JH", &why), -1);
	ck_assert_int_eq(why.code, BROUC_R_FOLLOW);
	ck_assert_int_eq(why.suit, SUIT_DIAMONDS);
	tu_game_try(&t, "fold", &why);
	ck_assert_int_eq(why.code, BROUC_R_ACTION);
	audit_ok(&t);
	tu_game_release(&t);

	/* L'Homme de Brou has no such restriction. */
	static const char *const homme[] = { "variant=homme", NULL };
	stacked(&t, homme, 3, UNDER);
	tu_game_script(&t, "0 play 7S\n1 play KH\n2 play 9H\n3 play 7H\n");
	audit_ok(&t);
	tu_game_release(&t);
}
END_TEST

/* Trumps hearts (7H turned), dealer 2: seat 2 holds seven trumps. */
static const char *const ONLY_LOW[4] = {
	"AS TS KS 9S 8S 7S AC JC",
	"AH 9C AD TD KD JD 8D 7D",
	"TC KH QH JH 9H 8H TH 7H",
	"QS JS 7C KC QC 8C QD 9D",
};

START_TEST(test_undertrump_only_lower)
{
	struct tu_game t;
	stacked(&t, NULL, 2, ONLY_LOW);
	ck_assert_int_eq(ST(&t)->trump, SUIT_HEARTS);
	tu_game_script(&t, "3 play 7C\n0 play AC\n1 play 9C\n2 play TC\n");
	tu_game_script(&t, "0 play 7S\n1 play AH\n");
	/* Nothing but trumps lower than the ace: any of them. */
	struct action legal[GAME_MAX_LEGAL];
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 7);
	/* ... so the prompt does not forbid them. */
	char err[256];
	i18n_set_lang("en", err, sizeof err);
	struct talk tk = { .game = t.g, .me = 2, .players = 4 };
	struct brouc_state v;
	memcpy(&v, t.st, sizeof v);
	t.g->redact(&v, 2);
	struct sbuf b;
	sb_clear(&b);
	registry_find("brouc")->talk->prompt(&tk, &v, &b);
	ck_assert_str_eq(b.s, "Your turn. No spades: any card.");
	tu_game_script(&t, "2 play 8H\n3 play QS\n");
	audit_ok(&t);
	tu_game_release(&t);
}
END_TEST

/* ---- winning ---- */

/* Trumps clubs (7C turned), dealer 3: team 0 takes 23, 23, 4 then 4. */
static const char *const MIDPLAY[4] = {
	"AS AD KH KS 9D 8C 9C JC",
	"7S 7D 7H 8S QS QD TH AH",
	"TS TD 8H 9S KD QH JH TC",
	"JS JD 9H 8D AC KC QC 7C",
};

START_TEST(test_win_midplay)
{
	struct tu_game t;
	stacked(&t, NULL, 3, MIDPLAY);
	ST(&t)->score[0] = 25;
	tu_game_script(&t, "0 play AS\n1 play 7S\n2 play TS\n3 play JS\n"
	                   "0 play AD\n1 play 7D\n2 play TD\n3 play JD\n"
	                   "0 play KH\n1 play 7H\n2 play 8H\n3 play 9H\n");
	/* 25 + 50 / 10 = 30: not above 30. */
	ck_assert_int_eq(ST(&t)->dealpts[0], 50);
	ck_assert_int_eq(t.g->to_act(t.st), 0);
	for (int i = 0; i < t.ev.n; i++)
		if (t.ev.e[i].type == EV_PHASE)
			ck_assert_int_eq(t.ev.e[i].note, EV_NOTE_TALLY);
	int from = t.ev.n;
	tu_game_script(&t, "0 play KS\n1 play 8S\n2 play 9S\n3 play 8D\n");
	/* 25 + 5.4: the game is won at once, in the middle of the deal. */
	int w = -1;
	for (int i = from; i < t.ev.n; i++)
		if (t.ev.e[i].type == EV_PHASE && t.ev.e[i].note == EV_NOTE_GAME_WON)
			w = i;
	ck_assert_int_ge(w, 0);
	ck_assert_int_eq(t.ev.e[w].winner, 0);
	ck_assert_int_eq(t.ev.e[w].values[0], 25);
	ck_assert_int_eq(t.ev.e[w].values[2], 54);
	/* The win comes before the end of the deal is announced. */
	ck_assert_int_lt(w, tu_events_find(&t.ev, EV_HAND_END, from));
	ck_assert_int_eq(t.g->to_act(t.st), -1);
	int ge = tu_events_find(&t.ev, EV_GAME_END, from);
	ck_assert_int_ge(ge, 0);
	ck_assert_int_eq(t.ev.e[ge].winner, 0);
	ck_assert_int_eq(t.ev.e[ge].values[0], 1);
	ck_assert_int_eq(t.ev.e[ge].values[1], 0);
	struct refusal why;
	ck_assert_int_eq(tu_game_try(&t, "play QS", &why), -1);
	ck_assert_int_eq(why.code, BROUC_R_TURN);
	tu_game_release(&t);

	/* With games=2 the next game starts from nothing with a new deal. */
	static const char *const two[] = { "games=2", NULL };
	stacked(&t, two, 3, MIDPLAY);
	ST(&t)->score[0] = 25;
	ST(&t)->score[1] = 12;
	tu_game_script(&t, "0 play AS\n1 play 7S\n2 play TS\n3 play JS\n"
	                   "0 play AD\n1 play 7D\n2 play TD\n3 play JD\n"
	                   "0 play KH\n1 play 7H\n2 play 8H\n3 play 9H\n"
	                   "0 play KS\n1 play 8S\n2 play 9S\n3 play 8D\n");
	ck_assert_int_eq(ST(&t)->wins[0], 1);
	ck_assert_int_eq(ST(&t)->score[0], 0);
	ck_assert_int_eq(ST(&t)->score[1], 0);
	ck_assert_int_eq(ST(&t)->hand_no, 2);
	ck_assert_int_eq(ST(&t)->dealer, 0);
	ck_assert_int_eq(t.g->to_act(t.st), 1);
	audit_ok(&t);
	tu_game_release(&t);
}
END_TEST

/* Dealer 0 holds all eight trumps: team 0 takes every trick. */
static const char *const CAPE[4] = {
	"AH TH KH QH JH 9H 8H 7H",
	"AS TS KS QS AD TD KD QD",
	"JS 9S 8S 7S JD 9D 8D 7D",
	"AC TC KC QC JC 9C 8C 7C",
};

START_TEST(test_cape)
{
	static const char *const rules[] = { "games=5", NULL };
	struct tu_game t;
	stacked(&t, rules, 0, CAPE);
	ck_assert_int_eq(t.g->to_act(t.st), 1);
	play_out(&t, 1);
	int c = -1;
	for (int i = 0; i < t.ev.n; i++)
		if (t.ev.e[i].type == EV_PHASE && t.ev.e[i].note == EV_NOTE_CAPE)
			c = i;
	ck_assert_int_ge(c, 0);
	ck_assert_int_eq(t.ev.e[c].winner, 0);
	ck_assert_int_eq(t.ev.e[c].value, 2);
	/* Two extra games; the game itself goes on (120 + 60 = 18 points). */
	ck_assert_int_eq(ST(&t)->wins[0], 2);
	ck_assert_int_eq(ST(&t)->wins[1], 0);
	int he = tu_events_find(&t.ev, EV_HAND_END, 0);
	ck_assert_int_eq(t.ev.e[he].values[0], 18);
	ck_assert_int_eq(ST(&t)->score[0], 18);
	ck_assert_int_eq(t.g->to_act(t.st), 2);
	tu_game_release(&t);

	/* games=1: the cape ends the match. */
	stacked(&t, NULL, 0, CAPE);
	play_out(&t, 1);
	ck_assert_int_eq(t.g->to_act(t.st), -1);
	int ge = tu_events_find(&t.ev, EV_GAME_END, 0);
	ck_assert_int_eq(t.ev.e[ge].winner, 0);
	ck_assert_int_eq(t.ev.e[ge].values[0], 2);
	tu_game_release(&t);
}
END_TEST

/* L'Homme de Brou: parties by the opponents' score, and the cape's 3. */
static int homme_parties(int mine, int theirs, int *final_theirs)
{
	static const char *const rules[] = { "variant=homme", "parties=20", NULL };
	struct tu_game t;
	stacked(&t, rules, 0, CAPE);
	ST(&t)->score[0] = mine;
	ST(&t)->score[1] = theirs;
	play_out(&t, 1);
	*final_theirs = theirs + brouc_round(ST(&t), ST(&t)->dealpts[1]);
	int p = ST(&t)->wins[0];
	ck_assert_int_eq(ST(&t)->wins[1], 0);
	tu_game_release(&t);
	return p;
}

START_TEST(test_homme_parties)
{
	int theirs;
	/* 120 card points + 60 in hand: no opponent points. */
	ck_assert_int_eq(homme_parties(0, 0, &theirs), 3);      /* cape only: 180 */
	ck_assert_int_eq(theirs, 0);
	ck_assert_int_eq(homme_parties(200, 150, &theirs), 3 + 1);
	ck_assert_int_eq(homme_parties(200, 140, &theirs), 3 + 2);
	ck_assert_int_eq(homme_parties(200, 0, &theirs), 3 + 2);
	ck_assert_int_eq(homme_parties(200, -10, &theirs), 3 + 4);
	/* 120 + 60 = 180: 120 + 180 = 300 is not 301. */
	ck_assert_int_eq(homme_parties(120, -10, &theirs), 3);
	ck_assert_int_eq(homme_parties(130, -10, &theirs), 3 + 4);
}
END_TEST

/* L'Homme de Brou over several deals, nothing set by hand: the dealer
 * moves on each deal and the CAPE hands turn with him, so the teams take
 * capes in turn (180 each: 120 in cards, 60 in hand). After three deals
 * team 0 has 360 against 180: one partie (opponents at 150 or more) and 3
 * for its cape; the scores start again at 0. */
START_TEST(test_homme_parties_over_deals)
{
	static const char *const rules[] = { "variant=homme", "parties=30", "hands=5", NULL };
	char text[5 * 200] = "";
	for (int d = 0; d < 5; d++) {
		const char *rot[4];
		for (int s = 0; s < 4; s++)
			rot[s] = CAPE[(s - d + 4) % 4];
		char one[200];
		make_pack(d % 4, rot, one, sizeof one);
		strcat(text, one);
		strcat(text, "\n--\n");
	}
	struct tu_game t;
	tu_game_init(&t, "brouc", 4, 0, 1, rules);
	tu_game_stack(&t, text);
	tu_game_start(&t);
	static const int want_scores[5][2] = { { 180, 0 }, { 180, 180 }, { 360, 180 }, { 0, 180 }, { 180, 180 } };
	static const int want_wins[5][2] = { { 3, 0 }, { 3, 3 }, { 7, 3 }, { 7, 6 }, { 10, 6 } };
	for (int d = 0; d < 5; d++) {
		int from = t.ev.n;
		play_out(&t, d + 1);
		int he = tu_events_find(&t.ev, EV_HAND_END, from);
		ck_assert_int_ge(he, 0);
		ck_assert_int_eq(t.ev.e[he].values[0], want_scores[d][0]);
		ck_assert_int_eq(t.ev.e[he].values[1], want_scores[d][1]);
		ck_assert_int_eq(ST(&t)->wins[0], want_wins[d][0]);
		ck_assert_int_eq(ST(&t)->wins[1], want_wins[d][1]);
		int won = -1;
		for (int i = from; i < t.ev.n; i++)
			if (t.ev.e[i].type == EV_PHASE && t.ev.e[i].note == EV_NOTE_GAME_WON)
				won = i;
		if (d == 2) {
			ck_assert_int_ge(won, 0);
			ck_assert_int_eq(t.ev.e[won].winner, 0);
			ck_assert_int_eq(t.ev.e[won].value, 1);
		} else {
			ck_assert_int_lt(won, 0);
		}
	}
	ck_assert_int_eq(t.g->to_act(t.st), -1);
	tu_game_release(&t);
}
END_TEST

/* Seat mask of the team that wins a partie from the scores at the end of a
 * deal (-1 none), and the parties it is worth, as docs/rules/brouc.en.md says. */
static int partie_of(int a, int b, int *value)
{
	*value = 0;
	if ((a < 301 && b < 301) || a == b)
		return -1;
	int won = a > b ? 0 : 1, opp = won ? a : b;
	*value = opp >= 150 ? 1 : opp >= 0 ? 2 : 4;
	return won;
}

/* Long matches of L'Homme de Brou from the seed: every partie won is the
 * one the end-of-deal scores call for (301 or more; 1 with the opponents at
 * 150 or more, 2 at 0 to 149, 4 below 0), plus 3 for a cape, and all three
 * cases occur. */
START_TEST(test_homme_parties_brackets)
{
	static const char *const rules[] = { "variant=homme", "parties=99", "hands=60", NULL };
	int seen[5] = { 0 };
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct tu_game t;
		tu_game_init(&t, "brouc", 4, -1, seed, rules);
		tu_game_start(&t);
		int wins[2] = { 0, 0 };
		for (int d = 1; t.g->to_act(t.st) >= 0; d++) {
			int from = t.ev.n;
			play_out(&t, d);
			int he = tu_events_find(&t.ev, EV_HAND_END, from);
			ck_assert_int_ge(he, 0);
			int value, won = partie_of(t.ev.e[he].values[0], t.ev.e[he].values[1], &value);
			if (won >= 0) {
				wins[won] += value;
				seen[value]++;
			}
			for (int i = from; i < t.ev.n; i++)
				if (t.ev.e[i].type == EV_PHASE && t.ev.e[i].note == EV_NOTE_CAPE)
					wins[t.ev.e[i].winner] += 3;
			ck_assert_int_eq(ST(&t)->wins[0], wins[0]);
			ck_assert_int_eq(ST(&t)->wins[1], wins[1]);
		}
		tu_game_release(&t);
	}
	ck_assert_int_gt(seen[1], 0);
	ck_assert_int_gt(seen[2], 0);
	ck_assert_int_gt(seen[4], 0);
}
END_TEST

START_TEST(test_homme_match)
{
	static const char *const rules[] = { "variant=homme", "parties=10", NULL };
	struct tu_game t;
	stacked(&t, rules, 0, CAPE);
	ST(&t)->wins[0] = 6;
	play_out(&t, 1);
	/* 6 + 3 for the cape = 9: not yet 10. */
	ck_assert_int_eq(ST(&t)->wins[0], 9);
	ck_assert_int_ge(t.g->to_act(t.st), 0);
	tu_game_release(&t);
	stacked(&t, rules, 0, CAPE);
	ST(&t)->wins[0] = 7;
	play_out(&t, 1);
	ck_assert_int_eq(t.g->to_act(t.st), -1);
	int ge = tu_events_find(&t.ev, EV_GAME_END, 0);
	ck_assert_int_eq(t.ev.e[ge].values[0], 10);
	ck_assert_int_eq(t.ev.e[ge].winner, 0);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_rules_options)
{
	struct tu_game t;
	static const char *const bad[] = { NULL };
	tu_game_init(&t, "brouc", 4, -1, 3, bad);
	ck_assert_int_eq(ST(&t)->variant, BROUC_MODERN);
	ck_assert_int_eq(ST(&t)->games_target, 1);
	ck_assert_int_eq(ST(&t)->parties_target, 10);
	ck_assert_int_eq(ST(&t)->hands_limit, 0);
	ck_assert_int_ge(ST(&t)->dealer, 0);
	tu_game_release(&t);
	/* Exactly four players. */
	const struct game_ops *g = registry_ops("brouc");
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	char err[128];
	ck_assert_int_ne(rules_set_arg(&r, "variant=moderne", err, sizeof err), 0);
	ck_assert_int_eq(rules_set_arg(&r, "parties=14", err, sizeof err), 0);
	struct brouc_state st;
	struct game_setup setup = { 3, -1, 1, &r, NULL };
	ck_assert_int_ne(g->init(&st, &setup, err, sizeof err), 0);
	ck_assert_int_eq(g->teams, 2);
}
END_TEST

/* ---- the referee ---- */

struct deal_check {
	const struct brouc_state *st;
	int cardpts[2], decl[2];
	int tricks;
	int deals, complete;
	int bad;
};

static void deal_check_emit(void *ctx, const struct event *e)
{
	struct deal_check *d = ctx;
	if (e->type == EV_TRICK) {
		d->cardpts[e->winner & 1] += e->points;
		d->tricks++;
	} else if (e->type == EV_DECLARE) {
		d->decl[e->winner] += e->points;
		if ((e->code & BROUC_IN_TRICK) && d->st->variant == BROUC_HOMME)
			d->decl[1 - e->winner] -= e->points;
	} else if (e->type == EV_HAND_END) {
		for (int t = 0; t < 2; t++)
			if (d->cardpts[t] + d->decl[t] != d->st->dealpts[t])
				d->bad++;
		if (d->tricks == 8) {
			d->complete++;
			if (d->cardpts[0] + d->cardpts[1] != 120)
				d->bad++;
		}
		d->deals++;
		memset(d->cardpts, 0, sizeof d->cardpts);
		memset(d->decl, 0, sizeof d->decl);
		d->tricks = 0;
	}
}

/* Bots play whole matches; every deal's trick points make 120 and the
 * declarations make up the rest of the totals. */
static void deals_add_up(const char *const *rules, int games, int level)
{
	const struct game_ops *g = registry_ops("brouc");
	for (int k = 0; k < games; k++) {
		struct rules r;
		rules_init(&r, g->rules, g->nrules);
		char err[128];
		for (int i = 0; rules && rules[i]; i++)
			ck_assert_int_eq(rules_set_arg(&r, rules[i], err, sizeof err), 0);
		struct brouc_state st;
		struct game_setup setup = { 4, -1, 1000u + (unsigned)k, &r, NULL };
		ck_assert_int_eq(g->init(&st, &setup, err, sizeof err), 0);
		struct deal_check d;
		memset(&d, 0, sizeof d);
		d.st = &st;
		struct sink s = { deal_check_emit, &d };
		g->start(&st, &s);
		struct rng rng;
		rng_seed(&rng, (uint64_t)k);
		while (g->to_act(&st) >= 0) {
			struct action a;
			bot_choose(g, tu_bot(g), &st, level, &rng, &a);
			struct refusal why;
			ck_assert_int_eq(g->apply(&st, &a, &s, &why), 0);
		}
		ck_assert_int_eq(d.bad, 0);
		ck_assert_int_gt(d.deals, 0);
	}
}

START_TEST(test_referee_brouc)
{
	static const char *const rules[] = { "games=2", NULL };
	ck_assert_int_gt(tu_referee("brouc", 4, rules, 30, 0, 11, 0), 0);
	ck_assert_int_gt(tu_referee("brouc", 4, rules, 10, 2, 12, 0), 0);
	static const char *const hands[] = { "hands=3", NULL };
	ck_assert_int_gt(tu_referee("brouc", 4, hands, 2, 3, 13, 0), 0);
	deals_add_up(rules, 30, 0);
	deals_add_up(rules, 10, 2);
}
END_TEST

START_TEST(test_referee_homme)
{
	static const char *const rules[] = { "variant=homme", "parties=4", NULL };
	ck_assert_int_gt(tu_referee("brouc", 4, rules, 10, 0, 21, 0), 0);
	ck_assert_int_gt(tu_referee("brouc", 4, rules, 5, 2, 22, 0), 0);
	static const char *const hands[] = { "variant=homme", "hands=3", NULL };
	ck_assert_int_gt(tu_referee("brouc", 4, hands, 2, 3, 23, 0), 0);
	deals_add_up(rules, 10, 0);
	deals_add_up(rules, 5, 2);
}
END_TEST

START_TEST(test_redact_resample)
{
	struct tu_game t;
	tu_game_init(&t, "brouc", 4, 0, 5, NULL);
	tu_game_start(&t);
	tu_game_script(&t, "");
	struct brouc_state v;
	memcpy(&v, t.st, sizeof v);
	brouc_ops.redact(&v, 1);
	card_t h[8];
	ck_assert_int_eq(brouc_ops.hand(&v, 1, h), 8);
	/* The dealer's turned card stays known; the rest is hidden. */
	ck_assert_int_eq(brouc_ops.hand(&v, 0, h), 1);
	ck_assert_uint_eq(h[0], ST(&t)->turnup);
	ck_assert_int_eq(brouc_ops.hand(&v, 2, h), 0);
	ck_assert_ptr_null(v.stack);
	struct rng rng;
	rng_seed(&rng, 9);
	brouc_ops.resample(&v, 1, &rng);
	char err[128];
	ck_assert_msg(brouc_ops.audit(&v, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(memcmp(v.hand[1], ST(&t)->hand[1], 8), 0);
	tu_game_release(&t);
}
END_TEST

/* ---- the bot ---- */

/* One deal per seed, played twice with the teams' seats swapped: the share
 * of deals in which the team of `a` makes more points than the team of `b`
 * (ties count half), in per mille. */
static int deal_rate(int a, int b, int deals, uint64_t seed)
{
	const struct game_ops *g = registry_ops("brouc");
	static const char *const rules[] = { "hands=1", NULL };
	long won2 = 0;
	for (int k = 0; k < deals; k++) {
		for (int side = 0; side < 2; side++) {
			struct rules r;
			rules_init(&r, g->rules, g->nrules);
			char err[128];
			ck_assert_int_eq(rules_set_arg(&r, rules[0], err, sizeof err), 0);
			struct brouc_state st;
			struct game_setup setup = { 4, k % 4, rng_derive(seed, (uint64_t)k), &r, NULL };
			ck_assert_int_eq(g->init(&st, &setup, err, sizeof err), 0);
			g->start(&st, NULL);
			struct rng rng;
			rng_seed(&rng, rng_derive(seed + 1, (uint64_t)k));
			while (g->to_act(&st) >= 0) {
				int s = g->to_act(&st);
				int level = (brouc_team(s) == side) ? a : b;
				struct action act;
				/* a small search budget (21 worlds) keeps the test quick */
				bot_choose_budget(g, tu_bot(g), &st, level, 7, &rng, &act);
				struct refusal why;
				ck_assert_int_eq(g->apply(&st, &act, NULL, &why), 0);
			}
			int mine = st.dealpts[side], theirs = st.dealpts[1 - side];
			won2 += mine > theirs ? 2 : mine == theirs ? 1 : 0;
		}
	}
	return (int)(won2 * 1000 / (4L * deals));
}

START_TEST(test_bot_strength)
{
	/* Fixed seeds: the same figures every run. */
	int vs_random = deal_rate(2, 0, 1000, 42);
	int vs_simple = deal_rate(2, 1, 1000, 43);
	int simple_vs_random = deal_rate(1, 0, 1000, 44);
	int search_vs_2 = deal_rate(3, 2, 300, 45);
	int search_vs_1 = deal_rate(3, 1, 150, 46);
	printf("brouc bot, deals won (per mille; each deal played twice, teams swapped): "
	       "level 2 vs random %d, level 2 vs level 1 %d, level 1 vs random %d (2000 deals each); "
	       "level 3 vs level 2 %d (600 deals), level 3 vs level 1 %d (300 deals)\n",
	       vs_random, vs_simple, simple_vs_random, search_vs_2, search_vs_1);
	ck_assert_int_gt(vs_random, 680);
	ck_assert_int_gt(vs_simple, 540);
	ck_assert_int_gt(simple_vs_random, 600);
	ck_assert_int_gt(search_vs_2, 530);
	ck_assert_int_gt(search_vs_1, 560);
}
END_TEST

/* ---- speech ---- */

/* Every sentence the talk module says for the events from `from`, for seat
 * me, joined with " | ". */
static void phrase_all(struct tu_game *t, int me, int from, struct sbuf *all)
{
	const struct game_talk *gt = registry_find("brouc")->talk;
	ck_assert_ptr_nonnull(gt);
	struct talk tk = { .game = t->g, .me = me, .players = 4 };
	struct brouc_state v;
	memcpy(&v, t->st, sizeof v);
	t->g->redact(&v, me);
	sb_clear(all);
	for (int i = from; i < t->ev.n; i++) {
		struct sbuf b;
		sb_clear(&b);
		if (gt->event(&tk, &v, &t->ev.e[i], &b) > 0) {
			if (all->len)
				sb_puts(all, " | ");
			sb_puts(all, b.s);
		}
	}
}

static void english(void)
{
	char err[256];
	i18n_set_lang("en", err, sizeof err);
}

START_TEST(test_talk_combos_and_scores)
{
	english();
	struct tu_game t;
	stacked(&t, NULL, 3, TRICK_COMBOS);
	struct sbuf all;
	phrase_all(&t, 1, 0, &all);
	ck_assert_msg(strstr(all.s, "Trumps: hearts, turned card the eight of hearts, held by Denis.") != NULL, "%s", all.s);
	{
		/* Nothing on the table yet: who leads. */
		const struct game_talk *g0 = registry_find("brouc")->talk;
		struct talk k0 = { .game = t.g, .me = 0, .players = 4 }, k1 = { .game = t.g, .me = 1, .players = 4 };
		struct sbuf q;
		sb_clear(&q);
		g0->query(&k0, t.st, TALK_TABLE, &q);
		ck_assert_str_eq(q.s, "No cards on the table. You lead.");
		sb_clear(&q);
		g0->query(&k1, t.st, TALK_TABLE, &q);
		ck_assert_str_eq(q.s, "No cards on the table. Anne to lead.");
		sb_clear(&q);
		g0->query(&k1, t.st, '1', &q);
		ck_assert_str_eq(q.s, "No card 1: the table is empty.");
		/* The turned card is still in the dealer's hand. */
		sb_clear(&q);
		g0->query(&k1, t.st, TALK_SUIT, &q);
		ck_assert_str_eq(q.s, "No card led. Trumps: hearts, turned card the eight of hearts, held by Denis.");
		struct talk k3 = { .game = t.g, .me = 3, .players = 4 };
		sb_clear(&q);
		g0->query(&k3, t.st, TALK_SUIT, &q);
		ck_assert_str_eq(q.s, "No card led. Trumps: hearts, turned card the eight of hearts, in your hand.");
	}
	int from = t.ev.n;
	tu_game_script(&t, "0 play QC\n1 play KC\n2 play AC\n3 play 7C\n");
	phrase_all(&t, 1, from, &all);
	ck_assert_msg(strstr(all.s, "Anne and Claire score king-queen of clubs, 20.") != NULL, "%s", all.s);
	ck_assert_msg(strstr(all.s, "This deal: you and Denis 0, Anne and Claire 38.") != NULL, "%s", all.s);
	phrase_all(&t, 0, from, &all);
	ck_assert_msg(strstr(all.s, "You and Claire score king-queen of clubs, 20.") != NULL, "%s", all.s);
	ck_assert_msg(strstr(all.s, "This deal: you and Claire 38, Bruno and Denis 0.") != NULL, "%s", all.s);
	from = t.ev.n;
	tu_game_script(&t, "2 play JH\n3 play AH\n0 play QH\n1 play KH\n");
	phrase_all(&t, 0, from, &all);
	ck_assert_msg(strstr(all.s, "Bruno and Denis score king-queen-jack of trumps, 60.") != NULL, "%s", all.s);
	/* Queries: scores, turn, table, suit. */
	const struct game_talk *gt = registry_find("brouc")->talk;
	struct talk tk = { .game = t.g, .me = 0, .players = 4 };
	struct brouc_state v;
	memcpy(&v, t.st, sizeof v);
	t.g->redact(&v, 0);
	struct sbuf b;
	sb_clear(&b);
	gt->query(&tk, &v, TALK_SCORES, &b);
	ck_assert_str_eq(b.s, "Score: you and Claire 0, Bruno and Denis 0. This deal: you and Claire 38, "
	                      "Bruno and Denis 80. Games won: you and Claire 0, Bruno and Denis 0.");
	sb_clear(&b);
	gt->query(&tk, &v, TALK_TURN, &b);
	ck_assert_str_eq(b.s, "Denis to play, an opponent.");
	tu_game_script(&t, "3 play QS\n");
	memcpy(&v, t.st, sizeof v);
	t.g->redact(&v, 0);
	sb_clear(&b);
	gt->query(&tk, &v, TALK_TURN, &b);
	ck_assert_str_eq(b.s, "Your turn. Follow spades.");
	sb_clear(&b);
	gt->query(&tk, &v, TALK_TABLE, &b);
	ck_assert_str_eq(b.s, "Denis: queen of spades. Denis, an opponent, holds the trick, 3 points.");
	{
		/* The partner, and a spectator, hear the same trick their way. */
		struct talk k1 = { .game = t.g, .me = 1, .players = 4 }, ks = { .game = t.g, .me = -1, .players = 4 };
		sb_clear(&b);
		gt->query(&k1, &v, TALK_TABLE, &b);
		ck_assert_str_eq(b.s, "Denis: queen of spades. Denis, your partner, holds the trick, 3 points.");
		sb_clear(&b);
		gt->query(&ks, t.st, TALK_TABLE, &b);
		ck_assert_str_eq(b.s, "Denis: queen of spades. Denis holds the trick, 3 points.");
	}
	sb_clear(&b);
	gt->query(&tk, &v, TALK_SUIT, &b);
	ck_assert_str_eq(b.s, "Led: spades. Trumps: hearts, turned card the eight of hearts, held by Denis.");
	sb_clear(&b);
	gt->query(&tk, &v, '1', &b);
	ck_assert_str_eq(b.s, "1: Denis, queen of spades.");
	sb_clear(&b);
	gt->query(&tk, &v, '2', &b);
	ck_assert_str_eq(b.s, "No card 2 on the table: 1 card so far.");
	sb_clear(&b);
	gt->query(&tk, &v, TALK_RULES, &b);
	ck_assert(strstr(b.s, "Trumps: hearts.") == b.s);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_talk_refusals_and_win)
{
	english();
	const struct game_talk *gt = registry_find("brouc")->talk;
	struct tu_game t;
	stacked(&t, NULL, 3, UNDER);
	tu_game_script(&t, "0 play 7S\n1 play KH\n");
	struct refusal why;
	ck_assert_int_eq(tu_game_try(&t, "play 9H", &why), -1);
	struct talk tk = { .game = t.g, .me = 2, .players = 4 };
	struct sbuf b;
	sb_clear(&b);
	gt->refusal(&tk, t.st, &why, &b);
	ck_assert_str_eq(b.s, "No undertrumping: play above the king of hearts, or another suit.");
	struct brouc_state v;
	memcpy(&v, t.st, sizeof v);
	t.g->redact(&v, 2);
	sb_clear(&b);
	gt->prompt(&tk, &v, &b);
	ck_assert_str_eq(b.s, "Your turn. No spades: any card, but no trump below the king of hearts.");
	ck_assert_int_eq(tu_game_try(&t, "play 7S", &why), -1);
	sb_clear(&b);
	gt->refusal(&tk, t.st, &why, &b);
	ck_assert_str_eq(b.s, "You do not hold the seven of spades.");
	tu_game_release(&t);

	stacked(&t, NULL, 3, MIDPLAY);
	ST(&t)->score[0] = 25;
	{
		/* Within reach of the game: S says what each team still needs. */
		struct talk k0 = { .game = t.g, .me = 0, .players = 4 };
		sb_clear(&b);
		gt->query(&k0, t.st, TALK_SCORES, &b);
		ck_assert_str_eq(b.s, "Score: you and Claire 25, Bruno and Denis 0. This deal: you and Claire 0, Bruno "
		                      "and Denis 0. Still needed to win: you and Claire 51, Bruno and Denis 301. Games won: "
		                      "you and Claire 0, Bruno and Denis 0.");
	}
	int from = t.ev.n;
	tu_game_script(&t, "0 play AS\n1 play 7S\n2 play TS\n3 play JS\n"
	                   "0 play AD\n1 play 7D\n2 play TD\n3 play JD\n"
	                   "0 play KH\n1 play 7H\n2 play 8H\n3 play 9H\n"
	                   "0 play KS\n1 play 8S\n2 play 9S\n3 play 8D\n");
	struct sbuf all;
	phrase_all(&t, 0, from, &all);
	ck_assert_msg(strstr(all.s, "You and Claire win the game with 30.4. | Game over.") != NULL, "%s",
	              all.s);
	/* The game won was the match: the end does not say it twice. */
	ck_assert_msg(strstr(all.s, "win.") == NULL, "%s", all.s);
	phrase_all(&t, 1, from, &all);
	ck_assert_msg(strstr(all.s, "Anne and Claire win the game with 30.4.") != NULL, "%s", all.s);
	tu_game_release(&t);

	static const char *const two[] = { "games=2", NULL };
	stacked(&t, two, 3, MIDPLAY);
	ST(&t)->score[0] = 25;
	from = t.ev.n;
	tu_game_script(&t, "0 play AS\n1 play 7S\n2 play TS\n3 play JS\n"
	                   "0 play AD\n1 play 7D\n2 play TD\n3 play JD\n"
	                   "0 play KH\n1 play 7H\n2 play 8H\n3 play 9H\n"
	                   "0 play KS\n1 play 8S\n2 play 9S\n3 play 8D\n");
	phrase_all(&t, 2, from, &all);
	ck_assert_msg(strstr(all.s, "You and Anne win the game with 30.4. | End of the deal. A new game starts, "
	                            "scores back to 0. Games won: you and Anne 1, Bruno and Denis 0.") != NULL, "%s", all.s);
	tu_game_release(&t);

	/* The second game won ends a match of two. */
	stacked(&t, two, 3, MIDPLAY);
	ST(&t)->score[0] = 25;
	ST(&t)->wins[0] = 1;
	from = t.ev.n;
	tu_game_script(&t, "0 play AS\n1 play 7S\n2 play TS\n3 play JS\n"
	                   "0 play AD\n1 play 7D\n2 play TD\n3 play JD\n"
	                   "0 play KH\n1 play 7H\n2 play 8H\n3 play 9H\n"
	                   "0 play KS\n1 play 8S\n2 play 9S\n3 play 8D\n");
	phrase_all(&t, 2, from, &all);
	ck_assert_msg(strstr(all.s, "You and Anne win the game with 30.4. | Match over: you and Anne win, 2 games "
	                            "to 0.") != NULL, "%s", all.s);
	phrase_all(&t, 1, from, &all);
	ck_assert_msg(strstr(all.s, "Match over: Anne and Claire win, 2 games to 0.") != NULL, "%s", all.s);
	tu_game_release(&t);

	/* A cape alone wins a match of one game. */
	static const char *const one_deal[] = { "hands=1", NULL };
	stacked(&t, one_deal, 0, CAPE);
	from = t.ev.n;
	play_out(&t, 1);
	phrase_all(&t, 1, from, &all);
	ck_assert_msg(strstr(all.s, "Scores: you and Denis 0, Anne and Claire 18. | Match over: Anne and Claire win, "
	                            "2 games to 0.") != NULL, "%s", all.s);
	tu_game_release(&t);

	/* The deals run out: who leads (the scores were just said), the games. */
	static const char *const short_match[] = { "hands=1", "games=3", NULL };
	stacked(&t, short_match, 3, MIDPLAY);
	from = t.ev.n;
	play_out(&t, 1);
	phrase_all(&t, 1, from, &all);
	/* No game won: no winner "with 0 games", who leads on the score. */
	ck_assert_msg(strstr(all.s, "| Game over. No game was won. You and Denis are ahead on the score.") != NULL,
	              "%s", all.s);
	tu_game_release(&t);

	/* Phrased after the whole deal, when the next deal has other trumps. */
	static const char *const five[] = { "games=5", NULL };
	stacked(&t, five, 0, CAPE);
	from = t.ev.n;
	play_out(&t, 1);
	phrase_all(&t, 0, from, &all);
	ck_assert_msg(strstr(all.s, "You declare king-queen-jack of trumps in hand, 60.") != NULL, "%s", all.s);
	ck_assert_msg(strstr(all.s, "Cape: you and Claire take all eight tricks, 2 more games. | End of the deal. "
	                            "Scores: you and Claire 18, Bruno and Denis 0.") != NULL, "%s", all.s);
	tu_game_release(&t);

	static const char *const homme[] = { "variant=homme", NULL };
	stacked(&t, homme, 3, TRICK_COMBOS);
	from = t.ev.n;
	tu_game_script(&t, "0 play QC\n1 play KC\n2 play AC\n3 play 7C\n");
	phrase_all(&t, 0, from, &all);
	ck_assert_msg(strstr(all.s, "You and Claire score king-queen of clubs, 40. Bruno and Denis lose 40.") != NULL,
	              "%s", all.s);
	ck_assert_msg(strstr(all.s, "This deal: you and Claire 58, Bruno and Denis minus 40.") != NULL, "%s", all.s);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_talk_french)
{
	char err[256];
	ck_assert_msg(i18n_set_lang("fr", err, sizeof err) == 0, "%s", err);
	const struct game_talk *gt = registry_find("brouc")->talk;
	struct tu_game t;
	stacked(&t, NULL, 3, TRICK_COMBOS);
	struct sbuf all;
	phrase_all(&t, 0, 0, &all);
	ck_assert_msg(strstr(all.s, "Atout : cœur ; carte retournée : le huit de cœur, chez Denis.") != NULL, "%s", all.s);
	struct talk tk = { .game = t.g, .me = 0, .players = 4 };
	struct sbuf b;
	sb_clear(&b);
	gt->query(&tk, t.st, TALK_SCORES, &b);
	ck_assert_str_eq(b.s, "Score : vous et Claire 0, Bruno et Denis 0. Cette donne : vous et Claire 0, Bruno et "
	                      "Denis 0. Parties gagnées : vous et Claire 0, Bruno et Denis 0.");
	sb_clear(&b);
	gt->query(&tk, t.st, TALK_TABLE, &b);
	ck_assert_str_eq(b.s, "Aucune carte sur la table. Vous entamez.");
	tu_game_script(&t, "0 play QC\n1 play KC\n");
	struct talk k2 = { .game = t.g, .me = 2, .players = 4 };
	sb_clear(&b);
	gt->query(&k2, t.st, TALK_TABLE, &b);
	ck_assert_str_eq(b.s, "Anne : dame de trèfle ; Bruno : roi de trèfle. Bruno (adversaire) tient le pli : 7 points.");
	sb_clear(&b);
	gt->query(&k2, t.st, '3', &b);
	ck_assert_str_eq(b.s, "Il n'y a que 2 cartes sur la table : pas de carte 3.");
	tu_game_release(&t);

	static const char *const two[] = { "games=2", NULL };
	stacked(&t, two, 3, MIDPLAY);
	ST(&t)->score[0] = 25;
	int from = t.ev.n;
	tu_game_script(&t, "0 play AS\n1 play 7S\n2 play TS\n3 play JS\n"
	                   "0 play AD\n1 play 7D\n2 play TD\n3 play JD\n"
	                   "0 play KH\n1 play 7H\n2 play 8H\n3 play 9H\n"
	                   "0 play KS\n1 play 8S\n2 play 9S\n3 play 8D\n");
	phrase_all(&t, 1, from, &all);
	ck_assert_msg(strstr(all.s, "Anne et Claire gagnent la partie avec 30,4. | Fin de la donne. Une nouvelle partie "
	                            "commence, scores remis à 0. Parties gagnées : vous et Denis 0, Anne et Claire 1.") !=
	              NULL, "%s", all.s);
	tu_game_release(&t);
	i18n_set_lang("en", err, sizeof err);
}
END_TEST

/* Trumps clubs (10 turned), dealer 3. */
static const char *const SMEAR[4] = {
	"7H 9H AS KS QD JD 8S 9S",
	"AH JH TH 7S AD KD 9C JC",
	"8H QH KH QS JS AC KC 7D",
	"TS 8D 9D TD 7C 8C QC TC",
};

/* The partner's ace holds the trick: the last player gives it a ten and
 * does not trump it; the simple bot trumps. */
START_TEST(test_bot_partner)
{
	struct tu_game t;
	stacked(&t, NULL, 3, SMEAR);
	tu_game_script(&t, "0 play 7H\n1 play AH\n2 play 8H\n");
	struct rng rng;
	rng_seed(&rng, 1);
	struct action a;
	bot_choose(t.g, tu_bot(t.g), t.st, 2, &rng, &a);
	ck_assert_int_eq(card_rank(a.cards[0]), RANK_TEN);
	ck_assert_int_ne(card_suit(a.cards[0]), SUIT_CLUBS);
	bot_choose(t.g, tu_bot(t.g), t.st, 3, &rng, &a);
	ck_assert_int_ne(card_suit(a.cards[0]), SUIT_CLUBS);
	bot_choose(t.g, tu_bot(t.g), t.st, 1, &rng, &a);
	ck_assert_int_eq(card_suit(a.cards[0]), SUIT_CLUBS);
	tu_game_release(&t);

	/* Before its team's first trick a player keeps its combinations whole
	 * (they score when that trick is won): seat 0 leads neither a king, a
	 * queen nor the jack of its king-queen-jack. */
	stacked(&t, NULL, 3, HAND_COMBOS);
	for (int level = 2; level <= 3; level++) {
		bot_choose(t.g, tu_bot(t.g), t.st, level, &rng, &a);
		int r = card_rank(a.cards[0]);
		ck_assert_msg(r != RANK_KING && r != RANK_QUEEN && !(r == RANK_JACK && card_suit(a.cards[0]) == SUIT_SPADES),
		              "level %d leads a combination card", level);
	}
	tu_game_release(&t);
}
END_TEST

static Suite *brouc_suite(void)
{
	Suite *s = suite_create("brouc");
	TCase *tc = tcase_create("rules");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_deal_packets);
	tcase_add_test(tc, test_points_and_order);
	tcase_add_test(tc, test_rounding);
	tcase_add_test(tc, test_rounding_in_play);
	tcase_add_test(tc, test_combos_in_hand);
	tcase_add_test(tc, test_combos_in_trick);
	tcase_add_test(tc, test_homme_subtraction);
	tcase_add_test(tc, test_undertrump);
	tcase_add_test(tc, test_undertrump_only_lower);
	tcase_add_test(tc, test_win_midplay);
	tcase_add_test(tc, test_cape);
	tcase_add_test(tc, test_homme_parties);
	tcase_add_test(tc, test_homme_match);
	tcase_add_test(tc, test_homme_parties_over_deals);
	tcase_add_test(tc, test_homme_parties_brackets);
	tcase_add_test(tc, test_rules_options);
	tcase_add_test(tc, test_redact_resample);
	tcase_add_test(tc, test_referee_brouc);
	tcase_add_test(tc, test_referee_homme);
	tcase_add_test(tc, test_bot_partner);
	tcase_add_test(tc, test_bot_strength);
	tcase_add_test(tc, test_talk_combos_and_scores);
	tcase_add_test(tc, test_talk_refusals_and_win);
	tcase_add_test(tc, test_talk_french);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(brouc_suite());
}
