/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_net: `tapis bench --net [URL[,URL...]] --clients N --tables M --deals K
 * [--json]`: N bot clients connect to a server, sit at M tables (cycling
 * through the five games, each made with hands=K so that it ends) and play
 * every deal over the network as people would: a choice among the legal
 * ones at each turn. Measures the time from an action sent to the first
 * event received about it, and to the first state past it (the next
 * turn). Without URL a server is started in a child process on a free
 * loopback port (memory store), and its memory is read from /proc.
 * --think MS: each bot waits about that long before its move (from half to
 * one and a half times), as a person would (0: at once, every table always
 * busy: the worst case). Each table's game is made with hands=K, or the
 * game's own most when lower (La Bouillabaisse: 6 rounds); each client
 * keeps within the server's rate limit (WS_RATE_PER_S); a table silent
 * for 10 s is reported with its state.
 * With several URLs (servers acting as one, docs/cluster.md) the tables
 * are dealt out to them in turn, each table's clients on its server, and
 * the figures are given for each server and overall. A client whose link
 * is lost while its table plays (a server killed) makes it again to
 * another server with its name and guest token, is led back to its seat
 * (relayed to the node that took the table over) and plays on: counted
 * as a link made again, not an error; for each table, the time from its
 * first client's link lost to its first state again is the time to
 * resume. A table that never comes back is an error. */
#ifndef TAPIS_BENCH_NET_H
#define TAPIS_BENCH_NET_H

#include <stdio.h>
#include <sys/types.h>

#define BENCH_NET_MAX_NODES 16   /* servers of `--net URL,URL,...` */
#define BENCH_URL_MAX 256
#define BENCH_NET_MAX_COUNT 100000 /* the most clients, tables, deals, milliseconds a bench takes */

/* What the clients of one server measured. */
struct bench_net_node {
	char url[BENCH_URL_MAX];
	int clients, errors;
	long actions;
	double latency_median_ms, latency_p99_ms, latency_max_ms;
	double state_median_ms, state_p99_ms, state_max_ms;
	double mb_received, lobby_kb_per_client;
};

struct bench_net_result {
	int clients, tables, deals, errors;
	int think_ms;             /* a bot's pause before each move */
	double latency_median_ms, latency_p99_ms, latency_max_ms;
	/* From an action sent to the first state past it (what the next
	 * player needs to act: their turn). */
	double state_median_ms, state_p99_ms, state_max_ms;
	long actions;
	double seconds;
	long server_rss_kb;       /* -1 unknown (a server given by URL) */
	long server_base_kb;      /* before the clients came */
	double server_cpu_s;      /* -1 unknown */
	double client_cpu_s;      /* the bench's own process (every client) */
	double mb_received;       /* by every client, and of it the lobby's lists */
	double mb_lobby;
	double lobby_kb_per_client;
	long server_conns_kb;     /* once every client is connected and welcomed, -1 unknown */
	double server_kb_per_conn;   /* (conns - base) / clients, -1 unknown */
	double server_kb_per_table;  /* (end - conns) / tables, -1 unknown */
	double server_cpu_per_1000;  /* server CPU seconds for 1,000 actions played, -1 unknown */
	int idle_tables;          /* tables that said nothing for 10 s while played (reported) */
	long paced;               /* moves held back to stay within the server's rate limit */
	/* A server lost while its tables play (several URLs): its clients'
	 * links made again to another server, back at their seats. */
	long relinks;             /* links made again and welcomed (not errors) */
	int resumed_tables;       /* tables back after their clients' links were lost */
	long resumes;             /* times a table came back (a table may be lost twice) */
	double resume_median_ms, resume_max_ms; /* from a table's first lost link to its first state again */
	int lost_tables;          /* lost and never back: errors */
	long hints;               /* hints answered to the hint client (--hints) */
	long bot_moves;           /* moves played at the bots' tables (--bot-tables) */
	int nnodes;               /* the servers (one without URL) */
	struct bench_net_node node[BENCH_NET_MAX_NODES];
};

/* Starts a server of the bench's own in a child process (memory store,
 * no caps, bots at once, any free port): its pid with *port, or -1 with a
 * message. Without URL the bench needs one; the client knows nothing of
 * the server, so whoever runs the bench hands it down (main and the
 * tests: net/server's server_spawn). */
typedef pid_t (*bench_net_spawn_fn)(int *port, char *err, size_t errlen);

/* Run; 0, or -1 with a message (nothing could be measured). */
int bench_net_run(bench_net_spawn_fn spawn, const char *url, int clients, int tables, int deals, int think_ms,
                  struct bench_net_result *res, char *err, size_t errlen);

/* Load beside the measured tables (`--bot-tables`, `--hints`): what
 * must not slow the others. Each comes from a client of its own, not
 * measured, on the first server. */
#define BENCH_HINTS_MAX 18       /* within the server's rate limit (WS_RATE_PER_S) */
struct bench_net_load {
	int bot_tables;           /* tables of four bots of the strongest level at Bourré, watched by their creator */
	int hints_per_s;          /* a client at a Bourré table asking this many hints a second at its turn (it never acts) */
};
/* The same with that load beside (NULL: none); res->hints counts the
 * hints answered, res->bot_moves the bots' moves heard at their tables. */
int bench_net_run_load(bench_net_spawn_fn spawn, const char *url, int clients, int tables, int deals, int think_ms,
                       const struct bench_net_load *load, struct bench_net_result *res, char *err, size_t errlen);
#endif
