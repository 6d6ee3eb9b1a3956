/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Le Brouc bot (also the player's partner).
 *
 * Level 1: simple rules (win cheaply when it can, else throw the smallest).
 * Level 2: each legal card is weighed by its expected value: the chance
 * that the team takes the trick (from the cards gone, the voids shown and
 * how many unknown cards each hand holds), times what the trick is worth
 * (its points, combinations completed in it, the hand combinations a first
 * trick would score), less what the card is worth kept for later (trumps,
 * masters, a king-queen still to score). So it follows and trumps when it
 * pays, gives points to a partner's safe trick instead of overtaking it,
 * keeps its combinations whole until its team's first trick, and never
 * hands the opponents a combination for nothing.
 * Level 3 and up: determinized search: the hidden hands are dealt again
 * consistently with what the seat knows, each legal card is played out to
 * the end of the deal by level-2 players, and the best average wins.
 *
 * The heuristic reads only what its seat may know (its hand, the tricks,
 * the cards shown, the voids), so it plays the same on a view and on a
 * resampled state. */
#include <string.h>

#include "bots/bot.h"
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

/* ---- level 2: expected value of each card ---- */
/* Unknown cards in seat s's hand (its cards not shown). */
static int slots(const struct know *k, int s)
{
	return k->st->nhand[s] - __builtin_popcount(k->st->shown[s]);
}

/* The unseen cards of the others that may be of suit su (their seats not
 * known void in it). */
static int suit_slots(const struct know *k, int su)
{
	int total = 0;
	for (int s = 0; s < BROUC_PLAYERS; s++)
		if (s != k->me && !(k->st->voids[s] & (1u << su)))
			total += slots(k, s);
	return total;
}

/* Probability that seat o holds at least one card of mask x. */
static double p_holds_any(const struct know *k, int o, uint32_t x)
{
	const struct brouc_state *st = k->st;
	if (k->shown[o] & x)
		return 1.0;
	double none = 1.0;
	int so = slots(k, o);
	if (so <= 0)
		return 0.0;
	for (int i = 0; i < 32; i++) {
		if (!(x & k->unseen & (1u << i)))
			continue;
		int su = i / 8;
		if (st->voids[o] & (1u << su))
			continue;
		int total = suit_slots(k, su);
		if (total > 0)
			none *= 1.0 - (double)so / total;
	}
	return 1.0 - none;
}

/* Probability that seat o beats nb in a trick led in led. */
static double p_beat(const struct know *k, int o, card_t nb, int led)
{
	const struct brouc_state *st = k->st;
	int trump = st->trump;
	double p_void = (st->voids[o] & (1u << led)) ? 1.0 : 1.0 - p_holds_any(k, o, suit_mask(led));
	if (card_suit(nb) == led) {
		double p_hi = p_holds_any(k, o, above(nb));
		if (led == trump)
			return p_hi;
		if (st->voids[o] & (1u << trump))
			return p_hi;
		return p_hi + p_void * p_holds_any(k, o, suit_mask(trump));
	}
	if (st->voids[o] & (1u << trump))
		return 0.0;
	return p_void * p_holds_any(k, o, above(nb));
}

/* Probability for a card x unseen by me that seat o holds it. */
static double p_hold(const struct know *k, int o, int i)
{
	const struct brouc_state *st = k->st;
	int su = i / 8;
	if (k->shown[o] & (1u << i))
		return 1.0;
	if (!(k->unseen & (1u << i)) || (st->voids[o] & (1u << su)))
		return 0.0;
	int total = suit_slots(k, su);
	return total > 0 ? (double)slots(k, o) / total : 0.0;
}

/* Probability that none of the seats in `who` beats nb (led suit led). */
static double p_keep(const struct know *k, const int *who, int n, card_t nb, int led)
{
	const struct brouc_state *st = k->st;
	int trump = st->trump;
	double keep = 1.0;
	if (card_suit(nb) == led) {
		uint32_t x = above(nb);
		for (int i = 0; i < 32; i++)
			if (x & (1u << i)) {
				double p = 0;
				for (int j = 0; j < n; j++)
					p += p_hold(k, who[j], i);
				keep *= p > 1.0 ? 0.0 : 1.0 - p;
			}
		if (led == trump)
			return keep;
		for (int j = 0; j < n; j++) {
			int o = who[j];
			if (st->voids[o] & (1u << trump))
				continue;
			double p_void = (st->voids[o] & (1u << led)) ? 1.0 : 1.0 - p_holds_any(k, o, suit_mask(led));
			keep *= 1.0 - p_void * p_holds_any(k, o, suit_mask(trump));
		}
		return keep;
	}
	for (int j = 0; j < n; j++)
		keep *= 1.0 - p_beat(k, who[j], nb, led);
	return keep;
}

/* What keeping c is worth for the tricks to come. */
static double power(const struct know *k, card_t c)
{
	const struct brouc_state *st = k->st;
	double v = 0;
	if (card_suit(c) == st->trump)
		v = 7 + brouc_strength(c) + (is_master(k, c) ? 6 : 0);
	else if (is_master(k, c))
		v = (above(c) & k->mine) ? 4.5 : 9;
	else if (brouc_points(c) >= 10)
		v = -3;
	return v + breaks_hand_combo(k, c);
}

/* Combinations still whole in my hand once c is gone. */
static int hand_combos_without(const struct know *k, card_t c)
{
	int v = 0;
	uint32_t mine = k->mine & ~(1u << brouc_idx(c));
	for (int s = 0; s < SUIT_COUNT; s++) {
		unsigned m = 0;
		for (int i = 0; i < 8; i++)
			if (mine & (1u << (s * 8 + i)))
				m |= 1u << card_rank(card_of(s * 8 + i));
		v += brouc_combo_value(k->st, brouc_combo_kind(m), s, 0);
	}
	return v;
}

static card_t choose_ev(const struct brouc_state *st, int me)
{
	struct know k;
	know_init(&k, st, me);
	card_t legal[BROUC_HAND];
	int n = legal_cards(st, legal);
	if (n == 1)
		return legal[0];
	int trump = st->trump;
	int partner = partner_of(me);
	int pos = st->ntrick;
	int led = pos ? card_suit(st->trick[0]) : -1;
	int bi = pos ? brouc_trick_best(st) : -1;
	card_t best = pos ? st->trick[bi] : CARD_NONE;
	int partner_wins = pos && brouc_team((st->leader + bi) % BROUC_PLAYERS) == k.team;
	int later[3], nl = 0, partner_later = 0;
	for (int p = pos + 1; p < BROUC_PLAYERS; p++) {
		int s = (st->leader + p) % BROUC_PLAYERS;
		if (s == partner)
			partner_later = 1;
		else
			later[nl++] = s;
	}
	int pts = trick_points(st);
	double later_pts = 3.5 * (BROUC_PLAYERS - 1 - pos);
	double b_them = st->first_won[1 - k.team] ? 0 : 8;
	int ntr = __builtin_popcount(k.mine & suit_mask(trump));
	double best_ev = -1e9;
	card_t pick = legal[0];
	for (int i = 0; i < n; i++) {
		card_t c = legal[i];
		int l = pos ? led : card_suit(c);
		int wins = pos == 0 || brouc_beats(c, best, led, trump);
		card_t nb = wins ? c : best;
		double p_us;
		if (wins || partner_wins) {
			double keep = p_keep(&k, later, nl, nb, l);
			p_us = keep;
			if (partner_later && wins)
				p_us += (1.0 - keep) * 0.3;
		} else {
			p_us = partner_later ? 0.8 * p_beat(&k, partner, nb, l) : 0.0;
			if (partner_later)
				for (int j = 0; j < nl; j++) {
					int after = ((later[j] - st->leader + 4) % 4) > ((partner - st->leader + 4) % 4);
					if (after)
						p_us *= 0.7;
				}
		}
		double gain = pts + brouc_points(c) + completes(st, c) + later_pts;
		double b_us = st->first_won[k.team] ? 0 : hand_combos_without(&k, c) + 5;
		double ev = p_us * (gain + b_us) - (1.0 - p_us) * (gain + b_them) - power(&k, c);
		if (pos == 0) {
			int s = card_suit(c);
			/* Draw trumps when strong in them. */
			if (s == trump && ntr >= 3 && is_master(&k, c))
				ev += 6;
			/* A ruff for the partner. */
			if (s != trump && (st->voids[partner] & (1u << s)) && !(st->voids[partner] & (1u << trump)))
				ev += 6;
		}
		if (ev > best_ev) {
			best_ev = ev;
			pick = c;
		}
	}
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
	if (e->type == EV_PHASE && e->note == EV_NOTE_GAME_WON) {
		r->diff += (e->winner == r->team ? 1 : -1) * 300;
	} else if (e->type == EV_PHASE && e->note == EV_NOTE_CAPE) {
		r->diff += (e->winner == r->team ? 1 : -1) * 200;
	} else if (e->type == EV_HAND_END) {
		r->diff += r->st->dealpts[r->team] - r->st->dealpts[1 - r->team];
		r->done = 1;
	}
}

/* Worlds sampled per millisecond of the budget (a world costs about 20 us
 * early in the deal). */
#define WORLDS_PER_MS 3

static card_t choose_search(const struct brouc_state *view, int me, int budget, struct rng *rng)
{
	card_t legal[BROUC_HAND];
	int n = legal_cards(view, legal);
	if (n == 1)
		return legal[0];
	int worlds = budget * WORLDS_PER_MS;
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
				a = act_card(ACT_PLAY, choose_ev(&t, s));
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

static void brouc_choose(const void *view, int seat, int level, int budget, struct rng *rng,
                         struct action *out)
{
	const struct brouc_state *st = view;
	card_t c;
	if (level <= 1)
		c = choose_simple(st);
	else if (level == 2)
		c = choose_ev(st, seat);
	else
		c = choose_search(st, seat, budget, rng);
	*out = act_card(ACT_PLAY, c);
}

/* The hint: level 3's card, and what it does in the trick. */
static void brouc_hint(const void *view, int seat, int budget, struct rng *rng, struct action *out,
                       struct bot_reason *why)
{
	const struct brouc_state *st = view;
	card_t x = choose_search(st, seat, budget, rng);
	*out = act_card(ACT_PLAY, x);
	struct know k;
	know_init(&k, st, seat);
	int bi = st->ntrick ? brouc_trick_best(st) : -1;
	card_t best = bi >= 0 ? st->trick[bi] : CARD_NONE;
	int led = st->ntrick ? card_suit(st->trick[0]) : card_suit(x);
	struct bot_trick t = { st->ntrick, BROUC_PLAYERS, best, 0, 0 };
	int lowest = 1;
	for (int i = 0; i < st->nhand[seat]; i++) {
		card_t h = st->hand[seat][i];
		if (!h)
			continue;
		if (st->ntrick && card_suit(h) == led)
			t.holds_led = 1;
		if (card_suit(h) == card_suit(x) && brouc_strength(h) < brouc_strength(x))
			lowest = 0;
	}
	/* Higher cards of the suit that others may hold (for a lead). */
	int higher = __builtin_popcount(above(x) & (k.unseen | k.shown[(seat + 1) % 4] | k.shown[(seat + 2) % 4] |
	                                            k.shown[(seat + 3) % 4]));
	bot_trick_reason(&t, x, best != CARD_NONE && brouc_beats(x, best, led, st->trump), higher, lowest, why);
	/* The best of its suit, but another player out of that suit may trump it. */
	if (why->code == BOT_WHY_MASTER && card_suit(x) != st->trump && (suit_mask(st->trump) & ~(k.mine | k.gone)))
		why->code = BOT_WHY_MASTER_RUFF;
	if (why->code == BOT_WHY_DRAW_OUT && card_suit(x) == st->trump)
		why->code = BOT_WHY_DRAW_TRUMPS;
}

const struct bot_ops brouc_bot = {
	.game = "brouc",
	.choose = brouc_choose,
	.hint = brouc_hint,
};
