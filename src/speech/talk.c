/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry of the games' talk modules. */
#include <string.h>

#include "speech/talk.h"
#include "speech/talk_games.h"

static const struct game_talk *const talks[] = {
	&bouillabaisse_talk,
	&bouillotte_talk,
	&brelan_talk,
	&bourre_talk,
	&brouc_talk,
	NULL,
};

const struct game_talk *talk_find(const char *game)
{
	for (int i = 0; talks[i]; i++)
		if (strcmp(talks[i]->game, game) == 0)
			return talks[i];
	return NULL;
}
