/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ws: the WebSocket server. One libwebsockets context on the event loop
 * (net/wire/evloop): the WebSocket protocol "tapis" (one JSON message a
 * frame), plain HTTP for the web page (web_dir, or a small page saying how
 * to join), its words in a language (GET /words?lang=fr, through
 * ws_options.words) and the sound cues (/sounds/NAME.wav), TLS with a
 * certificate and key. Each connection is a number, has an output queue,
 * a size limit per message and a rate limit; the caps on connections and
 * handshakes are kept here. What the messages mean is the upper side's
 * (struct ws_upper: the server's lobby): this knows nothing of games. */
#ifndef TAPIS_WS_H
#define TAPIS_WS_H

#include <signal.h>
#include <stddef.h>

#define WS_RATE_PER_S 20      /* messages a second a connection may send, */
#define WS_RATE_BURST 60      /* with bursts up to this many */
/* A client that does not read is dropped, its queue freed: when the
 * messages waiting for it would pass WS_QUEUE_BYTES bytes (a message
 * sent to many connections is held once, but counted in full in each
 * queue), or when nothing could be written to it for WS_STALL_MS
 * while messages wait. One message alone is always taken. */
#define WS_QUEUE_BYTES (1024 * 1024)
#define WS_STALL_MS 20000
#define WS_SNDBUF (256 * 1024) /* the kernel's send buffer of a connection */
/* In one round of the event loop, messages longer than
 * WS_SHORT_MESSAGE stop leaving once WS_ROUND_BYTES went out (the
 * rest in the next rounds): a list to a thousand people does not delay
 * the moves of a game behind it. */
#define WS_ROUND_BYTES (512 * 1024)
#define WS_SHORT_MESSAGE 2048
/* A connection's messages waiting at its writable moment leave framed one
 * after the other in one write of at most this many bytes (the rest at
 * its next moment): one system call a connection a round of the loop. */
#define WS_WRITE_BYTES (64 * 1024)
/* A connection that has not said a hello the upper side took within this
 * time is closed (hello_ms shorter in tests only); a WebSocket handshake
 * not done in that time, too. */
#define WS_HELLO_MS 10000
/* Connections are counted from their accept. Over max_conns (the
 * WebSocket connections made) or max_per_addr (every connection of an
 * address, handshakes under way too) by up to WS_CAP_SLACK, a
 * connection is told `busy` after its handshake and closed (so a person
 * hears why); past that, closed at the accept. Handshakes under way (and
 * plain HTTP requests) have bounds of their own, apart from those: at
 * max_handshakes in all or handshakes_per_prefix from one network (an
 * IPv4 /24, an IPv6 /64), a new connection makes room by dropping the
 * oldest handshake under way (of its network, or of all). */
#define WS_MAX_HANDSHAKES 256
#define WS_HANDSHAKES_PER_PREFIX 32
#define WS_CAP_SLACK 8
/* Descriptors kept free under the open-file limit (raised at start to its
 * hard limit) for the store, the hand histories and the log: a connection
 * that would eat into them is closed at the accept. */
#define WS_FD_RESERVE 64
/* New connections are told `busy` while the memory the system has left
 * for processes (MemAvailable, looked at every 100 ms) is under this:
 * refused before the memory runs out rather than killed after. */
#define WS_MEM_FLOOR_KB (64 * 1024LL)
#define WS_MAX_CONNS 1000     /* connections at once, in all */
#define WS_MAX_PER_ADDR 20    /* connections at once from one address */

/* What the loop did, counted as it runs (the tests read them: see
 * ws_options.counters). */
struct ws_counters {
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

struct ws_options {
	const char *host;             /* address to listen on */
	int port;                     /* 0: any free port (ws_port) */
	const char *cert, *key;       /* TLS, or NULL */
	const char *web_dir;          /* static files at / (the web page), or NULL */
	const char *sounds_dir;       /* the sound cues at /sounds/, or NULL */
	/* The web page's words in a language (GET /words?lang=), malloc'd
	 * JSON text, or NULL (then 404). */
	char *(*words)(const char *lang);
	int max_conns;                /* connections at once (0: no limit) */
	int max_per_addr;             /* connections at once from one address (0: no limit) */
	int max_handshakes;           /* handshakes under way at once, in all (0: no limit) */
	int handshakes_per_prefix;    /* handshakes under way at once from one /24 or /64 (0: no limit) */
	long long hello_ms;           /* WS_HELLO_MS (shorter in tests) */
	long long mem_floor_kb;       /* WS_MEM_FLOOR_KB (tests: more than any machine has) */
	struct ws_counters *counters; /* tests: counted there (memory shared with the test), else inside */
	int rate_per_s, rate_burst;   /* messages a second a connection may send, in bursts of (0: WS_RATE_*) */
	const char *meminfo;          /* the memory left, Linux's format (NULL: /proc/meminfo; tests: a missing file) */
	/* GET /healthz and GET /metrics (the server's net/server/health and
	 * metrics): the answer, malloc'd, with its status (200, 503) and
	 * type; NULL (or no probe): 404. Asked only for a peer on the
	 * loopback unless probe_open; never with probe_off. */
	char *(*probe)(void *ctx, const char *path, int *status, const char **type);
	void *probe_ctx;
	int probe_open, probe_off;
};

/* The tick's lateness is kept for its last WS_LAG_SAMPLES rounds. */
#define WS_LAG_SAMPLES 512
/* With nothing to look after (ws_upper.idle), the tick comes this often
 * instead of every WS_TICK_MS: an idle server sleeps. */
#define WS_TICK_MS 5
#define WS_IDLE_TICK_MS 250

/* What the loop holds now (the server's health and metrics). */
struct ws_stats {
	int conns;                /* WebSocket connections */
	int handshakes;           /* connections accepted, their handshake under way (or plain HTTP) */
	long long queued_bytes;   /* messages waiting in the output queues */
	long long queued_msgs;
	double lag_p50_ms, lag_p99_ms, lag_max_ms; /* the tick's lateness, over its last samples */
	long long tick_ms;        /* when the tick last ran */
	long rounds;              /* rounds of the loop (each a wake-up) */
	long refused_protocol;    /* WebSocket handshakes refused for want of the "tapis" subprotocol */
	int idle;                 /* the tick sleeps (WS_IDLE_TICK_MS) */
	int mem_low, mem_unknown; /* the system's memory under the floor; unreadable */
};

/* The side above: what the connections say goes there, and what it asks
 * of a connection. Each is called on the loop with ctx. */
struct ws_upper {
	void *ctx;
	/* A connection made (its handshake done, under the caps), with the
	 * language of its address (?lang=), "en" by default. */
	void (*open)(void *ctx, long id, const char *addr, const char *lang);
	/* One whole message, within the size and rate limits. */
	void (*message)(void *ctx, long id, const char *text, size_t len, long long now);
	/* The client reads nothing more (closing, or closed without a word):
	 * said once for each connection open gave. */
	void (*close)(void *ctx, long id, long long now);
	/* The connection is gone (after close). */
	void (*gone)(void *ctx, long id);
	/* 1 once its hello is taken; 1 while its hello waits for an answer
	 * (not closed for its silence meanwhile); its language. */
	int (*logged_in)(void *ctx, long id);
	int (*hello_waiting)(void *ctx, long id);
	const char *(*lang)(void *ctx, long id);
	/* The workers' results taken (the loop woken by ws_wake): how many. */
	int (*work)(void *ctx, long long now);
	/* Every few milliseconds (WS_TICK_MS). */
	void (*tick)(void *ctx, long long now);
	/* 1 when nothing needs the tick soon (no connection, no table): it
	 * comes every WS_IDLE_TICK_MS until a connection comes. NULL: never. */
	int (*idle)(void *ctx);
};

struct ws;

/* Listening: the server, or NULL with a message. */
struct ws *ws_new(const struct ws_options *o, const struct ws_upper *up, char *err, size_t errlen);
/* The port listened on; the loop (evloop's, for other clients of it:
 * net/cluster's Redis link). */
int ws_port(const struct ws *w);
void *ws_loop(const struct ws *w);
/* Serve until *stop (set from a signal handler, which calls ws_wake). */
void ws_run(struct ws *w, volatile sig_atomic_t *stop);
/* The connections closed, the context gone. */
void ws_free(struct ws *w);

/* To connection id (no longer there: dropped): text (malloc'd, taken). */
void ws_send(struct ws *w, long id, char *text);
/* The same text (malloc'd, taken) to every connection of ids: one buffer. */
void ws_send_many(struct ws *w, const long *ids, int n, char *text);
/* Closed once what waits is written (gone in two seconds anyway). */
void ws_close(struct ws *w, long id);
/* The same with a close telling the client to connect again at once. */
void ws_again(struct ws *w, long id);
/* The connection whose message the upper side is given now, or 0. */
long ws_handling(const struct ws *w);
/* Nothing written to id until as many ws_uncork as ws_cork. */
void ws_cork(struct ws *w, long id);
void ws_uncork(struct ws *w, long id);
/* The loop woken at once (from a worker, or a signal handler): the upper
 * side's work is called in this round. */
void ws_wake(struct ws *w);
/* What the loop holds now. */
void ws_stats(const struct ws *w, struct ws_stats *out);
/* The certificate and key read again from their files (the same paths):
 * connections made from now on use them. 0, or -1 with a message. */
int ws_reload_cert(struct ws *w, char *err, size_t errlen);

#endif
