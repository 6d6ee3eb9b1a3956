/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rule options (rules_set_arg): the first bytes give a game and players,
 * then one KEY=VALUE a line. Every accepted value is written back
 * (rules_value_str) and read again the same; then the game is set up with
 * those rules: init may refuse them with a message, else the game starts,
 * passes its audit and has a legal action. */
#include "fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz/game_pick.h"

int fuzz_rules(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	const struct game_ops *g = fuzz_pick_game(data[0]);
	int players = fuzz_pick_players(g, data[1]);
	char *text = fuzz_cstr(data + 2, size - 2);
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	char err[1024];
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		err[0] = '\0';
		if (rules_set_arg(&r, line, err, sizeof err) < 0 && !err[0])
			fuzz_fail("rule '%s' refused without a message", line);
	}
	for (int i = 0; i < r.n; i++) {
		char buf[64];
		const char *v = rules_value_str(&r, i, buf, sizeof buf);
		struct rules r2 = r;
		if (!v || rules_set(&r2, g->rules[i].key, v, err, sizeof err) < 0 || r2.value[i] != r.value[i])
			fuzz_fail("%s: rule %s=%s does not read back", g->name, g->rules[i].key, v ? v : "(null)");
	}
	struct game_setup setup = { players, -1, 1, &r, NULL };
	void *st = calloc(1, g->state_size);
	if (!st)
		abort();
	if (g->init(st, &setup, err, sizeof err) == 0) {
		g->start(st, &fuzz_sink);
		if (g->audit(st, err, sizeof err) != 0)
			fuzz_fail("%s: audit at start: %s", g->name, err);
		struct action legal[GAME_MAX_LEGAL];
		if (g->to_act(st) >= 0 && g->legal(st, legal, GAME_MAX_LEGAL) <= 0)
			fuzz_fail("%s: no legal action at start", g->name);
	} else if (!err[0]) {
		fuzz_fail("%s: init refused without a message", g->name);
	}
	free(st);
	free(text);
	return 0;
}

FUZZ_TARGET(fuzz_rules)
