/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Card notation (card_parse and friends): any text; a card read is written
 * back and read again the same. */
#include "fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "core/card.h"

int fuzz_card(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);
	card_t c = CARD_NONE;
	if (card_parse(s, &c) == 0) {
		if (!card_valid(c))
			fuzz_fail("card_parse('%s') gave an invalid card %d", s, c);
		char buf[CARD_STR_MAX];
		card_t again;
		if (card_parse(card_str(c, buf), &again) < 0 || again != c)
			fuzz_fail("card '%s' written as '%s' does not read back", s, buf);
	}
	size_t used = card_parse_prefix(s, &c);
	if (used > strlen(s) || (used && !card_valid(c)))
		fuzz_fail("card_parse_prefix('%s') used %zu", s, used);
	int r = card_rank_parse(s);
	if (r != -1 && (r < RANK_TWO || r > RANK_ACE))
		fuzz_fail("card_rank_parse('%s') = %d", s, r);
	int su = card_suit_parse(s);
	if (su < -1 || su >= SUIT_COUNT)
		fuzz_fail("card_suit_parse('%s') = %d", s, su);
	free(s);
	return 0;
}

FUZZ_TARGET(fuzz_card)
