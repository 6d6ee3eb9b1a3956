/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/lobby.h"

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
#include "net/server/lobbyseat.h"


static int game_over(struct host *h);

struct restore_ctx {
	struct lobby *l;
	int failed;
	int running;    /* the tables in play restored too (else only the saved ones listed) */
};

static void restore_one(void *ctx, const struct store_table *t)
{
	struct restore_ctx *r = ctx;
	if (t->state == HOST_SAVED) {
		lobbyrec_saved_add(r->l, t);
		return;
	}
	if (!r->running)
		return;
	/* This process runs it from now: a store shared with other servers
	 * refuses the writes of any that ran it before (fencing). */
	if (store_table_own(r->l->store, t->id) < 0 || lobbytab_restore_table(r->l, t) < 0)
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
	l->tables_per_person = LOBBY_TABLES_PER_PERSON;
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
		lobbyrec_conn_clear(&l->conns[i]);
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
	hashmap_add(&l->byid, (uint32_t)(l->nconns - 1), lobbyrec_conn_key, l);
	snprintf(c->lang, sizeof c->lang, "%s", lang && i18n_lang_known(lang) ? lang : "en");
	snprintf(c->addr, sizeof c->addr, "%s", addr ? addr : "");
}

/* The worker's answer to a message's password (the connection may be
 * gone meanwhile): a hello's password checked, or its new account's hash
 * made; a private table's password hashed, or checked for sit or watch. */
static void on_auth(struct lobby *l, struct lobby_conn *c, const struct auth_answer *a, struct req *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	if (m->type != PM_HELLO && c->user < 0)
		return; /* logged in from elsewhere meanwhile */
	if (m->type == PM_CREATE) {
		if (a->ok)
			lobbytab_make_table(l, c, m, a->hash);
		else
			lobbyrec_send_error(l, c->id, "create", i18n_tr(L, "out of memory"), PM_CREATE);
		return;
	}
	if (m->type == PM_SIT || m->type == PM_WATCH) {
		struct host *h = lobbyrec_table_for(l, c, m);
		if (!h)
			return;
		char key[64];
		lobbytab_table_key(h, key);
		if (!a->ok) {
			auth_failed(&l->auth, key, c->addr, l->now_ms);
			lobbyrec_send_error(l, c->id, "password",
			           m->has_password ? i18n_tr(L, "wrong password") : i18n_tr(L, "this table needs a password"),
			           m->type);
		} else {
			lobbytab_join(l, c, h, m->seat, m->type, m);
		}
		return;
	}
	if (a->verify && !a->ok) {
		auth_failed(&l->auth, m->name, c->addr, l->now_ms);
		lobbyrec_send_error(l, c->id, "password", i18n_tr(L, "wrong password"), PM_HELLO);
	} else if (a->verify) {
		auth_succeeded(&l->auth, m->name);
		lobbyacct_welcome(l, c, m->name, m->lang, 0, NULL);
	} else {
		/* Nobody took the name meanwhile: a hello for a name waiting here
		 * is refused. */
		char hash[AUTH_HASH_MAX];
		if (!a->ok || store_account_get(l->store, m->name, hash, sizeof hash) != 0 ||
		    store_account_put(l->store, m->name, a->hash) < 0)
			lobbyrec_send_error(l, c->id, "store", i18n_tr(L, "the account could not be made"), PM_HELLO);
		else
			lobbyacct_welcome(l, c, m->name, m->lang, 0, NULL);
	}
}

/* Every sentence made for this connection while handling its message is
 * phrased in its language, given as a value (c->lang, L); what the others
 * hear, each view and the host's notices phrase in theirs. No catalogue
 * is switched. */
/* ---- the dispatch: one row a client message ----
 *
 * Each message type the lobby takes has a row: what it needs before its
 * handler runs, checked here in this order (a person logged in on the
 * connection; or, on a connection aside the session, a type it may send;
 * the table it names; that table's creator, or one of its members;
 * moderation, which handles the message), the handler, and the bytes the
 * message may have (checked first, once its type is read: a message that
 * carries no text of its own is small). What a message may hold (its
 * members, their sizes) is checked as it is read (net/server/req). */
enum {
	ROW_PERSON = 1,   /* someone logged in on the connection (else `hello_first`) */
	ROW_ASIDE = 2,    /* allowed on a connection aside the session (else `aside`) */
	ROW_TABLE = 4,    /* the table named exists (else `no_table`) */
	ROW_CREATOR = 8,  /* and the sender made it (else `not_creator`) */
	ROW_MEMBER = 16,  /* and the sender is at it (else `not_member`) */
	ROW_EXT = 32,     /* moderation's (net/server/mod, the lobby's extension) */
};

typedef void row_fn(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms);

struct lobby_row {
	int needs;        /* ROW_* */
	row_fn *run;      /* NULL with ROW_EXT: the extension's message */
	int max_bytes;    /* of the whole message: PROTO_MAX_MESSAGE, or SMALL */
};

#define BIG PROTO_MAX_MESSAGE
#define SMALL PROTO_SMALL_MESSAGE

static void do_ping(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)m, (void)h, (void)now_ms;
	lobbyrec_send_text(l, c->id, proto_dump(json_pack("{s:s}", "type", "pong")));
}

static void do_hello(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)h, (void)now_ms;
	lobbyacct_on_hello(l, c, m);
}

/* A server draining (tapis admin drain) makes no table and starts none:
 * those in play finish, then it stops. */
static int drain_refused(struct lobby *l, struct lobby_conn *c, const char *code, int type)
{
	if (l->draining)
		lobbyrec_send_error(l, c->id, code,
		                    i18n_tr(i18n_of(c->lang), "the server is closing: no new game now, those in play finish"),
		                    type);
	return l->draining;
}

static void do_create(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)h, (void)now_ms;
	if (!drain_refused(l, c, "create", m->type))
		lobbytab_on_create(l, c, m);
}

static void do_enter(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)now_ms;
	if (lobbytab_may_enter(l, c, h, m))
		lobbytab_join(l, c, h, m->seat, m->type, m);
}

static void do_stand(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)now_ms;
	host_stand(h, l->users[c->user].name, m->type == PM_LEAVE);
	lobbyseat_freed(l, h, l->users[c->user].name);
	/* With the table's entry as it is now: theirs was last told when
	 * they came (its members are sent it only while it waits), and the
	 * lobby's list reaches them at its next round. */
	if (m->type == PM_LEAVE)
		lobbyrec_send_text(l, c->id, proto_dump(json_pack("{s:s, s:I, s:s, s:o}", "type", "left", "table",
		                                        (json_int_t)h->id, "reason", "left", "info",
		                                        lobbyround_table_json(h))));
	l->dirty = 1;
}

static void do_start(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	if (h->state != HOST_WAITING || h->starting) {
		lobbyrec_send_error(l, c->id, "start", i18n_tr(i18n_of(c->lang), "the game has already begun"), m->type);
	} else if (drain_refused(l, c, "start", m->type)) {
		return;
	} else if (l->start_spent_ms < l->start_ms) {
		lobbytab_start_now(l, h, now_ms);
	} else {
		h->starting = 1;
		xgrow((void **)&l->starts, &l->capstarts, l->nstarts + 1, sizeof *l->starts);
		l->starts[l->nstarts++] = h->id;
	}
}

static void do_seat(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)now_ms;
	char herr[128];
	if (host_set_seat(h, m->seat, m->kind == PSEAT_OPEN, m->level, i18n_of(c->lang), herr, sizeof herr) < 0)
		lobbyrec_send_error(l, c->id, "seat", herr, m->type);
	l->dirty = 1;
}

static void do_kick(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)now_ms;
	if (m->seat >= h->players || !h->seat[m->seat].name[0]) {
		lobbyrec_send_error(l, c->id, "seat", i18n_tr(i18n_of(c->lang), "nobody holds that seat"), m->type);
		return;
	}
	char who[HOST_PLAYER_MAX];
	snprintf(who, sizeof who, "%s", h->seat[m->seat].name);
	struct host_member *hm = host_member(h, who);
	long their = hm ? hm->conn : -1;
	host_stand(h, who, 1);
	lobbyseat_freed(l, h, who);
	if (their >= 0)
		lobbyrec_send_text(l, their, proto_dump(json_pack("{s:s, s:I, s:s}", "type", "left", "table",
		                                         (json_int_t)h->id, "reason", "removed")));
	/* The seats as they are now, to the members: in play too (the
	 * lobby's updates reach a table still waiting only). */
	if (h->state != HOST_WAITING)
		lobbyround_send_table(l, h);
	l->dirty = 1;
}

static void do_action(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	if (host_action(h, l->users[c->user].name, &m->act, now_ms) == 0 && h->state == HOST_OVER)
		l->dirty = 1;
}

static void do_hint(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)now_ms;
	const char *code, *msg;
	if (host_hint(h, l->users[c->user].name, i18n_of(c->lang), &code, &msg) < 0 && code)
		lobbyrec_send_error(l, c->id, code, msg, m->type);
}

/* Kept for the session: at this table now, at others when joined. */
static void do_verbosity(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)now_ms;
	const char *me = l->users[c->user].name;
	l->users[c->user].verbosity = m->verbosity;
	for (int i = 0; i < l->ntables; i++)
		host_verbosity(l->tables[i], me, m->verbosity, l->tables[i] == h);
}

static void do_chat(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)h, (void)now_ms;
	lobbyacct_chat(l, c, m);
}

/* Answered at the next round: many queries, one snapshot. */
static void do_lobby_query(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)h, (void)now_ms;
	size_t n = strlen(m->text); /* at most PROTO_FILTER_MAX characters: it fits */
	n = n < sizeof c->view.filter - 1 ? n : sizeof c->view.filter - 1;
	memcpy(c->view.filter, m->text, n);
	c->view.filter[n] = '\0';
	c->view.page = (int)m->page;
	c->view.follow = m->follow;
	c->view.want = 1;
	l->dirty = 1;
}

static void do_resume(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)h, (void)now_ms;
	lobbytab_on_resume(l, c, m);
}

static void do_settings(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)h, (void)now_ms;
	lobbyacct_on_settings(l, c, m);
}

static void do_stats(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)h, (void)now_ms;
	lobbyacct_on_stats(l, c, m);
}

static void do_leaders(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)h, (void)now_ms;
	lobbyacct_on_leaders(l, c, m);
}

static void do_history(struct lobby *l, struct lobby_conn *c, struct req *m, struct host *h, long long now_ms)
{
	(void)h, (void)now_ms;
	lobbyacct_on_history(l, c, m);
}

static const struct lobby_row rows[PM_COUNT] = {
	[PM_PING] = { 0, do_ping, SMALL },
	[PM_HELLO] = { 0, do_hello, BIG },
	[PM_CREATE] = { ROW_PERSON, do_create, BIG },
	[PM_SIT] = { ROW_PERSON | ROW_TABLE, do_enter, BIG },
	[PM_WATCH] = { ROW_PERSON | ROW_TABLE, do_enter, BIG },
	[PM_STAND] = { ROW_PERSON | ROW_TABLE, do_stand, SMALL },
	[PM_LEAVE] = { ROW_PERSON | ROW_TABLE, do_stand, SMALL },
	[PM_START] = { ROW_PERSON | ROW_TABLE | ROW_CREATOR, do_start, SMALL },
	[PM_SEAT] = { ROW_PERSON | ROW_TABLE | ROW_CREATOR, do_seat, SMALL },
	[PM_KICK] = { ROW_PERSON | ROW_TABLE | ROW_CREATOR, do_kick, SMALL },
	[PM_ACTION] = { ROW_PERSON | ROW_TABLE | ROW_MEMBER, do_action, SMALL },
	[PM_HINT] = { ROW_PERSON | ROW_TABLE, do_hint, SMALL },
	[PM_VERBOSITY] = { ROW_PERSON | ROW_TABLE | ROW_MEMBER, do_verbosity, SMALL },
	[PM_CHAT] = { ROW_PERSON, do_chat, BIG },
	[PM_LOBBY_QUERY] = { ROW_PERSON, do_lobby_query, SMALL },
	[PM_RESUME] = { ROW_PERSON, do_resume, SMALL },
	[PM_SETTINGS] = { ROW_PERSON, do_settings, BIG },
	[PM_STATS] = { ROW_PERSON | ROW_ASIDE, do_stats, SMALL },
	[PM_LEADERS] = { ROW_PERSON | ROW_ASIDE, do_leaders, SMALL },
	[PM_HISTORY] = { ROW_PERSON | ROW_ASIDE, do_history, SMALL },
	[PM_INVITE] = { ROW_PERSON | ROW_EXT, NULL, BIG },
	[PM_REMATCH] = { ROW_PERSON | ROW_EXT, NULL, SMALL },
	[PM_MOD] = { ROW_PERSON | ROW_EXT, NULL, BIG },
	[PM_MUTE] = { ROW_PERSON | ROW_EXT, NULL, BIG },
};

int lobby_dispatches(int type)
{
	return type > PM_NONE && type < PM_COUNT && (rows[type].run || (rows[type].needs & ROW_EXT));
}

int lobby_message_max(int type)
{
	return lobby_dispatches(type) ? rows[type].max_bytes : 0;
}

static void handle_message(struct lobby *l, struct lobby_conn *c, const char *text, size_t len, long long now_ms)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	long conn = c->id;
	struct req m;
	char err[ERR_MAX];
	if (req_read(text, len, &m, L, err, sizeof err) < 0) {
		lobbyrec_send_error(l, conn, "bad_message", err, m.type); /* its type when known */
		return;
	}
	const struct lobby_row *r = lobby_dispatches(m.type) ? &rows[m.type] : NULL;
	if (r && len > (size_t)r->max_bytes) {
		char why[ERR_MAX];
		snprintf(why, sizeof why, i18n_tr(L, "message too long (at most %d bytes)"), r->max_bytes);
		lobbyrec_send_error(l, conn, "too_long", why, m.type);
		return;
	}
	if (r && (r->needs & ROW_PERSON) && c->user < 0) {
		lobbyrec_send_error(l, conn, "hello_first", i18n_tr(L, "say hello first"), m.type);
		return;
	}
	if (c->user >= 0 && c->aside && (!r || ((r->needs & ROW_PERSON) && !(r->needs & ROW_ASIDE)))) {
		lobbyrec_send_error(l, conn, "aside", i18n_tr(L, "this connection only fetches histories and figures"), m.type);
		return;
	}
	if (!r || ((r->needs & ROW_EXT) && !l->ext)) {
		lobbyrec_send_error(l, conn, "bad_message", i18n_tr(L, "unexpected message"), m.type);
		return;
	}
	struct host *h = NULL;
	if ((r->needs & ROW_TABLE) && !(h = lobbyrec_table_for(l, c, &m)))
		return;
	if ((r->needs & ROW_CREATOR) && !lobbytab_is_creator(l, c, h, m.type))
		return;
	if ((r->needs & ROW_MEMBER) && !host_member(h, l->users[c->user].name)) {
		lobbyrec_send_error(l, conn, "not_member", i18n_tr(L, "you are not at this table"), m.type);
		return;
	}
	if (r->needs & ROW_EXT)
		l->ext->message(l, c, &m, now_ms);
	else
		r->run(l, c, &m, h, now_ms);
	if (m.type == PM_HELLO)
		auth_wipe(&m, sizeof m);
}

void lobby_message(struct lobby *l, long conn, const char *text, size_t len, long long now_ms)
{
	l->now_ms = now_ms;
	struct lobby_conn *c = lobbyrec_conn_of(l, conn);
	if (!c)
		return;
	if (!c->job) {
		handle_message(l, c, text, len, now_ms);
		return;
	}
	/* Its password is being hashed or checked: it waits its turn. */
	if (c->nheld == LOBBY_HELD_MAX) {
		lobbyrec_send_error(l, conn, "rate", i18n_tr(i18n_of(c->lang), "too many messages: slow down"), PM_NONE);
		return;
	}
	xgrow((void **)&c->held, &c->capheld, c->nheld + 1, sizeof *c->held);
	c->held[c->nheld].text = xmalloc(len + 1);
	memcpy(c->held[c->nheld].text, text, len);
	c->held[c->nheld].text[len] = '\0';
	c->held[c->nheld++].len = len;
}

/* A connection's messages held while it waited, handled (until one waits
 * again). */
static void held_go_on(struct lobby *l, struct lobby_conn *c, long long now_ms)
{
	int k = 0;
	for (; k < c->nheld && !c->job; k++) {
		handle_message(l, c, c->held[k].text, c->held[k].len, now_ms);
		free(c->held[k].text);
	}
	if (k)
		memmove(c->held, c->held + k, (size_t)(c->nheld - k) * sizeof *c->held);
	c->nheld -= k;
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
			/* Done with (the answer may give the connection a job of
			 * another kind: a seat's key). */
			struct req *m = c->job_msg;
			c->job_msg = NULL;
			c->job = 0;
			on_auth(l, c, &a, m);
			auth_wipe(m, sizeof *m);
			free(m);
			held_go_on(l, c, now_ms);
		}
		auth_wipe(&a, sizeof a);
	}
}

void lobby_seat_answer(struct lobby *l, long conn, long table, int won, long at, int seat, long long now_ms)
{
	l->now_ms = now_ms;
	struct lobby_conn *c = lobbyrec_conn_of(l, conn);
	if (!c || c->job != LOBBY_JOB_SEAT || c->job_msg->table != table)
		return;
	struct req *m = c->job_msg;
	c->job_msg = NULL;
	c->job = 0;
	lobbytab_seat_keyed(l, c, m, won, at, seat);
	free(m);
	held_go_on(l, c, now_ms);
}

const char *lobby_lang(struct lobby *l, long conn)
{
	struct lobby_conn *c = lobbyrec_conn_of(l, conn);
	return c ? c->lang : "en";
}

int lobby_logged_in(struct lobby *l, long conn)
{
	struct lobby_conn *c = lobbyrec_conn_of(l, conn);
	return c && c->user >= 0;
}

int lobby_hello_waiting(struct lobby *l, long conn)
{
	struct lobby_conn *c = lobbyrec_conn_of(l, conn);
	return c && c->job && c->job_msg->type == PM_HELLO;
}

void lobby_close(struct lobby *l, long conn, long long now_ms)
{
	l->now_ms = now_ms;
	struct lobby_conn *c = lobbyrec_conn_of(l, conn);
	if (!c)
		return;
	lobbyacct_logout(l, c, now_ms);
	lobbyrec_conn_clear(c);
	uint32_t i = (uint32_t)(c - l->conns), last = (uint32_t)--l->nconns;
	hashmap_remove(&l->byid, i, lobbyrec_conn_key, l);
	if (i != last) {
		*c = l->conns[last];
		hashmap_move(&l->byid, last, i, lobbyrec_conn_key, l);
	}
}

int lobby_work(struct lobby *l, long long now_ms)
{
	l->now_ms = now_ms;
	return l->cfg.work ? work_collect(l->cfg.work) : 0;
}

void lobby_tick(struct lobby *l, long long now_ms)
{
	l->now_ms = now_ms;
	lobbytab_start_waiting(l, now_ms);
	collect(l, now_ms);
	lobby_work(l, now_ms); /* bots' moves and hints not collected at a wake-up */
	/* The tables due (their timers, or touched since), then a slice of
	 * the others so that each is looked at once a second whatever
	 * happens. */
	struct due_item d;
	while (due_pop(&l->due, now_ms, &d)) {
		int i = lobbyrec_table_index(l, d.id);
		if (i >= 0 && l->tables[i]->due_ms == d.at)
			lobbytab_tick_table(l, i, now_ms);
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
			if (!lobbytab_tick_table(l, l->sweep, now_ms))
				l->sweep++;
		}
	}
	if (l->ext)
		l->ext->tick(l, now_ms);
	long long gap = l->list_gap_ms > LOBBY_LIST_MS ? l->list_gap_ms : LOBBY_LIST_MS;
	if (l->dirty && (now_ms - l->list_ms >= gap || now_ms < l->list_ms)) {
		l->dirty = 0;
		l->list_ms = now_ms;
		unsigned char *at = lobbyround_users_at_tables(l);
		lobbyacct_prune_users(l, at);
		lobbyround_tell_changes(l, at);   /* what each page shows, before the round changes it */
		l->list_gap_ms = (long long)(lobbyround_round(l, at) * 1000 / LOBBY_LIST_BYTES_S);
		free(at);
	}
}
