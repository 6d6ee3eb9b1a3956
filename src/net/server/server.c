/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/server.h"

#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/log.h"
#include "core/clock.h"
#include "core/err.h"
#include "core/xalloc.h"
#include "net/server/health.h"
#include "net/server/lobby.h"
#include "net/server/metrics.h"
#include "net/server/mod.h"
#include "net/server/sdnotify.h"
#include "net/store/storew.h"
#include "net/wire/work.h"
#include "net/wire/ws.h"

static volatile sig_atomic_t stop_asked, reload_asked;
static struct ws *running; /* for the signal handler's wake-up */

/* SIGINT, SIGTERM: stop; SIGHUP: read the settings again (reload). */
static void on_signal(int sig)
{
	if (sig == SIGHUP)
		reload_asked = 1;
	else
		stop_asked = 1;
	if (running)
		ws_wake(running);
}

static long long now_ms(void)
{
	return (long long)clock_ms();
}

struct server {
	const struct server_options *o;
	struct ws_options wo;
	struct ws *ws;
	struct store store;
	struct lobby lobby;
	const struct server_node_ops *nops;
	struct server_node *node; /* cluster mode: this node joined to the others; or NULL */
	/* On PostgreSQL, the store's workers, each on its own connection
	 * (net/storew): the tables taken over read and replayed; the guests'
	 * sessions written. NULL: on the loop. */
	struct storew *restorer, *sessions;
	struct sess_batch *sess_next; /* sessions to write once the batch being written is in */
	int sess_busy;           /* a batch is being written */
	struct health health;    /* GET /healthz (net/server/health) */
	struct metrics metrics;  /* GET /metrics (net/server/metrics) */
	struct sdnotify sd;      /* systemd told (net/server/sdnotify) */
	char node_id[SERVER_NODE_ID_MAX + 1]; /* cluster mode: this node's id */
	long long started_s;     /* when it started (the clock's seconds): a drain asked before is not for it */
	long long drain_ms;      /* the store last read for a drain */
	int draining;            /* tapis admin drain: the games finish, then it stops */
};

/* What the lobby sends: to a connection here, or to a person of another
 * node through the cluster (none once it is left). */
static void io_send(void *ctx, long id, char *text)
{
	struct server *s = ctx;
	if (id < LOBBY_RELAYED_CONN)
		ws_send(s->ws, id, text);
	else if (s->node)
		s->nops->send(s->node, id, text);
	else
		free(text);
}

/* One buffer for every listener here (the lobby's list, a table's entry). */
static void io_send_many(void *ctx, const long *ids, int n, char *text)
{
	struct server *s = ctx;
	int here = 0;
	for (int i = 0; i < n; i++)
		if (ids[i] >= LOBBY_RELAYED_CONN) {
			if (s->node) /* people of other nodes: to them */
				s->nops->send(s->node, ids[i], xstrdup(text));
		} else {
			here++;
		}
	if (here == n) {
		ws_send_many(s->ws, ids, n, text);
		return;
	}
	long *local = xcalloc((size_t)(here ? here : 1), sizeof *local);
	int k = 0;
	for (int i = 0; i < n; i++)
		if (ids[i] < LOBBY_RELAYED_CONN)
			local[k++] = ids[i];
	ws_send_many(s->ws, local, k, text);
	free(local);
}

static void io_close(void *ctx, long id)
{
	struct server *s = ctx;
	if (id < LOBBY_RELAYED_CONN)
		ws_close(s->ws, id);
	else if (s->node)
		s->nops->close(s->node, id);
}

static void node_again(void *ctx, long id)
{
	struct server *s = ctx;
	ws_again(s->ws, id);
}

static void node_send(void *ctx, long id, char *text)
{
	struct server *s = ctx;
	ws_send(s->ws, id, text);
}

/* On a worker: a bot's move or a hint is ready; the loop wakes at once
 * instead of at its next tick. */
static void work_ready(void *ctx)
{
	struct server *s = ctx;
	ws_wake(s->ws);
}

/* ---- a guest's session written off the loop ----
 *
 * The lobby writes a guest's session as it welcomes them (its token
 * hashed, so that they may come back with it on any node). On PostgreSQL
 * that is a commit, which the loop would wait for; the write goes to the
 * sessions' worker instead, and what the lobby says to that connection
 * meanwhile (the welcome and its token first) is held until it is done:
 * no client holds a token the store does not know. A session removed
 * goes the same way (in order with the writes), and nothing waits for it.
 * The writes that come while a batch is being written go together in the
 * next (one transaction, one commit: a burst of logins, a node's clients
 * coming back after another's loss, costs a few commits, not one each). */
#define SESS_BATCH_MAX 4096 /* writes waiting: more are made by the caller, at once */

struct sess_item {
	long conn;            /* the connection held until it is written (0: none) */
	long long expires;
	char *name;
	char *hash;           /* NULL: removed */
};

struct sess_batch {
	struct server *s;
	struct sess_item *v;
	int n, cap;
};

static void sess_run(struct store *st, void *arg)
{
	struct sess_batch *b = arg;
	struct store_session_write *w = xcalloc((size_t)b->n, sizeof *w);
	for (int i = 0; i < b->n; i++)
		w[i] = (struct store_session_write){ b->v[i].name, b->v[i].hash, b->v[i].expires };
	store_session_write_many(st, w, b->n);
	free(w);
}

/* The batch written (or, the worker gone, here): its connections
 * uncorked. */
static void sess_release(struct server *s, struct sess_batch *b)
{
	for (int i = 0; i < b->n; i++) {
		if (b->v[i].conn)
			ws_uncork(s->ws, b->v[i].conn);
		free(b->v[i].name);
		free(b->v[i].hash);
	}
	free(b->v);
	free(b);
}

static void sess_done(void *arg, int ran);

/* The writes waiting, to the worker (one batch at a time). */
static void sess_flush(struct server *s)
{
	struct sess_batch *b = s->sess_next;
	if (!b || s->sess_busy)
		return;
	s->sess_next = NULL;
	if (storew_submit(s->sessions, sess_run, sess_done, b) < 0) {
		sess_run(&s->store, b); /* cannot be: one job at most */
		sess_release(s, b);
		return;
	}
	s->sess_busy = 1;
}

static void sess_done(void *arg, int ran)
{
	struct sess_batch *b = arg;
	struct server *s = b->s;
	if (!ran) /* the worker stopped first (the server stopping): written here */
		sess_run(&s->store, b);
	sess_release(s, b);
	s->sess_busy = 0;
	if (ran)
		sess_flush(s);
}

/* The store's defer_session: 0 taken, -1 written by the caller (too many
 * waiting). */
static int defer_session(void *ctx, const char *name, const char *hash, long long expires)
{
	struct server *s = ctx;
	struct sess_batch *b = s->sess_next;
	if (!b) {
		b = s->sess_next = xcalloc(1, sizeof *b);
		b->s = s;
	}
	if (b->n >= SESS_BATCH_MAX)
		return -1;
	xgrow((void **)&b->v, &b->cap, b->n + 1, sizeof *b->v);
	struct sess_item *it = &b->v[b->n++];
	it->conn = hash ? ws_handling(s->ws) : 0;
	it->expires = expires;
	it->name = xstrdup(name);
	it->hash = hash ? xstrdup(hash) : NULL;
	if (it->conn)
		ws_cork(s->ws, it->conn);
	sess_flush(s);
	return 0;
}

/* The store's workers (cluster mode on PostgreSQL), each on a connection
 * of its own: 0, or -1 with a message. */
static int storew_start(struct server *s, char *err, size_t errlen)
{
	const struct server_options *o = s->o;
	if (!o->cluster || !o->store || strcmp(o->store, "postgresql") != 0)
		return 0;
	s->restorer = storew_new(o->store, o->db, err, errlen);
	s->sessions = s->restorer ? storew_new(o->store, o->db, err, errlen) : NULL;
	if (!s->sessions) {
		storew_free(s->restorer);
		s->restorer = NULL;
		return -1;
	}
	storew_set_notify(s->restorer, work_ready, s);
	storew_set_notify(s->sessions, work_ready, s);
	s->store.defer_session = defer_session;
	s->store.defer_ctx = s;
	s->nops->set_worker(s->node, s->restorer);
	return 0;
}

/* Every job back, the last sessions written: before the leases are
 * handed over (the next owner reads them). */
static void storew_stop(struct server *s)
{
	if (!s->restorer)
		return;
	storew_set_notify(s->restorer, NULL, NULL);
	storew_set_notify(s->sessions, NULL, NULL);
	s->store.defer_session = NULL;
	storew_free(s->restorer);
	storew_free(s->sessions);
	s->restorer = s->sessions = NULL;
	if (s->sess_next) { /* never given to the worker: written here */
		sess_run(&s->store, s->sess_next);
		sess_release(s, s->sess_next);
		s->sess_next = NULL;
	}
}

/* The store's workers' results taken on the loop; how many. */
static int storew_take(struct server *s)
{
	if (!s->restorer)
		return 0;
	return storew_collect(s->restorer) + storew_collect(s->sessions);
}

/* ---- the WebSocket server's upper side: the lobby ---- */

static void up_open(void *ctx, long id, const char *addr, const char *lang)
{
	struct server *s = ctx;
	lobby_open(&s->lobby, id, addr, lang);
}

static void up_message(void *ctx, long id, const char *text, size_t len, long long now)
{
	struct server *s = ctx;
	/* A table of another node: relayed to it. */
	if (!s->node || !s->nops->message(s->node, id, text, len))
		lobby_message(&s->lobby, id, text, len, now);
}

static void up_close(void *ctx, long id, long long now)
{
	struct server *s = ctx;
	lobby_close(&s->lobby, id, now);
}

static void up_gone(void *ctx, long id)
{
	struct server *s = ctx;
	if (s->node)
		s->nops->closed(s->node, id);
}

static int up_logged_in(void *ctx, long id)
{
	struct server *s = ctx;
	return lobby_logged_in(&s->lobby, id);
}

static int up_hello_waiting(void *ctx, long id)
{
	struct server *s = ctx;
	return lobby_hello_waiting(&s->lobby, id);
}

static const char *up_lang(void *ctx, long id)
{
	struct server *s = ctx;
	return lobby_lang(&s->lobby, id);
}

/* The workers' results applied now: a bot's move leaves in this round
 * (the tick only notices the tables it changed). */
static void reload(struct server *s);

static int up_work(void *ctx, long long now)
{
	struct server *s = ctx;
	if (reload_asked)
		reload(s);
	return lobby_work(&s->lobby, now) + storew_take(s);
}

/* How many tables are in play. */
static int playing(const struct server *s)
{
	int n = 0;
	for (int i = 0; i < s->lobby.ntables; i++)
		n += s->lobby.tables[i]->state == HOST_PLAYING;
	return n;
}

/* tapis admin drain (a flag in the store, read every SERVER_DRAIN_POLL_MS):
 * no table made or started from then on; alone, the games in play
 * finish, then the server stops (every table saved, status 0); a node of
 * a cluster stops at once, its tables handed over to the other nodes
 * (the drain of NODE, "drain:NODE"). */
static void drain_tick(struct server *s, long long now)
{
	if (!s->draining) {
		if (now - s->drain_ms < SERVER_DRAIN_POLL_MS && now >= s->drain_ms)
			return;
		s->drain_ms = now;
		char key[STORE_FLAG_MAX + 1] = "drain";
		if (s->node)
			snprintf(key, sizeof key, "drain:%s", s->node_id);
		long long at = 0;
		if (store_flag_get(&s->store, key, &at) != 1 || at < s->started_s)
			return;
		s->draining = s->lobby.draining = 1;
		sdnotify_ready(&s->sd, "draining");
		if (s->node) {
			log_at(LOGL_NOTICE, "drain: asked; this node's %d tables go to the other nodes", s->lobby.ntables);
			stop_asked = 1;
			return;
		}
		log_at(LOGL_NOTICE, "drain: asked; no new game, %d in play to finish, then the server stops", playing(s));
	}
	if (!s->node && !stop_asked && !playing(s)) {
		log_at(LOGL_NOTICE, "drain: every game finished; stopping");
		stop_asked = 1;
	}
}

static void up_tick(void *ctx, long long now)
{
	struct server *s = ctx;
	metrics_tick(&s->metrics, s->store.journal_writes, now);
	sdnotify_tick(&s->sd, now);
	drain_tick(s, now);
	if (reload_asked)
		reload(s);
	if (s->node)
		s->nops->tick_before(s->node, now);
	lobby_tick(&s->lobby, now);
	storew_take(s);
	if (s->node)
		s->nops->tick_after(s->node, now);
}

/* Nothing to look after: no connection, no table, no start waiting;
 * a node of a cluster never (its leases, the others' news). */
static int up_idle(void *ctx)
{
	struct server *s = ctx;
	return !s->node && !s->lobby.nconns && !s->lobby.ntables && !s->lobby.nstarts;
}

/* GET /healthz and /metrics (net/wire/ws asks, on the loop). */
static char *probe(void *ctx, const char *path, int *status, const char **type)
{
	struct server *s = ctx;
	struct ws_stats w;
	ws_stats(s->ws, &w);
	long long now = now_ms();
	if (!strcmp(path, "/healthz"))
		return health_text(&s->health, &s->store, &w, now, status);
	health_probe(&s->health, &s->store, now);
	struct metrics_in in = { &s->lobby, &s->store, &w, &s->health, s->node != NULL, 0, 0, s->o->meminfo };
	if (s->node && s->nops->counts)
		s->nops->counts(s->node, &in.nodes, &in.leases);
	*type = "text/plain; version=0.0.4; charset=utf-8";
	*status = 200;
	return metrics_text(&s->metrics, &in, now);
}

/* The lobby's limits from the settings: at start, and again at a reload. */
static void lobby_limits(struct lobby *l, const struct server_options *o)
{
	l->tables_per_addr = o->tables_per_addr;
	l->tables_max = o->tables_max;
	l->tables_per_person = o->tables_per_person;
	l->registration_closed = o->registration_closed;
	l->chat_lines = o->chat_lines;
	l->chat_ms = o->chat_ms;
	l->chat_strikes = o->chat_strikes;
	l->chat_mute_min = o->chat_mute_min;
	l->auth.accounts_per_hour = o->accounts_per_hour;
}

/* SIGHUP, on the loop: the settings that may change while the server
 * runs read again (o->reload: the file, then the command line over it)
 * and applied, the certificate read again, the bans read from the store
 * at the next tick; no connection is dropped. A file that no longer reads
 * changes nothing (said in the log). */
static void reload(struct server *s)
{
	reload_asked = 0;
	struct server_options n = *s->o;
	char err[ERR_MAX] = "";
	sdnotify_reloading(&s->sd);
	if (s->o->reload && s->o->reload(s->o->reload_ctx, &n, err, sizeof err) < 0) {
		log_at(LOGL_ERROR, "reload: %s; the settings stay as they were", err);
		sdnotify_ready(&s->sd, "serving; the last reload failed");
		return;
	}
	s->wo.rate_per_s = n.rate_per_s;
	s->wo.rate_burst = n.rate_burst;
	s->wo.max_conns = n.max_conns;
	s->wo.max_per_addr = n.max_per_addr;
	s->wo.max_handshakes = n.max_handshakes;
	s->wo.handshakes_per_prefix = n.handshakes_per_prefix;
	s->wo.probe_open = n.metrics == SERVER_METRICS_OPEN;
	s->wo.probe_off = n.metrics == SERVER_METRICS_OFF;
	lobby_limits(&s->lobby, &n);
	/* Every table reads these through its config: in force at once. */
	s->lobby.cfg.grace_ms = n.grace_ms;
	s->lobby.cfg.bot_delay_ms = n.bot_delay_ms;
	s->lobby.cfg.turn_ms = n.turn_ms;
	s->lobby.cfg.close_ms = n.close_ms;
	if (s->o->cert && ws_reload_cert(s->ws, err, sizeof err) < 0)
		log_at(LOGL_ERROR, "reload: %s; the certificate stays as it was", err);
	mod_reread_bans(&s->lobby);
	log_at(LOGL_NOTICE, "reload: settings read again%s%s", s->o->cert ? ", certificate too" : "", err[0] ? " (see above)" : "");
	sdnotify_ready(&s->sd, "serving");
}

/* The node's id: the one given, or the host's name and the port, in the
 * letters an id may have. */
static void node_name(const struct server_options *o, int port, char *id, size_t len)
{
	if (o->node_id) {
		snprintf(id, len, "%s", o->node_id);
		return;
	}
	char host[64] = "tapis";
	gethostname(host, sizeof host - 1);
	host[sizeof host - 1] = '\0';
	int n = snprintf(id, len, "%.40s:%d", host, port);
	for (int i = 0; i < n && (size_t)i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:", id[i]))
			id[i] = '-';
}

static int cluster_join(struct server *s, int port, char *err, size_t errlen)
{
	const struct server_options *o = s->o;
	if (!s->nops)
		return errf(err, errlen, "this program joins no cluster");
	char id[SERVER_NODE_ID_MAX + 1], info[SERVER_NODE_INFO_MAX + 1];
	node_name(o, port, id, sizeof id);
	snprintf(s->node_id, sizeof s->node_id, "%s", id);
	snprintf(info, sizeof info, "%s://%.200s:%d", o->cert ? "wss" : "ws", o->host, port);
	struct server_node_io io = { node_send, node_again, s };
	s->node = s->nops->join(ws_loop(s->ws), o->cluster, id, info, &s->lobby, io, err, errlen);
	if (!s->node)
		return -1;
	log_say("cluster: node %s, Redis at %s", id, o->cluster);
	return 0;
}

void server_options_default(struct server_options *o)
{
	memset(o, 0, sizeof *o);
	o->host = "127.0.0.1";
	o->port = SERVER_PORT;
	o->store = "sqlite";
	o->grace_ms = 30000;
	o->bot_delay_ms = 800;
	o->turn_ms = SERVER_TURN_SECONDS * 1000LL;
	o->keep_ms = SERVER_KEEP_MS;
	o->deserted_ms = SERVER_DESERTED_MS;
	o->tables_max = LOBBY_TABLES_MAX;
	o->close_ms = SERVER_CLOSE_MINUTES * 60000LL;
	o->max_conns = WS_MAX_CONNS;
	o->max_per_addr = WS_MAX_PER_ADDR;
	o->max_handshakes = WS_MAX_HANDSHAKES;
	o->handshakes_per_prefix = WS_HANDSHAKES_PER_PREFIX;
	o->hello_ms = WS_HELLO_MS;
	o->mem_floor_kb = WS_MEM_FLOOR_KB;
	o->tables_per_addr = LOBBY_TABLES_PER_ADDR;
	o->tables_per_person = LOBBY_TABLES_PER_PERSON;
	o->accounts_per_hour = AUTH_ACCOUNTS_PER_HOUR;
	o->rate_per_s = WS_RATE_PER_S;
	o->rate_burst = WS_RATE_BURST;
}

int server_run(const struct server_options *o, char *err, size_t errlen)
{
	struct server *s = xcalloc(1, sizeof *s);
	s->o = o;
	s->nops = o->node;
	/* A stop asked while starting up is heard once the loop runs. */
	stop_asked = reload_asked = 0;
	s->started_s = (long long)time(NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (store_open(&s->store, o->store ? o->store : "sqlite", o->db ? o->db : ":memory:", err, errlen) < 0)
		goto no_store;
	if (!o->quiet) {
		char shown[512];
		if (o->db && store_is_url(o->db))
			store_pg_redact(o->db, shown, sizeof shown);
		else
			snprintf(shown, sizeof shown, "%s", o->db ? o->db : "in memory");
		log_at(LOGL_NOTICE, "store: %s opened (%s, version %d)", shown, o->store ? o->store : "sqlite",
		       STORE_SCHEMA_VERSION);
	}
	struct host_config cfg = { o->grace_ms, o->bot_delay_ms, o->log_dir, o->turn_ms, o->keep_ms, o->seed,
	                           o->close_ms, NULL, NULL, o->think, o->deserted_ms };
	struct lobby_io io = { io_send, io_close, s, io_send_many };
	/* A node of a cluster restores only the tables whose lease it takes. */
	if ((o->cluster ? lobby_init_shared : lobby_init)(&s->lobby, &s->store, &cfg, io, o->cheap_hash, now_ms(), err,
	                                                 errlen) < 0)
		goto no_lobby;
	mod_attach(&s->lobby);
	lobby_limits(&s->lobby, o);
	s->wo = (struct ws_options){ o->host, o->port, o->cert, o->key, o->web_dir, o->sounds_dir, o->words,
	                             o->max_conns, o->max_per_addr, o->max_handshakes, o->handshakes_per_prefix,
	                             o->hello_ms, o->mem_floor_kb, o->counters, o->rate_per_s, o->rate_burst, o->meminfo,
	                             probe, s, o->metrics == SERVER_METRICS_OPEN, o->metrics == SERVER_METRICS_OFF };
	metrics_init(&s->metrics, now_ms());
	struct ws_upper up = { s, up_open, up_message, up_close, up_gone, up_logged_in, up_hello_waiting, up_lang,
	                       up_work, up_tick, up_idle };
	s->ws = ws_new(&s->wo, &up, err, errlen);
	if (!s->ws)
		goto no_ws;
	int port = ws_port(s->ws);
	if (o->cluster && (cluster_join(s, port, err, errlen) < 0 || storew_start(s, err, errlen) < 0)) {
		if (s->node)
			s->nops->leave(s->node, 0);
		ws_free(s->ws);
		goto no_ws;
	}
	running = s->ws;
	if (!o->quiet)
		log_at(LOGL_NOTICE, "listening on %s://%s:%d", o->cert ? "wss" : "ws", o->host, port);
	if (o->on_ready)
		o->on_ready(o->ready_ctx, port);
	sdnotify_init(&s->sd);
	sdnotify_ready(&s->sd, "serving");
	if (s->lobby.cfg.work)
		work_set_notify(s->lobby.cfg.work, work_ready, s);
	ws_run(s->ws, &stop_asked);
	running = NULL;
	sdnotify_stopping(&s->sd);
	if (s->lobby.cfg.work)
		work_set_notify(s->lobby.cfg.work, NULL, NULL); /* before the context goes */
	/* Every table saved, then handed over: its leases dropped at once
	 * (once the last writes are in), the other nodes take them without
	 * waiting for them to lapse. */
	storew_stop(s);
	lobby_save_all(&s->lobby);
	if (s->node) {
		log_say("cluster: %d tables handed over", s->lobby.ntables);
		/* Gone before the context: the connections it closes as it
		 * goes are not told to them (their callbacks look for them). */
		s->nops->leave(s->node, 1);
		s->node = NULL;
	}
	ws_free(s->ws);
	lobby_release(&s->lobby);
	store_close(&s->store);
	free(s);
	log_flush(1);
	if (!o->quiet)
		log_at(LOGL_NOTICE, "stopped, every table saved");
	return 0;
no_ws:
	lobby_release(&s->lobby);
no_lobby:
	store_close(&s->store);
no_store:
	free(s);
	return -1;
}

/* ---- a server of the bench's own, in a child process ---- */

static void spawn_ready(void *ctx, int port)
{
	int fd = *(int *)ctx;
	if (write(fd, &port, sizeof port) != sizeof port)
		_exit(1);
	close(fd);
}

pid_t server_spawn(int *port, char *err, size_t errlen)
{
	int fds[2];
	if (pipe(fds) < 0)
		return errf(err, errlen, "no pipe");
	pid_t pid = fork();
	if (pid < 0)
		return errf(err, errlen, "no fork");
	if (pid == 0) {
		close(fds[0]);
		struct server_options o;
		server_options_default(&o);
		o.port = 0;
		o.store = "memory";
		o.db = NULL;
		o.bot_delay_ms = 0;
		o.max_conns = 0;      /* every client of the bench comes from this machine */
		o.max_per_addr = 0;
		o.max_handshakes = o.handshakes_per_prefix = 0;
		o.tables_per_addr = 0;
		o.tables_max = 0;
		o.quiet = 1;
		o.cheap_hash = 1;
		o.on_ready = spawn_ready;
		o.ready_ctx = &fds[1];
		char e[256];
		alarm(3600); /* never outlive the benchmark */
		log_set(log_stderr, "tapis serve");
		_exit(server_run(&o, e, sizeof e) == 0 ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], port, sizeof *port) != sizeof *port) {
		errf(err, errlen, "the server did not start");
		close(fds[0]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(fds[0]);
	return pid;
}
