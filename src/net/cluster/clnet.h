/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clnet: the lobby and the tables of one node joined to the other nodes
 * of a cluster (docs/cluster.md), over net/cluster:
 * - the lobby: this node's tables and people written to the directory
 *   and their changes published on tapis:lobby at each round of the
 *   lobby's list; the others' applied, so that the lobby lists every
 *   node's tables (after this node's) and people (lobby_far);
 * - the lobby's chat lines on tapis:chat;
 * - table ids from blocks of the cluster's counter (net/dir on blocks);
 * - the relay: a client here at a table of another node has its messages
 *   sent to that node's inbox, where a connection of the lobby numbered
 *   from LOBBY_RELAYED_CONN stands for it; what the owner's lobby and
 *   table say to that connection (phrased there, in the person's
 *   language) comes back to this node's inbox and goes to the client.
 *   Relayed messages are numbered each way; on a gap the owner sends the
 *   table's state again.
 * It knows the lobby through its public functions; net/server gives it
 * the cluster's hooks, the clients' messages and what the lobby says to
 * relayed connections. */
#ifndef TAPIS_CLNET_H
#define TAPIS_CLNET_H

#include <stddef.h>

struct cluster;
struct lobby;
struct clnet;

#define CLNET_ID_BLOCK 64        /* table ids taken from the cluster at a time */
#define CLNET_ID_LOW 16          /* the next block asked for when fewer are left */
#define CLNET_FAR_TABLES 100000  /* other nodes' tables known at once (more are not listed) */
#define CLNET_FAR_PEOPLE 200000  /* other nodes' people known at once */
#define CLNET_RELAYS 65536       /* relayed connections at once, each way */

struct clnet_io {
	/* text (malloc'd, taken) to a client of this node. */
	void (*send)(void *ctx, long conn, char *text);
	/* Close a client of this node with PROTO_CLOSE_AGAIN (once what it
	 * was sent is out): it connects again at once. */
	void (*again)(void *ctx, long conn);
	void *ctx;
};

/* Wire the lobby l to the cluster c (both outlive it). */
struct clnet *clnet_new(struct cluster *c, struct lobby *l, struct clnet_io io);
void clnet_free(struct clnet *n);

/* The cluster's hooks, passed on by net/server. */
void clnet_link(struct clnet *n, int up);
void clnet_node_seen(struct clnet *n, const char *node);
void clnet_node_lost(struct clnet *n, const char *node);
/* A table run here until now was found run by another node (after
 * lobbytab_drop_table): its players here are relayed to it once the
 * directory names its node. */
void clnet_table_lost(struct clnet *n, long table);

/* A client's complete message (before the lobby): 1 when it concerns a
 * table of another node and was relayed there, 0 for the lobby here. */
int clnet_message(struct clnet *n, long conn, const char *text, size_t len);
/* A client's connection closed. */
void clnet_closed(struct clnet *n, long conn);
/* What the lobby says to a relayed connection (conn >= LOBBY_RELAYED_CONN;
 * takes text), and its close. */
void clnet_send(struct clnet *n, long conn, char *text);
void clnet_close(struct clnet *n, long conn);
/* Another node's table as the directory lists it: 1 when known, with the
 * seat name holds there (-1 none), whether its game goes on, and its
 * node's id (into node, len bytes). */
int clnet_far_seat(struct clnet *n, long table, const char *name, int *seat, int *playing, char *node, size_t len);
/* A seat of name's at another node's table (not table) whose game goes
 * on: 1 with its table and seat. */
int clnet_far_held(struct clnet *n, const char *name, long table, long *at, int *seat);
/* Often, from the loop (what waits is done: relayed connections closed). */
void clnet_tick(struct clnet *n, long long now_ms);

#endif
