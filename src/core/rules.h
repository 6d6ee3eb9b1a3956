/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rules: rule options (`--rule KEY=VALUE`, DECISIONS.md). Each game
 * describes its options in a table of rule_def; a struct rules holds one value
 * per entry of that table, in the same order. */
#ifndef TAPIS_RULES_H
#define TAPIS_RULES_H

#include <stddef.h>

/* Marks a help line for the catalogues (xgettext -kN_) without translating
 * it here: the speech layer translates it when it speaks it. The rules core
 * does not depend on the speech layer; this is the same identity macro as
 * i18n/i18n.h's. */
#ifndef N_
#define N_(s) (s)
#endif

#define RULES_MAX 32
#define RULE_RANDOM (-1)   /* "random": the game draws it from the seed */
#define RULE_AUTO (-2)     /* "auto": the game settles it from the players */
#define RULE_NONE 0        /* for RULE_INT with a none_word: "none" is 0 */

enum rule_type {
	RULE_INT,     /* a number in [min, max]; none_word (if set) means 0 */
	RULE_CHOICE,  /* one of choices[]: the value is its index */
	RULE_SUIT,    /* S H D C (value: enum suit) or "random" */
	RULE_RANK,    /* A K Q J T 9 ... 2 (value: rank) or "random" */
	RULE_CARD,    /* a card (value: card_t) or "random" */
};

struct rule_def {
	const char *key;
	int type;                     /* enum rule_type */
	int def;                      /* default value (may be RULE_RANDOM / RULE_AUTO) */
	int min, max;                 /* RULE_INT */
	const char *const *choices;   /* RULE_CHOICE, NULL-terminated */
	const char *none_word;        /* RULE_INT: a word meaning 0 ("none") */
	int allow_auto;               /* "auto" accepted */
	int allow_random;             /* "random" accepted (suit, rank, card) */
	const char *help;             /* one English line, N_() marked: --help prints it,
	                               * the options menu speaks its translation */
};

struct rules {
	const struct rule_def *defs;
	int n;
	int value[RULES_MAX];
	unsigned char given[RULES_MAX];  /* set on the command line */
};

/* Defaults of every option of the table. */
void rules_init(struct rules *r, const struct rule_def *defs, int n);
/* "key=value": 0, or -1 with a message naming the problem. */
int rules_set_arg(struct rules *r, const char *arg, char *err, size_t errlen);
int rules_set(struct rules *r, const char *key, const char *value, char *err, size_t errlen);
/* Index of key in the table, or -1. */
int rules_index(const struct rules *r, const char *key);
/* Value of key; the key must exist (assert). */
int rules_get(const struct rules *r, const char *key);
/* The text of value i as the command line would give it ("yes", "H", "random"). */
const char *rules_value_str(const struct rules *r, int i, char *buf, size_t len);

/* Common choice lists. */
extern const char *const RULES_YES_NO[];  /* "no", "yes": value 1 = yes */

#endif
