/* SPDX-License-Identifier: GPL-3.0-or-later */
/* server: `tapis serve`'s network side. One libwebsockets context and event
 * loop: the WebSocket protocol "tapis" (one JSON message a frame, checked by
 * net/proto, handled by net/lobby), plain HTTP for the web page (--web DIR,
 * or a small page saying how to join), its words in a language
 * (GET /words?lang=fr, made by ui/words through server_options.words) and the sound cues (/sounds/NAME.wav),
 * TLS with --cert/--key. Each
 * connection has an output queue, a size limit per message and a rate
 * limit. SIGINT and SIGTERM stop the loop; every table is saved. */
#ifndef TAPIS_SERVER_H
#define TAPIS_SERVER_H

#include <stddef.h>

#define SERVER_RATE_PER_S 20      /* messages a second a connection may send, */
#define SERVER_RATE_BURST 60      /* with bursts up to this many */
/* A client that does not read is dropped, its queue freed: when the
 * messages waiting for it would pass SERVER_QUEUE_BYTES bytes (a message
 * sent to many connections is held once, but counted in full in each
 * queue), or when nothing could be written to it for SERVER_STALL_MS
 * while messages wait. One message alone is always taken. */
#define SERVER_QUEUE_BYTES (1024 * 1024)
#define SERVER_STALL_MS 20000
#define SERVER_SNDBUF (256 * 1024) /* the kernel's send buffer of a connection */
/* In one round of the event loop, messages longer than
 * SERVER_SHORT_MESSAGE stop leaving once SERVER_ROUND_BYTES went out (the
 * rest in the next rounds): a list to a thousand people does not delay
 * the moves of a game behind it. */
#define SERVER_ROUND_BYTES (512 * 1024)
#define SERVER_SHORT_MESSAGE 2048
/* A connection's messages waiting at its writable moment leave framed one
 * after the other in one write of at most this many bytes (the rest at
 * its next moment): one system call a connection a round of the loop. */
#define SERVER_WRITE_BYTES (64 * 1024)
/* A connection that has not said a hello the lobby took within this time
 * is closed (--hello-ms in tests only); a WebSocket handshake not done in
 * that time, too. */
#define SERVER_HELLO_MS 10000
/* Connections are counted from their accept. Over --max-conns (the
 * WebSocket connections made) or --max-per-addr (every connection of an
 * address, handshakes under way too) by up to SERVER_CAP_SLACK, a
 * connection is told `busy` after its handshake and closed (so a person
 * hears why); past that, closed at the accept. Handshakes under way (and
 * plain HTTP requests) have bounds of their own, apart from those: at
 * --max-handshakes in all or --handshakes-per-prefix from one network (an
 * IPv4 /24, an IPv6 /64), a new connection makes room by dropping the
 * oldest handshake under way (of its network, or of all). */
#define SERVER_MAX_HANDSHAKES 256
#define SERVER_HANDSHAKES_PER_PREFIX 32
#define SERVER_CAP_SLACK 8
/* Descriptors kept free under the open-file limit (raised at start to its
 * hard limit) for the store, the hand histories and the log: a connection
 * that would eat into them is closed at the accept. */
#define SERVER_FD_RESERVE 64
/* New connections are told `busy` while the memory the system has left
 * for processes (MemAvailable, looked at every 100 ms) is under this:
 * refused before the memory runs out rather than killed after. */
#define SERVER_MEM_FLOOR_KB (64 * 1024LL)
#define SERVER_PORT 7410
#define SERVER_TURN_SECONDS 120   /* default of --turn-seconds */
#define SERVER_KEEP_MS (10 * 60 * 1000LL) /* a finished table stays 10 minutes */
#define SERVER_DESERTED_MS (60 * 1000LL)   /* a waiting table nobody is connected to, 1 minute */
#define SERVER_CLOSE_MINUTES 10            /* a table in play nobody is at is saved and closed then */
#define SERVER_MAX_CONNS 1000     /* connections at once, in all (--max-conns) */
#define SERVER_MAX_PER_ADDR 20    /* connections at once from one address (--max-per-addr) */

/* What the loop did, counted as it runs (the tests read them: see
 * server_options.counters). */
struct server_counters {
	long rounds;          /* rounds of the loop */
	long writes;          /* writes of queued messages to connections */
	long messages;        /* messages they carried */
	long twice;           /* writes to a connection already written to in the same round */
	long busy;            /* connections refused with `busy` (a cap, descriptors, memory) */
	long shut;            /* connections closed at their accept (past the caps' slack) */
	long dropped;         /* connections dropped as too slow to follow */
	long handshakes_dropped; /* handshakes under way dropped for newer ones (their bounds) */
	long woken;           /* wake-ups of the loop by the workers' results */
};

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
	long long hello_ms;           /* SERVER_HELLO_MS (shorter in tests) */
	long long mem_floor_kb;       /* SERVER_MEM_FLOOR_KB (tests: more than any machine has) */
	const char *meminfo;          /* the memory left, Linux's format (NULL: /proc/meminfo; tests: a missing file) */
	int tables_per_addr;          /* tables waiting or in play made from one address (0: no limit) */
	int tables_max;               /* tables waiting or in play in all (0: no limit) */
	long long deserted_ms;        /* a waiting table nobody is connected to goes after this (0: keep_ms) */
	int cheap_hash;               /* the cost of password hashing (enum auth_cost: 1 the cheapest; tests only) */
	long long seed;               /* > 0: every table's seed (tests only: whoever knows it knows every hand) */
	int quiet;                    /* no lines on standard error but errors */
	void (*think)(int hint);      /* tests: called after each bot's or hint's search, on its worker */
	struct server_counters *counters; /* tests: counted there (memory shared with the test), else inside */
	/* Cluster mode (docs/cluster.md): the Redis that the nodes share
	 * (redis://HOST:PORT), or NULL: one process alone, as before. The
	 * node's id (NULL: the host's name and the port). */
	const char *cluster;
	const char *node_id;
	/* Called once listening, with the port (useful with port 0). */
	void (*on_ready)(void *ctx, int port);
	void *ready_ctx;
};

void server_options_default(struct server_options *o);
/* Serve until SIGINT or SIGTERM. 0, or -1 with a message (could not start). */
int server_run(const struct server_options *o, char *err, size_t errlen);

#endif
