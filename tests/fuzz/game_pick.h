/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the game targets: a game, its players and rule options decoded
 * from the first bytes of the input. */
#ifndef TAPIS_FUZZ_GAME_PICK_H
#define TAPIS_FUZZ_GAME_PICK_H

#include "core/game.h"
#include "fuzz/fuzz.h"

/* The game of byte b. */
const struct game_ops *fuzz_pick_game(unsigned b);
/* Players within the game's range. */
int fuzz_pick_players(const struct game_ops *g, unsigned b);
/* Up to 3 rule options set to values of their type (the values the command
 * line accepts, auto and random included), from the input. */
void fuzz_pick_rules(const struct game_ops *g, struct rules *r, struct fuzz_in *in);
/* A sink that writes every event as a log line (exercising the history
 * writer) and checks the event's counts. */
extern const struct sink fuzz_sink;

#endif
