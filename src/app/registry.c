/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry of games, in menu order (see registry.h). */
#include "app/registry.h"

#include <ctype.h>
#include <string.h>

#include "bots/bot_games.h"
#include "games/bouillabaisse.h"
#include "games/bouillotte.h"
#include "games/bourre.h"
#include "games/brelan.h"
#include "games/brouc.h"
#include "speech/talk_games.h"

const struct registry_game registry_games[] = {
	{ &bouillabaisse_ops, &bouillabaisse_bot, &bouillabaisse_talk },
	{ &bouillotte_game, &bouillotte_bot, &bouillotte_talk },
	{ &brelan_game, &brelan_bot, &brelan_talk },
	{ &bourre_ops, &bourre_bot, &bourre_talk },
	{ &brouc_ops, &brouc_bot, &brouc_talk },
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
