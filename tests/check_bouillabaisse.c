/* SPDX-License-Identifier: GPL-3.0-or-later */
/* La Bouillabaisse: packs, choices, the scoring of each round with stacked
 * packs, all-or-nothing, shared wins, refusals, resampling, the referee and
 * the strength of the bots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "bots/bot.h"
#include "games/bouillabaisse.h"
#include "words/announce.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "words/talk.h"
#include "testutil.h"

static const struct game_ops *G(void)
{
	return registry_ops("bouillabaisse");
}

static card_t C(const char *s)
{
	card_t c;
	ck_assert_msg(card_parse(s, &c) == 0, "bad card %s", s);
	return c;
}

/* ---- packs ---- */

START_TEST(test_registered)
{
	const struct game_ops *g = G();
	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_eq(g, &bouillabaisse_ops);
	ck_assert_int_eq(g->lower_wins, 1);
	ck_assert_int_eq(g->clockwise, 0);
	ck_assert_int_eq(g->min_players, 2);
	ck_assert_int_eq(g->max_players, 12);
	ck_assert_ptr_nonnull(registry_find("bouillabaisse")->bot);
}
END_TEST

START_TEST(test_pack_sizes)
{
	/* Cards in play with the default decks (1 up to 6 players, 2 from 7). */
	static const int want[13] = { 0, 0, 52, 51, 52, 50, 48, 98, 104, 99, 100, 99, 96 };
	const struct game_ops *g = G();
	for (int p = 2; p <= 12; p++) {
		struct rules r;
		rules_init(&r, g->rules, g->nrules);
		card_t pack[CARD_MAX_PACK];
		char err[128];
		int n = g->pack(&r, p, pack, err, sizeof err);
		ck_assert_msg(n == want[p], "%d players: %d cards, want %d", p, n, want[p]);
		ck_assert_int_eq(n % p, 0);
		/* The removed cards plus the pack make the whole decks. */
		card_t removed[52], all[CARD_MAX_PACK];
		int nr = bou_removed(p, p <= 6 ? 1 : 2, removed);
		ck_assert_int_eq(nr + n, p <= 6 ? 52 : 104);
		memcpy(all, pack, (size_t)n);
		memcpy(all + n, removed, (size_t)nr);
		card_t full[CARD_MAX_PACK];
		int nf = card_pack_full(full, p <= 6 ? 1 : 2);
		ck_assert(card_same_multiset(all, n + nr, full, nf));
	}
	/* With one deck for 7 to 12 players, and two for 2 to 6. */
	for (int p = 2; p <= 12; p++)
		for (int d = 1; d <= 2; d++) {
			card_t pack[CARD_MAX_PACK];
			int n = bou_pack(p, d, pack);
			ck_assert_int_eq(n, 52 * d - (52 * d) % p);
		}
}
END_TEST

static void check_removed(int players, int decks, const char *want)
{
	card_t removed[52];
	int n = bou_removed(players, decks, removed);
	char got[256] = "";
	for (int i = 0; i < n; i++) {
		char cs[CARD_STR_MAX];
		if (i)
			strcat(got, " ");
		strcat(got, card_str(removed[i], cs));
	}
	ck_assert_msg(strcmp(got, want) == 0, "%d players, %d decks: removed '%s', want '%s'", players,
	              decks, got, want);
}

START_TEST(test_removed_cards)
{
	check_removed(2, 1, "");
	check_removed(3, 1, "2C");
	check_removed(4, 1, "");
	check_removed(5, 1, "2C 2D");
	check_removed(6, 1, "2C 2D 2H 2S");
	check_removed(7, 2, "2C 2D 2H 2S 2C 2D");
	check_removed(12, 2, "2C 2D 2H 2S 2C 2D 2H 2S");
	check_removed(11, 2, "2C 2D 2H 2S 2C");
	check_removed(11, 1, "2C 2D 2H 2S 3C 3D 3H 3S");
	check_removed(9, 1, "2C 2D 2H 2S 3C 3D 3H");
	check_removed(3, 2, "2C 2D");
	/* The pack handed to the table follows the decks rule. */
	const struct game_ops *g = G();
	struct rules r;
	char err[128];
	card_t pack[CARD_MAX_PACK];
	rules_init(&r, g->rules, g->nrules);
	ck_assert_int_eq(rules_set_arg(&r, "decks=2", err, sizeof err), 0);
	ck_assert_int_eq(g->pack(&r, 4, pack, err, sizeof err), 104);
	ck_assert_int_eq(rules_set_arg(&r, "decks=1", err, sizeof err), 0);
	ck_assert_int_eq(g->pack(&r, 12, pack, err, sizeof err), 48);
	ck_assert_int_eq(card_find(pack, 48, C("2S")), -1);
	ck_assert_int_ge(card_find(pack, 48, C("3C")), 0);
	ck_assert_int_eq(rules_set_arg(&r, "decks=3", err, sizeof err), -1);
	ck_assert_int_eq(g->pack(&r, 13, pack, err, sizeof err), -1);
}
END_TEST

/* ---- choices ---- */

START_TEST(test_choices)
{
	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct tu_game t;
		tu_game_init(&t, "bouillabaisse", 5, -1, seed, NULL);
		tu_game_start(&t);
		int i = tu_events_find(&t.ev, EV_CHOICE, 0);
		ck_assert_int_eq(i, 0);
		ck_assert_int_eq(t.ev.e[0].what, EV_WHAT_SUIT);
		ck_assert_int_eq(t.ev.e[1].what, EV_WHAT_FIGURE);
		ck_assert_int_eq(t.ev.e[2].what, EV_WHAT_CARD);
		ck_assert_int_eq(t.ev.e[3].type, EV_HAND_START);
		ck_assert_int_eq(t.ev.e[3].hand, 1);
		ck_assert_int_eq(t.ev.e[3].ncards, 50);
		int suit = t.ev.e[0].value, fig = t.ev.e[1].value;
		card_t card = (card_t)t.ev.e[2].value;
		ck_assert(suit >= 0 && suit < 4);
		ck_assert(fig == RANK_JACK || fig == RANK_QUEEN || fig == RANK_KING);
		ck_assert(card_valid(card));
		ck_assert(card != C("2C") && card != C("2D"));  /* removed with 5 players */
		const struct bouillabaisse *st = t.st;
		ck_assert_int_eq(st->suit, suit);
		ck_assert_int_eq(st->figure, fig);
		ck_assert_int_eq(st->card, card);
		ck_assert_int_eq(st->to_act, (st->dealer + 1) % 5);
		ck_assert_int_eq(tu_events_count(&t.ev, EV_DEAL), 5);
		tu_game_release(&t);
	}
	/* Given choices. */
	const char *const rules[] = { "suit=C", "figure=7", "card=AD", NULL };
	struct tu_game t;
	tu_game_init(&t, "bouillabaisse", 4, 0, 3, rules);
	tu_game_start(&t);
	ck_assert_int_eq(t.ev.e[0].value, SUIT_CLUBS);
	ck_assert_int_eq(t.ev.e[1].value, RANK_SEVEN);
	ck_assert_int_eq(t.ev.e[2].value, C("AD"));
	tu_game_release(&t);
	/* A removed card is refused; a card in play is not. */
	const struct game_ops *g = G();
	struct rules r;
	char err[160];
	rules_init(&r, g->rules, g->nrules);
	ck_assert_int_eq(rules_set_arg(&r, "card=2C", err, sizeof err), 0);
	struct bouillabaisse st;
	struct game_setup setup = { 3, -1, 1, &r, NULL };
	ck_assert_int_eq(g->init(&st, &setup, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "2C"));
	setup.players = 4;
	ck_assert_int_eq(g->init(&st, &setup, err, sizeof err), 0);
	setup.players = 3;
	ck_assert_int_eq(rules_set_arg(&r, "card=2D", err, sizeof err), 0);
	ck_assert_int_eq(g->init(&st, &setup, err, sizeof err), 0);
	setup.players = 13;
	ck_assert_int_eq(g->init(&st, &setup, err, sizeof err), -1);
	/* decks=auto is settled. */
	rules_init(&r, g->rules, g->nrules);
	setup.players = 8;
	ck_assert_int_eq(g->init(&st, &setup, err, sizeof err), 0);
	ck_assert_int_eq(st.decks, 2);
	ck_assert_int_eq(rules_get(&r, "decks"), 2);
}
END_TEST

/* ---- stacked deals ---- */

/* Text of a pack dealt by `dealer` to `players` so that seat s gets
 * hands[s] (space-separated cards; the rest of the pack, in pack order,
 * fills the hands). */
static void deck_text(char *out, size_t len, int players, int decks, int dealer, const char *const *hands)
{
	card_t pack[CARD_MAX_PACK];
	int n = bou_pack(players, decks, pack);
	int per = n / players;
	card_t h[BOU_MAX_PLAYERS][GAME_MAX_HAND];
	int nh[BOU_MAX_PLAYERS] = { 0 };
	for (int s = 0; s < players; s++) {
		const char *p = hands && hands[s] ? hands[s] : "";
		while (*p) {
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			card_t c;
			size_t used = card_parse_prefix(p, &c);
			ck_assert_msg(used > 0, "bad card near %s", p);
			ck_assert_msg(card_remove(pack, &n, c) == 0, "card %.3s not available", p);
			h[s][nh[s]++] = c;
			p += used;
		}
	}
	int k = 0;
	for (int s = 0; s < players; s++)
		while (nh[s] < per)
			h[s][nh[s]++] = pack[k++];
	ck_assert_int_eq(k, n);
	size_t used = 0;
	int idx[BOU_MAX_PLAYERS] = { 0 };
	for (int i = 0; i < per * players; i++) {
		int s = (dealer + 1 + i) % players;
		char cs[CARD_STR_MAX];
		used += (size_t)snprintf(out + used, len - used, "%s ", card_str(h[s][idx[s]++], cs));
	}
	ck_assert(used < len);
}

/* Plays the first legal card for every seat until the round changes or
 * the game ends. */
static void play_round_first_legal(struct tu_game *t)
{
	const struct bouillabaisse *st = t->st;
	int round = st->round;
	while (t->g->to_act(t->st) >= 0 && st->round == round) {
		struct action legal[GAME_MAX_LEGAL];
		int n = t->g->legal(t->st, legal, GAME_MAX_LEGAL);
		ck_assert_int_gt(n, 0);
		struct sink s = tu_events_sink(&t->ev);
		struct refusal why;
		ck_assert_int_eq(t->g->apply(t->st, &legal[0], &s, &why), 0);
		char err[200];
		ck_assert_msg(t->g->audit(t->st, err, sizeof err) == 0, "%s", err);
	}
}

/* The k-th event of a type (from 0), or -1. */
static int nth(const struct tu_events *ev, int type, int k)
{
	int i = -1;
	for (int j = 0; j <= k; j++) {
		i = tu_events_find(ev, type, i + 1);
		if (i < 0)
			return -1;
	}
	return i;
}

/* Round points of each seat from the k-th "round_points" phase. */
static const struct event *round_points(const struct tu_events *ev, int k)
{
	int seen = 0;
	for (int i = 0; i < ev->n; i++)
		if (ev->e[i].type == EV_PHASE && ev->e[i].note == EV_NOTE_ROUND_POINTS) {
			if (seen == k)
				return &ev->e[i];
			seen++;
		}
	return NULL;
}

/* 12 players, one deck (48 cards, no 2s): every seat holds one card of each
 * suit, so each trick is a whole suit. Relative to the leader (position
 * k), spades rank 3+k (A at 11), hearts 3+(k+6)%12 (A at 5), diamonds
 * 3+(k+3)%12 (A at 8), clubs 3+(k+9)%12 (A at 2). Playing the first legal
 * card, the tricks are spades (won by 11), hearts (5), diamonds (8), clubs
 * (2). The pack is the same each round and the deal follows the leader, so
 * each round plays alike. */
static void twelve_hands(char *out, size_t len)
{
	static const int off[SUIT_COUNT] = { 0, 6, 3, 9 };  /* S H D C */
	card_t pack[48];
	int n = 0;
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 12; k++) {
			/* Card i*12+k goes to relative position k. */
			pack[n++] = card_make(3 + (k + off[i]) % 12, i);
		}
	size_t used = 0;
	for (int i = 0; i < n; i++) {
		char cs[CARD_STR_MAX];
		used += (size_t)snprintf(out + used, len - used, "%s ", card_str(pack[i], cs));
	}
}

static void check_twelve(int aon)
{
	char one[400], text[6 * 420] = "";
	twelve_hands(one, sizeof one);
	for (int r = 0; r < 6; r++) {
		strcat(text, one);
		strcat(text, "\n--\n");
	}
	const char *const rules_no[] = { "decks=1", "suit=H", "figure=Q", "card=KS", NULL };
	const char *const rules_yes[] = { "decks=1", "suit=H", "figure=Q", "card=KS", "all_or_nothing=yes", NULL };
	struct tu_game t;
	tu_game_init(&t, "bouillabaisse", 12, 11, 1, aon ? rules_yes : rules_no);
	tu_game_stack(&t, text);
	tu_game_start(&t);
	/* Points by relative position (11, 5, 8, 2 take the tricks). */
	static const int pos[4] = { 11, 5, 8, 2 };
	static const int want[6][4] = {
		{ 5, 5, 5, 5 },         /* 1: each trick 5 */
		{ 0, 120, 0, 0 },       /* 2: the twelve hearts */
		{ 50, 50, 50, 50 },     /* 3: one queen each */
		{ 200, 0, 0, 0 },       /* 4: the king of spades */
		{ 255, 175, 55, 55 },   /* 5: all together */
		{ -255, -175, -55, -55 }, /* 6: negated */
	};
	static const int trick_pts[6][4] = {
		{ 5, 5, 5, 5 }, { 0, 120, 0, 0 }, { 50, 50, 50, 50 }, { 200, 0, 0, 0 },
		{ 255, 175, 55, 55 }, { -255, -175, -55, -55 },
	};
	int total[12] = { 0 };
	for (int r = 0; r < 6; r++) {
		int from = t.ev.n;
		play_round_first_legal(&t);
		int leader = (11 + r + 1) % 12;
		int pts[12] = { 0 };
		for (int k = 0; k < 4; k++)
			pts[(leader + pos[k]) % 12] = want[r][k];
		/* Round 2 under all-or-nothing: one seat took every heart. */
		if (aon && r == 1)
			pts[(leader + 5) % 12] = -120;
		for (int s = 0; s < 12; s++)
			total[s] += pts[s];
		int tk = 0;
		for (int i = from; i < t.ev.n; i++)
			if (t.ev.e[i].type == EV_TRICK) {
				ck_assert_int_lt(tk, 4);
				ck_assert_int_eq(t.ev.e[i].winner, (leader + pos[tk]) % 12);
				ck_assert_msg(t.ev.e[i].points == trick_pts[r][tk], "round %d trick %d: %d points",
				              r + 1, tk + 1, t.ev.e[i].points);
				ck_assert_int_eq(t.ev.e[i].ncards, 12);
				ck_assert_int_eq(t.ev.e[i].card_seat[0], (leader + (tk ? pos[tk - 1] : 0)) % 12);
				tk++;
			}
		ck_assert_int_eq(tk, 4);
		const struct event *rp = round_points(&t.ev, r);
		ck_assert_ptr_nonnull(rp);
		ck_assert_int_eq(rp->code, r + 1);
		ck_assert_int_eq(rp->nvalues, 12);
		for (int s = 0; s < 12; s++)
			ck_assert_msg(rp->values[s] == pts[s], "round %d seat %d: %d, want %d", r + 1, s,
			              rp->values[s], pts[s]);
		int he = nth(&t.ev, EV_HAND_END, r);
		ck_assert_int_ge(he, 0);
		ck_assert_int_eq(t.ev.e[he].values_kind, EV_VALUES_SCORES);
		ck_assert_int_eq(t.ev.e[he].hand, r + 1);
		for (int s = 0; s < 12; s++)
			ck_assert_int_eq(t.ev.e[he].values[s], total[s]);
		int hs = nth(&t.ev, EV_HAND_START, r);
		ck_assert_int_eq(t.ev.e[hs].hand, r + 1);
		ck_assert_int_eq(t.ev.e[hs].dealer, (11 + r) % 12);
	}
	ck_assert_int_eq(t.g->to_act(t.st), -1);
	int ge = tu_events_find(&t.ev, EV_GAME_END, 0);
	ck_assert_int_ge(ge, 0);
	int best = total[0];
	unsigned mask = 0;
	for (int s = 1; s < 12; s++)
		if (total[s] < best)
			best = total[s];
	for (int s = 0; s < 12; s++)
		if (total[s] == best)
			mask |= 1u << s;
	ck_assert_uint_eq(t.ev.e[ge].winners, mask);
	int standings[12];
	ck_assert_int_eq(t.g->standings(t.st, standings), 12);
	for (int s = 0; s < 12; s++)
		ck_assert_int_eq(standings[s], total[s]);
	tu_game_release(&t);
}

START_TEST(test_rounds_scoring)
{
	check_twelve(0);
}
END_TEST

START_TEST(test_rounds_scoring_aon)
{
	check_twelve(1);
}
END_TEST

/* 2 players, one deck: the leader holds every spade and heart, the other
 * every diamond and club: the leader takes every trick of the round. */
static void two_sweep(struct tu_game *t, int aon, int hands)
{
	char one[400], text[6 * 420] = "", hr[32];
	const char *const h[2] = { "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
		                       NULL };
	for (int r = 0; r < 6; r++) {
		/* The leader is seat dealer+1: in round r (from 0) the dealer is
		 * 1+r, the leader r%2. */
		const char *const hh[2] = { r % 2 == 0 ? h[0] : NULL, r % 2 == 0 ? NULL : h[0] };
		deck_text(one, sizeof one, 2, 1, (1 + r) % 2, hh);
		strcat(text, one);
		strcat(text, "\n--\n");
	}
	snprintf(hr, sizeof hr, "hands=%d", hands);
	const char *const rules[] = { "suit=H", "figure=Q", "card=KS", aon ? "all_or_nothing=yes" : "all_or_nothing=no",
		                          hr, NULL };
	tu_game_init(t, "bouillabaisse", 2, 1, 1, rules);
	tu_game_stack(t, text);
	tu_game_start(t);
	for (int r = 0; r < hands; r++)
		play_round_first_legal(t);
	ck_assert_int_eq(t->g->to_act(t->st), -1);
}

START_TEST(test_sweep_every_round)
{
	/* Without all-or-nothing: 130, 130, 200, 200, 660, -660 to the
	 * leaders 0, 1, 0, 1, 0, 1. */
	static const int want[6] = { 130, 130, 200, 200, 660, -660 };
	struct tu_game t;
	two_sweep(&t, 0, 6);
	int tot[2] = { 0, 0 };
	for (int r = 0; r < 6; r++) {
		const struct event *rp = round_points(&t.ev, r);
		ck_assert_int_eq(rp->values[r % 2], want[r]);
		ck_assert_int_eq(rp->values[1 - r % 2], 0);
		ck_assert_int_eq(rp->seat, -1);
		tot[r % 2] += want[r];
	}
	ck_assert_int_eq(tu_events_count(&t.ev, EV_TRICK), 6 * 26);
	const struct bouillabaisse *st = t.st;
	ck_assert_int_eq(st->total[0], 990);
	ck_assert_int_eq(st->total[1], -330);
	ck_assert_int_eq(tot[0], 990);
	int ge = tu_events_find(&t.ev, EV_GAME_END, 0);
	ck_assert_int_eq(t.ev.e[ge].winner, 1);
	ck_assert_uint_eq(t.ev.e[ge].winners, 2u);
	ck_assert_int_eq(t.ev.e[ge].values_kind, EV_VALUES_STANDINGS);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_all_or_nothing_every_round_but_fourth)
{
	/* Everything taken by one player: negated in rounds 1, 2, 3, 5, 6;
	 * round 4 counts as usual. */
	static const int want[6] = { -130, -130, -200, 200, -660, 660 };
	struct tu_game t;
	two_sweep(&t, 1, 6);
	for (int r = 0; r < 6; r++) {
		const struct event *rp = round_points(&t.ev, r);
		ck_assert_msg(rp->values[r % 2] == want[r], "round %d: %d", r + 1, rp->values[r % 2]);
		ck_assert_int_eq(rp->seat, r == 3 ? -1 : r % 2);
	}
	int aon = 0;
	for (int i = 0; i < t.ev.n; i++)
		if (t.ev.e[i].type == EV_PHASE && t.ev.e[i].note == EV_NOTE_ALL_OR_NOTHING) {
			ck_assert_int_ne(t.ev.e[i].code, 4);
			aon++;
		}
	ck_assert_int_eq(aon, 5);
	/* The trick points are the plain ones (before all-or-nothing). */
	int i = tu_events_find(&t.ev, EV_TRICK, 0);
	ck_assert_int_eq(t.ev.e[i].points, 5);
	const struct bouillabaisse *st = t.st;
	ck_assert_int_eq(st->total[0], -990);
	ck_assert_int_eq(st->total[1], 730);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_shared_win)
{
	/* Two rounds: 130 each. */
	struct tu_game t;
	two_sweep(&t, 0, 2);
	ck_assert_int_eq(tu_events_count(&t.ev, EV_HAND_END), 2);
	int ge = tu_events_find(&t.ev, EV_GAME_END, 0);
	ck_assert_int_ge(ge, 0);
	ck_assert_int_eq(t.ev.e[ge].winner, -1);
	ck_assert_uint_eq(t.ev.e[ge].winners, 3u);
	ck_assert_int_eq(t.ev.e[ge].values[0], 130);
	ck_assert_int_eq(t.ev.e[ge].values[1], 130);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_two_decks_first_copy_wins)
{
	/* 3 players, two decks (102 cards, 34 each). Seat 0 leads the king,
	 * seats 1 and 2 both play an ace of spades: seat 1's, first, wins. */
	char text[600];
	const char *const hands[3] = { "KS 3D", "AS 4D", "AS 5D" };
	deck_text(text, sizeof text, 3, 2, 2, hands);
	const char *const rules[] = { "decks=2", "suit=S", "figure=A", "card=AS", NULL };
	struct tu_game t;
	tu_game_init(&t, "bouillabaisse", 3, 2, 1, rules);
	tu_game_stack(&t, text);
	tu_game_start(&t);
	const struct bouillabaisse *st = t.st;
	ck_assert_int_eq(st->decks, 2);
	ck_assert_int_eq(st->hand_size, 34);
	tu_game_script(&t, "0 play KS\n1 play AS\n2 play AS\n");
	int i = tu_events_find(&t.ev, EV_TRICK, 0);
	ck_assert_int_ge(i, 0);
	ck_assert_int_eq(t.ev.e[i].winner, 1);
	ck_assert_int_eq(t.ev.e[i].points, 5);
	ck_assert_int_eq(t.g->to_act(t.st), 1);
	/* The same again in round 4, where each ace of spades costs 200. */
	tu_game_release(&t);

	char all[4 * 620] = "";
	for (int r = 0; r < 4; r++) {
		/* Round r (from 0): dealer (2+r)%3, leader r%3; the leader gets
		 * the king, the next two an ace each. */
		const char *hh[3];
		hh[r % 3] = "KS 3D";
		hh[(r + 1) % 3] = "AS 4D";
		hh[(r + 2) % 3] = "AS 5D";
		deck_text(text, sizeof text, 3, 2, (2 + r) % 3, hh);
		strcat(all, text);
		strcat(all, "\n--\n");
	}
	const char *const rules4[] = { "decks=2", "suit=S", "figure=A", "card=AS", "hands=4", NULL };
	tu_game_init(&t, "bouillabaisse", 3, 2, 1, rules4);
	tu_game_stack(&t, all);
	tu_game_start(&t);
	for (int r = 0; r < 3; r++)
		play_round_first_legal(&t);
	int from = t.ev.n;
	tu_game_script(&t, "0 play KS\n1 play AS\n2 play AS\n");
	i = tu_events_find(&t.ev, EV_TRICK, from);
	ck_assert_int_eq(t.ev.e[i].winner, 1);
	ck_assert_int_eq(t.ev.e[i].points, 400);  /* both copies of the card */
	play_round_first_legal(&t);
	const struct event *rp = round_points(&t.ev, 3);
	ck_assert_int_eq(rp->values[1], 400);
	ck_assert_int_eq(rp->values[0] + rp->values[2], 0);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_refusals)
{
	char text[400];
	const char *const hands[4] = { "AS KH 3C", "QS 2H", "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", NULL };
	deck_text(text, sizeof text, 4, 1, 3, hands);
	struct tu_game t;
	tu_game_init(&t, "bouillabaisse", 4, 3, 1, NULL);
	tu_game_stack(&t, text);
	tu_game_start(&t);
	const struct bouillabaisse *st = t.st;
	ck_assert_int_eq(st->to_act, 0);
	struct bouillabaisse before;
	memcpy(&before, t.st, sizeof before);
	struct refusal why;
	ck_assert_int_eq(tu_game_try(&t, "play QS", &why), -1);
	ck_assert_int_eq(why.code, BOU_NOT_IN_HAND);
	ck_assert_int_eq(why.card, C("QS"));
	ck_assert_int_eq(tu_game_try(&t, "pass", &why), -1);
	ck_assert_int_eq(why.code, BOU_NOT_A_PLAY);
	ck_assert_int_eq(memcmp(&before, t.st, sizeof before), 0);
	/* Leading anything is allowed. */
	struct action legal[GAME_MAX_LEGAL];
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 13);
	ck_assert_int_eq(tu_game_try(&t, "play AS", &why), 0);
	/* Seat 1 holds spades: must follow. */
	int n = t.g->legal(t.st, legal, GAME_MAX_LEGAL);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(card_suit(legal[i].cards[0]), SUIT_SPADES);
	memcpy(&before, t.st, sizeof before);
	ck_assert_int_eq(tu_game_try(&t, "play 2H", &why), -1);
	ck_assert_int_eq(why.code, BOU_MUST_FOLLOW);
	ck_assert_int_eq(why.suit, SUIT_SPADES);
	ck_assert_int_eq(memcmp(&before, t.st, sizeof before), 0);
	ck_assert_int_eq(tu_game_try(&t, "play QS", &why), 0);
	/* Seat 2 holds no spade: anything goes, and is known void in spades. */
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 13);
	ck_assert_int_eq(tu_game_try(&t, "play 2D", &why), 0);
	ck_assert_uint_eq(st->voids[2], 1u << SUIT_SPADES);
	tu_game_release(&t);
	/* Nothing is accepted once the game is over. */
	two_sweep(&t, 0, 1);
	ck_assert_int_eq(tu_game_try(&t, "play AS", &why), -1);
	ck_assert_int_eq(why.code, BOU_NOT_YOUR_TURN);
	ck_assert_int_eq(t.g->legal(t.st, legal, GAME_MAX_LEGAL), 0);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_two_copies_one_action)
{
	char text[600];
	const char *const hands[2] = { "AS AS KH", NULL };
	deck_text(text, sizeof text, 2, 2, 1, hands);
	const char *const rules[] = { "decks=2", NULL };
	struct tu_game t;
	tu_game_init(&t, "bouillabaisse", 2, 1, 1, rules);
	tu_game_stack(&t, text);
	tu_game_start(&t);
	struct action legal[GAME_MAX_LEGAL];
	int n = t.g->legal(t.st, legal, GAME_MAX_LEGAL);
	int aces = 0;
	for (int i = 0; i < n; i++)
		aces += legal[i].cards[0] == C("AS");
	ck_assert_int_eq(aces, 1);
	ck_assert_int_eq(card_find((const card_t *)((const struct bouillabaisse *)t.st)->hand[0], 52, C("AS")) >= 0, 1);
	tu_game_release(&t);
}
END_TEST

/* ---- views ---- */

START_TEST(test_redact_resample)
{
	for (uint64_t seed = 1; seed <= 30; seed++) {
		int players = 2 + (int)(seed % 11);
		struct tu_game t;
		tu_game_init(&t, "bouillabaisse", players, -1, seed, NULL);
		tu_game_start(&t);
		struct rng rng;
		rng_seed(&rng, seed * 7);
		/* Play a random part of the first round. */
		const struct bouillabaisse *st = t.st;
		int steps = (int)rng_below(&rng, (uint32_t)(st->npack - 1));
		for (int k = 0; k < steps; k++) {
			struct action a;
			bot_random(t.g, tu_bot(t.g), t.st, &rng, &a);
			ck_assert_int_eq(t.g->apply(t.st, &a, NULL, NULL), 0);
		}
		int me = st->to_act;
		struct bouillabaisse view, res;
		memcpy(&view, t.st, sizeof view);
		t.g->redact(&view, me);
		for (int s = 0; s < players; s++) {
			ck_assert_int_eq(view.nhand[s], st->nhand[s]);
			for (int i = 0; i < view.nhand[s]; i++)
				ck_assert(s == me ? view.hand[s][i] == st->hand[s][i] : view.hand[s][i] == 0);
		}
		for (int k = 0; k < 20; k++) {
			memcpy(&res, &view, sizeof res);
			t.g->resample(&res, me, &rng);
			res.redacted_for = -1;
			memcpy(&res.rng, &st->rng, sizeof res.rng);
			res.stack = st->stack;
			char err[200];
			ck_assert_msg(t.g->audit(&res, err, sizeof err) == 0, "seed %llu: %s", (unsigned long long)seed, err);
			for (int s = 0; s < players; s++) {
				ck_assert_int_eq(res.nhand[s], st->nhand[s]);
				for (int i = 0; i < res.nhand[s]; i++)
					ck_assert_msg(!(st->voids[s] & (1u << card_suit(res.hand[s][i]))),
					              "seed %llu: seat %d void in a suit it was given", (unsigned long long)seed, s);
			}
			ck_assert_int_eq(memcmp(res.hand[me], st->hand[me], sizeof res.hand[me]), 0);
		}
		tu_game_release(&t);
	}
}
END_TEST

START_TEST(test_resample_many_voids)
{
	/* 2 players: seat 0 holds every spade and heart; after a few tricks
	 * seat 1 is known void in spades and hearts and must get every
	 * diamond and club back. */
	struct tu_game t;
	char text[400];
	const char *const hands[2] = { "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
		                           NULL };
	deck_text(text, sizeof text, 2, 1, 1, hands);
	tu_game_init(&t, "bouillabaisse", 2, 1, 1, NULL);
	tu_game_stack(&t, text);
	tu_game_start(&t);
	tu_game_script(&t, "0 play AS\n1 play 2D\n0 play AH\n1 play 3D\n");
	struct bouillabaisse view;
	memcpy(&view, t.st, sizeof view);
	t.g->redact(&view, 0);
	struct rng rng;
	rng_seed(&rng, 5);
	for (int k = 0; k < 10; k++) {
		struct bouillabaisse res = view;
		t.g->resample(&res, 0, &rng);
		ck_assert_int_eq(res.nhand[1], 24);
		for (int i = 0; i < 24; i++)
			ck_assert(card_suit(res.hand[1][i]) == SUIT_DIAMONDS || card_suit(res.hand[1][i]) == SUIT_CLUBS);
	}
	tu_game_release(&t);
}
END_TEST

/* ---- the referee ---- */

START_TEST(test_referee_all_counts)
{
	int p = _i;  /* 2..12 */
	const char *const none[] = { NULL };
	const char *const aon[] = { "all_or_nothing=yes", NULL };
	const char *const other_decks[] = { p <= 6 ? "decks=2" : "decks=1", "all_or_nothing=yes", NULL };
	const char *const given[] = { "suit=C", "figure=A", "card=AC", "hands=3", NULL };
	long n = 0;
	n += tu_referee("bouillabaisse", p, none, 2, 0, 100 + (uint64_t)p, 0);
	n += tu_referee("bouillabaisse", p, aon, 1, 0, 200 + (uint64_t)p, 0);
	n += tu_referee("bouillabaisse", p, other_decks, 1, 0, 300 + (uint64_t)p, 0);
	n += tu_referee("bouillabaisse", p, given, 1, 0, 400 + (uint64_t)p, 0);
	n += tu_referee("bouillabaisse", p, none, 1, 2, 500 + (uint64_t)p, 0);
	n += tu_referee("bouillabaisse", p, aon, 1, 2, 600 + (uint64_t)p, 0);
	n += tu_referee("bouillabaisse", p, none, 1, 1, 700 + (uint64_t)p, 0);
	ck_assert_int_gt(n, 0);
}
END_TEST

START_TEST(test_referee_level3)
{
	const char *const aon[] = { "all_or_nothing=yes", NULL };
	ck_assert_int_gt(tu_referee("bouillabaisse", 4, aon, 1, 3, 77, 0), 0);
}
END_TEST

/* ---- bots ---- */

/* Plays `games` games of `players` with one seat (rotating) at `strong`
 * and the others at `weak`; returns the average total of the strong seat
 * minus the average total of the others, over all games (negative: the
 * strong bot does better). Also gives both averages. */
static double compare(int players, int strong, int weak, int games, uint64_t seed, const char *const *rules,
                      double *avg_strong, double *avg_weak)
{
	const struct game_ops *g = G();
	double ss = 0, sw = 0;
	int nw = 0;
	struct bouillabaisse st;
	for (int k = 0; k < games; k++) {
		struct rules r;
		char err[128];
		rules_init(&r, g->rules, g->nrules);
		for (int i = 0; rules && rules[i]; i++)
			ck_assert_int_eq(rules_set_arg(&r, rules[i], err, sizeof err), 0);
		struct game_setup setup = { players, -1, rng_derive(seed, (uint64_t)k), &r, NULL };
		ck_assert_int_eq(g->init(&st, &setup, err, sizeof err), 0);
		g->start(&st, NULL);
		struct rng rng;
		rng_seed(&rng, rng_derive(seed, 1000 + (uint64_t)k));
		int hero = k % players;
		while (g->to_act(&st) >= 0) {
			int s = g->to_act(&st);
			struct action a;
			bot_choose(g, tu_bot(g), &st, s == hero ? strong : weak, &rng, &a);
			ck_assert_int_eq(g->apply(&st, &a, NULL, NULL), 0);
		}
		for (int s = 0; s < players; s++) {
			if (s == hero) {
				ss += st.total[s];
			} else {
				sw += st.total[s];
				nw++;
			}
		}
	}
	*avg_strong = ss / games;
	*avg_weak = sw / nw;
	return *avg_strong - *avg_weak;
}

START_TEST(test_bot_strength)
{
	double s, w;
	double d = compare(4, 2, 0, 200, 42, NULL, &s, &w);
	printf("bouillabaisse bots, 4 players, 200 games: level 2 %.1f vs random %.1f (diff %.1f)\n", s, w, d);
	ck_assert_msg(d < -50.0, "level 2 vs random: %.1f vs %.1f", s, w);
	d = compare(4, 2, 1, 200, 43, NULL, &s, &w);
	printf("bouillabaisse bots, 4 players, 200 games: level 2 %.1f vs level 1 %.1f (diff %.1f)\n", s, w, d);
	ck_assert_msg(d < -10.0, "level 2 vs level 1: %.1f vs %.1f", s, w);
	d = compare(4, 1, 0, 200, 44, NULL, &s, &w);
	printf("bouillabaisse bots, 4 players, 200 games: level 1 %.1f vs random %.1f (diff %.1f)\n", s, w, d);
	ck_assert_msg(d < 0.0, "level 1 vs random: %.1f vs %.1f", s, w);
	const char *const aon[] = { "all_or_nothing=yes", NULL };
	d = compare(4, 2, 0, 200, 45, aon, &s, &w);
	printf("bouillabaisse bots, 4 players, all_or_nothing, 200 games: level 2 %.1f vs random %.1f (diff %.1f)\n",
	       s, w, d);
	ck_assert_msg(d < -50.0, "level 2 vs random with all_or_nothing: %.1f vs %.1f", s, w);
	d = compare(4, 2, 1, 200, 46, aon, &s, &w);
	printf("bouillabaisse bots, 4 players, all_or_nothing, 200 games: level 2 %.1f vs level 1 %.1f (diff %.1f)\n",
	       s, w, d);
	ck_assert_msg(d < -10.0, "level 2 vs level 1 with all_or_nothing: %.1f vs %.1f", s, w);
	d = compare(8, 2, 0, 100, 47, NULL, &s, &w);
	printf("bouillabaisse bots, 8 players (two decks), 100 games: level 2 %.1f vs random %.1f (diff %.1f)\n", s, w, d);
	ck_assert_msg(d < -50.0, "level 2 vs random, 8 players: %.1f vs %.1f", s, w);
}
END_TEST

START_TEST(test_bot_search)
{
	double s, w;
	double d = compare(4, 3, 2, 40, 48, NULL, &s, &w);
	printf("bouillabaisse bots, 4 players, 40 games: level 3 %.1f vs level 2 %.1f (diff %.1f)\n", s, w, d);
	ck_assert_msg(d < -20.0, "level 3 vs level 2: %.1f vs %.1f", s, w);
}
END_TEST


/* ---- speech ---- */

static void lang(const char *l)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(l, err, sizeof err) == 0, "%s", err);
}

/* What seat `me` hears of event i, from a view of the state now. */
static const char *heard(struct tu_game *t, int me, int i)
{
	static struct sbuf b;
	struct talk tk = { .game = t->g, .me = me, .players = game_players(t->st) };
	void *view = malloc(t->g->state_size);
	memcpy(view, t->st, t->g->state_size);
	t->g->redact(view, me);
	ann_event(&tk, registry_find("bouillabaisse")->talk, view, &t->ev.e[i], &b);
	free(view);
	return b.s;
}

static const char *asked(struct tu_game *t, int me, int key)
{
	static struct sbuf b;
	struct talk tk = { .game = t->g, .me = me, .players = game_players(t->st) };
	struct bouillabaisse view;
	memcpy(&view, t->st, sizeof view);
	t->g->redact(&view, me);
	ann_query(&tk, registry_find("bouillabaisse")->talk, &view, key, &b);
	return b.s;
}

static const char *refused(struct tu_game *t, int me, const char *action)
{
	static struct sbuf b;
	struct refusal why;
	ck_assert_int_eq(tu_game_try(t, action, &why), -1);
	struct talk tk = { .game = t->g, .me = me, .players = game_players(t->st) };
	ann_refusal(&tk, registry_find("bouillabaisse")->talk, t->st, &why, &b);
	return b.s;
}

static const char *prompted(struct tu_game *t, int me)
{
	static struct sbuf b;
	struct talk tk = { .game = t->g, .me = me, .players = game_players(t->st) };
	sb_clear(&b);
	registry_find("bouillabaisse")->talk->prompt(&tk, t->st, &b);
	return b.s;
}

static void four_game(struct tu_game *t)
{
	char text[400];
	const char *const hands[4] = { "AS KH 3C", "QS 2H", "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", NULL };
	deck_text(text, sizeof text, 4, 1, 3, hands);
	const char *const rules[] = { "suit=H", "figure=Q", "card=KS", NULL };
	tu_game_init(t, "bouillabaisse", 4, 3, 1, rules);
	tu_game_stack(t, text);
	tu_game_start(t);
}

START_TEST(test_talk_english)
{
	lang("en");
	ck_assert_ptr_nonnull(registry_find("bouillabaisse")->talk);
	struct tu_game t;
	four_game(&t);
	ck_assert_str_eq(heard(&t, 0, 0), "Chosen suit: hearts.");
	ck_assert_str_eq(heard(&t, 0, 1), "Chosen figure: queens.");
	ck_assert_str_eq(heard(&t, 0, 2), "Chosen card: the king of spades.");
	ck_assert_str_eq(heard(&t, 0, 3), "Round 1 of 6. Each trick costs 5 points. Denis deals.");
	ck_assert_str_eq(asked(&t, 0, 'R'),
	                 "Round 1 of 6. Each trick costs 5 points. Suit: hearts; figure: queens; card: the king of spades.");
	ck_assert_str_eq(asked(&t, 0, 'T'), "Your turn. You lead.");
	ck_assert_str_eq(prompted(&t, 0), "Your turn. You lead.");
	ck_assert_str_eq(asked(&t, 0, 'F'), "No card led yet. You lead.");
	ck_assert_str_eq(asked(&t, 0, 'C'), "No cards on the table. You lead.");
	ck_assert_str_eq(asked(&t, 1, 'C'), "No cards on the table. Anne to lead.");
	ck_assert_str_eq(asked(&t, 1, 'T'), "Anne to lead.");
	ck_assert_str_eq(asked(&t, 0, '1'), "No card 1: the table is empty.");
	{
		/* H with no cards (a spectator): no "Your 0 cards". */
		static struct sbuf hb;
		struct talk spec = { .game = t.g, .me = -1, .players = 4 };
		sb_clear(&hb);
		ann_hand(&spec, NULL, 0, &hb);
		ck_assert_str_eq(hb.s, "You hold no cards.");
	}
	ck_assert_str_eq(refused(&t, 0, "play QS"), "You do not hold the queen of spades.");
	ck_assert_str_eq(refused(&t, 0, "pass"), "Play a card.");
	tu_game_script(&t, "0 play AS\n");
	ck_assert_str_eq(asked(&t, 0, 'T'), "Bruno to play.");
	ck_assert_str_eq(asked(&t, 0, 'F'), "Spades led by you.");
	ck_assert_str_eq(asked(&t, 1, 'T'), "Your turn. Follow spades.");
	ck_assert_str_eq(prompted(&t, 1), "Your turn. Follow spades.");
	ck_assert_str_eq(refused(&t, 1, "play 2H"), "You must follow spades.");
	tu_game_script(&t, "1 play QS\n");
	ck_assert_str_eq(asked(&t, 2, 'T'), "Your turn. No spades: play any card.");
	ck_assert_str_eq(asked(&t, 2, 'C'),
	                 "Anne: the ace of spades; Bruno: the queen of spades. Anne holds the trick, 5 points so far.");
	ck_assert_str_eq(asked(&t, 2, '2'), "Bruno: the queen of spades.");
	ck_assert_str_eq(asked(&t, 2, '3'), "No card 3 on the table: 2 cards so far.");
	{
		/* A trick with nothing that scores in this round. */
		static struct sbuf nb;
		struct talk tk = { .game = t.g, .me = 2, .players = 4 };
		struct bouillabaisse v;
		memcpy(&v, t.st, sizeof v);
		t.g->redact(&v, 2);
		v.round = 2;
		ann_query(&tk, registry_find("bouillabaisse")->talk, &v, 'C', &nb);
		ck_assert_str_eq(nb.s, "Anne: the ace of spades; Bruno: the queen of spades. Anne holds the trick, "
		                       "no points so far.");
	}
	ck_assert_str_eq(asked(&t, 0, '1'), "You: the ace of spades.");
	struct action legal[GAME_MAX_LEGAL];
	/* The trick: 5 points in round 1, with the queen in round 3. */
	struct tu_game t2;
	four_game(&t2);
	tu_game_script(&t2, "0 play AS\n1 play QS\n2 play 2D\n");
	t2.g->legal(t2.st, legal, GAME_MAX_LEGAL);
	char line[40], ac[ACT_STR_MAX];
	snprintf(line, sizeof line, "3 %s\n", act_format(&legal[0], ac, sizeof ac));
	tu_game_script(&t2, line);
	int i = tu_events_find(&t2.ev, EV_TRICK, 0);
	ck_assert_str_eq(heard(&t2, 0, i), "You take the trick: 5 points.");
	ck_assert_str_eq(heard(&t2, 1, i), "Anne takes the trick: 5 points.");
	ck_assert_str_eq(asked(&t2, 1, 'S'),
	                 "Totals: Anne 0, you 0, Claire 0 and Denis 0. This round so far: Anne 5, you 0, Claire 0 and Denis 0.");
	ck_assert_str_eq(asked(&t2, 1, 'T'), "Anne to lead.");
	/* The table is empty again: who leads, and the trick just taken. */
	char last[200], card3[96];
	say_card_str(NULL, legal[0].cards[0], SAY_THE, card3, sizeof card3);
	char want[300];
	snprintf(last, sizeof last, "Last trick: Anne: the ace of spades; you: the queen of spades; Claire: "
	         "the two of diamonds; Denis: %s.", card3);
	snprintf(want, sizeof want, "No cards on the table. Anne to lead. %s Anne took it: 5 points.", last);
	ck_assert_str_eq(asked(&t2, 1, 'C'), want);
	snprintf(last, sizeof last, "Last trick: you: the ace of spades; Bruno: the queen of spades; Claire: "
	         "the two of diamonds; Denis: %s.", card3);
	snprintf(want, sizeof want, "No cards on the table. You lead. %s You took it: 5 points.", last);
	ck_assert_str_eq(asked(&t2, 0, 'C'), want);
	tu_game_release(&t2);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_talk_rounds_and_end)
{
	lang("en");
	struct tu_game t;
	two_sweep(&t, 0, 2);
	int i = nth(&t.ev, EV_HAND_START, 1);
	ck_assert_str_eq(heard(&t, 0, i), "Round 2 of 2. Hearts cost 10 points each. You deal.");
	for (i = 0; i < t.ev.n; i++)
		if (t.ev.e[i].type == EV_PHASE)
			break;
	ck_assert_str_eq(heard(&t, 0, i), "End of round 1. Points this round: you 130 and Bruno 0.");
	ck_assert_str_eq(heard(&t, 1, nth(&t.ev, EV_HAND_END, 1)), "Totals: Anne 130 and you 130.");
	i = tu_events_find(&t.ev, EV_GAME_END, 0);
	ck_assert_str_eq(heard(&t, 0, i), "Game over. Shared win: you and Bruno, with 130 points.");
	ck_assert_str_eq(heard(&t, -1, i), "Game over. Shared win: Anne and Bruno, with 130 points.");
	ck_assert_str_eq(asked(&t, 0, 'T'), "The game is over.");
	ck_assert_str_eq(prompted(&t, 0), "");
	tu_game_release(&t);

	/* After the first round the totals are the round's points: said once. */
	two_sweep(&t, 0, 1);
	i = nth(&t.ev, EV_HAND_END, 0);
	ck_assert_str_eq(heard(&t, 1, i - 1), "End of round 1. Points this round: Anne 130 and you 0.");
	ck_assert_str_eq(heard(&t, 1, i), "");
	tu_game_release(&t);

	two_sweep(&t, 1, 6);
	i = tu_events_find(&t.ev, EV_PHASE, 0);
	ck_assert_str_eq(heard(&t, 0, i),
	                 "All or nothing: you took everything, the round counts the other way: minus 130 points.");
	ck_assert_str_eq(heard(&t, 1, i),
	                 "All or nothing: Anne took everything, the round counts the other way: minus 130 points.");
	ck_assert_str_eq(heard(&t, 0, nth(&t.ev, EV_HAND_START, 2)),
	                 "Round 3 of 6. Each queen costs 50 points. Bruno deals.");
	ck_assert_str_eq(heard(&t, 0, nth(&t.ev, EV_HAND_START, 3)),
	                 "Round 4 of 6. The king of spades costs 200 points. You deal.");
	ck_assert_str_eq(heard(&t, 0, nth(&t.ev, EV_HAND_START, 4)),
	                 "Round 5 of 6. Everything counts: each trick 5, each card of hearts 10, each queen 50, "
	                 "the king of spades 200. Bruno deals.");
	i = nth(&t.ev, EV_HAND_START, 5);
	ck_assert_str_eq(heard(&t, 0, i),
	                 "Round 6 of 6. Everything counts: each trick 5, each card of hearts 10, each queen 50, "
	                 "the king of spades 200. All of it counts negative: take as many points as you can, but not "
	                 "all of them. You deal.");
	i = tu_events_find(&t.ev, EV_TRICK, i);
	ck_assert_str_eq(heard(&t, 0, i), "Bruno takes the trick: minus 5 points.");
	i = tu_events_find(&t.ev, EV_GAME_END, 0);
	ck_assert_str_eq(heard(&t, 0, i), "Game over. You win with minus 990 points.");
	ck_assert_str_eq(heard(&t, 1, i), "Game over. Anne wins with minus 990 points.");
	/* Negative totals are said with a word, as the trick points are. */
	i = nth(&t.ev, EV_HAND_END, 5);
	ck_assert_str_eq(heard(&t, 1, i), "Totals: Anne minus 990 and you 730.");
	tu_game_release(&t);

	/* Two decks: the chosen card counts in both copies. */
	const char *const two[] = { "card=QS", NULL };
	tu_game_init(&t, "bouillabaisse", 8, 0, 3, two);
	tu_game_start(&t);
	ck_assert_str_eq(heard(&t, 0, 2), "Chosen card: the queen of spades; both copies count.");
	ck_assert(strstr(asked(&t, 0, 'R'), "Two decks: of two identical cards, the first played wins.") != NULL);
	tu_game_release(&t);
}
END_TEST

START_TEST(test_talk_french)
{
	lang("fr");
	struct tu_game t;
	four_game(&t);
	ck_assert_str_eq(heard(&t, 0, 0), "Couleur choisie : cœur.");
	ck_assert_str_eq(heard(&t, 0, 1), "Figure choisie : les dames.");
	ck_assert_str_eq(heard(&t, 0, 2), "Carte choisie : le roi de pique.");
	ck_assert_str_eq(heard(&t, 0, 3), "Manche 1 sur 6. Chaque pli coûte 5 points. Denis donne.");
	ck_assert_str_eq(prompted(&t, 0), "À vous. Vous entamez.");
	ck_assert_str_eq(asked(&t, 1, 'C'), "Aucune carte sur la table. À Anne d'entamer.");
	tu_game_script(&t, "0 play AS\n");
	ck_assert_str_eq(refused(&t, 1, "play 2H"), "Vous devez fournir à pique.");
	ck_assert_str_eq(refused(&t, 1, "play KH"), "Vous n'avez pas le roi de cœur.");
	ck_assert_str_eq(asked(&t, 1, 'T'), "À vous. Fournissez à pique.");
	ck_assert_str_eq(asked(&t, 1, 'F'), "Pique, entamé par Anne.");
	ck_assert_str_eq(asked(&t, 1, 'C'), "Anne : l'as de pique. Anne tient le pli, 5 points pour l'instant.");
	tu_game_script(&t, "1 play QS\n");
	ck_assert_str_eq(asked(&t, 2, 'C'), "Anne : l'as de pique ; Bruno : la dame de pique. Anne tient le pli, "
	                                    "5 points pour l'instant.");
	ck_assert_str_eq(asked(&t, 2, 'R'), "Manche 1 sur 6. Chaque pli coûte 5 points. Couleur : cœur ; "
	                                    "figure : les dames ; carte : le roi de pique.");
	ck_assert_str_eq(asked(&t, 2, '4'), "Il n'y a que 2 cartes sur la table : pas de carte 4.");
	tu_game_release(&t);
	two_sweep(&t, 0, 6);
	int i = nth(&t.ev, EV_HAND_START, 3);
	ck_assert_str_eq(heard(&t, 0, nth(&t.ev, EV_HAND_START, 1)),
	                 "Manche 2 sur 6. Chaque carte de cœur coûte 10 points. Vous donnez.");
	ck_assert_str_eq(heard(&t, 0, i), "Manche 4 sur 6. Le roi de pique coûte 200 points. Vous donnez.");
	i = tu_events_find(&t.ev, EV_TRICK, nth(&t.ev, EV_HAND_START, 5));
	ck_assert_str_eq(heard(&t, 0, i), "Bruno prend le pli : moins 5 points.");
	i = tu_events_find(&t.ev, EV_GAME_END, 0);
	ck_assert_str_eq(heard(&t, 0, i), "Partie terminée. Bruno gagne avec moins 330 points.");
	tu_game_release(&t);
	lang("en");
}
END_TEST

/* Seven players, two decks: one copy of the two of hearts is taken out of
 * play (the first copies of the 2s, then the second copies of the 2 of
 * clubs and diamonds), so the chosen card is one card, said as one; the
 * three of hearts, both copies in play, is said with both. */
START_TEST(test_talk_seven_players_one_copy)
{
	static const char *const want[][4] = {
		{ "Chosen card: the two of hearts.", "The two of hearts costs 200 points.",
		  "Chosen card: the three of hearts; both copies count.", "Each three of hearts costs 200 points." },
		{ "Carte choisie : le deux de cœur.", "Le deux de cœur coûte 200 points.",
		  "Carte choisie : le trois de cœur ; les deux exemplaires comptent.",
		  "Chaque trois de cœur coûte 200 points." },
	};
	lang(_i ? "fr" : "en");
	for (int k = 0; k < 2; k++) {
		struct tu_game t;
		const char *const rules[] = { k ? "card=3H" : "card=2H", "hands=4", NULL };
		tu_game_init(&t, "bouillabaisse", 7, 6, 1, rules);
		ck_assert_int_eq(((struct bouillabaisse *)t.st)->decks, 2);
		tu_game_start(&t);
		int c = -1;
		for (int i = 0; i < t.ev.n && c < 0; i++)
			if (t.ev.e[i].type == EV_CHOICE && t.ev.e[i].what == EV_WHAT_CARD)
				c = i;
		ck_assert_int_ge(c, 0);
		ck_assert_str_eq(heard(&t, 0, c), want[_i][2 * k]);
		/* Bots play to the fourth round, whose objective is the card. */
		struct rng rng;
		rng_seed(&rng, 5);
		struct sink s = tu_events_sink(&t.ev);
		while (((struct bouillabaisse *)t.st)->round < 4 && t.g->to_act(t.st) >= 0) {
			struct action a;
			bot_choose(t.g, tu_bot(t.g), t.st, 1, &rng, &a);
			struct refusal why;
			ck_assert(t.g->apply(t.st, &a, &s, &why) == 0);
		}
		int h = nth(&t.ev, EV_HAND_START, 3);
		ck_assert_int_ge(h, 0);
		ck_assert_msg(strstr(heard(&t, 0, h), want[_i][2 * k + 1]) != NULL, "%s", heard(&t, 0, h));
		tu_game_release(&t);
	}
	lang("en");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bouillabaisse");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, test_registered);
	tcase_add_test(tc, test_pack_sizes);
	tcase_add_test(tc, test_removed_cards);
	tcase_add_test(tc, test_choices);
	tcase_add_test(tc, test_rounds_scoring);
	tcase_add_test(tc, test_rounds_scoring_aon);
	tcase_add_test(tc, test_sweep_every_round);
	tcase_add_test(tc, test_all_or_nothing_every_round_but_fourth);
	tcase_add_test(tc, test_shared_win);
	tcase_add_test(tc, test_two_decks_first_copy_wins);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_two_copies_one_action);
	tcase_add_test(tc, test_redact_resample);
	tcase_add_test(tc, test_resample_many_voids);
	suite_add_tcase(s, tc);
	TCase *tr = tcase_create("referee");
	tcase_set_timeout(tr, 120);
	tcase_add_loop_test(tr, test_referee_all_counts, 2, 13);
	tcase_add_test(tr, test_referee_level3);
	suite_add_tcase(s, tr);
	TCase *tt = tcase_create("talk");
	tcase_add_test(tt, test_talk_english);
	tcase_add_test(tt, test_talk_rounds_and_end);
	tcase_add_test(tt, test_talk_french);
	tcase_add_loop_test(tt, test_talk_seven_players_one_copy, 0, 2);
	suite_add_tcase(s, tt);
	TCase *tb = tcase_create("bots");
	tcase_set_timeout(tb, 120);
	tcase_add_test(tb, test_bot_strength);
	tcase_add_test(tb, test_bot_search);
	suite_add_tcase(s, tb);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
