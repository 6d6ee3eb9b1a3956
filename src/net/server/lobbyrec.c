/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/lobbyrec.h"

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
#include "net/wire/ident.h"
#include "net/wire/netaddr.h"
#include "net/server/stats.h"
#include "net/wire/work.h"


void lobbyrec_send_text(struct lobby *l, long conn, char *text)
{
	if (text)
		text = l->ext ? l->ext->filter(l, conn, text) : text; /* not the chat of someone they muted */
	if (text)
		l->io.send(l->io.ctx, conn, text);
}

/* text (malloc'd, taken) to n connections: one buffer for all of them. */
void lobbyrec_send_many(struct lobby *l, const long *conns, int n, char *text)
{
	if (!text || n <= 0 || !l->io.send_many || (l->ext && l->ext->filters(l, text))) {
		for (int i = 0; text && i < n; i++)
			lobbyrec_send_text(l, conns[i], xstrdup(text));
		free(text);
		return;
	}
	l->io.send_many(l->io.ctx, conns, n, text);
}

void lobbyrec_send_error(struct lobby *l, long conn, const char *code, const char *message, int re)
{
	lobbyrec_send_text(l, conn, proto_error(code, message, req_type_word(re)));
}

const char *lobbyrec_conn_key(const void *ctx, uint32_t i, size_t *len)
{
	const struct lobby *l = ctx;
	*len = sizeof l->conns[i].id;
	return (const char *)&l->conns[i].id;
}

struct lobby_conn *lobbyrec_conn_of(struct lobby *l, long id)
{
	long i = hashmap_find(&l->byid, (const char *)&id, sizeof id, lobbyrec_conn_key, l);
	return i >= 0 ? &l->conns[i] : NULL;
}

/* A connection's message waiting for the worker, and those held behind it. */
void lobbyrec_job_clear(struct lobby_conn *c)
{
	if (c->job_msg) {
		auth_wipe(c->job_msg, sizeof *c->job_msg);
		free(c->job_msg);
	}
	c->job_msg = NULL;
	c->job = 0;
}

void lobbyrec_conn_clear(struct lobby_conn *c)
{
	lobbyrec_job_clear(c);
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

struct lobby_user *lobbyrec_user_named(struct lobby *l, const char *name)
{
	long i = hashmap_find(&l->byname, name, strlen(name), user_name, l);
	return i >= 0 ? &l->users[i] : NULL;
}

/* The tables are in the order they were made, so by id: looked up by
 * halves (every message naming a table, every tick's sweeps), then one by
 * one if a table came out of that order (restored or adopted). */
int lobbyrec_table_index(const struct lobby *l, long id)
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

struct host *lobbyrec_table_of(struct lobby *l, long id)
{
	int i = lobbyrec_table_index(l, id);
	return i < 0 ? NULL : l->tables[i];
}

/* Table h is due at at (sooner than it was, or popped). */
void lobbyrec_table_due(struct lobby *l, struct host *h, long long at)
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
		lobbyrec_table_due(l, h, l->now_ms);
}

/* The host's output: a member's connection number is a lobby connection. */
static void host_send(void *ctx, long conn, char *text)
{
	struct lobby *l = ctx;
	lobbyrec_send_text(l, conn, text);
}

static uint64_t *host_changes(void *ctx, long conn)
{
	struct lobby_conn *c = lobbyrec_conn_of(ctx, conn);
	return c && c->state_changes ? &c->moments_sent : NULL;
}

struct net_out lobbyrec_host_out(struct lobby *l)
{
	struct net_out o = { host_send, l, host_changes };
	return o;
}

void lobbyrec_table_renewed(struct lobby *l, struct host *h)
{
	h->touched = table_touched;
	h->touched_ctx = l;
	lobbyrec_table_due(l, h, l->now_ms);
}

void lobbyrec_add_table(struct lobby *l, struct host *h)
{
	xgrow((void **)&l->tables, &l->captables, l->ntables + 1, sizeof *l->tables);
	xgrow((void **)&l->told, &l->captold, l->ntables + 1, sizeof *l->told);
	xgrow((void **)&l->made_from, &l->capmade, l->ntables + 1, sizeof *l->made_from);
	xgrow((void **)&l->print, &l->capprint, l->ntables + 1, sizeof *l->print);
	l->told[l->ntables] = NULL;
	l->print[l->ntables] = 0;
	l->made_from[l->ntables][0] = '\0';
	l->tables[l->ntables++] = h;
	lobbyrec_table_renewed(l, h);
	l->dir.ops->claim(&l->dir, h->id, l->dir.self);
	l->dirty = 1;
	if (l->on_running)
		l->on_running(l->running_ctx, h->id, 1);
}

/* The person of that name known to the lobby, or a new one (offline). */
struct lobby_user *lobbyrec_user_named_or_new(struct lobby *l, const char *name)
{
	struct lobby_user *u = lobbyrec_user_named(l, name);
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
void lobbyrec_user_forget(struct lobby *l, uint32_t i)
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
struct lobby_user *lobbyrec_user_alike_keys(struct lobby *l, const struct ident_keys *k)
{
	for (int f = 0; f < 2; f++) {
		long i = hashmap_find(&l->bylook[f], k->k[f], strlen(k->k[f]), look_key[f], l);
		if (i >= 0)
			return &l->users[i];
	}
	return NULL;
}

struct lobby_user *lobbyrec_user_alike(struct lobby *l, const char *name)
{
	struct ident_keys k;
	ident_keys_of(name, &k);
	return lobbyrec_user_alike_keys(l, &k);
}

void lobbyrec_broadcast(struct lobby *l, const char *text)
{
	long *to = xmalloc(((size_t)l->nconns + 1) * sizeof *to);
	int n = 0;
	for (int i = 0; i < l->nconns; i++)
		if (l->conns[i].user >= 0 && l->conns[i].id < LOBBY_RELAYED_CONN)
			to[n++] = l->conns[i].id;
	lobbyrec_send_many(l, to, n, xstrdup(text));
	free(to);
}

/* Hand a message's password to the worker, to hash (hash NULL) or check
 * against hash: its answer comes to on_auth, and the connection's next
 * messages wait for it. 0, or -1 (the server too busy: said). */
int lobbyrec_submit(struct lobby *l, struct lobby_conn *c, struct req *m, const char *hash)
{
	long id = ++l->next_job;
	if (auth_submit(&l->auth, id, m->password, hash) < 0) {
		lobbyrec_send_error(l, c->id, "wait",
		           i18n_tr(i18n_of(c->lang), "the server is busy: try again in a moment"), m->type);
		return -1;
	}
	c->job = id;
	c->job_msg = xmalloc(sizeof *c->job_msg);
	*c->job_msg = *m;
	auth_wipe(c->job_msg->password, sizeof c->job_msg->password);
	return 0;
}

struct host *lobbyrec_table_for(struct lobby *l, struct lobby_conn *c, struct req *m)
{
	struct host *h = lobbyrec_table_of(l, m->table);
	if (!h)
		lobbyrec_send_error(l, c->id, "no_table", i18n_tr(i18n_of(c->lang), "there is no such table"), m->type);
	return h;
}

/* ---- tables saved when nobody is left at them ---- */

int lobbyrec_saved_index(const struct lobby *l, long id)
{
	for (int i = 0; i < l->nsaved; i++)
		if (l->saved[i].id == id)
			return i;
	return -1;
}

int lobbyrec_saved_holds(const struct lobby *l, const char *name)
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
	if (!name[0] || lobbyrec_user_named(l, name))
		return;
	struct lobby_user *u = lobbyrec_user_named_or_new(l, name);
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
void lobbyrec_saved_add(struct lobby *l, const struct store_table *t)
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
void lobbyrec_send_saved(struct lobby *l, long conn, const char *name, int always)
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
	lobbyrec_send_text(l, conn, proto_dump(json_pack("{s:s, s:o}", "type", "saved", "tables", tables)));
}

/* The players of a saved table who are connected get their list again. */
void lobbyrec_tell_saved(struct lobby *l, char (*seat)[HOST_PLAYER_MAX], int players)
{
	for (int s = 0; s < players; s++) {
		struct lobby_user *u = seat[s][0] ? lobbyrec_user_named(l, seat[s]) : NULL;
		if (u && u->conn >= 0)
			lobbyrec_send_saved(l, u->conn, u->name, 1);
	}
}

/* Remove table i: from the lobby, the directory and the store (its hand
 * history stays in --log-dir). Its members still here are told. */
void lobbyrec_close_table(struct lobby *l, int i, const char *reason, int forget)
{
	struct host *h = l->tables[i];
	for (int k = 0; k < h->nmembers; k++)
		if (h->member[k]->conn >= 0)
			lobbyrec_send_text(l, h->member[k]->conn, proto_dump(json_pack("{s:s, s:I, s:s}", "type", "left", "table",
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

void lobbyrec_remove_table(struct lobby *l, int i)
{
	lobbyrec_close_table(l, i, "closed", 1);
}
