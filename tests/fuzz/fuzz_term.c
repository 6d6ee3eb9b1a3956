/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Keyboard bytes (term_decode): every byte string decodes into keys,
 * each using at least one byte and never more than there are. */
#include "fuzz/fuzz.h"

#include <string.h>

#include "ui/term.h"

int fuzz_term(const uint8_t *data, size_t size)
{
	int len = size > 1 << 16 ? 1 << 16 : (int)size;
	int at = 0;
	while (at < len) {
		int used = -1;
		int key = term_decode(data + at, len - at, &used);
		if (used < 1 || used > len - at)
			fuzz_fail("term_decode used %d of %d bytes", used, len - at);
		const char *name = term_key_name(key);
		if (!name || strlen(name) > 16)
			fuzz_fail("term_key_name(%d)", key);
		at += used;
	}
	int used = 1;
	if (term_decode(data, 0, &used) != KEY_NONE || used != 0)
		fuzz_fail("term_decode of nothing");
	return 0;
}

FUZZ_TARGET(fuzz_term)
