/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/mod.h"

#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/registry.h"
#include "core/err.h"
#include "core/hashmap.h"
#include "app/log.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "net/server/lobby.h"

/* What moderation knows of a name for the session. */
struct mod_person {
	char name[HOST_PLAYER_MAX];
	long long muted_until;          /* seconds since the epoch: their chat is refused until then */
	char why[STORE_REASON_MAX];     /* the mute's reason */
	long long lines_ms[MOD_FLOOD_LINES_MAX]; /* when their last lines went out (a ring of chat_lines) */
	int nextline;
	long long strike_ms[MOD_FLOOD_STRIKES_MAX]; /* their last refusals for flooding (a ring of chat_strikes) */
	int nextstrike;
	long long asks_ms[MOD_ASKS];    /* when their last invitations and rematches were asked (a ring) */
	int nextask;
	char (*mutes)[HOST_PLAYER_MAX]; /* whose chat they do not hear */
	int nmutes, capmutes;
};

/* An invitation is the person's, not the name's: an account by its name
 * (only its password brings it back), a guest by the hash of its resume
 * token (whoever takes the name once she left has another); far: the
 * person is on another node of a cluster (known there by name only). */
struct mod_invite {
	long table;
	char name[HOST_PLAYER_MAX];
	int guest, far;
	char token_hash[AUTH_TOKEN_HASH_MAX];
	long long until_ms;
};

/* A finished table's rematch: its players, and who said yes. */
struct mod_rematch {
	long table;
	char name[GAME_MAX_SEATS][HOST_PLAYER_MAX]; /* by seat, "" no person */
	int yes[GAME_MAX_SEATS];
};

struct mod {
	struct mod_person *p;
	int np, capp;
	struct hashmap byname;          /* the persons by name, kept in step */
	int muting;                     /* people with mutes: chat lines are looked at */
	struct mod_invite *inv;
	int ninv, capinv;
	struct mod_rematch *rm;
	int nrm, caprm;
	long long bans_ms;              /* the bans were last read then */
	long long rm_ms;                /* the rematches were last swept then */
};

#define MOD_REMATCH_SWEEP_MS 1000

static struct mod *mod_new(void)
{
	struct mod *d = xcalloc(1, sizeof *d);
	d->bans_ms = -MOD_BAN_POLL_MS;
	return d;
}

static void mod_free(struct mod *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->np; i++)
		free(d->p[i].mutes);
	free(d->p);
	hashmap_free(&d->byname);
	free(d->inv);
	free(d->rm);
	free(d);
}

/* ---- the lobby's pieces ---- */

static void send(struct lobby *l, long conn, char *text)
{
	if (text)
		l->io.send(l->io.ctx, conn, text);
}

static void error(struct lobby *l, long conn, const char *code, const char *message, int re)
{
	send(l, conn, proto_error(code, message, req_type_word(re)));
}

/* A sentence for this connection alone. */
static void notice(struct lobby *l, long conn, long table, const char *text)
{
	json_t *o = json_pack("{s:s, s:s}", "type", "notice", "text", text);
	if (o && table)
		json_object_set_new(o, "table", json_integer(table));
	send(l, conn, proto_dump(o));
}

static const char *person_name(const void *ctx, uint32_t i, size_t *len)
{
	const struct mod *d = ctx;
	*len = strlen(d->p[i].name);
	return d->p[i].name;
}

static struct mod_person *person(struct mod *d, const char *name, int make)
{
	long i = hashmap_find(&d->byname, name, strlen(name), person_name, d);
	if (i >= 0)
		return &d->p[i];
	if (!make)
		return NULL;
	xgrow((void **)&d->p, &d->capp, d->np + 1, sizeof *d->p);
	struct mod_person *p = &d->p[d->np++];
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	hashmap_add(&d->byname, (uint32_t)(d->np - 1), person_name, d);
	return p;
}

/* Forget person i (the last one takes its place). */
static void person_forget(struct mod *d, int i)
{
	if (d->p[i].nmutes)
		d->muting--;
	free(d->p[i].mutes);
	hashmap_remove(&d->byname, (uint32_t)i, person_name, d);
	int last = --d->np;
	if (i != last) {
		d->p[i] = d->p[last];
		hashmap_move(&d->byname, (uint32_t)last, (uint32_t)i, person_name, d);
	}
}

static int mutes(const struct mod_person *p, const char *name)
{
	for (int i = 0; i < p->nmutes; i++)
		if (!strcmp(p->mutes[i], name))
			return 1;
	return 0;
}

static void mute_add(struct mod *d, struct mod_person *p, const char *name)
{
	if (mutes(p, name) || p->nmutes >= MOD_MUTES_MAX)
		return;
	xgrow((void **)&p->mutes, &p->capmutes, p->nmutes + 1, sizeof *p->mutes);
	snprintf(p->mutes[p->nmutes++], sizeof *p->mutes, "%s", name);
	d->muting += p->nmutes == 1;
}

static void mute_remove(struct mod *d, struct mod_person *p, const char *name)
{
	for (int i = 0; i < p->nmutes; i++)
		if (!strcmp(p->mutes[i], name)) {
			memcpy(p->mutes[i], p->mutes[--p->nmutes], sizeof *p->mutes);
			d->muting -= p->nmutes == 0;
			return;
		}
}

/* "2026-11-26 16:05 UTC": the same in both languages. */
static void when_text(long long t, char *out, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(out, len, "%Y-%m-%d %H:%M UTC", &tm);
}

/* The minutes left until t (at least 1). */
static long long minutes_left(long long t)
{
	long long left = (t - (long long)time(NULL) + 59) / 60;
	return left < 1 ? 1 : left;
}

static void audit(struct lobby *l, const char *who, const char *whom, const char *what, long long until,
                  const char *reason)
{
	struct store_audit a;
	memset(&a, 0, sizeof a);
	a.when = (long long)time(NULL);
	snprintf(a.who, sizeof a.who, "%s", who);
	snprintf(a.whom, sizeof a.whom, "%s", whom);
	snprintf(a.what, sizeof a.what, "%s", what);
	a.until = until;
	snprintf(a.reason, sizeof a.reason, "%s", reason);
	if (store_audit_add(l->store, &a) < 0)
		log_at(LOGL_ERROR, "the audit did not keep: %s %s %s", who, what, whom);
}

/* The refusal of a banned name, phrased in lang, to conn. */
static void send_banned(struct lobby *l, long conn, const char *lang, const struct store_ban *b, int re)
{
	const struct i18n_lang *L = i18n_of(lang);
	char when[64], text[512];
	when_text(b->until, when, sizeof when);
	if (b->reason[0])
		snprintf(text, sizeof text, i18n_tr(L, "You are banned from this server until %s. Reason: %s"), when, b->reason);
	else
		snprintf(text, sizeof text, i18n_tr(L, "You are banned from this server until %s."), when);
	error(l, conn, "banned", text, re);
}

/* Out of the server, after a last error (closed after it is sent). */
static void put_out(struct lobby *l, struct lobby_user *u)
{
	if (u->conn < 0)
		return;
	struct lobby_conn *c = lobbyrec_conn_of(l, u->conn);
	if (c)
		c->user = -1; /* the lobby logs them out as it closes */
	long conn = u->conn;
	for (int i = 0; i < l->ntables; i++)
		if (host_member(l->tables[i], u->name))
			host_disconnect(l->tables[i], u->name, l->now_ms);
	u->conn = -1;
	u->gone_ms = l->now_ms;
	l->io.close(l->io.ctx, conn);
	l->dirty = 1;
}

/* ---- login, chat ---- */

static int mod_login_refused(struct lobby *l, long conn, const char *name)
{
	/* A ban holds for the names that look like it too ("Páulo" while
	 * "Paulo" is banned), through the store's index. */
	struct store_ban b;
	if (store_ban_alike(l->store, name, &b) != 1 || b.until <= (long long)time(NULL))
		return 0;
	log_at(LOGL_NOTICE, "ban: %s refused at login (the ban on %s)", name, b.name);
	send_banned(l, conn, lobby_lang(l, conn), &b, PM_HELLO);
	return 1;
}

struct mute_load {
	struct mod *d;
	struct mod_person *p;
};

static void mute_loaded(void *ctx, const char *target)
{
	struct mute_load *m = ctx;
	mute_add(m->d, m->p, target);
}

static void mod_login(struct lobby *l, const char *name, int guest)
{
	struct mod_person *p = person(l->mod, name, 1);
	if (guest)
		return;
	struct mute_load m = { l->mod, p };
	store_mute_each(l->store, name, mute_loaded, &m);
}

/* 1 when a moderator's mute of p holds (then refused to conn, the
 * message re, saying for how long and why). */
static int muted(struct lobby *l, long conn, const struct mod_person *p, int re)
{
	const struct i18n_lang *L = i18n_of(lobby_lang(l, conn));
	if (p->muted_until <= (long long)time(NULL))
		return 0;
	char text[512];
	long long left = minutes_left(p->muted_until);
	if (p->why[0])
		snprintf(text, sizeof text,
		         i18n_ntr(L, "You are muted for %lld more minute. Reason: %s",
		                     "You are muted for %lld more minutes. Reason: %s", left),
		         left, p->why);
	else
		snprintf(text, sizeof text,
		         i18n_ntr(L, "You are muted for %lld more minute.", "You are muted for %lld more minutes.", left),
		         left);
	error(l, conn, "muted", text, re);
	return 1;
}

/* 1 when p may ask one more invitation or rematch now (counted), else 0
 * with the refusal sent to conn. */
static int may_ask(struct lobby *l, long conn, struct mod_person *p, int re)
{
	long long ms = l->now_ms;
	if (p->asks_ms[p->nextask] && ms - p->asks_ms[p->nextask] < MOD_ASKS_MS && ms >= p->asks_ms[p->nextask]) {
		error(l, conn, "slow_down", i18n_tr(i18n_of(lobby_lang(l, conn)), "Slow down: too many requests at once."),
		      re);
		return 0;
	}
	p->asks_ms[p->nextask] = ms ? ms : 1;
	p->nextask = (p->nextask + 1) % MOD_ASKS;
	return 1;
}

/* 1 when the person named listener does not want to hear from the one
 * named speaker (a personal mute). */
static int ignores(struct mod *d, const char *listener, const char *speaker)
{
	const struct mod_person *q = person(d, listener, 0);
	return q && mutes(q, speaker);
}

/* A setting of the lobby, or its default when unset, within 1 and max. */
static long long setting(long long v, long long def, long long max)
{
	return v <= 0 ? def : v > max ? max : v;
}

static int mod_chat_allowed(struct lobby *l, long conn, const char *name)
{
	const struct i18n_lang *L = i18n_of(lobby_lang(l, conn));
	struct mod_person *p = person(l->mod, name, 1);
	long long now = (long long)time(NULL);
	char text[512];
	if (muted(l, conn, p, PM_CHAT))
		return 0;
	long long ms = l->now_ms;
	int lines = (int)setting(l->chat_lines, MOD_FLOOD_LINES, MOD_FLOOD_LINES_MAX);
	int strikes = (int)setting(l->chat_strikes, MOD_FLOOD_STRIKES, MOD_FLOOD_STRIKES_MAX);
	long long window = setting(l->chat_ms, MOD_FLOOD_MS, 3600 * 1000LL);
	int mute_min = (int)setting(l->chat_mute_min, MOD_FLOOD_MUTE_MIN, 7 * 1440);
	/* The settings read again (SIGHUP) may have made the rings shorter. */
	if (p->nextline >= lines)
		p->nextline = 0;
	if (p->nextstrike >= strikes)
		p->nextstrike = 0;
	/* The oldest of the last `lines` lines, within the window: one more
	 * is too many. */
	if (p->lines_ms[p->nextline] && ms - p->lines_ms[p->nextline] < window) {
		p->strike_ms[p->nextstrike] = ms;
		p->nextstrike = (p->nextstrike + 1) % strikes;
		if (p->strike_ms[p->nextstrike] && ms - p->strike_ms[p->nextstrike] < window) {
			p->muted_until = now + mute_min * 60LL;
			snprintf(p->why, sizeof p->why, "%s", i18n_tr(L, "too many lines at once"));
			memset(p->strike_ms, 0, sizeof p->strike_ms);
			snprintf(text, sizeof text,
			         i18n_ntr(L, "You are muted for %d minute: too many lines at once.",
			                     "You are muted for %d minutes: too many lines at once.", mute_min),
			         mute_min);
			error(l, conn, "muted", text, PM_CHAT);
			audit(l, "server", name, "mute", p->muted_until, "flood");
			return 0;
		}
		error(l, conn, "slow_down", i18n_tr(L, "Slow down: too many lines at once."), PM_CHAT);
		return 0;
	}
	p->lines_ms[p->nextline] = ms ? ms : 1;
	p->nextline = (p->nextline + 1) % lines;
	return 1;
}

/* A "missed" message without the chat lines of the people p muted: the
 * new text, or NULL when nothing is left out. */
static char *missed_filtered(const struct mod_person *p, const char *text)
{
	json_t *o = json_loads(text, 0, NULL);
	json_t *says = json_object_get(o, "says");
	int out = 0;
	for (size_t i = json_array_size(says); i-- > 0;) {
		json_t *x = json_array_get(says, i);
		const char *type = json_string_value(json_object_get(x, "type"));
		const char *from = json_string_value(json_object_get(x, "from"));
		if (type && !strcmp(type, "chat") && from && mutes(p, from)) {
			json_array_remove(says, i);
			out = 1;
		}
	}
	char *again = out ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return again;
}

static const char chat_head[] = "{\"type\":\"chat\",", missed_head[] = "{\"type\":\"missed\",";

static int mod_filters(const struct lobby *l, const char *text)
{
	return l->mod && l->mod->muting && text &&
	       (!strncmp(text, chat_head, sizeof chat_head - 1) || !strncmp(text, missed_head, sizeof missed_head - 1));
}

static char *mod_filter(struct lobby *l, long conn, char *text)
{
	const char *chat = chat_head, *missed = missed_head;
	int is_chat = !strncmp(text, chat, sizeof chat_head - 1);
	if (!l->mod || !l->mod->muting || (!is_chat && strncmp(text, missed, sizeof missed_head - 1) != 0))
		return text;
	struct lobby_conn *c = lobbyrec_conn_of(l, conn);
	if (!c || c->user < 0)
		return text;
	struct mod_person *p = person(l->mod, l->users[c->user].name, 0);
	if (!p || !p->nmutes)
		return text;
	if (!is_chat) {
		char *less = missed_filtered(p, text);
		if (!less)
			return text;
		free(text);
		return less;
	}
	json_t *o = json_loads(text, 0, NULL);
	const char *from = json_string_value(json_object_get(o, "from"));
	int drop = from && mutes(p, from);
	json_decref(o);
	if (!drop)
		return text;
	free(text);
	return NULL;
}

/* 1 when invitation v is u's. */
static int invite_of(const struct mod_invite *v, const struct lobby_user *u)
{
	if (strcmp(v->name, u->name) != 0)
		return 0;
	if (v->far)
		return 1;
	if (v->guest != u->guest)
		return 0;
	return !v->guest || (v->token_hash[0] && !strcmp(v->token_hash, u->token_hash));
}

static int mod_invited(struct lobby *l, long table, const struct lobby_user *u)
{
	struct mod *d = l->mod;
	for (int i = 0; i < d->ninv; i++)
		if (d->inv[i].table == table && d->inv[i].until_ms > l->now_ms && invite_of(&d->inv[i], u))
			return 1;
	return 0;
}

/* ---- invitations ---- */

char *mod_invited_text(const char *lang_name, const char *by, const json_t *info)
{
	const char *game = json_string_value(json_object_get(info, "game"));
	const struct game_ops *g = game ? registry_ops(game) : NULL;
	if (!g)
		return NULL;
	long table = (long)json_integer_value(json_object_get(info, "id"));
	const struct i18n_lang *lang = i18n_of(lang_name);
	char text[512];
	snprintf(text, sizeof text, i18n_tr(lang, N_("%s invites you to table %ld, %s. Sit or watch there to accept.")),
	         by, table, i18n_tr(lang, g->title));
	/* With the table's entry: it may be on none of the pages they hold. */
	return proto_dump(json_pack("{s:s, s:I, s:s, s:s, s:b, s:s, s:O}", "type", "invited", "table",
	                            (json_int_t)table, "from", by, "game", g->name, "private",
	                            json_is_true(json_object_get(info, "private")), "text", text, "info", info));
}

static void on_invite(struct lobby *l, struct lobby_conn *c, const struct req *m)
{
	const struct i18n_lang *asker = i18n_of(c->lang); /* what the one asking hears */
	const char *me = l->users[c->user].name;
	struct host *h = lobbyrec_table_of(l, m->table);
	if (!h) {
		error(l, c->id, "no_table", i18n_tr(asker, "there is no such table"), PM_INVITE);
		return;
	}
	if (!host_member(h, me)) {
		error(l, c->id, "not_member", i18n_tr(asker, "you are not at this table"), PM_INVITE);
		return;
	}
	struct lobby_user *u = lobbyrec_user_named(l, m->name);
	if (u && u->conn < 0)
		u = NULL;
	/* Not here: on another node of a cluster, perhaps (told there). */
	int far = !u && l->far && l->far->person(l->far->ctx, m->name);
	if (!u && !far) {
		error(l, c->id, "no_user", i18n_tr(asker, "nobody of that name is online"), PM_INVITE);
		return;
	}
	char text[512];
	if (host_member(h, m->name)) {
		snprintf(text, sizeof text, i18n_tr(asker, "%s is already at this table"), m->name);
		error(l, c->id, "already", text, PM_INVITE);
		return;
	}
	struct mod *d = l->mod;
	struct mod_person *p = person(d, me, 1);
	if (muted(l, c->id, p, PM_INVITE) || !may_ask(l, c->id, p, PM_INVITE))
		return;
	int n = 0;
	struct mod_invite *same = NULL;
	for (int i = 0; i < d->ninv; i++)
		if (d->inv[i].table == h->id) {
			n++;
			if (!strcmp(d->inv[i].name, m->name))
				same = &d->inv[i];
		}
	if (!same && n >= MOD_INVITES_MAX) {
		error(l, c->id, "full", i18n_tr(asker, "too many invitations wait at this table"), PM_INVITE);
		return;
	}
	if (!same) {
		xgrow((void **)&d->inv, &d->capinv, d->ninv + 1, sizeof *d->inv);
		same = &d->inv[d->ninv++];
		same->table = h->id;
		snprintf(same->name, sizeof same->name, "%s", m->name);
	}
	/* Renewed for the person of that name now (who may not be the one
	 * invited before). */
	same->far = far;
	same->guest = u ? u->guest : 0;
	snprintf(same->token_hash, sizeof same->token_hash, "%s", u ? u->token_hash : "");
	same->until_ms = l->now_ms + MOD_INVITE_MS;
	/* To the person invited, in their language (by their node). */
	json_t *info = lobbyround_table_info(h);
	if (far)
		l->far->invite(l->far->ctx, m->name, h->id, me, info);
	else if (!ignores(d, u->name, me)) /* muted by them: not said (nor told to the one asking) */
		send(l, u->conn, mod_invited_text(u->lang, me, info));
	json_decref(info);
	snprintf(text, sizeof text, i18n_tr(asker, "Invitation sent to %s."), m->name);
	notice(l, c->id, h->id, text);
}

/* ---- rematch ---- */

static struct mod_rematch *rematch_of(struct mod *d, long table)
{
	for (int i = 0; i < d->nrm; i++)
		if (d->rm[i].table == table)
			return &d->rm[i];
	return NULL;
}

/* The game over: its players are asked. */
static void offer(struct lobby *l, struct host *h)
{
	struct mod *d = l->mod;
	xgrow((void **)&d->rm, &d->caprm, d->nrm + 1, sizeof *d->rm);
	struct mod_rematch *r = &d->rm[d->nrm++];
	memset(r, 0, sizeof *r);
	r->table = h->id;
	for (int s = 0; s < h->players; s++)
		snprintf(r->name[s], sizeof r->name[s], "%s", h->seat[s].name);
	for (int s = 0; s < h->players; s++) {
		struct host_member *hm = r->name[s][0] ? host_member(h, r->name[s]) : NULL;
		if (!hm || hm->conn < 0)
			continue;
		send(l, hm->conn, proto_dump(json_pack("{s:s, s:I, s:s}", "type", "rematch", "table", (json_int_t)h->id,
		                                       "text", i18n_tr(i18n_of(hm->lang),
		                                                       N_("A rematch? Same players, same options.")))));
	}
}

struct was_member {
	char name[HOST_PLAYER_MAX];
	char lang[3];
	long conn;
	int seat, verbosity;
};

/* Everyone said yes: the table starts again, its seats one place on. */
static void restart(struct lobby *l, struct host *h, long long now_ms)
{
	const struct game_ops *g = h->g;
	int n = h->players, priv = h->private_;
	struct rules rules = h->rules;
	char creator[HOST_PLAYER_MAX], pwhash[sizeof h->pwhash];
	snprintf(creator, sizeof creator, "%s", h->creator);
	memcpy(pwhash, h->pwhash, sizeof pwhash);
	struct host_seat seats[GAME_MAX_SEATS];
	memcpy(seats, h->seat, sizeof seats);
	struct was_member *was = xcalloc((size_t)h->nmembers + 1, sizeof *was);
	int nwas = 0;
	for (int i = 0; i < h->nmembers; i++) {
		struct host_member *hm = h->member[i];
		if (hm->conn < 0)
			continue;
		struct was_member *w = &was[nwas++];
		snprintf(w->name, sizeof w->name, "%s", hm->name);
		snprintf(w->lang, sizeof w->lang, "%s", hm->lang);
		w->conn = hm->conn;
		w->seat = hm->seat >= 0 ? (hm->seat + 1) % n : -1;
		w->verbosity = hm->verbosity;
	}
	struct net_out out = h->out;
	long id = h->id;
	/* A new secret seed (the operator's for the tests), as for any table
	 * made by the lobby. */
	uint64_t seed;
	randombytes_buf(&seed, sizeof seed);
	seed &= INT64_MAX;
	int seed_by = HOST_SEED_SERVER;
	if (l->cfg.seed > 0) {
		seed = (uint64_t)l->cfg.seed;
		seed_by = HOST_SEED_OPERATOR;
	}
	char err[ERR_MAX];
	/* The finished game's journal goes; its hand history stays (a new one
	 * starts beside it). */
	store_table_delete(l->store, id);
	host_free(h);
	if (host_create(h, id, g, n, &rules, seed, seed_by, creator, l->store, &l->cfg, out, err, sizeof err) < 0) {
		log_say("table %ld cannot start again: %s", id, err);
		/* Nothing left to play: a finished table nobody is at, which
		 * the lobby removes at its next tick. */
		memset(h, 0, sizeof *h);
		h->id = id;
		h->g = g;
		h->players = n;
		h->state = HOST_OVER;
		h->over_ms = now_ms ? now_ms : 1;
		h->cfg = &l->cfg;
		snprintf(h->creator, sizeof h->creator, "%s", creator);
		free(was);
		l->dirty = 1;
		lobbyrec_table_renewed(l, h);
		return;
	}
	for (int s = 0; s < n; s++) {
		h->seat[(s + 1) % n].open = seats[s].open || seats[s].name[0];
		h->seat[(s + 1) % n].level = seats[s].level;
	}
	h->private_ = priv;
	memcpy(h->pwhash, pwhash, sizeof h->pwhash);
	for (int i = 0; i < nwas; i++) {
		struct was_member *w = &was[i];
		if (host_join(h, w->name, w->lang, w->conn, w->seat, now_ms, err, sizeof err) < 0 &&
		    host_join(h, w->name, w->lang, w->conn, -1, now_ms, err, sizeof err) < 0)
			continue;
		host_verbosity(h, w->name, w->verbosity, 0);
		struct host_member *hm = host_member(h, w->name);
		send(l, w->conn, lobbyround_joined_text(h, hm ? hm->seat : -1));
		host_tell_seat(h, w->name);
	}
	free(was);
	host_save(h);
	if (host_start(h, now_ms, NULL, err, sizeof err) < 0)
		log_say("table %ld cannot start again: %s", id, err);
	l->dirty = 1;
	lobbyrec_table_renewed(l, h);
}

static void on_rematch(struct lobby *l, struct lobby_conn *c, const struct req *m, long long now_ms)
{
	const struct i18n_lang *asker = i18n_of(c->lang); /* what the one asking hears */
	const char *me = l->users[c->user].name;
	struct host *h = lobbyrec_table_of(l, m->table);
	struct mod_rematch *r = h ? rematch_of(l->mod, h->id) : NULL;
	if (!h) {
		error(l, c->id, "no_table", i18n_tr(asker, "there is no such table"), PM_REMATCH);
		return;
	}
	if (!r || h->state != HOST_OVER) {
		error(l, c->id, "not_over", i18n_tr(asker, "the game at this table is not over"), PM_REMATCH);
		return;
	}
	if (l->draining) { /* tapis admin drain: no new game */
		error(l, c->id, "start", i18n_tr(asker, "the server is closing: no new game now, those in play finish"),
		      PM_REMATCH);
		return;
	}
	int mine = -1, all = 1;
	for (int s = 0; s < h->players; s++)
		if (r->name[s][0] && !strcmp(r->name[s], me))
			mine = s;
	if (mine < 0) {
		error(l, c->id, "not_seated", i18n_tr(asker, "only the players of this game may ask for a rematch"),
		      PM_REMATCH);
		return;
	}
	struct mod_person *p = person(l->mod, me, 1);
	if (!may_ask(l, c->id, p, PM_REMATCH))
		return;
	/* Said to the others once a game, and not by someone muted (by a
	 * moderator, or by the one who would hear it). */
	int say = !r->yes[mine] && p->muted_until <= (long long)time(NULL);
	r->yes[mine] = 1;
	for (int s = 0; s < h->players; s++) {
		struct host_member *hm = r->name[s][0] ? host_member(h, r->name[s]) : NULL;
		if (r->name[s][0] && !r->yes[s])
			all = 0;
		if (!say || !hm || hm->conn < 0 || s == mine || ignores(l->mod, hm->name, me))
			continue;
		char text[256];
		snprintf(text, sizeof text, i18n_tr(i18n_of(hm->lang), N_("%s wants a rematch.")), me);
		notice(l, hm->conn, h->id, text);
	}
	if (!all) {
		notice(l, c->id, h->id, i18n_tr(asker, "Rematch asked. Waiting for the other players."));
		return;
	}
	*r = l->mod->rm[--l->mod->nrm];
	restart(l, h, now_ms);
}

/* ---- moderators ---- */

/* The role is the store's, kept by name: asked of the store whether the
 * person is here or not. */
static int has_role(struct lobby *l, const char *name)
{
	char role[32];
	return store_role_get(l->store, name, role, sizeof role) == 1 && !strcmp(role, "moderator");
}

static int is_moderator(struct lobby *l, const struct lobby_user *u)
{
	return !u->guest && has_role(l, u->name);
}

/* What the person concerned hears goes in their language (NULL: they are
 * not connected; nothing to say). */
static const struct i18n_lang *their_lang(const struct lobby_user *u)
{
	return u && u->conn >= 0 ? i18n_of(u->lang) : NULL;
}

/* ---- a moderator's acts: one row an act ----
 *
 * What every act needs is checked before its row runs: the one asking is
 * a moderator, the one named is not (online or not); a row may need the
 * person named online here (else `no_user`). A row runs the act and
 * writes what the moderator hears in text; 0, or -1 when it refused (the
 * error sent). Every act done goes to the store's audit. */
enum { ACT_ONLINE = 1 };

typedef int act_fn(struct lobby *l, struct lobby_conn *c, const struct req *m, struct lobby_user *u, const char *who,
                   long long now, long long *until, char *text, size_t len);

static int act_mute(struct lobby *l, struct lobby_conn *c, const struct req *m, struct lobby_user *u, const char *who,
                    long long now, long long *until, char *text, size_t len)
{
	const struct i18n_lang *asker = i18n_of(c->lang);
	const struct i18n_lang *L;
	const char *reason = m->text;
	(void)who;
	struct mod_person *p = person(l->mod, m->name, 1);
	*until = now + (m->minutes ? m->minutes : MOD_MUTE_MIN) * 60LL;
	p->muted_until = *until;
	snprintf(p->why, sizeof p->why, "%.250s", reason); /* at most PROTO_REASON_MAX bytes */
	if ((L = their_lang(u))) {
		long long n = (*until - now) / 60;
		if (reason[0])
			snprintf(text, len,
			         i18n_ntr(L, "A moderator muted you for %lld minute. Reason: %s",
			             "A moderator muted you for %lld minutes. Reason: %s", n),
			         n, reason);
		else
			snprintf(text, len,
			         i18n_ntr(L, "A moderator muted you for %lld minute.", "A moderator muted you for %lld minutes.", n),
			         n);
		notice(l, u->conn, 0, text);
	}
	snprintf(text, len, i18n_tr(asker, "%s is muted."), m->name);
	return 0;
}

static int act_unmute(struct lobby *l, struct lobby_conn *c, const struct req *m, struct lobby_user *u, const char *who,
                      long long now, long long *until, char *text, size_t len)
{
	const struct i18n_lang *asker = i18n_of(c->lang);
	const struct i18n_lang *L;
	(void)who, (void)now, (void)until;
	struct mod_person *p = person(l->mod, m->name, 0);
	if (p)
		p->muted_until = 0;
	if ((L = their_lang(u)))
		notice(l, u->conn, 0, i18n_tr(L, "A moderator lets you chat again."));
	snprintf(text, len, i18n_tr(asker, "%s may chat again."), m->name);
	return 0;
}

static int act_kick(struct lobby *l, struct lobby_conn *c, const struct req *m, struct lobby_user *u, const char *who,
                    long long now, long long *until, char *text, size_t len)
{
	const struct i18n_lang *asker = i18n_of(c->lang);
	const struct i18n_lang *L;
	const char *reason = m->text;
	(void)who, (void)now, (void)until;
	struct host *h = m->table ? lobbyrec_table_of(l, m->table) : NULL;
	if (m->table && (!h || !host_member(h, u->name))) {
		error(l, c->id, "not_member", i18n_tr(asker, "that person is not at this table"), PM_MOD);
		return -1;
	}
	if (h) {
		host_stand(h, u->name, 1);
		send(l, u->conn, proto_dump(json_pack("{s:s, s:I, s:s}", "type", "left", "table", (json_int_t)h->id,
		                                      "reason", "removed")));
		L = their_lang(u);
		if (reason[0])
			snprintf(text, len, i18n_tr(L, "A moderator removed you from table %ld. Reason: %s"), h->id,
			         reason);
		else
			snprintf(text, len, i18n_tr(L, "A moderator removed you from table %ld."), h->id);
		notice(l, u->conn, h->id, text);
		lobbyround_table_changed(l, h);
		snprintf(text, len, i18n_tr(asker, "%s is removed from table %ld."), u->name, h->id);
	} else {
		L = their_lang(u);
		if (reason[0])
			snprintf(text, len, i18n_tr(L, "A moderator removed you from the server. Reason: %s"), reason);
		else
			snprintf(text, len, "%s", i18n_tr(L, "A moderator removed you from the server."));
		error(l, u->conn, "kicked", text, PM_NONE);
		put_out(l, u);
		snprintf(text, len, i18n_tr(asker, "%s is removed from the server."), m->name);
	}
	return 0;
}

static int act_ban(struct lobby *l, struct lobby_conn *c, const struct req *m, struct lobby_user *u, const char *who,
                   long long now, long long *until, char *text, size_t len)
{
	const struct i18n_lang *asker = i18n_of(c->lang);
	const char *reason = m->text;
	struct store_ban b;
	memset(&b, 0, sizeof b);
	snprintf(b.name, sizeof b.name, "%s", m->name);
	*until = b.until = now + (m->minutes ? m->minutes : MOD_BAN_MIN) * 60LL;
	snprintf(b.reason, sizeof b.reason, "%.250s", reason);
	snprintf(b.by, sizeof b.by, "%s", who);
	if (store_ban_put(l->store, &b) < 0) {
		error(l, c->id, "store", i18n_tr(asker, "the server cannot keep that now"), PM_MOD);
		return -1;
	}
	if (u && u->conn >= 0) {
		send_banned(l, u->conn, u->lang, &b, PM_NONE);
		put_out(l, u);
	}
	char when[64];
	when_text(*until, when, sizeof when);
	log_at(LOGL_NOTICE, "ban: %s by %s until %lld (%s)", b.name, who, *until, b.reason);
	snprintf(text, len, i18n_tr(asker, "%s is banned until %s."), m->name, when);
	return 0;
}

static int act_unban(struct lobby *l, struct lobby_conn *c, const struct req *m, struct lobby_user *u, const char *who,
                     long long now, long long *until, char *text, size_t len)
{
	const struct i18n_lang *asker = i18n_of(c->lang);
	(void)u, (void)who, (void)now, (void)until;
	if (store_ban_delete(l->store, m->name) < 0) {
		error(l, c->id, "store", i18n_tr(asker, "the server cannot keep that now"), PM_MOD);
		return -1;
	}
	log_at(LOGL_NOTICE, "ban: %s lifted by %s", m->name, who);
	snprintf(text, len, i18n_tr(asker, "%s may log in again."), m->name);
	return 0;
}

static const struct mod_act_row {
	int needs;        /* ACT_* */
	act_fn *run;
} acts[PMOD_COUNT] = {
	[PMOD_MUTE] = { 0, act_mute },
	[PMOD_UNMUTE] = { 0, act_unmute },
	[PMOD_KICK] = { ACT_ONLINE, act_kick },
	[PMOD_BAN] = { 0, act_ban },
	[PMOD_UNBAN] = { 0, act_unban },
};

static void on_mod(struct lobby *l, struct lobby_conn *c, const struct req *m)
{
	const struct i18n_lang *asker = i18n_of(c->lang); /* what the one asking hears */
	struct lobby_user *me = &l->users[c->user];
	if (!is_moderator(l, me)) {
		error(l, c->id, "not_moderator", i18n_tr(asker, "only a moderator may do that"), PM_MOD);
		return;
	}
	char who[HOST_PLAYER_MAX];
	snprintf(who, sizeof who, "%s", me->name);
	struct lobby_user *u = lobbyrec_user_named(l, m->name);
	/* Online or not (nobody in memory of that name): a moderator is
	 * another moderator's peer. */
	char other[HOST_PLAYER_MAX];
	if (has_role(l, m->name) ||
	    (store_account_alike(l->store, m->name, other, sizeof other) == 1 && has_role(l, other))) {
		error(l, c->id, "not_moderator", i18n_tr(asker, "a moderator cannot act on another moderator"), PM_MOD);
		return;
	}
	if (m->mod_act < 0 || m->mod_act >= PMOD_COUNT || !acts[m->mod_act].run)
		return;
	const struct mod_act_row *r = &acts[m->mod_act];
	if ((r->needs & ACT_ONLINE) && (!u || u->conn < 0)) {
		error(l, c->id, "no_user", i18n_tr(asker, "nobody of that name is online"), PM_MOD);
		return;
	}
	long long now = (long long)time(NULL), until = 0;
	char text[512];
	if (r->run(l, c, m, u, who, now, &until, text, sizeof text) < 0)
		return;
	audit(l, who, m->name, req_mod_words[m->mod_act], until, m->text);
	/* The moderator's connection may be gone (put_out of someone else
	 * never closes it). */
	notice(l, c->id, m->table, text);
}

/* ---- personal mutes ---- */

static void on_mute(struct lobby *l, struct lobby_conn *c, const struct req *m)
{
	const struct i18n_lang *asker = i18n_of(c->lang); /* what the one asking hears */
	struct lobby_user *me = &l->users[c->user];
	struct mod_person *p = person(l->mod, me->name, 1);
	char text[256];
	if (!strcmp(m->name, me->name)) {
		error(l, c->id, "bad_message", i18n_tr(asker, "you cannot mute yourself"), PM_MUTE);
		return;
	}
	if (m->on) {
		if (p->nmutes >= MOD_MUTES_MAX && !mutes(p, m->name)) {
			error(l, c->id, "full", i18n_tr(asker, "you have muted too many people"), PM_MUTE);
			return;
		}
		mute_add(l->mod, p, m->name);
		snprintf(text, sizeof text, i18n_tr(asker, "You will not hear %s's chat."), m->name);
	} else {
		mute_remove(l->mod, p, m->name);
		snprintf(text, sizeof text, i18n_tr(asker, "You hear %s's chat again."), m->name);
	}
	/* An account keeps its mutes; a guest's last the session. */
	if (!me->guest)
		store_mute_put(l->store, me->name, m->name, m->on);
	notice(l, c->id, 0, text);
}

static void mod_message(struct lobby *l, struct lobby_conn *c, const struct req *m, long long now_ms)
{
	switch (m->type) {
	case PM_INVITE:
		on_invite(l, c, m);
		break;
	case PM_REMATCH:
		on_rematch(l, c, m, now_ms);
		break;
	case PM_MOD:
		on_mod(l, c, m);
		break;
	case PM_MUTE:
		on_mute(l, c, m);
		break;
	default:
		break;
	}
}

/* ---- the tick ---- */

struct ban_poll {
	struct lobby *l;
	long long now;
};

static void ban_seen(void *ctx, const struct store_ban *b)
{
	struct ban_poll *bp = ctx;
	if (b->until <= bp->now)
		return;
	struct lobby_user *u = lobbyrec_user_named(bp->l, b->name);
	if (!u || u->conn < 0)
		u = lobbyrec_user_alike(bp->l, b->name); /* a look-alike here: banned as well */
	if (u && u->conn >= 0) {
		log_at(LOGL_NOTICE, "ban: %s (banned by %s) put out", u->name, b->by);
		send_banned(bp->l, u->conn, u->lang, b, PM_NONE);
		put_out(bp->l, u);
	}
}

static void mod_tick(struct lobby *l, long long now_ms)
{
	struct mod *d = l->mod;
	/* Rematches: offered as a game ends (mod_over); here, once a second,
	 * those of the tables restored over, and forgotten with their table
	 * (each sweep costs the tables times the rematches: not every tick). */
	if (now_ms - d->rm_ms >= MOD_REMATCH_SWEEP_MS || now_ms < d->rm_ms) {
		d->rm_ms = now_ms;
		for (int i = 0; i < l->ntables; i++)
			if (l->tables[i]->state == HOST_OVER && !rematch_of(d, l->tables[i]->id))
				offer(l, l->tables[i]);
		for (int i = d->nrm - 1; i >= 0; i--) {
			struct host *h = lobbyrec_table_of(l, d->rm[i].table);
			if (!h || h->state != HOST_OVER)
				d->rm[i] = d->rm[--d->nrm];
		}
	}
	if (now_ms - d->bans_ms < MOD_BAN_POLL_MS && now_ms >= d->bans_ms)
		return;
	d->bans_ms = now_ms;
	/* A ban set from outside (tapis admin) while its person is here. */
	struct ban_poll bp = { l, (long long)time(NULL) };
	store_ban_each(l->store, ban_seen, &bp);
	for (int i = d->ninv - 1; i >= 0; i--)
		if (d->inv[i].until_ms <= now_ms || !lobbyrec_table_of(l, d->inv[i].table))
			d->inv[i] = d->inv[--d->ninv];
	/* Forget the people gone who are not muted and mute nobody. */
	for (int i = d->np - 1; i >= 0; i--) {
		struct mod_person *p = &d->p[i];
		struct lobby_user *u = lobbyrec_user_named(l, p->name);
		if ((u && u->conn >= 0) || p->muted_until > bp.now || (u && p->nmutes))
			continue;
		person_forget(d, i);
	}
}

void mod_reread_bans(struct lobby *l)
{
	if (l->mod)
		l->mod->bans_ms = l->now_ms - MOD_BAN_POLL_MS;
}

/* A game just ended: its rematch offered at once (mod_tick offers those
 * of the tables restored over). */
static void mod_over(struct lobby *l, struct host *h)
{
	if (!rematch_of(l->mod, h->id))
		offer(l, h);
}

static void release(struct lobby *l)
{
	mod_free(l->mod);
	l->mod = NULL;
}

static const struct lobby_ext mod_ext = {
	.login_refused = mod_login_refused,
	.login = mod_login,
	.chat_allowed = mod_chat_allowed,
	.filter = mod_filter,
	.filters = mod_filters,
	.invited = mod_invited,
	.message = mod_message,
	.tick = mod_tick,
	.over = mod_over,
	.release = release,
};

void mod_attach(struct lobby *l)
{
	l->mod = mod_new();
	l->ext = &mod_ext;
}
