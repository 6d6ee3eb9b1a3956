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

#include "net/client/benchfig.h"

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
