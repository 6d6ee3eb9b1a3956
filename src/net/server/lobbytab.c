/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/lobbytab.h"

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

#include "net/server/lobbyrec.h"
#include "net/server/lobbyround.h"
#include "net/server/lobbyacct.h"
#include "net/server/lobbyseat.h"

int lobbytab_restore_table(struct lobby *l, const struct store_table *t)
{
	struct host *h = xcalloc(1, sizeof *h);
	char err[ERR_MAX];
	if (host_restore(h, t, l->store, &l->cfg, lobbyrec_host_out(l), l->now_ms, err, sizeof err) < 0) {
		log_say("%s", err);
		host_free(h);
		free(h);
		return -1;
	}
	lobbytab_add_restored(l, h);
	return 0;
}

void lobbytab_add_restored(struct lobby *l, struct host *h)
{
	h->store = l->store;
	h->cfg = &l->cfg;
	h->out = lobbyrec_host_out(l);
	lobbyrec_add_table(l, h);
	/* Its players are known by name: they sit back down when they return,
	 * or now when they are here already (logged in on this server before it
	 * took the table over from another). */
	for (int i = 0; i < h->nmembers; i++) {
		struct lobby_user *here = lobbyrec_user_named(l, h->member[i]->name);
		struct lobby_conn *c = here && here->conn >= 0 ? lobbyrec_conn_of(l, here->conn) : NULL;
		/* In a cluster the seat's key is taken again: had by another
		 * table meanwhile, this seat is given up. */
		if (h->member[i]->seat >= 0 && l->seats)
			l->seats->take(l->seats->ctx, -1, h->member[i]->name, h->id, 0);
		if (c && c->user == (int)(here - l->users)) {
			lobbyacct_seat_back(l, c, here, h);
			continue;
		}
		/* (In a cluster a spectator holds no name: one gone from its
		 * node is forgotten there, its session with it. A server alone
		 * keeps the spectator's name for their return.) */
		if (!here && (h->member[i]->seat >= 0 || !l->far)) {
			struct lobby_user *u = lobbyrec_user_named_or_new(l, h->member[i]->name);
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

int lobbytab_is_creator(struct lobby *l, struct lobby_conn *c, struct host *h, int type)
{
	if (strcmp(h->creator, l->users[c->user].name) != 0) {
		lobbyrec_send_error(l, c->id, "not_creator",
		           i18n_tr(i18n_of(c->lang), "only the table's creator may do that"), type);
		return 0;
	}
	return 1;
}

/* The key of a private table's password in the limiter: no name holds a #. */
void lobbytab_table_key(const struct host *h, char key[64])
{
	snprintf(key, 64, "#%ld", h->id);
}

/* A private table's password, unless already a member or its creator: 1
 * to enter now, 0 not now (refused, or its password given to the worker:
 * the answer comes to on_auth). */
int lobbytab_may_enter(struct lobby *l, struct lobby_conn *c, struct host *h, struct req *m)
{
	const char *name = l->users[c->user].name;
	if (!h->private_ || host_member(h, name) || !strcmp(h->creator, name) || (l->ext && l->ext->invited(l, h->id, &l->users[c->user])))
		return 1;
	char key[64];
	lobbytab_table_key(h, key);
	long long wait = auth_wait(&l->auth, key, c->addr, l->now_ms);
	if (wait > 0) {
		lobbyrec_send_error(l, c->id, "wait",
		           i18n_tr(i18n_of(c->lang), "too many wrong passwords: try again later"), m->type);
		return 0;
	}
	/* No password is checked as a wrong one is, on the worker: a refusal
	 * costs what a guess costs, so that a crowd of them neither comes
	 * faster than guesses nor fills the limiter for free (net/auth). */
	lobbyrec_submit(l, c, m, h->pwhash);
	return 0;
}

/* One person, one table: taking a seat at h gives up a seat held at any
 * other table (away or not), as a stand does (a bot plays it, and it
 * opens); they stay there as a spectator (its state says seat -1), so
 * that a table they made and wait at is not removed, when they are
 * there: a seat they were away from is left whole (else, a member of
 * that table still, they would never hear the lobby again). */
static void leave_other_seats(struct lobby *l, struct lobby_conn *c, const struct host *h)
{
	const char *name = l->users[c->user].name;
	for (int i = 0; i < l->ntables; i++) {
		struct host *o = l->tables[i];
		struct host_member *hm = o == h ? NULL : host_member(o, name);
		if (!hm || hm->seat < 0)
			continue;
		host_stand(o, name, hm->conn < 0);
		l->dirty = 1;
	}
}

/* One person, one table, by their choice: a sit at h (NULL: the table a
 * create makes) from one who holds a seat where a game goes on, here or
 * on another node, without give_up, is answered with a question: keep
 * that seat and go back (a sit there), or give it up and go on (the same
 * request again, with give_up). 1 when asked, 0 to go on. */
static int ask_seat_held(struct lobby *l, struct lobby_conn *c, const struct host *h, const struct req *m)
{
	return lobbyseat_ask_held(l, c, h ? h->id : 0, !h, m->give_up);
}

static void join(struct lobby *l, struct lobby_conn *c, struct host *h, int seat, int type, const struct req *m,
                 int keyed);

void lobbytab_join(struct lobby *l, struct lobby_conn *c, struct host *h, int seat, int type, const struct req *m)
{
	join(l, c, h, seat, type, m, 0);
}

void lobbytab_seat_keyed(struct lobby *l, struct lobby_conn *c, const struct req *m, int won, long at, int seat)
{
	struct host *h = lobbyrec_table_of(l, m->table);
	if (c->user < 0)
		return;
	if (!h) { /* gone meanwhile */
		lobbyrec_send_error(l, c->id, "no_table", i18n_tr(i18n_of(c->lang), "there is no such table"), m->type);
		return;
	}
	if (won)
		join(l, c, h, m->seat, m->type, m, 1);
	else
		lobbyseat_ask(l, c, 0, at, seat);
}

void lobbytab_seat_restored(struct lobby *l, long table, const char *name, int won)
{
	if (!won) /* they sat elsewhere while the table's node was lost */
		lobbyseat_give_up(l, table, name);
}

/* c's person sits (or watches) at h; m: the sit asked (NULL: a create's
 * seat, asked about before the table was made); keyed: in a cluster, the
 * person's key had (lobbyseat_hold), nothing more to ask. */
static void join(struct lobby *l, struct lobby_conn *c, struct host *h, int seat, int type, const struct req *m,
                 int keyed)
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
				lobbyrec_send_error(l, c->id, "no_seat", i18n_tr(L, "no seat is free at this table"), type);
				return;
			}
		}
	}
	if (type == PM_WATCH && hm && hm->seat >= 0) {
		lobbyrec_send_error(l, c->id, "seated", i18n_tr(L, "you hold a seat at this table: stand up first"), type);
		return;
	}
	if (type == PM_SIT && hm && hm->seat >= 0 && hm->seat != seat) {
		lobbyrec_send_error(l, c->id, "seated", i18n_tr(L, "you already hold a seat at this table"), type);
		return;
	}
	if (type == PM_SIT && !(hm && hm->seat >= 0) &&
	    host_may_sit(h, u->name, seat, L, err, sizeof err) < 0) {
		lobbyrec_send_error(l, c->id, "seat", err, type);
		return;
	}
	int sits = type == PM_SIT && !(hm && hm->seat >= 0); /* a seat taken now, not one's own again */
	/* A sit that may be taken, from one who holds a seat where a game
	 * goes on: asked first. */
	if (sits && m && !keyed && ask_seat_held(l, c, h, m))
		return;
	if (sits && !keyed && lobbyseat_hold(l, c, h, type, m))
		return;
	if (type == PM_SIT)
		leave_other_seats(l, c, h);
	/* Back at one's own seat (a member already: host_join cannot fail),
	 * "joined" first, as a return at the hello: the state and "You are
	 * back" that host_join sends are then of the client's table. */
	int own = type == PM_SIT && !sits;
	if (own)
		lobbyrec_send_text(l, c->id, lobbyround_arrival_joined_msg(h, hm->seat, u->name, u->lang));
	if (host_join(h, u->name, u->lang, c->id, type == PM_WATCH ? -1 : seat, l->now_ms, err, sizeof err) < 0) {
		lobbyrec_send_error(l, c->id, "seat", err, type);
		return;
	}
	struct host_member *now = host_member(h, u->name);
	host_verbosity(h, u->name, u->verbosity, 0);
	if (!own)
		lobbyrec_send_text(l, c->id, lobbyround_arrival_joined_msg(h, now ? now->seat : -1, u->name, u->lang));
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
	if (mine >= l->tables_per_person)
		return i18n_tr(i18n_of(c->lang), "you have made too many tables: finish one first");
	if (l->tables_per_addr > 0 && here >= l->tables_per_addr)
		return i18n_tr(i18n_of(c->lang), "too many tables from your address: finish one first");
	if (l->tables_per_addr > 0 && near >= LOBBY_TABLES_PER_PREFIX)
		return i18n_tr(i18n_of(c->lang), "too many tables from your network: finish one first");
	if (l->tables_max > 0 && all >= l->tables_max)
		return i18n_tr(i18n_of(c->lang), "the server has too many tables: try again later");
	return NULL;
}

static int open_seats(const struct req *m)
{
	int open = 0;
	for (int s = 0; s < m->players; s++)
		open += m->seat_kind[s] == PSEAT_OPEN;
	return open;
}

/* Make the table of a create (pwhash: its password's hash, a private
 * one's), the creator seated or watching. */
void lobbytab_make_table(struct lobby *l, struct lobby_conn *c, struct req *m, const char *pwhash)
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
		lobbyrec_send_error(l, c->id, "wait",
		           i18n_tr(i18n_of(c->lang), "the server is busy: try again in a moment"), PM_CREATE);
		return;
	}
	struct host *h = xcalloc(1, sizeof *h);
	char err[ERR_MAX];
	if (host_create(h, id, m->game, m->players, &m->rules, seed, from, l->users[c->user].name, l->store,
	                &l->cfg, lobbyrec_host_out(l), err, sizeof err) < 0) {
		lobbyrec_send_error(l, c->id, "create", err, PM_CREATE);
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
	lobbyrec_add_table(l, h);
	snprintf(l->made_from[l->ntables - 1], sizeof *l->made_from, "%s", c->addr);
	host_save(h);
	lobbyrec_send_text(l, c->id, proto_dump(json_pack("{s:s, s:I}", "type", "created", "table", (json_int_t)id)));
	lobbytab_join(l, c, h, -1, open_seats(m) ? PM_SIT : PM_WATCH, NULL);
}

void lobbytab_on_create(struct lobby *l, struct lobby_conn *c, struct req *m)
{
	if (open_seats(m) && ask_seat_held(l, c, NULL, m))
		return;
	const char *why = too_many_tables(l, c);
	if (why) {
		lobbyrec_send_error(l, c->id, "tables", why, PM_CREATE);
		return;
	}
	int open = open_seats(m);
	/* Whoever knows the seed knows every hand: a client's seed (the same
	 * game again, tests) only where no other person may sit; elsewhere
	 * the server's own secret, never sent. 63 bits from the system's
	 * random source (a hand history's JSON integer holds no more). */
	if (m->has_seed && open > 1) {
		lobbyrec_send_error(l, c->id, "create",
		           i18n_tr(i18n_of(c->lang), "a seed may be chosen only when every other seat is a bot"), PM_CREATE);
		return;
	}
	/* A private table's password is hashed by the worker: the table is
	 * made with its answer (on_auth). */
	if (m->private_)
		lobbyrec_submit(l, c, m, NULL);
	else
		lobbytab_make_table(l, c, m, NULL);
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
		lobbyrec_remove_table(l, i);
		return 1;
	}
	struct store_table *row = xmalloc(sizeof *row);
	host_row(h, row);
	row->state = HOST_SAVED;
	if (store_table_put(l->store, row) < 0) {
		free(row); /* tried again at the next tick */
		return 0;
	}
	lobbyrec_saved_add(l, row);
	free(row);
	lobbyrec_close_table(l, i, "saved", 0);
	lobbyrec_tell_saved(l, l->saved[l->nsaved - 1].seat, l->saved[l->nsaved - 1].players);
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
			lobbyseat_freed(l, h, who);
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
	lobbyrec_send_text(l, c->id, lobbyround_arrival_joined_msg(h, seat, u->name, u->lang));
	host_join(h, u->name, u->lang, c->id, seat, l->now_ms, err, sizeof err);
	host_verbosity(h, u->name, u->verbosity, 0);
	l->dirty = 1;
}

/* "resume": a player of a saved table takes it up again, at their seat;
 * the others sit back down when they come, or resume it too (the second
 * of two at once finds it taken up already: back at their seat). */
void lobbytab_on_resume(struct lobby *l, struct lobby_conn *c, struct req *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	int k = lobbyrec_saved_index(l, m->table);
	if (k < 0) {
		struct host *live = lobbyrec_table_of(l, m->table);
		for (int s = 0; live && s < live->players; s++)
			if (!strcmp(live->seat[s].name, l->users[c->user].name)) {
				resumed_at(l, c, live, s);
				return;
			}
		lobbyrec_send_error(l, c->id, "no_table", i18n_tr(L, "there is no such table"), PM_RESUME);
		return;
	}
	const char *me = l->users[c->user].name;
	int seat = -1;
	for (int s = 0; s < l->saved[k].players && seat < 0; s++)
		if (!strcmp(l->saved[k].seat[s], me))
			seat = s;
	if (seat < 0) {
		lobbyrec_send_error(l, c->id, "not_member", i18n_tr(L, "you hold no seat at this table"), PM_RESUME);
		return;
	}
	struct row_find f = { m->table, NULL };
	char err[ERR_MAX];
	struct host *h = xcalloc(1, sizeof *h);
	/* Taken over in the store first (fencing), as a restored table. */
	if (store_table_own(l->store, m->table) < 0 || store_table_each(l->store, row_of, &f) < 0 || !f.row ||
	    host_restore(h, f.row, l->store, &l->cfg, lobbyrec_host_out(l), l->now_ms, err, sizeof err) < 0) {
		lobbyrec_send_error(l, c->id, "store", i18n_tr(L, "the table could not be taken up again"), PM_RESUME);
		free(f.row);
		free(h);
		return;
	}
	free(f.row);
	struct lobby_saved sv = l->saved[k];
	memmove(&l->saved[k], &l->saved[k + 1], (size_t)(l->nsaved - k - 1) * sizeof *l->saved);
	l->nsaved--;
	lobbyrec_add_table(l, h);
	host_save(h);   /* in play again, in the store too */
	resumed_at(l, c, h, seat); /* as when coming back to a table */
	lobbyrec_tell_saved(l, sv.seat, sv.players);
}

int lobbytab_drop_table(struct lobby *l, long id)
{
	for (int i = 0; i < l->ntables; i++)
		if (l->tables[i]->id == id) {
			lobbyrec_close_table(l, i, "moved", 0);
			return 1;
		}
	return 0;
}

/* Table i's timers: closed when its time is up, saved when idle, its
 * away players' seats released, its bots' and turn timer's moves; then
 * when it is next due. 1 when it went. */
int lobbytab_tick_table(struct lobby *l, int i, long long now_ms)
{
	struct host *h = l->tables[i];
	if (host_expired(h, now_ms)) {
		lobbyrec_remove_table(l, i);
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
		lobbyrec_table_due(l, h, due);
	return 0;
}

/* A table's game begun now, its time counted against LOBBY_START_MS on
 * the loop thread's CPU clock: a loop preempted by another process spends
 * none of its budget waiting. */
void lobbytab_start_now(struct lobby *l, struct host *h, long long now_ms)
{
	char err[ERR_MAX];
	double t0 = clock_cpu_s();
	h->starting = 0;
	if (host_start(h, now_ms, i18n_of("en"), err, sizeof err) < 0)
		log_say("table %ld: %s", h->id, err);
	l->start_spent_ms += (clock_cpu_s() - t0) * 1e3;
	l->dirty = 1;
}

/* The starts that waited, in turn, as long as the time allows (one at
 * least). */
void lobbytab_start_waiting(struct lobby *l, long long now_ms)
{
	l->start_spent_ms = 0;
	int k = 0;
	while (k < l->nstarts && (k == 0 || l->start_spent_ms < l->start_ms)) {
		int i = lobbyrec_table_index(l, l->starts[k++]);
		struct host *h = i >= 0 ? l->tables[i] : NULL;
		if (h && h->starting && h->state == HOST_WAITING)
			lobbytab_start_now(l, h, now_ms);
		else if (h)
			h->starting = 0;
	}
	if (k) {
		memmove(l->starts, l->starts + k, (size_t)(l->nstarts - k) * sizeof *l->starts);
		l->nstarts -= k;
	}
}
