/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The --deck file (deckfile_parse): the first bytes give a game and
 * players, the rest is the file, checked against that game's pack. A file
 * accepted holds only whole packs; the game then plays a few actions from
 * those stacked packs (the first legal action each time, or the one the
 * next byte of the file picks) under its audit. */
#include "fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "core/deckfile.h"
#include "fuzz/game_pick.h"

int fuzz_deckfile(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	const struct game_ops *g = fuzz_pick_game(data[0]);
	int players = fuzz_pick_players(g, data[1]);
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	card_t pack[CARD_MAX_PACK];
	char err[1024];
	int npack = g->pack(&r, players, pack, err, sizeof err);
	if (npack <= 0)
		return 0;
	char *text = fuzz_cstr(data + 2, size - 2);
	struct deckstack *ds = malloc(sizeof *ds);
	void *st = calloc(1, g->state_size);
	struct action *legal = malloc(sizeof *legal * GAME_MAX_LEGAL);
	if (!ds || !st || !legal)
		abort();
	err[0] = '\0';
	if (deckfile_parse(text, "fuzz.deck", pack, npack, ds, err, sizeof err) == 0) {
		if (ds->npacks < 1 || ds->npacks > 64)
			fuzz_fail("deck: %d packs", ds->npacks);
		for (int k = 0; k < ds->npacks; k++)
			if (!card_same_multiset(ds->cards[k], ds->size[k], pack, npack))
				fuzz_fail("deck: pack %d is not the game's pack", k + 1);
		struct game_setup setup = { players, 0, 1, &r, ds };
		if (g->init(st, &setup, err, sizeof err) == 0) {
			g->start(st, &fuzz_sink);
			size_t at = 2;
			for (int step = 0; step < 300 && g->to_act(st) >= 0; step++) {
				int nl = g->legal(st, legal, GAME_MAX_LEGAL);
				if (nl <= 0)
					fuzz_fail("%s: no legal action", g->name);
				const struct action *l = &legal[at < size ? data[at++] % (unsigned)nl : 0];
				struct action a;
				act_choice(l, at < size ? data[at++] % act_choices(l) : 0, &a);
				struct refusal why;
				if (g->apply(st, &a, &fuzz_sink, &why) != 0)
					fuzz_fail("%s: stacked deck: a legal action refused", g->name);
				if (g->audit(st, err, sizeof err) != 0)
					fuzz_fail("%s: stacked deck: audit: %s", g->name, err);
			}
		}
	} else if (!err[0]) {
		fuzz_fail("deck refused without a message");
	}
	free(legal);
	free(st);
	free(ds);
	free(text);
	return 0;
}

FUZZ_TARGET(fuzz_deckfile)
