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

/* 1 when a (a concrete action) is one of the legal entries (amount ranges
 * included; cards of a discard compared as a set). */
int act_in_list(const struct action *a, const struct action *legal, int n);
/* Same action (kind, amount, cards as a set). */
int act_equal(const struct action *a, const struct action *b);

#endif
