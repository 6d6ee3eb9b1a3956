/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bot of La Bouillabaisse.
 * Level 1: simple rules (duck with the highest card under the trick, dump
 * the highest card when void, lead the lowest; the reverse in round 6).
 * Level 2: weighs what each card carries this round, the chance of taking
 * the trick from the unseen cards and known voids, dumps dangerous cards,
 * and in round 6 goes for the tricks (but not all of them under
 * all_or_nothing).
 * Level 3: determinized search: resamples the hidden hands and plays the
 * round out with level 2 for each legal card. */
#include <string.h>

#include "bots/bot.h"
#include "games/bouillabaisse.h"

struct ctx {
	const struct bouillabaisse *st;
	int me;
	int nlegal;
	card_t legal[GAME_MAX_HAND];
	int unseen[64];                    /* count of each card byte not seen */
};

static void ctx_init(struct ctx *c, const struct bouillabaisse *st, int me)
{
	memset(c, 0, sizeof *c);
	c->st = st;
	c->me = me;
	struct action acts[GAME_MAX_LEGAL];
	int n = bouillabaisse_ops.legal(st, acts, GAME_MAX_LEGAL);
	for (int i = 0; i < n && c->nlegal < GAME_MAX_HAND; i++)
		c->legal[c->nlegal++] = acts[i].cards[0];
	card_t removed[52];
	int nr = bou_removed(st->players, st->decks, removed);
	for (int su = 0; su < SUIT_COUNT; su++)
		for (int r = RANK_TWO; r <= RANK_ACE; r++)
			c->unseen[card_make(r, su)] = st->decks;
	for (int i = 0; i < nr; i++)
		c->unseen[removed[i]]--;
	for (int i = 0; i < st->nhand[me]; i++)
		c->unseen[st->hand[me][i]]--;
	for (int i = 0; i < st->ntrick; i++)
		c->unseen[st->trick[i]]--;
	for (int p = 0; p < st->players; p++)
		for (int i = 0; i < st->ntaken[p]; i++)
			c->unseen[st->taken[p][i]]--;
}

/* Unseen cards of this suit above this rank. */
static int higher_out(const struct ctx *c, int suit, int rank)
{
	int n = 0;
	for (int r = rank + 1; r <= RANK_ACE; r++)
		n += c->unseen[card_make(r, suit)];
	return n;
}

/* Players still to play in this trick after me who may hold the suit. */
static int followers_with(const struct ctx *c, int suit)
{
	const struct bouillabaisse *st = c->st;
	int n = 0;
	for (int k = st->ntrick + 1; k < st->players; k++) {
		int p = (st->leader + k) % st->players;
		if (!(st->voids[p] & (1u << suit)))
			n++;
	}
	return n;
}

/* Rough chance that leading (or playing, as current best) card x wins. */
static double p_win(const struct ctx *c, card_t x)
{
	int h = higher_out(c, card_suit(x), card_rank(x));
	int f = followers_with(c, card_suit(x));
	if (h == 0 || f == 0)
		return 1.0;
	/* Each higher card is held by one of the others; with f possible
	 * holders still to play, the more higher cards out, the safer. */
	double p = 1.0;
	int others = c->st->players - 1;
	for (int i = 0; i < h; i++)
		p *= 1.0 - (double)f / (double)(others > 0 ? others : 1);
	return p;
}

static int abs_i(int x) { return x < 0 ? -x : x; }

/* Card currently winning the trick, or CARD_NONE. */
static card_t best_card(const struct bouillabaisse *st)
{
	int b = bou_trick_best(st);
	return b < 0 ? CARD_NONE : st->trick[b];
}

static int beats(card_t x, card_t best)
{
	return card_suit(x) == card_suit(best) && card_rank(x) > card_rank(best);
}

/* ---- level 1 ---- */

static card_t level1(const struct ctx *c)
{
	const struct bouillabaisse *st = c->st;
	int want = st->round == 6;
	card_t best = best_card(st);
	card_t pick = c->legal[0];
	int led = st->ntrick ? card_suit(st->trick[0]) : -1;
	int following = led >= 0 && card_suit(c->legal[0]) == led;
	for (int i = 1; i < c->nlegal; i++) {
		card_t x = c->legal[i];
		int rx = card_rank(x), rp = card_rank(pick);
		if (st->ntrick == 0) {
			if (want ? rx > rp : rx < rp)
				pick = x;
		} else if (!following) {
			int vx = abs_i(bou_card_points(st, x)), vp = abs_i(bou_card_points(st, pick));
			if (want ? (vx < vp || (vx == vp && rx < rp)) : (vx > vp || (vx == vp && rx > rp)))
				pick = x;
		} else if (want) {
			if (rx > rp)
				pick = x;
		} else {
			/* Highest under the best card, else the lowest. */
			int ux = !beats(x, best), up = !beats(pick, best);
			if (ux != up ? ux : (ux ? rx > rp : rx < rp))
				pick = x;
		}
	}
	return pick;
}

/* ---- level 2 ---- */

/* How much taking this trick costs me (points, positive = bad), counting
 * the cards already down and my card. */
static int stake_with(const struct ctx *c, card_t x)
{
	const struct bouillabaisse *st = c->st;
	card_t cards[BOU_MAX_PLAYERS + 1];
	memcpy(cards, st->trick, (size_t)st->ntrick);
	cards[st->ntrick] = x;
	return bou_trick_points(st, cards, st->ntrick + 1);
}

/* Avoiding points (rounds 1-5). Higher score = better choice. */
static double avoid_score(const struct ctx *c, card_t x)
{
	const struct bouillabaisse *st = c->st;
	int v = bou_card_points(st, x);
	int rank = card_rank(x);
	int last = st->ntrick == st->players - 1;
	if (st->ntrick == 0) {
		/* Leading: the chance of winning times what the trick may cost,
		 * where others will dump their scoring cards on it. */
		double pw = p_win(c, x);
		int bonus = bou_trick_points(st, NULL, 0);
		double risk = pw * (double)(v + bonus + 15);
		return -risk - 0.01 * rank + (v > 0 ? 0.0 : 0.001);
	}
	card_t best = best_card(st);
	int led = card_suit(st->trick[0]);
	if (card_suit(x) != led) {
		/* Void: dump the dangerous cards first: what they carry, then
		 * how likely they are to win a trick later. */
		int h = higher_out(c, card_suit(x), rank);
		return (double)v * 10.0 + (double)rank + (h == 0 ? 8.0 : 0.0) + (h <= 1 ? 2.0 : 0.0);
	}
	int stake = stake_with(c, x);
	if (!beats(x, best)) {
		/* Under the trick: keep it, dumping the highest (and the cards
		 * with points). */
		return 1000.0 + (double)v * 10.0 + (double)rank;
	}
	if (last) {
		/* We win anyway: the highest card, unless it costs points. */
		if (stake <= 0 && v == 0)
			return 900.0 + rank;
		return 500.0 - (double)stake * 2.0 + (double)rank * 0.5;
	}
	/* Over the trick with others to come: the chance they overtake. */
	double pw = p_win(c, x);
	return 200.0 - pw * (double)(stake + 15) - (double)v * 2.0 - (double)rank * 0.3 * (pw > 0.99 ? -1.0 : 1.0);
}

/* Going for points (round 6). Higher score = better. */
static double want_score(const struct ctx *c, card_t x, int avoid_all)
{
	const struct bouillabaisse *st = c->st;
	int gain = -bou_card_points(st, x);  /* what the card carries, as a gain */
	int rank = card_rank(x);
	if (avoid_all) {
		/* Take no more: play as in the other rounds. */
		return avoid_score(c, x);
	}
	if (st->ntrick == 0) {
		double pw = p_win(c, x);
		return pw * 30.0 + rank * 0.2 + (pw > 0.99 ? gain : -gain) * 0.05;
	}
	card_t best = best_card(st);
	int led = card_suit(st->trick[0]);
	if (card_suit(x) != led)
		/* Void: throw what does not help the winner, the lowest first. */
		return -(double)gain * 2.0 - (double)rank;
	int last = st->ntrick == st->players - 1;
	if (beats(x, best)) {
		if (last)
			return 1000.0 - (double)rank + (double)gain;  /* the cheapest winner */
		double pw = p_win(c, x);
		return 500.0 + pw * 100.0 + (double)gain * (pw > 0.5 ? 1.0 : -1.0) + (double)rank * 0.1;
	}
	/* Cannot win: keep the scoring cards and high cards. */
	return -(double)gain * 2.0 - (double)rank;
}

static card_t level2(const struct ctx *c)
{
	const struct bouillabaisse *st = c->st;
	int avoid_all = 0;
	if (st->round == 6 && st->all_or_nothing) {
		/* Holding every trick so far late in the round: lose one. */
		int left = st->hand_size - st->tricks_played;
		if (st->tricks_played > 0 && st->tricks_won[c->me] == st->tricks_played &&
		    (left <= 2 || st->tricks_played * 2 >= st->hand_size))
			avoid_all = 1;
	}
	card_t pick = c->legal[0];
	double bs = -1e18;
	for (int i = 0; i < c->nlegal; i++) {
		card_t x = c->legal[i];
		double s = st->round == 6 ? want_score(c, x, avoid_all) : avoid_score(c, x);
		if (s > bs) {
			bs = s;
			pick = x;
		}
	}
	return pick;
}

/* ---- level 3 ---- */

#define L3_SAMPLES_MIN 2
/* Card evaluations per millisecond of the budget (about 0.2 us each, with
 * room to spare) and samples per millisecond at most. Early in a round with
 * big hands, when even two samples cost more, level 2 decides. */
#define L3_EVALS_PER_MS 2500
#define L3_SAMPLES_PER_MS 1

/* My final points of the round after playing out from st (others and me
 * by level 2). */
static int playout(struct bouillabaisse *st, int me)
{
	int round = st->round;
	int before = st->total[me];
	while (!st->over && st->round == round) {
		int s = st->to_act;
		struct ctx c;
		ctx_init(&c, st, s);
		card_t x = level2(&c);
		struct action a = act_card(ACT_PLAY, x);
		struct refusal why;
		if (bouillabaisse_ops.apply(st, &a, NULL, &why) < 0)
			break;
	}
	return st->total[me] - before;
}

static card_t level3(const struct ctx *c, int budget, struct rng *rng)
{
	if (c->nlegal == 1)
		return c->legal[0];
	struct bouillabaisse sample, work;
	double sum[GAME_MAX_HAND] = { 0 };
	int left = c->st->ntrick;
	for (int p = 0; p < c->st->players; p++)
		left += c->st->nhand[p];
	int per_sample = c->nlegal * left * (left / c->st->players + 1);
	int samples = budget * L3_EVALS_PER_MS / (per_sample > 0 ? per_sample : 1);
	if (samples > budget * L3_SAMPLES_PER_MS)
		samples = budget * L3_SAMPLES_PER_MS;
	if (samples < L3_SAMPLES_MIN)
		return level2(c);
	for (int k = 0; k < samples; k++) {
		memcpy(&sample, c->st, sizeof sample);
		bouillabaisse_ops.resample(&sample, c->me, rng);
		for (int i = 0; i < c->nlegal; i++) {
			memcpy(&work, &sample, sizeof work);
			struct action a = act_card(ACT_PLAY, c->legal[i]);
			struct refusal why;
			if (bouillabaisse_ops.apply(&work, &a, NULL, &why) < 0)
				continue;
			sum[i] += playout(&work, c->me);
		}
	}
	int best = 0;
	for (int i = 1; i < c->nlegal; i++)
		if (sum[i] < sum[best])
			best = i;
	return c->legal[best];
}

static void bou_choose(const void *view, int seat, int level, int budget, struct rng *rng,
                       struct action *out)
{
	const struct bouillabaisse *st = view;
	struct ctx c;
	ctx_init(&c, st, seat);
	card_t x;
	if (c.nlegal == 0) {
		*out = act_simple(ACT_PASS);
		return;
	}
	if (level <= 1)
		x = level1(&c);
	else if (level == 2)
		x = level2(&c);
	else
		x = level3(&c, budget, rng);
	*out = act_card(ACT_PLAY, x);
}

/* The hint: level 3's card, and what it does in the trick. */
static void bou_hint(const void *view, int seat, int budget, struct rng *rng, struct action *out,
                     struct bot_reason *why)
{
	const struct bouillabaisse *st = view;
	struct ctx c;
	ctx_init(&c, st, seat);
	if (c.nlegal == 0) {
		*out = act_simple(ACT_PASS);
		bot_trick_reason(&(struct bot_trick){ 0, st->players, CARD_NONE, 1, 0 }, CARD_NONE, 0, -1, 0, why);
		return;
	}
	card_t x = level3(&c, budget, rng);
	*out = act_card(ACT_PLAY, x);
	card_t best = best_card(st);
	struct bot_trick t = { st->ntrick, st->players, best, bou_round_sign(st->round) > 0, 0 };
	int lowest = bot_trick_hand(&t, st->hand[seat], st->nhand[seat], st->trick, x);
	bot_trick_reason(&t, x, best != CARD_NONE && beats(x, best), higher_out(&c, card_suit(x), card_rank(x)),
	                 lowest, why);
}

const struct bot_ops bouillabaisse_bot = {
	.game = "bouillabaisse",
	.choose = bou_choose,
	.hint = bou_hint,
};
