/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stats: what a finished game leaves to the registered players who sat at
 * it (docs/protocol.md, "Accounts that remember"): their figures per game
 * (games and deals played, games won, net chips or points), their Glicko-2
 * rating per game when the game was rated (net/rating), and the game in
 * their last games; and the sentences that tell them, in the language in
 * force. Guests (no password) are not recorded. */
#ifndef TAPIS_STATS_H
#define TAPIS_STATS_H

#include <stddef.h>

#include "net/server/host.h"
#include "net/store/store.h"

#define STATS_LEADERS 10        /* the leaderboard of a game: its best rated */

/* The results of a finished table's game, as stats_record keeps them:
 * filled from the table by stats_of_host. */
struct stats_result {
	struct store_game g;        /* the registered players, their places and net */
	int humans_left;            /* an open seat is played by a bot at the end */
};

/* Fill r from a table whose game is over: the standings of every seat
 * (a team's for its members), each seat's place among all seats, its net
 * since the start, the deals played. Registered players are the seats'
 * names with an account in the store. The game is rated when at least two
 * seats are held by registered players at the end and every open seat (a
 * seat for a person) is still held by one. 0, or -1 when it cannot be read. */
int stats_of_host(struct host *h, long long now_s, struct stats_result *r);
/* Record the game: the ratings of its players (from the store) updated
 * with rating_game by their places when it is rated, then everything in
 * one write. 0 or -1 (the store says why). */
int stats_record(struct store *s, struct stats_result *r);
/* Both, for a table whose game just ended (host.c calls it once). */
int stats_game_over(struct host *h);

/* One game's figures as a sentence ("Bouillotte: 3 games, ..."), in L. */
struct i18n_lang;
void stats_sentence(const struct i18n_lang *L, const struct store_stat *x, char *out, size_t len);
/* One line of a leaderboard, in L: its rank (from 1), name and rating. */
void stats_leader_sentence(const struct i18n_lang *L, int rank, const struct store_stat *x, char *out, size_t len);

#endif
