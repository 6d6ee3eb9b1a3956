/* SPDX-License-Identifier: GPL-3.0-or-later */
/* action: what a seat does, and its one text form (the words of
 * `--actions` files, docs/tapis.6),
 * shared by the actions file, the log, the bots' traces and the tests. */
#ifndef TAPIS_ACTION_H
#define TAPIS_ACTION_H

#include <stddef.h>
#include <string.h>

#include "core/card.h"

enum act_kind {
	ACT_NONE,
	ACT_PLAY,     /* play CARD */
	ACT_PASS,     /* pass */
	ACT_STRADDLE, /* straddle (carre, contre-carre, surcarre...) */
	ACT_DECLINE,  /* decline (no straddle, no buy-back) */
	ACT_BUYBACK,  /* buyback */
	ACT_OPEN,     /* open N */
	ACT_CALL,     /* call */
	ACT_RAISE,    /* raise N */
	ACT_FOLD,     /* fold */
	ACT_ALLIN,    /* allin */
	ACT_STAY,     /* stay */
	ACT_DISCARD,  /* discard [CARD ...] */
	ACT_TAKE,     /* take */
	ACT_LEAVE,    /* leave */
	ACT_COUNT
};

#define ACT_MAX_CARDS 8
#define ACT_STR_MAX 64
#define ACT_TEXT_MAX 256   /* room for an action's text; a longer one is refused */
/* The largest amount an action can name (open N, raise N). */
#define ACT_MAX_AMOUNT 1000000000

struct action {
	unsigned char kind;     /* enum act_kind */
	unsigned char ncards;
	card_t cards[ACT_MAX_CARDS];
	/* In a list of legal actions only: a discard entry with `sets` stands
	 * for every set of its cards of amount to amount_max cards (act_choices,
	 * act_choice); 0 in any action played. */
	unsigned char sets;
	int amount;             /* chips this action puts in the pot (open, raise, call, allin) */
	/* In a list of legal actions only: an entry whose amount_max is above
	 * amount stands for every amount from amount to amount_max. */
	int amount_max;
};

/* The word of a kind ("play", "raise"), or NULL. */
const char *act_word(int kind);
/* Kind of a word, or ACT_NONE. */
int act_kind_of(const char *word);
/* 1 when the kind carries an amount in its text form (open N, raise N). */
int act_has_amount(int kind);

/* Parse "raise 4", "play QH", "discard 2C 7D". Returns 0, or -1 with a
 * message in err. */
int act_parse(const char *text, struct action *out, char *err, size_t errlen);
/* Text form into buf (ACT_STR_MAX bytes); returns buf. */
char *act_format(const struct action *a, char *buf, size_t len);

/* Convenience builders (inline: the games' lists of legal actions are
 * built from them in the bots' searches). */
static inline struct action act_simple(int kind)
{
	struct action a;
	memset(&a, 0, sizeof a);
	a.kind = (unsigned char)kind;
	return a;
}

static inline struct action act_card(int kind, card_t c)
{
	struct action a = act_simple(kind);
	a.cards[0] = c;
	a.ncards = 1;
	return a;
}

static inline struct action act_amount(int kind, int amount)
{
	struct action a = act_simple(kind);
	a.amount = a.amount_max = amount;
	return a;
}

/* The number of actions a legal entry stands for by its sets (1 for an
 * entry without `sets`; the amounts of a range are not counted). */
int act_sets_count(const struct action *l);
static inline int act_choices(const struct action *l) { return l->sets ? act_sets_count(l) : 1; }
/* Action k (0 <= k < act_choices(l)) of entry l: for a discard entry with
 * `sets`, the k-th set of its cards by size, then by the set as a number
 * (bit i for card i of the entry), its cards in the entry's order; any
 * other entry is itself. */
void act_set_choice(const struct action *l, int k, struct action *out);
static inline void act_choice(const struct action *l, int k, struct action *out)
{
	if (l->sets)
		act_set_choice(l, k, out);
	else
		*out = *l;
}

/* 1 when a (a concrete action) is one of the legal entries (amount ranges
 * and sets of cards included; cards of a discard compared as a set). */
int act_in_list(const struct action *a, const struct action *legal, int n);
/* Same action (kind, amount, cards as a set). */
int act_equal(const struct action *a, const struct action *b);

#endif
