/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/client/benchfig.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/xalloc.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void benchfig_lat_add(struct benchfig_lat *l, double ms)
{
	xgrowz((void **)&l->v, &l->cap, (size_t)l->n + 1, sizeof *l->v);
	l->v[l->n++] = ms;
}

void benchfig_lat_figures(struct benchfig_lat *l, double *median, double *p99, double *max)
{
	*median = *p99 = *max = 0;
	if (!l->n)
		return;
	qsort(l->v, (size_t)l->n, sizeof *l->v, cmp_double);
	*median = l->v[l->n / 2];
	long p = (long)((double)l->n * 0.99);
	*p99 = l->v[p < l->n ? p : l->n - 1];
	*max = l->v[l->n - 1];
}

int benchfig_parse_urls(struct benchfig_node *node, int *nnodes, const char *urls, char *err, size_t errlen)
{
	const char *p = urls;
	while (*p) {
		size_t n = strcspn(p, ",");
		if (*nnodes == BENCH_NET_MAX_NODES)
			return errf(err, errlen, "at most %d servers", BENCH_NET_MAX_NODES);
		if (!n || n >= BENCH_URL_MAX)
			return errf(err, errlen, "%.*s: not a ws:// or wss:// address", (int)(n < 200 ? n : 200), p);
		struct benchfig_node *nd = &node[*nnodes];
		char copy[BENCH_URL_MAX];
		memcpy(nd->url, p, n);
		nd->url[n] = '\0';
		memcpy(copy, p, n);
		copy[n] = '\0';
		const char *prot, *addr, *path;
		if (lws_parse_uri(copy, &prot, &addr, &nd->port, &path) || (strcmp(prot, "ws") && strcmp(prot, "wss")) ||
		    !addr[0])
			return errf(err, errlen, "%s: not a ws:// or wss:// address", nd->url);
		nd->tls = !strcmp(prot, "wss");
		snprintf(nd->host, sizeof nd->host, "%s", addr);
		snprintf(nd->path, sizeof nd->path, "/%s", path);
		(*nnodes)++;
		p += n;
		if (*p == ',' && !*++p)
			return errf(err, errlen, "%s: an address after the last comma", urls);
	}
	if (!*nnodes)
		return errf(err, errlen, "no server's address");
	return 0;
}

void benchfig_node_result(struct benchfig_node *nd, struct bench_net_node *rn)
{
	snprintf(rn->url, sizeof rn->url, "%s", nd->url);
	rn->clients = nd->clients;
	rn->errors = nd->errors;
	rn->actions = nd->lat.n;
	benchfig_lat_figures(&nd->lat, &rn->latency_median_ms, &rn->latency_p99_ms, &rn->latency_max_ms);
	benchfig_lat_figures(&nd->slat, &rn->state_median_ms, &rn->state_p99_ms, &rn->state_max_ms);
	rn->mb_received = (double)nd->bytes / 1e6;
	rn->lobby_kb_per_client = nd->clients ? (double)nd->lobby_bytes / 1e3 / nd->clients : 0;
}

double benchfig_cpu_s(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	unsigned long ut = 0, st = 0;
	/* After the name: the state, ten fields, then utime and stime. */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

long benchfig_rss_kb(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	long kb = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "VmRSS:", 6))
			kb = strtol(line + 6, NULL, 10);
	fclose(f);
	return kb;
}

void benchfig_server_result(struct bench_net_result *res, pid_t pid, double cpu0, long actions, int clients,
                            int tables)
{
	res->server_cpu_per_1000 = -1;
	res->server_kb_per_conn = res->server_kb_per_table = -1;
	if (pid <= 0) {
		res->server_cpu_s = -1;
		return;
	}
	res->server_rss_kb = benchfig_rss_kb(pid);
	res->server_cpu_s = benchfig_cpu_s(pid);
	if (actions > 0 && cpu0 >= 0 && res->server_cpu_s >= 0)
		res->server_cpu_per_1000 = (res->server_cpu_s - cpu0) * 1000.0 / (double)actions;
	if (res->server_conns_kb > 0 && res->server_base_kb > 0) {
		res->server_kb_per_conn = (double)(res->server_conns_kb - res->server_base_kb) / clients;
		res->server_kb_per_table = (double)(res->server_rss_kb - res->server_conns_kb) / tables;
	}
}
