/* SPDX-License-Identifier: GPL-3.0-or-later */
/* benchfig: the figures of `tapis bench --net`: lists of latencies and
 * their median, 99th percentile and maximum; the servers of `--net
 * URL,URL,...` and what each one's clients measured; a process's CPU
 * seconds and resident memory (Linux's /proc). */
#ifndef TAPIS_BENCHFIG_H
#define TAPIS_BENCHFIG_H

#include <stddef.h>
#include <sys/types.h>

#include "net/client/bench_net.h"

/* Latencies in ms. */
struct benchfig_lat {
	double *v;
	long n;
	size_t cap;
};

/* One server of several (`--net URL,URL,...`): what its clients measured. */
struct benchfig_node {
	char url[BENCH_URL_MAX];
	char host[BENCH_URL_MAX];
	char path[BENCH_URL_MAX];
	int port, tls;
	int clients, errors;
	struct benchfig_lat lat, slat;
	long long bytes, lobby_bytes;
	int down;                       /* a link to it was refused: not asked again */
};

void benchfig_lat_add(struct benchfig_lat *l, double ms);
/* Sort; the median, 99th percentile and maximum (0 when empty). */
void benchfig_lat_figures(struct benchfig_lat *l, double *median, double *p99, double *max);
/* The servers of urls (ws:// or wss://, comma-separated, at most
 * BENCH_NET_MAX_NODES) into node[*nnodes...]; 0, or -1 with a message. */
int benchfig_parse_urls(struct benchfig_node *node, int *nnodes, const char *urls, char *err, size_t errlen);
/* What a server's clients measured, as the result says it. */
void benchfig_node_result(struct benchfig_node *nd, struct bench_net_node *rn);
/* CPU seconds the process used (user + system), -1 unknown; its resident
 * memory in kB, -1 unknown. */
double benchfig_cpu_s(pid_t pid);
long benchfig_rss_kb(pid_t pid);
/* The server's figures at the end of a run (pid: the bench's own server,
 * else 0; cpu0: its CPU seconds when play began; actions measured). */
void benchfig_server_result(struct bench_net_result *res, pid_t pid, double cpu0, long actions, int clients,
                            int tables);

#endif
