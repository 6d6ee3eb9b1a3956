/* SPDX-License-Identifier: GPL-3.0-or-later */
/* La Bouillabaisse: the rules core (see bouillabaisse.h). */
#include "core/deckfile.h"
#include "core/err.h"
#include "games/bouillabaisse.h"

#include <string.h>

enum { R_DECKS, R_SUIT, R_FIGURE, R_CARD, R_AON, R_HANDS, R_COUNT };

static const struct rule_def bou_rules[R_COUNT] = {
	[R_DECKS] = { .key = "decks", .type = RULE_INT, .def = RULE_AUTO, .min = 1, .max = 2,
	              .allow_auto = 1,
	              .help = N_("Number of 52-card decks; auto gives one up to 6 players and two from 7.") },
	[R_SUIT] = { .key = "suit", .type = RULE_SUIT, .def = RULE_RANDOM, .allow_random = 1,
	             .help = N_("Suit whose cards cost 10 points each: spades, hearts, diamonds or clubs, or random.") },
	[R_FIGURE] = { .key = "figure", .type = RULE_RANK, .def = RULE_RANDOM, .allow_random = 1,
	               .help = N_("Rank whose cards cost 50 points each; random picks jack, queen or king.") },
	[R_CARD] = { .key = "card", .type = RULE_CARD, .def = RULE_RANDOM, .allow_random = 1,
	             .help = N_("Card that costs 200 points; random picks one among the cards in play.") },
	[R_AON] = { .key = "all_or_nothing", .type = RULE_CHOICE, .def = 0, .choices = RULES_YES_NO,
	            .help = N_("Yes: a player who takes everything that scores in a round, round 4 aside, has those points turned negative.") },
	[R_HANDS] = { .key = "hands", .type = RULE_INT, .def = 6, .min = 0, .max = 6,
	              .help = N_("Rounds to play, 1 to 6; 0 plays all six.") },
};

/* ---- packs ---- */

static int decks_for(int players, int decks)
{
	if (decks == 1 || decks == 2)
		return decks;
	return players <= 6 ? 1 : 2;
}

int bou_removed(int players, int decks, card_t *out)
{
	static const int order[SUIT_COUNT] = { SUIT_CLUBS, SUIT_DIAMONDS, SUIT_HEARTS, SUIT_SPADES };
	int total = 52 * decks;
	int remove = players > 0 ? total % players : 0;
	int n = 0;
	for (int rank = RANK_TWO; n < remove && rank <= RANK_ACE; rank++)
		for (int copy = 0; copy < decks && n < remove; copy++)
			for (int s = 0; s < SUIT_COUNT && n < remove; s++)
				out[n++] = card_make(rank, order[s]);
	return n;
}

int bou_pack(int players, int decks, card_t *out)
{
	card_t removed[52];
	int n = card_pack_full(out, decks);
	int nr = bou_removed(players, decks, removed);
	for (int i = 0; i < nr; i++)
		card_remove(out, &n, removed[i]);
	return n;
}

static int bou_ops_pack(const struct rules *r, int players, card_t *out, char *err, size_t errlen)
{
	if (players < 2 || players > BOU_MAX_PLAYERS)
		return errf(err, errlen, "La Bouillabaisse is played by 2 to 12 players, not %d", players);
	int decks = decks_for(players, r ? rules_get(r, "decks") : RULE_AUTO);
	return bou_pack(players, decks, out);
}

/* ---- scoring ---- */

int bou_round_scoring(int round)
{
	switch (round) {
	case 1: return BOU_SC_TRICK;
	case 2: return BOU_SC_SUIT;
	case 3: return BOU_SC_FIGURE;
	case 4: return BOU_SC_CARD;
	case 5:
	case 6: return BOU_SC_TRICK | BOU_SC_SUIT | BOU_SC_FIGURE | BOU_SC_CARD;
	}
	return 0;
}

static int card_points_in(const struct bouillabaisse *st, int round, card_t c)
{
	int sc = bou_round_scoring(round), p = 0;
	if ((sc & BOU_SC_SUIT) && card_suit(c) == st->suit)
		p += BOU_SUIT_POINTS;
	if ((sc & BOU_SC_FIGURE) && card_rank(c) == st->figure)
		p += BOU_FIGURE_POINTS;
	if ((sc & BOU_SC_CARD) && c == (card_t)st->card)
		p += BOU_CARD_POINTS;
	return p * bou_round_sign(round);
}

int bou_card_points(const struct bouillabaisse *st, card_t c)
{
	return card_points_in(st, st->round, c);
}

int bou_trick_points(const struct bouillabaisse *st, const card_t *cards, int n)
{
	int p = (bou_round_scoring(st->round) & BOU_SC_TRICK) ? BOU_TRICK_POINTS * bou_round_sign(st->round) : 0;
	for (int i = 0; i < n; i++)
		p += bou_card_points(st, cards[i]);
	return p;
}

static int round_total_in(const struct bouillabaisse *st, int round)
{
	card_t pack[CARD_MAX_PACK];
	int n = bou_pack(st->players, st->decks, pack);
	int p = (bou_round_scoring(round) & BOU_SC_TRICK)
	        ? BOU_TRICK_POINTS * bou_round_sign(round) * st->hand_size : 0;
	for (int i = 0; i < n; i++)
		p += card_points_in(st, round, pack[i]);
	return p;
}

int bou_round_total(const struct bouillabaisse *st)
{
	return round_total_in(st, st->round);
}

/* Number of scoring items of the round in play (tricks for round 1, 5, 6;
 * cards of the suit or rank for 2 and 3); 0 in round 4 (never all-or-nothing). */
static int round_items(const struct bouillabaisse *st, int seat, int *taken)
{
	int sc = bou_round_scoring(st->round);
	*taken = 0;
	if (st->round == 4 || !sc)
		return 0;
	if (sc & BOU_SC_TRICK) {
		*taken = st->tricks_won[seat];
		return st->hand_size;
	}
	card_t pack[CARD_MAX_PACK];
	int n = bou_pack(st->players, st->decks, pack), items = 0;
	for (int i = 0; i < n; i++)
		items += bou_card_points(st, pack[i]) != 0;
	for (int i = 0; i < st->ntaken[seat]; i++)
		*taken += bou_card_points(st, st->taken[seat][i]) != 0;
	return items;
}

/* ---- tricks ---- */

int bou_trick_best(const struct bouillabaisse *st)
{
	if (st->ntrick == 0)
		return -1;
	int best = 0;
	for (int i = 1; i < st->ntrick; i++)
		if (card_suit(st->trick[i]) == card_suit(st->trick[0]) &&
		    card_rank(st->trick[i]) > card_rank(st->trick[best]))
			best = i;  /* strictly higher: of two identical cards the first wins */
	return best;
}

/* ---- dealing ---- */

static void deal_round(struct bouillabaisse *st, const struct sink *out)
{
	card_t pack[CARD_MAX_PACK];
	int n = bou_pack(st->players, st->decks, pack);
	deckfile_deal_pack(st->stack, st->deal_no, pack, n, &st->rng, pack);
	st->deal_no++;
	for (int s = 0; s < st->players; s++) {
		st->nhand[s] = 0;
		st->ntaken[s] = 0;
		st->tricks_won[s] = 0;
		st->voids[s] = 0;
		st->round_points[s] = 0;
	}
	for (int i = 0; i < n; i++) {
		int s = (st->dealer + 1 + i) % st->players;
		st->hand[s][st->nhand[s]++] = pack[i];
	}
	for (int s = 0; s < st->players; s++)
		card_sort(st->hand[s], st->nhand[s], NULL);
	st->ntrick = 0;
	st->tricks_played = 0;
	st->leader = (st->dealer + 1) % st->players;
	st->to_act = st->leader;

	struct event e;
	ev_init(&e, EV_HAND_START);
	e.hand = st->round;
	e.dealer = st->dealer;
	e.ncards = n;
	memcpy(e.cards, pack, (size_t)n);
	for (int i = 0; i < n; i++)
		e.card_seat[i] = (signed char)((st->dealer + 1 + i) % st->players);  /* dealt to */
	ev_emit(out, &e);
	for (int s = 0; s < st->players; s++)
		ev_emit_deal(out, s, st->hand[s], st->nhand[s]);
}

/* ---- game_ops ---- */

static int bou_init(void *vst, const struct game_setup *setup, char *err, size_t errlen)
{
	struct bouillabaisse *st = vst;
	const struct rules *r = setup->rules;
	int players = setup->players;
	if (players < 2 || players > BOU_MAX_PLAYERS)
		return errf(err, errlen, "La Bouillabaisse is played by 2 to 12 players, not %d", players);
	memset(st, 0, sizeof *st);
	st->players = players;
	int di = rules_index(r, "decks");
	st->decks = decks_for(players, r->value[di]);
	setup->rules->value[di] = st->decks;  /* settle "auto" */
	int hands = rules_get(r, "hands");
	st->rounds = hands <= 0 || hands > BOU_ROUNDS ? BOU_ROUNDS : hands;
	st->all_or_nothing = rules_get(r, "all_or_nothing") == 1;
	card_t pack[CARD_MAX_PACK];
	st->npack = bou_pack(players, st->decks, pack);
	st->hand_size = st->npack / players;
	if (st->hand_size > GAME_MAX_HAND)
		return errf(err, errlen, "too many cards per hand");
	if (setup->stack)
		for (int k = 0; k < setup->stack->npacks; k++)
			if (!card_same_multiset(setup->stack->cards[k], setup->stack->size[k], pack, st->npack))
				return errf(err, errlen, "stacked pack %d is not the %d cards in play", k + 1, st->npack);
	rng_seed(&st->rng, setup->seed);
	if (setup->dealer >= 0 && setup->dealer < players)
		st->first_dealer = setup->dealer;
	else
		st->first_dealer = (int)rng_below(&st->rng, (uint32_t)players);
	st->dealer = st->first_dealer;

	int v = rules_get(r, "suit");
	st->suit = v >= 0 ? v : (int)rng_below(&st->rng, SUIT_COUNT);
	v = rules_get(r, "figure");
	st->figure = v >= RANK_TWO ? v : RANK_JACK + (int)rng_below(&st->rng, 3);
	v = rules_get(r, "card");
	if (v > 0) {
		if (card_find(pack, st->npack, (card_t)v) < 0) {
			char cs[CARD_STR_MAX];
			return errf(err, errlen, "card %s is removed from play with %d players and %d deck%s",
			            card_str((card_t)v, cs), players, st->decks, st->decks > 1 ? "s" : "");
		}
		st->card = v;
	} else {
		/* Uniform among the distinct cards in play. */
		card_t distinct[52];
		int nd = 0;
		for (int i = 0; i < st->npack; i++)
			if (card_find(distinct, nd, pack[i]) < 0)
				distinct[nd++] = pack[i];
		st->card = distinct[rng_below(&st->rng, (uint32_t)nd)];
	}
	st->stack = setup->stack;
	st->to_act = -1;
	st->aon_seat = -1;
	st->redacted_for = -1;
	return 0;
}

static void bou_start(void *vst, const struct sink *out)
{
	struct bouillabaisse *st = vst;
	struct event e;
	ev_init(&e, EV_CHOICE);
	e.what = EV_WHAT_SUIT;
	e.value = st->suit;
	ev_emit(out, &e);
	ev_init(&e, EV_CHOICE);
	e.what = EV_WHAT_FIGURE;
	e.value = st->figure;
	ev_emit(out, &e);
	ev_init(&e, EV_CHOICE);
	e.what = EV_WHAT_CARD;
	e.value = st->card;
	ev_emit(out, &e);
	st->round = 1;
	deal_round(st, out);
}

static int bou_to_act(const void *vst)
{
	const struct bouillabaisse *st = vst;
	return st->over ? -1 : st->to_act;
}

static int bou_legal(const void *vst, struct action *out, int max)
{
	const struct bouillabaisse *st = vst;
	if (st->over || st->to_act < 0)
		return 0;
	int s = st->to_act, n = 0;
	int follow = st->ntrick > 0 && card_has_suit(st->hand[s], st->nhand[s], card_suit(st->trick[0]));
	for (int i = 0; i < st->nhand[s] && n < max; i++) {
		card_t c = st->hand[s][i];
		if (follow && card_suit(c) != card_suit(st->trick[0]))
			continue;
		if (i > 0 && st->hand[s][i - 1] == c)
			continue;  /* two copies: one action */
		out[n++] = act_card(ACT_PLAY, c);
	}
	return n;
}

static void end_round(struct bouillabaisse *st, const struct sink *out)
{
	struct event e;
	st->aon_seat = -1;
	for (int s = 0; s < st->players; s++)
		st->last_points[s] = st->round_points[s];
	if (st->all_or_nothing)
		for (int s = 0; s < st->players; s++) {
			int taken, items = round_items(st, s, &taken);
			if (items > 0 && taken == items) {
				st->aon_seat = s;
				st->aon_rounds |= 1u << st->round;
				st->last_points[s] = -st->round_points[s];
				ev_init(&e, EV_PHASE);
				e.note = EV_NOTE_ALL_OR_NOTHING;
				e.seat = s;
				e.code = st->round;
				e.value = st->last_points[s];
				ev_emit(out, &e);
			}
		}
	for (int s = 0; s < st->players; s++)
		st->total[s] += st->last_points[s];

	ev_init(&e, EV_PHASE);
	e.note = EV_NOTE_ROUND_POINTS;
	e.code = st->round;
	e.seat = st->aon_seat;
	e.value = st->aon_seat >= 0 ? st->last_points[st->aon_seat] : 0;
	e.nvalues = st->players;
	memcpy(e.values, st->last_points, sizeof(int) * (size_t)st->players);
	ev_emit(out, &e);

	ev_init(&e, EV_HAND_END);
	e.hand = st->round;
	e.dealer = st->dealer;
	e.values_kind = EV_VALUES_SCORES;
	e.pot = 0;
	e.nvalues = st->players;
	memcpy(e.values, st->total, sizeof(int) * (size_t)st->players);
	ev_emit(out, &e);

	if (st->round >= st->rounds) {
		st->over = 1;
		st->to_act = -1;
		int best = st->total[0];
		for (int s = 1; s < st->players; s++)
			if (st->total[s] < best)
				best = st->total[s];
		ev_init(&e, EV_GAME_END);
		e.values_kind = EV_VALUES_STANDINGS;
		e.nvalues = st->players;
		memcpy(e.values, st->total, sizeof(int) * (size_t)st->players);
		int count = 0;
		for (int s = 0; s < st->players; s++)
			if (st->total[s] == best) {
				e.winners |= 1u << s;
				e.winner = s;
				count++;
			}
		if (count > 1)
			e.winner = -1;
		ev_emit(out, &e);
		return;
	}
	st->round++;
	st->dealer = (st->dealer + 1) % st->players;
	deal_round(st, out);
}

static int bou_play(void *vst, const struct action *a, const struct sink *out, struct refusal *why)
{
	struct bouillabaisse *st = vst;
	struct refusal r = { 0, CARD_NONE, -1, -1, -1 };
	if (st->over || st->to_act < 0) {
		r.code = BOU_NOT_YOUR_TURN;
	} else if (a->kind != ACT_PLAY || a->ncards != 1) {
		r.code = BOU_NOT_A_PLAY;
	} else {
		int s = st->to_act;
		card_t c = a->cards[0];
		if (card_find(st->hand[s], st->nhand[s], c) < 0) {
			r.code = BOU_NOT_IN_HAND;
			r.card = c;
		} else if (st->ntrick > 0 && card_suit(c) != card_suit(st->trick[0]) &&
		           card_has_suit(st->hand[s], st->nhand[s], card_suit(st->trick[0]))) {
			r.code = BOU_MUST_FOLLOW;
			r.card = c;
			r.suit = card_suit(st->trick[0]);
		}
	}
	if (why)
		*why = r;
	if (r.code)
		return -1;

	int s = st->to_act;
	card_t c = a->cards[0];
	card_remove(st->hand[s], &st->nhand[s], c);
	if (st->ntrick > 0 && card_suit(c) != card_suit(st->trick[0]))
		st->voids[s] |= 1u << card_suit(st->trick[0]);
	st->trick[st->ntrick++] = c;

	struct event e;
	ev_init(&e, EV_ACTION);
	e.seat = s;
	e.act = act_card(ACT_PLAY, c);
	ev_emit(out, &e);

	if (st->ntrick < st->players) {
		st->to_act = (s + 1) % st->players;
		return 0;
	}
	int best = bou_trick_best(st);
	int winner = bou_trick_seat(st, best);
	int points = bou_trick_points(st, st->trick, st->ntrick);
	ev_init(&e, EV_TRICK);
	e.winner = winner;
	e.points = points;
	e.ncards = st->ntrick;
	for (int i = 0; i < st->ntrick; i++) {
		e.cards[i] = st->trick[i];
		e.card_seat[i] = (signed char)bou_trick_seat(st, i);
	}
	memcpy(st->taken[winner] + st->ntaken[winner], st->trick, (size_t)st->ntrick);
	st->ntaken[winner] += st->ntrick;
	st->tricks_won[winner]++;
	st->round_points[winner] += points;
	st->ntrick = 0;
	st->tricks_played++;
	st->leader = winner;
	st->to_act = winner;
	ev_emit(out, &e);
	if (st->tricks_played == st->hand_size)
		end_round(st, out);
	return 0;
}

static int bou_hand(const void *vst, int seat, card_t *out)
{
	const struct bouillabaisse *st = vst;
	if (seat < 0 || seat >= st->players)
		return 0;
	memcpy(out, st->hand[seat], (size_t)st->nhand[seat]);
	return st->nhand[seat];
}

static void bou_redact(void *vst, int seat)
{
	struct bouillabaisse *st = vst;
	for (int s = 0; s < st->players; s++)
		if (s != seat)
			memset(st->hand[s], 0, sizeof st->hand[s]);
	/* Future deals are unknown: forget the stacked packs and the stream. */
	st->stack = NULL;
	rng_seed(&st->rng, 0x5eedb0u + (uint64_t)st->round * 131u + (uint64_t)(seat + 1));
	st->redacted_for = seat;
}

/* Hall's condition: the unplaced cards (count per suit) fit the remaining
 * room of the players, given which suits each may hold. */
static int fits(const int *per_suit, const int *room, const unsigned *ok_suits, int players)
{
	for (unsigned set = 1; set < 16; set++) {
		int need = 0, cap = 0;
		for (int su = 0; su < SUIT_COUNT; su++)
			if (set & (1u << su))
				need += per_suit[su];
		for (int p = 0; p < players; p++)
			if (ok_suits[p] & set)
				cap += room[p];
		if (need > cap)
			return 0;
	}
	return 1;
}

static void bou_resample(void *vst, int seat, struct rng *rng)
{
	struct bouillabaisse *st = vst;
	card_t unseen[CARD_MAX_PACK];
	int n = bou_pack(st->players, st->decks, unseen);
	/* Remove what the seat knows: its hand, the trick, the taken cards. */
	if (seat >= 0 && seat < st->players)
		for (int i = 0; i < st->nhand[seat]; i++)
			card_remove(unseen, &n, st->hand[seat][i]);
	for (int i = 0; i < st->ntrick; i++)
		card_remove(unseen, &n, st->trick[i]);
	for (int p = 0; p < st->players; p++)
		for (int i = 0; i < st->ntaken[p]; i++)
			card_remove(unseen, &n, st->taken[p][i]);
	card_shuffle(unseen, n, rng);

	int room[BOU_MAX_PLAYERS] = { 0 }, per_suit[SUIT_COUNT] = { 0 };
	unsigned ok[BOU_MAX_PLAYERS] = { 0 };
	for (int p = 0; p < st->players; p++) {
		if (p == seat)
			continue;
		room[p] = st->nhand[p];
		st->nhand[p] = 0;
		ok[p] = ~st->voids[p] & 0xfu;
	}
	for (int i = 0; i < n; i++)
		per_suit[card_suit(unseen[i])]++;
	for (int i = 0; i < n; i++) {
		card_t c = unseen[i];
		int su = card_suit(c);
		per_suit[su]--;
		/* Candidates weighted by room; try them in a random order until
		 * the rest still fits. */
		int cand[BOU_MAX_PLAYERS], nc = 0, total = 0;
		for (int p = 0; p < st->players; p++)
			if (room[p] > 0 && (ok[p] & (1u << su))) {
				cand[nc++] = p;
				total += room[p];
			}
		int placed = -1;
		while (nc > 0 && placed < 0) {
			int pick = (int)rng_below(rng, (uint32_t)total), k = 0;
			while (pick >= room[cand[k]]) {
				pick -= room[cand[k]];
				k++;
			}
			int p = cand[k];
			room[p]--;
			if (fits(per_suit, room, ok, st->players)) {
				placed = p;
			} else {
				room[p]++;
				total -= room[p];
				cand[k] = cand[--nc];
			}
		}
		if (placed < 0) {
			/* Inconsistent view (should not happen): place anywhere. */
			for (int p = 0; p < st->players && placed < 0; p++)
				if (room[p] > 0) {
					placed = p;
					room[p]--;
				}
		}
		if (placed >= 0)
			st->hand[placed][st->nhand[placed]++] = c;
	}
	for (int p = 0; p < st->players; p++)
		if (p != seat)
			card_sort(st->hand[p], st->nhand[p], NULL);
}

static int bou_standings(const void *vst, int *out)
{
	const struct bouillabaisse *st = vst;
	memcpy(out, st->total, sizeof(int) * (size_t)st->players);
	return st->players;
}

static int bou_hand_number(const void *vst)
{
	const struct bouillabaisse *st = vst;
	return st->round;
}

static int bou_dealer(const void *vst)
{
	const struct bouillabaisse *st = vst;
	return st->dealer;
}

static int bou_audit(const void *vst, char *err, size_t errlen)
{
	const struct bouillabaisse *st = vst;
	card_t pack[CARD_MAX_PACK], all[CARD_MAX_PACK * 2];
	int n = bou_pack(st->players, st->decks, pack), na = 0;
	if (n != st->npack || st->hand_size * st->players != n)
		return errf(err, errlen, "pack of %d cards, %d per hand", n, st->hand_size);
	if (st->round == 0)
		return 0;
	for (int p = 0; p < st->players; p++) {
		if (st->nhand[p] < 0 || st->nhand[p] > GAME_MAX_HAND)
			return errf(err, errlen, "seat %d holds %d cards", p, st->nhand[p]);
		for (int i = 0; i < st->nhand[p] && na < CARD_MAX_PACK * 2; i++)
			all[na++] = st->hand[p][i];
		for (int i = 0; i < st->ntaken[p] && na < CARD_MAX_PACK * 2; i++)
			all[na++] = st->taken[p][i];
	}
	for (int i = 0; i < st->ntrick && na < CARD_MAX_PACK * 2; i++)
		all[na++] = st->trick[i];
	if (!card_same_multiset(all, na, pack, n))
		return errf(err, errlen, "round %d: %d cards in hands, trick and taken piles, not the %d of the pack",
		            st->round, na, n);
	/* Hands equal in size, trick consistent with turns. */
	if (!st->over) {
		for (int p = 0; p < st->players; p++) {
			int in_trick = ((p - st->leader + st->players) % st->players) < st->ntrick;
			int expect = st->hand_size - st->tricks_played - in_trick;
			if (st->nhand[p] != expect)
				return errf(err, errlen, "seat %d holds %d cards, expected %d", p, st->nhand[p], expect);
		}
		if (st->to_act != (st->leader + st->ntrick) % st->players)
			return errf(err, errlen, "seat %d to act, leader %d with %d cards down", st->to_act,
			            st->leader, st->ntrick);
	}
	/* Points: what was taken is what the piles are worth. */
	int bonus = (bou_round_scoring(st->round) & BOU_SC_TRICK) ? BOU_TRICK_POINTS * bou_round_sign(st->round) : 0;
	int sum = 0, tricks = 0;
	for (int p = 0; p < st->players; p++) {
		int pts = bonus * st->tricks_won[p];
		for (int i = 0; i < st->ntaken[p]; i++)
			pts += bou_card_points(st, st->taken[p][i]);
		if (pts != st->round_points[p])
			return errf(err, errlen, "seat %d has %d points this round, its tricks are worth %d", p,
			            st->round_points[p], pts);
		if (st->ntaken[p] != st->tricks_won[p] * st->players)
			return errf(err, errlen, "seat %d took %d cards in %d tricks", p, st->ntaken[p], st->tricks_won[p]);
		sum += pts;
		tricks += st->tricks_won[p];
	}
	if (tricks != st->tricks_played)
		return errf(err, errlen, "%d tricks won, %d played", tricks, st->tricks_played);
	/* Totals: every finished round gave out exactly what it distributes
	 * (negated when someone took everything). */
	int finished = st->over ? st->round : st->round - 1, want = 0, got = 0;
	for (int r = 1; r <= finished; r++)
		want += round_total_in(st, r) * ((st->aon_rounds >> r) & 1 ? -1 : 1);
	for (int p = 0; p < st->players; p++)
		got += st->total[p];
	if (got != want)
		return errf(err, errlen, "totals add up to %d after %d rounds, the rounds gave %d", got, finished, want);
	if (st->over && sum != round_total_in(st, st->round))
		return errf(err, errlen, "round %d distributed %d points, not %d", st->round, sum,
		            round_total_in(st, st->round));
	return 0;
}

static int bou_apply(void *vst, const struct action *a, const struct sink *out, struct refusal *why)
{
	game_assert_before(vst, a);
	int rc = bou_play(vst, a, out, why);
	return game_assert_after(vst, bou_to_act(vst), rc, why);
}

static int bou_trick_fn(const void *vst, int *seat, card_t *cards)
{
	const struct bouillabaisse *st = vst;
	for (int i = 0; i < st->ntrick; i++) {
		seat[i] = bou_trick_seat(st, i);
		cards[i] = st->trick[i];
	}
	return st->ntrick;
}

const struct game_ops bouillabaisse_ops = {
	.name = "bouillabaisse",
	.title = "La Bouillabaisse",
	.min_players = 2,
	.max_players = BOU_MAX_PLAYERS,
	.default_players = 4,
	.clockwise = 0,
	.lower_wins = 1,
	.teams = 0,
	.state_size = sizeof(struct bouillabaisse),
	.rules = bou_rules,
	.nrules = R_COUNT,
	.pack = bou_ops_pack,
	.init = bou_init,
	.start = bou_start,
	.to_act = bou_to_act,
	.legal = bou_legal,
	.apply = bou_apply,
	.hand = bou_hand,
	.redact = bou_redact,
	.resample = bou_resample,
	.trick = bou_trick_fn,
	.standings = bou_standings,
	.hand_number = bou_hand_number,
	.dealer = bou_dealer,
	.audit = bou_audit,
};
