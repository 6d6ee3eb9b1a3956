/* The Le Brouc bot (also the player's partner).
 *
 * Level 1: simple rules (win cheaply when it can, else throw the smallest).
 * Level 2: card reading (cards gone, voids), partnership (no overtaking a
 * partner's safe trick, points given to it), combinations kept whole until
 * the team's first trick and completed in tricks the team takes, never
 * handed to the opponents.
 * Level 3 and up: determinized search: the hidden hands are dealt again
 * consistently with what the seat knows, each legal card is played out to
 * the end of the deal by level-2 players, and the best average wins.
 *
 * The heuristic reads only what its seat may know (its hand, the tricks,
 * the cards shown, the voids), so it plays the same on a view and on a
 * resampled state. */
#include <string.h>

#include "bots/bot.h"
#include "bots/bot_games.h"
#include "games/brouc.h"

struct know {
	const struct brouc_state *st;
	int me, team;
	uint32_t mine;     /* my cards */
	uint32_t gone;     /* played (done tricks and this one) */
	uint32_t unseen;   /* neither mine, gone, nor shown elsewhere */
	uint32_t shown[BROUC_PLAYERS];
};

static uint32_t suit_mask(int s)
{
	return 0xffu << (s * 8);
}

static void know_init(struct know *k, const struct brouc_state *st, int me)
{
	memset(k, 0, sizeof *k);
	k->st = st;
	k->me = me;
	k->team = brouc_team(me);
	for (int i = 0; i < st->nhand[me]; i++)
		if (st->hand[me][i])
			k->mine |= 1u << brouc_idx(st->hand[me][i]);
	for (int t = 0; t < st->tricks_done; t++)
		for (int i = 0; i < 4; i++)
			k->gone |= 1u << brouc_idx(st->played[t][i]);
	for (int i = 0; i < st->ntrick; i++)
		k->gone |= 1u << brouc_idx(st->trick[i]);
	uint32_t sh = 0;
	for (int s = 0; s < BROUC_PLAYERS; s++) {
		if (s == me)
			continue;
		k->shown[s] = st->shown[s];
		sh |= st->shown[s];
	}
	k->unseen = ~(k->mine | k->gone | sh);
}

/* Cards seat s may hold (for s != me). */
static uint32_t may_hold(const struct know *k, int s)
{
	uint32_t m = k->shown[s];
	for (int su = 0; su < SUIT_COUNT; su++)
		if (!(k->st->voids[s] & (1u << su)))
			m |= k->unseen & suit_mask(su);
	return m;
}

static card_t card_of(int idx)
{
	static const int rank_of[8] = { RANK_SEVEN, RANK_EIGHT, RANK_NINE, RANK_JACK,
	                                RANK_QUEEN, RANK_KING, RANK_TEN, RANK_ACE };
	return card_make(rank_of[idx % 8], idx / 8);
}

/* Bits of suit s stronger than c's strength. */
static uint32_t above(card_t c)
{
	int s = card_suit(c), st = brouc_strength(c);
	return ((0xffu << st) & 0xffu) << (s * 8);
}

/* 1 when no one else may hold a card of c's suit stronger than c. */
static int is_master(const struct know *k, card_t c)
{
	return (above(c) & ~k->mine & ~k->gone) == 0;
}

/* May seat s (an opponent yet to play) beat `best` in a trick led in `led`? */
static int may_beat(const struct know *k, int s, card_t best, int led)
{
	const struct brouc_state *st = k->st;
	uint32_t h = may_hold(k, s);
	int trump = st->trump;
	if (card_suit(best) == led && (h & above(best)))
		return 1;
	/* Trumping: possible when the seat may be out of the led suit. */
	int led_left = __builtin_popcount(h & suit_mask(led));
	int maybe_void = (st->voids[s] & (1u << led)) || led_left <= 2;
	if (led == trump || !maybe_void)
		return 0;
	uint32_t tr = h & suit_mask(trump);
	if (card_suit(best) == trump)
		tr &= above(best);
	return tr != 0;
}

static int partner_of(int seat)
{
	return (seat + 2) % BROUC_PLAYERS;
}

/* Would c break a combination still whole in hand that the team has yet to
 * score (it scores when the team wins its first trick)? */
static int breaks_hand_combo(const struct know *k, card_t c)
{
	const struct brouc_state *st = k->st;
	if (st->first_won[k->team])
		return 0;
	int r = card_rank(c), s = card_suit(c);
	if (r != RANK_KING && r != RANK_QUEEN && r != RANK_JACK)
		return 0;
	unsigned m = 0;
	for (int i = 0; i < 8; i++)
		if (k->mine & (1u << (s * 8 + i)))
			m |= 1u << card_rank(card_of(s * 8 + i));
	int kind = brouc_combo_kind(m);
	if (!kind)
		return 0;
	if (r == RANK_JACK && kind != BROUC_KQJ)
		return 0;
	return brouc_combo_value(st, kind, s, 0);
}

/* Combination value that c adds to the trick in progress (K-Q or K-Q-J
 * completed by c), 0 if none. */
static int completes(const struct brouc_state *st, card_t c)
{
	int s = card_suit(c);
	unsigned m = 0;
	for (int i = 0; i < st->ntrick; i++)
		if (card_suit(st->trick[i]) == s)
			m |= 1u << card_rank(st->trick[i]);
	int before = brouc_combo_kind(m);
	int after = brouc_combo_kind(m | (1u << card_rank(c)));
	if (after == before)
		return 0;
	return brouc_combo_value(st, after, s, 1) - brouc_combo_value(st, before, s, 1);
}

/* What keeping c is worth for later tricks. */
static int keep_value(const struct know *k, card_t c)
{
	const struct brouc_state *st = k->st;
	int v = brouc_points(c);
	if (card_suit(c) == st->trump)
		v += 6 + 2 * brouc_strength(c);
	if (is_master(k, c))
		v += 6;
	v += breaks_hand_combo(k, c);
	return v;
}

static int trick_points(const struct brouc_state *st)
{
	int p = 0;
	for (int i = 0; i < st->ntrick; i++)
		p += brouc_points(st->trick[i]);
	return p;
}

static int legal_cards(const struct brouc_state *st, card_t *out)
{
	int n = 0;
	for (int i = 0; i < st->nhand[st->turn]; i++) {
		card_t c = st->hand[st->turn][i];
		if (c && brouc_check(st, c, NULL) == 0)
			out[n++] = c;
	}
	return n;
}

/* Level 1: win as cheaply as possible, else throw the smallest. */
static card_t choose_simple(const struct brouc_state *st)
{
	card_t legal[BROUC_HAND];
	int n = legal_cards(st, legal);
	card_t pick = legal[0];
	if (st->ntrick == 0) {
		for (int i = 0; i < n; i++)
			if (card_rank(legal[i]) == RANK_ACE && card_suit(legal[i]) != st->trump)
				return legal[i];
		for (int i = 1; i < n; i++)
			if (brouc_strength(legal[i]) < brouc_strength(pick))
				pick = legal[i];
		return pick;
	}
	card_t best = st->trick[brouc_trick_best(st)];
	int led = card_suit(st->trick[0]);
	card_t win = CARD_NONE, low = CARD_NONE;
	for (int i = 0; i < n; i++) {
		card_t c = legal[i];
		if (brouc_beats(c, best, led, st->trump)) {
			if (!win || (card_suit(c) != st->trump && card_suit(win) == st->trump) ||
			    (card_suit(c) == card_suit(win) && brouc_strength(c) < brouc_strength(win)))
				win = c;
		} else if (!low || brouc_points(c) < brouc_points(low) ||
		           (brouc_points(c) == brouc_points(low) && brouc_strength(c) < brouc_strength(low))) {
			low = c;
		}
	}
	return win ? win : low;
}

/* Level 2: the heuristic. */
static card_t choose_heuristic(const struct brouc_state *st, int me)
{
	struct know k;
	know_init(&k, st, me);
	card_t legal[BROUC_HAND];
	int n = legal_cards(st, legal);
	if (n == 1)
		return legal[0];
	int trump = st->trump;
	int best_score = -1000000;
	card_t pick = legal[0];

	if (st->ntrick == 0) {
		int ntr = __builtin_popcount(k.mine & suit_mask(trump));
		int opp_trumps = 0;
		for (int s = 0; s < BROUC_PLAYERS; s++)
			if (brouc_team(s) != k.team && (may_hold(&k, s) & suit_mask(trump)))
				opp_trumps = 1;
		for (int i = 0; i < n; i++) {
			card_t c = legal[i];
			int s = card_suit(c);
			int sc = -keep_value(&k, c);
			int safe = is_master(&k, c);
			if (safe && s != trump) {
				/* Will an opponent trump it? */
				for (int o = 0; o < BROUC_PLAYERS; o++) {
					if (brouc_team(o) == k.team)
						continue;
					uint32_t h = may_hold(&k, o);
					int left = __builtin_popcount(h & suit_mask(s));
					if (((st->voids[o] & (1u << s)) || left <= 2) && (h & suit_mask(trump)))
						safe = 0;
				}
			}
			if (safe && s != trump)
				sc += 40 + 2 * brouc_points(c);
			else if (safe && s == trump && opp_trumps && ntr >= 3)
				sc += 30;
			if (!safe && card_rank(c) == RANK_TEN && s != trump)
				sc -= 10;
			/* A low card in a suit the partner is void in: a ruff. */
			if (!safe && (st->voids[partner_of(me)] & (1u << s)) && s != trump &&
			    !(st->voids[partner_of(me)] & (1u << trump)))
				sc += 8;
			if (s == trump && !safe)
				sc -= 6;
			if (sc > best_score) {
				best_score = sc;
				pick = c;
			}
		}
		return pick;
	}

	int led = card_suit(st->trick[0]);
	int bi = brouc_trick_best(st);
	card_t best = st->trick[bi];
	int best_seat = (st->leader + bi) % BROUC_PLAYERS;
	int partner_wins = brouc_team(best_seat) == k.team;
	int pos = st->ntrick; /* my position */
	int pts = trick_points(st);
	/* Opponents to play after me. */
	int later_opp[2], nlo = 0, partner_later = 0;
	for (int p = pos + 1; p < BROUC_PLAYERS; p++) {
		int s = (st->leader + p) % BROUC_PLAYERS;
		if (brouc_team(s) != k.team)
			later_opp[nlo++] = s;
		else
			partner_later = 1;
	}
	int partner_safe = 0;
	if (partner_wins) {
		partner_safe = 1;
		for (int i = 0; i < nlo; i++)
			if (may_beat(&k, later_opp[i], best, led))
				partner_safe = 0;
	}
	for (int i = 0; i < n; i++) {
		card_t c = legal[i];
		int wins = brouc_beats(c, best, led, trump);
		card_t nb = wins ? c : best;
		int we_win = wins || partner_wins;
		int safe = 1;
		for (int j = 0; j < nlo; j++)
			if (may_beat(&k, later_opp[j], nb, led))
				safe = 0;
		int combo = completes(st, c);
		int sc;
		if (we_win && safe) {
			/* The trick is ours: give points, complete combinations,
			 * keep strength. */
			sc = 100 + brouc_points(c) + combo;
			if (wins && partner_wins)
				sc -= 15 + keep_value(&k, c) - brouc_points(c); /* needless overtaking */
			else
				sc -= keep_value(&k, c) - brouc_points(c);
			if (card_rank(c) == RANK_ACE && card_suit(c) != trump && is_master(&k, c) && !wins)
				sc -= 6; /* an ace that could take its own trick */
			sc += pts / 4;
		} else if (we_win) {
			/* Ours for now, an opponent may still beat it. */
			sc = 20 - brouc_points(c) - keep_value(&k, c) / 2;
			if (combo)
				sc -= combo / 2;
			if (wins && !partner_wins)
				sc += (pts + combo) / 3;
		} else {
			/* Lost unless the partner takes it later. */
			sc = -brouc_points(c) - keep_value(&k, c) / 2 - combo;
			if (partner_later && !combo)
				sc += brouc_points(c) / 3;
		}
		if (sc > best_score) {
			best_score = sc;
			pick = c;
		}
	}
	(void)partner_safe;
	return pick;
}

/* ---- level 3: determinized search ---- */

struct rollout {
	const struct brouc_state *st;
	int team;
	int done;
	int diff;
};

static void rollout_emit(void *ctx, const struct event *e)
{
	struct rollout *r = ctx;
	if (r->done)
		return;
	if (e->type == EV_PHASE && e->note && e->note[0] == 'g') {
		r->diff += (e->winner == r->team ? 1 : -1) * 300;
	} else if (e->type == EV_PHASE && e->note && e->note[0] == 'c') {
		r->diff += (e->winner == r->team ? 1 : -1) * 200;
	} else if (e->type == EV_HAND_END) {
		r->diff += r->st->dealpts[r->team] - r->st->dealpts[1 - r->team];
		r->done = 1;
	}
}

static card_t choose_search(const struct brouc_state *view, int me, int level, struct rng *rng)
{
	card_t legal[BROUC_HAND];
	int n = legal_cards(view, legal);
	if (n == 1)
		return legal[0];
	int worlds = level >= 4 ? 48 : 20;
	long total[BROUC_HAND] = { 0 };
	struct brouc_state w, t;
	for (int d = 0; d < worlds; d++) {
		memcpy(&w, view, sizeof w);
		brouc_ops.resample(&w, me, rng);
		for (int i = 0; i < n; i++) {
			memcpy(&t, &w, sizeof t);
			struct rollout r = { &t, brouc_team(me), 0, 0 };
			struct sink sk = { rollout_emit, &r };
			int base = t.dealpts[r.team] - t.dealpts[1 - r.team];
			struct action a = act_card(ACT_PLAY, legal[i]);
			struct refusal why;
			brouc_ops.apply(&t, &a, &sk, &why);
			int steps = 0;
			while (!r.done && !t.over && steps++ < 64) {
				int s = t.turn;
				a = act_card(ACT_PLAY, choose_heuristic(&t, s));
				brouc_ops.apply(&t, &a, &sk, &why);
			}
			total[i] += r.diff - base;
		}
	}
	int b = 0;
	for (int i = 1; i < n; i++)
		if (total[i] > total[b])
			b = i;
	return legal[b];
}

static void brouc_choose(const void *view, int seat, int level, struct rng *rng, struct action *out)
{
	const struct brouc_state *st = view;
	card_t c;
	if (level <= 1)
		c = choose_simple(st);
	else if (level == 2)
		c = choose_heuristic(st, seat);
	else
		c = choose_search(st, seat, level, rng);
	*out = act_card(ACT_PLAY, c);
}

const struct bot_ops brouc_bot = {
	.game = "brouc",
	.choose = brouc_choose,
};
