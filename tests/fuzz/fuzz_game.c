/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every game's apply() with arbitrary action sequences. The input gives the
 * game, the players, the seed, the first dealer and a few rule options,
 * then one byte an action: most pick an entry of the legal list (and an
 * amount in its range), which must be accepted; 0xF0 and above build an
 * arbitrary action (any kind, cards, amount): accepted
 * when it is in the legal list, otherwise refused with a reason and the
 * state unchanged to the byte. Those arbitrary actions are the ones the
 * text form can express (act_parse: valid cards, one with play, amounts
 * with open and raise only). The referee (audit) runs after every step;
 * the legal list is never empty while the game is on. */
#include "fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/game_pick.h"

static void check_audit(const struct game_ops *g, const void *st, const char *when, long step)
{
	char err[512];
	if (g->audit(st, err, sizeof err) != 0)
		fuzz_fail("%s: audit %s %ld: %s", g->name, when, step, err);
}

int fuzz_game(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size, 0 };
	const struct game_ops *g = fuzz_pick_game(fuzz_byte(&in));
	int players = fuzz_pick_players(g, fuzz_byte(&in));
	uint64_t seed = fuzz_u16(&in);
	seed |= (uint64_t)fuzz_u16(&in) << 16;
	int dealer = (int)(fuzz_byte(&in) % (unsigned)(players + 1)) - 1;
	struct rules r;
	fuzz_pick_rules(g, &r, &in);
	struct game_setup setup = { players, dealer, seed, &r, NULL };
	void *st = calloc(1, g->state_size), *before = malloc(g->state_size);
	struct action *legal = malloc(sizeof *legal * GAME_MAX_LEGAL);
	if (!st || !before || !legal)
		abort();
	char err[512];
	if (g->init(st, &setup, err, sizeof err) < 0)
		goto done;
	g->start(st, &fuzz_sink);
	check_audit(g, st, "at start", 0);
	for (long step = 1; fuzz_left(&in); step++) {
		int seat = g->to_act(st);
		struct action a;
		struct refusal why;
		unsigned b = fuzz_byte(&in);
		int nl = seat >= 0 ? g->legal(st, legal, GAME_MAX_LEGAL) : 0;
		if (seat >= 0 && (nl <= 0 || nl > GAME_MAX_LEGAL))
			fuzz_fail("%s: %d legal actions for seat %d", g->name, nl, seat);
		if (seat >= players)
			fuzz_fail("%s: seat %d to act of %d", g->name, seat, players);
		if (b >= 0xF0 || seat < 0) {
			/* Any action the text form can give (act_parse): cards with
			 * play (one) and discard only, amounts with open and raise. */
			memset(&a, 0, sizeof a);
			a.kind = (unsigned char)(1 + fuzz_byte(&in) % (ACT_COUNT - 1));
			a.ncards = a.kind == ACT_PLAY ? 1 : a.kind == ACT_DISCARD ? (unsigned char)(b & 3) : 0;
			for (int i = 0; i < a.ncards; i++) {
				unsigned c = fuzz_byte(&in);
				a.cards[i] = card_make(2 + (int)(c % 13), (int)(c / 13 % 4));
			}
			if (act_has_amount(a.kind)) {
				a.amount = (int)fuzz_u16(&in);
				if (a.amount == 0)
					a.amount = 1000000000;
			}
			a.amount_max = a.amount;
		} else {
			const struct action *l = &legal[b % (unsigned)nl];
			/* one of the sets of a discard entry, the fuzzer's pick */
			act_choice(l, l->sets ? (int)(fuzz_u16(&in) % (unsigned)act_choices(l)) : 0, &a);
			if (a.amount_max > a.amount)
				a.amount += (int)(fuzz_u16(&in) % (unsigned)(a.amount_max - a.amount + 1));
			a.amount_max = a.amount;
		}
		int ok = seat >= 0 && act_in_list(&a, legal, nl);
		char txt[ACT_STR_MAX];
		memcpy(before, st, g->state_size);
		memset(&why, 0, sizeof why);
		int rc = g->apply(st, &a, &fuzz_sink, &why);
		if (ok && rc != 0)
			fuzz_fail("%s: step %ld: legal '%s' of seat %d refused (code %d)", g->name, step,
			          act_format(&a, txt, sizeof txt), seat, why.code);
		if (!ok && rc == 0)
			fuzz_fail("%s: step %ld: '%s' (kind %d, %d cards) accepted for seat %d, not in the legal list",
			          g->name, step, act_format(&a, txt, sizeof txt), a.kind, a.ncards, seat);
		if (!ok && memcmp(before, st, g->state_size) != 0)
			fuzz_fail("%s: step %ld: refused '%s' changed the state", g->name, step,
			          act_format(&a, txt, sizeof txt));
		if (!ok && why.code == 0)
			fuzz_fail("%s: step %ld: '%s' refused without a reason", g->name, step,
			          act_format(&a, txt, sizeof txt));
		check_audit(g, st, "after step", step);
		if (seat < 0)
			break;
		/* What the table and the speech layer read after every action. */
		card_t hand[CARD_MAX_PACK];
		int standings[GAME_MAX_SEATS];
		for (int s = 0; s < players; s++)
			if (g->hand(st, s, hand) > GAME_MAX_HAND)
				fuzz_fail("%s: hand of %d cards", g->name, g->hand(st, s, hand));
		int ns = g->standings(st, standings);
		if (ns < 1 || ns > players)
			fuzz_fail("%s: %d standings", g->name, ns);
		int d = g->dealer(st);
		if (d < 0 || d >= players || g->hand_number(st) < 1)
			fuzz_fail("%s: dealer %d, hand %d", g->name, d, g->hand_number(st));
	}
done:
	free(st);
	free(before);
	free(legal);
	return 0;
}

FUZZ_TARGET(fuzz_game)
