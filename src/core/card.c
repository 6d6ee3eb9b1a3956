/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/card.h"

#include <ctype.h>
#include <string.h>

#include "core/rng.h"

static const char RANK_CHARS[] = "??23456789TJQKA";
static const char SUIT_CHARS[] = "SHDC";

char card_rank_char(int rank) { return (rank >= 2 && rank <= 14) ? RANK_CHARS[rank] : '?'; }
char card_suit_char(int suit) { return (suit >= 0 && suit < 4) ? SUIT_CHARS[suit] : '?'; }

static int rank_prefix(const char *s, int *rank)
{
	if (s[0] == '1' && s[1] == '0') {
		*rank = RANK_TEN;
		return 2;
	}
	int c = toupper((unsigned char)s[0]);
	for (int r = 2; r <= 14; r++)
		if (RANK_CHARS[r] == c) {
			*rank = r;
			return 1;
		}
	return 0;
}

static int suit_of_char(int ch)
{
	const char *p = strchr(SUIT_CHARS, toupper(ch));
	return (p && ch) ? (int)(p - SUIT_CHARS) : -1;
}

size_t card_parse_prefix(const char *s, card_t *out)
{
	int rank;
	int used = rank_prefix(s, &rank);
	if (!used)
		return 0;
	int suit = suit_of_char((unsigned char)s[used]);
	if (suit < 0)
		return 0;
	*out = card_make(rank, suit);
	return (size_t)used + 1;
}

int card_parse(const char *s, card_t *out)
{
	size_t n = card_parse_prefix(s, out);
	return (n && s[n] == '\0') ? 0 : -1;
}

int card_rank_parse(const char *s)
{
	int rank;
	int used = rank_prefix(s, &rank);
	return (used && s[used] == '\0') ? rank : -1;
}

int card_suit_parse(const char *s)
{
	return (s[0] && !s[1]) ? suit_of_char((unsigned char)s[0]) : -1;
}

char *card_str(card_t c, char *buf)
{
	if (!card_valid(c)) {
		strcpy(buf, "??");
		return buf;
	}
	buf[0] = card_rank_char(card_rank(c));
	buf[1] = card_suit_char(card_suit(c));
	buf[2] = '\0';
	return buf;
}

int card_pack(card_t *out, const int *ranks, int nranks, int copies)
{
	int n = 0;
	for (int k = 0; k < copies; k++)
		for (int s = 0; s < SUIT_COUNT; s++)
			for (int i = 0; i < nranks; i++)
				out[n++] = card_make(ranks[i], s);
	return n;
}

int card_pack_full(card_t *out, int copies)
{
	static const int ranks[] = { 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2 };
	return card_pack(out, ranks, 13, copies);
}

void card_shuffle(card_t *cards, int n, struct rng *rng)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below(rng, (uint32_t)i + 1);
		card_t t = cards[i];
		cards[i] = cards[j];
		cards[j] = t;
	}
}

int card_same_multiset(const card_t *a, int na, const card_t *b, int nb)
{
	if (na != nb)
		return 0;
	int count[256] = { 0 };
	for (int i = 0; i < na; i++)
		count[a[i]]++;
	for (int i = 0; i < nb; i++)
		if (--count[b[i]] < 0)
			return 0;
	return 1;
}

int card_find(const card_t *cards, int n, card_t c)
{
	for (int i = 0; i < n; i++)
		if (cards[i] == c)
			return i;
	return -1;
}

int card_has_suit(const card_t *cards, int n, int suit)
{
	for (int i = 0; i < n; i++)
		if (cards[i] != CARD_NONE && card_suit(cards[i]) == suit)
			return 1;
	return 0;
}

void card_remove_at(card_t *cards, int *n, int i)
{
	memmove(cards + i, cards + i + 1, (size_t)(*n - i - 1) * sizeof *cards);
	(*n)--;
}

int card_remove(card_t *cards, int *n, card_t c)
{
	int i = card_find(cards, *n, c);
	if (i < 0)
		return -1;
	card_remove_at(cards, n, i);
	return 0;
}

static int sort_key(card_t c, const int *rank_order)
{
	int strength = rank_order ? rank_order[card_rank(c)] : card_rank(c);
	return card_suit(c) * 64 + (63 - strength);
}

void card_sort(card_t *cards, int n, const int *rank_order)
{
	for (int i = 1; i < n; i++) {
		card_t c = cards[i];
		int k = sort_key(c, rank_order);
		int j = i - 1;
		while (j >= 0 && sort_key(cards[j], rank_order) > k) {
			cards[j + 1] = cards[j];
			j--;
		}
		cards[j + 1] = c;
	}
}
