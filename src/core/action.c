/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/action.h"
#include "core/err.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/num.h"

static const char *const WORDS[ACT_COUNT] = {
	[ACT_NONE] = NULL,          [ACT_PLAY] = "play",     [ACT_PASS] = "pass",
	[ACT_STRADDLE] = "straddle", [ACT_DECLINE] = "decline", [ACT_BUYBACK] = "buyback",
	[ACT_OPEN] = "open",        [ACT_CALL] = "call",     [ACT_RAISE] = "raise",
	[ACT_FOLD] = "fold",        [ACT_ALLIN] = "allin",   [ACT_STAY] = "stay",
	[ACT_DISCARD] = "discard",  [ACT_TAKE] = "take",     [ACT_LEAVE] = "leave",
};

const char *act_word(int kind)
{
	return (kind > ACT_NONE && kind < ACT_COUNT) ? WORDS[kind] : NULL;
}

int act_kind_of(const char *word)
{
	for (int k = 1; k < ACT_COUNT; k++)
		if (strcmp(WORDS[k], word) == 0)
			return k;
	return ACT_NONE;
}

int act_has_amount(int kind) { return kind == ACT_OPEN || kind == ACT_RAISE; }

int act_parse(const char *text, struct action *out, char *err, size_t errlen)
{
	char buf[ACT_TEXT_MAX];
	if (strlen(text) >= sizeof buf)
		return errf(err, errlen, "an action longer than %zu characters", sizeof buf - 1);
	snprintf(buf, sizeof buf, "%s", text);
	char *save = NULL;
	char *word = strtok_r(buf, " \t\r\n", &save);
	if (!word)
		return errf(err, errlen, "empty action");
	int kind = act_kind_of(word);
	if (kind == ACT_NONE) {
		char w[FILE_QUOTE_MAX];
		return errf(err, errlen, "unknown action '%s'", file_escape(word, SIZE_MAX, w, sizeof w));
	}
	*out = act_simple(kind);
	char *arg;
	while ((arg = strtok_r(NULL, " \t\r\n", &save))) {
		if (act_has_amount(kind) && out->amount == 0) {
			long long v;
			if (num_parse(arg, 1, ACT_MAX_AMOUNT, &v) < 0) {
				char w[FILE_QUOTE_MAX];
				return errf(err, errlen, "'%s' is not an amount of chips", file_escape(arg, SIZE_MAX, w, sizeof w));
			}
			out->amount = out->amount_max = (int)v;
			continue;
		}
		if (kind != ACT_PLAY && kind != ACT_DISCARD) {
			char w[FILE_QUOTE_MAX];
			return errf(err, errlen, "'%s' takes no argument '%s'", word, file_escape(arg, SIZE_MAX, w, sizeof w));
		}
		card_t c;
		if (card_parse(arg, &c) < 0) {
			char w[FILE_QUOTE_MAX];
			return errf(err, errlen, "'%s' is not a card", file_escape(arg, SIZE_MAX, w, sizeof w));
		}
		if (out->ncards >= ACT_MAX_CARDS || (kind == ACT_PLAY && out->ncards == 1))
			return errf(err, errlen, "too many cards for '%s'", word);
		out->cards[out->ncards++] = c;
	}
	if (act_has_amount(kind) && out->amount == 0)
		return errf(err, errlen, "'%s' needs an amount", word);
	if (kind == ACT_PLAY && out->ncards != 1)
		return errf(err, errlen, "'play' needs a card");
	return 0;
}

char *act_format(const struct action *a, char *buf, size_t len)
{
	const char *w = act_word(a->kind);
	size_t used = (size_t)snprintf(buf, len, "%s", w ? w : "none");
	if (act_has_amount(a->kind) && used < len)
		used += (size_t)snprintf(buf + used, len - used, " %d", a->amount);
	for (int i = 0; i < a->ncards && used < len; i++) {
		char c[CARD_STR_MAX];
		used += (size_t)snprintf(buf + used, len - used, " %s", card_str(a->cards[i], c));
	}
	return buf;
}

int act_equal(const struct action *a, const struct action *b)
{
	if (a->kind != b->kind)
		return 0;
	if (act_has_amount(a->kind) && a->amount != b->amount)
		return 0;
	return card_same_multiset(a->cards, a->ncards, b->cards, b->ncards);
}

/* The sets of k cards among n (n <= ACT_MAX_CARDS). */
static int sets_of(int n, int k)
{
	int c = 1;
	for (int i = 0; i < k; i++)
		c = c * (n - i) / (i + 1);
	return c;
}

int act_sets_count(const struct action *l)
{
	if (l->amount <= 0 && l->amount_max >= l->ncards)
		return 1 << l->ncards;   /* every set */
	int n = 0;
	for (int k = l->amount; k <= l->amount_max && k <= l->ncards; k++)
		n += sets_of(l->ncards, k);
	return n;
}

void act_set_choice(const struct action *l, int k, struct action *out)
{
	*out = *l;
	out->sets = 0;
	out->amount = out->amount_max = 0;
	out->ncards = 0;
	memset(out->cards, 0, sizeof out->cards);
	int size = l->amount;
	while (size < l->ncards && k >= sets_of(l->ncards, size))
		k -= sets_of(l->ncards, size++);
	/* the k-th set of that size in numeric order, by Gosper's step */
	unsigned m = (1u << size) - 1;
	for (; k > 0 && m; k--) {
		unsigned low = m & -m, up = m + low;
		m = up | (((up ^ m) >> 2) >> __builtin_ctz(m));
	}
	for (int i = 0; i < l->ncards; i++)
		if (m >> i & 1)
			out->cards[out->ncards++] = l->cards[i];
}

/* 1 when the cards of a are different cards of l's, from l->amount to
 * l->amount_max of them. */
static int in_sets(const struct action *a, const struct action *l)
{
	if (a->ncards < l->amount || a->ncards > l->amount_max)
		return 0;
	for (int i = 0; i < a->ncards; i++) {
		int found = 0;
		for (int j = 0; j < l->ncards && !found; j++)
			found = a->cards[i] == l->cards[j];
		for (int j = 0; j < i && found; j++)
			found = a->cards[j] != a->cards[i];
		if (!found)
			return 0;
	}
	return 1;
}

int act_in_list(const struct action *a, const struct action *legal, int n)
{
	for (int i = 0; i < n; i++) {
		const struct action *l = &legal[i];
		if (l->kind != a->kind)
			continue;
		if (l->sets) {
			if (in_sets(a, l))
				return 1;
			continue;
		}
		if (act_has_amount(a->kind)) {
			int hi = l->amount_max > l->amount ? l->amount_max : l->amount;
			if (a->amount >= l->amount && a->amount <= hi)
				return 1;
			continue;
		}
		if (card_same_multiset(a->cards, a->ncards, l->cards, l->ncards))
			return 1;
	}
	return 0;
}
