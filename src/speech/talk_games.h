/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The talk module of each game (speech/talk_GAME.c). */
#ifndef TAPIS_TALK_GAMES_H
#define TAPIS_TALK_GAMES_H

#include "speech/talk.h"

extern const struct game_talk bouillabaisse_talk;
extern const struct game_talk bouillotte_talk;
extern const struct game_talk brelan_talk;
extern const struct game_talk bourre_talk;
extern const struct game_talk brouc_talk;

#endif
