/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lobby: everything the server knows above one table: connections and the
 * people logged in on them (presence), accounts, the tables (hosted through
 * the directory), the lobby chat, and the dispatch of every checked client
 * message. It knows nothing of sockets: connections are numbers given by
 * net/server, and what the lobby says goes through a send function. */
#ifndef TAPIS_LOBBY_H
#define TAPIS_LOBBY_H

#include "net/server/lobbydefs.h"
#include "net/server/lobbyrec.h"
#include "net/server/lobbyround.h"
#include "net/server/lobbyacct.h"
#include "net/server/lobbytab.h"

/* Set up; restore every table of the store. 0, or -1 with a message. cheap:
 * the cost of password hashing (enum auth_cost: 0 the real one; the
 * cheapest, or a slow one, for tests). */
int lobby_init(struct lobby *l, struct store *store, const struct host_config *cfg, struct lobby_io io,
               int cheap, long long now_ms, char *err, size_t errlen);
/* The same for a node of a cluster (docs/cluster.md) on a store the nodes
 * share: the saved tables are listed, but no table in play is restored:
 * each is restored by the node that takes its lease (net/cladopt). */
int lobby_init_shared(struct lobby *l, struct store *store, const struct host_config *cfg, struct lobby_io io,
                      int cheap, long long now_ms, char *err, size_t errlen);
void lobby_release(struct lobby *l);
/* A connection opened (addr: the peer, for the password limit; lang: the
 * language it asked for in its address, spoken until its hello, or NULL:
 * English). */
void lobby_open(struct lobby *l, long conn, const char *addr, const char *lang);
/* 1 when the lobby's dispatch has a row for a client message's type
 * (enum req_type): what docs/protocol.md lists as client messages. */
int lobby_dispatches(int type);
/* The bytes a client message of that type may have at most (its row's
 * limit: PROTO_MAX_MESSAGE, or PROTO_SMALL_MESSAGE for one that carries
 * no text of its own); 0 for a type without a row. */
int lobby_message_max(int type);
/* One complete message of a connection. What the server says to it in
 * return (errors included) is phrased in the connection's language. */
void lobby_message(struct lobby *l, long conn, const char *text, size_t len, long long now_ms);
/* The language of a connection (the one of its address before its hello,
 * "en" when none or unknown). */
const char *lobby_lang(struct lobby *l, long conn);
/* 1 when a connection's hello was taken (someone is logged in on it). */
int lobby_logged_in(struct lobby *l, long conn);
/* 1 while a connection's hello waits for the worker to check or hash its
 * password (it said hello: the answer is coming). */
int lobby_hello_waiting(struct lobby *l, long conn);
/* In a cluster, the key of the seat a connection waits for
 * (lobby_seats.take): won, the seat is taken now; else the person holds
 * a seat at table at whose game goes on (seat), and is asked. Its
 * messages held meanwhile are then handled. */
void lobby_seat_answer(struct lobby *l, long conn, long table, int won, long at, int seat, long long now_ms);
/* A connection closed. */
void lobby_close(struct lobby *l, long conn, long long now_ms);
/* Bots, grace periods, the lobby list, the hellos whose passwords the
 * worker thread has hashed or checked; call often (every few ms). */
void lobby_tick(struct lobby *l, long long now_ms);
/* The workers' results (bots' moves, hints) applied now, when the loop is
 * woken for them rather than at the next tick; how many. */
int lobby_work(struct lobby *l, long long now_ms);
/* Save every table (the store already holds every action). */
void lobby_save_all(struct lobby *l);

#endif
