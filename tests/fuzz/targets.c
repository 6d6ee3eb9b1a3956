/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The table of every fuzz target (the Check replay of the corpus). */
#include "fuzz/fuzz.h"

const struct fuzz_target fuzz_targets[] = {
	{ "card", fuzz_card },
	{ "action", fuzz_action },
	{ "rules", fuzz_rules },
	{ "deckfile", fuzz_deckfile },
	{ "script", fuzz_script },
	{ "replay", fuzz_replay },
	{ "settings", fuzz_settings },
	{ "i18n", fuzz_i18n },
	{ "term", fuzz_term },
	{ "game", fuzz_game },
	{ "save", fuzz_save },
	{ "proto", fuzz_proto },
	{ NULL, NULL },
};
