/* keymap: the keys of tapis and what they do, for F1, `tapis keys` and the
 * docs. One table, so the help never drifts from the code. */
#ifndef TAPIS_KEYMAP_H
#define TAPIS_KEYMAP_H

#include <stdio.h>

#include "core/sbuf.h"

enum keymap_when {
	KEYS_ALWAYS = 1,   /* at any moment of a game */
	KEYS_TURN = 2,     /* on your turn */
	KEYS_MENU = 4,     /* in an action menu */
	KEYS_SPEECH = 8,   /* speech and history */
};

struct keymap_entry {
	const char *keys;    /* as printed: "C", "1-9", "Left, Right" (names of keys are msgids) */
	const char *what;    /* msgid */
	int when;
	const char *spoken;  /* as F1 says them, in words ("1 to 9", "comma, period"), a
	                      * msgid; NULL: the same as keys */
};

extern const struct keymap_entry keymap[];
/* Print every key (translated) for `tapis keys`. */
void keymap_print(FILE *f);
/* The keys of a moment, spoken with F1. */
void keymap_say(struct sbuf *b, int when);

#endif
