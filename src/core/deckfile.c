/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/deckfile.h"
#include "core/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"

char *deckfile_slurp(const char *path, char *err, size_t errlen)
{
	return file_read(path, NULL, err, errlen);
}

/* Check one finished pack against the game's pack. */
static int check_pack(const struct deckstack *ds, int k, const int *lines, int line, const char *name,
                      const card_t *pack, int npack, char *err, size_t errlen)
{
	const card_t *cards = ds->cards[k];
	int n = ds->size[k];
	int want[256] = { 0 }, have[256] = { 0 };
	for (int i = 0; i < npack; i++)
		want[pack[i]]++;
	for (int i = 0; i < n; i++)
		have[cards[i]]++;
	char c[CARD_STR_MAX];
	for (int i = 0; i < n; i++) {
		if (have[cards[i]] > want[cards[i]]) {
			if (want[cards[i]] == 0)
				return errf(err, errlen, "%s:%d: pack %d: %s is not in this game's pack", name, lines[i],
				            k + 1, card_str(cards[i], c));
			return errf(err, errlen, "%s:%d: pack %d: %s appears %d times (the pack has %d)", name,
			            lines[i], k + 1, card_str(cards[i], c), have[cards[i]], want[cards[i]]);
		}
	}
	for (int i = 0; i < npack; i++)
		if (have[pack[i]] < want[pack[i]])
			return errf(err, errlen, "%s:%d: pack %d: %s is missing (%d cards given, the pack has %d)", name,
			            line, k + 1, card_str(pack[i], c), n, npack);
	return 0;
}

int deckfile_parse(const char *text, const char *name, const card_t *pack, int npack,
                   struct deckstack *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	int line = 1, k = 0, last_line = 1;
	int lines[CARD_MAX_PACK];
	const char *p = text;
	while (*p) {
		if (*p == '\n') {
			line++;
			p++;
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\r') {
			p++;
			continue;
		}
		if (*p == '#') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		/* A line holding only "--" ends a pack. */
		if (p[0] == '-' && p[1] == '-') {
			const char *q = p + 2;
			while (*q == ' ' || *q == '\t' || *q == '\r')
				q++;
			if (*q == '\n' || *q == '\0' || *q == '#') {
				if (check_pack(out, k, lines, line, name, pack, npack, err, errlen) < 0)
					return -1;
				if (++k >= (int)(sizeof out->size / sizeof out->size[0]))
					return errf(err, errlen, "%s:%d: too many packs (at most %d)", name, line, k);
				p = q;
				continue;
			}
		}
		const char *start = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p != '#')
			p++;
		char word[8];
		snprintf(word, sizeof word, "%.*s", (int)(p - start), start);
		card_t c;
		if ((size_t)(p - start) >= sizeof word || card_parse(word, &c) < 0) {
			char shown[FILE_QUOTE_MAX];
			return errf(err, errlen, "%s:%d: '%s' is not a card (rank A K Q J T 9..2, suit S H D C)", name,
			            line, file_escape(start, (size_t)(p - start), shown, sizeof shown));
		}
		if (out->size[k] >= CARD_MAX_PACK || out->size[k] >= npack)
			return errf(err, errlen, "%s:%d: pack %d has more than the %d cards of this game's pack", name,
			            line, k + 1, npack);
		lines[out->size[k]] = line;
		last_line = line;
		out->cards[k][out->size[k]++] = c;
	}
	if (out->size[k] > 0) {
		if (check_pack(out, k, lines, last_line, name, pack, npack, err, errlen) < 0)
			return -1;
		k++;
	}
	if (k == 0)
		return errf(err, errlen, "%s: no cards", name);
	out->npacks = k;
	return 0;
}

int deckfile_load(const char *path, const card_t *pack, int npack,
                  struct deckstack *out, char *err, size_t errlen)
{
	char *text = deckfile_slurp(path, err, errlen);
	if (!text)
		return -1;
	int rc = deckfile_parse(text, path, pack, npack, out, err, errlen);
	free(text);
	return rc;
}

void deckfile_deal_pack(const struct deckstack *ds, int k, const card_t *pack, int n,
                        struct rng *rng, card_t *out)
{
	if (ds && k >= 0 && k < ds->npacks && ds->size[k] == n) {
		memcpy(out, ds->cards[k], (size_t)n);
		return;
	}
	memmove(out, pack, (size_t)n);
	card_shuffle(out, n, rng);
}
