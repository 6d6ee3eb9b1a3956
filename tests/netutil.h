/* SPDX-License-Identifier: GPL-3.0-or-later */
/* netutil: for the tests that drive a real server: the server in a child
 * process (a free loopback port, a temporary folder for its SQLite store
 * (or the URL of a PostgreSQL database) and hand histories), and scripted clients through net/client that log
 * in, make and join tables, and play by the first choices. */
#ifndef TAPIS_TESTS_NETUTIL_H
#define TAPIS_TESTS_NETUTIL_H

#include <jansson.h>
#include <sys/types.h>

#include "net/client/client.h"
#include "net/server/server.h"

struct srv {
	pid_t pid;
	int port;
	char dir[64];
	char db[128];
	char logs[128];
	char url[64];
	long long grace_ms;
	char cert[128], key[128];  /* TLS when set */
	long long turn_ms;         /* the turn time when set (else the default) */
	long long keep_ms;         /* how long finished tables stay, when set */
	long long deserted_ms;     /* how long a waiting table nobody is connected to stays, when set */
	long long close_ms;        /* a table in play nobody is at is saved and closed after this, when set */
	int max_conns, max_per_addr; /* the caps when set; 0: none (many clients of 127.0.0.1 at once) */
	int max_handshakes, handshakes_per_prefix; /* the handshakes' bounds when set; 0: none */
	int hash_cost;             /* enum auth_cost when set (else the cheapest) */
	long long hello_ms;        /* the time to say hello, when set */
	int hold;                  /* searches wait while a hold file is in dir (hold()) */
	struct ws_counters *counters; /* the server's counters, in memory shared with it (srv_counters()) */
	int fd_limit;              /* the server's open-file limit, soft and hard, when set */
	long long mem_floor_kb;    /* the memory the server wants left, when set */
	const char *meminfo;       /* the server's /proc/meminfo, when set */
	int no_table_cap;          /* tables per address: no limit */
	int rate_per_s, rate_burst; /* the rate limit when set */
	int registration_closed;   /* no new accounts */
	char store[16];            /* the store's backend when set ("postgresql": db is its URL) */
	char cluster[64];          /* cluster mode when set: the Redis URL (--cluster), */
	char node[32];             /* and the node's id (--node-id) */
};

struct tc {
	struct netc *c;
	char name[32];
	char lang[3];
	char token[40];
	json_t **msg;
	int n, cap, cursor;
	long table;
	int seat;
	json_t *state;     /* the last state of its table (with changes: as held) */
	int changes;       /* its hello asked for the states as changes (tc_hello_changes) */
	json_t *held;      /* then: its table's state, the changes applied */
	json_t *moments;   /* and the moments it was sent ("moment" messages), by their name */
	int acted_seq;
	int over;
	int refused;
	int gone;    /* its connection seen closed (play_until says so once) */
	unsigned pick;     /* how it chooses among the legal choices */
};

/* What a client receives: kept in its list of messages (net/client's
 * callback, for clients made by hand). */
void on_msg(void *ctx, const char *text, size_t len);
void srv_run(struct srv *s);
/* The hand history of a table's last game in the folder dir (a server's
 * --log-dir): DIR/TABLE.jsonl, or, once a game that accounts played is
 * over, its own DIR/TABLE-GAME.jsonl (the newest). */
void history_path(const char *dir, long table, char *out, size_t len);
/* The server's loop counted where the test reads it (before srv_run). */
void srv_counters(struct srv *s);
void srv_make(struct srv *s);
void srv_start(struct srv *s);
void srv_halt(struct srv *s);
void srv_stop(struct srv *s);
int srv_alive(struct srv *s);
const char *mtype(json_t *j);
void tc_send(struct tc *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
json_t *tc_wait(struct tc *t, const char *type);
/* The lobby's list as t holds it: its last snapshot ("lobby") with the
 * changes since ("lobby_delta") applied, as a client applies them (a new
 * reference; NULL before any snapshot, or when a change's number is not
 * the next: one was missed). */
json_t *tc_lobby(const struct tc *t);
void tc_connect(struct tc *t, struct srv *s);
void tc_hello(struct tc *t, struct srv *s, const char *name, const char *lang, const char *password,
                     const char *token);
void tc_login(struct tc *t, struct srv *s, const char *name, const char *lang, const char *password);
/* A guest whose hello asks for the states as changes (docs/protocol.md),
 * logged in: its state is the one it holds, changes applied. */
void tc_login_changes(struct tc *t, struct srv *s, const char *name, const char *lang);
void tc_free(struct tc *t);
long tc_create(struct tc *t, const char *game, int players, const char *seats, const char *extra);
void tc_sit(struct tc *t, long table, int seat);
void tc_play(struct tc *t);
void play_until(struct tc **all, int n, int (*stop)(struct tc **all, int n, void *ctx), void *ctx);

#endif
