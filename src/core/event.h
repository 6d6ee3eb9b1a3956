/* SPDX-License-Identifier: GPL-3.0-or-later */
/* event: what the rules core tells the world. Games emit events through a
 * sink; the speech layer, the sound cues, the hand history and the tests
 * consume them. An event says which seats may see its cards. */
#ifndef TAPIS_EVENT_H
#define TAPIS_EVENT_H

#include "core/action.h"
#include "core/card.h"

#define EV_MAX_SEATS 12
#define EV_MAX_CARDS CARD_MAX_PACK
#define EV_ALL 0xffffu          /* every seat may see it */
#define EV_SEAT(s) (1u << (s))  /* only seat s may see it */

enum ev_type {
	EV_GAME_START, /* seat -1; nvalues = players */
	EV_HAND_START, /* hand, dealer; cards = the pack in order (log field "pack") */
	EV_DEAL,       /* seat, cards; visible = that seat */
	EV_TURNUP,     /* card = cards[0] */
	EV_DRAW,       /* seat, cards = discarded, cards2 = received */
	EV_CHOICE,     /* what (enum ev_what), value (suit, rank, card) */
	EV_ACTION,     /* seat, act; amount = chips put in when it has one */
	EV_TRICK,      /* winner, cards + card_seat in play order, points */
	EV_DECLARE,    /* seat, cards, points, code = game's combination kind */
	EV_SHOWDOWN,   /* cards + card_seat: every shown hand; winner */
	EV_PAYMENT,    /* from, to (-1 = the pot), amount, reason (enum ev_reason) */
	EV_HAND_END,   /* hand, values (chips or scores: values_kind), pot */
	EV_GAME_END,   /* values = standings, winner or winners mask */
	EV_PHASE,      /* a game-specific moment: note (enum ev_note), code, value, seat */
	EV_COUNT
};

/* The details of an event are numbers; their words exist only in the hand
 * history (core/history), which writes each as the word of the log
 * format. The reasons and notes of every game are listed here, in one
 * place, so that the history can name them without knowing the games: a
 * game that needs a new one adds it here and its word in history.c. */

/* EV_CHOICE: what was chosen (Bouillabaisse's turn-up choices). */
enum ev_what {
	EV_WHAT_NONE,   /* log value: the number itself */
	EV_WHAT_SUIT,   /* value: a suit */
	EV_WHAT_FIGURE, /* value: a rank */
	EV_WHAT_CARD,   /* value: a card */
	EV_WHAT_COUNT
};

/* EV_HAND_END, EV_GAME_END: what the values are. */
enum ev_values {
	EV_VALUES_SCORES,    /* points (the default) */
	EV_VALUES_CHIPS,     /* chips in front of each seat */
	EV_VALUES_STANDINGS, /* the final standings (EV_GAME_END) */
	EV_VALUES_COUNT
};

/* EV_PAYMENT: why the chips move. */
enum ev_reason {
	EV_PAY_NONE,
	/* chips put in */
	EV_PAY_ANTE,        /* an ante (Bouillotte, Bourré) */
	EV_PAY_PASSE,       /* Brelan's passe, an ante that is not a stake */
	EV_PAY_STRADDLE,    /* a straddle, forced or chosen */
	EV_PAY_BUYBACK,     /* Brelan's buying back of a straddle */
	EV_PAY_OPEN,
	EV_PAY_RAISE,
	EV_PAY_CALL,
	EV_PAY_ALLIN,
	EV_PAY_STAY,        /* Bourré: the price of staying */
	EV_PAY_BOURRE,      /* Bourré: a player without a trick matches the pot */
	EV_PAY_RENEGE,      /* Bourré: the fine of a renege */
	/* chips taken */
	EV_PAY_POT,         /* the (main) pot won */
	EV_PAY_SIDE_POT,    /* a side pot won by several */
	EV_PAY_RETURN,      /* chips nobody could win, given back */
	EV_PAY_UNCONTESTED, /* everyone else folded */
	EV_PAY_BRELAN,      /* the bonus of a brelan served */
	EV_PAY_CARRE,       /* the bonus of a carré served */
	EV_PAY_COUNT
};

/* EV_PHASE: which moment, grouped by the games that emit them. */
enum ev_note {
	EV_NOTE_NONE,
	/* Bouillotte and Brelan (games/vying) */
	EV_NOTE_EXTRA_ROUND,     /* seat: the last bettor of the extra round */
	EV_NOTE_ALL_PASSED,      /* value: the dead money that stays */
	EV_NOTE_FORCED_STRADDLE, /* seat, value: the amount */
	EV_NOTE_ADD_CAVE,        /* seat, value: the cave added */
	EV_NOTE_REBUY,           /* seat, value: the cave bought */
	EV_NOTE_RECAVE,          /* seat, value: the cave bought again */
	EV_NOTE_OUT,             /* seat: out of chips, out of the game */
	/* Bourré */
	EV_NOTE_LONE,            /* seat plays alone; value: cards */
	EV_NOTE_NOBODY,          /* nobody stays */
	EV_NOTE_DEALER_STAYS,    /* everyone else passed */
	EV_NOTE_REVEAL,          /* code: mask of the stayers, value: their number */
	EV_NOTE_SECOND,          /* the second chance; value: players in */
	EV_NOTE_PLAY,            /* play begins; seat leads, value: players */
	EV_NOTE_SPLIT,           /* tie for most tricks; value: tricks */
	EV_NOTE_BOURRE,          /* seat is bourré; value: chips */
	EV_NOTE_STAKES,          /* the stakes passed their bound: the game ends */
	EV_NOTE_RESHUFFLE,       /* value: the discards shuffled into the stock */
	EV_NOTE_RENEGE,          /* seat reneged; code: which rule */
	/* Le Brouc */
	EV_NOTE_GAME_WON,
	EV_NOTE_CAPE,
	EV_NOTE_TALLY,
	/* La Bouillabaisse */
	EV_NOTE_ALL_OR_NOTHING,
	EV_NOTE_ROUND_POINTS,
	EV_NOTE_COUNT
};

struct event {
	int type;              /* enum ev_type */
	int seq;               /* set by whoever numbers the stream (the table) */
	int seat;              /* concerned seat, -1 none */
	unsigned visible;      /* seats that may see the cards (EV_ALL, EV_SEAT(s)) */
	struct action act;     /* EV_ACTION */
	int amount;            /* EV_ACTION (chips put in, -1 none), EV_PAYMENT */
	int from, to;          /* EV_PAYMENT: seat or -1 for the pot */
	enum ev_reason reason; /* EV_PAYMENT */
	enum ev_what what;     /* EV_CHOICE */
	enum ev_note note;     /* EV_PHASE */
	int code;              /* game-specific detail (kind of combination, phase...) */
	int value;             /* EV_CHOICE value; EV_PHASE value */
	int hand, dealer;      /* EV_HAND_START, EV_HAND_END */
	int winner;            /* seat or team, -1 none or shared */
	unsigned winners;      /* EV_GAME_END, EV_SHOWDOWN: mask of winners; a pot's EV_PAYMENT: its contenders */
	int points;            /* EV_TRICK, EV_DECLARE */
	int pot;               /* EV_HAND_END: what stays for the next deal; a pot's EV_PAYMENT: which (1 the first) */
	enum ev_values values_kind; /* EV_HAND_END: chips or scores; EV_GAME_END: standings */
	int nvalues;
	int values[EV_MAX_SEATS];
	int ncards2;
	card_t cards2[ACT_MAX_CARDS];
	int ncards;
	card_t cards[EV_MAX_CARDS];
	signed char card_seat[EV_MAX_CARDS]; /* EV_TRICK, EV_SHOWDOWN: who holds/played cards[i] */
};

struct sink {
	void (*emit)(void *ctx, const struct event *e);
	void *ctx;
};

/* A fresh event of a type: seat/winner/from/to -1, visible to all. */
void ev_init(struct event *e, int type);
/* Send to the sink; a NULL sink (bots searching) takes nothing. */
static inline void ev_emit(const struct sink *out, const struct event *e)
{
	if (out && out->emit)
		out->emit(out->ctx, e);
}
/* Common events, built and sent in one call (nothing when out is NULL). */
/* A seat's dealt cards, seen by that seat only. */
void ev_emit_deal(const struct sink *out, int seat, const card_t *cards, int n);
/* A chip movement: from/to a seat, or -1 for the pot. */
void ev_emit_payment(const struct sink *out, int from, int to, int amount, enum ev_reason reason);
/* A game-specific moment. */
void ev_emit_phase(const struct sink *out, enum ev_note note, int seat, int code, int value);
/* 1 when seat may see the cards of e; seat -1 (a spectator): when every
 * seat may. */
static inline int ev_visible_to(const struct event *e, int seat)
{
	if (seat < 0)
		return (e->visible & EV_ALL) == EV_ALL;
	return (e->visible & (1u << seat)) != 0;
}

#endif
