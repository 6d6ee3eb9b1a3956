/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/rulewords.h"

#include <string.h>

#include "core/card.h"
#include "i18n/i18n.h"
#include "words/say.h"

int rulewords_values(const struct rule_def *d, int *out, int max)
{
	int n = 0;
	if (d->allow_random && n < max)
		out[n++] = RULE_RANDOM;
	if (d->allow_auto && n < max)
		out[n++] = RULE_AUTO;
	switch (d->type) {
	case RULE_INT: /* stepped by arithmetic in menu_rule_step (ui/menu) */
		break;
	case RULE_CHOICE:
		for (int v = 0; d->choices[v] && n < max; v++)
			out[n++] = v;
		break;
	case RULE_SUIT:
		for (int v = 0; v < SUIT_COUNT && n < max; v++)
			out[n++] = v;
		break;
	case RULE_RANK:
		for (int v = RANK_ACE; v >= RANK_TWO && n < max; v--)
			out[n++] = v;
		break;
	case RULE_CARD:
		for (int suit = 0; suit < SUIT_COUNT; suit++)
			for (int rank = RANK_ACE; rank >= RANK_TWO && n < max; rank--)
				out[n++] = card_make(rank, suit);
		break;
	}
	return n;
}

/* La Bouillabaisse counts its deals in rounds (at most 6; elsewhere the
 * limit is large). */
static int counts_rounds(const struct rule_def *d)
{
	return d->type == RULE_INT && strcmp(d->key, "hands") == 0 && d->max > 0 && d->max <= 12;
}

const char *rulewords_name(const struct rule_def *d)
{
	if (counts_rounds(d))
		return C_("rule", "rounds");
	return C_("rule", d->key);
}

const char *rulewords_label(const struct rules *r, int i, char *buf, size_t len)
{
	const struct rule_def *d = &r->defs[i];
	const char *v = rules_value_str(r, i, buf, len);
	int x = r->value[i];
	if (x >= 0 && d->type == RULE_SUIT)
		return say_suit(NULL, x);
	if (x >= 0 && d->type == RULE_RANK)
		return say_rank(NULL, x, SAY_RANK_PLURAL);
	if (x >= 0 && d->type == RULE_CARD)
		return say_card_str(NULL, (card_t)x, SAY_THE, buf, len);
	/* The number of deals: 0 plays every round of La Bouillabaisse (its
	 * rounds are counted), elsewhere it means no limit. */
	if (x == 0 && d->type == RULE_INT && strcmp(d->key, "hands") == 0)
		return counts_rounds(d) ? C_("rule", "every round") : C_("rule", "unlimited");
	return C_("rule", v);
}
