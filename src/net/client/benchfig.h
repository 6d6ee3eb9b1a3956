/* SPDX-License-Identifier: GPL-3.0-or-later */
/* benchfig: the figures of `tapis bench --net`: lists of latencies and
 * their median, 99th percentile and maximum; the servers of `--net
 * URL,URL,...` and what each one's clients measured; a process's CPU
 * seconds and resident memory (Linux's /proc); a run's result. */
#ifndef TAPIS_BENCHFIG_H
#define TAPIS_BENCHFIG_H

#include <stddef.h>
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
