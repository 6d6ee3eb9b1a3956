/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "bots/bot.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* A copy of st as seat sees it (malloc'd: the caller frees it). */
static void *redacted(const struct game_ops *g, const void *st, int seat)
{
	void *view = xmalloc(g->state_size);
	memcpy(view, st, g->state_size);
	g->redact(view, seat);
	return view;
}

void bot_random(const struct game_ops *g, const struct bot_ops *b, const void *st, struct rng *rng,
                struct action *out)
{
	struct action legal[GAME_MAX_LEGAL];
	int n = g->legal(st, legal, GAME_MAX_LEGAL);
	assert(n > 0);
	if (b && b->proper) {
		int k = 0;
		for (int i = 0; i < n; i++)
			if (b->proper(st, &legal[i]) && k++ != i)
				legal[k - 1] = legal[i];
		if (k > 0)
			n = k;
	}
	/* each action alike, a set of a discard entry counted as one */
	int total = n, sets = 0;
	for (int i = 0; i < n && !sets; i++)
		sets = legal[i].sets;
	if (sets) {
		total = 0;
		for (int i = 0; i < n; i++)
			total += act_choices(&legal[i]);
	}
	int k = (int)rng_below(rng, (uint32_t)total), i = 0;
	if (sets)
		while (k >= act_choices(&legal[i]))
			k -= act_choices(&legal[i++]);
	else
		i = k, k = 0;
	act_choice(&legal[i], k, out);
	if (out->amount_max > out->amount)
		out->amount += (int)rng_below(rng, (uint32_t)(out->amount_max - out->amount + 1));
	out->amount_max = out->amount;
}

void bot_choose(const struct game_ops *g, const struct bot_ops *b, const void *st, int level, struct rng *rng,
                struct action *out)
{
	bot_choose_budget(g, b, st, level, BOT_BUDGET_DEFAULT, rng, out);
}

void bot_choose_budget(const struct game_ops *g, const struct bot_ops *b, const void *st, int level, int budget,
                       struct rng *rng, struct action *out)
{
	int seat = g->to_act(st);
	assert(seat >= 0);
	if (level <= 0 || !b) {
		bot_random(g, b, st, rng, out);
		return;
	}
	void *view = redacted(g, st, seat);
	b->choose(view, seat, level, budget > 0 ? budget : 1, rng, out);
	free(view);
	struct action legal[GAME_MAX_LEGAL];
	int n = g->legal(st, legal, GAME_MAX_LEGAL);
	if (!act_in_list(out, legal, n) || (b->proper && !b->proper(st, out)))
		bot_random(g, b, st, rng, out);
	out->amount_max = out->amount;
}

static void reason(struct bot_reason *why, int code, card_t card)
{
	memset(why, 0, sizeof *why);
	why->code = code;
	why->card = card;
	why->chance = -1;
	why->price = -1;
}

void bot_hint(const struct game_ops *g, const struct bot_ops *b, const void *st, int budget, struct rng *rng,
              struct action *out, struct bot_reason *why)
{
	int seat = g->to_act(st);
	assert(seat >= 0);
	struct action legal[GAME_MAX_LEGAL];
	int n = g->legal(st, legal, GAME_MAX_LEGAL);
	reason(why, BOT_WHY_BEST, CARD_NONE);
	if (!b) {
		bot_random(g, b, st, rng, out);
		reason(why, n == 1 ? BOT_WHY_ONLY : BOT_WHY_BEST, CARD_NONE);
		return;
	}
	void *view = redacted(g, st, seat);
	if (b->hint)
		b->hint(view, seat, budget > 0 ? budget : 1, rng, out, why);
	else
		b->choose(view, seat, BOT_LEVEL_MAX, budget > 0 ? budget : 1, rng, out);
	free(view);
	if (!act_in_list(out, legal, n)) {
		bot_choose_budget(g, b, st, BOT_LEVEL_MAX, budget, rng, out);
		reason(why, BOT_WHY_BEST, CARD_NONE);
	}
	out->amount_max = out->amount;
	/* One choice only: say so rather than a reason. */
	if (n == 1)
		reason(why, BOT_WHY_ONLY, why->card);
}

int bot_trick_hand(struct bot_trick *t, const card_t *hand, int n, const card_t *trick, card_t c)
{
	t->holds_led = t->ntrick > 0 && card_has_suit(hand, n, card_suit(trick[0]));
	for (int i = 0; i < n; i++)
		if (card_suit(hand[i]) == card_suit(c) && card_rank(hand[i]) < card_rank(c))
			return 0;
	return 1;
}

void bot_trick_reason(const struct bot_trick *t, card_t c, int beats, int higher_out, int lowest,
                      struct bot_reason *why)
{
	reason(why, BOT_WHY_BEST, c);
	if (t->ntrick == 0) {
		if (t->avoid)
			why->code = higher_out > 0 ? BOT_WHY_HIGHER_OUT : higher_out == 0 ? BOT_WHY_LEAD_TAKES : BOT_WHY_BEST;
		else if (higher_out == 0)
			why->code = BOT_WHY_MASTER;
		else if (lowest)
			why->code = BOT_WHY_KEEP;
		else if (higher_out > 0)
			why->code = BOT_WHY_DRAW_OUT;
		return;
	}
	if (beats) {
		if (t->ntrick + 1 >= t->nplay) {
			why->code = BOT_WHY_TAKES;
		} else {
			/* a card of another suit beats only as a trump */
			why->code = t->best != CARD_NONE && card_suit(c) != card_suit(t->best) ? BOT_WHY_TRUMPS : BOT_WHY_BEATS;
			why->card = t->best;
		}
		return;
	}
	if (t->holds_led) {
		if (t->avoid || !lowest) {
			why->code = BOT_WHY_UNDER;
			why->card = t->best;
		} else {
			why->code = BOT_WHY_KEEP;
		}
		return;
	}
	why->code = t->avoid ? BOT_WHY_SHED : BOT_WHY_LEAST;
}
