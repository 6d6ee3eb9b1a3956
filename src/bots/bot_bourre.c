/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bot of Bourré.
 * Level 1: simple rules: stay with a fair trump or two, keep trumps and
 * aces, win a trick as cheaply as possible, else play low.
 * Level 2: determinized search: for each candidate (stay or pass, take or
 * leave, a few sensible discards, every legal card) it resamples the hidden
 * cards several times and plays the deal out with level 1 at every seat,
 * then keeps the candidate that wins the most chips on average. The same
 * samples serve every candidate so the comparison is fair.
 * Level 3: the same with more samples (SAMPLES_PER_MS a millisecond of
 * budget), samples that also agree with the draw, a better lead in its
 * rollouts, and in them the others stay or pass as level 2 does: by a
 * chance fitted to level 2's choices (stay_chance), not by level 1's rule,
 * which stays more often and without regard to the players still to
 * speak. */
#include <math.h>
#include <string.h>

#include "bots/bot.h"
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

/* Level 3's play in a rollout: the lead of level 1 wastes high cards that
 * another hand can beat, so lead the highest trump only while no other
 * hand in play holds a higher one, else an ace, else the lowest card. */
static int beaten_elsewhere(const struct bourre_state *st, int seat, card_t c)
{
	for (int s = 0; s < st->players; s++) {
		if (s == seat || st->status[s] == BR_ST_PASS)
			continue;
		for (int i = 0; i < st->nhand[s]; i++) {
			card_t x = st->hand[s][i];
			if ((card_suit(x) == card_suit(c) && card_rank(x) > card_rank(c)) ||
			    (card_suit(x) == st->trump && card_suit(c) != st->trump))
				return 1;
		}
	}
	return 0;
}

/* Level 3's model of the others' stay or pass in a rollout: the chance
 * that level 2 stays, fitted (logistic) to its 10,000 stay-or-pass choices
 * in 1500 deals of seven players against level 1. It grows with the hand's
 * strength, its trumps and its highest trump, and falls with every player
 * still to speak after it and every stayer before it. Level 2 stays in 42%
 * of its turns (18% with six players still to speak, 89% when last), where
 * level 1's rule would stay with 51% of the same hands, in any position. */
static double stay_chance(const struct bourre_state *st, int s)
{
	int nt = 0, hi = 0, aces = 0, after = 0;
	for (int i = 0; i < st->nhand[s]; i++) {
		card_t c = st->hand[s][i];
		if (card_suit(c) == st->trump) {
			nt++;
			if (card_rank(c) > hi)
				hi = card_rank(c);
		} else if (card_rank(c) == RANK_ACE) {
			aces++;
		}
	}
	for (int t = 0; t < st->players; t++)
		after += t != s && st->status[t] == BR_ST_NONE;
	double z = -3.019 + 5.841 * strength(st, s) + 0.93 * (nt < 3 ? nt : 3) + 0.438 * (nt >= 2) +
	           4.454 * hi / 14.0 - 1.586 * aces - 1.548 * after - 1.28 * stayers_before(st, s) +
	           1.345 * (s == st->dealer);
	return 1.0 / (1.0 + exp(-z));
}

/* The choice of seat s in a rollout: level 1's, and at level 3 (r given)
 * the stay or pass of the model above, drawn from r, and a better lead. */
static void rollout_choice(const struct bourre_state *st, int s, int level, struct rng *r, struct action *a)
{
	level1_legal(st, s, a);
	if (level >= 3 && r && st->phase == BR_PH_DECLARE && !st->simultaneous) {
		struct action legal[4];
		int n = bourre_ops.legal(st, legal, 4);
		struct action m = act_simple(rng_unit(r) < stay_chance(st, s) ? ACT_STAY : ACT_PASS);
		if (act_in_list(&m, legal, n))
			*a = m;
		return;
	}
	if (level < 3 || st->phase != BR_PH_PLAY || st->ntrick != 0)
		return;
	card_t best = CARD_NONE, low = CARD_NONE;
	for (int i = 0; i < st->nhand[s]; i++) {
		card_t c = st->hand[s][i];
		if (bourre_check_play(st, s, c, NULL) != 0)
			continue;
		if (!beaten_elsewhere(st, s, c) && (best == CARD_NONE || card_rank(c) > card_rank(best)))
			best = c;
		if (low == CARD_NONE || card_rank(c) + 20 * (card_suit(c) == st->trump) <
		                            card_rank(low) + 20 * (card_suit(low) == st->trump))
			low = c;
	}
	if (best != CARD_NONE)
		*a = act_card(ACT_PLAY, best);
	else if (low != CARD_NONE)
		*a = act_card(ACT_PLAY, low);
}

/* Play the deal out from st with level 1 everywhere (level 3's choices
 * with r at level 3); my chips at its end. */
static int rollout(struct bourre_state *st, int me, int level, struct rng *r)
{
	struct end_watch w = { me, st->players, 0, 0 };
	struct sink out = { watch, &w };
	int guard = 0;
	while (!w.done && st->phase != BR_PH_OVER && guard++ < 400) {
		int s = st->to_act;
		if (s < 0)
			break;
		struct action a;
		rollout_choice(st, s, level, r, &a);
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

/* Level 3 also reads the draw: a player who kept k cards kept trumps and
 * aces, so in the play the sample must leave them as many of those as they
 * kept, less one for each trick played since. */
static int plausible_draw(const struct bourre_state *st, int me)
{
	if (st->phase != BR_PH_PLAY)
		return 1;
	for (int s = 0; s < st->players; s++) {
		if (s == me || st->status[s] != BR_ST_STAY || st->ndrew[s] < 0)
			continue;
		int kept = st->ncards - st->ndrew[s];
		int good = 0;
		for (int i = 0; i < st->nhand[s]; i++)
			good += card_suit(st->hand[s][i]) == st->trump || card_rank(st->hand[s][i]) == RANK_ACE;
		if (good < kept - st->ntricks - 1)
			return 0;
	}
	return 1;
}

static void draw_sample(const struct bourre_state *view, int me, int level, struct rng *rng,
                        struct bourre_state *sample)
{
	for (int tries = 0; tries < 60; tries++) {
		*sample = *view;
		bourre_ops.resample(sample, me, rng);
		if (plausible(sample, me) && (level < 3 || plausible_draw(sample, me)))
			return;
	}
}

/* A bot never reneges on purpose, even where a strict table would accept
 * it. */
static int proper(const void *vst, const struct action *a)
{
	const struct bourre_state *st = vst;
	return !st->strict || a->kind != ACT_PLAY || a->ncards != 1 || !bourre_renege(st, st->to_act, a->cards[0]);
}

static void search(const struct bourre_state *view, int me, int level, int samples, struct rng *rng,
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
	long total[MAX_CAND] = { 0 };
	if (nc == 1) {
		*out = cand[0];
		return;
	}
	struct bourre_state sample, sim;
	for (int k = 0; k < samples; k++) {
		draw_sample(view, me, level, rng, &sample);
		/* level 3's draws for the others' stays: the same for every
		 * candidate, as the sample is */
		uint64_t rs = level >= 3 ? rng_next(rng) : 0;
		for (int i = 0; i < nc; i++) {
			struct rng rr;
			rng_seed(&rr, rs);
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
			total[i] += rollout(&sim, me, level, level >= 3 ? &rr : NULL);
		}
	}
	int best = 0;
	for (int i = 1; i < nc; i++)
		if (total[i] > total[best])
			best = i;
	*out = cand[best];
}

/* Samples per millisecond of the budget at level 3 (a sample costs about
 * 10 us for each candidate). */
#define SAMPLES_PER_MS 16

static void choose(const void *vview, int seat, int level, int budget, struct rng *rng,
                   struct action *out)
{
	const struct bourre_state *view = vview;
	if (level <= 1) {
		level1_legal(view, seat, out);
		return;
	}
	int samples = level >= 3 ? budget * SAMPLES_PER_MS : 64;
	if (view->phase == BR_PH_PLAY) {
		/* a single proper card: nothing to weigh */
		struct action legal[BR_HAND_MAX];
		if (bourre_ops.legal(view, legal, BR_HAND_MAX) == 1 || !proper(view, &legal[1])) {
			*out = legal[0];
			return;
		}
	}
	search(view, seat, level, samples, rng, out);
}

/* Does a beat b (b the best card of the trick so far)? */
static int beats_card(const struct bourre_state *st, card_t a, card_t b)
{
	return (card_suit(a) == card_suit(b) && card_rank(a) > card_rank(b)) ||
	       (card_suit(a) == st->trump && card_suit(b) != st->trump);
}

/* The cards of seat's hand that take tricks: its trumps and side aces,
 * highest first, into why. */
static void strong_cards(const struct bourre_state *st, int seat, struct bot_reason *why)
{
	why->ncards = 0;
	for (int trump = 1; trump >= 0; trump--)
		for (int r = RANK_ACE; r >= RANK_TWO; r--)
			for (int i = 0; i < st->nhand[seat]; i++) {
				card_t c = st->hand[seat][i];
				int t = card_suit(c) == st->trump;
				if (card_rank(c) == r && t == trump && (t || r == RANK_ACE) &&
				    why->ncards < (int)(sizeof why->cards / sizeof why->cards[0]))
					why->cards[why->ncards++] = c;
			}
}

/* Trumps that may still be played after the trick so far: in no completed
 * trick, not in seat's hand, not the trick's, not a turned card that is
 * nobody's. */
static int trumps_out(const struct bourre_state *st, int seat)
{
	int n = 0;
	for (int r = RANK_TWO; r <= RANK_ACE; r++) {
		card_t y = card_make(r, st->trump);
		if (card_find(st->hand[seat], st->nhand[seat], y) < 0 && card_find(st->gone, st->ngone, y) < 0 &&
		    card_find(st->trick, st->ntrick, y) < 0 && !(st->turnup_place == BR_TU_TABLE && st->turnup == y))
			n++;
	}
	return n;
}

/* The hint: level 3's choice, with a reason the player can check against
 * the hand: stay with the cards that can take a trick, pass for the pot a
 * bourré would pay, the cards a discard keeps, the turned trump, and a
 * card by what it does in the trick (a plain-suit lead that no card of its
 * suit can beat may still be trumped). */
static void hint(const void *vview, int seat, int budget, struct rng *rng, struct action *out,
                 struct bot_reason *why)
{
	const struct bourre_state *st = vview;
	choose(vview, seat, 3, budget, rng, out);
	memset(why, 0, sizeof *why);
	why->code = BOT_WHY_BEST;
	why->card = CARD_NONE;
	why->chance = why->price = -1;
	switch (st->phase) {
	case BR_PH_DECLARE:
	case BR_PH_CONFIRM:
		why->code = out->kind == ACT_STAY ? BOT_WHY_STAY : BOT_WHY_PASS;
		strong_cards(st, seat, why);
		why->amount = st->limit > 0 && st->pot > st->limit ? st->limit : st->pot;
		return;
	case BR_PH_DISCARD:
		why->code = BOT_WHY_DRAW;
		/* the cards kept, trumps first, highest first */
		for (int trump = 1; trump >= 0; trump--)
			for (int r = RANK_ACE; r >= RANK_TWO; r--)
				for (int i = 0; i < st->nhand[seat]; i++) {
					card_t c = st->hand[seat][i];
					if (card_rank(c) == r && (card_suit(c) == st->trump) == trump &&
					    card_find(out->cards, out->ncards, c) < 0 &&
					    why->ncards < (int)(sizeof why->cards / sizeof why->cards[0]))
						why->cards[why->ncards++] = c;
				}
		return;
	case BR_PH_TAKE:
		why->code = out->kind == ACT_TAKE ? BOT_WHY_TAKE_TRUMP : BOT_WHY_LEAVE_TRUMP;
		why->card = st->turnup;
		return;
	case BR_PH_PLAY:
		break;
	default:
		return;
	}
	if (out->kind != ACT_PLAY)
		return;
	card_t x = out->cards[0];
	card_t best = CARD_NONE;
	for (int i = 0; i < st->ntrick; i++)
		if (best == CARD_NONE || beats_card(st, st->trick[i], best))
			best = st->trick[i];
	struct bot_trick t = { st->ntrick, bourre_active(st), best, 0, 0 };
	int lowest = bot_trick_hand(&t, st->hand[seat], st->nhand[seat], st->trick, x), higher = 0;
	/* higher cards of the suit neither in my hand nor played */
	for (int r = card_rank(x) + 1; r <= RANK_ACE; r++) {
		card_t y = card_make(r, card_suit(x));
		int seen = card_find(st->hand[seat], st->nhand[seat], y) >= 0 || card_find(st->gone, st->ngone, y) >= 0 ||
		           card_find(st->trick, st->ntrick, y) >= 0;
		higher += !seen;
	}
	bot_trick_reason(&t, x, best != CARD_NONE && beats_card(st, x, best), higher, lowest, why);
	/* The best of its suit, but a player out of that suit may trump it. */
	if (why->code == BOT_WHY_MASTER && card_suit(x) != st->trump && trumps_out(st, seat) > 0)
		why->code = BOT_WHY_MASTER_RUFF;
}

const struct bot_ops bourre_bot = {
	.game = "bourre",
	.choose = choose,
	.proper = proper,
	.hint = hint,
};
