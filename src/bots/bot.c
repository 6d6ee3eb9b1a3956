#include "bots/bot.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot_games.h"

static const struct bot_ops *const bots[] = {
	&bouillabaisse_bot,
	&bouillotte_bot,
	&brelan_bot,
	&bourre_bot,
	&brouc_bot,
	NULL,
};

const struct bot_ops *bot_find(const char *game)
{
	for (int i = 0; bots[i]; i++)
		if (strcmp(bots[i]->game, game) == 0)
			return bots[i];
	return NULL;
}

void bot_random(const struct game_ops *g, const void *st, struct rng *rng, struct action *out)
{
	struct action legal[GAME_MAX_LEGAL];
	int n = g->legal(st, legal, GAME_MAX_LEGAL);
	assert(n > 0);
	const struct bot_ops *b = bot_find(g->name);
	if (b && b->proper) {
		int k = 0;
		for (int i = 0; i < n; i++)
			if (b->proper(st, &legal[i]))
				legal[k++] = legal[i];
		if (k > 0)
			n = k;
	}
	*out = legal[rng_below(rng, (uint32_t)n)];
	if (out->amount_max > out->amount)
		out->amount += (int)rng_below(rng, (uint32_t)(out->amount_max - out->amount + 1));
	out->amount_max = out->amount;
}

void bot_choose(const struct game_ops *g, const void *st, int level, struct rng *rng, struct action *out)
{
	int seat = g->to_act(st);
	assert(seat >= 0);
	const struct bot_ops *b = bot_find(g->name);
	if (level <= 0 || !b) {
		bot_random(g, st, rng, out);
		return;
	}
	void *view = malloc(g->state_size);
	assert(view);
	memcpy(view, st, g->state_size);
	g->redact(view, seat);
	b->choose(view, seat, level, rng, out);
	free(view);
	struct action legal[GAME_MAX_LEGAL];
	int n = g->legal(st, legal, GAME_MAX_LEGAL);
	if (!act_in_list(out, legal, n) || (b->proper && !b->proper(st, out)))
		bot_random(g, st, rng, out);
	out->amount_max = out->amount;
}
