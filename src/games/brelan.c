/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Le Brelan (docs/rules/brelan.en.md): the shared vying
 * machinery with Le Brelan's options. */
#include "games/brelan.h"

#include <string.h>

#include "core/err.h"
#include "games/vying.h"

static const char *const PACK_CHOICES[] = { "20", "24", "28", "32", "36", NULL };
static const char *const PASSE_CHOICES[] = { "all", "dealer", "none", NULL };
static const char *const CARRE_CHOICES[] = { "no", "yes", "forced", NULL };
static const char *const RECAVE_CHOICES[] = { "no", "between", NULL };

static const struct rule_def brelan_rules[] = {
	{ "pack", RULE_CHOICE, 2, 0, 0, PACK_CHOICES, NULL, 0, 0,
	  N_("Cards in the pack: 20 is ace to ten, 24 adds the nines, 28 the eights, 32 the sevens, 36 the sixes.") },
	{ "passe", RULE_CHOICE, 0, 0, 0, PASSE_CHOICES, NULL, 0, 0,
	  N_("Who puts in the passe: all players, the dealer alone, or none.") },
	{ "passe_chips", RULE_INT, 1, 1, 1000, NULL, NULL, 0, 0, N_("Chips each payer puts in the passe.") },
	{ "carre", RULE_CHOICE, 0, 0, 0, CARRE_CHOICES, NULL, 0, 0,
	  N_("Yes: the first player may buy the carre before seeing the cards. Forced: he must.") },
	{ "carre_levels", RULE_INT, 2, 1, 4, NULL, NULL, 0, 0,
	  N_("How far the carre goes: 1, carre only; 2, contrecarre; 3, surcarre or tricarre; 4, surcontrecarre or quadricarre.") },
	{ "brelan_pay", RULE_INT, 0, 0, 2, NULL, NULL, 0, 0,
	  N_("Chips each other player pays for a brelan at a showdown; double for a brelan carre.") },
	{ "cave", RULE_INT, 100, 1, 100000, NULL, NULL, 0, 0, N_("Chips in a cave: what each player starts with.") },
	{ "recave", RULE_CHOICE, 0, 0, 0, RECAVE_CHOICES, NULL, 0, 0,
	  N_("Between: a player may recave to a full cave between deals. No: a player with no chips leaves.") },
	{ "caves", RULE_INT, 1, 1, 20, NULL, NULL, 0, 0,
	  N_("Caves each player owns, used one after another: Brelan cave.") },
	{ "hands", RULE_INT, 0, 0, 100000, NULL, NULL, 0, 0, N_("Number of deals; 0 means no limit.") },
};
#define NRULES ((int)(sizeof brelan_rules / sizeof brelan_rules[0]))

static int brelan_pack(const struct rules *r, int players, card_t *out, char *err, size_t errlen)
{
	static const int ranks[] = { RANK_ACE, RANK_KING, RANK_QUEEN, RANK_JACK, RANK_TEN,
	                             RANK_NINE, RANK_EIGHT, RANK_SEVEN, RANK_SIX };
	if (players < 2 || players > 5)
		return errf(err, errlen, "Le Brelan is for 2 to 5 players");
	int p = r ? rules_get(r, "pack") : 2;
	return card_pack(out, ranks, 5 + p, 1);
}

static int brelan_init(void *st, const struct game_setup *setup, char *err, size_t errlen)
{
	struct rules def;
	const struct rules *r = setup->rules;
	if (!r) {
		rules_init(&def, brelan_rules, NRULES);
		r = &def;
	}
	struct vying_cfg c;
	memset(&c, 0, sizeof c);
	c.npack = brelan_pack(r, setup->players, c.pack, err, errlen);
	if (c.npack < 0)
		return -1;
	c.brelan_rules = 1;
	int passe = rules_get(r, "passe");
	c.ante_all = passe == 0;
	c.ante_none = passe == 2;
	c.ante_chips = rules_get(r, "passe_chips");
	int carre = rules_get(r, "carre");
	c.straddle = carre == 2 ? VY_STRADDLE_FORCED : carre == 1 ? VY_STRADDLE_YES : VY_STRADDLE_NO;
	c.straddle_max = rules_get(r, "carre_levels");
	c.buyback = c.straddle_max >= 3;
	c.straddle_opens = 1;
	c.open_min_pot = 1;
	c.short_open = 1;
	c.brelans = 1;
	c.brelan_pay = rules_get(r, "brelan_pay");
	c.cave = rules_get(r, "cave");
	c.caves = rules_get(r, "caves");
	c.rebuy = c.caves <= 1 && rules_get(r, "recave") == 1;
	c.hands = rules_get(r, "hands");
	return vying_init(st, setup, &c, err, errlen);
}

const struct game_ops brelan_ops = {
	.name = "brelan",
	.title = "Le Brelan",
	.min_players = 2,
	.max_players = 5,
	.default_players = 4,
	.clockwise = 0,
	.lower_wins = 0,
	.teams = 0,
	.state_size = sizeof(struct vying),
	.rules = brelan_rules,
	.nrules = NRULES,
	.pack = brelan_pack,
	.init = brelan_init,
	VYING_GAME_OPS,
};
