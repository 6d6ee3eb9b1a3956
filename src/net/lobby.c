/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/lobby.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/err.h"
#include "core/hashmap.h"
#include "app/log.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "net/ident.h"
#include "net/netaddr.h"
#include "net/stats.h"
#include "net/work.h"

static void send_text(struct lobby *l, long conn, char *text)
{
	if (text)
		text = l->ext ? l->ext->filter(l, conn, text) : text; /* not the chat of someone they muted */
	if (text)
		l->io.send(l->io.ctx, conn, text);
}

/* text (malloc'd, taken) to n connections: one buffer for all of them. */
static void send_many(struct lobby *l, const long *conns, int n, char *text)
{
	if (!text || n <= 0 || !l->io.send_many || (l->ext && l->ext->filters(l, text))) {
		for (int i = 0; text && i < n; i++)
			send_text(l, conns[i], xstrdup(text));
		free(text);
		return;
	}
	l->io.send_many(l->io.ctx, conns, n, text);
}

static void send_error(struct lobby *l, long conn, const char *code, const char *message, int re)
{
	send_text(l, conn, proto_error(code, message, proto_type_word(re)));
}

static const char *conn_key(const void *ctx, uint32_t i, size_t *len)
{
	const struct lobby *l = ctx;
	*len = sizeof l->conns[i].id;
	return (const char *)&l->conns[i].id;
}

struct lobby_conn *lobby_conn_of(struct lobby *l, long id)
{
	long i = hashmap_find(&l->byid, (const char *)&id, sizeof id, conn_key, l);
	return i >= 0 ? &l->conns[i] : NULL;
}

/* A connection's message waiting for the worker, and those held behind it. */
static void job_clear(struct lobby_conn *c)
{
	if (c->job_msg) {
		auth_wipe(c->job_msg, sizeof *c->job_msg);
		free(c->job_msg);
	}
	c->job_msg = NULL;
	c->job = 0;
}

static void conn_clear(struct lobby_conn *c)
{
	job_clear(c);
	for (int k = 0; k < c->nheld; k++)
		free(c->held[k].text);
	free(c->held);
	c->held = NULL;
	c->nheld = c->capheld = 0;
}

static const char *user_name(const void *ctx, uint32_t i, size_t *len)
{
	const struct lobby *l = ctx;
	*len = strlen(l->users[i].name);
	return l->users[i].name;
}

static const char *user_look0(const void *ctx, uint32_t i, size_t *len)
{
	const struct lobby *l = ctx;
	*len = strlen(l->users[i].look[0]);
	return l->users[i].look[0];
}

static const char *user_look1(const void *ctx, uint32_t i, size_t *len)
{
	const struct lobby *l = ctx;
	*len = strlen(l->users[i].look[1]);
	return l->users[i].look[1];
}

static const hashmap_key look_key[2] = { user_look0, user_look1 };

struct lobby_user *lobby_user_named(struct lobby *l, const char *name)
{
	long i = hashmap_find(&l->byname, name, strlen(name), user_name, l);
	return i >= 0 ? &l->users[i] : NULL;
}

/* The tables are in the order they were made, so by id: looked up by
 * halves (every message naming a table, every tick's sweeps), then one by
 * one if a table came out of that order (restored or adopted). */
static int table_index(const struct lobby *l, long id)
{
	int lo = 0, hi = l->ntables - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		long at = l->tables[mid]->id;
		if (at == id)
			return mid;
		if (at < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	for (int i = 0; i < l->ntables; i++)
		if (l->tables[i]->id == id)
			return i;
	return -1;
}

struct host *lobby_table_of(struct lobby *l, long id)
{
	int i = table_index(l, id);
	return i < 0 ? NULL : l->tables[i];
}

/* Table h is due at at (sooner than it was, or popped). */
static void table_due(struct lobby *l, struct host *h, long long at)
{
	h->due_ms = at;
	due_push(&l->due, at, h->id);
	if (l->due.n > 2 * l->ntables + 1024) {
		/* Mostly stale entries: only the tables' own times again. */
		due_clear(&l->due);
		for (int i = 0; i < l->ntables; i++)
			due_push(&l->due, l->tables[i]->due_ms, l->tables[i]->id);
	}
}

/* A member came, left or acted, a bot's answer came back: the table is
 * looked at at the next tick. */
static void table_touched(void *ctx, struct host *h)
{
	struct lobby *l = ctx;
	if (h->due_ms > l->now_ms)
		table_due(l, h, l->now_ms);
}

static int saved_holds(const struct lobby *l, const char *name);
static void saved_add(struct lobby *l, const struct store_table *t);
static void known_guest(struct lobby *l, const char *name);
static void send_saved(struct lobby *l, long conn, const char *name, int always);
static void remove_table(struct lobby *l, int i);
static void close_table(struct lobby *l, int i, const char *reason, int forget);
static void rejoin(struct lobby *l, struct lobby_conn *c, struct lobby_user *u);
static void seat_back(struct lobby *l, struct lobby_conn *c, struct lobby_user *u, struct host *h);
static void start_now(struct lobby *l, struct host *h, long long now_ms);

/* The host's output: a member's connection number is a lobby connection. */
static void host_send(void *ctx, long conn, char *text)
{
	struct lobby *l = ctx;
	send_text(l, conn, text);
}

static uint64_t *host_changes(void *ctx, long conn)
{
	struct lobby_conn *c = lobby_conn_of(ctx, conn);
	return c && c->state_changes ? &c->moments_sent : NULL;
}

static struct net_out host_out(struct lobby *l)
{
	struct net_out o = { host_send, l, host_changes };
	return o;
}

void lobby_table_renewed(struct lobby *l, struct host *h)
{
	h->touched = table_touched;
	h->touched_ctx = l;
	table_due(l, h, l->now_ms);
}

static void add_table(struct lobby *l, struct host *h)
{
	xgrow((void **)&l->tables, &l->captables, l->ntables + 1, sizeof *l->tables);
	xgrow((void **)&l->told, &l->captold, l->ntables + 1, sizeof *l->told);
	xgrow((void **)&l->made_from, &l->capmade, l->ntables + 1, sizeof *l->made_from);
	xgrow((void **)&l->print, &l->capprint, l->ntables + 1, sizeof *l->print);
	l->told[l->ntables] = NULL;
	l->print[l->ntables] = 0;
	l->made_from[l->ntables][0] = '\0';
	l->tables[l->ntables++] = h;
	lobby_table_renewed(l, h);
	l->dir.ops->claim(&l->dir, h->id, l->dir.self);
	l->dirty = 1;
	if (l->on_running)
		l->on_running(l->running_ctx, h->id, 1);
}

/* The person of that name known to the lobby, or a new one (offline). */
static struct lobby_user *user_named_or_new(struct lobby *l, const char *name)
{
	struct lobby_user *u = lobby_user_named(l, name);
	if (u)
		return u;
	xgrow((void **)&l->users, &l->capusers, l->nusers + 1, sizeof *l->users);
	u = &l->users[l->nusers++];
	memset(u, 0, sizeof *u);
	snprintf(u->name, sizeof u->name, "%s", name);
	u->conn = -1;
	struct ident_keys k;
	ident_keys_of(u->name, &k);
	uint32_t i = (uint32_t)(l->nusers - 1);
	hashmap_add(&l->byname, i, user_name, l);
	for (int f = 0; f < 2; f++) {
		u->look[f] = xstrdup(k.k[f]);
		hashmap_add(&l->bylook[f], i, look_key[f], l);
	}
	return u;
}

/* User i forgotten: the last one takes its place (the connections are
 * the caller's). */
static void user_forget(struct lobby *l, uint32_t i)
{
	l->unlisted |= l->users[i].listed;
	hashmap_remove(&l->byname, i, user_name, l);
	for (int f = 0; f < 2; f++) {
		hashmap_remove(&l->bylook[f], i, look_key[f], l);
		free(l->users[i].look[f]);
	}
	uint32_t last = (uint32_t)--l->nusers;
	if (i == last)
		return;
	l->users[i] = l->users[last];
	hashmap_move(&l->byname, last, i, user_name, l);
	for (int f = 0; f < 2; f++)
		hashmap_move(&l->bylook[f], last, i, look_key[f], l);
}

/* Someone known here whose name looks like the one of keys k, or NULL. */
static struct lobby_user *user_alike(struct lobby *l, const struct ident_keys *k)
{
	for (int f = 0; f < 2; f++) {
		long i = hashmap_find(&l->bylook[f], k->k[f], strlen(k->k[f]), look_key[f], l);
		if (i >= 0)
			return &l->users[i];
	}
	return NULL;
}

struct lobby_user *lobby_user_alike(struct lobby *l, const char *name)
{
	struct ident_keys k;
	ident_keys_of(name, &k);
	return user_alike(l, &k);
}

int lobby_restore_table(struct lobby *l, const struct store_table *t)
{
	struct host *h = xcalloc(1, sizeof *h);
	char err[ERR_MAX];
	if (host_restore(h, t, l->store, &l->cfg, host_out(l), l->now_ms, err, sizeof err) < 0) {
		log_say("%s", err);
		host_free(h);
		free(h);
		return -1;
	}
	lobby_add_restored(l, h);
	return 0;
}

void lobby_add_restored(struct lobby *l, struct host *h)
{
	h->store = l->store;
	h->cfg = &l->cfg;
	h->out = host_out(l);
	add_table(l, h);
	/* Its players are known by name: they sit back down when they return,
	 * or now when they are here already (logged in on this server before it
	 * took the table over from another). */
	for (int i = 0; i < h->nmembers; i++) {
		struct lobby_user *here = lobby_user_named(l, h->member[i]->name);
		struct lobby_conn *c = here && here->conn >= 0 ? lobby_conn_of(l, here->conn) : NULL;
		if (c && c->user == (int)(here - l->users)) {
			seat_back(l, c, here, h);
			continue;
		}
		/* (In a cluster a spectator holds no name: one gone from its
		 * node is forgotten there, its session with it. A server alone
		 * keeps the spectator's name for their return.) */
		if (!here && (h->member[i]->seat >= 0 || !l->far)) {
			struct lobby_user *u = user_named_or_new(l, h->member[i]->name);
			snprintf(u->lang, sizeof u->lang, "en");
			u->guest = 1; /* until they log in again */
			u->gone_ms = l->now_ms;
			/* A guest comes back only with the token of their session
			 * (an account with its password). */
			long long expires = 0;
			if (store_session_get(l->store, u->name, u->token_hash, sizeof u->token_hash, &expires) != 1 ||
			    expires < (long long)time(NULL))
				u->token_hash[0] = '\0';
		}
	}
}

struct restore_ctx {
	struct lobby *l;
	int failed;
	int running;    /* the tables in play restored too (else only the saved ones listed) */
};

static void restore_one(void *ctx, const struct store_table *t)
{
	struct restore_ctx *r = ctx;
	if (t->state == HOST_SAVED) {
		saved_add(r->l, t);
		return;
	}
	if (!r->running)
		return;
	/* This process runs it from now: a store shared with other servers
	 * refuses the writes of any that ran it before (fencing). */
	if (store_table_own(r->l->store, t->id) < 0 || lobby_restore_table(r->l, t) < 0)
		r->failed++;
}

/* A table's game ended (host_config game_over; the host's out is the
 * lobby's, host_out): what it leaves to accounts (net/stats), and the
 * rematch offered in the same round as the game's last words, whatever
 * ended it (a person's move, a bot's collected from a worker). */
static int game_over(struct host *h)
{
	struct lobby *l = h->out.ctx;
	int rc = stats_game_over(h);
	if (l && l->ext && l->ext->over)
		l->ext->over(l, h);
	return rc;
}

static int init(struct lobby *l, struct store *store, const struct host_config *cfg, struct lobby_io io, int cheap,
                long long now_ms, int running, char *err, size_t errlen);

int lobby_init(struct lobby *l, struct store *store, const struct host_config *cfg, struct lobby_io io,
               int cheap, long long now_ms, char *err, size_t errlen)
{
	return init(l, store, cfg, io, cheap, now_ms, 1, err, errlen);
}

int lobby_init_shared(struct lobby *l, struct store *store, const struct host_config *cfg, struct lobby_io io,
                      int cheap, long long now_ms, char *err, size_t errlen)
{
	return init(l, store, cfg, io, cheap, now_ms, 0, err, errlen);
}

static int init(struct lobby *l, struct store *store, const struct host_config *cfg, struct lobby_io io, int cheap,
                long long now_ms, int running, char *err, size_t errlen)
{
	memset(l, 0, sizeof *l);
	l->io = io;
	l->store = store;
	l->cfg = *cfg;
	l->cfg.game_over = game_over; /* the accounts' figures, the rematch offered */
	l->now_ms = now_ms;
	l->tables_per_addr = LOBBY_TABLES_PER_ADDR;
	l->tables_max = LOBBY_TABLES_MAX;
	l->start_ms = LOBBY_START_MS;
	l->round_ms = LOBBY_ROUND_MS;
	if (auth_init(&l->auth, cheap) < 0 || dir_open_local(&l->dir, "local") < 0)
		return errf(err, errlen, "cannot start libsodium");
	struct restore_ctx r = { l, 0, running };
	if (store_table_each(store, restore_one, &r) < 0)
		return errf(err, errlen, "cannot read the tables of the store");
	/* No id given twice, removed tables' included. */
	long last = 0;
	if (store_last_id(store, &last) < 0)
		return errf(err, errlen, "cannot read the tables of the store");
	l->dir.ops->reserve(&l->dir, last);
	/* Bots and hints search on workers (none could start: on the loop). */
	l->cfg.work = work_new(0);
	return 0;
}

void lobby_release(struct lobby *l)
{
	for (int i = 0; i < l->ntables; i++) {
		host_free(l->tables[i]);
		free(l->tables[i]);
		free(l->told[i]);
	}
	work_free(l->cfg.work); /* after the tables: their jobs are dropped */
	free(l->tables);
	due_free(&l->due);
	free(l->gone);
	free(l->starts);
	for (int i = 0; i < l->nshown; i++)
		free(l->shown[i]);
	free(l->shown);
	free(l->told);
	free(l->made_from);
	free(l->print);
	for (int i = 0; i < l->nusers; i++)
		for (int f = 0; f < 2; f++)
			free(l->users[i].look[f]);
	free(l->users);
	hashmap_free(&l->byname);
	for (int f = 0; f < 2; f++)
		hashmap_free(&l->bylook[f]);
	for (int i = 0; i < l->nconns; i++)
		conn_clear(&l->conns[i]);
	free(l->conns);
	hashmap_free(&l->byid);
	auth_release(&l->auth);
	if (l->ext)
		l->ext->release(l);
	dir_close(&l->dir);
	lobbyev_release(&l->ev);
	free(l->saved);
	memset(l, 0, sizeof *l);
}

void lobby_save_all(struct lobby *l)
{
	for (int i = 0; i < l->ntables; i++)
		host_save(l->tables[i]);
}

void lobby_open(struct lobby *l, long conn, const char *addr, const char *lang)
{
	xgrow((void **)&l->conns, &l->capconns, l->nconns + 1, sizeof *l->conns);
	struct lobby_conn *c = &l->conns[l->nconns++];
	memset(c, 0, sizeof *c);
	c->id = conn;
	c->user = -1;
	hashmap_add(&l->byid, (uint32_t)(l->nconns - 1), conn_key, l);
	snprintf(c->lang, sizeof c->lang, "%s", lang && i18n_lang_known(lang) ? lang : "en");
	snprintf(c->addr, sizeof c->addr, "%s", addr ? addr : "");
}

static const char *state_word(int state)
{
	return state == HOST_WAITING ? "waiting" : state == HOST_PLAYING ? "playing" : "over";
}

static json_t *table_json(const struct host *h)
{
	json_t *rules = json_object();
	for (int i = 0; i < h->rules.n; i++) {
		char buf[32];
		json_object_set_new(rules, h->rules.defs[i].key,
		                    json_string(rules_value_str(&h->rules, i, buf, sizeof buf)));
	}
	json_t *seats = json_array();
	for (int s = 0; s < h->players; s++) {
		json_t *x = json_pack("{s:i, s:s, s:i}", "seat", s, "state", host_seat_word(h, s), "level",
		                      h->seat[s].level);
		if (h->seat[s].name[0])
			json_object_set_new(x, "name", json_string(h->seat[s].name));
		json_array_append_new(seats, x);
	}
	int watchers = 0;
	for (int i = 0; i < h->nmembers; i++)
		watchers += h->member[i]->seat < 0 && h->member[i]->conn >= 0;
	return json_pack("{s:I, s:s, s:i, s:o, s:o, s:b, s:s, s:s, s:i}", "id", (json_int_t)h->id, "game",
	                 h->g->name, "players", h->players, "rules", rules, "seats", seats, "private", h->private_,
	                 "creator", h->creator, "state", state_word(h->state), "watchers", watchers);
}

/* "joined", with the table as the lobby lists it (a player at a table in
 * play is not sent the lobby's list). */
static char *joined_msg(const struct host *h, int seat)
{
	return proto_dump(json_pack("{s:s, s:I, s:i, s:o}", "type", "joined", "table", (json_int_t)h->id, "seat",
	                            seat, "info", table_json(h)));
}

/* "joined" for the one arriving at h (a seat taken, a table watched or
 * resumed), with where they are said in their language ("Table 3,
 * Bourré, 3 players. Start when ready.": the last words for its creator
 * while it waits). */
static char *arrival_joined_msg(const struct host *h, int seat, const char *name, const char *lang)
{
	const struct i18n_lang *tr = i18n_of(lang);
	char text[256];
	snprintf(text, sizeof text, i18n_ntr(tr, "Table %1$ld, %2$s, %3$d player.", "Table %1$ld, %2$s, %3$d players.",
	                                     h->players),
	         (long)h->id, i18n_tr(tr, h->g->title), h->players);
	if (h->state == HOST_WAITING && !strcmp(h->creator, name)) {
		size_t n = strlen(text);
		snprintf(text + n, sizeof text - n, " %s", i18n_tr(tr, "Start when ready."));
	}
	json_t *o = json_pack("{s:s, s:I, s:i, s:o, s:s}", "type", "joined", "table", (json_int_t)h->id, "seat", seat,
	                      "info", table_json(h), "text", text);
	return proto_dump(o);
}

/* The people online (the first max, in the lobby's order) and how many. */
static int people_online(struct lobby *l, struct lobbylist_person *p, int max, int *n)
{
	int online = 0;
	*n = 0;
	for (int i = 0; i < l->nusers; i++)
		if (l->users[i].conn >= 0 && l->users[i].conn < LOBBY_RELAYED_CONN) {
			if (*n < max)
				p[(*n)++] = (struct lobbylist_person){ l->users[i].name, l->users[i].guest };
			online++;
		}
	const struct lobbylist_person *far = NULL;
	int nfar = l->far ? l->far->people(l->far->ctx, &far) : 0;
	for (int i = 0; i < nfar; i++)
		if (*n < max)
			p[(*n)++] = far[i];
	return online + nfar;
}

/* The people a snapshot names, and how many are online: found once for
 * all the snapshots of a round (each a walk of every person). */
struct snap_people {
	struct lobbylist_person p[LOBBYLIST_PEOPLE];
	int n, online, made;
};

/* The lobby as one arriving hears it: "Lobby: 2 tables, 3 people." */
static const char *lobby_arrival(struct lobby *l, const char *lang, char *buf, size_t len)
{
	const struct i18n_lang *tr = i18n_of(lang);
	struct lobbylist_person p[1];
	int n, people = people_online(l, p, 0, &n);
	const struct lobbylist_entry *far = NULL;
	int tables = l->ntables + (l->far ? l->far->tables(l->far->ctx, &far) : 0);
	char t[48], q[48];
	snprintf(t, sizeof t, i18n_ntr(tr, "%d table", "%d tables", tables), tables);
	snprintf(q, sizeof q, i18n_ntr(tr, "%d person", "%d people", people), people);
	snprintf(buf, len, i18n_tr(tr, "Lobby: %1$s, %2$s."), t, q);
	return buf;
}

/* A connection's snapshot of the lobby (its view's page), sent; its
 * bytes. people: kept for the next snapshot of the same moment, or NULL. */
static size_t send_snapshot(struct lobby *l, struct lobby_conn *c, struct snap_people *people)
{
	struct snap_people here = { .made = 0 };
	struct snap_people *sp = people ? people : &here;
	if (!sp->made) {
		sp->online = people_online(l, sp->p, LOBBYLIST_PEOPLE, &sp->n);
		sp->made = 1;
	}
	const struct lobbylist_entry *far = NULL;
	int nfar = l->far ? l->far->tables(l->far->ctx, &far) : 0;
	char *text = lobbylist_snapshot(&c->view, l->tables, l->ntables, table_json, far, nfar, sp->p, sp->n, sp->online);
	size_t len = text ? strlen(text) : 0;
	send_text(l, c->id, text);
	return len;
}

/* Flags by user index: 1 for a user at a table (seated or watching). One
 * pass over the tables' members, each found among the users by the
 * lobby's index of names, rather than every table searched for every user
 * (hundreds of each). */
static unsigned char *users_at_tables(struct lobby *l)
{
	unsigned char *at = xcalloc((size_t)l->nusers + 1, 1);
	for (int t = 0; t < l->ntables; t++)
		for (int m = 0; m < l->tables[t]->nmembers; m++) {
			const struct lobby_user *u = lobby_user_named(l, l->tables[t]->member[m]->name);
			if (u)
				at[u - l->users] = 1;
		}
	for (int u = 0; l->far && u < l->nusers; u++)
		if (l->users[u].conn >= 0 && l->far->away(l->far->ctx, l->users[u].conn))
			at[u] = 1;
	return at;
}

/* A table's own entry ("table"), as the lobby lists it. */
static char *table_msg(const struct host *h)
{
	return proto_dump(json_pack("{s:s, s:o}", "type", "table", "info", table_json(h)));
}

/* text to the members of h connected. */
static void send_members(struct lobby *l, const struct host *h, const char *text)
{
	long *to = xmalloc(((size_t)h->nmembers + 1) * sizeof *to);
	int n = 0;
	for (int k = 0; k < h->nmembers; k++)
		if (h->member[k]->conn >= 0)
			to[n++] = h->member[k]->conn;
	send_many(l, to, n, xstrdup(text));
	free(to);
}

/* A table's own entry to its members connected (as the lobby's updates
 * send it while the table waits). */
static void send_table(struct lobby *l, const struct host *h)
{
	char *one = table_msg(h);
	if (one)
		send_members(l, h, one);
	free(one);
}

static unsigned long long print_bytes(unsigned long long x, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x = (x ^ ((const unsigned char *)p)[i]) * 1099511628211ULL;
	return x;
}

/* A hash of what of a table its entry shows and may change (its seats,
 * their people and bots, its state, its watchers): a table whose hash is
 * the one last listed is not listed again (no entry made for it). */
static unsigned long long table_print(const struct host *h)
{
	int watchers = 0;
	for (int i = 0; i < h->nmembers; i++)
		watchers += h->member[i]->seat < 0 && h->member[i]->conn >= 0;
	int head[3] = { h->state, watchers, h->players };
	unsigned long long x = print_bytes(14695981039346656037ULL, head, sizeof head);
	for (int s = 0; s < h->players; s++) {
		const char *w = host_seat_word(h, s);
		x = print_bytes(x, w, strlen(w) + 1);
		x = print_bytes(x, h->seat[s].name, strlen(h->seat[s].name) + 1);
		x = print_bytes(x, &h->seat[s].level, sizeof h->seat[s].level);
	}
	return x;
}

static int cmp_person(const void *a, const void *b)
{
	return strcmp(((const struct lobbylist_person *)a)->name, ((const struct lobbylist_person *)b)->name);
}

static int online_here(const struct lobby_user *u)
{
	return u->conn >= 0 && u->conn < LOBBY_RELAYED_CONN;
}

/* 1 when the people online are those of the last round (none came or
 * went): a look at each one's flag rather than every name sorted. */
static int people_same(const struct lobby *l)
{
	if (l->unlisted)
		return 0;
	for (int i = 0; i < l->nusers; i++)
		if (online_here(&l->users[i]) != l->users[i].listed)
			return 0;
	return 1;
}

/* Who came and went since the last round: the names online now, sorted,
 * merged with those of the last round (kept for the next); nothing when
 * the people are the same. */
static void people_changes(struct lobby *l, struct lobbylist_person **in, int *nin, const char ***out, int *nout,
                           int *online)
{
	*nin = *nout = 0;
	*online = l->nshown;
	l->people_same = people_same(l);
	if (l->people_same) {
		*in = xcalloc(1, sizeof **in);
		*out = xcalloc(1, sizeof **out);
		return;
	}
	for (int i = 0; i < l->nusers; i++)
		l->users[i].listed = online_here(&l->users[i]);
	l->unlisted = 0;
	struct lobbylist_person *now = xcalloc((size_t)l->nusers + 1, sizeof *now);
	int n = 0;
	for (int i = 0; i < l->nusers; i++)
		if (l->users[i].listed)
			now[n++] = (struct lobbylist_person){ l->users[i].name, l->users[i].guest };
	qsort(now, (size_t)n, sizeof *now, cmp_person);
	*in = xcalloc((size_t)n + 1, sizeof **in);
	*out = xcalloc((size_t)l->nshown + 1, sizeof **out);
	/* The names kept are kept as they are (no copy made again). */
	char **next = xcalloc((size_t)n + 1, sizeof *next);
	int a = 0, b = 0;
	while (a < l->nshown || b < n) {
		int c = a >= l->nshown ? 1 : b >= n ? -1 : strcmp(l->shown[a], now[b].name);
		if (c < 0) {
			(*out)[(*nout)++] = l->shown[a++];   /* freed by the caller, after the round */
		} else if (c > 0) {
			next[b] = xstrdup(now[b].name);
			(*in)[(*nin)++] = now[b++];
		} else {
			next[b++] = l->shown[a++];
		}
	}
	free(l->shown);
	l->shown = next;
	l->capshown = n + 1;
	l->nshown = n;
	*online = n;
	free(now);
}

/* n items of a, then m of b, in one new array. */
static void *joined_arrays(const void *a, int n, const void *b, int m, size_t size)
{
	char *x = xcalloc((size_t)(n + m) + 1, size);
	if (n)
		memcpy(x, a, (size_t)n * size);
	if (m)
		memcpy(x + (size_t)n * size, b, (size_t)m * size);
	return x;
}

/* A round of the lobby's list: each table whose hash changed has its entry
 * made once and compared with the one last listed (its changes since, one
 * entry), the tables gone
 * and the people who came and went; then each connection in the lobby (at
 * no table, or following it) is sent what of it its view shows, or its
 * snapshot when it has just come back to the lobby or asked for one. The
 * members of a table still waiting to begin are told its entry ("table")
 * when it changed. The bytes sent. */
static size_t lobby_round(struct lobby *l, const unsigned char *at)
{
	struct lobbylist_entry *made = xcalloc((size_t)l->ntables + 1, sizeof *made);
	int nmade = 0;
	double t0 = clock_ms();
	for (int t = 0; t < l->ntables; t++) {
		struct host *h = l->tables[t];
		unsigned long long print = table_print(h);
		if (l->told[t] && print == l->print[t])
			continue;
		/* Entries made for LOBBY_ROUND_MS at most: the tables changed
		 * after are listed at the next round (a thousand games begun at
		 * once would hold the loop tens of milliseconds). */
		if (nmade && clock_ms() - t0 >= l->round_ms) {
			l->dirty = 1;
			break;
		}
		l->print[t] = print;
		json_t *info = table_json(h);
		char *text = json_dumps(info, JSON_COMPACT);
		if (!text || (l->told[t] && !strcmp(text, l->told[t]))) {
			json_decref(info);
			free(text);
			continue;
		}
		made[nmade++] = (struct lobbylist_entry){ h->id, h, info, !l->told[t] };
		free(l->told[t]);
		l->told[t] = text;
		if (h->state == HOST_WAITING) {
			char *one = proto_dump(json_pack("{s:s, s:O}", "type", "table", "info", info));
			if (one)
				send_members(l, h, one);
			free(one);
		}
	}
	struct lobbylist_person *in;
	const char **out;
	int nin, nout, online;
	people_changes(l, &in, &nin, &out, &nout, &online);
	struct lobbylist_round r = { made, nmade, l->gone, l->ngone, in, nin, out, nout, online, l->ntables };
	/* The other nodes' changes after this one's (told to them first). */
	struct lobbylist_entry *all_made = NULL;
	long *all_gone = NULL;
	struct lobbylist_person *all_in = NULL;
	const char **all_out = NULL;
	if (l->far) {
		struct lobbylist_round f;
		memset(&f, 0, sizeof f);
		l->far->round(l->far->ctx, &r, &f);
		all_made = joined_arrays(made, nmade, f.tables, f.ntables, sizeof *made);
		all_gone = joined_arrays(l->gone, l->ngone, f.gone, f.ngone, sizeof *l->gone);
		all_in = joined_arrays(in, nin, f.in, f.nin, sizeof *in);
		all_out = joined_arrays(out, nout, f.out, f.nout, sizeof *out);
		r = (struct lobbylist_round){ all_made, nmade + f.ntables, all_gone, l->ngone + f.ngone, all_in,
			                      nin + f.nin, all_out, nout + f.nout, online + f.online,
			                      l->ntables + f.count };
	}
	size_t cost = 0;
	struct snap_people snap = { .made = 0 };
	struct lobbylist_memo memo = { NULL, 0 };
	for (int i = 0; i < l->nconns; i++) {
		struct lobby_conn *c = &l->conns[i];
		if (c->user < 0 || c->id >= LOBBY_RELAYED_CONN)
			continue;
		int listener = !at[c->user] || c->view.follow;
		char *text = NULL;
		if (c->view.want || (listener && !c->view.listening)) {
			cost += send_snapshot(l, c, &snap);
		} else if (listener && (text = lobbylist_delta_memo(&memo, &c->view, &r))) {
			cost += strlen(text);
			send_text(l, c->id, text);
		}
		c->view.listening = listener;
	}
	lobbylist_memo_free(&memo);
	for (int k = 0; k < nmade; k++)
		json_decref(made[k].info);
	free(made);
	free(all_made);
	free(all_gone);
	free(all_in);
	free(all_out);
	for (int k = 0; k < nout; k++)
		free((char *)out[k]);
	free(out);
	free(in);
	l->ngone = 0;
	return cost;
}

static void broadcast(struct lobby *l, const char *text)
{
	long *to = xmalloc(((size_t)l->nconns + 1) * sizeof *to);
	int n = 0;
	for (int i = 0; i < l->nconns; i++)
		if (l->conns[i].user >= 0 && l->conns[i].id < LOBBY_RELAYED_CONN)
			to[n++] = l->conns[i].id;
	send_many(l, to, n, xstrdup(text));
	free(to);
}

static void logout(struct lobby *l, struct lobby_conn *c, long long now_ms)
{
	if (c->user < 0)
		return;
	struct lobby_user *u = &l->users[c->user];
	if (u->conn == c->id) {
		u->conn = -1;
		u->gone_ms = now_ms;
		for (int i = 0; i < l->ntables; i++)
			if (host_member(l->tables[i], u->name))
				host_disconnect(l->tables[i], u->name, now_ms);
	}
	c->user = -1;
	l->dirty = 1;
}

/* 1 when name is at a table: holding a seat, or watching (a spectator
 * who dropped is kept for a while, as a seat is). */
static int at_a_table(struct lobby *l, const char *name)
{
	for (int i = 0; i < l->ntables; i++)
		if (host_member(l->tables[i], name))
			return 1;
	return saved_holds(l, name);
}

/* A hello with a password waits for the worker meanwhile (or a name whose
 * account is being made): 1 when a connection's hello for name does. */
static int name_pending(struct lobby *l, const char *name)
{
	for (int i = 0; i < l->nconns; i++)
		if (l->conns[i].job && l->conns[i].job_msg->type == PM_HELLO && !strcmp(l->conns[i].job_msg->name, name))
			return 1;
	return 0;
}

/* The name is granted to the connection: as a guest (token: the one it
 * came back with, or NULL for a new one) or an account. The user found or
 * made, the welcome, the lobby, and the tables where they were. */
/* ---- accounts that remember (docs/protocol.md) ---- */

static json_t *settings_json(const struct store_settings *x)
{
	json_t *o = json_pack("{s:s}", "type", "settings");
	if (x->lang[0])
		json_object_set_new(o, "lang", json_string(x->lang));
	if (x->verbosity >= 0)
		json_object_set_new(o, "level", json_string(x->verbosity == TALK_SHORT ? "short" : "full"));
	json_t *extra = json_loads(x->extra[0] ? x->extra : "{}", 0, NULL);
	json_object_set_new(o, "settings", extra && json_is_object(extra) ? extra : json_object());
	if (extra && !json_is_object(extra))
		json_decref(extra);
	return o;
}

/* A registered player logging in: the settings their account keeps apply
 * (its language unless the hello named one, its verbosity at every table);
 * they are told them in a "settings" message after the welcome (sent: 1). */
static void account_settings_load(struct lobby *l, struct lobby_conn *c, struct lobby_user *u, int send)
{
	struct store_settings x;
	if (u->guest || store_settings_get(l->store, u->name, &x) != 1)
		return;
	if (!send) {
		if (x.lang[0] && !c->lang_given && i18n_lang_known(x.lang)) {
			snprintf(u->lang, sizeof u->lang, "%s", x.lang);
			snprintf(c->lang, sizeof c->lang, "%s", x.lang);
		}
		if (x.verbosity >= 0)
			u->verbosity = x.verbosity;
		return;
	}
	send_text(l, c->id, proto_dump(settings_json(&x)));
}

static int registered_only(struct lobby *l, struct lobby_conn *c, int type)
{
	if (!l->users[c->user].guest)
		return 1;
	send_error(l, c->id, "guest",
	           i18n_tr(i18n_of(c->lang), "only a player with a password has that: log in with one"), type);
	return 0;
}

static void on_settings(struct lobby *l, struct lobby_conn *c, struct proto_msg *m)
{
	if (!registered_only(l, c, m->type))
		return;
	struct lobby_user *u = &l->users[c->user];
	struct store_settings x;
	if (store_settings_get(l->store, u->name, &x) != 1) {
		send_error(l, c->id, "store",
		           i18n_tr(i18n_of(c->lang), "the server cannot read its accounts now"), m->type);
		return;
	}
	if (m->has_lang)
		snprintf(x.lang, sizeof x.lang, "%s", m->lang);
	if (m->has_verbosity)
		x.verbosity = m->verbosity;
	if (m->settings[0])
		snprintf(x.extra, sizeof x.extra, "%s", m->settings);
	if (store_settings_put(l->store, u->name, &x) < 0) {
		send_error(l, c->id, "store", i18n_tr(i18n_of(c->lang), "your settings could not be kept"), m->type);
		return;
	}
	if (m->has_lang) {
		snprintf(u->lang, sizeof u->lang, "%s", m->lang);
		snprintf(c->lang, sizeof c->lang, "%s", m->lang);
	}
	if (m->has_verbosity) {
		u->verbosity = m->verbosity;
		for (int i = 0; i < l->ntables; i++)
			host_verbosity(l->tables[i], u->name, m->verbosity, 0);
	}
	/* Told in the language now kept. */
	json_t *o = settings_json(&x);
	json_object_set_new(o, "text", json_string(i18n_tr(i18n_of(c->lang), "Your settings are kept.")));
	send_text(l, c->id, proto_dump(o));
}

struct stats_gather {
	json_t *arr;
	char text[2048];
	const struct game_ops *only;  /* NULL: every game */
	int n;
	const struct i18n_lang *lang; /* of the one asking */
};

static json_t *stat_json(const struct store_stat *x)
{
	json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:i, s:I}", "name", x->name, "game", x->game, "games", x->games,
	                      "deals", x->deals, "won", x->won, "net", (json_int_t)x->net);
	if (x->has_rating) {
		json_object_set_new(o, "rating", json_integer(lround(x->rating.r)));
		json_object_set_new(o, "rd", json_integer(lround(x->rating.rd)));
		json_object_set_new(o, "rated_games", json_integer(x->rated_games));
	}
	return o;
}

static void gather_stat(void *ctx, const struct store_stat *x)
{
	struct stats_gather *g = ctx;
	if (g->only && strcmp(g->only->name, x->game) != 0)
		return;
	json_array_append_new(g->arr, stat_json(x));
	char one[400];
	stats_sentence(g->lang, x, one, sizeof one);
	size_t k = strlen(g->text);
	snprintf(g->text + k, sizeof g->text - k, "%s%s", k ? " " : "", one);
	g->n++;
}

static void on_stats(struct lobby *l, struct lobby_conn *c, struct proto_msg *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	if (!registered_only(l, c, m->type))
		return;
	const char *me = l->users[c->user].name;
	struct stats_gather g = { json_array(), "", m->game, 0, L };
	if (store_stat_each(l->store, me, gather_stat, &g) < 0) {
		json_decref(g.arr);
		send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its figures now"), m->type);
		return;
	}
	if (!g.n && m->game)
		snprintf(g.text, sizeof g.text, i18n_tr(L, "You have finished no game of %s here yet."),
		         i18n_tr(L, m->game->title));
	else if (!g.n)
		snprintf(g.text, sizeof g.text, "%s", i18n_tr(L, "You have finished no game here yet."));
	send_text(l, c->id, proto_dump(json_pack("{s:s, s:s, s:o, s:s}", "type", "stats", "name", me, "games", g.arr,
	                                         "text", g.text)));
}

static void gather_leader(void *ctx, const struct store_stat *x)
{
	struct stats_gather *g = ctx;
	json_array_append_new(g->arr, stat_json(x));
	char one[200];
	stats_leader_sentence(g->lang, ++g->n, x, one, sizeof one);
	size_t k = strlen(g->text);
	snprintf(g->text + k, sizeof g->text - k, "%s%s", k ? "; " : "", one);
}

static void on_leaders(struct lobby *l, struct lobby_conn *c, struct proto_msg *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	struct stats_gather g = { json_array(), "", m->game, 0, L };
	if (store_leaders(l->store, m->game->name, STATS_LEADERS, gather_leader, &g) < 0) {
		json_decref(g.arr);
		send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its figures now"), m->type);
		return;
	}
	char text[sizeof g.text + 200];
	if (g.n)
		snprintf(text, sizeof text, i18n_tr(L, "Best rated at %s: %s."), i18n_tr(L, m->game->title), g.text);
	else
		snprintf(text, sizeof text, i18n_tr(L, "Nobody is rated at %s yet."), i18n_tr(L, m->game->title));
	send_text(l, c->id, proto_dump(json_pack("{s:s, s:s, s:o, s:s}", "type", "leaders", "game", m->game->name,
	                                         "leaders", g.arr, "text", text)));
}

struct recent_gather {
	json_t *arr;
	long want;                  /* the table asked for (0: the latest) */
	struct store_played found;
	int has;
};

static void gather_recent(void *ctx, const struct store_played *p)
{
	struct recent_gather *g = ctx;
	json_array_append_new(g->arr, json_pack("{s:I, s:s, s:I, s:i, s:i, s:b, s:b, s:I}", "table",
	                                        (json_int_t)p->table, "game", p->game, "ended", (json_int_t)p->ended,
	                                        "seat", p->seat, "place", p->place, "won", p->won, "rated", p->rated,
	                                        "net", (json_int_t)p->net));
	if (!g->has && (!g->want || g->want == p->table)) {
		g->found = *p;
		g->has = 1;
	}
}

/* The whole hand history of a finished game from --log-dir (NULL: none,
 * or too long: *too_long set). Only a finished game's own file is read,
 * never the table's game in play (host_history_path). */
static char *read_history(const char *dir, const struct store_played *p, int *too_long)
{
	char path[4200];
	if (p->id <= 0)
		return NULL;
	host_history_path(dir, p->table, p->id, path, sizeof path);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	/* One byte more than the most sent tells a longer file. */
	char *buf = xmalloc(LOBBY_HISTORY_MAX + 2);
	size_t n = fread(buf, 1, LOBBY_HISTORY_MAX + 1, f);
	int bad = ferror(f);
	fclose(f);
	*too_long = !bad && n > LOBBY_HISTORY_MAX;
	if (bad || *too_long) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* history: the registered player's last games, and the hand history of
 * one of them (the table asked for, or the latest) as its JSONL text. */
static void on_history(struct lobby *l, struct lobby_conn *c, struct proto_msg *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	if (!registered_only(l, c, m->type))
		return;
	struct recent_gather g = { json_array(), m->table, { 0 }, 0 };
	if (store_recent(l->store, l->users[c->user].name, gather_recent, &g) < 0) {
		json_decref(g.arr);
		send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its figures now"), m->type);
		return;
	}
	if (!g.has) {
		json_decref(g.arr);
		send_error(l, c->id, "no_game",
		           m->table ? i18n_tr(L, "that table is not among your last games")
		                    : i18n_tr(L, "you have finished no game here yet"),
		           m->type);
		return;
	}
	int too_long = 0;
	char *text = l->cfg.log_dir ? read_history(l->cfg.log_dir, &g.found, &too_long) : NULL;
	if (!text) {
		json_decref(g.arr);
		if (too_long)
			send_error(l, c->id, "history_too_long",
			           i18n_tr(L, "that hand history is too long to be sent"), m->type);
		else
			send_error(l, c->id, "no_history",
			           i18n_tr(L, "the server keeps no hand history of that table"), m->type);
		return;
	}
	/* Its lines, each a JSON text without its newline. */
	json_t *lines = json_array();
	for (char *p = text, *nl; *p; p = nl + 1) {
		if (!(nl = strchr(p, '\n')))
			nl = p + strlen(p) - 1;
		else
			*nl = '\0';
		if (*p)
			json_array_append_new(lines, json_string(p));
		if (!nl[1])
			break;
	}
	free(text);
	json_t *o = json_pack("{s:s, s:I, s:s, s:o, s:o}", "type", "history", "table", (json_int_t)g.found.table,
	                      "game", g.found.game, "games", g.arr, "lines", lines);
	if (!o) {
		send_error(l, c->id, "no_history",
		           i18n_tr(L, "the server keeps no hand history of that table"), m->type);
		return;
	}
	send_text(l, c->id, proto_dump(o));
}

static void welcome(struct lobby *l, struct lobby_conn *c, const char *name, const char *lang, int guest,
                    const char *resume_token)
{
	struct lobby_user *u = user_named_or_new(l, name);
	if (c->aside) {
		/* Beside the session: it replaces nothing, is in no lobby and at
		 * no table, and asks only for histories and figures. */
		c->user = (int)(u - l->users);
		if (u->conn < 0) {
			snprintf(u->lang, sizeof u->lang, "%s", lang);
			u->guest = guest;
		}
		send_text(l, c->id, proto_dump(json_pack("{s:s, s:i, s:s, s:b, s:s, s:s, s:b}", "type", "welcome", "version",
		                                         PROTO_VERSION, "name", u->name, "guest", guest, "token", "",
		                                         "lang", lang, "aside", 1)));
		return;
	}
	if (u->conn >= 0 && u->conn != c->id) {
		/* The same person again, on a new connection: the old one is left. */
		struct lobby_conn *old = lobby_conn_of(l, u->conn);
		if (old) {
			send_error(l, old->id, "replaced", i18n_tr(i18n_of(old->lang), "logged in from elsewhere"), PM_NONE);
			old->user = -1;
			l->io.close(l->io.ctx, old->id);
		}
	}
	u->guest = guest;
	u->relayed = 0;
	snprintf(u->lang, sizeof u->lang, "%s", lang);
	char token[PROTO_TOKEN_LEN + 1];
	if (resume_token) {
		snprintf(token, sizeof token, "%s", resume_token);
	} else {
		unsigned char raw[PROTO_TOKEN_LEN / 2];
		randombytes_buf(raw, sizeof raw);
		sodium_bin2hex(token, sizeof token, raw, sizeof raw);
		auth_token_hash(token, u->token_hash);
	}
	/* A guest's session outlives a restart (its token hashed) for a while;
	 * an account has none (its password brings it back). */
	if (!guest)
		store_session_delete(l->store, u->name);
	else if (store_session_put(l->store, u->name, u->token_hash,
	                           (long long)time(NULL) + LOBBY_SESSION_DAYS * 86400LL) < 0)
		log_say("the session of %s is not stored", u->name);
	account_settings_load(l, c, u, 0);
	u->conn = c->id;
	c->user = (int)(u - l->users);
	char arrival[160];
	if (l->ext)
		l->ext->login(l, u->name, guest);
	send_text(l, c->id, proto_dump(json_pack("{s:s, s:i, s:s, s:b, s:s, s:s, s:s}", "type", "welcome", "version",
	                                         PROTO_VERSION, "name", u->name, "guest", guest, "token", token,
	                                         "lang", u->lang, "text", lobby_arrival(l, u->lang, arrival,
	                                                                                 sizeof arrival))));
	account_settings_load(l, c, u, 1);
	/* The lobby's first page; then what changes in it, while at no table. */
	memset(&c->view, 0, sizeof c->view);
	send_snapshot(l, c, NULL);
	c->view.listening = 1;
	send_saved(l, c->id, u->name, 0);
	/* Bound for a table of its own (--create, --table): asked there
	 * whether to keep a seat held elsewhere (ask_seat_held). */
	if (!c->going)
		rejoin(l, c, u);
	c->going = 0;
	l->dirty = 1;
}

void lobby_relayed_login(struct lobby *l, long conn, const char *name, const char *lang, int guest)
{
	struct lobby_conn *c = lobby_conn_of(l, conn);
	if (!c || conn < LOBBY_RELAYED_CONN)
		return;
	if (c->user >= 0) { /* asked again: where they are, sent again */
		if (!strcmp(l->users[c->user].name, name))
			rejoin(l, c, &l->users[c->user]);
		return;
	}
	struct lobby_user *u = user_named_or_new(l, name);
	if (u->conn >= 0 && u->conn < LOBBY_RELAYED_CONN)
		return; /* a guest of that name here (names are checked across nodes at hello) */
	if (u->conn >= 0 && u->conn != conn) {
		struct lobby_conn *old = lobby_conn_of(l, u->conn);
		if (old)
			old->user = -1;
		l->io.close(l->io.ctx, u->conn);
	}
	u->guest = guest;
	u->relayed = 1;
	snprintf(u->lang, sizeof u->lang, "%s", lang && i18n_lang_known(lang) ? lang : "en");
	snprintf(c->lang, sizeof c->lang, "%s", u->lang);
	c->lang_given = 1;
	u->conn = conn;
	c->user = (int)(u - l->users);
	rejoin(l, c, u);
	l->dirty = 1;
}

/* Back at table h, where u holds a seat or a spectator's place. */
static void seat_back(struct lobby *l, struct lobby_conn *c, struct lobby_user *u, struct host *h)
{
	struct host_member *hm = host_member(h, u->name);
	if (!hm)
		return;
	char err[ERR_MAX];
	send_text(l, c->id, joined_msg(h, hm->seat));
	host_join(h, u->name, u->lang, c->id, hm->seat, l->now_ms, err, sizeof err);
	if (!u->guest) /* the length of announcements the account keeps */
		host_verbosity(h, u->name, u->verbosity, 0);
}

/* Back at the tables where they were: seats are kept, and so are
 * spectators' places. */
static void rejoin(struct lobby *l, struct lobby_conn *c, struct lobby_user *u)
{
	for (int i = 0; i < l->ntables; i++)
		seat_back(l, c, u, l->tables[i]);
}

/* Hand a message's password to the worker, to hash (hash NULL) or check
 * against hash: its answer comes to on_auth, and the connection's next
 * messages wait for it. 0, or -1 (the server too busy: said). */
static int submit(struct lobby *l, struct lobby_conn *c, struct proto_msg *m, const char *hash)
{
	long id = ++l->next_job;
	if (auth_submit(&l->auth, id, m->password, hash) < 0) {
		send_error(l, c->id, "wait",
		           i18n_tr(i18n_of(c->lang), "the server is busy: try again in a moment"), m->type);
		return -1;
	}
	c->job = id;
	c->job_msg = xmalloc(sizeof *c->job_msg);
	*c->job_msg = *m;
	auth_wipe(c->job_msg->password, sizeof c->job_msg->password);
	return 0;
}

static void on_hello(struct lobby *l, struct lobby_conn *c, struct proto_msg *m)
{
	/* Its answers, refusals included, are in the language it asks for. */
	if (c->user < 0) {
		snprintf(c->lang, sizeof c->lang, "%s", m->lang);
		c->lang_given = m->has_lang; /* else an account's kept language (account_settings_load) */
		c->state_changes = m->state_changes;
		c->aside = m->aside;
		c->going = m->going;
	}
	const struct i18n_lang *L = i18n_of(c->lang);
	if (m->version != PROTO_VERSION) {
		char text[96];
		snprintf(text, sizeof text, i18n_tr(L, "this server speaks version %d of the protocol"), PROTO_VERSION);
		send_error(l, c->id, "version", text, PM_HELLO);
		l->io.close(l->io.ctx, c->id);
		return;
	}
	if (c->user >= 0) {
		send_error(l, c->id, "already", i18n_tr(L, "this connection is already logged in"), PM_HELLO);
		return;
	}
	if (c->aside && !m->has_password) {
		send_error(l, c->id, "guest", i18n_tr(L, "only an account may connect aside its session"), PM_HELLO);
		return;
	}
	if (name_pending(l, m->name)) {
		send_error(l, c->id, "wait", i18n_tr(L, "that name is logging in: try again in a moment"), PM_HELLO);
		return;
	}
	char hash[AUTH_HASH_MAX];
	int has_account = store_account_get(l->store, m->name, hash, sizeof hash);
	if (has_account < 0) {
		send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its accounts now"), PM_HELLO);
		return;
	}
	if (l->ext && l->ext->login_refused(l, c->id, m->name)) /* banned: until when, and why */
		return;
	struct lobby_user *u = lobby_user_named(l, m->name);
	/* A new name may not look like one known here (net/ident). */
	struct ident_keys nk;
	ident_keys_of(m->name, &nk);
	const struct lobby_user *alike = !u && !has_account ? user_alike(l, &nk) : NULL;
	/* Nor like an account's, here or not (the store's index of looks). */
	char other[HOST_PLAYER_MAX] = "";
	if (!alike && !u && !has_account && store_account_alike(l->store, m->name, other, sizeof other) < 0) {
		send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its accounts now"), PM_HELLO);
		return;
	}
	if (alike || other[0]) {
		char text[200];
		snprintf(text, sizeof text, i18n_tr(L, "that name looks too much like that of %s, who is known here"),
		         alike ? alike->name : other);
		send_error(l, c->id, "name_alike", text, PM_HELLO);
		return;
	}
	if (m->has_password) {
		long long wait = auth_wait(&l->auth, m->name, c->addr, l->now_ms);
		if (wait > 0) {
			char text[96];
			snprintf(text, sizeof text, i18n_tr(L, "too many wrong passwords: try again in %lld s"),
			         (wait + 999) / 1000);
			send_error(l, c->id, "wait", text, PM_HELLO);
			return;
		}
		if (has_account) {
			submit(l, c, m, hash);
			return;
		}
		/* A guest's name, while they are here, hold a seat or may come
		 * back with their token, is theirs: no account is made on it. */
		if (u && u->conn >= 0) {
			send_error(l, c->id, "name_in_use", i18n_tr(L, "a guest of that name is here now"), PM_HELLO);
			return;
		}
		if (u && (u->token_hash[0] || at_a_table(l, u->name))) {
			send_error(l, c->id, "name_in_use", i18n_tr(L, "that name is in use"), PM_HELLO);
			return;
		}
		wait = auth_create_wait(&l->auth, c->addr, l->now_ms);
		if (wait > 0) {
			char text[128];
			long long min = (wait + 59999) / 60000;
			snprintf(text, sizeof text,
			         i18n_ntr(L, "too many accounts made from this address: try again in %lld minute",
			                     "too many accounts made from this address: try again in %lld minutes", min),
			         min);
			send_error(l, c->id, "wait", text, PM_HELLO);
			return;
		}
		if (submit(l, c, m, NULL) == 0)
			auth_created(&l->auth, c->addr, l->now_ms);
		return;
	}
	if (has_account) {
		send_error(l, c->id, "password", i18n_tr(L, "this name has a password"), PM_HELLO);
		return;
	}
	/* A guest name is the session's: while in use or holding a seat,
	 * it comes back only with its token (none known after a restart
	 * whose session expired: nobody may take the seat by name). */
	int resumed = u && u->token_hash[0] && auth_token_matches(u->token_hash, m->token);
	if (!resumed && l->far && l->far->person(l->far->ctx, m->name)) { /* a guest on another node */
		send_error(l, c->id, "name_in_use", i18n_tr(L, "that name is in use"), PM_HELLO);
		return;
	}
	if (u && !resumed && (u->conn >= 0 || at_a_table(l, u->name))) {
		send_error(l, c->id, "name_in_use",
		           u->conn >= 0 ? i18n_tr(L, "that name is in use")
		                        : i18n_tr(L, "that name keeps a seat at a table for its guest, who may come back: "
		                                     "choose another name"),
		           PM_HELLO);
		return;
	}
	welcome(l, c, m->name, m->lang, 1, resumed ? m->token : NULL);
}

static struct host *table_for(struct lobby *l, struct lobby_conn *c, struct proto_msg *m)
{
	struct host *h = lobby_table_of(l, m->table);
	if (!h)
		send_error(l, c->id, "no_table", i18n_tr(i18n_of(c->lang), "there is no such table"), m->type);
	return h;
}

static int is_creator(struct lobby *l, struct lobby_conn *c, struct host *h, int type)
{
	if (strcmp(h->creator, l->users[c->user].name) != 0) {
		send_error(l, c->id, "not_creator",
		           i18n_tr(i18n_of(c->lang), "only the table's creator may do that"), type);
		return 0;
	}
	return 1;
}

/* The key of a private table's password in the limiter: no name holds a #. */
static void table_key(const struct host *h, char key[64])
{
	snprintf(key, 64, "#%ld", h->id);
}

/* A private table's password, unless already a member or its creator: 1
 * to enter now, 0 not now (refused, or its password given to the worker:
 * the answer comes to on_auth). */
static int may_enter(struct lobby *l, struct lobby_conn *c, struct host *h, struct proto_msg *m)
{
	const char *name = l->users[c->user].name;
	if (!h->private_ || host_member(h, name) || !strcmp(h->creator, name) || (l->ext && l->ext->invited(l, h->id, &l->users[c->user])))
		return 1;
	char key[64];
	table_key(h, key);
	long long wait = auth_wait(&l->auth, key, c->addr, l->now_ms);
	if (wait > 0) {
		send_error(l, c->id, "wait",
		           i18n_tr(i18n_of(c->lang), "too many wrong passwords: try again later"), m->type);
		return 0;
	}
	/* No password is checked as a wrong one is, on the worker: a refusal
	 * costs what a guess costs, so that a crowd of them neither comes
	 * faster than guesses nor fills the limiter for free (net/auth). */
	submit(l, c, m, h->pwhash);
	return 0;
}

/* One person, one table: taking a seat at h gives up a seat held at any
 * other table (away or not), as a stand does (a bot plays it, and it
 * opens); they stay there as a spectator (its state says seat -1), so
 * that a table they made and wait at is not removed. */
static void leave_other_seats(struct lobby *l, struct lobby_conn *c, const struct host *h)
{
	const char *name = l->users[c->user].name;
	for (int i = 0; i < l->ntables; i++) {
		struct host *o = l->tables[i];
		struct host_member *hm = o == h ? NULL : host_member(o, name);
		if (!hm || hm->seat < 0)
			continue;
		host_stand(o, name, 0);
		l->dirty = 1;
	}
}

/* A seat of name's at a table other than h whose game goes on: that
 * table (its seat in *seat), or NULL. */
static struct host *seat_held_elsewhere(struct lobby *l, const char *name, const struct host *h, int *seat)
{
	for (int i = 0; i < l->ntables; i++) {
		struct host *o = l->tables[i];
		if (o == h || o->state != HOST_PLAYING)
			continue;
		for (int s = 0; s < o->players; s++)
			if (!strcmp(o->seat[s].name, name)) {
				*seat = s;
				return o;
			}
	}
	return NULL;
}

/* One person, one table, by their choice: a sit at h (NULL: the table a
 * create makes) from one who holds a seat where a game goes on, without
 * give_up, is answered with a question: keep that seat and go back (a
 * sit there), or give it up and go on (the same request again, with
 * give_up). 1 when asked, 0 to go on. */
static int ask_seat_held(struct lobby *l, struct lobby_conn *c, const struct host *h, const struct proto_msg *m)
{
	int seat;
	struct host *o = m->give_up ? NULL : seat_held_elsewhere(l, l->users[c->user].name, h, &seat);
	if (!o)
		return 0;
	const struct i18n_lang *L = i18n_of(c->lang);
	char q[256], back[160];
	snprintf(q, sizeof q, i18n_tr(L, "You hold seat %d at table %lld, where the game goes on: keep it and go back, "
	                                 "or give it up?"),
	         seat + 1, (long long)o->id);
	snprintf(back, sizeof back, i18n_tr(L, "Keep the seat and go back to table %lld"), (long long)o->id);
	const char *go = h ? i18n_tr(L, "Give it up and sit at this table")
	                   : i18n_tr(L, "Give it up and make the new table");
	send_text(l, c->id, proto_dump(json_pack("{s:s, s:s, s:I, s:i, s:s, s:[{s:s, s:{s:s, s:I, s:i}}, {s:s, s:b}]}",
	                                         "type", "ask", "about", "seat_held", "table", (json_int_t)o->id,
	                                         "seat", seat, "text", q, "choices", "text", back, "send", "type",
	                                         "sit", "table", (json_int_t)o->id, "seat", seat, "text", go,
	                                         "again", 1)));
	return 1;
}

/* c's person sits (or watches) at h; m: the sit asked (NULL: a create's
 * seat, asked about before the table was made). */
static void join(struct lobby *l, struct lobby_conn *c, struct host *h, int seat, int type,
                 const struct proto_msg *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	struct lobby_user *u = &l->users[c->user];
	char err[ERR_MAX];
	struct host_member *hm = host_member(h, u->name);
	if (seat < 0 && type == PM_SIT) {
		if (hm && hm->seat >= 0) {
			seat = hm->seat;
		} else {
			/* The seat this player left in this deal, else the first
			 * they may take. */
			for (int s = 0; s < h->players && seat < 0; s++)
				if (!strcmp(h->seat[s].left_by, u->name) && host_may_sit(h, u->name, s, NULL, err, sizeof err) == 0)
					seat = s;
			for (int s = 0; s < h->players && seat < 0; s++)
				if (host_may_sit(h, u->name, s, NULL, err, sizeof err) == 0)
					seat = s;
			if (seat < 0) {
				send_error(l, c->id, "no_seat", i18n_tr(L, "no seat is free at this table"), type);
				return;
			}
		}
	}
	if (type == PM_WATCH && hm && hm->seat >= 0) {
		send_error(l, c->id, "seated", i18n_tr(L, "you hold a seat at this table: stand up first"), type);
		return;
	}
	if (type == PM_SIT && hm && hm->seat >= 0 && hm->seat != seat) {
		send_error(l, c->id, "seated", i18n_tr(L, "you already hold a seat at this table"), type);
		return;
	}
	if (type == PM_SIT && !(hm && hm->seat >= 0) &&
	    host_may_sit(h, u->name, seat, L, err, sizeof err) < 0) {
		send_error(l, c->id, "seat", err, type);
		return;
	}
	int sits = type == PM_SIT && !(hm && hm->seat >= 0); /* a seat taken now, not one's own again */
	/* A sit that may be taken, from one who holds a seat where a game
	 * goes on: asked first. */
	if (sits && m && ask_seat_held(l, c, h, m))
		return;
	if (type == PM_SIT)
		leave_other_seats(l, c, h);
	/* Back at one's own seat (a member already: host_join cannot fail),
	 * "joined" first, as a return at the hello: the state and "You are
	 * back" that host_join sends are then of the client's table. */
	int own = type == PM_SIT && !sits;
	if (own)
		send_text(l, c->id, arrival_joined_msg(h, hm->seat, u->name, u->lang));
	if (host_join(h, u->name, u->lang, c->id, type == PM_WATCH ? -1 : seat, l->now_ms, err, sizeof err) < 0) {
		send_error(l, c->id, "seat", err, type);
		return;
	}
	struct host_member *now = host_member(h, u->name);
	host_verbosity(h, u->name, u->verbosity, 0);
	if (!own)
		send_text(l, c->id, arrival_joined_msg(h, now ? now->seat : -1, u->name, u->lang));
	if (sits)
		host_tell_seat(h, u->name);
	l->dirty = 1;
}

/* Why c may not make one more table (too many waiting or in play, of
 * its person, its address, its network, or in all), or NULL. */
static const char *too_many_tables(struct lobby *l, struct lobby_conn *c)
{
	int mine = 0, here = 0, near = 0, all = 0;
	char prefix[NETADDR_PREFIX_MAX], theirs[NETADDR_PREFIX_MAX];
	netaddr_prefix(c->addr, prefix, sizeof prefix);
	for (int i = 0; i < l->ntables; i++) {
		if (l->tables[i]->state == HOST_OVER)
			continue;
		all++;
		mine += !strcmp(l->tables[i]->creator, l->users[c->user].name);
		if (!c->addr[0] || !l->made_from[i][0])
			continue;
		here += !strcmp(l->made_from[i], c->addr);
		netaddr_prefix(l->made_from[i], theirs, sizeof theirs);
		near += !strcmp(theirs, prefix);
	}
	if (mine >= LOBBY_TABLES_PER_PERSON)
		return i18n_tr(i18n_of(c->lang), "you have made too many tables: finish one first");
	if (l->tables_per_addr > 0 && here >= l->tables_per_addr)
		return i18n_tr(i18n_of(c->lang), "too many tables from your address: finish one first");
	if (l->tables_per_addr > 0 && near >= LOBBY_TABLES_PER_PREFIX)
		return i18n_tr(i18n_of(c->lang), "too many tables from your network: finish one first");
	if (l->tables_max > 0 && all >= l->tables_max)
		return i18n_tr(i18n_of(c->lang), "the server has too many tables: try again later");
	return NULL;
}

static int open_seats(const struct proto_msg *m)
{
	int open = 0;
	for (int s = 0; s < m->players; s++)
		open += m->seat_kind[s] == PSEAT_OPEN;
	return open;
}

/* Make the table of a create (pwhash: its password's hash, a private
 * one's), the creator seated or watching. */
static void make_table(struct lobby *l, struct lobby_conn *c, struct proto_msg *m, const char *pwhash)
{
	uint64_t seed;
	randombytes_buf(&seed, sizeof seed);
	seed &= INT64_MAX;
	int from = HOST_SEED_SERVER;
	if (m->has_seed) {
		seed = (uint64_t)m->seed;
		from = HOST_SEED_CLIENT;
	} else if (l->cfg.seed > 0) {
		seed = (uint64_t)l->cfg.seed;
		from = HOST_SEED_OPERATOR;
	}
	long id = l->dir.ops->new_id(&l->dir);
	if (id < 0) { /* a cluster's node waiting for its next block of ids */
		send_error(l, c->id, "wait",
		           i18n_tr(i18n_of(c->lang), "the server is busy: try again in a moment"), PM_CREATE);
		return;
	}
	struct host *h = xcalloc(1, sizeof *h);
	char err[ERR_MAX];
	if (host_create(h, id, m->game, m->players, &m->rules, seed, from, l->users[c->user].name, l->store,
	                &l->cfg, host_out(l), err, sizeof err) < 0) {
		send_error(l, c->id, "create", err, PM_CREATE);
		free(h);
		return;
	}
	for (int s = 0; s < m->players; s++) {
		h->seat[s].open = m->seat_kind[s] == PSEAT_OPEN;
		h->seat[s].level = m->seat_level[s];
	}
	if (m->private_) {
		h->private_ = 1;
		snprintf(h->pwhash, sizeof h->pwhash, "%s", pwhash);
	}
	add_table(l, h);
	snprintf(l->made_from[l->ntables - 1], sizeof *l->made_from, "%s", c->addr);
	host_save(h);
	send_text(l, c->id, proto_dump(json_pack("{s:s, s:I}", "type", "created", "table", (json_int_t)id)));
	join(l, c, h, -1, open_seats(m) ? PM_SIT : PM_WATCH, NULL);
}

static void on_create(struct lobby *l, struct lobby_conn *c, struct proto_msg *m)
{
	if (open_seats(m) && ask_seat_held(l, c, NULL, m))
		return;
	const char *why = too_many_tables(l, c);
	if (why) {
		send_error(l, c->id, "tables", why, PM_CREATE);
		return;
	}
	int open = open_seats(m);
	/* Whoever knows the seed knows every hand: a client's seed (the same
	 * game again, tests) only where no other person may sit; elsewhere
	 * the server's own secret, never sent. 63 bits from the system's
	 * random source (a hand history's JSON integer holds no more). */
	if (m->has_seed && open > 1) {
		send_error(l, c->id, "create",
		           i18n_tr(i18n_of(c->lang), "a seed may be chosen only when every other seat is a bot"), PM_CREATE);
		return;
	}
	/* A private table's password is hashed by the worker: the table is
	 * made with its answer (on_auth). */
	if (m->private_)
		submit(l, c, m, NULL);
	else
		make_table(l, c, m, NULL);
}

/* The worker's answer to a message's password (the connection may be
 * gone meanwhile): a hello's password checked, or its new account's hash
 * made; a private table's password hashed, or checked for sit or watch. */
static void on_auth(struct lobby *l, struct lobby_conn *c, const struct auth_answer *a)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	struct proto_msg *m = c->job_msg;
	if (m->type != PM_HELLO && c->user < 0)
		return; /* logged in from elsewhere meanwhile */
	if (m->type == PM_CREATE) {
		if (a->ok)
			make_table(l, c, m, a->hash);
		else
			send_error(l, c->id, "create", i18n_tr(L, "out of memory"), PM_CREATE);
		return;
	}
	if (m->type == PM_SIT || m->type == PM_WATCH) {
		struct host *h = table_for(l, c, m);
		if (!h)
			return;
		char key[64];
		table_key(h, key);
		if (!a->ok) {
			auth_failed(&l->auth, key, c->addr, l->now_ms);
			send_error(l, c->id, "password",
			           m->has_password ? i18n_tr(L, "wrong password") : i18n_tr(L, "this table needs a password"),
			           m->type);
		} else {
			join(l, c, h, m->seat, m->type, m);
		}
		return;
	}
	if (a->verify && !a->ok) {
		auth_failed(&l->auth, m->name, c->addr, l->now_ms);
		send_error(l, c->id, "password", i18n_tr(L, "wrong password"), PM_HELLO);
	} else if (a->verify) {
		auth_succeeded(&l->auth, m->name);
		welcome(l, c, m->name, m->lang, 0, NULL);
	} else {
		/* Nobody took the name meanwhile: a hello for a name waiting here
		 * is refused. */
		char hash[AUTH_HASH_MAX];
		if (!a->ok || store_account_get(l->store, m->name, hash, sizeof hash) != 0 ||
		    store_account_put(l->store, m->name, a->hash) < 0)
			send_error(l, c->id, "store", i18n_tr(L, "the account could not be made"), PM_HELLO);
		else
			welcome(l, c, m->name, m->lang, 0, NULL);
	}
}

static void lobby_chat(struct lobby *l, struct lobby_conn *c, struct proto_msg *m)
{
	const char *from = l->users[c->user].name;
	if (l->ext && !l->ext->chat_allowed(l, c->id, from))
		return;
	if (m->table) {
		struct host *h = table_for(l, c, m);
		if (!h)
			return;
		if (!host_member(h, from)) {
			send_error(l, c->id, "not_member",
			           i18n_tr(i18n_of(c->lang), "you are not at this table"), PM_CHAT);
			return;
		}
		host_chat(h, from, m->text);
		return;
	}
	lobby_chat_heard(l, from, m->text);
	if (l->far)
		l->far->chat(l->far->ctx, from, m->text);
}

void lobby_chat_heard(struct lobby *l, const char *from, const char *text)
{
	char *s = proto_dump(json_pack("{s:s, s:s, s:s, s:s}", "type", "chat", "from", from, "text", text, "cue",
	                               "chat"));
	if (s)
		broadcast(l, s);
	free(s);
}

/* ---- tables saved when nobody is left at them ---- */

int lobby_saved_index(const struct lobby *l, long id)
{
	for (int i = 0; i < l->nsaved; i++)
		if (l->saved[i].id == id)
			return i;
	return -1;
}

static int saved_holds(const struct lobby *l, const char *name)
{
	for (int i = 0; i < l->nsaved; i++)
		for (int s = 0; s < l->saved[i].players; s++)
			if (!strcmp(l->saved[i].seat[s], name))
				return 1;
	return 0;
}

/* A person known by name only (a restart): a guest comes back with the
 * token of their session (an account with its password). */
static void known_guest(struct lobby *l, const char *name)
{
	if (!name[0] || lobby_user_named(l, name))
		return;
	struct lobby_user *u = user_named_or_new(l, name);
	snprintf(u->lang, sizeof u->lang, "en");
	u->guest = 1;
	u->gone_ms = l->now_ms;
	long long expires = 0;
	if (store_session_get(l->store, u->name, u->token_hash, sizeof u->token_hash, &expires) != 1 ||
	    expires < (long long)time(NULL))
		u->token_hash[0] = '\0';
}

/* A saved table's row into the list (the oldest forgotten past
 * LOBBY_SAVED_MAX, its row with it). */
static void saved_add(struct lobby *l, const struct store_table *t)
{
	if (l->nsaved >= LOBBY_SAVED_MAX) {
		store_table_delete(l->store, l->saved[0].id);
		memmove(&l->saved[0], &l->saved[1], (size_t)(l->nsaved - 1) * sizeof *l->saved);
		l->nsaved--;
	}
	xgrow((void **)&l->saved, &l->capsaved, l->nsaved + 1, sizeof *l->saved);
	struct lobby_saved *sv = &l->saved[l->nsaved++];
	memset(sv, 0, sizeof *sv);
	sv->id = t->id;
	snprintf(sv->game, sizeof sv->game, "%s", t->game);
	sv->players = t->players > GAME_MAX_SEATS ? GAME_MAX_SEATS : t->players;
	json_t *seats = json_loads(t->seats, 0, NULL);
	for (int s = 0; s < sv->players; s++) {
		const char *name = json_string_value(json_object_get(json_array_get(seats, (size_t)s), "name"));
		snprintf(sv->seat[s], sizeof sv->seat[s], "%s", name ? name : "");
		known_guest(l, sv->seat[s]);
	}
	json_decref(seats);
}

/* "saved": the saved tables where name holds a seat (sent when there are
 * some, or always: after a change). */
static void send_saved(struct lobby *l, long conn, const char *name, int always)
{
	json_t *tables = json_array();
	for (int i = 0; i < l->nsaved; i++) {
		const struct lobby_saved *sv = &l->saved[i];
		int mine = 0;
		json_t *seats = json_array();
		for (int s = 0; s < sv->players; s++) {
			mine |= !strcmp(sv->seat[s], name);
			json_array_append_new(seats, json_string(sv->seat[s]));
		}
		if (mine)
			json_array_append_new(tables, json_pack("{s:I, s:s, s:i, s:o}", "id", (json_int_t)sv->id, "game",
			                                        sv->game, "players", sv->players, "seats", seats));
		else
			json_decref(seats);
	}
	if (!always && !json_array_size(tables)) {
		json_decref(tables);
		return;
	}
	send_text(l, conn, proto_dump(json_pack("{s:s, s:o}", "type", "saved", "tables", tables)));
}

/* The players of a saved table who are connected get their list again. */
static void tell_saved(struct lobby *l, char (*seat)[HOST_PLAYER_MAX], int players)
{
	for (int s = 0; s < players; s++) {
		struct lobby_user *u = seat[s][0] ? lobby_user_named(l, seat[s]) : NULL;
		if (u && u->conn >= 0)
			send_saved(l, u->conn, u->name, 1);
	}
}

/* A table in play that nobody has been connected to for close_ms: saved
 * (its store row marked HOST_SAVED, the journal kept) and closed, to be
 * resumed by one of its players; with no player at all, removed. 1 when
 * table i went. */
static int save_idle(struct lobby *l, int i, long long now_ms)
{
	struct host *h = l->tables[i];
	if (l->cfg.close_ms <= 0 || h->state != HOST_PLAYING || !h->empty_ms || now_ms - h->empty_ms < l->cfg.close_ms ||
	    h->paused)
		return 0;
	int held = 0;
	for (int s = 0; s < h->players; s++)
		held |= h->seat[s].name[0] != '\0';
	if (!held) {
		remove_table(l, i);
		return 1;
	}
	struct store_table *row = xmalloc(sizeof *row);
	host_row(h, row);
	row->state = HOST_SAVED;
	if (store_table_put(l->store, row) < 0) {
		free(row); /* tried again at the next tick */
		return 0;
	}
	saved_add(l, row);
	free(row);
	close_table(l, i, "saved", 0);
	tell_saved(l, l->saved[l->nsaved - 1].seat, l->saved[l->nsaved - 1].players);
	return 1;
}

/* A player away for keep_ms from a table in play where someone is still
 * connected loses the seat: a bot keeps it and it opens (they may sit
 * again when a seat is free). A table nobody is connected to waits for
 * save_idle instead. */
static void release_away(struct lobby *l, struct host *h, long long now_ms)
{
	if (h->state != HOST_PLAYING || h->empty_ms)
		return;
	for (int s = 0; s < h->players; s++)
		if (h->seat[s].name[0] && h->seat[s].away_ms && now_ms - h->seat[s].away_ms >= l->cfg.keep_ms) {
			char who[HOST_PLAYER_MAX];
			snprintf(who, sizeof who, "%s", h->seat[s].name);
			host_stand(h, who, 1);
			l->dirty = 1;
		}
}

/* When save_idle or release_away would next act on h (LLONG_MAX: not as
 * things stand). */
static long long lobby_due(const struct lobby *l, const struct host *h)
{
	long long due = LLONG_MAX;
	if (h->state != HOST_PLAYING)
		return due;
	if (h->empty_ms) {
		if (l->cfg.close_ms > 0 && !h->paused)
			due = h->empty_ms + l->cfg.close_ms;
		return due;
	}
	for (int s = 0; s < h->players; s++)
		if (h->seat[s].name[0] && h->seat[s].away_ms && h->seat[s].away_ms + l->cfg.keep_ms < due)
			due = h->seat[s].away_ms + l->cfg.keep_ms;
	return due;
}

struct row_find {
	long id;
	struct store_table *row;
};

static void row_of(void *ctx, const struct store_table *t)
{
	struct row_find *f = ctx;
	if (t->id == f->id && !f->row) {
		f->row = xmalloc(sizeof *f->row);
		*f->row = *t;
	}
}

/* c's person back at seat of h, taken up again: "joined" first, then
 * what the table has to tell (the turn asked again). */
static void resumed_at(struct lobby *l, struct lobby_conn *c, struct host *h, int seat)
{
	char err[ERR_MAX];
	struct lobby_user *u = &l->users[c->user];
	send_text(l, c->id, arrival_joined_msg(h, seat, u->name, u->lang));
	host_join(h, u->name, u->lang, c->id, seat, l->now_ms, err, sizeof err);
	host_verbosity(h, u->name, u->verbosity, 0);
	l->dirty = 1;
}

/* "resume": a player of a saved table takes it up again, at their seat;
 * the others sit back down when they come, or resume it too (the second
 * of two at once finds it taken up already: back at their seat). */
static void on_resume(struct lobby *l, struct lobby_conn *c, struct proto_msg *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	int k = lobby_saved_index(l, m->table);
	if (k < 0) {
		struct host *live = lobby_table_of(l, m->table);
		for (int s = 0; live && s < live->players; s++)
			if (!strcmp(live->seat[s].name, l->users[c->user].name)) {
				resumed_at(l, c, live, s);
				return;
			}
		send_error(l, c->id, "no_table", i18n_tr(L, "there is no such table"), PM_RESUME);
		return;
	}
	const char *me = l->users[c->user].name;
	int seat = -1;
	for (int s = 0; s < l->saved[k].players && seat < 0; s++)
		if (!strcmp(l->saved[k].seat[s], me))
			seat = s;
	if (seat < 0) {
		send_error(l, c->id, "not_member", i18n_tr(L, "you hold no seat at this table"), PM_RESUME);
		return;
	}
	struct row_find f = { m->table, NULL };
	char err[ERR_MAX];
	struct host *h = xcalloc(1, sizeof *h);
	/* Taken over in the store first (fencing), as a restored table. */
	if (store_table_own(l->store, m->table) < 0 || store_table_each(l->store, row_of, &f) < 0 || !f.row ||
	    host_restore(h, f.row, l->store, &l->cfg, host_out(l), l->now_ms, err, sizeof err) < 0) {
		send_error(l, c->id, "store", i18n_tr(L, "the table could not be taken up again"), PM_RESUME);
		free(f.row);
		free(h);
		return;
	}
	free(f.row);
	struct lobby_saved sv = l->saved[k];
	memmove(&l->saved[k], &l->saved[k + 1], (size_t)(l->nsaved - k - 1) * sizeof *l->saved);
	l->nsaved--;
	add_table(l, h);
	host_save(h);   /* in play again, in the store too */
	resumed_at(l, c, h, seat); /* as when coming back to a table */
	tell_saved(l, sv.seat, sv.players);
}

/* Every sentence made for this connection while handling its message is
 * phrased in its language, given as a value (c->lang, L); what the others
 * hear, each view and the host's notices phrase in theirs. No catalogue
 * is switched. */
static void handle_message(struct lobby *l, struct lobby_conn *c, const char *text, size_t len, long long now_ms)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	long conn = c->id;
	struct proto_msg m;
	char err[ERR_MAX];
	if (proto_read(text, len, &m, L, err, sizeof err) < 0) {
		send_error(l, conn, "bad_message", err, m.type); /* its type when known */
		return;
	}
	if (m.type == PM_PING) {
		send_text(l, conn, proto_dump(json_pack("{s:s}", "type", "pong")));
		return;
	}
	if (m.type == PM_HELLO) {
		on_hello(l, c, &m);
		auth_wipe(&m, sizeof m);
		return;
	}
	if (c->user < 0) {
		send_error(l, conn, "hello_first", i18n_tr(L, "say hello first"), m.type);
		return;
	}
	if (c->aside && m.type != PM_HISTORY && m.type != PM_STATS && m.type != PM_LEADERS) {
		send_error(l, conn, "aside", i18n_tr(L, "this connection only fetches histories and figures"), m.type);
		return;
	}
	const char *me = l->users[c->user].name;
	struct host *h = NULL;
	char herr[128];
	switch (m.type) {
	case PM_CREATE:
		on_create(l, c, &m);
		break;
	case PM_SIT:
	case PM_WATCH:
		if ((h = table_for(l, c, &m)) && may_enter(l, c, h, &m))
			join(l, c, h, m.seat, m.type, &m);
		break;
	case PM_STAND:
	case PM_LEAVE:
		if ((h = table_for(l, c, &m))) {
			host_stand(h, me, m.type == PM_LEAVE);
			/* With the table's entry as it is now: theirs was last told
			 * when they came (its members are sent it only while it
			 * waits), and the lobby's list reaches them at its next
			 * round. */
			if (m.type == PM_LEAVE)
				send_text(l, conn, proto_dump(json_pack("{s:s, s:I, s:s, s:o}", "type", "left", "table",
				                                        (json_int_t)h->id, "reason", "left", "info",
				                                        table_json(h))));
			l->dirty = 1;
		}
		break;
	case PM_START:
		if ((h = table_for(l, c, &m)) && is_creator(l, c, h, m.type)) {
			if (h->state != HOST_WAITING || h->starting) {
				send_error(l, conn, "start", i18n_tr(L, "the game has already begun"), m.type);
			} else if (l->start_spent_ms < l->start_ms) {
				start_now(l, h, now_ms);
			} else {
				h->starting = 1;
				xgrow((void **)&l->starts, &l->capstarts, l->nstarts + 1, sizeof *l->starts);
				l->starts[l->nstarts++] = h->id;
			}
		}
		break;
	case PM_SEAT:
		if ((h = table_for(l, c, &m)) && is_creator(l, c, h, m.type)) {
			if (host_set_seat(h, m.seat, m.kind == PSEAT_OPEN, m.level, L, herr, sizeof herr) < 0)
				send_error(l, conn, "seat", herr, m.type);
			l->dirty = 1;
		}
		break;
	case PM_KICK:
		if ((h = table_for(l, c, &m)) && is_creator(l, c, h, m.type)) {
			if (m.seat >= h->players || !h->seat[m.seat].name[0]) {
				send_error(l, conn, "seat", i18n_tr(L, "nobody holds that seat"), m.type);
				break;
			}
			char who[HOST_PLAYER_MAX];
			snprintf(who, sizeof who, "%s", h->seat[m.seat].name);
			struct host_member *hm = host_member(h, who);
			long their = hm ? hm->conn : -1;
			host_stand(h, who, 1);
			if (their >= 0)
				send_text(l, their, proto_dump(json_pack("{s:s, s:I, s:s}", "type", "left", "table",
				                                         (json_int_t)h->id, "reason", "removed")));
			/* The seats as they are now, to the members: in play too
			 * (the lobby's updates reach a table still waiting only). */
			if (h->state != HOST_WAITING)
				send_table(l, h);
			l->dirty = 1;
		}
		break;
	case PM_ACTION:
		if (!(h = table_for(l, c, &m)))
			break;
		if (!host_member(h, me)) {
			send_error(l, conn, "not_member", i18n_tr(L, "you are not at this table"), m.type);
			break;
		}
		if (host_action(h, me, &m.act, now_ms) == 0 && h->state == HOST_OVER)
			l->dirty = 1;
		break;
	case PM_HINT: {
		const char *code, *msg;
		if ((h = table_for(l, c, &m)) && host_hint(h, me, L, &code, &msg) < 0 && code)
			send_error(l, conn, code, msg, m.type);
		break;
	}
	case PM_VERBOSITY:
		/* Kept for the session: at this table now, at others when joined. */
		if ((h = table_for(l, c, &m))) {
			if (!host_member(h, me)) {
				send_error(l, conn, "not_member", i18n_tr(L, "you are not at this table"), m.type);
				break;
			}
			l->users[c->user].verbosity = m.verbosity;
			for (int i = 0; i < l->ntables; i++)
				host_verbosity(l->tables[i], me, m.verbosity, l->tables[i] == h);
		}
		break;
	case PM_CHAT:
		lobby_chat(l, c, &m);
		break;
	case PM_LOBBY_QUERY:
		/* Answered at the next round: many queries, one snapshot. */
		{
			size_t n = strlen(m.text); /* at most PROTO_FILTER_MAX characters: it fits */
			n = n < sizeof c->view.filter - 1 ? n : sizeof c->view.filter - 1;
			memcpy(c->view.filter, m.text, n);
			c->view.filter[n] = '\0';
		}
		c->view.page = (int)m.page;
		c->view.follow = m.follow;
		c->view.want = 1;
		l->dirty = 1;
		break;
	case PM_RESUME:
		on_resume(l, c, &m);
		break;
	case PM_SETTINGS:
		on_settings(l, c, &m);
		break;
	case PM_STATS:
		on_stats(l, c, &m);
		break;
	case PM_LEADERS:
		on_leaders(l, c, &m);
		break;
	case PM_HISTORY:
		on_history(l, c, &m);
		break;
	case PM_INVITE:
	case PM_REMATCH:
	case PM_MOD:
	case PM_MUTE:
		if (l->ext)
			l->ext->message(l, c, &m, now_ms);
		else
			send_error(l, conn, "bad_message", i18n_tr(L, "unexpected message"), m.type);
		break;
	default:
		send_error(l, conn, "bad_message", i18n_tr(L, "unexpected message"), m.type);
		break;
	}
}

void lobby_message(struct lobby *l, long conn, const char *text, size_t len, long long now_ms)
{
	l->now_ms = now_ms;
	struct lobby_conn *c = lobby_conn_of(l, conn);
	if (!c)
		return;
	if (!c->job) {
		handle_message(l, c, text, len, now_ms);
		return;
	}
	/* Its password is being hashed or checked: it waits its turn. */
	if (c->nheld == LOBBY_HELD_MAX) {
		send_error(l, conn, "rate", i18n_tr(i18n_of(c->lang), "too many messages: slow down"), PM_NONE);
		return;
	}
	xgrow((void **)&c->held, &c->capheld, c->nheld + 1, sizeof *c->held);
	c->held[c->nheld].text = xmalloc(len + 1);
	memcpy(c->held[c->nheld].text, text, len);
	c->held[c->nheld].text[len] = '\0';
	c->held[c->nheld++].len = len;
}

/* The worker's answers: each to its connection, still there or not, whose
 * messages held meanwhile are then handled (until one waits again). */
static void collect(struct lobby *l, long long now_ms)
{
	struct auth_answer a;
	while (auth_done(&l->auth, &a)) {
		struct lobby_conn *c = NULL;
		for (int i = 0; i < l->nconns && !c; i++)
			if (l->conns[i].job == a.id)
				c = &l->conns[i];
		if (c) {
			on_auth(l, c, &a);
			job_clear(c);
			int k = 0;
			for (; k < c->nheld && !c->job; k++) {
				handle_message(l, c, c->held[k].text, c->held[k].len, now_ms);
				free(c->held[k].text);
			}
			if (k)
				memmove(c->held, c->held + k, (size_t)(c->nheld - k) * sizeof *c->held);
			c->nheld -= k;
		}
		auth_wipe(&a, sizeof a);
	}
}


const char *lobby_lang(struct lobby *l, long conn)
{
	struct lobby_conn *c = lobby_conn_of(l, conn);
	return c ? c->lang : "en";
}

int lobby_logged_in(struct lobby *l, long conn)
{
	struct lobby_conn *c = lobby_conn_of(l, conn);
	return c && c->user >= 0;
}

int lobby_hello_waiting(struct lobby *l, long conn)
{
	struct lobby_conn *c = lobby_conn_of(l, conn);
	return c && c->job && c->job_msg->type == PM_HELLO;
}

void lobby_close(struct lobby *l, long conn, long long now_ms)
{
	l->now_ms = now_ms;
	struct lobby_conn *c = lobby_conn_of(l, conn);
	if (!c)
		return;
	logout(l, c, now_ms);
	conn_clear(c);
	uint32_t i = (uint32_t)(c - l->conns), last = (uint32_t)--l->nconns;
	hashmap_remove(&l->byid, i, conn_key, l);
	if (i != last) {
		*c = l->conns[last];
		hashmap_move(&l->byid, last, i, conn_key, l);
	}
}

/* Forget the people gone who hold no seat (their guest names are free
 * again); the connections keep pointing at the right entries. */
static void prune_users(struct lobby *l, unsigned char *at)
{
	/* A person whose only connection is aside their session is kept while
	 * it lasts (the connection names them by their index). */
	unsigned char *aside = NULL;
	for (int c = 0; c < l->nconns; c++)
		if (l->conns[c].aside && l->conns[c].user >= 0) {
			if (!aside)
				aside = xcalloc((size_t)l->nusers, 1);
			aside[l->conns[c].user] = 1;
		}
	for (int i = l->nusers - 1; i >= 0; i--) {
		if (l->users[i].conn >= 0 || at[i] || (aside && aside[i]) || saved_holds(l, l->users[i].name))
			continue;
		if (l->users[i].guest && !l->users[i].relayed) /* a relayed guest's session is their node's */
			store_session_delete(l->store, l->users[i].name);
		int last = l->nusers - 1;
		user_forget(l, (uint32_t)i);
		if (i != last) {
			at[i] = at[last];
			if (aside)
				aside[i] = aside[last];
			for (int c = 0; c < l->nconns; c++)
				if (l->conns[c].user == last)
					l->conns[c].user = i;
		}
	}
	free(aside);
}

/* Remove table i: from the lobby, the directory and the store (its hand
 * history stays in --log-dir). Its members still here are told. */
static void close_table(struct lobby *l, int i, const char *reason, int forget)
{
	struct host *h = l->tables[i];
	for (int k = 0; k < h->nmembers; k++)
		if (h->member[k]->conn >= 0)
			send_text(l, h->member[k]->conn, proto_dump(json_pack("{s:s, s:I, s:s}", "type", "left", "table",
			                                                       (json_int_t)h->id, "reason", reason)));
	if (forget)
		store_table_delete(l->store, h->id);
	l->dir.ops->release(&l->dir, h->id);
	if (l->on_running)
		l->on_running(l->running_ctx, h->id, 0);
	xgrow((void **)&l->gone, &l->capgone, l->ngone + 1, sizeof *l->gone);
	l->gone[l->ngone++] = h->id;
	host_free(h);
	free(h);
	free(l->told[i]);
	memmove(&l->tables[i], &l->tables[i + 1], (size_t)(l->ntables - i - 1) * sizeof *l->tables);
	memmove(&l->told[i], &l->told[i + 1], (size_t)(l->ntables - i - 1) * sizeof *l->told);
	memmove(&l->made_from[i], &l->made_from[i + 1], (size_t)(l->ntables - i - 1) * sizeof *l->made_from);
	memmove(&l->print[i], &l->print[i + 1], (size_t)(l->ntables - i - 1) * sizeof *l->print);
	l->ntables--;
	l->dirty = 1;
}

static void remove_table(struct lobby *l, int i)
{
	close_table(l, i, "closed", 1);
}

int lobby_drop_table(struct lobby *l, long id)
{
	for (int i = 0; i < l->ntables; i++)
		if (l->tables[i]->id == id) {
			close_table(l, i, "moved", 0);
			return 1;
		}
	return 0;
}

static int saved_gone(void *ctx, long id)
{
	return lobby_saved_index(ctx, id) >= 0;
}

static void send_many_io(void *ctx, const long *conns, int n, char *text)
{
	send_many(ctx, conns, n, text);
}

/* The lobby's changes to the connections in the lobby (at: by user, 1
 * for someone at a table): net/lobbyev. */
static void tell_changes(struct lobby *l, const unsigned char *at)
{
	const struct lobbylist_person *far = NULL;
	int nfar = l->far ? l->far->people(l->far->ctx, &far) : 0;
	/* The people of this round the same as the last (and no other
	 * node's): not listed again. */
	int same = !l->far && l->people_same;
	const char **online = xcalloc(same ? 1 : (size_t)(l->nusers + nfar) + 1, sizeof *online);
	struct lobbyev_listener *to = xcalloc((size_t)l->nconns + 1, sizeof *to);
	int non = 0, nto = 0;
	for (int i = 0; !same && i < l->nusers; i++)
		if (online_here(&l->users[i]))
			online[non++] = l->users[i].name;
	for (int i = 0; i < nfar; i++)
		online[non++] = far[i].name;
	for (int i = 0; i < l->nconns; i++) {
		int u = l->conns[i].user;
		if (u >= 0 && !at[u] && l->conns[i].id < LOBBY_RELAYED_CONN)
			to[nto++] = (struct lobbyev_listener){ l->conns[i].id, l->users[u].name, l->users[u].lang };
	}
	struct lobbyev_in in = { online, non, l->tables, l->ntables, to, nto, saved_gone, send_many_io, l, same };
	lobbyev_tick(&l->ev, &in);
	free(online);
	free(to);
}

int lobby_work(struct lobby *l, long long now_ms)
{
	l->now_ms = now_ms;
	return l->cfg.work ? work_collect(l->cfg.work) : 0;
}

/* Table i's timers: closed when its time is up, saved when idle, its
 * away players' seats released, its bots' and turn timer's moves; then
 * when it is next due. 1 when it went. */
static int tick_table(struct lobby *l, int i, long long now_ms)
{
	struct host *h = l->tables[i];
	if (host_expired(h, now_ms)) {
		remove_table(l, i);
		return 1;
	}
	if (save_idle(l, i, now_ms))
		return 1;
	release_away(l, h, now_ms);
	/* A few moves at most a tick, so the loop stays responsive. */
	for (int k = 0; k < 8 && host_tick(h, now_ms); k++)
		if (l->cfg.bot_delay_ms > 0)
			break;
	/* Changed here, or by a bot's move collected before. */
	if (h->state != h->state_seen) {
		h->state_seen = h->state;
		l->dirty = 1;
	}
	long long due = host_due(h, now_ms), ours = lobby_due(l, h);
	if (ours < due)
		due = ours;
	if (due <= now_ms)
		due = now_ms + 1; /* the next tick */
	if (due != h->due_ms || h->due_ms <= now_ms)
		table_due(l, h, due);
	return 0;
}

/* A table's game begun now, its time counted against LOBBY_START_MS. */
static void start_now(struct lobby *l, struct host *h, long long now_ms)
{
	char err[ERR_MAX];
	double t0 = clock_ms();
	h->starting = 0;
	if (host_start(h, now_ms, i18n_of("en"), err, sizeof err) < 0)
		log_say("table %ld: %s", h->id, err);
	l->start_spent_ms += clock_ms() - t0;
	l->dirty = 1;
}

/* The starts that waited, in turn, as long as the time allows (one at
 * least). */
static void start_waiting(struct lobby *l, long long now_ms)
{
	l->start_spent_ms = 0;
	int k = 0;
	while (k < l->nstarts && (k == 0 || l->start_spent_ms < l->start_ms)) {
		int i = table_index(l, l->starts[k++]);
		struct host *h = i >= 0 ? l->tables[i] : NULL;
		if (h && h->starting && h->state == HOST_WAITING)
			start_now(l, h, now_ms);
		else if (h)
			h->starting = 0;
	}
	if (k) {
		memmove(l->starts, l->starts + k, (size_t)(l->nstarts - k) * sizeof *l->starts);
		l->nstarts -= k;
	}
}

void lobby_tick(struct lobby *l, long long now_ms)
{
	l->now_ms = now_ms;
	start_waiting(l, now_ms);
	collect(l, now_ms);
	lobby_work(l, now_ms); /* bots' moves and hints not collected at a wake-up */
	/* The tables due (their timers, or touched since), then a slice of
	 * the others so that each is looked at once a second whatever
	 * happens. */
	struct due_item d;
	while (due_pop(&l->due, now_ms, &d)) {
		int i = table_index(l, d.id);
		if (i >= 0 && l->tables[i]->due_ms == d.at)
			tick_table(l, i, now_ms);
	}
	if (l->ntables) {
		long long gap = now_ms - l->sweep_ms;
		if (gap < 0 || gap > 1000)
			gap = 1000;
		int n = (int)((l->ntables * gap + 999) / 1000);
		l->sweep_ms = now_ms;
		for (int k = 0; k < n && l->ntables; k++) {
			if (l->sweep >= l->ntables)
				l->sweep = 0;
			if (!tick_table(l, l->sweep, now_ms))
				l->sweep++;
		}
	}
	if (l->ext)
		l->ext->tick(l, now_ms);
	long long gap = l->list_gap_ms > LOBBY_LIST_MS ? l->list_gap_ms : LOBBY_LIST_MS;
	if (l->dirty && (now_ms - l->list_ms >= gap || now_ms < l->list_ms)) {
		l->dirty = 0;
		l->list_ms = now_ms;
		unsigned char *at = users_at_tables(l);
		prune_users(l, at);
		l->list_gap_ms = (long long)(lobby_round(l, at) * 1000 / LOBBY_LIST_BYTES_S);
		tell_changes(l, at);
		free(at);
	}
}

json_t *lobby_table_info(const struct host *h)
{
	return table_json(h);
}

char *lobby_joined_text(const struct host *h, int seat)
{
	return joined_msg(h, seat);
}

void lobby_table_changed(struct lobby *l, const struct host *h)
{
	if (h->state != HOST_WAITING)
		send_table(l, h);
	l->dirty = 1;
}
