/* SPDX-License-Identifier: GPL-3.0-or-later */
/* registry: the one table of games. Each game is one entry: its rules
 * (src/games), its bot (src/bots) and its sentences (src/words). It lives
 * in app/, the first layer that sees all three, so that the rules core
 * knows nothing of words and no layer points up. */
#ifndef TAPIS_REGISTRY_H
#define TAPIS_REGISTRY_H

#include "bots/bot.h"
#include "core/game.h"
#include "words/talk.h"

struct registry_game {
	const struct game_ops *ops;   /* the rules */
	const struct bot_ops *bot;    /* the computer players */
	const struct game_talk *talk; /* what the players hear */
};

/* Every game, in menu order; the last entry's ops is NULL. */
extern const struct registry_game registry_games[];

/* The main menu: every game by its title, and a variant players know by
 * a name of its own (L'Homme de Brou) as an entry of its own, which starts
 * its game with one rule set ("variant=homme") before the options. */
struct registry_menu_entry {
	const struct game_ops *ops;
	const char *title;   /* msgid; NULL: the game's title */
	const char *rule;    /* "key=value" set first, or NULL */
};
/* In menu order; the last entry's ops is NULL. */
extern const struct registry_menu_entry registry_menu[];

/* By command-line word, accents and case ignored ("Bourré" = "bourre");
 * NULL when no game has that name. */
const struct registry_game *registry_find(const char *name);
/* The same, the rules alone (NULL when no game has that name). */
const struct game_ops *registry_ops(const char *name);

#endif
