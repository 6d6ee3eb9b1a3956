/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metrics: the server's figures for GET /metrics, in Prometheus's text
 * format (version 0.0.4): connections and handshakes, people online,
 * tables by state and game, actions (a counter, and a second over the last
 * METRICS_WINDOW_S), the loop's lag (p50, p99, max) and wake-ups, the
 * store's journal write times (a histogram) and its last read, the bytes
 * and messages queued, the process's memory, and in cluster mode the nodes
 * and the leases this one holds. Each name starts with tapis_. */
#ifndef TAPIS_METRICS_H
#define TAPIS_METRICS_H

#include "net/server/health.h"
#include "net/store/store.h"
#include "net/wire/ws.h"

struct lobby;

#define METRICS_WINDOW_S 10  /* actions a second: over this many seconds */

/* The actions counted once a second, for their rate. */
struct metrics {
	long long at_ms[METRICS_WINDOW_S + 1];
	long long actions[METRICS_WINDOW_S + 1];
	int n, pos;
	long long start_ms;
};

/* What the figures are read from. */
struct metrics_in {
	const struct lobby *lobby;
	const struct store *store;
	const struct ws_stats *ws;
	const struct health *health;
	int cluster;           /* in a cluster: then nodes and leases */
	int nodes, leases;     /* the nodes alive, the tables' leases this node holds */
	const char *meminfo;   /* the system's memory (NULL: /proc/meminfo) */
};

void metrics_init(struct metrics *m, long long now_ms);
/* Each tick: the actions so far sampled once a second. */
void metrics_tick(struct metrics *m, long long actions, long long now_ms);
/* Actions a second over the window (0 before two samples). */
double metrics_rate(const struct metrics *m, long long actions, long long now_ms);
/* The text of GET /metrics (malloc'd). */
char *metrics_text(const struct metrics *m, const struct metrics_in *in, long long now_ms);

#endif
