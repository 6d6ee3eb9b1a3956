/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bourre: Bourré (Louisiana), 2-8 players, 52 cards, five-card trick game
 * with a pot, and its variations (docs/rules/bourre.en.md). */
#ifndef TAPIS_BOURRE_H
#define TAPIS_BOURRE_H

#include <stdint.h>

#include "core/game.h"

#define BR_MAX_SEATS 8
#define BR_PACK 52      /* one full pack */
#define BR_HAND_MAX 6   /* the dealer who takes the trump card holds six */
/* The game ends after a deal that leaves the pot, or a player's chips or
 * points (either way), above this: a bourré matches the pot, so the stakes
 * can double deal after deal, and no count may overflow an int. */
#define BR_STAKES_MAX 100000000

extern const struct game_ops bourre_ops;

/* Why an action is refused (struct refusal.code); the fields used say what
 * the player must do. */
enum bourre_refusal {
	BR_REF_NONE = 0,
	BR_REF_NOT_NOW,         /* that action is not possible at this moment */
	BR_REF_NOT_HELD,        /* card: you do not hold it */
	BR_REF_FOLLOW,          /* suit: you must follow the suit led */
	BR_REF_TRUMP,           /* suit: you cannot follow, you must play a trump */
	BR_REF_BEAT,            /* card: you must beat it (led suit) */
	BR_REF_OVERTRUMP,       /* card: you must play a trump above it */
	BR_REF_CINCH_LEAD,      /* card: you hold a cinch, lead your highest trump */
	BR_REF_CINCH_FOLLOW,    /* card: you hold a cinch, play your highest trump */
	BR_REF_ACE_STAY,        /* card: the ace turned up, the dealer must stay */
	BR_REF_NEED_TRUMP_CLUB, /* suit (trumps): to stay you need a trump or a club */
	BR_REF_DISCARD_TOO_MANY,/* amount: the most cards you may discard */
	BR_REF_DISCARD_TOO_FEW, /* amount: the fewest cards you must discard */
	BR_REF_DISCARD_TWICE,   /* card: named twice */
	BR_REF_GAME_OVER,       /* the game is over */
};

/* Phases of a deal. */
enum bourre_phase {
	BR_PH_DECLARE,   /* stay or pass (with the draw at once unless separated) */
	BR_PH_TAKE,      /* trump=dealer: the dealer takes or leaves the card */
	BR_PH_DISCARD,   /* a staying player discards 0 or more cards */
	BR_PH_CONFIRM,   /* variant=four: a second chance to pass after the draw */
	BR_PH_PLAY,      /* the tricks */
	BR_PH_OVER,      /* the game is over */
};

/* Where the turned card is. */
enum bourre_turnup { BR_TU_HAND, BR_TU_TABLE };

/* A seat's decision in a deal. */
enum bourre_status { BR_ST_NONE, BR_ST_STAY, BR_ST_PASS, BR_ST_HIDDEN };

/* Rule values. */
enum { BR_TRUMP_HAND, BR_TRUMP_SEPARATE, BR_TRUMP_DEALER };

/* What the rules of play ask of a seat's next card: kept in the state for
 * the seat to act, weighed once a turn when the turn passes (and again by
 * `redact` and `resample`), and read by `legal` and `apply` while it is
 * the turn it was weighed for (the same seat, cards in hand and on the
 * table). A state written by hand starts from zeros (valid 0: weighed
 * afresh at each question); one changed by hand clears `valid`. */
struct bourre_duty {
	int code;     /* BR_REF_FOLLOW, _BEAT, _TRUMP, _OVERTRUMP, _CINCH_LEAD, or 0: any card */
	card_t card;  /* BEAT, OVERTRUMP: the card to beat; CINCH_LEAD: the highest trump */
	int suit;     /* the suit asked, -1 none */
	int cinch;    /* 1: a trump it plays must also be its highest (BR_REF_CINCH_FOLLOW) */
	uint64_t hand; /* the seat's cards (bit c for card c), the hidden ones left out */
	uint64_t ok;  /* those that meet it, and bit 0 for a hidden card that does */
	/* the turn it was weighed for */
	unsigned char valid, nhand, ntrick, ngone, tricks;
	signed char seat;
};

struct bourre_state {
	int players;
	/* options */
	int chips0, limit, ante_double, trump_mode, simultaneous, draw_separate, four, hands_max;
	int strict;                      /* strict=yes: a renege is played and paid for */
	int ncards;                      /* 5, or 4 with variant=four */
	const struct deckstack *stack;
	struct rng rng;
	/* the game */
	int hand_no;                     /* deals begun, from 1 */
	int dealer;
	int phase;                       /* enum bourre_phase */
	int to_act;                      /* -1 when the game is over */
	int chips[BR_MAX_SEATS];
	int pot;
	int put[BR_MAX_SEATS];           /* paid by choice this deal (stays) */
	unsigned char exempt[BR_MAX_SEATS]; /* no ante for the next deal */
	/* the deal */
	int packsize;
	card_t stock[BR_PACK];
	int stock_pos, stock_n;          /* stock[stock_pos..stock_n) is left, top first */
	card_t dead[BR_PACK];            /* discards and passed hands */
	signed char dead_by[BR_PACK];
	int ndead;
	int reshuffles;
	card_t hand[BR_MAX_SEATS][BR_HAND_MAX];
	int nhand[BR_MAX_SEATS];
	card_t turnup;
	int trump;
	int turnup_place;                /* enum bourre_turnup */
	unsigned char status[BR_MAX_SEATS];   /* enum bourre_status */
	unsigned char pending[BR_MAX_SEATS];  /* declare=simultaneous: decision not yet shown */
	unsigned char drawn[BR_MAX_SEATS];    /* has discarded (or stood pat) */
	signed char ndrew[BR_MAX_SEATS];      /* cards received, -1 before the draw */
	unsigned char confirmed[BR_MAX_SEATS];/* variant=four: second decision made */
	int dealer_took;                 /* trump=dealer: -1 undecided, 0 left, 1 taken */
	int lone;                        /* the seat who won without play, -1 */
	/* the play */
	int tricks[BR_MAX_SEATS];
	int ntricks;                     /* completed tricks */
	card_t trick[BR_MAX_SEATS];
	signed char trick_seat[BR_MAX_SEATS];
	int ntrick, leader;
	card_t gone[BR_PACK];            /* cards of completed tricks */
	int ngone;
	unsigned char voids[BR_MAX_SEATS];/* bit per suit: shown void in play */
	/* strict=yes: the reneges of the trick under way (the rule broken, a
	 * refusal code, per position in the trick; with its card and suit),
	 * announced when the trick is complete, and the reneges of the deal
	 * per seat, paid for at its end. */
	unsigned char trick_renege[BR_MAX_SEATS];
	card_t trick_renege_card[BR_MAX_SEATS];
	signed char trick_renege_suit[BR_MAX_SEATS];
	unsigned char renege_voids[BR_MAX_SEATS]; /* voids a renege seemed to show */
	unsigned char reneges[BR_MAX_SEATS];
	int last_pot;                    /* the pot contested in the last deal */
	struct bourre_duty duty;         /* the duty of the seat to act in play */
};

/* The rule that constrains `seat` now if it is to play a card: one of the
 * refusal codes BR_REF_FOLLOW, BR_REF_TRUMP, BR_REF_BEAT, BR_REF_OVERTRUMP,
 * BR_REF_CINCH_LEAD, BR_REF_CINCH_FOLLOW (with the card or suit in r), or 0
 * when any card may be played. Works on a view redacted for `seat`. */
int bourre_constraint(const struct bourre_state *st, int seat, struct refusal *r);
/* 1 when `seat` holds a cinch (tricks won plus sure trump tricks reach 3). */
int bourre_cinch(const struct bourre_state *st, int seat);
/* Sure trump tricks of `seat`: its trumps left when each outstanding trump
 * (the current trick's included) is paired with one it beats, as many pairs
 * as can be made (docs/rules/bourre.en.md, "The cinch"). */
int bourre_sure_trumps(const struct bourre_state *st, int seat);
/* Why `seat` may not play card c now under the rules of play (a refusal
 * code, 0 when the play is proper). With strict=yes a held card that breaks
 * one of those rules is still accepted (a renege): see bourre_renege. */
int bourre_check_play(const struct bourre_state *st, int seat, card_t c, struct refusal *r);
/* 1 when playing c would be a renege that the strict table accepts: the
 * seat holds c, strict=yes, and c breaks a rule of play. */
int bourre_renege(const struct bourre_state *st, int seat, card_t c);
/* The fewest and most cards the seat to act may discard now. */
void bourre_discard_range(const struct bourre_state *st, int seat, int *min, int *max);
/* The number of players still in the deal (stayed, or undecided). */
int bourre_active(const struct bourre_state *st);

#endif
