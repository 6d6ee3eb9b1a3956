#include "app/bench_net.h"

#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/game.h"
#include "net/client.h"
#include "net/proto.h"
#include "net/server.h"

static const char *const bench_games[] = { "bouillotte", "brelan", "bourre", "brouc", "bouillabaisse" };
#define BENCH_NGAMES 5

struct bclient {
	struct netc *c;
	struct bench *b;
	int id, tindex;
	long table;
	int seat;
	int welcomed, joined, over;
	int acted_seq;         /* the seq of the state last acted on */
	double sent_at;        /* when the last action left, 0 none waiting */
	unsigned rng;
};

struct btable {
	long id;
	int first, n;          /* its clients */
	int joined, started, over;
};

struct bench {
	struct bclient *c;
	int nc;
	struct btable *t;
	int nt;
	int deals;
	int errors;
	double *lat;
	long nlat, caplat;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long long jint(json_t *o, const char *k, long long def)
{
	json_t *v = json_object_get(o, k);
	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static void send_json(struct bclient *c, json_t *o)
{
	char *s = proto_dump(o);
	if (!s || netc_send(c->c, s) < 0)
		c->b->errors++;
	free(s);
}

static unsigned next_rand(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/* A legal move, chosen among the playable cards and the other choices. */
static void act(struct bclient *c, json_t *st)
{
	json_t *hand = json_object_get(st, "hand"), *ch = json_object_get(st, "choices");
	const char *opts[64];
	char cards[GAME_MAX_HAND][16];
	int n = 0;
	for (size_t i = 0; i < json_array_size(hand) && n < GAME_MAX_HAND; i++) {
		json_t *x = json_array_get(hand, i);
		if (json_is_true(json_object_get(x, "playable"))) {
			snprintf(cards[n], sizeof cards[n], "play %s", jstr(x, "card"));
			opts[n] = cards[n];
			n++;
		}
	}
	int ncards = n;
	for (size_t i = 0; i < json_array_size(ch) && n < 64; i++) {
		const char *a = jstr(json_array_get(ch, i), "action");
		if (strncmp(a, "play ", 5) != 0)
			opts[n++] = a;
	}
	if (!n)
		return;
	/* Cards when there are some (the game goes on); else any choice. */
	int k = ncards ? (int)(next_rand(&c->rng) % (unsigned)ncards) : (int)(next_rand(&c->rng) % (unsigned)n);
	json_t *o = json_pack("{s:s, s:I, s:s}", "type", "action", "table", (json_int_t)c->table, "action", opts[k]);
	c->sent_at = now_s();
	send_json(c, o);
}

/* The first event after an action: its latency. */
static void record(struct bclient *c)
{
	struct bench *b = c->b;
	if (c->sent_at <= 0)
		return;
	if (b->nlat == b->caplat) {
		long cap = b->caplat ? b->caplat * 2 : 4096;
		double *p = realloc(b->lat, (size_t)cap * sizeof *p);
		if (p) {
			b->lat = p;
			b->caplat = cap;
		}
	}
	if (b->nlat < b->caplat)
		b->lat[b->nlat++] = (now_s() - c->sent_at) * 1000.0;
	c->sent_at = 0;
}

static void on_msg(void *ctx, const char *text, size_t len)
{
	struct bclient *c = ctx;
	struct bench *b = c->b;
	/* The lobby's list of every table is of no use to a bot, and the
	 * announcements only mark the time: neither is parsed. */
	static const char lobby[] = "{\"type\":\"lobby\"", say[] = "{\"type\":\"say\"";
	if (!strncmp(text, lobby, sizeof lobby - 1))
		return;
	if (!strncmp(text, say, sizeof say - 1)) {
		record(c);
		return;
	}
	json_t *o = json_loadb(text, len, 0, NULL);
	const char *type = jstr(o, "type");
	if (!strcmp(type, "welcome")) {
		c->welcomed = 1;
	} else if (!strcmp(type, "created")) {
		b->t[c->tindex].id = (long)jint(o, "table", 0);
	} else if (!strcmp(type, "joined")) {
		c->table = (long)jint(o, "table", 0);
		c->seat = (int)jint(o, "seat", -1);
		if (!c->joined++)
			b->t[c->tindex].joined++;
	} else if (!strcmp(type, "say")) {
		record(c);
	} else if (!strcmp(type, "state")) {
		const char *st = jstr(o, "state");
		int seq = (int)jint(o, "seq", 0);
		if (!strcmp(st, "over")) {
			if (!c->over++)
				b->t[c->tindex].over++;
		} else if (!strcmp(st, "playing") && jint(o, "to_act", -1) == c->seat && c->seat >= 0 &&
		           seq != c->acted_seq) {
			c->acted_seq = seq;
			act(c, o);
		}
	} else if (!strcmp(type, "error") || !strcmp(type, "refused")) {
		b->errors++;
		fprintf(stderr, "tapis bench --net: client %d: %s\n", c->id, text);
	}
	json_decref(o);
}

/* ---- the server in a child process ---- */

static void on_ready(void *ctx, int port)
{
	int fd = *(int *)ctx;
	if (write(fd, &port, sizeof port) != sizeof port)
		_exit(1);
	close(fd);
}

static pid_t start_server(int *port, char *err, size_t errlen)
{
	int fds[2];
	if (pipe(fds) < 0) {
		snprintf(err, errlen, "no pipe");
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "no fork");
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		struct server_options o;
		server_options_default(&o);
		o.port = 0;
		o.store = "memory";
		o.db = NULL;
		o.bot_delay_ms = 0;
		o.quiet = 1;
		o.cheap_hash = 1;
		o.on_ready = on_ready;
		o.ready_ctx = &fds[1];
		char e[256];
		alarm(3600); /* never outlive the benchmark */
		_exit(server_run(&o, e, sizeof e) == 0 ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], port, sizeof *port) != sizeof *port) {
		snprintf(err, errlen, "the server did not start");
		close(fds[0]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(fds[0]);
	return pid;
}

static long rss_kb(pid_t pid)
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Service every client once. */
static void service_all(struct bench *b)
{
	for (int i = 0; i < b->nc; i++)
		if (b->c[i].c)
			netc_service(b->c[i].c, 0);
}

/* Service until done(b) or the deadline; 0 or -1. */
static int run_until(struct bench *b, int (*done)(struct bench *), double seconds)
{
	double end = now_s() + seconds;
	while (!done(b)) {
		if (now_s() > end)
			return -1;
		service_all(b);
		struct timespec ts = { 0, 200000 };
		nanosleep(&ts, NULL);
	}
	return 0;
}

static int all_welcomed(struct bench *b)
{
	for (int i = 0; i < b->nc; i++)
		if (!b->c[i].welcomed)
			return 0;
	return 1;
}

static int all_created(struct bench *b)
{
	for (int i = 0; i < b->nt; i++)
		if (!b->t[i].id)
			return 0;
	return 1;
}

static int all_joined(struct bench *b)
{
	for (int i = 0; i < b->nt; i++)
		if (b->t[i].joined < b->t[i].n)
			return 0;
	return 1;
}

static int all_over(struct bench *b)
{
	for (int i = 0; i < b->nt; i++)
		if (b->t[i].over < b->t[i].n)
			return 0;
	return 1;
}

int bench_net_run(const char *url, int clients, int tables, int deals, struct bench_net_result *res,
                  char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	res->server_rss_kb = res->server_base_kb = -1;
	if (clients < tables || tables < 1 || deals < 1) {
		snprintf(err, errlen, "at least one table, one deal, and a client for each table");
		return -1;
	}
	char own[64];
	pid_t pid = -1;
	if (!url) {
		int port;
		if ((pid = start_server(&port, err, errlen)) < 0)
			return -1;
		snprintf(own, sizeof own, "ws://127.0.0.1:%d", port);
		url = own;
		res->server_base_kb = rss_kb(pid);
	}
	struct bench b;
	memset(&b, 0, sizeof b);
	b.c = calloc((size_t)clients, sizeof *b.c);
	b.t = calloc((size_t)tables, sizeof *b.t);
	b.nc = clients;
	b.nt = tables;
	int rc = -1;
	if (!b.c || !b.t) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	double t0 = now_s();
	for (int i = 0; i < tables; i++) {
		b.t[i].first = i * clients / tables;
		b.t[i].n = (i + 1) * clients / tables - b.t[i].first;
	}
	for (int i = 0; i < clients; i++) {
		struct bclient *c = &b.c[i];
		c->b = &b;
		c->id = i;
		c->seat = -1;
		c->acted_seq = -1;
		c->rng = 0x9e3779b9u * (unsigned)(i + 1);
		for (int t = 0; t < tables; t++)
			if (i >= b.t[t].first && i < b.t[t].first + b.t[t].n)
				c->tindex = t;
		char e[256];
		if (!(c->c = netc_open(url, on_msg, c, e, sizeof e))) {
			snprintf(err, errlen, "client %d: %s", i, e);
			goto out;
		}
		char hello[128];
		snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"version\":%d,\"name\":\"bench-%d\",\"lang\":\"%s\"}",
		         PROTO_VERSION, i, i % 2 ? "fr" : "en");
		if (netc_send(c->c, hello) < 0)
			b.errors++;
	}
	if (run_until(&b, all_welcomed, 30) < 0) {
		snprintf(err, errlen, "the clients were not all welcomed");
		goto out;
	}
	for (int t = 0; t < tables; t++) {
		const struct game_ops *g = game_find(bench_games[t % BENCH_NGAMES]);
		int n = b.t[t].n;
		if (n < g->min_players || n > g->max_players) {
			snprintf(err, errlen, "%s is for %d to %d players, not %d", g->name, g->min_players, g->max_players, n);
			goto out;
		}
		json_t *seats = json_array();
		for (int s = 0; s < n; s++)
			json_array_append_new(seats, json_string("open"));
		send_json(&b.c[b.t[t].first],
		          json_pack("{s:s, s:s, s:i, s:{s:i}, s:o}", "type", "create", "game", g->name, "players", n,
		                    "rules", "hands", deals, "seats", seats));
	}
	if (run_until(&b, all_created, 30) < 0) {
		snprintf(err, errlen, "the tables were not all made");
		goto out;
	}
	for (int t = 0; t < tables; t++)
		for (int k = 1; k < b.t[t].n; k++)
			send_json(&b.c[b.t[t].first + k], json_pack("{s:s, s:I}", "type", "sit", "table", (json_int_t)b.t[t].id));
	if (run_until(&b, all_joined, 30) < 0) {
		snprintf(err, errlen, "the players did not all sit");
		goto out;
	}
	double t1 = now_s();
	for (int t = 0; t < tables; t++)
		send_json(&b.c[b.t[t].first], json_pack("{s:s, s:I}", "type", "start", "table", (json_int_t)b.t[t].id));
	if (run_until(&b, all_over, 60.0 * deals + 120) < 0)
		b.errors++;
	for (int t = 0; t < tables; t++)
		if (b.t[t].over == b.t[t].n)
			res->deals += deals;
	if (pid > 0)
		res->server_rss_kb = rss_kb(pid);
	res->seconds = now_s() - t1;
	(void)t0;
	res->clients = clients;
	res->tables = tables;
	res->errors = b.errors;
	res->actions = b.nlat;
	if (b.nlat) {
		qsort(b.lat, (size_t)b.nlat, sizeof *b.lat, cmp_double);
		res->latency_median_ms = b.lat[b.nlat / 2];
		long p = (long)((double)b.nlat * 0.99);
		res->latency_p99_ms = b.lat[p < b.nlat ? p : b.nlat - 1];
		res->latency_max_ms = b.lat[b.nlat - 1];
	}
	rc = 0;
out:
	for (int i = 0; b.c && i < clients; i++)
		if (b.c[i].c)
			netc_close(b.c[i].c);
	free(b.c);
	free(b.t);
	free(b.lat);
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	return rc;
}

int bench_net_main(int argc, char **argv, FILE *out)
{
	const char *url = NULL;
	int clients = 8, tables = 2, deals = 1, json = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--net")) {
			if (i + 1 < argc && argv[i + 1][0] != '-')
				url = argv[++i];
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (i + 1 < argc && (!strcmp(a, "--clients") || !strcmp(a, "--tables") || !strcmp(a, "--deals"))) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 1 || v > 100000) {
				fprintf(stderr, "tapis bench: %s: '%s' is not a count\n", a, argv[i]);
				return 2;
			}
			*(a[2] == 'c' ? &clients : a[2] == 't' ? &tables : &deals) = (int)v;
		} else {
			fprintf(stderr, "Usage: tapis bench --net [URL] [--clients N] [--tables M] [--deals K] [--json]\n");
			return 2;
		}
	}
	struct bench_net_result r;
	char err[256];
	if (bench_net_run(url, clients, tables, deals, &r, err, sizeof err) < 0) {
		fprintf(stderr, "tapis bench --net: %s\n", err);
		return 1;
	}
	if (json) {
		fprintf(out,
		        "{\"clients\": %d, \"tables\": %d, \"deals\": %d, \"errors\": %d, \"latency_median_ms\": %.3f, "
		        "\"latency_p99_ms\": %.3f, \"latency_max_ms\": %.3f, \"actions\": %ld, \"seconds\": %.2f, "
		        "\"server_rss_kb\": %ld, \"server_base_kb\": %ld}\n",
		        r.clients, r.tables, r.deals, r.errors, r.latency_median_ms, r.latency_p99_ms, r.latency_max_ms,
		        r.actions, r.seconds, r.server_rss_kb, r.server_base_kb);
	} else {
		fprintf(out, "clients          %d\ntables           %d\ndeals played     %d\nerrors           %d\n", r.clients,
		        r.tables, r.deals, r.errors);
		fprintf(out, "actions          %ld in %.1f s\n", r.actions, r.seconds);
		fprintf(out, "action to event  median %.2f ms, p99 %.2f ms, max %.2f ms\n", r.latency_median_ms,
		        r.latency_p99_ms, r.latency_max_ms);
		if (r.server_rss_kb >= 0)
			fprintf(out, "server memory    %ld kB (%ld kB before the clients), %.1f kB a table\n", r.server_rss_kb,
			        r.server_base_kb, (double)(r.server_rss_kb - r.server_base_kb) / r.tables);
	}
	return r.errors ? 1 : 0;
}
