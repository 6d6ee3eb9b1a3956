/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bots of Bouillotte and Le Brelan (one file, two bot_ops): the hand's
 * strength is estimated by dealing the unseen cards at random a few hundred
 * times and counting the showdowns won against the players still in; the
 * bet follows that chance, the pot odds and a little bluff.
 * Level 1 is a fixed-threshold player (plays on a brelan or 21 points in a
 * suit, raises only with a brelan, never straddles); level 2 is the
 * sampling player above.
 * Level 3 bets on its equity against the range of hands the others'
 * actions suggest: every three-card hand of the unseen cards is ranked,
 * each sampled deal is weighed by how likely the others' passes, opens,
 * calls, raises and folds are with the hands it gives them, and each
 * candidate (fold, call, bets from half the pot to all the chips) is valued
 * in chips, the folds a bet forces and the raises it meets included. */
#include <math.h>
#include <string.h>

#include "bots/bot.h"
#include "core/num.h"
#include "games/vying.h"

#define SAMPLES 300

static int own_points(const struct vying *v, int seat, int *combo);

/* Chance that `seat` wins the first pot at a showdown among the survivors.
 * Opponents who put chips in by choice are taken to hold better hands than
 * chance deals them: a sampled hand below WEAK points counts for less. */
#define WEAK 20
#define WEAK_WEIGHT 0.35
static double equity(const struct vying *view, int seat, struct rng *rng)
{
	struct vying w = *view;
	card_t pool[VY_MAX_PACK];
	int n = 0;
	for (int i = 0; i < w.cfg.npack; i++) {
		card_t c = w.cfg.pack[i];
		if (c == w.turn || card_find(w.hands[seat], 3, c) >= 0)
			continue;
		pool[n++] = c;
	}
	unsigned surv = (unsigned)vying_survivors(&w);
	int need = 0;
	for (int s = 0; s < w.players; s++)
		if (s != seat && w.in_deal[s])
			need += 3;
	if (need > n)
		return 0.0;
	double wins = 0, total = 0;
	for (int k = 0; k < SAMPLES; k++) {
		/* A partial shuffle is enough. */
		for (int i = 0; i < need; i++) {
			int j = i + (int)rng_below(rng, (uint32_t)(n - i));
			card_t t = pool[i];
			pool[i] = pool[j];
			pool[j] = t;
		}
		int pos = 0;
		for (int s = 0; s < w.players; s++)
			if (s != seat && w.in_deal[s])
				for (int i = 0; i < 3; i++)
					w.hands[s][i] = pool[pos++];
		double weight = 1.0;
		for (int s = 0; s < w.players; s++) {
			if (s == seat || !(surv & (1u << s)) || w.vol[s] <= 0)
				continue;
			int combo, p = own_points(&w, s, &combo);
			if (!combo && p < WEAK)
				weight *= WEAK_WEIGHT;
		}
		int kind, suit, pts;
		total += weight;
		if (vying_best(&w, surv, -1, &kind, &suit, &pts) == seat)
			wins += weight;
	}
	return total > 0 ? wins / total : 0.0;
}

/* The points of the best suit of hand h, the turned card counted with its
 * suit. */
static int best_suit_points(const struct vying *v, const card_t *h)
{
	int best = 0;
	for (int su = 0; su < SUIT_COUNT; su++) {
		int p = 0;
		for (int i = 0; i < 3; i++)
			if (card_suit(h[i]) == su)
				p += vying_card_points(h[i]);
		if (p && card_suit(v->turn) == su)
			p += vying_card_points(v->turn);
		if (p > best)
			best = p;
	}
	return best;
}

/* Own strength for the fixed-threshold bot: a combination, else the best
 * suit's points in hand (the turned card counted with its suit). */
static int own_points(const struct vying *v, int seat, int *combo)
{
	int r;
	*combo = vying_combo(&v->cfg, v->hands[seat], v->turn, &r);
	return best_suit_points(v, v->hands[seat]);
}


static void set(struct action *out, int kind, int amount)
{
	*out = act_simple(kind);
	out->amount = amount;
	out->amount_max = amount;
}

/* Brelan cave: add a waiting cave when the chips in front run low. */
static int want_cave(const struct vying *v, int seat, int divisor, struct action *out)
{
	if (v->phase != VY_CAVE)
		return 0;
	set(out, v->chips[seat] * divisor < v->cfg.cave ? ACT_TAKE : ACT_DECLINE, 0);
	return 1;
}

static void choose_threshold(const struct vying *v, int seat, struct action *out)
{
	if (want_cave(v, seat, 4, out))
		return;
	if (v->phase == VY_STRADDLE) {
		set(out, ACT_DECLINE, 0);
		return;
	}
	int combo, pts = own_points(v, seat, &combo);
	int good = combo > 0 || pts >= 21;
	int chips = v->chips[seat], pot = vying_pot(v);
	if (!v->opened) {
		int m = vying_min_open(v, seat);
		if (good && chips >= m)
			set(out, ACT_OPEN, m);
		else
			set(out, ACT_PASS, 0);
		return;
	}
	if (v->extra) {
		set(out, ACT_PASS, 0);
		return;
	}
	int call = v->high - v->stake[seat];
	if (combo >= VY_BRELAN && chips > call && vying_may_raise(v, seat)) {
		set(out, ACT_RAISE, num_clamp(call + pot / 2, call + 1, chips));
		return;
	}
	if (good || call <= 0)
		set(out, ACT_CALL, 0);
	else
		set(out, ACT_FOLD, 0);
}

static void choose_equity(const struct vying *v, int seat, struct rng *rng, struct action *out)
{
	int chips = v->chips[seat], pot = vying_pot(v);
	if (want_cave(v, seat, 2, out))
		return;
	if (v->phase == VY_STRADDLE) {
		/* Before the cards: straddle when it is cheap, buy back less often. */
		int amt = vying_straddle_amount(v);
		double want = v->offer == 2 ? 0.3 : 0.5;
		if (amt * 10 <= chips && rng_unit(rng) < want)
			set(out, v->offer == 2 ? ACT_BUYBACK : ACT_STRADDLE, amt);
		else
			set(out, ACT_DECLINE, 0);
		return;
	}
	int nsurv = 0;
	for (unsigned m = (unsigned)vying_survivors(v); m; m &= m - 1)
		nsurv++;
	double share = 1.0 / nsurv;
	double p = equity(v, seat, rng);
	double bluff = rng_unit(rng);
	if (!v->opened) {
		int m = vying_min_open(v, seat);
		if (chips < m) {
			/* Short: a tapis / short opening only with a good chance. */
			if (v->cfg.short_open && p >= 1.3 * share)
				set(out, ACT_ALLIN, chips);
			else
				set(out, ACT_PASS, 0);
			return;
		}
		if (p >= 0.6 || p >= 1.7 * share)
			set(out, ACT_OPEN, num_clamp((int)(pot * (0.8 + p)), m, vying_may_raise(v, seat) ? chips : m));
		else if (p >= 1.05 * share || bluff < 0.06)
			set(out, ACT_OPEN, m);
		else
			set(out, ACT_PASS, 0);
		return;
	}
	if (v->extra) {
		if (chips > 0 && (p >= 0.62 || p >= 2.0 * share))
			set(out, ACT_RAISE, num_clamp((int)(pot * 0.5), 1, chips));
		else
			set(out, ACT_PASS, 0);
		return;
	}
	int call = v->high - v->stake[seat];
	if (call < 0)
		call = 0;
	int callable = call < chips ? call : chips;
	double odds = (double)callable / (double)(pot + callable);
	int strong = p >= 0.7 || (nsurv > 2 && p >= 2.2 * share);
	int may_raise = vying_may_raise(v, seat);
	if (strong && chips > call && may_raise) {
		set(out, ACT_RAISE, num_clamp(call + (int)(pot * (0.6 + p)), call + 1, chips));
		return;
	}
	if (call == 0) {
		if (chips > 0 && may_raise && bluff < 0.04)
			set(out, ACT_RAISE, num_clamp(pot / 3, 1, chips));
		else
			set(out, ACT_CALL, 0);
		return;
	}
	if (p >= odds * 1.1) {
		set(out, ACT_CALL, 0);
		return;
	}
	if (chips > call && may_raise && call * 8 < chips && bluff < 0.03) {
		set(out, ACT_RAISE, num_clamp(call + pot / 2, call + 1, chips));
		return;
	}
	set(out, ACT_FOLD, 0);
}

/* ---- level 3: equity against the range the others' actions suggest ---- */

/* A hand's rough strength as a small integer key: a combination above every
 * point, else its best suit's points (the turned card counted). */
static int hand_key(const struct vying *v, const card_t *h)
{
	int r, k = vying_combo(&v->cfg, h, v->turn, &r);
	if (k > VY_POINT)
		return 60 + k * 20 + r;
	return best_suit_points(v, h);
}

#define KEYS 160
#define L3_MAX_SAMPLES 8000
#define L3_SAMPLES_PER_MS 40
#define L3_MAX_CAND 8
/* Share of the hands where the best answer is to give up (check or fold)
 * that bet instead, when the bet's fold equity pays for most of it. */
#define L3_BLUFF 0.05
/* The model of the others (tuned in tournaments against levels 1 and 2):
 * they call a bet when their chance covers CALL_LOOSENESS times its price,
 * raise back with a hand in the top RERAISE_TOP of the range (which sends
 * a weaker bettor away), and a seat that passed before the opening holds a
 * hand above PASSED_TOP only PASSED_WEIGHT times as often. A call with
 * players still to speak costs POSITION_COST of its price for each. */
#define CALL_LOOSENESS 0.5
#define RERAISE_TOP 0.8
#define PASSED_TOP 0.6
#define PASSED_WEIGHT 0.3
#define POSITION_COST 0.15

struct range {
	int pool_n;
	card_t pool[VY_MAX_PACK];
	double pct[KEYS];   /* percentile of a key among the hands the unseen cards make */
};

/* Every three-card hand of the unseen cards, counted by key: the percentile
 * of each key ("this hand is better than 80% of the hands one could hold"). */
static void range_init(struct range *rg, const struct vying *v, int me)
{
	rg->pool_n = 0;
	for (int i = 0; i < v->cfg.npack; i++) {
		card_t c = v->cfg.pack[i];
		if (c == v->turn || card_find(v->hands[me], 3, c) >= 0)
			continue;
		rg->pool[rg->pool_n++] = c;
	}
	long count[KEYS] = { 0 }, total = 0;
	card_t h[3];
	for (int a = 0; a < rg->pool_n; a++)
		for (int b = a + 1; b < rg->pool_n; b++)
			for (int c = b + 1; c < rg->pool_n; c++) {
				h[0] = rg->pool[a];
				h[1] = rg->pool[b];
				h[2] = rg->pool[c];
				int k = hand_key(v, h);
				count[k < KEYS ? k : KEYS - 1]++;
				total++;
			}
	long below = 0;
	for (int k = 0; k < KEYS; k++) {
		rg->pct[k] = total ? ((double)below + 0.5 * (double)count[k]) / (double)total : 0.5;
		below += count[k];
	}
}

static double logistic(double x) { return 1.0 / (1.0 + exp(-x)); }

/* How likely a seat's actions are with a hand of percentile r: chips put in
 * by choice say the hand is good (the more chips, the better), a fold says
 * it was not; a few bluffs are allowed for. */
static double action_weight(const struct vying *v, int s, double r)
{
	if (v->folded[s])
		return r < 0.7 ? 1.0 : 0.35;
	double w = 1.0;
	/* Passed before the opening: the best hands would have opened. */
	for (int i = 0; i < v->pidx && i < v->norder; i++)
		if (v->order[i] == s && r >= PASSED_TOP)
			w = PASSED_WEIGHT;
	if (v->vol[s] <= 0)
		return w;
	int unit = v->cfg.ante_chips > 0 ? v->cfg.ante_chips : 1;
	double q = 0.2 + 0.18 * log2(1.0 + (double)v->vol[s] / unit);
	if (q > 0.85)
		q = 0.85;
	return w * (0.06 + 0.94 * logistic((r - q) / 0.07));
}

struct cand {
	struct action a;
	int put;        /* chips I put in now */
	int aggressive; /* a bet the others must answer */
	double ev;      /* chips won from now on, on average */
};

static int add_bet(struct cand *c, int n, int kind, int put, int lo, int hi)
{
	if (hi < lo)
		return n;
	put = num_clamp(put, lo, hi);
	for (int i = 0; i < n; i++)
		if (c[i].aggressive && c[i].put == put)
			return n;
	if (n >= L3_MAX_CAND)
		return n;
	set(&c[n].a, kind, put);
	c[n].put = put;
	c[n].aggressive = 1;
	c[n].ev = 0;
	return n + 1;
}

static int add_passive(struct cand *c, int n, int kind, int put)
{
	set(&c[n].a, kind, 0);
	c[n].put = put;
	c[n].aggressive = 0;
	c[n].ev = 0;
	return n + 1;
}

/* One candidate's result in one sampled deal: the others answer a bet by
 * calling when the chance their hand gives them (its percentile, to the
 * power of the opponents it must beat) covers the price; then showdown. */
static double outcome(struct vying *w, int me, const struct cand *c, const double *r, int pot)
{
	unsigned surv = (unsigned)vying_survivors(w);
	int kind, suit, pts;
	if (!c->aggressive) {
		if (c->a.kind == ACT_FOLD || (c->a.kind == ACT_PASS && !w->opened))
			return 0.0;
		return vying_best(w, surv, -1, &kind, &suit, &pts) == me ? pot : -c->put;
	}
	int nopp = 0;
	for (unsigned m = surv & ~(1u << me); m; m &= m - 1)
		nopp++;
	int high = w->stake[me] + c->put;
	unsigned contenders = 1u << me;
	int added = 0, any = 0, reraise = 0;
	for (int s = 0; s < w->players; s++) {
		if (s == me || !(surv & (1u << s)))
			continue;
		int need = high - w->stake[s];
		if (need > w->chips[s])
			need = w->chips[s];
		if (need <= 0) {
			contenders |= 1u << s;
			any = 1;
			continue;
		}
		double odds = (double)need / (double)(pot + c->put + need);
		double eq = pow(r[s], nopp > 0 ? nopp : 1);
		if (eq >= odds * CALL_LOOSENESS) {
			contenders |= 1u << s;
			added += need;
			any = 1;
			if (r[s] >= RERAISE_TOP && r[s] > r[me])
				reraise = 1;
		}
	}
	if (!any)
		return pot;
	if (reraise)
		return -c->put;
	return vying_best(w, contenders, -1, &kind, &suit, &pts) == me ? pot + added : -c->put;
}

/* Level 3: sample the unseen hands, weigh each sample by how well it
 * explains what every other seat did, and value each candidate (fold, call,
 * bets of half the pot, the pot, twice and four times the pot, all in) by the chips it wins on average; a bet counts the
 * folds it forces. Calls with players still to speak pay for the raises
 * they may face (position). */
static void why_set(struct bot_reason *why, int code, double chance, double price)
{
	why->code = code;
	why->card = CARD_NONE;
	why->behind = 0;
	why->chance = chance >= 0 ? (int)(chance * 100 + 0.5) : -1;
	why->price = price >= 0 ? (int)(price * 100 + 0.5) : -1;
}

static void choose_range(const struct vying *v, int seat, int budget, struct rng *rng, struct action *out,
                         struct bot_reason *why)
{
	int chips = v->chips[seat], pot = vying_pot(v);
	why_set(why, BOT_WHY_BEST, -1, -1);
	if (want_cave(v, seat, 2, out)) {
		why_set(why, out->kind == ACT_TAKE ? BOT_WHY_CAVE : BOT_WHY_NO_CAVE, -1, -1);
		return;
	}
	if (v->phase == VY_STRADDLE) {
		/* The first straddle buys the last word for one pot; the later ones
		 * and buy-backs only raise a blind stake. */
		int amt = vying_straddle_amount(v);
		if (v->offer == 1 && v->steps == 0 && amt * 12 <= chips)
			set(out, ACT_STRADDLE, amt);
		else
			set(out, ACT_DECLINE, 0);
		why_set(why, out->kind == ACT_DECLINE ? BOT_WHY_NO_STRADDLE : BOT_WHY_STRADDLE, -1, -1);
		why->straddle = vying_straddle_name(v);
		return;
	}
	struct cand c[L3_MAX_CAND];
	int n = 0;
	int call = vying_to_call(v, seat);
	if (!v->opened) {
		n = add_passive(c, n, ACT_PASS, 0);
		int m = vying_min_open(v, seat);
		int hi = vying_may_raise(v, seat) ? chips : m;
		if (chips >= m) {
			n = add_bet(c, n, ACT_OPEN, m, m, hi);
			n = add_bet(c, n, ACT_OPEN, pot / 2, m, hi);
			n = add_bet(c, n, ACT_OPEN, pot, m, hi);
			n = add_bet(c, n, ACT_OPEN, 2 * pot, m, hi);
			n = add_bet(c, n, ACT_OPEN, 4 * pot, m, hi);
			n = add_bet(c, n, ACT_OPEN, chips, m, hi);
		} else if (v->cfg.short_open && chips > 0) {
			n = add_bet(c, n, ACT_ALLIN, chips, chips, chips);
		}
	} else if (v->extra) {
		n = add_passive(c, n, ACT_PASS, 0);
		if (chips > 0) {
			n = add_bet(c, n, ACT_RAISE, pot / 2, 1, chips);
			n = add_bet(c, n, ACT_RAISE, pot, 1, chips);
		}
	} else {
		n = add_passive(c, n, ACT_CALL, call);
		if (call > 0)
			n = add_passive(c, n, ACT_FOLD, 0);
		int lo = v->high - v->stake[seat] + 1;
		if (chips >= lo && vying_may_raise(v, seat)) {
			n = add_bet(c, n, ACT_RAISE, call + pot / 2, lo, chips);
			n = add_bet(c, n, ACT_RAISE, call + pot, lo, chips);
			n = add_bet(c, n, ACT_RAISE, call + 2 * pot, lo, chips);
			n = add_bet(c, n, ACT_RAISE, call + 4 * pot, lo, chips);
			n = add_bet(c, n, ACT_RAISE, chips, lo, chips);
		}
	}
	struct range rg;
	range_init(&rg, v, seat);
	double r[VY_MAX] = { 0 }, r_me;
	int need = 0;
	for (int s = 0; s < v->players; s++)
		if (s != seat && v->in_deal[s])
			need += 3;
	if (need > rg.pool_n) {
		*out = c[0].a;
		return;
	}
	int samples = budget * L3_SAMPLES_PER_MS;
	if (samples < 100)
		samples = 100;
	if (samples > L3_MAX_SAMPLES)
		samples = L3_MAX_SAMPLES;
	struct vying w = *v;
	unsigned surv = (unsigned)vying_survivors(v);
	{
		int key = hand_key(v, v->hands[seat]);
		r_me = rg.pct[key < KEYS ? key : KEYS - 1];
		r[seat] = r_me;
	}
	double total = 0, wins = 0;
	for (int k = 0; k < samples; k++) {
		for (int i = 0; i < need; i++) {
			int j = i + (int)rng_below(rng, (uint32_t)(rg.pool_n - i));
			card_t t = rg.pool[i];
			rg.pool[i] = rg.pool[j];
			rg.pool[j] = t;
		}
		int pos = 0;
		double weight = 1.0;
		for (int s = 0; s < w.players; s++) {
			if (s == seat || !w.in_deal[s])
				continue;
			for (int i = 0; i < 3; i++)
				w.hands[s][i] = rg.pool[pos++];
			int key = hand_key(&w, w.hands[s]);
			r[s] = rg.pct[key < KEYS ? key : KEYS - 1];
			weight *= action_weight(&w, s, r[s]);
		}
		int kind, suit, pts;
		if (vying_best(&w, surv, -1, &kind, &suit, &pts) == seat)
			wins += weight;
		total += weight;
		for (int i = 0; i < n; i++)
			c[i].ev += weight * outcome(&w, seat, &c[i], r, pot);
	}
	if (total <= 0) {
		*out = c[0].a;
		return;
	}
	double p = wins / total;
	int behind = 0;
	for (unsigned m = v->need & ~(1u << seat); m; m &= m - 1)
		behind++;
	int best = 0;
	for (int i = 0; i < n; i++) {
		c[i].ev /= total;
		if (!c[i].aggressive && c[i].put > 0)
			c[i].ev -= POSITION_COST * c[i].put * behind;
		if (c[i].ev > c[best].ev)
			best = i;
	}
	/* A measured bluff: now and then, where giving up is best, bet when the
	 * folds the bet forces pay for most of it. */
	int bluff = 0;
	if (!c[best].aggressive && rng_unit(rng) < L3_BLUFF) {
		int b = -1;
		for (int i = 0; i < n; i++)
			if (c[i].aggressive && c[i].ev > -0.25 * c[i].put && (b < 0 || c[i].ev > c[b].ev))
				b = i;
		if (b >= 0) {
			best = b;
			bluff = 1;
		}
	}
	*out = c[best].a;
	int nsurv = 0;
	for (unsigned m = surv; m; m &= m - 1)
		nsurv++;
	double price = call > 0 ? (double)call / (double)(pot + call) : -1;
	if (c[best].aggressive)
		why_set(why, bluff || p < 1.0 / nsurv ? BOT_WHY_BLUFF : BOT_WHY_BET, p, -1);
	else if (out->kind == ACT_FOLD)
		why_set(why, BOT_WHY_FOLD, p, price);
	else if (out->kind == ACT_CALL && call > 0)
		why_set(why, BOT_WHY_CALL, p, price);
	else if (out->kind == ACT_PASS && !v->opened && p < 1.0 / nsurv)
		why_set(why, BOT_WHY_WEAK, p, -1);
	else
		why_set(why, BOT_WHY_CHECK, p, -1);
	/* The reason says the comparison its own figures, as said (in whole
	 * percents), bear out; where they alone would say otherwise, what
	 * weighed: the players still to speak, or the rest of the deal. */
	if (why->code == BOT_WHY_FOLD && why->chance >= why->price) {
		why->code = behind > 0 ? BOT_WHY_FOLD_BEHIND : BOT_WHY_FOLD_DEAL;
		why->behind = behind;
	} else if (why->code == BOT_WHY_CALL && why->chance <= why->price) {
		why->code = BOT_WHY_CALL_LOW;
	}
}

static void fill_amounts(const struct vying *v, int seat, struct action *out);

static void vying_choose(const void *view, int seat, int level, int budget, struct rng *rng,
                         struct action *out)
{
	const struct vying *v = view;
	struct bot_reason why;
	if (level <= 1)
		choose_threshold(v, seat, out);
	else if (level == 2)
		choose_equity(v, seat, rng, out);
	else
		choose_range(v, seat, budget, rng, out, &why);
	fill_amounts(v, seat, out);
}

static void vying_hint(const void *view, int seat, int budget, struct rng *rng, struct action *out,
                       struct bot_reason *why)
{
	choose_range(view, seat, budget, rng, out, why);
	fill_amounts(view, seat, out);
}

/* Amounts of call / allin are the rules' to fill. */
static void fill_amounts(const struct vying *v, int seat, struct action *out)
{
	if (out->kind == ACT_ALLIN)
		out->amount = out->amount_max = v->chips[seat];
	if (out->kind == ACT_CALL) {
		out->amount = vying_to_call(v, seat);
		out->amount_max = out->amount;
	}
}

const struct bot_ops bouillotte_bot = { .game = "bouillotte", .choose = vying_choose, .hint = vying_hint };
const struct bot_ops brelan_bot = { .game = "brelan", .choose = vying_choose, .hint = vying_hint };
