/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Le Brouc and L'Homme de Brou: the rules core. */
#include "games/brouc.h"

#include <string.h>

#include "core/deckfile.h"
#include "core/err.h"

static const char *const VARIANTS[] = { "brouc", "homme", NULL };

static const struct rule_def RULES[] = {
	{ .key = "variant", .type = RULE_CHOICE, .def = BROUC_MODERN, .choices = VARIANTS,
	  .help = N_("Brouc: the modern game. Homme: L'Homme de Brou, its ancestor.") },
	{ .key = "games", .type = RULE_INT, .def = 1, .min = 1, .max = 99,
	  .help = N_("Games a team must win to take the match, in Le Brouc.") },
	{ .key = "parties", .type = RULE_INT, .def = 10, .min = 1, .max = 99,
	  .help = N_("Parties a team must win to take the match, in L'Homme de Brou: 10, 12 or 14.") },
	{ .key = "hands", .type = RULE_INT, .def = 0, .min = 0, .max = 100000,
	  .help = N_("Number of deals; 0 means no limit.") },
};

static const int RANKS[] = { RANK_ACE, RANK_TEN, RANK_KING, RANK_QUEEN, RANK_JACK,
                             RANK_NINE, RANK_EIGHT, RANK_SEVEN };

/* Strength by rank: 7 = 1 ... A = 8 (10 between K and A). */
static const int STRENGTH[15] = { 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 7, 4, 5, 6, 8 };

int brouc_points(card_t c)
{
	switch (card_rank(c)) {
	case RANK_ACE: return 11;
	case RANK_TEN: return 10;
	case RANK_KING: return 4;
	case RANK_QUEEN: return 3;
	case RANK_JACK: return 2;
	default: return 0;
	}
}

int brouc_strength(card_t c)
{
	int r = card_rank(c);
	return r >= 0 && r < 15 ? STRENGTH[r] : 0;
}

int brouc_idx(card_t c)
{
	return card_suit(c) * 8 + brouc_strength(c) - 1;
}

int brouc_beats(card_t a, card_t b, int led, int trump)
{
	int sa = card_suit(a), sb = card_suit(b);
	if (sa == sb)
		return brouc_strength(a) > brouc_strength(b);
	if (sa == trump)
		return 1;
	if (sb == trump)
		return 0;
	return sa == led;
}

int brouc_trick_best(const struct brouc_state *st)
{
	int best = 0;
	int led = card_suit(st->trick[0]);
	for (int i = 1; i < st->ntrick; i++)
		if (brouc_beats(st->trick[i], st->trick[best], led, st->trump))
			best = i;
	return best;
}

int brouc_combo_kind(unsigned m)
{
	unsigned kq = (1u << RANK_KING) | (1u << RANK_QUEEN);
	if ((m & kq) != kq)
		return 0;
	return (m & (1u << RANK_JACK)) ? BROUC_KQJ : BROUC_KQ;
}

int brouc_combo_value(const struct brouc_state *st, int kind, int suit, int in_trick)
{
	int v = kind == BROUC_KQJ ? 30 : kind == BROUC_KQ ? 20 : 0;
	if (suit == st->trump)
		v *= 2;
	if (in_trick && st->variant == BROUC_HOMME)
		v *= 2;
	return v;
}

static int floordiv(int a, int b)
{
	int q = a / b;
	if ((a % b) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

int brouc_round(const struct brouc_state *st, int d)
{
	if (st->variant == BROUC_HOMME)
		return floordiv(d + 5, 10) * 10;
	return floordiv(d + 5, 10);
}

/* 1 when c, a trump, makes a K-Q or K-Q-J of trumps with the trick's cards. */
static int completes_trump_combo(const struct brouc_state *st, card_t c)
{
	unsigned m = 0;
	for (int i = 0; i < st->ntrick; i++)
		if (card_suit(st->trick[i]) == st->trump)
			m |= 1u << card_rank(st->trick[i]);
	int r = card_rank(c);
	if (r != RANK_KING && r != RANK_QUEEN && r != RANK_JACK)
		return 0;
	if (m & (1u << r))
		return 0;
	if (r == RANK_JACK)
		return brouc_combo_kind(m | (1u << r)) == BROUC_KQJ;
	return brouc_combo_kind(m | (1u << r)) != 0;
}

int brouc_check(const struct brouc_state *st, card_t c, struct refusal *why)
{
	struct refusal r = { 0, CARD_NONE, -1, -1, -1 };
	int seat = st->turn;
	if (st->over || seat < 0) {
		r.code = BROUC_R_TURN;
		goto out;
	}
	const card_t *h = st->hand[seat];
	int n = st->nhand[seat];
	if (card_find(h, n, c) < 0) {
		r.code = BROUC_R_NOT_IN_HAND;
		r.card = c;
		goto out;
	}
	if (st->ntrick == 0)
		goto out;
	int led = card_suit(st->trick[0]);
	if (card_suit(c) == led)
		goto out;
	if (card_has_suit(h, n, led)) {
		r.code = BROUC_R_FOLLOW;
		r.suit = led;
		goto out;
	}
	if (st->variant == BROUC_HOMME || led == st->trump || card_suit(c) != st->trump)
		goto out;
	card_t hi = CARD_NONE;
	for (int i = 0; i < st->ntrick; i++)
		if (card_suit(st->trick[i]) == st->trump &&
		    (hi == CARD_NONE || brouc_strength(st->trick[i]) > brouc_strength(hi)))
			hi = st->trick[i];
	if (hi == CARD_NONE || brouc_strength(c) > brouc_strength(hi))
		goto out;
	if (completes_trump_combo(st, c))
		goto out;
	for (int i = 0; i < n; i++)
		if (card_suit(h[i]) != st->trump || brouc_strength(h[i]) > brouc_strength(hi)) {
			r.code = BROUC_R_UNDERTRUMP;
			r.card = hi;
			r.suit = st->trump;
			goto out;
		}
out:
	if (why)
		*why = r;
	return r.code;
}

/* ---- the game interface ---- */

static int brouc_pack(const struct rules *r, int players, card_t *out, char *err, size_t errlen)
{
	(void)r;
	if (players != BROUC_PLAYERS)
		return errf(err, errlen, "Le Brouc is played by exactly 4 players, not %d", players);
	return card_pack(out, RANKS, 8, 1);
}


static int brouc_init(void *vst, const struct game_setup *setup, char *err, size_t errlen)
{
	struct brouc_state *st = vst;
	if (setup->players != BROUC_PLAYERS)
		return errf(err, errlen, "Le Brouc is played by exactly 4 players, not %d", setup->players);
	memset(st, 0, sizeof *st);
	st->players = BROUC_PLAYERS;
	st->variant = rules_get(setup->rules, "variant");
	st->games_target = rules_get(setup->rules, "games");
	st->parties_target = rules_get(setup->rules, "parties");
	st->hands_limit = rules_get(setup->rules, "hands");
	rng_seed(&st->rng, setup->seed);
	if (setup->dealer >= 0 && setup->dealer < BROUC_PLAYERS)
		st->dealer = setup->dealer;
	else
		st->dealer = (int)rng_below(&st->rng, BROUC_PLAYERS);
	st->stack = setup->stack;
	st->turn = -1;
	st->leader = -1;
	st->last_game_winner = -1;
	st->redacted_for = -1;
	st->trump = -1;
	st->game_no = 1;
	return 0;
}

static void deal(struct brouc_state *st, const struct sink *out)
{
	card_t pack[BROUC_PACK];
	card_pack(pack, RANKS, 8, 1);
	deckfile_deal_pack(st->stack, st->hand_no, pack, BROUC_PACK, &st->rng, pack);
	st->hand_no++;
	/* Clear the deal. */
	st->ntrick = 0;
	memset(st->trick, 0, sizeof st->trick);
	st->tricks_done = 0;
	memset(st->played, 0, sizeof st->played);
	memset(st->played_leader, 0, sizeof st->played_leader);
	memset(st->played_winner, 0, sizeof st->played_winner);
	memset(st->hand, 0, sizeof st->hand);
	memset(st->nhand, 0, sizeof st->nhand);
	for (int t = 0; t < 2; t++)
		st->tricks_won[t] = st->first_won[t] = st->cardpts[t] = st->combopts[t] = st->dealpts[t] = 0;
	memset(st->voids, 0, sizeof st->voids);
	memset(st->shown, 0, sizeof st->shown);

	struct event e;
	ev_init(&e, EV_HAND_START);
	e.hand = st->hand_no;
	e.dealer = st->dealer;
	e.ncards = BROUC_PACK;
	memcpy(e.cards, pack, BROUC_PACK);
	static const int packets[3] = { 1, 3, 4 };
	int pos = 0;
	for (int p = 0; p < 3; p++)
		for (int i = 1; i <= BROUC_PLAYERS; i++) {
			int s = (st->dealer + i) % BROUC_PLAYERS;
			for (int j = 0; j < packets[p]; j++) {
				e.card_seat[pos] = (signed char)s;
				st->hand[s][st->nhand[s]++] = pack[pos++];
			}
		}
	ev_emit(out, &e);
	st->turnup = pack[BROUC_PACK - 1];
	st->trump = card_suit(st->turnup);
	st->shown[st->dealer] = 1u << brouc_idx(st->turnup);
	for (int i = 1; i <= BROUC_PLAYERS; i++) {
		int s = (st->dealer + i) % BROUC_PLAYERS;
		card_sort(st->hand[s], st->nhand[s], STRENGTH);
		ev_emit_deal(out, s, st->hand[s], st->nhand[s]);
	}
	ev_init(&e, EV_TURNUP);
	e.seat = st->dealer;
	e.ncards = 1;
	e.cards[0] = st->turnup;
	e.card_seat[0] = (signed char)st->dealer;
	ev_emit(out, &e);
	st->leader = st->turn = (st->dealer + 1) % BROUC_PLAYERS;
}

static void brouc_start(void *vst, const struct sink *out)
{
	deal(vst, out);
}

static int brouc_to_act(const void *vst)
{
	const struct brouc_state *st = vst;
	return st->over ? -1 : st->turn;
}

static int brouc_legal(const void *vst, struct action *out, int max)
{
	const struct brouc_state *st = vst;
	int n = 0;
	if (st->over || st->turn < 0)
		return 0;
	for (int i = 0; i < st->nhand[st->turn] && n < max; i++) {
		card_t c = st->hand[st->turn][i];
		if (brouc_check(st, c, NULL) == 0)
			out[n++] = act_card(ACT_PLAY, c);
	}
	return n;
}

/* who[i]: the seat that holds or played cards[i]. */
static void emit_declare(const struct sink *out, int seat, int team, const card_t *cards,
                         const signed char *who, int n, int points, int code)
{
	struct event e;
	ev_init(&e, EV_DECLARE);
	e.seat = seat;
	e.winner = team;
	e.points = points;
	e.code = code;
	e.ncards = n;
	memcpy(e.cards, cards, (size_t)n);
	memcpy(e.card_seat, who, (size_t)n);
	ev_emit(out, &e);
}

/* The combination cards of suit s in ranks mask m, K Q [J]. */
static int combo_cards(int kind, int s, card_t *out)
{
	out[0] = card_make(RANK_KING, s);
	out[1] = card_make(RANK_QUEEN, s);
	out[2] = card_make(RANK_JACK, s);
	return kind == BROUC_KQJ ? 3 : 2;
}

static void score_hand_combos(struct brouc_state *st, int seat, const struct sink *out)
{
	int team = brouc_team(seat);
	for (int s = 0; s < SUIT_COUNT; s++) {
		unsigned m = 0;
		for (int i = 0; i < st->nhand[seat]; i++)
			if (card_suit(st->hand[seat][i]) == s)
				m |= 1u << card_rank(st->hand[seat][i]);
		int kind = brouc_combo_kind(m);
		if (!kind)
			continue;
		int v = brouc_combo_value(st, kind, s, 0);
		st->combopts[team] += v;
		card_t cc[3];
		int nc = combo_cards(kind, s, cc);
		signed char who[3];
		for (int i = 0; i < nc; i++) {
			st->shown[seat] |= 1u << brouc_idx(cc[i]);
			who[i] = (signed char)seat;
		}
		emit_declare(out, seat, team, cc, who, nc, v, kind);
	}
}

static void game_end(struct brouc_state *st, const struct sink *out)
{
	st->over = 1;
	st->turn = -1;
	struct event e;
	ev_init(&e, EV_GAME_END);
	e.values_kind = EV_VALUES_STANDINGS;
	e.nvalues = 2;
	e.values[0] = st->wins[0];
	e.values[1] = st->wins[1];
	int w = -1;
	if (st->wins[0] != st->wins[1])
		w = st->wins[0] > st->wins[1] ? 0 : 1;
	else if (st->score[0] != st->score[1])
		w = st->score[0] > st->score[1] ? 0 : 1;
	e.winner = w;
	e.winners = w >= 0 ? 1u << w : 3u;
	ev_emit(out, &e);
}

static void end_deal(struct brouc_state *st, int won, const struct sink *out)
{
	struct event e;
	int cape = -1;
	if (st->tricks_done == BROUC_TRICKS)
		for (int t = 0; t < 2; t++)
			if (st->tricks_won[t] == BROUC_TRICKS)
				cape = t;
	int before[2] = { st->score[0], st->score[1] };
	int value = 0;
	for (int t = 0; t < 2; t++)
		st->score[t] += brouc_round(st, st->dealpts[t]);
	if (st->variant == BROUC_MODERN) {
		if (won >= 0)
			value = 1;
	} else {
		int a = st->score[0], b = st->score[1];
		if ((a > 300 || b > 300) && a != b) {
			won = a > b ? 0 : 1;
			int opp = st->score[1 - won];
			value = opp >= 150 ? 1 : opp >= 0 ? 2 : 4;
		}
	}
	if (won >= 0) {
		ev_init(&e, EV_PHASE);
		e.note = EV_NOTE_GAME_WON;
		e.winner = won;
		e.code = won;
		e.value = value;
		e.nvalues = 6;
		e.values[0] = before[0];
		e.values[1] = before[1];
		e.values[2] = st->dealpts[0];
		e.values[3] = st->dealpts[1];
		e.values[4] = st->score[0];
		e.values[5] = st->score[1];
		ev_emit(out, &e);
		st->wins[won] += value;
		st->last_game_winner = won;
	}
	if (cape >= 0) {
		int extra = st->variant == BROUC_MODERN ? 2 : 3;
		ev_init(&e, EV_PHASE);
		e.note = EV_NOTE_CAPE;
		e.winner = cape;
		e.code = cape;
		e.value = extra;
		ev_emit(out, &e);
		st->wins[cape] += extra;
	}
	ev_init(&e, EV_HAND_END);
	e.hand = st->hand_no;
	e.dealer = st->dealer;
	e.values_kind = EV_VALUES_SCORES;
	e.nvalues = 2;
	e.values[0] = st->score[0];
	e.values[1] = st->score[1];
	e.winner = won;
	e.pot = 0;
	ev_emit(out, &e);
	if (won >= 0) {
		st->score[0] = st->score[1] = 0;
		st->game_no++;
	}
	int target = st->variant == BROUC_MODERN ? st->games_target : st->parties_target;
	if (st->wins[0] >= target || st->wins[1] >= target ||
	    (st->hands_limit > 0 && st->hand_no >= st->hands_limit)) {
		game_end(st, out);
		return;
	}
	st->dealer = (st->dealer + 1) % BROUC_PLAYERS;
	deal(st, out);
}

static void finish_trick(struct brouc_state *st, const struct sink *out)
{
	int best = brouc_trick_best(st);
	int seat = (st->leader + best) % BROUC_PLAYERS;
	int team = brouc_team(seat);
	int pts = 0;
	for (int i = 0; i < 4; i++)
		pts += brouc_points(st->trick[i]);
	int k = st->tricks_done;
	memcpy(st->played[k], st->trick, 4);
	st->played_leader[k] = (signed char)st->leader;
	st->played_winner[k] = (signed char)seat;

	struct event e;
	ev_init(&e, EV_TRICK);
	e.seat = st->leader;
	e.winner = seat;
	e.points = pts;
	e.ncards = 4;
	for (int i = 0; i < 4; i++) {
		e.cards[i] = st->trick[i];
		e.card_seat[i] = (signed char)((st->leader + i) % BROUC_PLAYERS);
	}
	ev_emit(out, &e);
	st->cardpts[team] += pts;
	st->tricks_won[team]++;
	st->tricks_done++;

	/* Combinations in the trick. */
	for (int s = 0; s < SUIT_COUNT; s++) {
		unsigned m = 0;
		for (int i = 0; i < 4; i++)
			if (card_suit(st->trick[i]) == s)
				m |= 1u << card_rank(st->trick[i]);
		int kind = brouc_combo_kind(m);
		if (!kind)
			continue;
		int v = brouc_combo_value(st, kind, s, 1);
		st->combopts[team] += v;
		if (st->variant == BROUC_HOMME)
			st->combopts[1 - team] -= v;
		card_t cc[3];
		int nc = combo_cards(kind, s, cc);
		signed char who[3];
		for (int i = 0; i < nc; i++)
			for (int j = 0; j < 4; j++)
				if (st->trick[j] == cc[i])
					who[i] = (signed char)((st->leader + j) % BROUC_PLAYERS);
		emit_declare(out, seat, team, cc, who, nc, v, kind | BROUC_IN_TRICK);
	}
	/* Combinations in hand, at the team's first trick. */
	if (!st->first_won[team]) {
		st->first_won[team] = 1;
		score_hand_combos(st, seat, out);
		score_hand_combos(st, (seat + 2) % BROUC_PLAYERS, out);
	}
	for (int t = 0; t < 2; t++)
		st->dealpts[t] = st->cardpts[t] + st->combopts[t];
	ev_init(&e, EV_PHASE);
	e.note = EV_NOTE_TALLY;
	e.winner = team;
	e.value = st->tricks_done;
	e.nvalues = 4;
	e.values[0] = st->score[0];
	e.values[1] = st->score[1];
	e.values[2] = st->dealpts[0];
	e.values[3] = st->dealpts[1];
	ev_emit(out, &e);
	st->ntrick = 0;
	memset(st->trick, 0, sizeof st->trick);
	st->leader = st->turn = seat;

	int won = -1;
	if (st->variant == BROUC_MODERN)
		for (int t = 0; t < 2; t++)
			if (10 * st->score[t] + st->dealpts[t] > 300)
				won = t;
	if (won >= 0 || st->tricks_done == BROUC_TRICKS)
		end_deal(st, won, out);
}

static int brouc_play(void *vst, const struct action *a, const struct sink *out, struct refusal *why)
{
	struct brouc_state *st = vst;
	struct refusal r = { 0, CARD_NONE, -1, -1, -1 };
	if (st->over || st->turn < 0) {
		r.code = BROUC_R_TURN;
		if (why)
			*why = r;
		return -1;
	}
	if (a->kind != ACT_PLAY || a->ncards != 1) {
		r.code = BROUC_R_ACTION;
		if (why)
			*why = r;
		return -1;
	}
	card_t c = a->cards[0];
	if (brouc_check(st, c, &r) != 0) {
		if (why)
			*why = r;
		return -1;
	}
	if (why)
		*why = r;
	int seat = st->turn;
	/* What the others learn: a void, or (undertrumping) nothing but low trumps. */
	if (st->ntrick > 0) {
		int led = card_suit(st->trick[0]);
		if (card_suit(c) != led) {
			st->voids[seat] |= 1u << led;
			if (st->variant == BROUC_MODERN && card_suit(c) == st->trump && led != st->trump) {
				int best = brouc_trick_best(st);
				card_t hi = st->trick[best];
				if (card_suit(hi) == st->trump && brouc_strength(c) < brouc_strength(hi) &&
				    !completes_trump_combo(st, c))
					st->voids[seat] |= 0xfu & ~(1u << st->trump);
			}
		}
	}
	card_remove(st->hand[seat], &st->nhand[seat], c);
	st->hand[seat][st->nhand[seat]] = CARD_NONE;
	st->shown[seat] &= ~(1u << brouc_idx(c));
	st->trick[st->ntrick++] = c;

	struct event e;
	ev_init(&e, EV_ACTION);
	e.seat = seat;
	e.act = act_card(ACT_PLAY, c);
	e.act.amount_max = 0;
	e.amount = -1;
	ev_emit(out, &e);

	if (st->ntrick == BROUC_PLAYERS)
		finish_trick(st, out);
	else
		st->turn = (st->turn + 1) % BROUC_PLAYERS;
	return 0;
}

static int brouc_hand(const void *vst, int seat, card_t *out)
{
	const struct brouc_state *st = vst;
	if (seat < 0 || seat >= BROUC_PLAYERS)
		return 0;
	int n = 0;
	for (int i = 0; i < st->nhand[seat]; i++)
		if (st->hand[seat][i] != CARD_NONE)
			out[n++] = st->hand[seat][i];
	return n;
}

static void brouc_redact(void *vst, int seat)
{
	struct brouc_state *st = vst;
	for (int s = 0; s < BROUC_PLAYERS; s++) {
		if (s == seat)
			continue;
		for (int i = 0; i < st->nhand[s]; i++)
			if (!(st->shown[s] & (1u << brouc_idx(st->hand[s][i]))))
				st->hand[s][i] = CARD_NONE;
	}
	st->stack = NULL;
	/* Future shuffles are nobody's business. */
	uint64_t x = rng_next(&st->rng) ^ ((uint64_t)seat * 0x9e3779b97f4a7c15ULL);
	rng_seed(&st->rng, x);
	st->redacted_for = seat;
}

static void brouc_resample(void *vst, int seat, struct rng *rng)
{
	struct brouc_state *st = vst;
	uint32_t known = 0;
	for (int s = 0; s < BROUC_PLAYERS; s++)
		for (int i = 0; i < st->nhand[s]; i++)
			if (st->hand[s][i] != CARD_NONE)
				known |= 1u << brouc_idx(st->hand[s][i]);
	for (int i = 0; i < st->ntrick; i++)
		known |= 1u << brouc_idx(st->trick[i]);
	for (int k = 0; k < st->tricks_done; k++)
		for (int i = 0; i < 4; i++)
			known |= 1u << brouc_idx(st->played[k][i]);
	card_t pool[BROUC_PACK];
	int np = 0;
	for (int s = 0; s < SUIT_COUNT; s++)
		for (int r = 0; r < 8; r++) {
			card_t c = card_make(RANKS[r], s);
			if (!(known & (1u << brouc_idx(c))))
				pool[np++] = c;
		}
	(void)seat;
	/* Slots to fill per seat. */
	int need[BROUC_PLAYERS];
	int total = 0;
	for (int s = 0; s < BROUC_PLAYERS; s++) {
		need[s] = 0;
		for (int i = 0; i < st->nhand[s]; i++)
			need[s] += st->hand[s][i] == CARD_NONE;
		total += need[s];
	}
	if (total != np)
		return; /* not a view this game made */
	card_t give[BROUC_PLAYERS][BROUC_HAND];
	int ng[BROUC_PLAYERS];
	for (int attempt = 0; attempt < 64; attempt++) {
		int respect = attempt < 60;
		card_shuffle(pool, np, rng);
		/* Most constrained cards first. */
		int nallowed[BROUC_PACK];
		for (int i = 0; i < np; i++) {
			nallowed[i] = 0;
			for (int s = 0; s < BROUC_PLAYERS; s++)
				if (need[s] && (!respect || !(st->voids[s] & (1u << card_suit(pool[i])))))
					nallowed[i]++;
		}
		for (int i = 1; i < np; i++) {
			card_t c = pool[i];
			int a = nallowed[i], j = i - 1;
			while (j >= 0 && nallowed[j] > a) {
				pool[j + 1] = pool[j];
				nallowed[j + 1] = nallowed[j];
				j--;
			}
			pool[j + 1] = c;
			nallowed[j + 1] = a;
		}
		memset(ng, 0, sizeof ng);
		int ok = 1;
		for (int i = 0; i < np && ok; i++) {
			int cand[BROUC_PLAYERS], nc = 0;
			for (int s = 0; s < BROUC_PLAYERS; s++)
				if (ng[s] < need[s] && (!respect || !(st->voids[s] & (1u << card_suit(pool[i])))))
					cand[nc++] = s;
			if (!nc) {
				ok = 0;
				break;
			}
			int s = cand[rng_below(rng, (uint32_t)nc)];
			give[s][ng[s]++] = pool[i];
		}
		if (!ok)
			continue;
		for (int s = 0; s < BROUC_PLAYERS; s++) {
			int g = 0;
			for (int i = 0; i < st->nhand[s]; i++)
				if (st->hand[s][i] == CARD_NONE)
					st->hand[s][i] = give[s][g++];
			card_sort(st->hand[s], st->nhand[s], STRENGTH);
		}
		return;
	}
}

static int brouc_standings(const void *vst, int *out)
{
	const struct brouc_state *st = vst;
	out[0] = st->wins[0];
	out[1] = st->wins[1];
	return 2;
}

static int brouc_hand_number(const void *vst)
{
	return ((const struct brouc_state *)vst)->hand_no;
}

static int brouc_dealer(const void *vst)
{
	return ((const struct brouc_state *)vst)->dealer;
}

/* Recompute the deal's points from the tricks and the hands, as a referee. */
/* Every card of the pack exactly once: in a hand, the trick or the tricks done. */
static int audit_cards(const struct brouc_state *st, char *err, size_t errlen)
{
	int count[256] = { 0 };
	int ncards = 0;
	for (int s = 0; s < BROUC_PLAYERS; s++)
		for (int i = 0; i < st->nhand[s]; i++) {
			count[st->hand[s][i]]++;
			ncards++;
		}
	for (int i = 0; i < st->ntrick; i++) {
		count[st->trick[i]]++;
		ncards++;
	}
	for (int k = 0; k < st->tricks_done; k++)
		for (int i = 0; i < 4; i++) {
			count[st->played[k][i]]++;
			ncards++;
		}
	if (ncards != BROUC_PACK)
		return errf(err, errlen, "%d cards in play, not 32", ncards);
	for (int s = 0; s < SUIT_COUNT; s++)
		for (int r = 0; r < 8; r++) {
			card_t c = card_make(RANKS[r], s);
			if (count[c] != 1) {
				char b[CARD_STR_MAX];
				return errf(err, errlen, "card %s found %d times", card_str(c, b), count[c]);
			}
		}
	return 0;
}

/* Hand sizes: 8 minus the tricks done and the card in this trick. */
static int audit_hands(const struct brouc_state *st, char *err, size_t errlen)
{
	for (int s = 0; s < BROUC_PLAYERS; s++) {
		int inplay = ((s - st->leader + BROUC_PLAYERS) % BROUC_PLAYERS) < st->ntrick;
		if (!st->over && st->nhand[s] != BROUC_HAND - st->tricks_done - inplay)
			return errf(err, errlen, "seat %d holds %d cards", s, st->nhand[s]);
	}
	return 0;
}

/* Each seat's hand as it was dealt: what it holds and what it played. */
static void dealt_hands(const struct brouc_state *st, card_t orig[BROUC_PLAYERS][BROUC_HAND], int no[BROUC_PLAYERS])
{
	for (int s = 0; s < BROUC_PLAYERS; s++) {
		no[s] = st->nhand[s];
		memcpy(orig[s], st->hand[s], (size_t)no[s]);
	}
	for (int k = 0; k < st->tricks_done; k++)
		for (int i = 0; i < 4; i++) {
			int s = (st->played_leader[k] + i) % BROUC_PLAYERS;
			orig[s][no[s]++] = st->played[k][i];
		}
	for (int i = 0; i < st->ntrick; i++) {
		int s = (st->leader + i) % BROUC_PLAYERS;
		orig[s][no[s]++] = st->trick[i];
	}
}

/* What the tricks done give each team, counted again. */
struct brouc_tally {
	int cp[2];     /* card points */
	int co[2];     /* combination points */
	int first[2];  /* 1: the team has taken a trick (its hand combinations declared) */
	int tw[2];     /* tricks won */
};

/* Count the tricks done again; -1 when a trick's winner is not the one
 * the rules give. */
static int tally_tricks(const struct brouc_state *st, struct brouc_tally *ty, char *err, size_t errlen)
{
	card_t orig[BROUC_PLAYERS][BROUC_HAND];
	int no[BROUC_PLAYERS];
	dealt_hands(st, orig, no);
	memset(ty, 0, sizeof *ty);
	uint32_t gone = 0;
	for (int k = 0; k < st->tricks_done; k++) {
		struct brouc_state t;
		memcpy(&t, st, sizeof t);
		t.ntrick = 4;
		memcpy(t.trick, st->played[k], 4);
		t.leader = st->played_leader[k];
		int w = (t.leader + brouc_trick_best(&t)) % BROUC_PLAYERS;
		if (w != st->played_winner[k])
			return errf(err, errlen, "trick %d won by seat %d, not %d", k + 1, st->played_winner[k], w);
		int team = brouc_team(w);
		ty->tw[team]++;
		for (int i = 0; i < 4; i++) {
			ty->cp[team] += brouc_points(st->played[k][i]);
			gone |= 1u << brouc_idx(st->played[k][i]);
		}
		for (int s = 0; s < SUIT_COUNT; s++) {
			unsigned m = 0;
			for (int i = 0; i < 4; i++)
				if (card_suit(st->played[k][i]) == s)
					m |= 1u << card_rank(st->played[k][i]);
			int v = brouc_combo_value(st, brouc_combo_kind(m), s, 1);
			ty->co[team] += v;
			if (st->variant == BROUC_HOMME)
				ty->co[1 - team] -= v;
		}
		if (!ty->first[team]) {
			ty->first[team] = 1;
			for (int p = team; p < BROUC_PLAYERS; p += 2)
				for (int s = 0; s < SUIT_COUNT; s++) {
					unsigned m = 0;
					for (int i = 0; i < no[p]; i++)
						if (card_suit(orig[p][i]) == s && !(gone & (1u << brouc_idx(orig[p][i]))))
							m |= 1u << card_rank(orig[p][i]);
					ty->co[team] += brouc_combo_value(st, brouc_combo_kind(m), s, 0);
				}
		}
	}
	return 0;
}

/* Replay the scoring of the deal. */
static int audit_scoring(const struct brouc_state *st, char *err, size_t errlen)
{
	struct brouc_tally ty;
	if (tally_tricks(st, &ty, err, errlen) < 0)
		return -1;
	if (ty.cp[0] + ty.cp[1] > 120 || (st->tricks_done == BROUC_TRICKS && ty.cp[0] + ty.cp[1] != 120))
		return errf(err, errlen, "card points %d + %d", ty.cp[0], ty.cp[1]);
	for (int t = 0; t < 2; t++) {
		if (ty.cp[t] != st->cardpts[t] || ty.co[t] != st->combopts[t] ||
		    st->dealpts[t] != ty.cp[t] + ty.co[t] || ty.tw[t] != st->tricks_won[t] ||
		    ty.first[t] != st->first_won[t]) {
			return errf(err, errlen, "team %d: card points %d (counted %d), combinations %d (counted %d), total %d",
			            t, st->cardpts[t], ty.cp[t], st->combopts[t], ty.co[t], st->dealpts[t]);
		}
	}
	return 0;
}

static int brouc_audit(const void *vst, char *err, size_t errlen)
{
	const struct brouc_state *st = vst;
	if (st->players != BROUC_PLAYERS)
		return errf(err, errlen, "players %d", st->players);
	if (st->hand_no == 0)
		return 0;
	if (audit_cards(st, err, errlen) < 0 || audit_hands(st, err, errlen) < 0 ||
	    audit_scoring(st, err, errlen) < 0)
		return -1;
	if (st->variant == BROUC_MODERN && !st->over) {
		for (int t = 0; t < 2; t++)
			if (10 * st->score[t] + st->dealpts[t] > 300 || st->score[t] < 0)
				return errf(err, errlen, "team %d score %d + %d should have won", t, st->score[t],
				            st->dealpts[t]);
	}
	if (st->trump != card_suit(st->turnup))
		return errf(err, errlen, "trumps are not the turned card's suit");
	return 0;
}

static int brouc_apply(void *vst, const struct action *a, const struct sink *out, struct refusal *why)
{
	game_assert_before(vst, a);
	int rc = brouc_play(vst, a, out, why);
	return game_assert_after(vst, brouc_to_act(vst), rc, why);
}

static int brouc_trick_fn(const void *vst, int *seat, card_t *cards)
{
	const struct brouc_state *st = vst;
	for (int i = 0; i < st->ntrick; i++) {
		seat[i] = (st->leader + i) % BROUC_PLAYERS;
		cards[i] = st->trick[i];
	}
	return st->ntrick;
}

const struct game_ops brouc_ops = {
	.name = "brouc",
	.title = "Le Brouc",
	.min_players = BROUC_PLAYERS,
	.max_players = BROUC_PLAYERS,
	.default_players = BROUC_PLAYERS,
	.clockwise = 0,
	.lower_wins = 0,
	.teams = 2,
	.state_size = sizeof(struct brouc_state),
	.rules = RULES,
	.nrules = (int)(sizeof RULES / sizeof RULES[0]),
	.pack = brouc_pack,
	.init = brouc_init,
	.start = brouc_start,
	.to_act = brouc_to_act,
	.legal = brouc_legal,
	.apply = brouc_apply,
	.hand = brouc_hand,
	.redact = brouc_redact,
	.resample = brouc_resample,
	.trick = brouc_trick_fn,
	.standings = brouc_standings,
	.hand_number = brouc_hand_number,
	.dealer = brouc_dealer,
	.audit = brouc_audit,
};
