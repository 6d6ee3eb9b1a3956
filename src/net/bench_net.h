/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_net: `tapis bench --net [URL] --clients N --tables M --deals K
 * [--json]`: N bot clients connect to a server, sit at M tables (cycling
 * through the five games, each made with hands=K so that it ends) and play
 * every deal over the network as people would: a choice among the legal
 * ones at each turn. Measures the time from an action sent to the first
 * event received about it, and to the first state past it (the next
 * turn). Without URL a server is started in a child process on a free
 * loopback port (memory store), and its memory is read from /proc.
 * --think MS: each bot waits about that long before its move (from half to
 * one and a half times), as a person would (0: at once, every table always
 * busy: the worst case). */
#ifndef TAPIS_BENCH_NET_H
#define TAPIS_BENCH_NET_H

#include <stdio.h>

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
};

/* Run; 0, or -1 with a message (nothing could be measured). */
int bench_net_run(const char *url, int clients, int tables, int deals, int think_ms,
                  struct bench_net_result *res, char *err, size_t errlen);
/* `tapis bench [--json]` (the figures of app/bench, which main hands down
 * as local: they measure the speech queue, which net/ does not reach) and
 * `tapis bench --net [URL] ...`: argv[0] is "bench"; prints the figures;
 * returns the exit status. */
int bench_net_main(int argc, char **argv, FILE *out, int (*local)(int json, FILE *out));

#endif
