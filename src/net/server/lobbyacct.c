/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/lobbyacct.h"

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

static void rejoin(struct lobby *l, struct lobby_conn *c, struct lobby_user *u);

void lobbyacct_logout(struct lobby *l, struct lobby_conn *c, long long now_ms)
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
	return lobbyrec_saved_holds(l, name);
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
	lobbyrec_send_text(l, c->id, proto_dump(settings_json(&x)));
}

static int registered_only(struct lobby *l, struct lobby_conn *c, int type)
{
	if (!l->users[c->user].guest)
		return 1;
	lobbyrec_send_error(l, c->id, "guest",
	           i18n_tr(i18n_of(c->lang), "only a player with a password has that: log in with one"), type);
	return 0;
}

void lobbyacct_on_settings(struct lobby *l, struct lobby_conn *c, struct req *m)
{
	if (!registered_only(l, c, m->type))
		return;
	struct lobby_user *u = &l->users[c->user];
	struct store_settings x;
	if (store_settings_get(l->store, u->name, &x) != 1) {
		lobbyrec_send_error(l, c->id, "store",
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
		lobbyrec_send_error(l, c->id, "store", i18n_tr(i18n_of(c->lang), "your settings could not be kept"), m->type);
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
	lobbyrec_send_text(l, c->id, proto_dump(o));
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

void lobbyacct_on_stats(struct lobby *l, struct lobby_conn *c, struct req *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	if (!registered_only(l, c, m->type))
		return;
	const char *me = l->users[c->user].name;
	struct stats_gather g = { json_array(), "", m->game, 0, L };
	if (store_stat_each(l->store, me, gather_stat, &g) < 0) {
		json_decref(g.arr);
		lobbyrec_send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its figures now"), m->type);
		return;
	}
	if (!g.n && m->game)
		snprintf(g.text, sizeof g.text, i18n_tr(L, "You have finished no game of %s here yet."),
		         i18n_tr(L, m->game->title));
	else if (!g.n)
		snprintf(g.text, sizeof g.text, "%s", i18n_tr(L, "You have finished no game here yet."));
	lobbyrec_send_text(l, c->id, proto_dump(json_pack("{s:s, s:s, s:o, s:s}", "type", "stats", "name", me, "games", g.arr,
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

void lobbyacct_on_leaders(struct lobby *l, struct lobby_conn *c, struct req *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	struct stats_gather g = { json_array(), "", m->game, 0, L };
	if (store_leaders(l->store, m->game->name, STATS_LEADERS, gather_leader, &g) < 0) {
		json_decref(g.arr);
		lobbyrec_send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its figures now"), m->type);
		return;
	}
	char text[sizeof g.text + 200];
	if (g.n)
		snprintf(text, sizeof text, i18n_tr(L, "Best rated at %s: %s."), i18n_tr(L, m->game->title), g.text);
	else
		snprintf(text, sizeof text, i18n_tr(L, "Nobody is rated at %s yet."), i18n_tr(L, m->game->title));
	lobbyrec_send_text(l, c->id, proto_dump(json_pack("{s:s, s:s, s:o, s:s}", "type", "leaders", "game", m->game->name,
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
void lobbyacct_on_history(struct lobby *l, struct lobby_conn *c, struct req *m)
{
	const struct i18n_lang *L = i18n_of(c->lang);
	if (!registered_only(l, c, m->type))
		return;
	struct recent_gather g = { json_array(), m->table, { 0 }, 0 };
	if (store_recent(l->store, l->users[c->user].name, gather_recent, &g) < 0) {
		json_decref(g.arr);
		lobbyrec_send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its figures now"), m->type);
		return;
	}
	if (!g.has) {
		json_decref(g.arr);
		lobbyrec_send_error(l, c->id, "no_game",
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
			lobbyrec_send_error(l, c->id, "history_too_long",
			           i18n_tr(L, "that hand history is too long to be sent"), m->type);
		else
			lobbyrec_send_error(l, c->id, "no_history",
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
		lobbyrec_send_error(l, c->id, "no_history",
		           i18n_tr(L, "the server keeps no hand history of that table"), m->type);
		return;
	}
	lobbyrec_send_text(l, c->id, proto_dump(o));
}

void lobbyacct_welcome(struct lobby *l, struct lobby_conn *c, const char *name, const char *lang, int guest,
                    const char *resume_token)
{
	struct lobby_user *u = lobbyrec_user_named_or_new(l, name);
	if (c->aside) {
		/* Beside the session: it replaces nothing, is in no lobby and at
		 * no table, and asks only for histories and figures. */
		c->user = (int)(u - l->users);
		if (u->conn < 0) {
			snprintf(u->lang, sizeof u->lang, "%s", lang);
			u->guest = guest;
		}
		lobbyrec_send_text(l, c->id, proto_dump(json_pack("{s:s, s:i, s:s, s:b, s:s, s:s, s:b}", "type", "welcome", "version",
		                                         PROTO_VERSION, "name", u->name, "guest", guest, "token", "",
		                                         "lang", lang, "aside", 1)));
		return;
	}
	if (u->conn >= 0 && u->conn != c->id) {
		/* The same person again, on a new connection: the old one is left. */
		struct lobby_conn *old = lobbyrec_conn_of(l, u->conn);
		if (old) {
			lobbyrec_send_error(l, old->id, "replaced", i18n_tr(i18n_of(old->lang), "logged in from elsewhere"), PM_NONE);
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
		log_at(LOGL_ERROR, "the session of %s is not stored", u->name);
	account_settings_load(l, c, u, 0);
	u->conn = c->id;
	c->user = (int)(u - l->users);
	char arrival[160];
	if (l->ext)
		l->ext->login(l, u->name, guest);
	lobbyrec_send_text(l, c->id, proto_dump(json_pack("{s:s, s:i, s:s, s:b, s:s, s:s, s:s}", "type", "welcome", "version",
	                                         PROTO_VERSION, "name", u->name, "guest", guest, "token", token,
	                                         "lang", u->lang, "text", lobbyround_arrival(l, u->lang, arrival,
	                                                                                 sizeof arrival))));
	account_settings_load(l, c, u, 1);
	/* The lobby's first page; then what changes in it, while at no table. */
	memset(&c->view, 0, sizeof c->view);
	lobbyround_send_snapshot(l, c, NULL);
	c->view.listening = 1;
	lobbyrec_send_saved(l, c->id, u->name, 0);
	/* Bound for a table of its own (--create, --table): asked there
	 * whether to keep a seat held elsewhere (net/server/lobbyseat), and
	 * not taken back to another node's table either (c->going stays
	 * for net/cluster/clnet). */
	if (!c->going)
		rejoin(l, c, u);
	l->dirty = 1;
}

void lobbyacct_relayed_login(struct lobby *l, long conn, const char *name, const char *lang, int guest)
{
	struct lobby_conn *c = lobbyrec_conn_of(l, conn);
	if (!c || conn < LOBBY_RELAYED_CONN)
		return;
	if (c->user >= 0) { /* asked again: where they are, sent again */
		if (!strcmp(l->users[c->user].name, name))
			rejoin(l, c, &l->users[c->user]);
		return;
	}
	struct lobby_user *u = lobbyrec_user_named_or_new(l, name);
	if (u->conn >= 0 && u->conn < LOBBY_RELAYED_CONN)
		return; /* a guest of that name here (names are checked across nodes at hello) */
	if (u->conn >= 0 && u->conn != conn) {
		struct lobby_conn *old = lobbyrec_conn_of(l, u->conn);
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
void lobbyacct_seat_back(struct lobby *l, struct lobby_conn *c, struct lobby_user *u, struct host *h)
{
	struct host_member *hm = host_member(h, u->name);
	if (!hm)
		return;
	char err[ERR_MAX];
	lobbyrec_send_text(l, c->id, lobbyround_joined_msg(h, hm->seat));
	host_join(h, u->name, u->lang, c->id, hm->seat, l->now_ms, err, sizeof err);
	if (!u->guest) /* the length of announcements the account keeps */
		host_verbosity(h, u->name, u->verbosity, 0);
}

/* Back at the tables where they were: seats are kept, and so are
 * spectators' places. */
static void rejoin(struct lobby *l, struct lobby_conn *c, struct lobby_user *u)
{
	for (int i = 0; i < l->ntables; i++)
		lobbyacct_seat_back(l, c, u, l->tables[i]);
}

void lobbyacct_on_hello(struct lobby *l, struct lobby_conn *c, struct req *m)
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
		lobbyrec_send_error(l, c->id, "version", text, PM_HELLO);
		l->io.close(l->io.ctx, c->id);
		return;
	}
	if (c->user >= 0) {
		lobbyrec_send_error(l, c->id, "already", i18n_tr(L, "this connection is already logged in"), PM_HELLO);
		return;
	}
	if (c->aside && !m->has_password) {
		lobbyrec_send_error(l, c->id, "guest", i18n_tr(L, "only an account may connect aside its session"), PM_HELLO);
		return;
	}
	if (name_pending(l, m->name)) {
		lobbyrec_send_error(l, c->id, "wait", i18n_tr(L, "that name is logging in: try again in a moment"), PM_HELLO);
		return;
	}
	char hash[AUTH_HASH_MAX];
	int has_account = store_account_get(l->store, m->name, hash, sizeof hash);
	if (has_account < 0) {
		lobbyrec_send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its accounts now"), PM_HELLO);
		return;
	}
	if (l->ext && l->ext->login_refused(l, c->id, m->name)) /* banned: until when, and why */
		return;
	struct lobby_user *u = lobbyrec_user_named(l, m->name);
	/* A new name may not look like one known here (net/ident). */
	struct ident_keys nk;
	ident_keys_of(m->name, &nk);
	const struct lobby_user *alike = !u && !has_account ? lobbyrec_user_alike_keys(l, &nk) : NULL;
	/* Nor like an account's, here or not (the store's index of looks). */
	char other[HOST_PLAYER_MAX] = "";
	if (!alike && !u && !has_account && store_account_alike(l->store, m->name, other, sizeof other) < 0) {
		lobbyrec_send_error(l, c->id, "store", i18n_tr(L, "the server cannot read its accounts now"), PM_HELLO);
		return;
	}
	if (alike || other[0]) {
		char text[200];
		snprintf(text, sizeof text, i18n_tr(L, "that name looks too much like that of %s, who is known here"),
		         alike ? alike->name : other);
		lobbyrec_send_error(l, c->id, "name_alike", text, PM_HELLO);
		return;
	}
	if (m->has_password) {
		long long wait = auth_wait(&l->auth, m->name, c->addr, l->now_ms);
		if (wait > 0) {
			char text[96];
			snprintf(text, sizeof text, i18n_tr(L, "too many wrong passwords: try again in %lld s"),
			         (wait + 999) / 1000);
			lobbyrec_send_error(l, c->id, "wait", text, PM_HELLO);
			return;
		}
		if (has_account) {
			lobbyrec_submit(l, c, m, hash);
			return;
		}
		/* A guest's name, while they are here, hold a seat or may come
		 * back with their token, is theirs: no account is made on it. */
		if (u && u->conn >= 0) {
			lobbyrec_send_error(l, c->id, "name_in_use", i18n_tr(L, "a guest of that name is here now"), PM_HELLO);
			return;
		}
		if (u && (u->token_hash[0] || at_a_table(l, u->name))) {
			lobbyrec_send_error(l, c->id, "name_in_use", i18n_tr(L, "that name is in use"), PM_HELLO);
			return;
		}
		if (l->registration_closed) {
			lobbyrec_send_error(l, c->id, "closed",
			                    i18n_tr(L, "this server makes no new accounts: come without a password, as a guest"),
			                    PM_HELLO);
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
			lobbyrec_send_error(l, c->id, "wait", text, PM_HELLO);
			return;
		}
		if (lobbyrec_submit(l, c, m, NULL) == 0)
			auth_created(&l->auth, c->addr, l->now_ms);
		return;
	}
	if (has_account) {
		lobbyrec_send_error(l, c->id, "password", i18n_tr(L, "this name has a password"), PM_HELLO);
		return;
	}
	/* A guest name is the session's: while in use or holding a seat,
	 * it comes back only with its token (none known after a restart
	 * whose session expired: nobody may take the seat by name). */
	int resumed = u && u->token_hash[0] && auth_token_matches(u->token_hash, m->token);
	if (!resumed && l->far && l->far->person(l->far->ctx, m->name)) { /* a guest on another node */
		lobbyrec_send_error(l, c->id, "name_in_use", i18n_tr(L, "that name is in use"), PM_HELLO);
		return;
	}
	if (u && !resumed && (u->conn >= 0 || at_a_table(l, u->name))) {
		lobbyrec_send_error(l, c->id, "name_in_use",
		           u->conn >= 0 ? i18n_tr(L, "that name is in use")
		                        : i18n_tr(L, "that name keeps a seat at a table for its guest, who may come back: "
		                                     "choose another name"),
		           PM_HELLO);
		return;
	}
	lobbyacct_welcome(l, c, m->name, m->lang, 1, resumed ? m->token : NULL);
}

void lobbyacct_chat(struct lobby *l, struct lobby_conn *c, struct req *m)
{
	const char *from = l->users[c->user].name;
	if (l->ext && !l->ext->chat_allowed(l, c->id, from))
		return;
	if (m->table) {
		struct host *h = lobbyrec_table_for(l, c, m);
		if (!h)
			return;
		if (!host_member(h, from)) {
			lobbyrec_send_error(l, c->id, "not_member",
			           i18n_tr(i18n_of(c->lang), "you are not at this table"), PM_CHAT);
			return;
		}
		host_chat(h, from, m->text);
		return;
	}
	lobbyacct_chat_heard(l, from, m->text);
	if (l->far)
		l->far->chat(l->far->ctx, from, m->text);
}

void lobbyacct_chat_heard(struct lobby *l, const char *from, const char *text)
{
	char *s = proto_dump(json_pack("{s:s, s:s, s:s, s:s}", "type", "chat", "from", from, "text", text, "cue",
	                               "chat"));
	if (s)
		lobbyrec_broadcast(l, s);
	free(s);
}

/* Forget the people gone who hold no seat (their guest names are free
 * again); the connections keep pointing at the right entries. */
void lobbyacct_prune_users(struct lobby *l, unsigned char *at)
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
		if (l->users[i].conn >= 0 || at[i] || (aside && aside[i]) || lobbyrec_saved_holds(l, l->users[i].name))
			continue;
		if (l->users[i].guest && !l->users[i].relayed) /* a relayed guest's session is their node's */
			store_session_delete(l->store, l->users[i].name);
		int last = l->nusers - 1;
		lobbyrec_user_forget(l, (uint32_t)i);
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
