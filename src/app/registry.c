/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry of games, in menu order (see registry.h). */
#include "app/registry.h"

#include <ctype.h>
#include <string.h>

#include "bots/bot.h"
#include "core/game.h"
#include "i18n/i18n.h"
#include "words/talk.h"

/* The games, in menu order, one line each. A game NAME brings its rules
 * NAME_ops (games/NAME.c), its bot NAME_bot (bots/bot_NAME.c) and its
 * talk NAME_talk (words/talk_NAME.c): the line declares all three and
 * makes the game's entry. */
#define REGISTRY_GAMES(GAME) \
	GAME(bouillabaisse) \
	GAME(bouillotte) \
	GAME(brelan) \
	GAME(bourre) \
	GAME(brouc)

#define REGISTRY_DECLARE(name)                 \
	extern const struct game_ops name##_ops;  \
	extern const struct bot_ops name##_bot;   \
	extern const struct game_talk name##_talk;
REGISTRY_GAMES(REGISTRY_DECLARE)

#define REGISTRY_ENTRY(name) { &name##_ops, &name##_bot, &name##_talk },
const struct registry_game registry_games[] = {
	REGISTRY_GAMES(REGISTRY_ENTRY)
	{ NULL, NULL, NULL },
};

#define REGISTRY_MENU(name) { &name##_ops, NULL, NULL },
const struct registry_menu_entry registry_menu[] = {
	REGISTRY_GAMES(REGISTRY_MENU)
	/* TRANSLATORS: Le Brouc's ancestor, an entry of the main menu. */
	{ &brouc_ops, N_("L'Homme de Brou"), "variant=homme" },
	{ NULL, NULL, NULL },
};

/* Lower-case ASCII, with the accented letters of the games' names folded
 * (é è ê -> e). */
static void fold(const char *in, char *out, size_t len)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)in;
	while (*p && n + 1 < len) {
		if (p[0] == 0xC3 && p[1]) {
			unsigned char c = p[1];
			out[n++] = (c >= 0xA8 && c <= 0xAB) || (c >= 0x88 && c <= 0x8B) ? 'e' : '?';
			p += 2;
			continue;
		}
		out[n++] = (char)tolower(*p++);
	}
	out[n] = '\0';
}

const struct registry_game *registry_find(const char *name)
{
	char want[64];
	fold(name, want, sizeof want);
	for (int i = 0; registry_games[i].ops; i++)
		if (strcmp(registry_games[i].ops->name, want) == 0)
			return &registry_games[i];
	return NULL;
}

const struct game_ops *registry_ops(const char *name)
{
	const struct registry_game *r = registry_find(name);
	return r ? r->ops : NULL;
}
