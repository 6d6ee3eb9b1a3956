/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The --actions file (script_parse): the first byte gives the number of
 * players, the rest is the file. Every line read is an action that reads
 * back the same. */
#include "fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "core/script.h"

int fuzz_script(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int players = 1 + data[0] % 8;
	char *text = fuzz_cstr(data + 1, size - 1);
	struct script s;
	char err[512];
	if (script_parse(&s, text, "fuzz.actions", players, err, sizeof err) == 0) {
		int n = 0;
		const struct script_line *l;
		while ((l = script_peek(&s))) {
			if (l->seat < 0 || l->seat >= players || l->act.kind <= ACT_NONE || l->act.kind >= ACT_COUNT)
				fuzz_fail("script line %d: seat %d kind %d", l->line, l->seat, l->act.kind);
			struct action a;
			char aerr[160];
			if (strlen(l->text) < ACT_STR_MAX - 1 &&
			    act_parse(strchr(l->text, ' ') ? l->text + strcspn(l->text, " \t") : "", &a, aerr,
			              sizeof aerr) == 0 && !act_equal(&a, &l->act))
				fuzz_fail("script line %d: '%s' reads another action", l->line, l->text);
			script_advance(&s);
			n++;
		}
		if (n != s.n)
			fuzz_fail("script: %d lines walked of %d", n, s.n);
		script_release(&s);
	} else if (s.lines || !err[0]) {
		fuzz_fail("script refused without a message or kept its lines");
	}
	free(text);
	return 0;
}

FUZZ_TARGET(fuzz_script)
