/* SPDX-License-Identifier: GPL-3.0-or-later */
/* brouc: Le Brouc, the four-handed partnership trick game of l'Etivaz, and
 * its ancestor L'Homme de Brou (`variant=homme`). Rules and the choices made
 * where sources differ: docs/rules/brouc.en.md.
 *
 * Seats 0 and 2 play against 1 and 3 (team = seat % 2). 32 cards ranked
 * A 10 K Q J 9 8 7, dealt 1-3-4 from the dealer's right; the pack's last
 * card goes face up to the dealer and names trumps. Combinations (K-Q, K-Q-J
 * of a suit) score in hand when the team wins its first trick and in any
 * trick that holds them; they are emitted as EV_DECLARE with code a
 * brouc_decl. */
#ifndef TAPIS_BROUC_H
#define TAPIS_BROUC_H

#include <stdint.h>

#include "core/game.h"

#define BROUC_PLAYERS 4
#define BROUC_PACK 32
#define BROUC_HAND 8
#define BROUC_TRICKS 8

enum brouc_variant { BROUC_MODERN, BROUC_HOMME };

/* Refusal codes of apply (struct refusal.code). */
enum brouc_refusal {
	BROUC_OK,
	BROUC_R_TURN,        /* not your turn, or the game is over */
	BROUC_R_ACTION,      /* only `play CARD` is an action of this game */
	BROUC_R_NOT_IN_HAND, /* card: the card asked for */
	BROUC_R_FOLLOW,      /* suit: the led suit that must be followed */
	BROUC_R_UNDERTRUMP,  /* card: the highest trump of the trick; suit: trumps */
};

/* EV_DECLARE code: the kind, plus BROUC_IN_TRICK when the combination was
 * found in a trick (else it was whole in a player's hand). EV_DECLARE seat:
 * the holder (in hand) or the trick's winner; winner: the team scoring. */
enum brouc_decl { BROUC_KQ = 1, BROUC_KQJ = 2, BROUC_IN_TRICK = 4 };

/* EV_PHASE notes:
 * EV_NOTE_TALLY after each trick and its combinations: winner = the trick's team,
 *   value = tricks done, values = the game's scores [0..1] and the deal's
 *   unrounded totals [2..3];
 * EV_NOTE_GAME_WON: winner = team, value = games or parties it wins, values =
 *   scores before the deal [0..1], deal totals [2..3], scores with the
 *   rounded deal totals added [4..5];
 * EV_NOTE_CAPE: winner = team, value = extra games or parties. */

struct brouc_state {
	int players;             /* always 4 */
	int variant;             /* enum brouc_variant */
	int games_target;        /* games=N (modern) */
	int parties_target;      /* parties=N (homme) */
	int hands_limit;         /* hands=N, 0 none */
	int dealer;
	int hand_no;             /* deals begun over the whole match, from 1 */
	int game_no;             /* games begun, from 1 */
	int over;
	int trump;
	card_t turnup;
	unsigned char pad0[3];
	int leader, turn;
	int ntrick;              /* cards in the trick in progress */
	card_t trick[4];         /* in play order from leader */
	int tricks_done;
	card_t played[BROUC_TRICKS][4];      /* finished tricks, play order */
	signed char played_leader[BROUC_TRICKS];
	signed char played_winner[BROUC_TRICKS];
	card_t hand[BROUC_PLAYERS][BROUC_HAND];
	int nhand[BROUC_PLAYERS];
	int tricks_won[2];
	int first_won[2];        /* the team has won a trick: its hand combinations are scored */
	int cardpts[2];          /* card points taken this deal */
	int combopts[2];         /* combinations this deal (homme: minus the opponents') */
	int dealpts[2];          /* cardpts + combopts: the unrounded deal total */
	int score[2];            /* the game's cumulative score */
	int wins[2];             /* games (modern) or parties (homme) won */
	int last_game_winner;    /* team that won the last game, -1 */
	unsigned voids[BROUC_PLAYERS];   /* bit per suit: seat known to hold none */
	uint32_t shown[BROUC_PLAYERS];   /* cards known by all to be in that hand (brouc_idx bits) */
	int redacted_for;        /* -1, or the seat this view was made for */
	struct rng rng;
	const struct deckstack *stack;
};

extern const struct game_ops brouc_ops;

/* Card points (A 11, 10 10, K 4, Q 3, J 2) and strength (7 = 1 .. A = 8). */
int brouc_points(card_t c);
int brouc_strength(card_t c);
/* 0..31, a bit in a mask of cards. */
int brouc_idx(card_t c);
static inline int brouc_team(int seat) { return seat & 1; }
/* 1 when a beats b as a later card in a trick led in suit led. */
int brouc_beats(card_t a, card_t b, int led, int trump);
/* Index in st->trick of the card winning the trick in progress (ntrick > 0). */
int brouc_trick_best(const struct brouc_state *st);
/* Why the seat to act may not play c (a brouc_refusal, 0 when it may). */
int brouc_check(const struct brouc_state *st, card_t c, struct refusal *why);
/* Value of a combination of kind (BROUC_KQ / BROUC_KQJ) in suit, in hand
 * (in_trick 0) or in a trick, under the state's variant. */
int brouc_combo_value(const struct brouc_state *st, int kind, int suit, int in_trick);
/* The kind of combination (0, BROUC_KQ, BROUC_KQJ) in a set of cards of one
 * suit, given as a mask of ranks (1 << rank). */
int brouc_combo_kind(unsigned rankmask);
/* Deal total rounded: modern, / 10 half up; homme, to the nearest 10 (5 up). */
int brouc_round(const struct brouc_state *st, int dealpts);

#endif
