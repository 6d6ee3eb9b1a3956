/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Action text (act_parse): any text; an action read is written back
 * (act_format) and read again the same. */
#include "fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "core/action.h"

int fuzz_action(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);
	struct action a, b;
	char err[160];
	err[0] = '\0';
	if (act_parse(s, &a, err, sizeof err) == 0) {
		if (a.kind <= ACT_NONE || a.kind >= ACT_COUNT || a.ncards > ACT_MAX_CARDS)
			fuzz_fail("act_parse('%s'): kind %d, %d cards", s, a.kind, a.ncards);
		for (int i = 0; i < a.ncards; i++)
			if (!card_valid(a.cards[i]))
				fuzz_fail("act_parse('%s'): invalid card", s);
		char txt[ACT_STR_MAX];
		act_format(&a, txt, sizeof txt);
		if (act_parse(txt, &b, err, sizeof err) < 0 || !act_equal(&a, &b))
			fuzz_fail("action '%s' written as '%s' does not read back", s, txt);
	} else if (!memchr(err, '\0', sizeof err) || !err[0]) {
		fuzz_fail("act_parse('%s') refused without a message", s);
	}
	free(s);
	return 0;
}

FUZZ_TARGET(fuzz_action)
