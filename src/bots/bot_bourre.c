/* The bot of Bourré.
 * Level 1: simple rules: stay with a fair trump or two, keep trumps and
 * aces, win a trick as cheaply as possible, else play low.
 * Level 2: determinized search: for each candidate (stay or pass, take or
 * leave, a few sensible discards, every legal card) it resamples the hidden
 * cards several times and plays the deal out with level 1 at every seat,
 * then keeps the candidate that wins the most chips on average. The same
 * samples serve every candidate so the comparison is fair.
 * Level 3: the same with more samples. */
#include <string.h>

#include "bots/bot_games.h"
#include "games/bourre.h"

/* ---- level 1 ---- */

static int count_suit(const struct bourre_state *st, int seat, int suit)
{
	int n = 0;
	for (int i = 0; i < st->nhand[seat]; i++)
		n += card_suit(st->hand[seat][i]) == suit;
	return n;
}

/* A rough count of the tricks a hand may take. */
static double strength(const struct bourre_state *st, int seat)
{
	double e = 0;
	for (int i = 0; i < st->nhand[seat]; i++) {
		card_t c = st->hand[seat][i];
		int r = card_rank(c);
		if (card_suit(c) == st->trump)
			e += r == RANK_ACE ? 1.0 : r == RANK_KING ? 0.8 : r == RANK_QUEEN ? 0.6 : r >= RANK_NINE ? 0.45 : 0.3;
		else
			e += r == RANK_ACE ? 0.55 : r == RANK_KING ? 0.2 : 0.0;
	}
	return e;
}

static int stayers_before(const struct bourre_state *st, int seat)
{
	int n = 0;
	for (int s = 0; s < st->players; s++)
		if (s != seat && st->status[s] == BR_ST_STAY)
			n++;
	return n;
}

static void simple_discard(const struct bourre_state *st, int seat, struct action *out)
{
	int min, max;
	bourre_discard_range(st, seat, &min, &max);
	*out = act_simple(ACT_DISCARD);
	/* throw the non-trumps below the ace, lowest first */
	card_t h[BR_HAND_MAX];
	int n = st->nhand[seat];
	memcpy(h, st->hand[seat], (size_t)n);
	/* sort by keep value, lowest first */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0; j--) {
			card_t a = h[j - 1], b = h[j];
			int va = (card_suit(a) == st->trump) * 20 + card_rank(a);
			int vb = (card_suit(b) == st->trump) * 20 + card_rank(b);
			if (va > vb) {
				h[j - 1] = b;
				h[j] = a;
			}
		}
	for (int i = 0; i < n && out->ncards < max; i++) {
		card_t c = h[i];
		int keep = card_suit(c) == st->trump || card_rank(c) == RANK_ACE;
		if (keep && out->ncards >= min)
			break;
		out->cards[out->ncards++] = c;
	}
}

static void simple_play(const struct bourre_state *st, int seat, struct action *out)
{
	card_t legal[BR_HAND_MAX] = { 0 };
	int n = 0;
	for (int i = 0; i < st->nhand[seat]; i++)
		if (bourre_check_play(st, seat, st->hand[seat][i], NULL) == 0)
			legal[n++] = st->hand[seat][i];
	card_t pick = legal[0];
	if (st->ntrick == 0) {
		/* lead the highest: trumps first when holding the top one */
		for (int i = 1; i < n; i++)
			if (card_rank(legal[i]) > card_rank(pick) ||
			    (card_rank(legal[i]) == card_rank(pick) && card_suit(legal[i]) == st->trump))
				pick = legal[i];
	} else {
		int led = card_suit(st->trick[0]);
		card_t best = st->trick[0];
		for (int i = 1; i < st->ntrick; i++) {
			card_t c = st->trick[i];
			if ((card_suit(c) == card_suit(best) && card_rank(c) > card_rank(best)) ||
			    (card_suit(c) == st->trump && card_suit(best) != st->trump))
				best = c;
		}
		card_t win = CARD_NONE, low = legal[0];
		for (int i = 0; i < n; i++) {
			card_t c = legal[i];
			int beats = (card_suit(c) == card_suit(best) && card_rank(c) > card_rank(best)) ||
			            (card_suit(c) == st->trump && card_suit(best) != st->trump);
			if (beats && (!win || card_rank(c) < card_rank(win)))
				win = c;
			int vc = (card_suit(c) == st->trump) * 20 + card_rank(c) - (card_suit(c) == led) * 0;
			int vl = (card_suit(low) == st->trump) * 20 + card_rank(low);
			if (vc < vl)
				low = c;
		}
		pick = win ? win : low;
	}
	*out = act_card(ACT_PLAY, pick);
}

static void level1(const struct bourre_state *st, int seat, struct action *out)
{
	switch (st->phase) {
	case BR_PH_DECLARE:
	case BR_PH_CONFIRM: {
		double e = strength(st, seat);
		int others = stayers_before(st, seat);
		int stay = e >= 0.75 + 0.15 * others || count_suit(st, seat, st->trump) >= 2;
		if (st->phase == BR_PH_CONFIRM)
			stay = e >= 0.6;
		*out = act_simple(stay ? ACT_STAY : ACT_PASS);
		return;
	}
	case BR_PH_TAKE:
		*out = act_simple(ACT_TAKE);
		return;
	case BR_PH_DISCARD:
		simple_discard(st, seat, out);
		return;
	case BR_PH_PLAY:
		simple_play(st, seat, out);
		return;
	}
	*out = act_simple(ACT_PASS);
}

/* The level 1 choice, made legal (a forced stay, a needed club...). */
static void level1_legal(const struct bourre_state *st, int seat, struct action *out)
{
	level1(st, seat, out);
	if (st->phase == BR_PH_DECLARE || st->phase == BR_PH_CONFIRM) {
		struct action legal[4];
		int n = bourre_ops.legal(st, legal, 4);
		if (!act_in_list(out, legal, n))
			*out = legal[0];
	}
}

/* ---- level 2: determinized rollouts ---- */

struct end_watch {
	int me, players;
	int done;
	int chips;
};

static void watch(void *ctx, const struct event *e)
{
	struct end_watch *w = ctx;
	if (e->type == EV_HAND_END && !w->done) {
		w->done = 1;
		/* my chips, and my share of what stays in the pot */
		w->chips = e->values[w->me] * w->players + e->pot;
	}
}

/* Play the deal out from st with level 1 everywhere; my chips at its end. */
static int rollout(struct bourre_state *st, int me)
{
	struct end_watch w = { me, st->players, 0, 0 };
	struct sink out = { watch, &w };
	int guard = 0;
	while (!w.done && st->phase != BR_PH_OVER && guard++ < 400) {
		int s = st->to_act;
		if (s < 0)
			break;
		struct action a;
		level1_legal(st, s, &a);
		struct refusal why;
		if (bourre_ops.apply(st, &a, &out, &why) != 0)
			break;
	}
	return w.done ? w.chips : st->chips[me] * st->players + st->pot;
}

#define MAX_CAND 24

static int add_cand(struct action *c, int n, const struct action *a)
{
	for (int i = 0; i < n; i++)
		if (act_equal(&c[i], a))
			return n;
	if (n < MAX_CAND)
		c[n++] = *a;
	return n;
}

/* A few sensible discards: the simple one, keep trumps only, keep trumps
 * and aces, keep trumps, aces and kings, stand pat, throw everything. */
static int discard_candidates(const struct bourre_state *st, int seat, struct action *c)
{
	int n = 0, min, max;
	bourre_discard_range(st, seat, &min, &max);
	struct action a;
	simple_discard(st, seat, &a);
	n = add_cand(c, n, &a);
	for (int keep = 0; keep < 4; keep++) {
		a = act_simple(ACT_DISCARD);
		for (int i = 0; i < st->nhand[seat]; i++) {
			card_t x = st->hand[seat][i];
			int r = card_rank(x);
			int k = card_suit(x) == st->trump ||
			        (keep >= 1 && r == RANK_ACE) || (keep >= 2 && r == RANK_KING) ||
			        (keep >= 3 && r >= RANK_QUEEN);
			if (!k)
				a.cards[a.ncards++] = x;
		}
		if (a.ncards >= min && a.ncards <= max)
			n = add_cand(c, n, &a);
	}
	a = act_simple(ACT_DISCARD);
	if (min == 0)
		n = add_cand(c, n, &a);
	return n;
}

/* A sample agrees with what the others did: a player who stayed holds a
 * trump (unless shown void in trumps), as level 1 would. */
static int plausible(const struct bourre_state *st, int me)
{
	for (int s = 0; s < st->players; s++) {
		if (s == me || st->status[s] != BR_ST_STAY || (st->voids[s] >> st->trump) & 1)
			continue;
		if (!st->nhand[s] || st->phase == BR_PH_PLAY)
			continue;
		/* before the play: the hand that made them stay */
		if (count_suit(st, s, st->trump) < 2 && strength(st, s) < 0.75)
			return 0;
	}
	return 1;
}

static void draw_sample(const struct bourre_state *view, int me, struct rng *rng,
                        struct bourre_state *sample)
{
	for (int tries = 0; tries < 60; tries++) {
		*sample = *view;
		bourre_ops.resample(sample, me, rng);
		if (plausible(sample, me))
			return;
	}
}

/* A bot never reneges on purpose, even where a strict table would accept
 * it. */
static int proper(const void *vst, const struct action *a)
{
	const struct bourre_state *st = vst;
	return a->kind != ACT_PLAY || a->ncards != 1 || !bourre_renege(st, st->to_act, a->cards[0]);
}

static void search(const struct bourre_state *view, int me, int samples, struct rng *rng,
                   struct action *out)
{
	struct action cand[MAX_CAND];
	int nc = 0;
	struct action legal[GAME_MAX_LEGAL];
	int nl = bourre_ops.legal(view, legal, GAME_MAX_LEGAL);
	if (view->phase == BR_PH_DISCARD)
		nc = discard_candidates(view, me, cand);
	else
		for (int i = 0; i < nl && nc < MAX_CAND; i++)
			if (proper(view, &legal[i]))
				nc = add_cand(cand, nc, &legal[i]);
	if (nc == 1) {
		*out = cand[0];
		return;
	}
	long total[MAX_CAND] = { 0 };
	struct bourre_state sample, sim;
	for (int k = 0; k < samples; k++) {
		draw_sample(view, me, rng, &sample);
		for (int i = 0; i < nc; i++) {
			sim = sample;
			struct refusal why;
			if (bourre_ops.apply(&sim, &cand[i], NULL, &why) != 0) {
				total[i] -= 1000000;
				continue;
			}
			/* the hand may have ended inside apply (a lone player) */
			if (sim.hand_no != view->hand_no || sim.phase == BR_PH_OVER) {
				struct bourre_state again = sample;
				struct end_watch w = { me, view->players, 0, 0 };
				struct sink s = { watch, &w };
				bourre_ops.apply(&again, &cand[i], &s, &why);
				total[i] += w.done ? w.chips : again.chips[me] * again.players + again.pot;
				continue;
			}
			total[i] += rollout(&sim, me);
		}
	}
	int best = 0;
	for (int i = 1; i < nc; i++)
		if (total[i] > total[best])
			best = i;
	*out = cand[best];
}

static void choose(const void *vview, int seat, int level, struct rng *rng, struct action *out)
{
	const struct bourre_state *view = vview;
	if (level <= 1) {
		level1_legal(view, seat, out);
		return;
	}
	int samples = level >= 3 ? 256 : 64;
	if (view->phase == BR_PH_PLAY) {
		/* a single proper card: nothing to weigh */
		struct action legal[BR_HAND_MAX];
		if (bourre_ops.legal(view, legal, BR_HAND_MAX) == 1 || !proper(view, &legal[1])) {
			*out = legal[0];
			return;
		}
	}
	search(view, seat, samples, rng, out);
}

const struct bot_ops bourre_bot = {
	.game = "bourre",
	.choose = choose,
	.proper = proper,
};
