/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry of games, in menu order. */
#include <ctype.h>
#include <string.h>

#include "core/game.h"
#include "games/bouillabaisse.h"
#include "games/bouillotte.h"
#include "games/brelan.h"
#include "games/bourre.h"
#include "games/brouc.h"

const struct game_ops *const game_list[] = {
	&bouillabaisse_ops,
	&bouillotte_game,
	&brelan_game,
	&bourre_ops,
	&brouc_ops,
	NULL,
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

const struct game_ops *game_find(const char *name)
{
	char want[64];
	fold(name, want, sizeof want);
	for (int i = 0; game_list[i]; i++)
		if (strcmp(game_list[i]->name, want) == 0)
			return game_list[i];
	return NULL;
}
