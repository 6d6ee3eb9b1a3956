/* SPDX-License-Identifier: GPL-3.0-or-later */
/* game: the one interface every game implements (a table of functions;
 * the games are listed in app/registry).
 *
 * A game's state is a plain struct with no pointers into itself: cloning is
 * memcpy of state_size bytes. It may point to outside data that never
 * changes during play (the stacked packs). Functions take the state first
 * and keep no mutable globals. Events go to the sink given to start/apply;
 * a NULL sink is allowed and is what bots use while searching. */
#ifndef TAPIS_GAME_H
#define TAPIS_GAME_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "core/action.h"
#include "core/card.h"
#include "core/event.h"
#include "core/rng.h"
#include "core/rules.h"

#define GAME_MAX_SEATS EV_MAX_SEATS
/* The largest seed: a signed 64-bit integer, which every JSON reader of the
 * hand history takes exactly. */
#define SEED_MAX ((uint64_t)INT64_MAX)
#define GAME_MAX_LEGAL 256   /* room for any list of legal actions */
#define GAME_MAX_HAND 52

/* Packs given with --deck: pack k is used for deal k (k from 0); when they
 * run out the game shuffles from its generator. Never changed during play. */
struct deckstack {
	int npacks;
	int size[64];
	card_t cards[64][CARD_MAX_PACK];
};

struct game_setup {
	int players;
	int dealer;                     /* first dealer, or -1: drawn from the seed */
	uint64_t seed;                  /* 0 to SEED_MAX */
	struct rules *rules;            /* the game may settle "auto" values in it */
	const struct deckstack *stack;  /* NULL: every pack from the seed */
};

/* Why an action was refused: a game-specific code (0 = accepted) and what
 * the speech layer needs to phrase it. */
struct refusal {
	int code;
	card_t card;     /* the card to beat, the card that must be played... */
	int suit;        /* the suit that must be followed or trumped, -1 */
	int amount;      /* a minimum or maximum, -1 */
	int amount2;
};

struct game_ops {
	const char *name;            /* "bouillabaisse": the command-line word */
	const char *title;           /* "La Bouillabaisse" (a msgid) */
	int min_players, max_players, default_players;
	int clockwise;               /* only for speech ("to your left") */
	int lower_wins;              /* standings: 1 when the lowest wins */
	int teams;                   /* 0, or the number of teams (seat % teams) */
	size_t state_size;
	const struct rule_def *rules;
	int nrules;

	/* The pack a deal uses under these rules and player count, in a fixed
	 * order; returns the number of cards, or -1 with a message when the
	 * rules cannot be played with that many players. */
	int (*pack)(const struct rules *r, int players, card_t *out, char *err, size_t errlen);
	/* Set up a new game; 0, or -1 with a message (bad rules). Emits nothing. */
	int (*init)(void *st, const struct game_setup *setup, char *err, size_t errlen);
	/* Begin play: emits the choices, the first hand_start, the deal... */
	void (*start)(void *st, const struct sink *out);
	/* The seat that must act now, or -1 when the game is over. */
	int (*to_act)(const void *st);
	/* The legal actions of the seat to act (see struct action on ranges). */
	int (*legal)(const void *st, struct action *out, int max);
	/* Check and play an action of the seat to act. 0 and events, or -1 with
	 * the reason in why (nothing changed). */
	int (*apply)(void *st, const struct action *a, const struct sink *out, struct refusal *why);
	/* The cards of a seat's hand, in presentation order. */
	int (*hand)(const void *st, int seat, card_t *out);
	/* Forget what `seat` may not know (other hands, the stock): a view. */
	void (*redact)(void *st, int seat);
	/* Fill what redact removed with cards consistent with what `seat` knows
	 * (same counts, no card twice, voids respected where the game tracks
	 * them). */
	void (*resample)(void *st, int seat, struct rng *rng);
	/* Standings (chips, points, games: per seat, or per team); returns count. */
	int (*standings)(const void *st, int *out);
	/* What every player sees of a seat's chips: in front of it (*held) and
	 * put in by choice during the deal in progress (*put: bets, calls,
	 * straddles, stays; antes and the passe not counted). NULL in a game
	 * played without chips. */
	void (*chips)(const void *st, int seat, int *held, int *put);
	/* The trick in progress, face up for all: the cards played to it so
	 * far in order, seat[i] having played cards[i]; returns how many (at
	 * most GAME_MAX_SEATS). NULL in a game without tricks. */
	int (*trick)(const void *st, int *seat, card_t *cards);
	/* Number of the deal (or round) in progress, from 1. */
	int (*hand_number)(const void *st);
	/* The dealer of the deal in progress. */
	int (*dealer)(const void *st);
	/* The referee: 0 when every invariant holds (each card in exactly one
	 * place, chips conserved, pots equal to stakes...), else -1 and what is
	 * wrong. Run by the tests after every action. */
	int (*audit)(const void *st, char *err, size_t errlen);
};

/* Every game state begins with `int players;` (asserted by the tests). */
struct game_head {
	int players;
};
static inline int game_players(const void *st) { return ((const struct game_head *)st)->players; }

/* What every game's apply holds true (assert(), gone under NDEBUG): before,
 * a state of a real table and an action that fits its struct; after, a
 * seat to act that is a seat of the table or none, and a refusal with its
 * reason (an accepted action has none). A game's audit checks the rest
 * (the tests run it after every action). */
static inline void game_assert_before(const void *st, const struct action *a)
{
	assert(st && a);
	assert(game_players(st) >= 1 && game_players(st) <= GAME_MAX_SEATS);
	assert(a->ncards >= 0 && a->ncards <= ACT_MAX_CARDS);
	(void)st;
	(void)a;
}

static inline int game_assert_after(const void *st, int to_act, int rc, const struct refusal *why)
{
	assert(to_act >= -1 && to_act < game_players(st));
	assert(rc == 0 || rc == -1);
	assert(!why || (rc == 0) == (why->code == 0));
	(void)st;
	(void)to_act;
	(void)why;
	return rc;
}


#endif
