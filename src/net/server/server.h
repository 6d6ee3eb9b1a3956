/* SPDX-License-Identifier: GPL-3.0-or-later */
/* server: `tapis serve` put together: the store opened, the lobby (with
 * moderation) on it, the WebSocket server (net/wire/ws) carrying its
 * messages, the guests' sessions written off the loop on PostgreSQL, and
 * in cluster mode the node joined to the others (server_options.node).
 * SIGINT and SIGTERM stop the loop; every table is saved. SIGHUP reads the
 * settings, the certificate and the bans again, every connection kept. */
#ifndef TAPIS_SERVER_H
#define TAPIS_SERVER_H

#include <stddef.h>
#include <sys/types.h>

#include "net/wire/ws.h"

#define SERVER_PORT 7410
#define SERVER_TURN_SECONDS 120   /* default of --turn-seconds */
#define SERVER_KEEP_MS (10 * 60 * 1000LL) /* a finished table stays 10 minutes */
#define SERVER_DESERTED_MS (60 * 1000LL)   /* a waiting table nobody is connected to, 1 minute */
#define SERVER_CLOSE_MINUTES 10            /* a table in play nobody is at is saved and closed then */
#define SERVER_DRAIN_POLL_MS 2000          /* the store read this often for a drain asked (tapis admin drain) */
/* A node of a cluster (docs/cluster.md) as the server sees it: made by
 * net/cluster/node (node_ops), whose floor is above the server's, so handed
 * down by whoever starts the server (main, the tests) through
 * server_options.node. */
struct lobby;
struct storew;
struct server_node;
struct server_node_io {
	void (*send)(void *ctx, long id, char *text); /* to a connection of this node (text taken) */
	void (*again)(void *ctx, long id);            /* told to connect again at once */
	void *ctx;
};
#define SERVER_NODE_ID_MAX 64     /* a node's id (CLUSTER_ID_MAX) */
#define SERVER_NODE_INFO_MAX 256  /* what it says of itself (CLUSTER_INFO_MAX) */
struct server_node_ops {
	/* 0 when url is a cluster's (redis://HOST:PORT) and id (NULL: none
	 * given) a node's, else -1 with a message. */
	int (*check)(const char *url, const char *id, char *err, size_t errlen);
	/* Joined to the cluster at url as node id saying info; NULL with a
	 * message. loop: the server's (ws_loop). */
	struct server_node *(*join)(void *loop, const char *url, const char *id, const char *info, struct lobby *l,
	                            struct server_node_io io, char *err, size_t errlen);
	/* The store's worker that reads and replays the tables taken over. */
	void (*set_worker)(struct server_node *n, struct storew *w);
	/* A connection's message: 1 when relayed to another node, 0 for the lobby. */
	int (*message)(struct server_node *n, long conn, const char *text, size_t len);
	/* To a person of another node (id >= LOBBY_RELAYED_CONN; text taken), or closed. */
	void (*send)(struct server_node *n, long id, char *text);
	void (*close)(struct server_node *n, long id);
	/* A connection of this node gone. */
	void (*closed)(struct server_node *n, long conn);
	/* Each tick: before the lobby's (the others' changes) and after (the leases). */
	void (*tick_before)(struct server_node *n, long long now);
	void (*tick_after)(struct server_node *n, long long now);
	/* Left (hand_over: the leases dropped at once). NULL: nothing. */
	void (*leave)(struct server_node *n, int hand_over);
	/* For the metrics: the nodes alive (this one too) and the tables'
	 * leases this node holds. NULL: not told. */
	void (*counts)(struct server_node *n, int *nodes, int *leases);
};

/* Who may read GET /healthz and /metrics (--metrics): the loopback
 * (the default), anyone who reaches the port, or nobody. */
enum { SERVER_METRICS_LOOPBACK, SERVER_METRICS_OPEN, SERVER_METRICS_OFF };

struct server_options {
	const char *host;             /* address to listen on (default 127.0.0.1) */
	int port;                     /* 0: any free port (see on_ready) */
	const char *db;               /* the SQLite store, or NULL with store "memory" */
	const char *store;            /* "sqlite" (default), "postgresql" (db: its URL) or "memory" */
	const char *log_dir;          /* hand histories, or NULL */
	const char *cert, *key;       /* TLS, or NULL */
	const char *web_dir;          /* static files at / (the web page), or NULL */
	const char *sounds_dir;       /* the sound cues at /sounds/, or NULL */
	/* The web page's words in a language (GET /words?lang=), malloc'd
	 * JSON text, or NULL (then 404): ui/words, given by the caller. */
	char *(*words)(const char *lang);
	long long grace_ms;           /* a dropped player's seat waits this long before a bot plays it */
	long long bot_delay_ms;       /* pause before a bot's move */
	long long keep_ms;            /* a finished table stays this long (a waiting one nobody is at at most) */
	long long turn_ms;            /* a present player's time to act, then a bot plays that move (0: none) */
	long long close_ms;           /* a table in play nobody is connected to is saved and closed after this (0: never) */
	int max_conns;                /* connections at once (0: no limit) */
	int max_per_addr;             /* connections at once from one address (0: no limit) */
	int max_handshakes;           /* handshakes under way at once, in all (0: no limit) */
	int handshakes_per_prefix;    /* handshakes under way at once from one /24 or /64 (0: no limit) */
	long long hello_ms;           /* WS_HELLO_MS (shorter in tests) */
	long long mem_floor_kb;       /* WS_MEM_FLOOR_KB (tests: more than any machine has) */
	const char *meminfo;          /* the memory left, Linux's format (NULL: /proc/meminfo; tests: a missing file) */
	int tables_per_addr;          /* tables waiting or in play made from one address (0: no limit) */
	int tables_max;               /* tables waiting or in play in all (0: no limit) */
	int tables_per_person;        /* tables waiting or in play one person made (LOBBY_TABLES_PER_PERSON) */
	int registration_closed;      /* no new accounts (--registration closed) */
	int accounts_per_hour;        /* accounts made from one address in an hour (AUTH_ACCOUNTS_PER_HOUR) */
	int rate_per_s, rate_burst;   /* messages a second a connection may send, bursts (WS_RATE_PER_S, _BURST) */
	/* The chat's flood rules (0: net/mod's MOD_FLOOD_*): lines in
	 * chat_ms, refusals in that time that mute, for minutes. */
	int chat_lines, chat_strikes, chat_mute_min;
	long long chat_ms;
	long long deserted_ms;        /* a waiting table nobody is connected to goes after this (0: keep_ms) */
	int cheap_hash;               /* the cost of password hashing (enum auth_cost: 1 the cheapest; tests only) */
	long long seed;               /* > 0: every table's seed (tests only: whoever knows it knows every hand) */
	int quiet;                    /* no lines on standard error but errors */
	int metrics;                  /* SERVER_METRICS_*: who may read /healthz and /metrics */
	void (*think)(int hint);      /* tests: called after each bot's or hint's search, on its worker */
	struct ws_counters *counters; /* tests: counted there (memory shared with the test), else inside */
	/* Cluster mode (docs/cluster.md): the Redis that the nodes share
	 * (redis://HOST:PORT), or NULL: one process alone, as before. The
	 * node's id (NULL: the host's name and the port). */
	const char *cluster;
	const char *node_id;
	const struct server_node_ops *node; /* what joins a cluster (net/cluster/node's node_ops) */
	/* SIGHUP: the settings read again into *o (a copy of these, whose
	 * numbers and registration, metrics and times are applied; the rest
	 * is read at start only). 0, or -1 with a message (nothing changes).
	 * NULL: the same settings (the certificate and the bans read again). */
	int (*reload)(void *ctx, struct server_options *o, char *err, size_t errlen);
	void *reload_ctx;
	/* Called once listening, with the port (useful with port 0). */
	void (*on_ready)(void *ctx, int port);
	void *ready_ctx;
};

void server_options_default(struct server_options *o);
/* Serve until SIGINT or SIGTERM. 0, or -1 with a message (could not start). */
int server_run(const struct server_options *o, char *err, size_t errlen);
/* A server for `tapis bench --net` without URL, in a child process: a
 * memory store, no caps, bots at once, any free port (in *port); its pid,
 * or -1 with a message. */
pid_t server_spawn(int *port, char *err, size_t errlen);

#endif
