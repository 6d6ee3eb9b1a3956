/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bot of each game (bots/bot_GAME.c). */
#ifndef TAPIS_BOT_GAMES_H
#define TAPIS_BOT_GAMES_H

#include "bots/bot.h"

extern const struct bot_ops bouillabaisse_bot;
extern const struct bot_ops bouillotte_bot;
extern const struct bot_ops brelan_bot;
extern const struct bot_ops bourre_bot;
extern const struct bot_ops brouc_bot;

#endif
