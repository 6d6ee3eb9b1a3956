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
	EV_CHOICE,     /* what ("suit", "figure", "card"), value (suit, rank, card) */
	EV_ACTION,     /* seat, act; amount = chips put in when it has one */
	EV_TRICK,      /* winner, cards + card_seat in play order, points */
	EV_DECLARE,    /* seat, cards, points, code = game's combination kind */
	EV_SHOWDOWN,   /* cards + card_seat: every shown hand; winner */
	EV_PAYMENT,    /* from, to (-1 = the pot), amount, reason */
	EV_HAND_END,   /* hand, values (chips or scores), values_name, pot */
	EV_GAME_END,   /* values = standings, winner or winners mask */
	EV_PHASE,      /* a game-specific moment: note (a word), code, value, seat */
	EV_COUNT
};

struct event {
	int type;              /* enum ev_type */
	int seq;               /* set by whoever numbers the stream (the table) */
	int seat;              /* concerned seat, -1 none */
	unsigned visible;      /* seats that may see the cards (EV_ALL, EV_SEAT(s)) */
	struct action act;     /* EV_ACTION */
	int amount;            /* EV_ACTION (chips put in, -1 none), EV_PAYMENT */
	int from, to;          /* EV_PAYMENT: seat or -1 for the pot */
	const char *reason;    /* EV_PAYMENT: a static word ("pot", "ante", "brelan"...) */
	const char *what;      /* EV_CHOICE: "suit" | "figure" | "card" */
	const char *note;      /* EV_PHASE: a static word naming the moment */
	int code;              /* game-specific detail (kind of combination, phase...) */
	int value;             /* EV_CHOICE value; EV_PHASE value */
	int hand, dealer;      /* EV_HAND_START, EV_HAND_END */
	int winner;            /* seat or team, -1 none or shared */
	unsigned winners;      /* EV_GAME_END, EV_SHOWDOWN: mask of winners */
	int points;            /* EV_TRICK, EV_DECLARE */
	int pot;               /* EV_HAND_END: what stays for the next deal */
	const char *values_name; /* EV_HAND_END: "chips" or "scores"; EV_GAME_END: "standings" */
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
void ev_emit_payment(const struct sink *out, int from, int to, int amount, const char *reason);
/* A game-specific moment. */
void ev_emit_phase(const struct sink *out, const char *note, int seat, int code, int value);
/* The log word of a type ("game_start"...). */
const char *ev_type_word(int type);
/* 1 when seat may see the cards of e; seat -1 (a spectator): when every
 * seat may. */
static inline int ev_visible_to(const struct event *e, int seat)
{
	if (seat < 0)
		return (e->visible & EV_ALL) == EV_ALL;
	return (e->visible & (1u << seat)) != 0;
}

#endif
