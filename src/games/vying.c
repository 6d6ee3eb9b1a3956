/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vying: shared machinery of Bouillotte and Le Brelan (see vying.h). */
#include "games/vying.h"

#include <string.h>

#include "core/deckfile.h"
#include "core/err.h"

/* ---- small helpers ---- */

static unsigned bit(int s) { return 1u << s; }

static int popcount(unsigned m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

static int next_in(const struct vying *v, int s)
{
	for (int k = 1; k <= v->players; k++) {
		int t = (s + k) % v->players;
		if (v->in_deal[t])
			return t;
	}
	return -1;
}

static int next_active(const struct vying *v, int s)
{
	for (int k = 1; k <= v->players; k++) {
		int t = (s + k) % v->players;
		if (!v->out[t])
			return t;
	}
	return -1;
}

static int nactive(const struct vying *v)
{
	int n = 0;
	for (int s = 0; s < v->players; s++)
		n += !v->out[s];
	return n;
}

int vying_pot(const struct vying *v)
{
	int p = v->dead;
	for (int s = 0; s < v->players; s++)
		p += v->stake[s];
	return p;
}

int vying_point_suit(struct vying *v, unsigned contenders)
{
	struct vying_cfg save = v->cfg;
	int kind, suit, points;
	v->cfg.brelans = 0;
	vying_best(v, contenders, -1, &kind, &suit, &points);
	v->cfg = save;
	return suit;
}

int vying_survivors(const struct vying *v)
{
	unsigned m = 0;
	for (int s = 0; s < v->players; s++)
		if (v->in_deal[s] && !v->folded[s])
			m |= bit(s);
	return (int)m;
}

int vying_to_call(const struct vying *v, int seat)
{
	int c = v->high - v->stake[seat];
	if (c < 0)
		c = 0;
	return c < v->chips[seat] ? c : v->chips[seat];
}

int vying_call_short(const struct vying *v, int seat)
{
	int owed = v->high - v->stake[seat];
	return v->opened && !v->extra && owed > 0 && v->chips[seat] > 0 && v->chips[seat] <= owed;
}

int vying_straddle_name(const struct vying *v)
{
	if (v->offer == 2)
		return v->nchain >= 3 ? VY_SURCONTRECARRE : VY_SURCARRE;
	return v->nchain + 1 < VY_SURCARRE ? v->nchain + 1 : VY_QUADRICARRE;
}

int vying_may_raise(const struct vying *v, int seat)
{
	for (int s = 0; s < v->players; s++)
		if (s != seat && v->in_deal[s] && !v->folded[s] && v->chips[s] > 0)
			return 1;
	return 0;
}

int vying_min_open(const struct vying *v, int seat)
{
	int m = v->high - v->stake[seat];
	if (v->cfg.open_min_pot && v->dead > m)
		m = v->dead;
	return m < 1 ? 1 : m;
}

int vying_straddle_amount(const struct vying *v)
{
	return vying_pot(v);
}

int vying_card_points(card_t c)
{
	int r = card_rank(c);
	if (r == RANK_ACE)
		return 11;
	return r >= RANK_TEN ? 10 : r;
}

int vying_suit_points(const card_t hands[][4], unsigned dealt, card_t turn, int suit)
{
	int p = 0;
	for (int s = 0; s < VY_MAX; s++)
		if (dealt & bit(s))
			for (int i = 0; i < 3; i++)
				if (hands[s][i] && card_suit(hands[s][i]) == suit)
					p += vying_card_points(hands[s][i]);
	if (turn && card_suit(turn) == suit)
		p += vying_card_points(turn);
	return p;
}

static int red(int suit) { return suit == SUIT_HEARTS || suit == SUIT_DIAMONDS; }

int vying_combo(const struct vying_cfg *cfg, const card_t *h, card_t turn, int *rank)
{
	*rank = 0;
	if (!cfg->brelans)
		return VY_POINT;
	int r0 = card_rank(h[0]), r1 = card_rank(h[1]), r2 = card_rank(h[2]);
	if (r0 == r1 && r1 == r2) {
		*rank = r0;
		return turn && card_rank(turn) == r0 ? VY_CARRE : VY_BRELAN;
	}
	if (cfg->mistigri) {
		card_t qc = card_make(RANK_QUEEN, SUIT_CLUBS);
		for (int i = 0; i < 3; i++) {
			if (h[i] != qc)
				continue;
			card_t a = h[(i + 1) % 3], b = h[(i + 2) % 3];
			if (card_rank(a) == card_rank(b) && red(card_suit(a)) == red(card_suit(b))) {
				*rank = card_rank(a);
				return VY_MISTIGRI;
			}
		}
	}
	return VY_POINT;
}

int vying_primaute(const struct vying *v, int *order)
{
	int n = 0;
	for (int k = 1; k <= v->players; k++) {
		int t = (v->dealer + k) % v->players;
		if (v->in_deal[t])
			order[n++] = t;
	}
	return n;
}

static unsigned dealt_mask(const struct vying *v)
{
	unsigned m = 0;
	for (int s = 0; s < v->players; s++)
		if (v->in_deal[s])
			m |= bit(s);
	return m;
}

/* Highest card of a suit in a seat's hand, or 0. */
static int top_in_suit(const struct vying *v, int seat, int suit)
{
	int best = 0;
	for (int i = 0; i < 3; i++) {
		card_t c = v->hands[seat][i];
		if (c && card_suit(c) == suit && card_rank(c) > best)
			best = card_rank(c);
	}
	return best;
}

/* Which contender holds the highest card of suit (the first in the order
 * of primauté on a tie), or -1 when none holds the suit. */
static int suit_owner(const struct vying *v, const int *order, int n, unsigned contenders, int suit)
{
	int top = 0, owner = -1;
	for (int i = 0; i < n; i++) {
		int s = order[i];
		if (!(contenders & bit(s)))
			continue;
		int t = top_in_suit(v, s, suit);
		if (t > top) {
			top = t;
			owner = s;
		}
	}
	return owner;
}

int vying_best(const struct vying *v, unsigned contenders, int fixed_suit, int *kind, int *suit,
               int *points)
{
	int order[VY_MAX];
	int n = vying_primaute(v, order);
	*kind = VY_POINT;
	*suit = -1;
	*points = 0;
	/* Combinations first. */
	int best = -1, bk = VY_POINT, br = 0;
	for (int i = 0; i < n; i++) {
		int s = order[i];
		if (!(contenders & bit(s)))
			continue;
		int r, k = vying_combo(&v->cfg, v->hands[s], v->turn, &r);
		if (k > bk || (k == bk && k != VY_POINT && r > br)) {
			best = s;
			bk = k;
			br = r;
		}
	}
	if (best >= 0) {
		*kind = bk;
		return best;
	}
	unsigned dealt = dealt_mask(v);
	/* Bouillotte's later levels: the highest card of the fixed suit. */
	if (fixed_suit >= 0) {
		best = suit_owner(v, order, n, contenders, fixed_suit);
		if (best >= 0) {
			*suit = fixed_suit;
			*points = vying_suit_points(v->hands, dealt, v->turn, fixed_suit);
			return best;
		}
	}
	/* The point: each owned suit for its owner; most points; primaute. */
	int owner[SUIT_COUNT];
	for (int su = 0; su < SUIT_COUNT; su++)
		owner[su] = suit_owner(v, order, n, contenders, su);
	int bp = -1, bpos = 99;
	for (int su = 0; su < SUIT_COUNT; su++) {
		if (owner[su] < 0)
			continue;
		int p = vying_suit_points(v->hands, dealt, v->turn, su);
		int pos = 0;
		while (order[pos] != owner[su])
			pos++;
		if (p > bp || (p == bp && pos < bpos)) {
			bp = p;
			bpos = pos;
			best = owner[su];
			*suit = su;
		}
	}
	*points = bp < 0 ? 0 : bp;
	if (best < 0) {
		/* No contender holds any card (cannot happen with 3 cards each):
		 * primaute decides. */
		for (int i = 0; i < n; i++)
			if (contenders & bit(order[i]))
				return order[i];
	}
	return best;
}

int vying_levels(const struct vying *v, int *amounts, unsigned *contenders)
{
	int caps[VY_MAX + 1], nc = 0, top = 0;
	unsigned surv = (unsigned)vying_survivors(v);
	for (int s = 0; s < v->players; s++)
		if (v->stake[s] > top)
			top = v->stake[s];
	if (top == 0)
		return 0;
	for (int s = 0; s < v->players; s++) {
		if (!(surv & bit(s)) || v->chips[s] > 0 || v->stake[s] <= 0 || v->stake[s] >= top)
			continue;
		int dup = 0;
		for (int i = 0; i < nc; i++)
			dup |= caps[i] == v->stake[s];
		if (!dup)
			caps[nc++] = v->stake[s];
	}
	for (int i = 1; i < nc; i++)
		for (int j = i; j > 0 && caps[j - 1] > caps[j]; j--) {
			int t = caps[j];
			caps[j] = caps[j - 1];
			caps[j - 1] = t;
		}
	caps[nc++] = top;
	int prev = 0;
	for (int i = 0; i < nc; i++) {
		amounts[i] = 0;
		contenders[i] = 0;
		for (int s = 0; s < v->players; s++) {
			int hi = v->stake[s] < caps[i] ? v->stake[s] : caps[i];
			int lo = v->stake[s] < prev ? v->stake[s] : prev;
			amounts[i] += hi - lo;
			if ((surv & bit(s)) && (v->stake[s] >= caps[i] || v->chips[s] > 0))
				contenders[i] |= bit(s);
		}
		prev = caps[i];
	}
	return nc;
}

/* ---- events ---- */

/* ev_init leaves cards and card_seat alone: set who holds each card. */
static void ev_seats(struct event *e, int seat)
{
	for (int i = 0; i < e->ncards; i++)
		e->card_seat[i] = (signed char)seat;
}

static void ev_pay(const struct sink *out, int from, int to, int amount, enum ev_reason reason)
{
	if (amount > 0)
		ev_emit_payment(out, from, to, amount, reason);
}

/* A pot of the showdown won by w: which pot (1 the first) and its
 * contenders, for the speech (a later pot with one contender, won from
 * folded players, is said on its payment). */
static void pay_pot(const struct sink *out, int w, int amount, enum ev_reason reason, int pot, unsigned contenders)
{
	if (!out || amount <= 0)
		return;
	struct event e;
	ev_init(&e, EV_PAYMENT);
	e.from = -1;
	e.to = w;
	e.seat = w;
	e.amount = amount;
	e.reason = reason;
	e.pot = pot;
	e.winners = contenders;
	ev_emit(out, &e);
}


/* An applied action; value = the player's stake after it, code = the chips
 * left in front (for the speech's running totals), points = 1 in the extra
 * round. */
static void ev_act(const struct vying *v, const struct sink *out, int seat, int kind, int amount)
{
	struct event e;
	ev_init(&e, EV_ACTION);
	e.value = v->stake[seat] + (amount > 0 ? amount : 0);
	e.code = v->chips[seat] - (amount > 0 ? amount : 0);
	/* points: 1 in Bouillotte's extra round (a pass stands); for a
	 * straddle, which one (enum vy_straddle_name). */
	e.points = v->extra;
	if (kind == ACT_STRADDLE || kind == ACT_BUYBACK)
		e.points = vying_straddle_name(v);
	else if (kind == ACT_DECLINE) /* what was declined: the straddle offered, or 0 a cave */
		e.points = v->phase == VY_CAVE ? 0 : vying_straddle_name(v);
	e.seat = seat;
	e.act.kind = (unsigned char)kind;
	e.act.amount = amount < 0 ? 0 : amount;
	e.act.amount_max = e.act.amount;
	e.amount = amount;
	ev_emit(out, &e);
}

/* A player puts chips into the pot. */
static void put_in(struct vying *v, int seat, int amount, const struct sink *out, enum ev_reason reason)
{
	if (amount > v->chips[seat])
		amount = v->chips[seat];
	if (v->phase == VY_BET)
		v->vol[seat] += amount;
	v->chips[seat] -= amount;
	v->stake[seat] += amount;
	if (v->stake[seat] > v->high)
		v->high = v->stake[seat];
	ev_pay(out, seat, -1, amount, reason);
}

/* ---- the course of a deal ---- */

static void begin_deal(struct vying *v, const struct sink *out);
static void begin_betting(struct vying *v, const struct sink *out);
static void cave_offer_next(struct vying *v, const struct sink *out);
static void antes_and_chain(struct vying *v, const struct sink *out);

static void game_over(struct vying *v, const struct sink *out)
{
	v->phase = VY_OVER;
	v->to_act = -1;
	int st[VY_MAX];
	vying_standings(v, st);
	struct event e;
	ev_init(&e, EV_GAME_END);
	e.values_kind = EV_VALUES_STANDINGS;
	e.nvalues = v->players;
	int best = -1;
	for (int s = 0; s < v->players; s++) {
		e.values[s] = st[s];
		if (best < 0 || st[s] > best)
			best = st[s];
	}
	for (int s = 0; s < v->players; s++)
		if (st[s] == best)
			e.winners |= bit(s);
	e.winner = popcount(e.winners) == 1 ? __builtin_ctz(e.winners) : -1;
	ev_emit(out, &e);
}

/* Every chip at the table, bought in (caves waiting included). */
static long chips_bought(const struct vying *v)
{
	long n = 0;
	for (int s = 0; s < v->players; s++)
		n += v->bought[s];
	return n;
}

/* After a deal: hand_end, rebuys, leavers, then the next deal or the end. */
static void end_deal(struct vying *v, const struct sink *out)
{
	for (int s = 0; s < v->players; s++)
		v->stake[s] = 0;
	v->high = 0;
	struct event e;
	ev_init(&e, EV_HAND_END);
	e.hand = v->hand;
	e.dealer = v->dealer;
	e.values_kind = EV_VALUES_CHIPS;
	e.nvalues = v->players;
	for (int s = 0; s < v->players; s++)
		e.values[s] = v->chips[s];
	e.pot = v->dead;
	ev_emit(out, &e);
	for (int s = 0; s < v->players; s++) {
		if (v->out[s] || v->chips[s] > 0)
			continue;
		if (v->reserve[s] >= v->cfg.cave && v->cfg.cave > 0) {
			v->reserve[s] -= v->cfg.cave;
			v->chips[s] += v->cfg.cave;
			ev_emit_phase(out, EV_NOTE_RECAVE, s, 0, v->cfg.cave);
		} else if (v->cfg.rebuy && chips_bought(v) <= VY_CHIPS_MAX - v->cfg.cave) {
			v->bought[s] += v->cfg.cave;
			v->chips[s] += v->cfg.cave;
			ev_emit_phase(out, EV_NOTE_REBUY, s, 0, v->cfg.cave);
		} else {
			v->out[s] = 1;
			v->in_deal[s] = 0;
			ev_emit_phase(out, EV_NOTE_OUT, s, 0, 0);
		}
	}
	if (nactive(v) <= 1) {
		/* Chips left in the pot go to the last player. */
		for (int s = 0; s < v->players; s++)
			if (!v->out[s] && v->dead > 0) {
				v->chips[s] += v->dead;
				ev_pay(out, -1, s, v->dead, EV_PAY_POT);
				v->dead = 0;
			}
		game_over(v, out);
		return;
	}
	if (v->cfg.hands > 0 && v->hand >= v->cfg.hands) {
		game_over(v, out);
		return;
	}
	v->dealer = next_active(v, v->dealer);
	begin_deal(v, out);
}

/* The pot goes to one player without a showdown. What nobody matched of
 * the winner's stake (a bet or an all-in everyone folded to) comes back
 * first, as at a showdown; the rest is what was won. */
static void win_uncontested(struct vying *v, int w, const struct sink *out)
{
	int pot = vying_pot(v), matched = 0;
	for (int s = 0; s < v->players; s++)
		if (s != w && v->stake[s] > matched)
			matched = v->stake[s];
	int back = v->stake[w] > matched ? v->stake[w] - matched : 0;
	v->chips[w] += pot;
	ev_pay(out, -1, w, back, EV_PAY_RETURN);
	v->dead = 0;
	v->nwins = 1;
	v->win_seat[0] = w;
	v->win_amount[0] = pot - back;
	v->win_kind[0] = -1;
	v->win_suit[0] = -1;
	v->win_seat[1] = -1;
	v->carried = 0;
	ev_pay(out, -1, w, pot - back, EV_PAY_UNCONTESTED);
	v->to_act = -1;
	end_deal(v, out);
}

/* Nobody opened (and no straddle): the cards are thrown in, the pot stays. */
static void throw_in(struct vying *v, const struct sink *out)
{
	for (int s = 0; s < v->players; s++) {
		v->dead += v->stake[s];
		v->stake[s] = 0;
	}
	v->carried = 1;
	v->nwins = 0;
	v->win_seat[0] = -1;
	ev_emit_phase(out, EV_NOTE_ALL_PASSED, -1, 0, v->dead);
	v->to_act = -1;
	end_deal(v, out);
}

static void brelan_payments(struct vying *v, const struct sink *out)
{
	if (!v->cfg.brelan_pay || !v->cfg.brelans)
		return;
	int order[VY_MAX], n = vying_primaute(v, order), due[VY_MAX];
	for (int i = 0; i < n; i++) {
		int r, k = vying_combo(&v->cfg, v->hands[order[i]], v->turn, &r);
		due[order[i]] = k == VY_CARRE ? 2 * v->cfg.brelan_pay : k == VY_BRELAN ? v->cfg.brelan_pay : 0;
	}
	for (int i = 0; i < n; i++) {
		int h = order[i];
		if (!due[h])
			continue;
		for (int j = 0; j < n; j++) {
			int p = order[j];
			if (p == h)
				continue;
			int net = due[h] - due[p];
			if (net <= 0)
				continue;
			if (net > v->chips[p])
				net = v->chips[p];
			v->chips[p] -= net;
			v->chips[h] += net;
			ev_pay(out, p, h, net, due[h] > v->cfg.brelan_pay ? EV_PAY_CARRE : EV_PAY_BRELAN);
		}
	}
}

static void showdown(struct vying *v, const struct sink *out)
{
	unsigned surv = (unsigned)vying_survivors(v);
	int rem[VY_MAX];
	for (int s = 0; s < v->players; s++)
		rem[s] = v->stake[s];
	int dead = v->dead;
	int fixed = -1;
	v->nwins = 0;
	unsigned cont = surv;
	int first = 1;
	unsigned winners = 0;
	/* Plan the stages. */
	int ws[VY_MAX + 1], wa[VY_MAX + 1], wb[VY_MAX + 1], wk[VY_MAX + 1], wsu[VY_MAX + 1], wp[VY_MAX + 1];
	unsigned wc[VY_MAX + 1];
	int nst = 0;
	for (;;) {
		if (!first) {
			cont = 0;
			for (int s = 0; s < v->players; s++)
				if ((surv & bit(s)) && rem[s] > 0)
					cont |= bit(s);
		}
		if (!cont)
			break;
		int kind, suit, points;
		int w = vying_best(v, cont, fixed, &kind, &suit, &points);
		if (first && v->cfg.fixed_suit)
			fixed = vying_point_suit(v, cont);
		/* The winner's chips that no other player (folded or not) matched
		 * in this stage are not won: they come back, and are said so. */
		int cap = rem[w], take = first ? dead : 0, matched = 0;
		for (int s = 0; s < v->players; s++) {
			int t = rem[s] < cap ? rem[s] : cap;
			if (s != w && t > matched)
				matched = t;
			rem[s] -= t;
			take += t;
		}
		ws[nst] = w;
		wb[nst] = cap - matched;
		wa[nst] = take - wb[nst];
		wk[nst] = kind;
		wsu[nst] = kind == VY_POINT ? suit : -1;
		wp[nst] = points;
		wc[nst] = cont;
		nst++;
		first = 0;
		if (nst > VY_MAX)
			break;
	}
	for (int i = 0; i < nst; i++)
		if (popcount(wc[i]) > 1 || i == 0)
			winners |= bit(ws[i]);
	struct event e;
	ev_init(&e, EV_SHOWDOWN);
	int order[VY_MAX], n = vying_primaute(v, order);
	for (int i = 0; i < n; i++)
		for (int c = 0; c < 3; c++) {
			e.cards[e.ncards] = v->hands[order[i]][c];
			e.card_seat[e.ncards++] = (signed char)order[i];
		}
	/* For the speech (the table phrases events after the whole action,
	 * when the next deal may have begun): the turned card in cards2 and
	 * the mask of the seats that had folded in amount. */
	e.cards2[0] = v->turn;
	e.ncards2 = 1;
	e.amount = 0;
	for (int s = 0; s < v->players; s++)
		if (v->in_deal[s] && v->folded[s])
			e.amount |= (int)bit(s);
	e.winner = ws[0];
	e.winners = winners;
	e.code = wk[0];
	e.value = wsu[0];
	e.points = wp[0];
	v->shown = 1;
	ev_emit(out, &e);
	for (int i = 0; i < nst; i++) {
		int w = ws[i];
		if (popcount(wc[i]) > 1 || i == 0) {
			struct event d;
			ev_init(&d, EV_DECLARE);
			d.seat = w;
			d.code = wk[i];
			d.value = wsu[i];
			d.points = wp[i];
			d.winner = w;
			if (wk[i] == VY_POINT) {
				for (int c = 0; c < 3; c++)
					if (v->hands[w][c] && card_suit(v->hands[w][c]) == wsu[i])
						d.cards[d.ncards++] = v->hands[w][c];
			} else {
				for (int c = 0; c < 3; c++)
					d.cards[d.ncards++] = v->hands[w][c];
			}
			d.amount = wa[i];
			d.pot = i + 1;      /* which pot: 1 the first, 2 the next... */
			d.winners = wc[i];  /* its contenders */
			ev_seats(&d, w);
			ev_emit(out, &d);
		}
		v->chips[w] += wa[i] + wb[i];
		pay_pot(out, w, wa[i], i == 0 ? EV_PAY_POT : EV_PAY_SIDE_POT, i + 1, wc[i]);
		v->win_seat[i] = w;
		v->win_amount[i] = wa[i];
		v->win_kind[i] = wk[i];
		v->win_suit[i] = wsu[i];
	}
	/* Each winner's chips nobody matched, after the pots. */
	for (int i = 0; i < nst; i++)
		ev_pay(out, -1, ws[i], wb[i], EV_PAY_RETURN);
	/* What no survivor could match (a straddler who folded over short
	 * all-ins) goes back to its owner. */
	for (int s = 0; s < v->players; s++)
		if (rem[s] > 0) {
			v->chips[s] += rem[s];
			ev_pay(out, -1, s, rem[s], EV_PAY_RETURN);
		}
	v->nwins = nst;
	v->win_seat[nst] = -1;
	v->dead = 0;
	for (int s = 0; s < v->players; s++)
		v->stake[s] = 0;
	v->carried = 0;
	brelan_payments(v, out);
	v->to_act = -1;
	end_deal(v, out);
}

/* ---- straddles ---- */

static void deal_cards(struct vying *v, const struct sink *out)
{
	int pos = 0;
	for (int r = 0; r < 3; r++)
		for (int k = 1; k <= v->players; k++) {
			int s = (v->dealer + k) % v->players;
			if (v->in_deal[s])
				v->hands[s][r] = v->pack[pos++];
		}
	v->turn = v->pack[pos];
	v->dealt = 1;
	for (int k = 1; k <= v->players; k++) {
		int s = (v->dealer + k) % v->players;
		if (!v->in_deal[s])
			continue;
		ev_emit_deal(out, s, v->hands[s], 3);
	}
	struct event t;
	ev_init(&t, EV_TURNUP);
	t.ncards = 1;
	t.cards[0] = v->turn;
	t.value = vying_pot(v); /* the pot on the table when the cards are seen */
	ev_seats(&t, -1);
	ev_emit(out, &t);
}

static void end_chain(struct vying *v, const struct sink *out)
{
	v->offer = 0;
	deal_cards(v, out);
	begin_betting(v, out);
}

static int can_straddle(const struct vying *v, int seat)
{
	int amt = vying_straddle_amount(v);
	return amt > 0 && v->chips[seat] >= amt;
}

/* Offer the next seat of the chain a straddle, or end the chain. */
static void offer_next_seat(struct vying *v, const struct sink *out)
{
	int n = 0;
	for (int s = 0; s < v->players; s++)
		n += v->in_deal[s];
	if (v->steps < v->cfg.straddle_max && v->nchain < n && can_straddle(v, v->chain[v->nchain])) {
		v->offer = 1;
		v->to_act = v->chain[v->nchain];
		return;
	}
	end_chain(v, out);
}

static void do_straddle(struct vying *v, int seat, int kind, const struct sink *out)
{
	int amt = vying_straddle_amount(v);
	ev_act(v, out, seat, kind, amt);
	put_in(v, seat, amt, out, kind == ACT_BUYBACK ? EV_PAY_BUYBACK : EV_PAY_STRADDLE);
	v->steps++;
	v->nstraddles[seat]++;
	v->last_straddler = seat;
}

/* After a new seat straddled: buy-back for the previous one, or the next seat. */
static void after_straddle(struct vying *v, const struct sink *out)
{
	if (v->nchain >= 2 && v->cfg.buyback && v->steps < v->cfg.straddle_max &&
	    can_straddle(v, v->chain[v->nchain - 2])) {
		v->offer = 2;
		v->to_act = v->chain[v->nchain - 2];
		return;
	}
	offer_next_seat(v, out);
}

static void begin_deal(struct vying *v, const struct sink *out)
{
	v->hand++;
	v->phase = VY_STRADDLE;
	memset(v->hands, 0, sizeof v->hands);
	v->turn = CARD_NONE;
	v->dealt = v->shown = 0;
	v->opened = v->extra = v->called3 = 0;
	v->need = 0;
	v->last_bettor = v->last_straddler = -1;
	v->nchain = v->steps = v->offer = 0;
	v->high = 0;
	v->nwins = 0;
	v->win_seat[0] = -1;
	for (int s = 0; s < v->players; s++) {
		v->in_deal[s] = !v->out[s];
		v->folded[s] = 0;
		v->stake[s] = 0;
		v->nstraddles[s] = 0;
		v->vol[s] = 0;
		v->due[s] = 0;
	}
	/* The pack. */
	const struct deckstack *ds = v->stack;
	deckfile_deal_pack(ds, v->deal_k, v->cfg.pack, v->cfg.npack, &v->rng, v->pack);
	v->npack = v->cfg.npack;
	v->deal_k++;
	struct event e;
	ev_init(&e, EV_HAND_START);
	e.hand = v->hand;
	e.dealer = v->dealer;
	e.seat = v->dealer;
	e.visible = 0;
	e.ncards = v->npack;
	memcpy(e.cards, v->pack, (size_t)v->npack);
	ev_seats(&e, -1);
	ev_emit(out, &e);
	v->cave_idx = 0;
	cave_offer_next(v, out);
}

/* Brelan cave: offer a waiting cave to the next player who may add one,
 * or go on to the antes. */
static int may_add_cave(const struct vying *v, int s)
{
	return v->cfg.caves > 1 && v->in_deal[s] && v->reserve[s] >= v->cfg.cave && v->chips[s] < v->cfg.cave;
}

static void cave_offer_next(struct vying *v, const struct sink *out)
{
	while (v->cave_idx < v->players) {
		int s = (v->dealer + 1 + v->cave_idx) % v->players;
		if (may_add_cave(v, s)) {
			v->phase = VY_CAVE;
			v->to_act = s;
			return;
		}
		v->cave_idx++;
	}
	v->phase = VY_STRADDLE;
	antes_and_chain(v, out);
}

static void antes_and_chain(struct vying *v, const struct sink *out)
{
	/* Antes / passe. */
	enum ev_reason why = v->cfg.antes_stake ? EV_PAY_ANTE : EV_PAY_PASSE;
	int prev_paid[VY_MAX];
	memcpy(prev_paid, v->paid_passe, sizeof prev_paid);
	for (int k = 1; k <= v->players; k++) {
		int s = (v->dealer + k) % v->players;
		v->paid_passe[s] = 0;
		if (!v->in_deal[s] || v->cfg.ante_none)
			continue;
		int amt;
		if (v->carried && v->cfg.carry_dealer)
			amt = s == v->dealer ? 1 : 0;
		else if (v->carried && v->cfg.ante_all)
			amt = prev_paid[s] ? v->cfg.ante_chips : 0; /* the passe doubles, triples... */
		else if (v->cfg.ante_all)
			amt = v->cfg.ante_chips + (s == v->dealer ? v->cfg.dealer_extra : 0);
		else
			amt = s == v->dealer ? v->cfg.ante_chips : 0;
		if (amt > v->chips[s])
			amt = v->chips[s];
		if (amt <= 0)
			continue;
		v->paid_passe[s] = 1;
		if (v->cfg.antes_stake) {
			put_in(v, s, amt, out, why);
			v->due[s] += amt;
		} else {
			v->chips[s] -= amt;
			v->dead += amt;
			ev_pay(out, s, -1, amt, why);
		}
	}
	/* When a carried deal had no payer left, the passe starts afresh. */
	/* The straddle chain: seats from dealer+1 to the dealer. */
	int n = 0;
	for (int k = 1; k <= v->players; k++) {
		int s = (v->dealer + k) % v->players;
		if (v->in_deal[s])
			v->chain[n++] = s;
	}
	if (v->cfg.straddle == VY_STRADDLE_NO) {
		end_chain(v, out);
		return;
	}
	if (v->cfg.straddle == VY_STRADDLE_FORCED && can_straddle(v, v->chain[0]) && v->cfg.straddle_max > 0) {
		int amt = vying_straddle_amount(v);
		ev_emit_phase(out, EV_NOTE_FORCED_STRADDLE, v->chain[0], 0, amt);
		put_in(v, v->chain[0], amt, out, EV_PAY_STRADDLE);
		v->steps++;
		v->nstraddles[v->chain[0]]++;
		v->last_straddler = v->chain[0];
		v->nchain = 1;
		after_straddle(v, out);
		return;
	}
	offer_next_seat(v, out);
}

/* ---- betting ---- */

static unsigned can_act_mask(const struct vying *v)
{
	unsigned m = 0;
	for (int s = 0; s < v->players; s++)
		if (v->in_deal[s] && !v->folded[s] && v->chips[s] > 0)
			m |= bit(s);
	return m;
}

static int preopen_eligible(const struct vying *v, int s)
{
	if (!v->in_deal[s] || v->folded[s])
		return 0;
	return v->cfg.short_open || v->chips[s] > 0;
}

static void showdown_or_extra(struct vying *v, const struct sink *out);

/* The next seat of the round after `from`, or the end of the round. */
static void next_in_round(struct vying *v, int from, const struct sink *out)
{
	for (int k = 1; k <= v->players; k++) {
		int t = (from + k) % v->players;
		if (v->need & bit(t)) {
			v->to_act = t;
			return;
		}
	}
	showdown_or_extra(v, out);
}

static void showdown_or_extra(struct vying *v, const struct sink *out)
{
	unsigned surv = (unsigned)vying_survivors(v);
	if (popcount(surv) == 1) {
		win_uncontested(v, __builtin_ctz(surv), out);
		return;
	}
	/* The extra round is owed when the last bet was called while three or
	 * more were in (a later fold does not cancel it), and only while two
	 * survivors still have chips: with everyone else all in nobody could
	 * answer a raise. */
	if (v->cfg.extra_round && !v->extra && (popcount(surv) >= 3 || v->called3) &&
	    popcount(can_act_mask(v)) >= 2) {
		v->extra = 1;
		v->need = can_act_mask(v) & ~(v->last_bettor >= 0 ? bit(v->last_bettor) : 0u);
		if (v->need) {
			ev_emit_phase(out, EV_NOTE_EXTRA_ROUND, v->last_bettor, 0, 0);
			next_in_round(v, v->last_bettor >= 0 ? v->last_bettor : v->dealer, out);
			return;
		}
	}
	showdown(v, out);
}

/* Before the opening: the next seat that may speak, the straddler's win, or
 * everybody passed. */
static void preopen_next(struct vying *v, const struct sink *out)
{
	while (v->pidx < v->norder && !preopen_eligible(v, v->order[v->pidx]))
		v->pidx++;
	if (v->pidx >= v->norder) {
		int could = 0;
		for (int i = 0; i < v->norder; i++)
			could |= v->chips[v->order[i]] > 0 || v->cfg.short_open;
		if (v->last_straddler >= 0)
			win_uncontested(v, v->last_straddler, out);
		else if (could)
			throw_in(v, out);
		else
			showdown(v, out); /* the antes took everybody's last chip */
		return;
	}
	int s = v->order[v->pidx];
	if (s == v->last_straddler) {
		win_uncontested(v, s, out);
		return;
	}
	v->to_act = s;
}

static void begin_betting(struct vying *v, const struct sink *out)
{
	v->phase = VY_BET;
	int first = next_in(v, v->last_straddler >= 0 ? v->last_straddler : v->dealer);
	if (v->cfg.straddle_opens && v->last_straddler >= 0) {
		v->opened = 1;
		v->last_bettor = -1;
		v->need = can_act_mask(v);
		next_in_round(v, (first + v->players - 1) % v->players, out);
		return;
	}
	v->norder = 0;
	for (int k = 0; k < v->players; k++) {
		int s = (first + k) % v->players;
		if (v->in_deal[s])
			v->order[v->norder++] = s;
	}
	v->pidx = 0;
	preopen_next(v, out);
}

/* ---- the interface ---- */

int vying_init(struct vying *v, const struct game_setup *setup, const struct vying_cfg *cfg,
               char *err, size_t errlen)
{
	if (setup->players < 2 || setup->players > VY_MAX)
		return errf(err, errlen, "2 to %d players", VY_MAX);
	if (cfg->npack < 3 * setup->players + 1)
		return errf(err, errlen, "a pack of %d cards is too small for %d players", cfg->npack,
		            setup->players);
	memset(v, 0, sizeof *v);
	v->players = setup->players;
	v->cfg = *cfg;
	if (v->cfg.caves < 1)
		v->cfg.caves = 1;
	rng_seed(&v->rng, setup->seed);
	v->stack = setup->stack;
	v->dealer = setup->dealer >= 0 && setup->dealer < v->players
	                    ? setup->dealer
	                    : (int)rng_below(&v->rng, (uint32_t)v->players);
	for (int s = 0; s < v->players; s++) {
		v->chips[s] = v->cfg.cave;
		v->reserve[s] = v->cfg.cave * (v->cfg.caves - 1);
		v->bought[s] = v->cfg.cave * v->cfg.caves;
	}
	v->phase = VY_STRADDLE;
	v->to_act = -1;
	v->last_bettor = v->last_straddler = -1;
	v->win_seat[0] = -1;
	return 0;
}

void vying_start(struct vying *v, const struct sink *out)
{
	begin_deal(v, out);
}

int vying_to_act(const struct vying *v)
{
	return v->phase == VY_OVER ? -1 : v->to_act;
}

static void add(struct action *out, int *n, int max, int kind, int amount, int amount_max)
{
	if (*n >= max)
		return;
	struct action a = act_simple(kind);
	a.amount = amount;
	a.amount_max = amount_max;
	out[(*n)++] = a;
}

int vying_legal(const struct vying *v, struct action *out, int max)
{
	int n = 0, s = v->to_act;
	if (v->phase == VY_OVER || s < 0)
		return 0;
	if (v->phase == VY_CAVE) {
		add(out, &n, max, ACT_TAKE, v->cfg.cave, v->cfg.cave);
		add(out, &n, max, ACT_DECLINE, 0, 0);
		return n;
	}
	if (v->phase == VY_STRADDLE) {
		int amt = vying_straddle_amount(v);
		add(out, &n, max, v->offer == 2 ? ACT_BUYBACK : ACT_STRADDLE, amt, amt);
		add(out, &n, max, ACT_DECLINE, 0, 0);
		return n;
	}
	int chips = v->chips[s];
	if (!v->opened) {
		add(out, &n, max, ACT_PASS, 0, 0);
		int m = vying_min_open(v, s);
		/* With every other player all in, more than the opening could
		 * not be answered. */
		int may_raise = vying_may_raise(v, s);
		if (chips >= m) {
			add(out, &n, max, ACT_OPEN, m, may_raise ? chips : m);
			if (may_raise || chips == m)
				add(out, &n, max, ACT_ALLIN, chips, chips);
		} else if (v->cfg.short_open) {
			add(out, &n, max, ACT_ALLIN, chips, chips);
		}
		return n;
	}
	if (v->extra) {
		add(out, &n, max, ACT_PASS, 0, 0);
		if (chips > 0) {
			add(out, &n, max, ACT_RAISE, 1, chips);
			add(out, &n, max, ACT_ALLIN, chips, chips);
		}
		return n;
	}
	int call = vying_to_call(v, s);
	/* Call first and fold last: the action menu opens on the first item.
	 * A player holding no more than the bet has a call and an all-in of
	 * the same chips: the menu shows them as one (view.c). */
	add(out, &n, max, ACT_CALL, call, call);
	int may_raise = vying_may_raise(v, s);
	if (chips > v->high - v->stake[s] && may_raise)
		add(out, &n, max, ACT_RAISE, v->high - v->stake[s] + 1, chips);
	if (chips > 0 && (may_raise || chips <= v->high - v->stake[s]))
		add(out, &n, max, ACT_ALLIN, chips, chips);
	add(out, &n, max, ACT_FOLD, 0, 0);
	return n;
}

static int refuse(struct refusal *why, int code, int amount)
{
	if (why) {
		memset(why, 0, sizeof *why);
		why->code = code;
		why->suit = -1;
		why->amount = amount;
		why->amount2 = -1;
	}
	return -1;
}

/* A call of the last bet: with three or more in, it owes Bouillotte's
 * extra round whatever folds come after. */
static void note_call(struct vying *v)
{
	if (popcount((unsigned)vying_survivors(v)) >= 3)
		v->called3 = 1;
}

/* A call (kind ACT_CALL, or ACT_ALLIN short of the bet) of `amt` chips by
 * s: the round goes on. */
static void call(struct vying *v, int s, int kind, int amt, enum ev_reason reason, const struct sink *out)
{
	note_call(v);
	ev_act(v, out, s, kind, amt);
	put_in(v, s, amt, out, reason);
	v->need &= ~bit(s);
	next_in_round(v, s, out);
}

/* A bet (open or raise) of `amt` chips by s: new round. */
static void bet(struct vying *v, int s, int kind, int amt, const struct sink *out)
{
	ev_act(v, out, s, kind, amt);
	put_in(v, s, amt, out, kind == ACT_OPEN ? EV_PAY_OPEN : kind == ACT_RAISE ? EV_PAY_RAISE : EV_PAY_ALLIN);
	v->opened = 1;
	v->extra = 0;
	v->called3 = 0;
	v->last_bettor = s;
	v->need = can_act_mask(v) & ~bit(s);
	next_in_round(v, s, out);
}

/* The waiting caves offered before the deal (Brelan cavé): take or decline. */
static int apply_cave(struct vying *v, int s, int k, const struct sink *out, struct refusal *why)
{
	if (k == ACT_TAKE) {
		ev_act(v, out, s, ACT_TAKE, -1);
		v->reserve[s] -= v->cfg.cave;
		v->chips[s] += v->cfg.cave;
		ev_emit_phase(out, EV_NOTE_ADD_CAVE, s, 0, v->cfg.cave);
	} else if (k == ACT_DECLINE) {
		ev_act(v, out, s, ACT_DECLINE, -1);
	} else {
		return refuse(why, VY_REF_CAVE_NOW, v->cfg.cave);
	}
	v->cave_idx++;
	cave_offer_next(v, out);
	return 0;
}

/* The straddles (carres) offered before the deal: decline, straddle, buy back. */
static int apply_straddle(struct vying *v, int s, int k, const struct sink *out, struct refusal *why)
{
	if (k == ACT_DECLINE) {
		ev_act(v, out, s, ACT_DECLINE, -1);
		if (v->offer == 2)
			offer_next_seat(v, out);
		else
			end_chain(v, out);
		return 0;
	}
	if (k == ACT_STRADDLE && v->offer == 1) {
		do_straddle(v, s, ACT_STRADDLE, out);
		v->nchain++;
		after_straddle(v, out);
		return 0;
	}
	if (k == ACT_BUYBACK && v->offer == 2) {
		do_straddle(v, s, ACT_BUYBACK, out);
		end_chain(v, out);
		return 0;
	}
	if (k == ACT_BUYBACK)
		return refuse(why, VY_REF_NO_BUYBACK, -1);
	return refuse(why, VY_REF_STRADDLE_NOW, vying_straddle_amount(v));
}

/* A pass: before the opening, or standing in the extra round. */
static int apply_pass(struct vying *v, int s, const struct sink *out, struct refusal *why)
{
	if (v->opened && !v->extra)
		return refuse(why, VY_REF_OPENED, -1);
	ev_act(v, out, s, ACT_PASS, -1);
	if (v->extra) {
		v->need &= ~bit(s);
		next_in_round(v, s, out);
	} else {
		v->pidx++;
		preopen_next(v, out);
	}
	return 0;
}

/* A bet of a->amount (kind ACT_OPEN or ACT_RAISE) when it is at least m
 * (else refused with `below`) and s has it. */
static int bet_amount(struct vying *v, int s, int kind, int m, int below, const struct action *a,
                      const struct sink *out, struct refusal *why)
{
	int chips = v->chips[s];
	if (chips < m)
		return refuse(why, VY_REF_SHORT, m);
	if (a->amount < m)
		return refuse(why, below, m);
	if (a->amount > chips)
		return refuse(why, VY_REF_TOO_MANY, chips);
	bet(v, s, kind, a->amount, out);
	return 0;
}

/* The opening bet. */
static int apply_open(struct vying *v, int s, const struct action *a, const struct sink *out, struct refusal *why)
{
	if (v->opened)
		return refuse(why, VY_REF_OPENED, -1);
	int m = vying_min_open(v, s);
	if (a->amount > m && v->chips[s] >= a->amount && !vying_may_raise(v, s))
		return refuse(why, VY_REF_NO_RAISE, m);
	return bet_amount(v, s, ACT_OPEN, m, VY_REF_MIN_OPEN, a, out, why);
}

/* All in: an opening, a raise, or a call of what one has. */
static int apply_allin(struct vying *v, int s, const struct sink *out, struct refusal *why)
{
	int chips = v->chips[s];
	if (!v->opened) {
		int m = vying_min_open(v, s);
		if (chips < m && !v->cfg.short_open)
			return refuse(why, VY_REF_SHORT, m);
		if (chips > m && !vying_may_raise(v, s))
			return refuse(why, VY_REF_NO_RAISE, m);
		bet(v, s, ACT_ALLIN, chips, out);
		return 0;
	}
	if (chips == 0)
		return refuse(why, VY_REF_TOO_MANY, 0);
	if (chips > v->high - v->stake[s]) {
		if (!vying_may_raise(v, s))
			return refuse(why, VY_REF_NO_RAISE, -1);
		bet(v, s, ACT_ALLIN, chips, out);
		return 0;
	}
	if (v->extra)
		return refuse(why, VY_REF_EXTRA_ROUND, -1);
	call(v, s, ACT_ALLIN, chips, EV_PAY_ALLIN, out);
	return 0;
}

/* A call of the last bet. */
static int apply_call(struct vying *v, int s, const struct sink *out, struct refusal *why)
{
	if (!v->opened)
		return refuse(why, VY_REF_NOT_OPENED, -1);
	if (v->extra)
		return refuse(why, VY_REF_EXTRA_ROUND, -1);
	call(v, s, ACT_CALL, vying_to_call(v, s), EV_PAY_CALL, out);
	return 0;
}

/* A raise. */
static int apply_raise(struct vying *v, int s, const struct action *a, const struct sink *out, struct refusal *why)
{
	if (!v->opened)
		return refuse(why, VY_REF_NOT_OPENED, -1);
	if (!vying_may_raise(v, s))
		return refuse(why, VY_REF_NO_RAISE, -1);
	return bet_amount(v, s, ACT_RAISE, v->high - v->stake[s] + 1, VY_REF_MIN_RAISE, a, out, why);
}

/* A fold; the last one in takes the pot. */
static int apply_fold(struct vying *v, int s, const struct sink *out, struct refusal *why)
{
	if (!v->opened)
		return refuse(why, VY_REF_NOT_OPENED, -1);
	if (v->extra)
		return refuse(why, VY_REF_EXTRA_ROUND, -1);
	ev_act(v, out, s, ACT_FOLD, -1);
	v->folded[s] = 1;
	v->need &= ~bit(s);
	if (popcount((unsigned)vying_survivors(v)) == 1) {
		win_uncontested(v, __builtin_ctz((unsigned)vying_survivors(v)), out);
		return 0;
	}
	next_in_round(v, s, out);
	return 0;
}

int vying_apply(struct vying *v, const struct action *a, const struct sink *out, struct refusal *why)
{
	if (why)
		memset(why, 0, sizeof *why);
	int s = v->to_act;
	if (v->phase == VY_OVER || s < 0)
		return refuse(why, VY_REF_OVER, -1);
	int k = a->kind;
	if (v->phase == VY_CAVE)
		return apply_cave(v, s, k, out, why);
	if (v->phase == VY_STRADDLE)
		return apply_straddle(v, s, k, out, why);
	switch (k) {
	case ACT_STRADDLE:
	case ACT_DECLINE:
		return refuse(why, VY_REF_NO_STRADDLE, -1);
	case ACT_BUYBACK:
		return refuse(why, VY_REF_NO_BUYBACK, -1);
	case ACT_PASS:
		return apply_pass(v, s, out, why);
	case ACT_OPEN:
		return apply_open(v, s, a, out, why);
	case ACT_ALLIN:
		return apply_allin(v, s, out, why);
	case ACT_CALL:
		return apply_call(v, s, out, why);
	case ACT_RAISE:
		return apply_raise(v, s, a, out, why);
	case ACT_FOLD:
		return apply_fold(v, s, out, why);
	default:
		return refuse(why, VY_REF_UNKNOWN, -1);
	}
}

int vying_hand(const struct vying *v, int seat, card_t *out)
{
	if (seat < 0 || seat >= v->players || !v->dealt || !v->in_deal[seat] || !v->hands[seat][0])
		return 0;
	int n = 0;
	for (int i = 0; i < 3; i++)
		if (v->hands[seat][i])
			out[n++] = v->hands[seat][i];
	card_sort(out, n, NULL);
	return n;
}

void vying_redact(struct vying *v, int seat)
{
	memset(v->pack, 0, sizeof v->pack);
	memset(&v->rng, 0, sizeof v->rng);
	if (v->shown)
		return;
	for (int s = 0; s < v->players; s++)
		if (s != seat)
			memset(v->hands[s], 0, sizeof v->hands[s]);
}

void vying_resample(struct vying *v, int seat, struct rng *rng)
{
	if (!v->dealt || v->shown)
		return;
	card_t pool[VY_MAX_PACK];
	int n = 0;
	for (int i = 0; i < v->cfg.npack; i++) {
		card_t c = v->cfg.pack[i];
		if (c == v->turn || card_find(v->hands[seat], 3, c) >= 0)
			continue;
		pool[n++] = c;
	}
	card_shuffle(pool, n, rng);
	int pos = 0;
	for (int s = 0; s < v->players; s++)
		if (s != seat && v->in_deal[s])
			for (int i = 0; i < 3; i++)
				v->hands[s][i] = pool[pos++];
}

int vying_standings(const struct vying *v, int *out)
{
	for (int s = 0; s < v->players; s++)
		out[s] = v->chips[s] + v->reserve[s] - v->bought[s];
	return v->players;
}

int vying_hand_number(const struct vying *v) { return v->hand; }
int vying_dealer(const struct vying *v) { return v->dealer; }

int vying_audit(const struct vying *v, char *err, size_t errlen)
{
	long have = v->dead, bought = 0;
	if (v->dead < 0)
		return errf(err, errlen, "negative pot");
	for (int s = 0; s < v->players; s++) {
		if (v->chips[s] < 0 || v->stake[s] < 0 || v->reserve[s] < 0)
			return errf(err, errlen, "seat %d: negative chips or stake", s);
		have += v->chips[s] + v->reserve[s] + v->stake[s];
		bought += v->bought[s];
		if (v->out[s] && (v->stake[s] || v->in_deal[s]))
			return errf(err, errlen, "seat %d is out but plays", s);
	}
	if (have != bought)
		return errf(err, errlen, "chips %ld != bought %ld", have, bought);
	if (bought > VY_CHIPS_MAX)
		return errf(err, errlen, "%ld chips bought, beyond the bound of %d", bought, VY_CHIPS_MAX);
	if (v->phase == VY_OVER)
		return 0;
	/* The pack is the game's pack. */
	if (v->npack != v->cfg.npack || !card_same_multiset(v->pack, v->npack, v->cfg.pack, v->cfg.npack))
		return errf(err, errlen, "the deal's pack is not the game's pack");
	if (v->dealt) {
		card_t seen[VY_MAX_PACK];
		int n = 0;
		for (int s = 0; s < v->players; s++) {
			if (!v->in_deal[s])
				continue;
			for (int i = 0; i < 3; i++) {
				card_t c = v->hands[s][i];
				if (card_find(v->pack, v->npack, c) < 0 || card_find(seen, n, c) >= 0)
					return errf(err, errlen, "seat %d holds a card twice or not in the pack", s);
				seen[n++] = c;
			}
		}
		if (card_find(seen, n, v->turn) >= 0 || card_find(v->pack, v->npack, v->turn) < 0)
			return errf(err, errlen, "turned card misplaced");
	}
	int high = 0;
	for (int s = 0; s < v->players; s++)
		if (v->stake[s] > high)
			high = v->stake[s];
	if (high != v->high)
		return errf(err, errlen, "largest stake %d, recorded %d", high, v->high);
	int s = v->to_act;
	if (s < 0 || s >= v->players || !v->in_deal[s] || v->folded[s])
		return errf(err, errlen, "seat to act %d cannot act", s);
	for (int t = 0; t < v->players; t++)
		if ((v->need & bit(t)) && (v->folded[t] || !v->in_deal[t]))
			return errf(err, errlen, "seat %d must speak but is out of the deal", t);
	if (v->phase == VY_BET && v->opened && !(v->need & bit(s)))
		return errf(err, errlen, "seat %d acts without being due", s);
	return 0;
}

/* ---- the game_ops entries both games share ---- */

void vying_op_start(void *st, const struct sink *out) { vying_start(st, out); }
int vying_op_to_act(const void *st) { return vying_to_act(st); }
int vying_op_legal(const void *st, struct action *out, int max) { return vying_legal(st, out, max); }
int vying_op_apply(void *st, const struct action *a, const struct sink *out, struct refusal *why)
{
	game_assert_before(st, a);
	int rc = vying_apply(st, a, out, why);
	return game_assert_after(st, vying_to_act(st), rc, why);
}
int vying_op_hand(const void *st, int seat, card_t *out) { return vying_hand(st, seat, out); }
void vying_op_redact(void *st, int seat) { vying_redact(st, seat); }
void vying_op_resample(void *st, int seat, struct rng *rng) { vying_resample(st, seat, rng); }
int vying_op_standings(const void *st, int *out) { return vying_standings(st, out); }
void vying_op_chips(const void *st, int seat, int *held, int *put)
{
	const struct vying *v = st;
	int ok = seat >= 0 && seat < v->players;
	*held = ok ? v->chips[seat] : 0;
	*put = ok && v->stake[seat] > v->due[seat] ? v->stake[seat] - v->due[seat] : 0;
}
int vying_op_hand_number(const void *st) { return vying_hand_number(st); }
int vying_op_dealer(const void *st) { return vying_dealer(st); }
int vying_op_audit(const void *st, char *err, size_t errlen) { return vying_audit(st, err, errlen); }
