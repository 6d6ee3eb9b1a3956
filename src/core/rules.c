/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/rules.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/card.h"
#include "core/err.h"
#include "core/num.h"

const char *const RULES_YES_NO[] = { "no", "yes", NULL };

void rules_init(struct rules *r, const struct rule_def *defs, int n)
{
	assert(n <= RULES_MAX);
	memset(r, 0, sizeof *r);
	r->defs = defs;
	r->n = n;
	for (int i = 0; i < n; i++)
		r->value[i] = defs[i].def;
}

int rules_index(const struct rules *r, const char *key)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->defs[i].key, key) == 0)
			return i;
	return -1;
}

int rules_get(const struct rules *r, const char *key)
{
	int i = rules_index(r, key);
	assert(i >= 0);
	return r->value[i];
}

static int parse_value(const struct rule_def *d, const char *v, int *out)
{
	if (d->allow_auto && strcmp(v, "auto") == 0) {
		*out = RULE_AUTO;
		return 0;
	}
	if (d->allow_random && strcmp(v, "random") == 0) {
		*out = RULE_RANDOM;
		return 0;
	}
	switch (d->type) {
	case RULE_INT: {
		if (d->none_word && strcmp(v, d->none_word) == 0) {
			*out = RULE_NONE;
			return 0;
		}
		long long x;
		if (num_parse(v, d->min, d->max, &x) < 0)
			return -1;
		*out = (int)x;
		return 0;
	}
	case RULE_CHOICE:
		for (int i = 0; d->choices[i]; i++)
			if (strcmp(d->choices[i], v) == 0) {
				*out = i;
				return 0;
			}
		return -1;
	case RULE_SUIT:
		*out = card_suit_parse(v);
		return *out < 0 ? -1 : 0;
	case RULE_RANK:
		*out = card_rank_parse(v);
		return *out < 0 ? -1 : 0;
	case RULE_CARD: {
		card_t c;
		if (card_parse(v, &c) < 0)
			return -1;
		*out = c;
		return 0;
	}
	}
	return -1;
}

static void expected(const struct rule_def *d, char *buf, size_t len)
{
	size_t used = 0;
	switch (d->type) {
	case RULE_INT:
		used = (size_t)snprintf(buf, len, "a number from %d to %d", d->min, d->max);
		if (d->none_word)
			used += (size_t)snprintf(buf + used, len - used, " or '%s'", d->none_word);
		break;
	case RULE_CHOICE:
		used = (size_t)snprintf(buf, len, "one of");
		for (int i = 0; d->choices[i] && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, " %s", d->choices[i]);
		break;
	case RULE_SUIT: used = (size_t)snprintf(buf, len, "a suit S H D C"); break;
	case RULE_RANK: used = (size_t)snprintf(buf, len, "a rank A K Q J T 9 ... 2"); break;
	case RULE_CARD: used = (size_t)snprintf(buf, len, "a card such as QH"); break;
	}
	if (d->allow_random && used < len)
		used += (size_t)snprintf(buf + used, len - used, " or 'random'");
	if (d->allow_auto && used < len)
		snprintf(buf + used, len - used, " or 'auto'");
}

int rules_set(struct rules *r, const char *key, const char *value, char *err, size_t errlen)
{
	int i = rules_index(r, key);
	if (i < 0) {
		size_t used = (size_t)snprintf(err, errlen, "unknown rule '%s'; rules of this game:", key);
		for (int k = 0; k < r->n && used < errlen; k++)
			used += (size_t)snprintf(err + used, errlen - used, " %s", r->defs[k].key);
		return -1;
	}
	int v;
	if (parse_value(&r->defs[i], value, &v) < 0) {
		char exp[160];
		expected(&r->defs[i], exp, sizeof exp);
		return errf(err, errlen, "rule %s: '%s' is not %s", key, value, exp);
	}
	r->value[i] = v;
	r->given[i] = 1;
	return 0;
}

int rules_set_arg(struct rules *r, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return errf(err, errlen, "rule '%s' is not KEY=VALUE", arg);
	char key[RULES_KEY_MAX];
	size_t kl = (size_t)(eq - arg);
	if (kl >= sizeof key)
		kl = sizeof key - 1;
	memcpy(key, arg, kl);
	key[kl] = '\0';
	return rules_set(r, key, eq + 1, err, errlen);
}

const char *rules_value_str(const struct rules *r, int i, char *buf, size_t len)
{
	const struct rule_def *d = &r->defs[i];
	int v = r->value[i];
	if (v == RULE_AUTO && d->allow_auto)
		return "auto";
	if (v == RULE_RANDOM && d->allow_random)
		return "random";
	switch (d->type) {
	case RULE_INT:
		if (v == 0 && d->none_word)
			return d->none_word;
		snprintf(buf, len, "%d", v);
		return buf;
	case RULE_CHOICE:
		return d->choices[v];
	case RULE_SUIT:
		snprintf(buf, len, "%c", card_suit_char(v));
		return buf;
	case RULE_RANK:
		snprintf(buf, len, "%c", card_rank_char(v));
		return buf;
	case RULE_CARD:
		return card_str((card_t)v, buf);
	}
	return "?";
}
