/* Bots of Bouillotte and Le Brelan (one file, two bot_ops): the hand's
 * strength is estimated by dealing the unseen cards at random a few hundred
 * times and counting the showdowns won against the players still in; the
 * bet follows that chance, the pot odds and a little bluff.
 * Level 1 is a fixed-threshold player (plays on a brelan or 21 points in a
 * suit, raises only with a brelan, never straddles). */
#include <string.h>

#include "bots/bot_games.h"
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

/* Own strength for the fixed-threshold bot: a combination, else the best
 * suit's points in hand (the turned card counted with its suit). */
static int own_points(const struct vying *v, int seat, int *combo)
{
	int r;
	*combo = vying_combo(&v->cfg, v->hands[seat], v->turn, &r);
	int best = 0;
	for (int su = 0; su < SUIT_COUNT; su++) {
		int p = 0;
		for (int i = 0; i < 3; i++)
			if (card_suit(v->hands[seat][i]) == su)
				p += vying_card_points(v->hands[seat][i]);
		if (p && card_suit(v->turn) == su)
			p += vying_card_points(v->turn);
		if (p > best)
			best = p;
	}
	return best;
}

static int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

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
	if (combo >= VY_BRELAN && chips > call) {
		set(out, ACT_RAISE, clampi(call + pot / 2, call + 1, chips));
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
			set(out, ACT_OPEN, clampi((int)(pot * (0.8 + p)), m, chips));
		else if (p >= 1.05 * share || bluff < 0.06)
			set(out, ACT_OPEN, m);
		else
			set(out, ACT_PASS, 0);
		return;
	}
	if (v->extra) {
		if (chips > 0 && (p >= 0.62 || p >= 2.0 * share))
			set(out, ACT_RAISE, clampi((int)(pot * 0.5), 1, chips));
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
	if (strong && chips > call) {
		set(out, ACT_RAISE, clampi(call + (int)(pot * (0.6 + p)), call + 1, chips));
		return;
	}
	if (call == 0) {
		if (chips > 0 && bluff < 0.04)
			set(out, ACT_RAISE, clampi(pot / 3, 1, chips));
		else
			set(out, ACT_CALL, 0);
		return;
	}
	if (p >= odds * 1.1) {
		set(out, ACT_CALL, 0);
		return;
	}
	if (chips > call && call * 8 < chips && bluff < 0.03) {
		set(out, ACT_RAISE, clampi(call + pot / 2, call + 1, chips));
		return;
	}
	set(out, ACT_FOLD, 0);
}

static void vying_choose(const void *view, int seat, int level, struct rng *rng, struct action *out)
{
	const struct vying *v = view;
	if (level <= 1)
		choose_threshold(v, seat, out);
	else
		choose_equity(v, seat, rng, out);
	/* Amounts of call / allin are the rules' to fill. */
	if (out->kind == ACT_ALLIN)
		out->amount = out->amount_max = v->chips[seat];
	if (out->kind == ACT_CALL) {
		out->amount = vying_to_call(v, seat);
		out->amount_max = out->amount;
	}
}

const struct bot_ops bouillotte_bot = { .game = "bouillotte", .choose = vying_choose };
const struct bot_ops brelan_bot = { .game = "brelan", .choose = vying_choose };
