/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the game targets (see game_pick.h). */
#include "fuzz/game_pick.h"

#include "app/registry.h"
#include "core/history.h"

const struct game_ops *fuzz_pick_game(unsigned b)
{
	int n = 0;
	while (registry_games[n].ops)
		n++;
	return registry_games[b % (unsigned)n].ops;
}

int fuzz_pick_players(const struct game_ops *g, unsigned b)
{
	return g->min_players + (int)(b % (unsigned)(g->max_players - g->min_players + 1));
}

void fuzz_pick_rules(const struct game_ops *g, struct rules *r, struct fuzz_in *in)
{
	rules_init(r, g->rules, g->nrules);
	if (g->nrules == 0)
		return;
	int k = (int)(fuzz_byte(in) % 4);
	for (int j = 0; j < k; j++) {
		int i = (int)(fuzz_byte(in) % (unsigned)g->nrules);
		const struct rule_def *d = &g->rules[i];
		unsigned b = fuzz_byte(in);
		int v;
		if (d->allow_auto && b == 255)
			v = RULE_AUTO;
		else if (d->allow_random && b == 254)
			v = RULE_RANDOM;
		else {
			switch (d->type) {
			case RULE_INT: {
				long span = (long)d->max - d->min + 1;
				v = b < 3 ? (b == 0 ? d->min : b == 1 ? d->max : d->def)
				          : d->min + (int)((long)fuzz_u16(in) % span);
				if (d->none_word && b == 3)
					v = RULE_NONE;
				break;
			}
			case RULE_CHOICE: {
				int n = 0;
				while (d->choices[n])
					n++;
				v = (int)(b % (unsigned)n);
				break;
			}
			case RULE_SUIT: v = (int)(b % 4); break;
			case RULE_RANK: v = 2 + (int)(b % 13); break;
			default: v = card_make(2 + (int)(b % 13), (int)(fuzz_byte(in) % 4)); break;
			}
		}
		if (v == RULE_AUTO && !d->allow_auto)
			continue;
		r->value[i] = v;
		r->given[i] = 1;
	}
}

static void emit(void *ctx, const struct event *e)
{
	(void)ctx;
	if (e->ncards < 0 || e->ncards > EV_MAX_CARDS || e->nvalues < 0 || e->nvalues > EV_MAX_SEATS)
		fuzz_fail("event %d: %d cards, %d values", e->type, e->ncards, e->nvalues);
	static char buf[16384];
	size_t n = hist_format(e, 1, buf, sizeof buf);
	if (n >= sizeof buf)
		fuzz_fail("event %d: log line of %zu bytes", e->type, n);
}

const struct sink fuzz_sink = { emit, NULL };
