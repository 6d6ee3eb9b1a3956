/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobbyrec: the lobby's records, below its other parts: its connections,
 * the people known (by name and by look-alike keys), the tables it runs
 * (by id, each with its due time) and those saved, each found by its key;
 * what the lobby sends (a connection, many at once, an error); a
 * password given to the worker (net/server/auth). */
#ifndef TAPIS_LOBBYREC_H
#define TAPIS_LOBBYREC_H

#include <stddef.h>
#include <stdint.h>

#include "net/server/lobbydefs.h"

/* The connection of that id, the person of that name, the table of that
 * id; NULL when none. */
struct lobby_conn *lobbyrec_conn_of(struct lobby *l, long id);
struct lobby_user *lobbyrec_user_named(struct lobby *l, const char *name);
/* Someone known here whose name looks like name (net/ident), or NULL. */
struct lobby_user *lobbyrec_user_alike(struct lobby *l, const char *name);
struct host *lobbyrec_table_of(struct lobby *l, long id);
/* Table h, in the lobby, was made again in place (host_create: a
 * rematch): its timers are looked at from the next tick. */
void lobbyrec_table_renewed(struct lobby *l, struct host *h);
/* The index in l->saved of a saved table, or -1. */
int lobbyrec_saved_index(const struct lobby *l, long id);
void lobbyrec_send_text(struct lobby *l, long conn, char *text);
/* text (malloc'd, taken) to n connections: one buffer for all of them. */
void lobbyrec_send_many(struct lobby *l, const long *conns, int n, char *text);
void lobbyrec_send_error(struct lobby *l, long conn, const char *code, const char *message, int re);
const char *lobbyrec_conn_key(const void *ctx, uint32_t i, size_t *len);
/* A connection's message waiting for the worker, and those held behind it. */
void lobbyrec_job_clear(struct lobby_conn *c);
void lobbyrec_conn_clear(struct lobby_conn *c);
/* The tables are in the order they were made, so by id: looked up by
 * halves (every message naming a table, every tick's sweeps), then one by
 * one if a table came out of that order (restored or adopted). */
int lobbyrec_table_index(const struct lobby *l, long id);
/* Table h is due at at (sooner than it was, or popped). */
void lobbyrec_table_due(struct lobby *l, struct host *h, long long at);
struct net_out lobbyrec_host_out(struct lobby *l);
void lobbyrec_add_table(struct lobby *l, struct host *h);
/* The person of that name known to the lobby, or a new one (offline). */
struct lobby_user *lobbyrec_user_named_or_new(struct lobby *l, const char *name);
/* User i forgotten: the last one takes its place (the connections are
 * the caller's). */
void lobbyrec_user_forget(struct lobby *l, uint32_t i);
/* Someone known here whose name looks like the one of keys k, or NULL. */
struct lobby_user *lobbyrec_user_alike_keys(struct lobby *l, const struct ident_keys *k);
void lobbyrec_broadcast(struct lobby *l, const char *text);
/* Hand a message's password to the worker, to hash (hash NULL) or check
 * against hash: its answer comes to on_auth, and the connection's next
 * messages wait for it. 0, or -1 (the server too busy: said). */
int lobbyrec_submit(struct lobby *l, struct lobby_conn *c, struct req *m, const char *hash);
struct host *lobbyrec_table_for(struct lobby *l, struct lobby_conn *c, struct req *m);
int lobbyrec_saved_holds(const struct lobby *l, const char *name);
/* A saved table's row into the list (the oldest forgotten past
 * LOBBY_SAVED_MAX, its row with it). */
void lobbyrec_saved_add(struct lobby *l, const struct store_table *t);
/* "saved": the saved tables where name holds a seat (sent when there are
 * some, or always: after a change). */
void lobbyrec_send_saved(struct lobby *l, long conn, const char *name, int always);
/* The players of a saved table who are connected get their list again. */
void lobbyrec_tell_saved(struct lobby *l, char (*seat)[HOST_PLAYER_MAX], int players);
/* Remove table i: from the lobby, the directory and the store (its hand
 * history stays in --log-dir). Its members still here are told. */
void lobbyrec_close_table(struct lobby *l, int i, const char *reason, int forget);
void lobbyrec_remove_table(struct lobby *l, int i);

#endif
