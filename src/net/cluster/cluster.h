/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cluster: the Redis side of several `tapis serve` processes acting as one
 * server (docs/cluster.md). hiredis's asynchronous API on the server's own
 * libev loop, two connections to one Redis: one for commands, one for
 * SUBSCRIBE. Nothing here waits on the loop: every answer comes back in a
 * callback, a dropped link is made again with a growing pause (and the
 * channels subscribed again), and what is sent while the link is down is
 * refused (-1).
 *
 * What it keeps in Redis:
 * - the node's lease: tapis:node:ID = INFO, PX CLUSTER_LEASE_MS, renewed
 *   every CLUSTER_RENEW_MS; the ids in the set tapis:nodes. Every node
 *   reads the others' leases each CLUSTER_RENEW_MS: a node whose lease
 *   lapsed is lost (hooks.on_node_lost, on every node that sees it).
 * - a table's lease: tapis:table:ID:owner = NODE, taken with NX, renewed
 *   with the node's lease (one script for all its tables); the tables a
 *   node owns in the set tapis:node:NODE:tables, where the others find what
 *   a lost node held. Each survivor tries at once those it is the first
 *   choice for (rendezvous hashing over the nodes alive), the others
 *   after CLUSTER_ORPHAN_DEFER renewals (NX decides: exactly one wins,
 *   hooks.on_table_adopted).
 * - the directory: the hashes tapis:tables and tapis:people.
 * - pub/sub: opaque messages on channels (the lobby's events, chat,
 *   invitations, a node's inbox).
 * Every name, id, channel and message is bounded: a longer one is refused. */
#ifndef TAPIS_CLUSTER_H
#define TAPIS_CLUSTER_H

#include <stddef.h>

#include "net/cluster/clwords.h"

struct ev_loop;
struct cluster;

#define CLUSTER_LEASE_MS 3000        /* a node's and a table's lease */
#define CLUSTER_RENEW_MS 1000        /* renewed, and the others' read, this often */
#define CLUSTER_RETRY_MIN_MS 100     /* the first pause before making a dropped link again, */
#define CLUSTER_RETRY_MAX_MS 2000    /* doubled up to this */
#define CLUSTER_CONNECT_MS 2000      /* a connection not made in this time is dropped and tried again */
#define CLUSTER_INFO_MAX 256         /* what a node says of itself in its lease */
#define CLUSTER_MESSAGE_MAX (256 * 1024) /* a message on a channel; longer ones are not sent nor taken */
#define CLUSTER_KEY_MAX 128          /* a field of the directory */
#define CLUSTER_VALUE_MAX (16 * 1024) /* its value */
#define CLUSTER_MAX_NODES 256        /* nodes known at once */
#define CLUSTER_MAX_TABLES 65536     /* tables a node owns at once */
#define CLUSTER_MAX_ORPHANS 65536    /* a lost node's tables waiting to be taken */
#define CLUSTER_MAX_SUBS 64          /* channels subscribed at once */
#define CLUSTER_ORPHAN_TRIES 10      /* a lost node's table still leased to it is tried this many rounds */
#define CLUSTER_ORPHAN_DEFER 2       /* renewals a node waits before taking a lost table another node is first for */

/* The channels: opaque bytes to this module; a node's inbox is
 * CLUSTER_INBOX followed by its id (clwords_inbox). */
#define CLUSTER_CH_LOBBY "tapis:lobby"
#define CLUSTER_CH_CHAT "tapis:chat"
#define CLUSTER_CH_INVITE "tapis:invite"

enum cluster_dir { CLUSTER_DIR_TABLES, CLUSTER_DIR_PEOPLE };

/* What the cluster tells its user; any may be NULL. */
struct cluster_hooks {
	void *ctx;
	/* The link for commands is up (1) or down (0). */
	void (*on_link)(void *ctx, int up);
	/* Another node's lease seen for the first time (info: what it says
	 * of itself). */
	void (*on_node_seen)(void *ctx, const char *node, const char *info);
	/* A node's lease lapsed (or it left): called once on every node that
	 * sees it, before its tables are shared out. */
	void (*on_node_lost)(void *ctx, const char *node);
	/* This node took a lost node's table: rebuild it from the store. */
	void (*on_table_adopted)(void *ctx, long table);
	/* This node's lease on a table was found taken by another node (after
	 * the link was down longer than the lease): stop running it. */
	void (*on_table_lost)(void *ctx, long table);
};

/* ok: 1 done, 0 refused (taken by another node, not ours), -1 no answer
 * (the link dropped). */
typedef void (*cluster_done_fn)(void *ctx, long table, int ok);
/* owner: the node owning table, or NULL (none, or no answer). */
typedef void (*cluster_owner_fn)(void *ctx, long table, const char *owner);
/* A message on a channel; len <= CLUSTER_MESSAGE_MAX. */
typedef void (*cluster_msg_fn)(void *ctx, const char *channel, const void *msg, size_t len);
/* One field of the directory, then once more with key NULL at the end
 * (also when the link dropped: then len is (size_t)-1). */
typedef void (*cluster_dir_fn)(void *ctx, const char *key, const void *val, size_t len);


/* Join the cluster at url on loop: node is this node's id (NULL: a random
 * one), info what its lease says (NULL: ""). The host is resolved here,
 * once (the only wait); the links are made on the loop. NULL with a
 * message when an argument is refused. */
struct cluster *cluster_new(struct ev_loop *loop, const char *url, const char *node, const char *info,
                            const struct cluster_hooks *hooks, char *err, size_t errlen);
/* Leave (never from one of its own hooks or callbacks): gently (1: the node's lease and its tables' leases dropped at
 * once, through a short blocking connection of at most a second, so the
 * others share them out without waiting for the lease) or not (0: as if
 * killed; the leases lapse by themselves). */
void cluster_free(struct cluster *c, int gently);

const char *cluster_node(const struct cluster *c);
int cluster_up(const struct cluster *c);
/* The other nodes whose lease is alive, as last read: up to max ids. */
int cluster_nodes(const struct cluster *c, const char **ids, int max);

/* Take table's lease (NX: refused while another node holds it); done,
 * when not NULL, says how it went. -1 when refused at once (link down,
 * too many tables). */
int cluster_claim_table(struct cluster *c, long table, cluster_done_fn done, void *ctx);
/* Drop table's lease, only if it is this node's (compare and delete in
 * one script). */
int cluster_release_table(struct cluster *c, long table, cluster_done_fn done, void *ctx);
/* 1 when this node holds table's lease, as it last knew. */
int cluster_owns(const struct cluster *c, long table);
int cluster_owned_count(const struct cluster *c);
int cluster_owner_of(struct cluster *c, long table, cluster_owner_fn cb, void *ctx);

/* Table ids across the nodes: a block of count fresh ids (never given
 * to any node before), from first; ids at or below what floor names are
 * never given (the store's last id, when a node starts). done gets first
 * (-1: no answer). count 1 to CLUSTER_MAX_ID_BLOCK. */
#define CLUSTER_MAX_ID_BLOCK 1000000
typedef void (*cluster_ids_fn)(void *ctx, long first, long count);
int cluster_new_ids(struct cluster *c, long count, long floor, cluster_ids_fn done, void *ctx);

/* Send a message to every node subscribed to channel (at most once: a
 * message sent while a link is down is lost). */
int cluster_publish(struct cluster *c, const char *channel, const void *msg, size_t len);
/* fn gets every message on channel, from now on, in the order sent, and
 * again after the link was made anew. One callback a channel. */
int cluster_subscribe(struct cluster *c, const char *channel, cluster_msg_fn fn, void *ctx);
int cluster_unsubscribe(struct cluster *c, const char *channel);

/* The directory: a field of one hash set, deleted, or all read. */
int cluster_dir_set(struct cluster *c, enum cluster_dir d, const char *key, const void *val, size_t len);
int cluster_dir_del(struct cluster *c, enum cluster_dir d, const char *key);
/* The same, only while the row is this node's ({"node":"ID"… first): a
 * row another node wrote since is kept. */
int cluster_dir_del_mine(struct cluster *c, enum cluster_dir d, const char *key);
int cluster_dir_all(struct cluster *c, enum cluster_dir d, cluster_dir_fn fn, void *ctx);

/* A script of the cluster's users (EVAL on the command link): keys and
 * args as given (each at most CLUSTER_KEY_MAX and CLUSTER_VALUE_MAX
 * bytes, at most CLUSTER_EVAL_WORDS in all). done gets the reply's
 * strings (an array's elements, integers as their digits, a nil as ""),
 * at most CLUSTER_EVAL_WORDS, each cut to CLUSTER_EVAL_WORD_MAX bytes;
 * n is -1 when no answer came (the link dropped, an error). -1 when
 * refused at once (the link down, too many or too long words). */
#define CLUSTER_EVAL_WORDS 16
#define CLUSTER_EVAL_WORD_MAX 256
typedef void (*cluster_eval_fn)(void *ctx, int n, const char *const *v);
int cluster_eval(struct cluster *c, const char *script, int nkeys, const char *const *keys, int nargs,
                 const char *const *args, cluster_eval_fn done, void *ctx);

#endif
