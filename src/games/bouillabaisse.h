/* SPDX-License-Identifier: GPL-3.0-or-later */
/* La Bouillabaisse: six rounds of tricks, each with its own way of losing
 * points (docs/rules/bouillabaisse.en.md). 2-12 players, counter-clockwise
 * (seat+1 plays next), one or two decks with the lowest cards removed so
 * every hand has the same size. Lowest total wins.
 *
 * The state is public so the bot and the talk module can read it; only the
 * rules core changes it. */
#ifndef TAPIS_BOUILLABAISSE_H
#define TAPIS_BOUILLABAISSE_H

#include "core/game.h"

#define BOU_MAX_PLAYERS 12
#define BOU_ROUNDS 6

/* Points of each kind of scoring item. */
#define BOU_TRICK_POINTS 5
#define BOU_SUIT_POINTS 10
#define BOU_FIGURE_POINTS 50
#define BOU_CARD_POINTS 200

/* Why a play is refused (struct refusal code). */
enum bou_refusal {
	BOU_OK = 0,
	BOU_NOT_YOUR_TURN,   /* the game is over, or another seat must act */
	BOU_NOT_A_PLAY,      /* only `play CARD` is an action here */
	BOU_NOT_IN_HAND,     /* card: the card asked for */
	BOU_MUST_FOLLOW,     /* suit: the suit led, which the hand holds */
};

/* What each round counts (bit mask). */
enum bou_scoring {
	BOU_SC_TRICK = 1,
	BOU_SC_SUIT = 2,
	BOU_SC_FIGURE = 4,
	BOU_SC_CARD = 8,
};

struct bouillabaisse {
	int players;
	int decks;                /* 1 or 2 (auto settled) */
	int rounds;               /* rounds to play: 1..6 */
	int all_or_nothing;       /* 1: taking every scoring item negates */
	int suit;                 /* the chosen suit (round 2) */
	int figure;               /* the chosen rank (round 3) */
	int card;                 /* the chosen card (round 4), a card_t */
	int npack;                /* cards in play each round */
	int hand_size;            /* npack / players */

	int round;                /* 1..6; 0 before start */
	int deal_no;              /* packs used so far (stack index) */
	int first_dealer;
	int dealer;
	int to_act;               /* -1: not started or over */
	int over;
	int leader;               /* who led the current trick */
	int tricks_played;        /* this round */
	int ntrick;
	card_t trick[BOU_MAX_PLAYERS];   /* seat of trick[i] = (leader + i) % players */
	int nhand[BOU_MAX_PLAYERS];
	card_t hand[BOU_MAX_PLAYERS][GAME_MAX_HAND];  /* sorted; 0 where redacted */
	int ntaken[BOU_MAX_PLAYERS];
	card_t taken[BOU_MAX_PLAYERS][CARD_MAX_PACK]; /* this round's taken cards */
	int tricks_won[BOU_MAX_PLAYERS];              /* this round */
	unsigned voids[BOU_MAX_PLAYERS];              /* known voids this round (bit per suit) */
	int round_points[BOU_MAX_PLAYERS];  /* this round so far, before all-or-nothing */
	int last_points[BOU_MAX_PLAYERS];   /* the last finished round, after all-or-nothing */
	int total[BOU_MAX_PLAYERS];         /* running totals (finished rounds) */
	int aon_seat;             /* last finished round: who took everything, -1 */
	unsigned aon_rounds;      /* bit r: someone took everything in round r */
	int redacted_for;         /* -1: the real state; else the seat of a view */
	struct rng rng;
	const struct deckstack *stack;
};

extern const struct game_ops bouillabaisse_ops;

/* What a round counts (enum bou_scoring bits). */
int bou_round_scoring(int round);
/* Sign of a round's points: -1 in round 6, else 1. */
static inline int bou_round_sign(int round) { return round == 6 ? -1 : 1; }
/* Points a card carries in this round (signed, without the trick's 5). */
int bou_card_points(const struct bouillabaisse *st, card_t c);
/* Points of a trick of these cards in this round (signed, trick bonus
 * included). */
int bou_trick_points(const struct bouillabaisse *st, const card_t *cards, int n);
/* Points the whole round distributes (signed), before all-or-nothing. */
int bou_round_total(const struct bouillabaisse *st);
/* The seat that played trick[i]. */
static inline int bou_trick_seat(const struct bouillabaisse *st, int i)
{
	return (st->leader + i) % st->players;
}
/* Index in the trick of the card winning so far, -1 when empty. */
int bou_trick_best(const struct bouillabaisse *st);
/* The pack in play for these players and decks (fixed order); count. */
int bou_pack(int players, int decks, card_t *out);
/* The cards removed from play, in removal order; count. */
int bou_removed(int players, int decks, card_t *out);

#endif
