/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/client/cmd_bench.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/opts.h"
#include "core/err.h"
#include "net/client/bench_net.h"

/* The options of `tapis bench`: the table of figures, or with --net the
 * bench of a server. */

struct bench_args {
	int json, net;
	int clients, tables, deals, think;   /* -1: not given */
	int bot_tables, hints;               /* -1: not given */
	const char *store;                   /* --store: the store's bench */
};

#define B struct bench_args
static const struct opt bench_opts[] = {
	OPT_F("json", N_("one JSON object instead of the table"), B, json),
	OPT_F("net", N_("bench a server (its own, or those at URL,URL,...) with bot clients"), B, net),
	OPT_I("clients", N_("N"), N_("with --net: clients (default 8)"), B, clients, 1, BENCH_NET_MAX_COUNT),
	OPT_I("tables", N_("N"), N_("with --net: tables (default 2)"), B, tables, 1, BENCH_NET_MAX_COUNT),
	OPT_I("deals", N_("N"), N_("with --net: deals at each table, within each game's limit (default 1)"), B, deals, 1, BENCH_NET_MAX_COUNT),
	OPT_I("think", N_("MS"), N_("with --net: the bots' thinking time"), B, think, 0, BENCH_NET_MAX_COUNT),
	OPT_I("bot-tables", N_("N"), N_("with --net: beside them, N tables of strongest bots at Bourré (not measured)"), B,
	      bot_tables, 0, 1000),
	OPT_I("hints", N_("N"), N_("with --net: beside them, a client asking N hints a second at its turn"), B, hints, 1,
	      BENCH_HINTS_MAX),
	OPT_S("store", N_("URL|FILE"), N_("time the store's common operations on a PostgreSQL URL or a SQLite file"), B,
	      store),
	OPT_END,
};
#undef B
static const struct opt_cmd bench_cmd = { "tapis bench", "tapis bench [--json] | tapis bench --net [URL[,URL...]] [OPTIONS]",
	                                  bench_opts };

int bench_main(int argc, char **argv, FILE *out, const struct bench_parts *parts)
{
	struct bench_args a = { .clients = -1, .tables = -1, .deals = -1, .think = -1, .bot_tables = -1, .hints = -1 };
	const char *url = NULL;
	int npos, rc = opt_parse(&bench_cmd, argc, argv, &a, &url, 1, &npos);
	if (rc == OPT_HELP)
		return opt_help(&bench_cmd, NULL);
	if (rc)
		return rc;
	int net_only = a.clients >= 0 || a.tables >= 0 || a.deals >= 0 || a.think >= 0 || a.bot_tables >= 0 || a.hints >= 0;
	if (!a.net && (npos || net_only))
		return opt_fail(&bench_cmd, "%s goes with --net",
		                npos ? url : "--clients, --tables, --deals, --think, --bot-tables, --hints");
	if (a.store && !a.net) {
		char e[ERR_MAX];
		if (parts->store(a.store, 2000, a.json, out, e, sizeof e) < 0) {
			fprintf(stderr, "tapis bench --store: %s\n", e);
			return 1;
		}
		return 0;
	}
	if (!a.net)
		return parts->local(a.json, out);
	int clients = a.clients < 0 ? 8 : a.clients, tables = a.tables < 0 ? 2 : a.tables;
	int deals = a.deals < 0 ? 1 : a.deals, think = a.think < 0 ? 0 : a.think, json = a.json;
	struct bench_net_result r;
	char err[ERR_MAX];
	struct bench_net_load load = { a.bot_tables < 0 ? 0 : a.bot_tables, a.hints < 0 ? 0 : a.hints };
	if (bench_net_run_load(parts->spawn, url, clients, tables, deals, think, &load, &r, err, sizeof err) < 0) {
		fprintf(stderr, "tapis bench --net: %s\n", err);
		return 1;
	}
	char cpu1000[32], perconn[32], pertable[32];
	if (r.server_cpu_per_1000 >= 0)
		snprintf(cpu1000, sizeof cpu1000, "%.3f", r.server_cpu_per_1000);
	else
		snprintf(cpu1000, sizeof cpu1000, json ? "null" : "n/a");
	if (r.server_kb_per_conn >= 0) {
		snprintf(perconn, sizeof perconn, "%.1f", r.server_kb_per_conn);
		snprintf(pertable, sizeof pertable, "%.1f", r.server_kb_per_table);
	} else {
		snprintf(perconn, sizeof perconn, json ? "null" : "n/a");
		snprintf(pertable, sizeof pertable, json ? "null" : "n/a");
	}
	if (json) {
		fprintf(out,
		        "{\"clients\": %d, \"tables\": %d, \"deals\": %d, \"errors\": %d, \"latency_median_ms\": %.3f, "
		        "\"latency_p99_ms\": %.3f, \"latency_max_ms\": %.3f, \"actions\": %ld, \"seconds\": %.2f, "
		        "\"server_rss_kb\": %ld, \"server_base_kb\": %ld, \"think_ms\": %d, \"state_median_ms\": %.3f, "
		        "\"state_p99_ms\": %.3f, \"state_max_ms\": %.3f, \"server_kb_per_conn\": %s, "
		        "\"server_kb_per_table\": %s, \"lobby_kb_per_client\": %.1f, \"server_cpu_s_per_1000_actions\": %s, "
		        "\"idle_tables\": %d, \"paced_actions\": %ld, \"relinks\": %ld, \"resumed_tables\": %d, "
		        "\"resumes\": %ld, \"resume_median_ms\": %.1f, \"resume_max_ms\": %.1f, \"lost_tables\": %d, "
		        "\"bot_tables\": %d, \"bot_moves\": %ld, \"hints_per_s\": %d, \"hints\": %ld",
		        r.clients, r.tables, r.deals, r.errors, r.latency_median_ms, r.latency_p99_ms, r.latency_max_ms,
		        r.actions, r.seconds, r.server_rss_kb, r.server_base_kb, r.think_ms, r.state_median_ms,
		        r.state_p99_ms, r.state_max_ms, perconn, pertable, r.lobby_kb_per_client, cpu1000, r.idle_tables,
		        r.paced, r.relinks, r.resumed_tables, r.resumes, r.resume_median_ms, r.resume_max_ms, r.lost_tables,
		        load.bot_tables, r.bot_moves, load.hints_per_s, r.hints);
		if (r.nnodes > 1) {
			fprintf(out, ", \"nodes\": [");
			for (int k = 0; k < r.nnodes; k++) {
				const struct bench_net_node *n = &r.node[k];
				json_t *ju = json_string(n->url); /* quoted as JSON (NULL: not UTF-8) */
				char *u = ju ? json_dumps(ju, JSON_ENCODE_ANY) : NULL;
				json_decref(ju);
				fprintf(out,
				        "%s{\"url\": %s, \"clients\": %d, \"errors\": %d, \"actions\": %ld, "
				        "\"latency_median_ms\": %.3f, \"latency_p99_ms\": %.3f, \"latency_max_ms\": %.3f, "
				        "\"state_median_ms\": %.3f, \"state_p99_ms\": %.3f, \"state_max_ms\": %.3f, "
				        "\"mb_received\": %.3f, \"lobby_kb_per_client\": %.1f}",
				        k ? ", " : "", u ? u : "null", n->clients, n->errors, n->actions, n->latency_median_ms,
				        n->latency_p99_ms, n->latency_max_ms, n->state_median_ms, n->state_p99_ms,
				        n->state_max_ms, n->mb_received, n->lobby_kb_per_client);
				free(u);
			}
			fprintf(out, "]");
		}
		fprintf(out, "}\n");
	} else {
		fprintf(out, "clients          %d\ntables           %d\ndeals played     %d\nerrors           %d\n", r.clients,
		        r.tables, r.deals, r.errors);
		fprintf(out, "actions          %ld in %.1f s (bots think %d ms; %ld held back for the rate limit)\n",
		        r.actions, r.seconds, r.think_ms, r.paced);
		fprintf(out, "idle tables      %d (silent more than 10 s while played)\n", r.idle_tables);
		fprintf(out, "action to event  median %.2f ms, p99 %.2f ms, max %.2f ms\n", r.latency_median_ms,
		        r.latency_p99_ms, r.latency_max_ms);
		fprintf(out, "action to state  median %.2f ms, p99 %.2f ms, max %.2f ms\n", r.state_median_ms,
		        r.state_p99_ms, r.state_max_ms);
		fprintf(out, "received         %.1f MB, of which the lobby's lists %.1f MB (%.1f kB a client)\n",
		        r.mb_received, r.mb_lobby, r.lobby_kb_per_client);
		if (r.server_cpu_s >= 0)
			fprintf(out, "cpu              server %.1f s, clients %.1f s\n", r.server_cpu_s, r.client_cpu_s);
		else
			fprintf(out, "cpu              server n/a, clients %.1f s\n", r.client_cpu_s);
		fprintf(out, "server cpu       %s s for 1000 actions\n", cpu1000);
		if (r.server_rss_kb >= 0)
			fprintf(out, "server memory    %ld kB (%ld kB before the clients), %.1f kB a table\n", r.server_rss_kb,
			        r.server_base_kb, (double)(r.server_rss_kb - r.server_base_kb) / r.tables);
		fprintf(out, "memory           %s kB a connection, %s kB a table\n", perconn, pertable);
		if (load.bot_tables || load.hints_per_s)
			fprintf(out, "beside           %d tables of strongest bots (%ld moves), %ld hints asked (%d a second)\n",
			        load.bot_tables, r.bot_moves, r.hints, load.hints_per_s);
		if (r.nnodes > 1)
			fprintf(out,
			        "links lost       %ld made again; %d tables resumed (%d lost), time to resume median %.0f ms, "
			        "max %.0f ms\n",
			        r.relinks, r.resumed_tables, r.lost_tables, r.resume_median_ms, r.resume_max_ms);
		for (int k = 0; r.nnodes > 1 && k < r.nnodes; k++) {
			const struct bench_net_node *n = &r.node[k];
			fprintf(out,
			        "server %-9d %s: %d clients, %d errors, %ld actions, action to event median %.2f ms, "
			        "p99 %.2f ms, max %.2f ms; to state p99 %.2f ms; received %.1f MB (lobby %.1f kB a client)\n",
			        k + 1, n->url, n->clients, n->errors, n->actions, n->latency_median_ms, n->latency_p99_ms,
			        n->latency_max_ms, n->state_p99_ms, n->mb_received, n->lobby_kb_per_client);
		}
	}
	return r.errors ? 1 : 0;
}
