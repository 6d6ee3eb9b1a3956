/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bouillotte (docs/rules/bouillotte.en.md): the shared
 * vying machinery with Bouillotte's options. */
#include "games/bouillotte.h"

#include <string.h>

#include "core/err.h"
#include "games/vying.h"

static const char *const ANTE_CHOICES[] = { "all", "dealer", NULL };

static const struct rule_def bouillotte_rules[] = {
	{ "cave", RULE_INT, 100, 1, 100000, NULL, NULL, 0, 0, N_("Chips in a cave: what each player starts with.") },
	{ "rebuy", RULE_CHOICE, 1, 0, 0, RULES_YES_NO, NULL, 0, 0,
	  N_("Yes: a player with no chips buys a new cave. No: that player leaves.") },
	{ "ante", RULE_CHOICE, 0, 0, 0, ANTE_CHOICES, NULL, 0, 0,
	  N_("All: everyone puts in 1 chip and the dealer 1 more. Dealer: the dealer alone puts in 1 chip.") },
	{ "straddle", RULE_CHOICE, 1, 0, 0, RULES_YES_NO, NULL, 0, 0, N_("Yes: before the deal, each player in turn may double the pot without seeing the cards.") },
	{ "buyback", RULE_CHOICE, 0, 0, 0, RULES_YES_NO, NULL, 0, 0,
	  N_("Yes: a straddler who is overstraddled may double the pot again to speak last.") },
	{ "brelan_pay", RULE_INT, 1, 0, 1, NULL, NULL, 0, 0,
	  N_("Chips each other player pays for a brelan at a showdown; double for a brelan carre.") },
	{ "mistigri", RULE_CHOICE, 0, 0, 0, RULES_YES_NO, NULL, 0, 0,
	  N_("Yes: the queen of clubs with a pair of one colour beats every point; 4 or 5 players only.") },
	{ "brelans", RULE_CHOICE, 1, 0, 0, RULES_YES_NO, NULL, 0, 0, N_("Yes: brelans count. No: only the point counts.") },
	{ "hands", RULE_INT, 0, 0, 100000, NULL, NULL, 0, 0, N_("Number of deals; 0 means no limit.") },
};
#define NRULES ((int)(sizeof bouillotte_rules / sizeof bouillotte_rules[0]))

static int bouillotte_pack(const struct rules *r, int players, card_t *out, char *err, size_t errlen)
{
	static const int r3[] = { RANK_ACE, RANK_KING, RANK_NINE, RANK_EIGHT };
	static const int r4[] = { RANK_ACE, RANK_KING, RANK_QUEEN, RANK_NINE, RANK_EIGHT };
	static const int r5[] = { RANK_ACE, RANK_KING, RANK_QUEEN, RANK_JACK, RANK_NINE, RANK_EIGHT };
	if (players < 3 || players > 5)
		return errf(err, errlen, "Bouillotte is for 3 to 5 players");
	if (players == 3 && r && rules_get(r, "mistigri"))
		return errf(err, errlen, "mistigri needs the queens: 4 or 5 players");
	if (players == 3)
		return card_pack(out, r3, 4, 1);
	if (players == 4)
		return card_pack(out, r4, 5, 1);
	return card_pack(out, r5, 6, 1);
}

static int bouillotte_init(void *st, const struct game_setup *setup, char *err, size_t errlen)
{
	struct rules def;
	const struct rules *r = setup->rules;
	if (!r) {
		rules_init(&def, bouillotte_rules, NRULES);
		r = &def;
	}
	struct vying_cfg c;
	memset(&c, 0, sizeof c);
	c.npack = bouillotte_pack(r, setup->players, c.pack, err, errlen);
	if (c.npack < 0)
		return -1;
	c.extra_round = 1;
	c.fixed_suit = 1;
	c.antes_stake = 1;
	c.ante_all = rules_get(r, "ante") == 0;
	c.ante_chips = 1;
	c.dealer_extra = c.ante_all ? 1 : 0;
	c.carry_dealer = 1;
	c.straddle = rules_get(r, "straddle") ? VY_STRADDLE_YES : VY_STRADDLE_NO;
	c.straddle_max = 99;
	c.buyback = rules_get(r, "buyback");
	c.brelans = rules_get(r, "brelans");
	c.mistigri = rules_get(r, "mistigri");
	c.brelan_pay = rules_get(r, "brelan_pay");
	c.cave = rules_get(r, "cave");
	c.rebuy = rules_get(r, "rebuy");
	c.caves = 1;
	c.hands = rules_get(r, "hands");
	return vying_init(st, setup, &c, err, errlen);
}

const struct game_ops bouillotte_ops = {
	.name = "bouillotte",
	.title = "Bouillotte",
	.min_players = 3,
	.max_players = 5,
	.default_players = 4,
	.clockwise = 0,
	.lower_wins = 0,
	.teams = 0,
	.state_size = sizeof(struct vying),
	.rules = bouillotte_rules,
	.nrules = NRULES,
	.pack = bouillotte_pack,
	.init = bouillotte_init,
	VYING_GAME_OPS,
};
