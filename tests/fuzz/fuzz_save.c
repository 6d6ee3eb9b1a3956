/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Saved games (save_parse, table_parse_save): any bytes. What is accepted
 * has its whole lines within the input, a torn tail only when bytes are
 * left over, and its whole lines alone read back the same; the options of
 * an accepted save are in range for its game. */
#include "fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "app/save.h"
#include "app/table.h"

int fuzz_save(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct save_file f, g;
	char err[512];
	if (save_parse(text, size, "fuzz", &f, err, sizeof err) == 0) {
		if (f.valid_len < 0 || (size_t)f.valid_len > size)
			fuzz_fail("valid_len %ld of %zu bytes", f.valid_len, size);
		if (f.torn != ((size_t)f.valid_len < size))
			fuzz_fail("torn %d with %ld of %zu bytes whole", f.torn, f.valid_len, size);
		if (save_parse(text, (size_t)f.valid_len, "fuzz", &g, err, sizeof err) < 0)
			fuzz_fail("the whole lines of a save are refused: %s", err);
		if (g.torn || g.nrecords != f.nrecords || g.crc != f.crc || g.nheader != f.nheader)
			fuzz_fail("the whole lines of a save read differently");
		save_file_release(&g);
		save_file_release(&f);
	}
	struct table_saved *s = malloc(sizeof *s);
	if (!s)
		return 0;
	if (table_parse_save(text, size, "fuzz", s, err, sizeof err) == 0) {
		const struct table_options *o = &s->opt;
		if (!o->game || o->players < o->game->min_players || o->players > o->game->max_players ||
		    o->dealer < -1 || o->dealer >= o->players)
			fuzz_fail("a save accepted with options out of range");
		for (int i = 0; i < s->actions.n; i++)
			if (s->actions.lines[i].seat < 0 || s->actions.lines[i].seat >= o->players)
				fuzz_fail("a save accepted with an action for seat %d", s->actions.lines[i].seat);
		table_saved_release(s);
	}
	free(s);
	return 0;
}

FUZZ_TARGET(fuzz_save)
