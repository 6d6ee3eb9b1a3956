/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/registry.h"
#include "core/xalloc.h"
#include "net/server/host.h"
#include "net/server/lobby.h"

void metrics_init(struct metrics *m, long long now_ms)
{
	memset(m, 0, sizeof *m);
	m->start_ms = now_ms;
}

void metrics_tick(struct metrics *m, long long actions, long long now_ms)
{
	int last = (m->pos + METRICS_WINDOW_S) % (METRICS_WINDOW_S + 1);
	if (m->n && now_ms - m->at_ms[last] < 1000 && now_ms >= m->at_ms[last])
		return;
	m->at_ms[m->pos] = now_ms;
	m->actions[m->pos] = actions;
	m->pos = (m->pos + 1) % (METRICS_WINDOW_S + 1);
	if (m->n < METRICS_WINDOW_S + 1)
		m->n++;
}

double metrics_rate(const struct metrics *m, long long actions, long long now_ms)
{
	if (!m->n)
		return 0;
	/* The oldest sample kept, against now. */
	int oldest = m->n < METRICS_WINDOW_S + 1 ? 0 : m->pos;
	long long dt = now_ms - m->at_ms[oldest];
	if (dt <= 0)
		return 0;
	return (double)(actions - m->actions[oldest]) * 1000.0 / (double)dt;
}

/* The process's resident memory in bytes (its own /proc entry, which a
 * unit's ProcSubset=pid leaves), or -1. */
static long long rss_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long long size = 0, rss = -1;
	if (f && fscanf(f, "%lld %lld", &size, &rss) != 2)
		rss = -1;
	if (f)
		fclose(f);
	return rss < 0 ? -1 : rss * (long long)sysconf(_SC_PAGESIZE);
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP tapis_%s %s\n# TYPE tapis_%s %s\n", name, help, name, type);
}

static void gauge(FILE *f, const char *name, const char *help, double v)
{
	head(f, name, "gauge", help);
	fprintf(f, "tapis_%s %.17g\n", name, v);
}

static void counter(FILE *f, const char *name, const char *help, double v)
{
	head(f, name, "counter", help);
	fprintf(f, "tapis_%s %.17g\n", name, v);
}

static const char *const state_words[] = { "waiting", "playing", "over", "saved" };

char *metrics_text(const struct metrics *m, const struct metrics_in *in, long long now_ms)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	const struct lobby *l = in->lobby;
	const struct ws_stats *w = in->ws;
	const struct store *st = in->store;

	gauge(f, "up", "1 while the server runs", 1);
	gauge(f, "uptime_seconds", "seconds since the server started", (double)(now_ms - m->start_ms) / 1000.0);
	gauge(f, "connections", "WebSocket connections open", w->conns);
	gauge(f, "handshakes", "connections accepted whose handshake is under way, or plain HTTP", w->handshakes);
	int people = 0, relayed = 0;
	for (int i = 0; i < l->nusers; i++)
		if (l->users[i].conn >= 0) {
			if (l->users[i].relayed)
				relayed++;
			else
				people++;
		}
	gauge(f, "people", "people logged in on this server", people);
	gauge(f, "people_relayed", "people of other nodes at this node's tables", relayed);

	/* Tables by state and game: every game named, with 0 where none. */
	head(f, "tables", "gauge", "tables this server runs, by state and game");
	int ngames = 0;
	while (registry_games[ngames].ops)
		ngames++;
	for (int s = 0; s < 3; s++)
		for (int g = 0; g < ngames; g++) {
			int n = 0;
			for (int t = 0; t < l->ntables; t++)
				if (l->tables[t]->state == s && l->tables[t]->g == registry_games[g].ops)
					n++;
			fprintf(f, "tapis_tables{state=\"%s\",game=\"%s\"} %d\n", state_words[s],
			        registry_games[g].ops->name, n);
		}
	gauge(f, "tables_saved", "tables saved and closed, nobody at them, to be resumed", l->nsaved);
	int members = 0;
	for (int t = 0; t < l->ntables; t++)
		members += l->tables[t]->nmembers;
	gauge(f, "table_members", "players and spectators at the tables", members);

	counter(f, "actions_total", "actions kept in the journal (every move, people's and bots')",
	        (double)st->journal_writes);
	gauge(f, "actions_per_second", "actions a second over the last ten seconds",
	      metrics_rate(m, st->journal_writes, now_ms));

	head(f, "loop_lag_milliseconds", "gauge", "how late the loop's tick comes, over its last 512 ticks");
	fprintf(f, "tapis_loop_lag_milliseconds{quantile=\"0.5\"} %.3f\n", w->lag_p50_ms);
	fprintf(f, "tapis_loop_lag_milliseconds{quantile=\"0.99\"} %.3f\n", w->lag_p99_ms);
	fprintf(f, "tapis_loop_lag_milliseconds{quantile=\"1\"} %.3f\n", w->lag_max_ms);
	counter(f, "loop_wakeups_total", "rounds of the event loop (each a wake-up)", (double)w->rounds);
	gauge(f, "loop_idle", "1 while nothing needs the loop and its tick sleeps", w->idle);

	head(f, "store_journal_write_seconds", "histogram", "the time of each journal write (an action kept)");
	for (int i = 0; i < STORE_LAT_BUCKETS; i++)
		fprintf(f, "tapis_store_journal_write_seconds_bucket{le=\"%g\"} %lld\n", store_lat_ms[i] / 1000.0,
		        st->journal_le[i]);
	fprintf(f, "tapis_store_journal_write_seconds_bucket{le=\"+Inf\"} %lld\n", st->journal_writes);
	fprintf(f, "tapis_store_journal_write_seconds_sum %.6f\n", st->journal_ms / 1000.0);
	fprintf(f, "tapis_store_journal_write_seconds_count %lld\n", st->journal_writes);
	gauge(f, "store_read_seconds", "the time of the health check's last read of the store",
	      in->health->store_ms / 1000.0);
	gauge(f, "store_failing", "1 while the store refuses writes", st->failing);

	gauge(f, "queued_bytes", "bytes of messages waiting in the connections' output queues",
	      (double)w->queued_bytes);
	gauge(f, "queued_messages", "messages waiting in the connections' output queues", (double)w->queued_msgs);
	counter(f, "refused_protocol_total", "WebSocket handshakes refused for want of the subprotocol tapis",
	        (double)w->refused_protocol);

	long long rss = rss_bytes();
	if (rss >= 0)
		gauge(f, "memory_resident_bytes", "the server's resident memory", (double)rss);
	gauge(f, "memory_low", "1 while the system's memory left is under the floor (new connections refused)",
	      w->mem_low);
	gauge(f, "memory_unknown", "1 when the system's memory left cannot be read", w->mem_unknown);

	if (in->cluster) {
		gauge(f, "cluster_nodes", "the cluster's nodes alive, this one included", in->nodes);
		gauge(f, "cluster_leases", "the tables' leases this node holds", in->leases);
	}
	fclose(f);
	return text;
}
