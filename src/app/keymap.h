/* SPDX-License-Identifier: GPL-3.0-or-later */
/* keymap: the keys of tapis and what they do, for F1 (the terminal's, and
 * the web page's, sent with the server's state), `tapis keys` (ui/keylist)
 * and the docs. One table, so the help never drifts from the code. */
#ifndef TAPIS_KEYMAP_H
#define TAPIS_KEYMAP_H

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

#endif
