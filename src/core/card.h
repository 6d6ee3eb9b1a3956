/* SPDX-License-Identifier: GPL-3.0-or-later */
/* card: cards, packs, notation ("QH", "TD") and shuffling.
 *
 * A card is one byte: rank << 2 | suit, rank 2..14 (ace high), so 0 is
 * never a card (CARD_NONE). Two copies of a card in a two-deck pack are the
 * same byte. Suits are in notation order S H D C. */
#ifndef TAPIS_CARD_H
#define TAPIS_CARD_H

#include <stddef.h>
#include <stdint.h>

struct rng;

typedef uint8_t card_t;

enum suit { SUIT_SPADES, SUIT_HEARTS, SUIT_DIAMONDS, SUIT_CLUBS, SUIT_COUNT };
enum rank {
	RANK_TWO = 2, RANK_THREE, RANK_FOUR, RANK_FIVE, RANK_SIX, RANK_SEVEN,
	RANK_EIGHT, RANK_NINE, RANK_TEN, RANK_JACK, RANK_QUEEN, RANK_KING, RANK_ACE
};

#define CARD_NONE ((card_t)0)
#define CARD_MAX_PACK 104  /* two 52-card decks */
#define CARD_STR_MAX 4     /* "QH" + NUL, with room */

static inline card_t card_make(int rank, int suit) { return (card_t)((rank << 2) | suit); }
static inline int card_rank(card_t c) { return c >> 2; }
static inline int card_suit(card_t c) { return c & 3; }
static inline int card_valid(card_t c) { return card_rank(c) >= RANK_TWO && card_rank(c) <= RANK_ACE; }

/* Notation: "QH", "TD", "10d", case-insensitive. Returns 0, or -1 when s is
 * not exactly one card. card_parse_prefix reads one card from the start of s
 * and returns the number of characters used, 0 when there is none. */
int card_parse(const char *s, card_t *out);
size_t card_parse_prefix(const char *s, card_t *out);
/* "QH" into buf (at least CARD_STR_MAX bytes); returns buf. */
char *card_str(card_t c, char *buf);
int card_rank_parse(const char *s);   /* "Q" or "10" -> 12, else -1 */
int card_suit_parse(const char *s);   /* "H" -> SUIT_HEARTS, else -1 */
char card_rank_char(int rank);
char card_suit_char(int suit);

/* Build a pack: every suit (S H D C), for each suit the ranks given from
 * high to low, `copies` times over. Returns the number of cards written. */
int card_pack(card_t *out, const int *ranks, int nranks, int copies);
/* The 52-card pack, ranks A..2, `copies` times. */
int card_pack_full(card_t *out, int copies);

/* Fisher-Yates with the one seeded generator. */
void card_shuffle(card_t *cards, int n, struct rng *rng);

/* 1 when a and b hold the same cards, counting copies, in any order. */
int card_same_multiset(const card_t *a, int na, const card_t *b, int nb);
/* Index of c in cards, or -1. */
int card_find(const card_t *cards, int n, card_t c);
/* 1 when cards hold a card of suit (a hidden card, CARD_NONE, is of none). */
int card_has_suit(const card_t *cards, int n, int suit);
/* Remove cards[i] keeping order. */
void card_remove_at(card_t *cards, int *n, int i);
/* Remove one copy of c; returns 0, or -1 when absent. */
int card_remove(card_t *cards, int *n, card_t c);
/* Sort for presenting a hand: by suit (S H D C... see order), then rank
 * high to low, with `rank_order` giving the strength of each rank (NULL for
 * plain ace-high order). */
void card_sort(card_t *cards, int n, const int *rank_order);

#endif
