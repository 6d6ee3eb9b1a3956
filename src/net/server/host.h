/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host: one table played over the network. The host holds the game's state
 * and applies actions with the game's own apply; its seats are held by
 * players (by name), by bots, or open; its members are the players and
 * spectators listening, each in their own language. After every action it
 * phrases the events once for each kind of listener present (a seat or the
 * spectators, a language, a verbosity) with the announcer (only what that
 * seat may see; spectators hear what is public), sends the cues with the
 * seat they come from, and the kind's view: the answers to the query
 * keys, the hand, the legal choices. The table (app/table) plays the game;
 * each kind is a view (app/view) whose sink turns what it says and its
 * state into messages, the same bytes to each member of the kind. Every action goes to the hand history and the
 * store's journal before it is told; one that cannot is undone and the
 * table pauses until it can. A table is restored by replaying the journal. */
#ifndef TAPIS_HOST_H
#define TAPIS_HOST_H

#include "net/server/hostdefs.h"

/* Create a table (state WAITING) from the options; 0, or -1 with a message
 * for the client. Saved in the store. seed_by: enum host_seed, who
 * chose the seed (the creator: then nobody else may sit); the hand history
 * says who. */
int host_create(struct host *h, long id, const struct game_ops *g, int players, const struct rules *rules,
                uint64_t seed, int seed_by, const char *creator, struct store *store,
                const struct host_config *cfg, struct net_out out, char *err, size_t errlen);
/* Restore a stored table: its seats and options, then its journal replayed
 * through apply. Players are all away until they come back. 0 or -1. */
int host_restore(struct host *h, const struct store_table *t, struct store *store,
                 const struct host_config *cfg, struct net_out out, long long now_ms, char *err,
                 size_t errlen);
void host_free(struct host *h);
/* Save the table's options and seats (not the journal). */
void host_save(struct host *h);
/* Where a table's hand history is (--log-dir DIR): DIR/TABLE.jsonl for the
 * game being played (game 0), DIR/TABLE-GAME.jsonl for a finished game
 * kept for its players (GAME: its store_game id). */
void host_history_path(const char *dir, long table, long long game, char *out, size_t len);
/* The game just finished and recorded as game: its hand history takes its
 * own name, so that the table's next game (a rematch) never writes where a
 * finished game is read. 0, or -1 (logged). */
int host_history_keep(struct host *h, long long game);

/* The member of that name, or NULL. */
struct host_member *host_member(struct host *h, const char *name);
/* 0 when name may take seat now (free or theirs, within the seat rules:
 * a seat left in this deal is its player's alone, a player who left a seat
 * in this deal takes no other, only the creator sits at a table whose seed
 * they chose), or -1 with a message. A message of the host's functions is
 * in the language given, that of the one asking (NULL: the one in force);
 * host_join's in its lang. */
int host_may_sit(const struct host *h, const char *name, int seat, const struct i18n_lang *L, char *err,
                 size_t errlen);
/* A player or spectator joins (or comes back on a new connection): they hear
 * what they missed, then the table's state. seat -1 watches; otherwise the
 * seat must be free for them. 0, or -1 with a message. */
int host_join(struct host *h, const char *name, const char *lang, long conn, int seat, long long now_ms,
              char *err, size_t errlen);
/* The member sitting at a seat hears it: "You sit at table 2, seat 2."
 * (after their `joined`, which host_join does not send). */
void host_tell_seat(struct host *h, const char *name);
/* The member's connection is gone: their seat waits grace_ms, then a bot
 * plays it until they come back; a spectator's place is kept keep_ms (what
 * they miss is kept for both). */
void host_disconnect(struct host *h, const char *name, long long now_ms);
/* Stand up (the seat goes to a bot and is open to anyone, its player
 * included), or leave the table entirely (leave = 1). */
void host_stand(struct host *h, const char *name, int leave);
/* The creator sets an unheld seat open or to a bot of a level. 0 or -1. */
int host_set_seat(struct host *h, int seat, int open, int level, const struct i18n_lang *L, char *err,
                  size_t errlen);
/* Begin play (bots play the empty seats). 0 or -1. */
int host_start(struct host *h, long long now_ms, const struct i18n_lang *L, char *err, size_t errlen);
/* A player's action (text already parsed); 0, or -1: refused, and the
 * spoken reason was sent to them. */
int host_action(struct host *h, const char *name, const struct action *a, long long now_ms);
/* The hint key of a seated player: view_hint says, to them only, what the
 * strongest bot would do now. Nothing is played. 0; or -1 with the error's
 * code and message (in L) when they hold no seat or the game is not being played;
 * or -1 with code NULL when it is not their turn (and that was said).
 * With cfg work, the search is made on a worker and the hint said when it
 * comes back (dropped if the move was played meanwhile); one hint at a
 * time per member: asked again while theirs is on its way, 0 and nothing
 * more is searched (the one coming answers). */
int host_hint(struct host *h, const char *name, const struct i18n_lang *L, const char **code, const char **msg);
/* Full or short announcements (enum talk_verbosity) for a member from now
 * on, kept while they are at the table; say: tell them which, in their
 * language, with one say. 0, or -1 when they are not at the table. */
int host_verbosity(struct host *h, const char *name, int verbosity, int say);
/* Let bots play what is due, and a bot play the move of a player whose
 * turn time ran out (warned before); at a paused table, try again to keep
 * the move waiting. Returns 1 when something happened. */
int host_tick(struct host *h, long long now_ms);
/* 1 when the table should be removed: its game over for keep_ms, or
 * waiting with nobody connected for keep_ms; or finished or waiting with
 * no member left at all. Call it often: it notices who is connected, and
 * forgets the spectators gone for keep_ms. */
int host_expired(struct host *h, long long now_ms);
/* The earliest time at which host_tick or host_expired may have something
 * to do, as things stand (<= now_ms: at once; LLONG_MAX: nothing until
 * the table is touched). Never later than what they would do. */
long long host_due(const struct host *h, long long now_ms);
/* Send a chat line to every member (spoken by the client with the chat cue). */
void host_chat(struct host *h, const char *from, const char *text);
/* Fill a store row of the table. */
void host_row(const struct host *h, struct store_table *t);
/* The seat's state word for the lobby: "open", "bot", "player", "away". */
const char *host_seat_word(const struct host *h, int seat);

#endif
