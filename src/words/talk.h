/* SPDX-License-Identifier: GPL-3.0-or-later */
/* talk: how each game is put into words. The generic announcer (announce.c)
 * phrases what all games share (a card played, a trick taken, a hand dealt);
 * each game's talk module phrases the rest from its own events and answers
 * the query keys from a view (a state redacted for the listening seat), so
 * nothing is said that the player could not see. */
#ifndef TAPIS_TALK_H
#define TAPIS_TALK_H

#include "core/event.h"
#include "core/game.h"
#include "core/sbuf.h"

/* What the table showed and took away again, kept by ann_event for the
 * query keys: the last trick taken (the deal before's until this deal's
 * first), the last showdown. */
struct talk_memory {
	int deal_seen;         /* the listener heard this deal begin */
	int dealer;            /* ... and its dealer (when deal_seen) */
	int dealt;             /* ... and has been dealt cards in it */
	int has_trick;         /* 0: no trick taken yet in this game */
	int trick_before;      /* 1: trick is the last of the deal before */
	struct event trick;    /* EV_TRICK: cards, card_seat, winner, points */
	int has_showdown;
	struct event showdown; /* EV_SHOWDOWN: every shown hand */
	/* Antes or passe paid since they were last said (EV_PAY_ANTE or
	 * EV_PAY_PASSE into the pot): said as one sentence with the next event. */
	int ndues;
	signed char due_seat[EV_MAX_SEATS];
	int due_amount[EV_MAX_SEATS];
	int due_passe;         /* 1: the passe, 0: antes */
};

/* How much a listener wants to hear. In short, a talk module leaves out
 * what the query keys tell on demand: running totals said with each trick
 * (S tells them), every other player's declaring in Bourré (T and S
 * tell who stays). */
enum talk_verbosity {
	TALK_FULL = 0,
	TALK_SHORT = 1,
};

/* Bytes of a seat's name as said: a person's name (24 characters), its
 * marks, or a bot's ("Claire (robot)"). */
#define TALK_NAME_MAX 112

struct i18n_lang;

/* Who listens, and the words they hear: the language and the seats' names
 * are values of the listener, never a mode of the process. */
struct talk {
	const struct game_ops *game;
	int me;        /* the listening seat (the human), or -1: a spectator sees all */
	int players;
	int verbosity; /* enum talk_verbosity */
	int told;      /* a telling where no key may be pressed (tapis replay): what a
	                * key would answer is said at once ("Showdown: Anne: ...") */
	/* The listener's language (i18n_of); NULL: the one in force. */
	const struct i18n_lang *lang;
	struct talk_memory heard;  /* zeroed with the rest; filled by ann_event */
	/* The seats' names as this listener hears them, set by say_set_names
	 * in the listener's language; "" (zeroed): the built-in name (local
	 * play). A person's name is marked as kept from the French contractions
	 * (SAY_KEEP_OPEN ... SAY_KEEP_CLOSE); feminine: 1, 0, or -1 when the
	 * gender is not known (a person). */
	char name[EV_MAX_SEATS][TALK_NAME_MAX];
	signed char feminine[EV_MAX_SEATS];
};

/* Query keys every game answers. */
enum talk_query {
	TALK_TABLE = 'C',  /* the cards on the table */
	TALK_SUIT = 'F',   /* the suit: led suit, trumps, turned card */
	TALK_RULES = 'R',  /* the rules of this round or phase */
	TALK_SCORES = 'S', /* scores, chips, pots */
	TALK_TURN = 'T',   /* who acts and what they must do */
	TALK_LAST = 'L',   /* the last trick and who took it; the hands of the last showdown */
	TALK_COUNT = 'N',  /* the number of cards each player holds */
	/* '1'..'9': the table card by card */
};

struct bot_reason;

struct game_talk {
	const char *game;   /* game_ops name */
	/* Phrase an event for t->me into b. Return 1 when phrased, 0 to let the
	 * generic announcer phrase it, -1 for silence. view: the state after
	 * the event, redacted for t->me. */
	int (*event)(const struct talk *t, const void *view, const struct event *e, struct sbuf *b);
	/* Answer a query key into b (never empty: say when there is nothing). */
	void (*query)(const struct talk *t, const void *view, int key, struct sbuf *b);
	/* Why an action was refused, as the player hears it. */
	void (*refusal)(const struct talk *t, const void *view, const struct refusal *r, struct sbuf *b);
	/* An action as a menu item or a move heard ("raise 4 chips", "stay"). */
	void (*action)(const struct talk *t, const void *view, const struct action *a, struct sbuf *b);
	/* What the player must do now, said when it becomes their turn
	 * ("Your turn. Follow hearts."). */
	void (*prompt)(const struct talk *t, const void *view, struct sbuf *b);
	/* 1 when L answers with the last showdown (a game without tricks). */
	int showdowns;
	/* An action as the hint orders it, lower-case, in the game's own words
	 * where they differ from those all games share (Bourré's "take the
	 * turned card", Le Brelan's carres); why is the bot's reason. 1 when
	 * phrased into b, 0 to leave it to the shared words; NULL: always
	 * those. */
	int (*order)(const struct talk *t, const struct action *a, const struct bot_reason *why, struct sbuf *b);
};

#endif
