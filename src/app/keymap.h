/* SPDX-License-Identifier: GPL-3.0-or-later */
/* keymap: the keys of tapis and what they do, for F1 (the terminal's, and
 * the web page's, sent with the server's state), `tapis keys` (ui/keylist)
 * and the docs. One table, so the help never drifts from the code. */
#ifndef TAPIS_KEYMAP_H
#define TAPIS_KEYMAP_H

#include "core/card.h"
#include "core/game.h"
#include "core/sbuf.h"

struct i18n_lang;

enum keymap_when {
	KEYS_ALWAYS = 1,   /* at any moment of a game */
	KEYS_TURN = 2,     /* on your turn */
	KEYS_MENU = 4,     /* in an action menu */
	KEYS_SPEECH = 8,   /* speech and history */
	KEYS_MOMENTS = 15,
	/* Conditions on top of a moment: F1 says such a key only when the
	 * moment has it too (`tapis keys` lists them all). */
	KEYS_IF_DISCARD = 16, /* a discard can be made now */
	KEYS_IF_AMOUNT = 32,  /* the chosen action takes an amount */
	KEYS_IF_NET = 64,     /* at a network table (tapis join) */
	KEYS_IF_TRICKS = 128,   /* a game of tricks: L says the last one */
	KEYS_IF_SHOWDOWN = 256, /* a game of showdowns: L says the last one */
	/* The moments of the short F1 (keymap_say_brief). */
	KEYS_BRIEF_PLAY = 512,    /* your turn, a card to play */
	KEYS_BRIEF_CHOOSE = 1024, /* your turn, a choice to make (the action menu) */
	KEYS_BRIEF_WAIT = 2048,   /* another's turn */
	KEYS_BRIEF = 3584,
	KEYS_IF_PAGE = 4096, /* said at the web page: a key's page_what, when it has one */
	KEYS_IF_BRAILLE = 8192, /* a braille display is there (the terminal's) */
};

struct keymap_entry {
	const char *keys;    /* as printed: "C", "1-9", "Left, Right" (names of keys are msgids) */
	const char *what;    /* msgid */
	int when;
	const char *spoken;  /* as F1 says them, in words ("1 to 9", "comma, period"), a
	                      * msgid; NULL: the same as keys */
	const char *page_what; /* msgid: what it does at the web page, NULL: the same */
};

extern const struct keymap_entry keymap[];
/* The keys F1 says first, by KEYS_BRIEF_* moment (the web page too). */
extern const struct keymap_entry keymap_brief[];
/* What the key does (a msgid): at the web page when when has KEYS_IF_PAGE. */
const char *keymap_what(const struct keymap_entry *e, int when);
/* Whether the key asks a question outside a menu (C, F, R, S, T, L, N, H,
 * the hint, F1): the page's toolbar has a button for it. */
int keymap_query(const struct keymap_entry *e);
/* The keys of a moment, spoken with F1: when holds the moments (ORed)
 * and the conditions that are true now. */
/* l: the language of the words (i18n_of; NULL: the one in force). */
void keymap_say(const struct i18n_lang *l, struct sbuf *b, int when);
/* F1 first at the table: the 4 to 6 keys of the moment (one KEYS_BRIEF_*
 * moment and the conditions true now), then "F1 again for all keys". */
void keymap_say_brief(const struct i18n_lang *l, struct sbuf *b, int when);
/* The line of `tapis keys` on the keys of an AZERTY keyboard (msgid). */
extern const char KEYMAP_AZERTY[];
/* The digit ('0'-'9') a character typed stands for: a digit, or the
 * unshifted top row of an AZERTY keyboard (& é " ' ( - è _ ç à);
 * 0 for any other. typed: the character's bytes (term_last_text). */
int keymap_digit(const char *typed);

/* ---- The cursor: how the keys move over the hand and over an amount ----
 *
 * The rules live here alone. A view (app/view) turns them into lists for
 * its hand (struct keymap_cursor, in view_state.cursor), a server sends
 * those lists in its `state` (net/jstate), and both clients (ui/play, the
 * web page) only move a cursor over them: a rule changed here is followed
 * by both without a line of theirs changed. */

/* How far a key of the hand takes the cursor. */
enum keymap_span {
	KEYMAP_CARD, /* one card, no wrapping */
	KEYMAP_SUIT, /* the first card of the next or previous suit, no wrapping */
	KEYMAP_ENDS, /* the first or last card of the suit; from there, of the hand */
};

struct keymap_move {
	const char *key;  /* the key as a browser names it (KeyboardEvent.key): "ArrowLeft" */
	const char *name; /* msgid: its name in docs/keys.md ("Left") */
	int span;         /* enum keymap_span */
	int dir;          /* 1 on, -1 back */
	const char *edge; /* msgid said when the cursor can go no further that way, NULL none */
	const char *what; /* msgid: what it does, for docs/keys.md */
};

#define KEYMAP_NMOVES 8
extern const struct keymap_move keymap_moves[KEYMAP_NMOVES];

/* How a key of the action menu changes an amount. */
enum keymap_bound { KEYMAP_STEP, KEYMAP_LEAST, KEYMAP_MOST };
struct keymap_step {
	const char *key;  /* as keymap_move's */
	int bound;        /* enum keymap_bound: by step, or to the least or the most */
	int step;         /* chips added (KEYMAP_STEP) */
};

#define KEYMAP_NSTEPS 6
#define KEYMAP_STEP_MAX 1000000 /* the largest step a state may give */
extern const struct keymap_step keymap_steps[KEYMAP_NSTEPS];

/* What Enter does outside the action menu, on one's turn. */
enum keymap_enter {
	KEYMAP_ENTER_MENU,    /* open the action menu */
	KEYMAP_ENTER_PLAY,    /* play the selected card */
	KEYMAP_ENTER_DISCARD, /* throw the marked cards at once */
};
/* Enter's rule: the selected card when a card may be played; the marked
 * cards when a discard is the one choice; else the menu. */
int keymap_enter(int can_play, int nchoices, int only_discard);

#define KEYMAP_SAID_MAX 64
/* The cursor's lists for one hand (n cards): where each key takes a
 * cursor at card i, and what is said there. Plain data: a client fills
 * it from a server's state as it came. */
struct keymap_cursor {
	int n;                                       /* the hand's cards */
	signed char to[KEYMAP_NMOVES][GAME_MAX_HAND]; /* keymap_moves[m] from card i: to[m][i] */
	unsigned char edge[KEYMAP_NMOVES][GAME_MAX_HAND]; /* 1: it could go no further, said[m] is said */
	char said[KEYMAP_NMOVES][KEYMAP_SAID_MAX];   /* in the listener's language, "" none */
	signed char turn[GAME_MAX_HAND];             /* where the turn's start takes a cursor at i */
	int bound[KEYMAP_NSTEPS], step[KEYMAP_NSTEPS]; /* the amount keys, keymap_steps' order */
	int marks;                                   /* the most cards marked for a discard */
	int enter;                                   /* enum keymap_enter */
};

/* The lists for a hand of n cards (suits together, as a view gives
 * them), playable[i] 1 when card i may be played now (NULL: none), the
 * words in l (i18n_of; NULL: the one in force), by the rules of moves
 * (keymap_moves; another table is another rule). */
void keymap_cursor_make(struct keymap_cursor *c, const struct keymap_move moves[KEYMAP_NMOVES], const card_t *hand,
                        const int *playable, int n, const struct i18n_lang *l);
/* The index of the move or step of a key ("ArrowLeft"), -1 none. */
int keymap_move_of(const char *key);
int keymap_step_of(const char *key);
/* Where move m takes a cursor at i: the card (i itself when the lists do
 * not say), *edge 1 when it could go no further. */
int keymap_cursor_to(const struct keymap_cursor *c, int m, int i, int *edge);
/* Where the start of a turn takes a cursor at i. */
int keymap_cursor_turn(const struct keymap_cursor *c, int i);
/* The amount step s makes of cur, within lo..hi. */
int keymap_cursor_amount(const struct keymap_cursor *c, int s, int cur, int lo, int hi);

#endif
