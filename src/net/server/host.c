/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/host.h"

#include <jansson.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "core/cue.h"
#include "core/err.h"
#include "app/log.h"
#include "core/xalloc.h"
#include "net/server/hostview.h"
#include "net/server/jstate.h"
#include "net/wire/jtext.h"
#include "net/wire/proto.h"
#include "net/wire/work.h"
#include "bots/bot.h"
#include "i18n/i18n.h"

struct host_member *host_member(struct host *h, const char *name)
{
	for (int i = 0; i < h->nmembers; i++)
		if (!strcmp(h->member[i]->name, name))
			return h->member[i];
	return NULL;
}

/* 1 when a bot plays the seat now. */
static int bot_plays(const struct host *h, int s, long long now_ms)
{
	const struct host_seat *x = &h->seat[s];
	if (!x->name[0])
		return 1;
	return x->away_ms && now_ms - x->away_ms >= h->cfg->grace_ms;
}

/* Tell the table who holds each seat now, for every view's words: a
 * person's name (kept while they are away), "" for a bot's seat. */
static void update_names(struct host *h)
{
	const char *person[GAME_MAX_SEATS] = { 0 };
	for (int s = 0; s < h->players && s < GAME_MAX_SEATS; s++)
		person[s] = h->seat[s].name;
	table_set_names(&h->t, person);
}

/* Tell the table who plays each seat now: the table waits for a person
 * (SEAT_HUMAN) or plays a bot. */
static void update_kinds(struct host *h, long long now_ms)
{
	for (int s = 0; s < h->players; s++) {
		table_set_seat(&h->t, s, bot_plays(h, s, now_ms) ? SEAT_BOT : SEAT_HUMAN, h->seat[s].level);
	}
	update_names(h);
}

/* The table may have something due sooner than it said (host_due). */
static void touch(struct host *h)
{
	if (h->touched)
		h->touched(h->touched_ctx, h);
}

const char *host_seat_word(const struct host *h, int s)
{
	const struct host_seat *x = &h->seat[s];
	if (x->name[0])
		return x->away_ms ? "away" : "player";
	return x->open ? "open" : "bot";
}

/* ---- a table that cannot keep its moves ---- */

/* The pause (or its end) said to one member, with "paused" for clients that
 * show it. */
static void say_paused(struct host *h, struct host_member *m, int paused)
{
	const char *text = i18n_tr(i18n_of(m->lang), paused ? N_("The server cannot save the game; play is paused.")
	                                                    : N_("Play resumes."));
	json_t *o = json_pack("{s:s, s:I, s:i, s:o, s:b, s:b}", "type", "say", "table", (json_int_t)h->id, "moves",
	                      table_moves(&h->t), "text", hostview_text(text), "urgent", 1, "paused", paused);
	hostview_send(h, m, proto_dump(o));
}

/* A move could not be kept (why: TABLE_NOT_STORED, TABLE_NOT_LOGGED): the
 * table pauses; said once to its members, and once to the operator when it
 * is the hand history (the store says its own failures once). */
static void pause_play(struct host *h, int why, long long now_ms)
{
	h->deal_tap = h->deal; /* the move was undone, a deal it began with it */
	int was = h->paused;
	h->paused = why;
	if (was)
		return;
	h->retry_ms = now_ms;
	if (why == TABLE_NOT_LOGGED)
		log_at(LOGL_ERROR, "table %ld: its hand history %s cannot be written (%s); play is paused until it can be",
		        h->id, h->t.hist.name, h->t.hist.error ? strerror(h->t.hist.error) : "write error");
	for (int i = 0; i < h->nmembers; i++)
		say_paused(h, h->member[i], 1);
}

static void resume_play(struct host *h)
{
	if (!h->paused)
		return;
	if (h->paused == TABLE_NOT_LOGGED)
		log_at(LOGL_NOTICE, "table %ld: the hand history is written again; play resumes", h->id);
	h->paused = 0;
	h->turn_seat = -1; /* the player to act has their whole time again */
	for (int i = 0; i < h->nmembers; i++)
		say_paused(h, h->member[i], 0);
}

/* The table's commit (table_set_commit): the action goes to the journal
 * before anyone is told; the first one kept after a pause ends it (told
 * before the move itself). */
static int commit_action(void *ctx, int seat, const struct action *a)
{
	struct host *h = ctx;
	char txt[ACT_STR_MAX];
	if (store_journal_add(h->store, h->id, table_played(&h->t), seat, act_format(a, txt, sizeof txt)) < 0)
		return -1;
	h->deal = h->deal_tap; /* kept: a deal it began has begun */
	resume_play(h);
	return 0;
}

/* ---- the table's life ---- */

void host_row(const struct host *h, struct store_table *t)
{
	memset(t, 0, sizeof *t);
	t->id = h->id;
	snprintf(t->game, sizeof t->game, "%s", h->g->name);
	t->players = h->players;
	t->seed = h->seed;
	t->seed_by = h->seed_by;
	t->state = h->state;
	snprintf(t->creator, sizeof t->creator, "%s", h->creator);
	t->private_ = h->private_;
	snprintf(t->pwhash, sizeof t->pwhash, "%s", h->pwhash);
	size_t off = 0;
	for (int i = 0; i < h->rules.n && off < sizeof t->rules; i++) {
		char buf[32];
		off += (size_t)snprintf(t->rules + off, sizeof t->rules - off, "%s=%s\n", h->rules.defs[i].key,
		                        rules_value_str(&h->rules, i, buf, sizeof buf));
	}
	json_t *seats = json_array();
	for (int s = 0; s < h->players; s++) {
		json_t *x = json_pack("{s:s, s:b, s:i}", "name", h->seat[s].name, "open", h->seat[s].open, "level",
		                      h->seat[s].level);
		if (x && h->seat[s].left_by[0]) {
			json_object_set_new(x, "left_by", json_string(h->seat[s].left_by));
			json_object_set_new(x, "left_deal", json_integer(h->seat[s].left_deal));
		}
		json_array_append_new(seats, x);
	}
	char *js = json_dumps(seats, JSON_COMPACT);
	json_decref(seats);
	snprintf(t->seats, sizeof t->seats, "%s", js ? js : "[]");
	free(js);
	/* The spectators, as many as the row holds (whole entries only). */
	size_t w = 0, wcap = sizeof t->watchers;
	t->watchers[w++] = '[';
	for (int i = 0; i < h->nmembers; i++) {
		const struct host_member *m = h->member[i];
		if (m->seat >= 0)
			continue;
		json_t *x = json_pack("{s:s, s:s}", "name", m->name, "lang", m->lang);
		char *one = x ? json_dumps(x, JSON_COMPACT) : NULL;
		json_decref(x);
		size_t n = one ? strlen(one) : 0;
		if (one && w + n + 2 < wcap) {
			if (w > 1)
				t->watchers[w++] = ',';
			memcpy(t->watchers + w, one, n);
			w += n;
		}
		free(one);
	}
	t->watchers[w++] = ']';
	t->watchers[w] = '\0';
}

void host_history_path(const char *dir, long table, long long game, char *out, size_t len)
{
	if (game > 0)
		snprintf(out, len, "%s/%ld-%lld.jsonl", dir, table, game);
	else
		snprintf(out, len, "%s/%ld.jsonl", dir, table);
}

int host_history_keep(struct host *h, long long game)
{
	if (!h->cfg->log_dir || !h->opened || game <= 0)
		return 0;
	char path[4096], err[ERR_MAX];
	host_history_path(h->cfg->log_dir, h->id, game, path, sizeof path);
	if (table_log_link(&h->t, path, err, sizeof err) < 0) {
		log_say("table %ld: %s", h->id, err);
		return -1;
	}
	return 0;
}

void host_save(struct host *h)
{
	struct store_table t;
	host_row(h, &t);
	store_table_put(h->store, &t);
}

/* Every event as the table applies it: the deals begun are counted (the
 * journal replayed after a restart counts them again); a move is applied
 * before it is kept, so the count holds once it is (commit_action), and
 * goes back when it is undone (pause_play). */
static void on_tap(void *ctx, const struct event *e)
{
	struct host *h = ctx;
	if (e->type == EV_HAND_START)
		h->deal_tap++;
}

/* Open the table (the game set up, its hand history opened): nothing
 * played yet. */
static int setup(struct host *h, long id, const struct game_ops *g, int players, const struct rules *rules,
                 uint64_t seed, int seed_by, struct store *store, const struct host_config *cfg, struct net_out out,
                 int restoring, char *err, size_t errlen)
{
	memset(h, 0, sizeof *h);
	h->id = id;
	h->g = g;
	h->players = players;
	h->seed = seed;
	h->seed_by = seed_by;
	h->rules = *rules;
	h->store = store;
	h->cfg = cfg;
	h->out = out;
	h->turn_seat = -1;
	for (int s = 0; s < players; s++)
		h->seat[s].level = 2;
	struct table_options o;
	memset(&o, 0, sizeof o);
	o.game = g;
	o.players = players;
	o.dealer = -1;
	o.seed = seed;
	o.seed_from = seed_by == HOST_SEED_CLIENT ? "client" : seed_by == HOST_SEED_OPERATOR ? "operator" : "server";
	o.rules = *rules;
	char path[4096];
	if (cfg->log_dir) {
		host_history_path(cfg->log_dir, id, 0, path, sizeof path);
		o.log_path = path;
		o.log_shut = 1; /* no descriptor held between moves */
		/* Never emptied: a restored table's goes on, a new one is new. */
		o.log_mode = restoring ? HIST_APPEND : HIST_NEW;
	}
	if (table_open(&h->t, &o, err, errlen) < 0)
		return -1;
	h->opened = 1;
	h->t.tap = (struct sink){ on_tap, h };
	table_set_commit(&h->t, commit_action, h);
	/* The rules the game settled ("auto" values) are the table's. */
	h->rules = *table_rules(&h->t);
	return 0;
}

int host_create(struct host *h, long id, const struct game_ops *g, int players, const struct rules *rules,
                uint64_t seed, int seed_by, const char *creator, struct store *store,
                const struct host_config *cfg, struct net_out out, char *err, size_t errlen)
{
	if (setup(h, id, g, players, rules, seed, seed_by, store, cfg, out, 0, err, errlen) < 0) {
		host_free(h);
		return -1;
	}
	snprintf(h->creator, sizeof h->creator, "%s", creator);
	h->state = HOST_WAITING;
	return 0;
}

struct journal_read {
	struct script s;
	int bad;
};

static void journal_line(void *ctx, int seat, const char *text)
{
	struct journal_read *r = ctx;
	if (r->bad)
		return;
	xgrow((void **)&r->s.lines, &r->s.cap, r->s.n + 1, sizeof *r->s.lines);
	struct script_line *l = &r->s.lines[r->s.n];
	char err[ERR_MAX];
	memset(l, 0, sizeof *l);
	if (act_parse(text, &l->act, err, sizeof err) < 0) {
		r->bad = 1;
		return;
	}
	l->line = r->s.n + 1;
	l->seat = seat;
	snprintf(l->text, sizeof l->text, "%s", text);
	r->s.n++;
}

static void drop_member(struct host *h, struct host_member *m);

static struct host_member *add_member(struct host *h, const char *name, const char *lang)
{
	if (h->nmembers == HOST_MAX_MEMBERS) {
		/* Full: the spectator gone the longest makes room. */
		struct host_member *old = NULL;
		for (int i = 0; i < h->nmembers; i++) {
			struct host_member *x = h->member[i];
			if (x->seat < 0 && x->conn < 0 && (!old || x->gone_ms < old->gone_ms))
				old = x;
		}
		if (!old)
			return NULL;
		drop_member(h, old);
	}
	struct host_member *m = xcalloc(1, sizeof *m);
	m->h = h;
	snprintf(m->name, sizeof m->name, "%s", name);
	snprintf(m->lang, sizeof m->lang, "%s", lang);
	m->conn = -1;
	m->seat = -1;
	h->member[h->nmembers++] = m;
	return m;
}

/* What a worker searches for a table (bot) or a member (hint): a copy of
 * what the search needs, so that the worker touches nothing of the loop's;
 * h and m are the loop's alone (NULL: gone, the answer is dropped). */
struct host_job {
	struct host *h;
	struct host_member *m;
	int hint, timed;           /* a hint; the turn timer's move for a person */
	int moves, seat, level;
	const struct game_ops *g;
	const struct bot_ops *b;
	void (*think)(int hint);
	struct rng rng;
	struct action a;
	struct bot_reason why;
	max_align_t st[];          /* the game's state (state_size bytes), aligned for any game's struct */
};

static void drop_member(struct host *h, struct host_member *m)
{
	if (m->hint_job)
		m->hint_job->m = NULL;
	hostview_unbind(h, m);
	for (int k = 0; k < m->nmissed; k++)
		free(m->missed[k]);
	free(m->catch_up);
	for (int i = 0; i < h->nmembers; i++)
		if (h->member[i] == m) {
			h->member[i] = h->member[--h->nmembers];
			break;
		}
	free(m);
}

int host_restore(struct host *h, const struct store_table *t, struct store *store,
                 const struct host_config *cfg, struct net_out out, long long now_ms, char *err,
                 size_t errlen)
{
	const struct game_ops *g = registry_ops(t->game);
	if (!g)
		return errf(err, errlen, "table %ld: no game '%s'", t->id, t->game);
	if (t->players < g->min_players || t->players > g->max_players)
		return errf(err, errlen, "table %ld: %d players", t->id, t->players);
	struct rules rules;
	rules_init(&rules, g->rules, g->nrules);
	char buf[STORE_TEXT_MAX];
	snprintf(buf, sizeof buf, "%s", t->rules);
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (rules_set_arg(&rules, line, err, errlen) < 0)
			return -1;
	if (setup(h, t->id, g, t->players, &rules, t->seed, t->seed_by, store, cfg, out, 1, err, errlen) < 0) {
		host_free(h);
		return -1;
	}
	snprintf(h->creator, sizeof h->creator, "%s", t->creator);
	h->private_ = t->private_;
	snprintf(h->pwhash, sizeof h->pwhash, "%s", t->pwhash);
	json_t *seats = json_loads(t->seats, 0, NULL);
	for (int s = 0; s < h->players && json_is_array(seats); s++) {
		json_t *x = json_array_get(seats, (size_t)s);
		const char *name = json_string_value(json_object_get(x, "name"));
		snprintf(h->seat[s].name, sizeof h->seat[s].name, "%s", name ? name : "");
		h->seat[s].open = json_is_true(json_object_get(x, "open"));
		h->seat[s].level = (int)json_integer_value(json_object_get(x, "level"));
		const char *left = json_string_value(json_object_get(x, "left_by"));
		snprintf(h->seat[s].left_by, sizeof h->seat[s].left_by, "%s", left ? left : "");
		h->seat[s].left_deal = (int)json_integer_value(json_object_get(x, "left_deal"));
		struct host_member *m = h->seat[s].name[0] ? add_member(h, h->seat[s].name, "en") : NULL;
		if (m) {
			/* Away until they log in again. */
			m->seat = s;
			h->seat[s].away_ms = now_ms ? now_ms : 1;
		}
	}
	json_decref(seats);
	/* The spectators: away, their places kept (cfg keep_ms) from now. */
	json_t *watchers = json_loads(t->watchers, 0, NULL);
	for (size_t i = 0; i < json_array_size(watchers); i++) {
		json_t *x = json_array_get(watchers, i);
		const char *name = json_string_value(json_object_get(x, "name"));
		const char *lang = json_string_value(json_object_get(x, "lang"));
		if (!name || !name[0] || host_member(h, name))
			continue;
		struct host_member *m = add_member(h, name, lang ? lang : "en");
		if (m)
			m->gone_ms = now_ms ? now_ms : 1;
	}
	json_decref(watchers);
	h->state = HOST_WAITING;
	if (t->state != HOST_WAITING) {
		struct journal_read r;
		memset(&r, 0, sizeof r);
		snprintf(r.s.name, sizeof r.s.name, "table %ld", h->id);
		store_journal_each(store, h->id, journal_line, &r);
		update_kinds(h, now_ms);
		table_start(&h->t);
		int rc = r.bad ? -1 : table_replay(&h->t, &r.s, err, errlen);
		script_release(&r.s);
		if (rc < 0) {
			if (r.bad)
				errf(err, errlen, "table %ld: its journal cannot be read", h->id);
			host_free(h);
			return -1;
		}
		h->state = table_to_act(&h->t) < 0 ? HOST_OVER : HOST_PLAYING;
		h->deal = h->deal_tap; /* the deals replayed */
		if (h->state == HOST_OVER)
			h->over_ms = now_ms ? now_ms : 1;
		/* The hand history made to match the game replayed. */
		if (table_log_reconcile(&h->t, err, errlen) < 0) {
			log_say("table %ld: %s", h->id, err);
			if (h->state == HOST_PLAYING)
				pause_play(h, TABLE_NOT_LOGGED, now_ms);
		}
	}
	return 0;
}

void host_free(struct host *h)
{
	if (h->bot_job)
		h->bot_job->h = NULL;
	for (int i = 0; i < h->nmembers; i++)
		if (h->member[i]->hint_job)
			h->member[i]->hint_job->h = NULL;
	while (h->nmembers)
		drop_member(h, h->member[h->nmembers - 1]);
	if (h->opened)
		table_close(&h->t);
	memset(h, 0, sizeof *h);
}

/* The game is over: the table stays a while (cfg keep_ms) so that players
 * coming back still hear the end. */
static void game_over(struct host *h, long long now_ms)
{
	h->state = HOST_OVER;
	h->over_ms = now_ms ? now_ms : 1;
	host_save(h);
	if (h->cfg->game_over)
		h->cfg->game_over(h); /* the registered players' figures and ratings */
}

/* After an action (written to the hand history and the journal by the
 * table before the views were told: commit_action): notice the end. */
static void after_action(struct host *h, long long now_ms)
{
	if (table_to_act(&h->t) < 0)
		game_over(h, now_ms);
	h->next_bot_ms = now_ms + h->cfg->bot_delay_ms;
}

/* 1 when the seat was left in the deal being played (its mark holds). */
static int left_now(const struct host *h, int s)
{
	return h->state == HOST_PLAYING && h->seat[s].left_by[0] && h->seat[s].left_deal == h->deal;
}

int host_may_sit(const struct host *h, const char *name, int seat, const struct i18n_lang *L, char *err, size_t errlen)
{
	if (hostview_seat_of(h, name) >= 0)
		return 0; /* back at their own */
	if (seat < 0 || seat >= h->players)
		return errf(err, errlen, i18n_ntr(L, "this table has %d seat", "this table has %d seats", h->players),
		            h->players);
	if (h->seat[seat].name[0] || !h->seat[seat].open)
		return errf(err, errlen, i18n_tr(L, "seat %d is not free"), seat + 1);
	if (h->seed_by == HOST_SEED_CLIENT && strcmp(name, h->creator) != 0)
		return errf(err, errlen, "%s", i18n_tr(L, "the creator chose this table's deal: only they may sit"));
	if (left_now(h, seat) && strcmp(h->seat[seat].left_by, name) != 0)
		return errf(err, errlen, i18n_tr(L, "seat %d is kept for its player until this deal ends"), seat + 1);
	for (int s = 0; s < h->players; s++)
		if (s != seat && left_now(h, s) && !strcmp(h->seat[s].left_by, name))
			return errf(err, errlen, "%s", i18n_tr(L, "you held another seat in this deal: sit down at the next one"));
	return 0;
}

int host_join(struct host *h, const char *name, const char *lang, long conn, int seat, long long now_ms,
              char *err, size_t errlen)
{
	touch(h);
	struct host_member *m = host_member(h, name);
	int held = hostview_seat_of(h, name);
	if (seat >= 0 && held < 0 && host_may_sit(h, name, seat, i18n_of(lang), err, errlen) < 0)
		return -1;
	if (!m && !(m = add_member(h, name, lang)))
		return errf(err, errlen, "%s", i18n_tr(i18n_of(lang), "this table is full"));
	snprintf(m->lang, sizeof m->lang, "%s", lang);
	m->conn = conn;
	m->gone_ms = 0;
	/* A connection come back has no state of the table: the next is whole. */
	m->changes = h->out.changes && h->out.changes(h->out.ctx, conn) != NULL;
	m->base = 0;
	int back = 0;
	if (held >= 0) {
		m->seat = held;
		back = h->seat[held].away_ms != 0;
		h->seat[held].away_ms = 0;
		h->seat[held].bot_told = 0;
	} else if (seat >= 0) {
		snprintf(h->seat[seat].name, sizeof h->seat[seat].name, "%s", name);
		h->seat[seat].away_ms = 0;
		m->seat = seat;
		host_save(h);
	} else {
		/* A spectator is kept in the store (with their language), as a
		 * player is in their seat. */
		m->seat = -1;
		host_save(h);
	}
	update_kinds(h, now_ms);
	/* What was missed, bounded, then where the table is. */
	if (m->nmissed || m->dropped) {
		json_t *o = json_pack("{s:s, s:I, s:i, s:[]}", "type", "missed", "table", (json_int_t)h->id,
		                      "dropped", m->dropped, "says");
		json_t *arr = json_object_get(o, "says");
		for (int i = 0; i < m->nmissed; i++) {
			json_t *x = json_loads(m->missed[i], 0, NULL);
			if (x)
				json_array_append_new(arr, x);
			free(m->missed[i]);
		}
		m->nmissed = m->dropped = 0;
		/* Sent with the view's first state, which says where the game stands. */
		free(m->catch_up);
		m->catch_up = json_dumps(o, JSON_COMPACT);
		json_decref(o);
		if (h->state == HOST_WAITING)
			hostview_catch_up(m, NULL);
	}
	hostview_bind(h, m);
	if (m->catch_up)
		hostview_catch_up(m, NULL);
	if (h->paused)
		say_paused(h, m, 1);
	if (back)
		hostview_announce(h, N_("%s is back."), N_("You are back at table %lld."), name);
	else if (m->seat >= 0 && held < 0)
		hostview_announce(h, N_("%s sits down."), "", name);
	return 0;
}

void host_tell_seat(struct host *h, const char *name)
{
	struct host_member *m = host_member(h, name);
	if (!m || m->seat < 0)
		return;
	char text[256];
	snprintf(text, sizeof text, i18n_tr(i18n_of(m->lang), N_("You sit at table %lld, seat %d.")), (long long)h->id,
	         m->seat + 1);
	json_t *o = json_pack("{s:s, s:I, s:i, s:o}", "type", "say", "table", (json_int_t)h->id, "moves",
	                      table_moves(&h->t), "text", hostview_text(text));
	hostview_send(h, m, proto_dump(o));
}

void host_disconnect(struct host *h, const char *name, long long now_ms)
{
	touch(h);
	struct host_member *m = host_member(h, name);
	if (!m)
		return;
	m->conn = -1;
	if (m->seat < 0) {
		/* A spectator's place is kept a while, with what they miss. */
		m->gone_ms = now_ms ? now_ms : 1;
		return;
	}
	h->seat[m->seat].away_ms = now_ms ? now_ms : 1;
	h->seat[m->seat].bot_told = 0;
	/* Said at once, with how long the seat waits; the bot taking over is
	 * said when the grace ends (host_tick). */
	if (h->state == HOST_PLAYING)
		hostview_say_lost(h, name);
}

void host_stand(struct host *h, const char *name, int leave)
{
	touch(h);
	struct host_member *m = host_member(h, name);
	int s = hostview_seat_of(h, name);
	if (s >= 0) {
		if (h->state == HOST_PLAYING && h->deal > 0) {
			/* Its cards were theirs: nobody else takes them in this deal. */
			snprintf(h->seat[s].left_by, sizeof h->seat[s].left_by, "%s", name);
			h->seat[s].left_deal = h->deal;
		}
		if (h->has_held && h->held_seat == s)
			h->has_held = 0; /* their move waiting is theirs no more */
		h->seat[s].name[0] = '\0';
		h->seat[s].away_ms = 0;
		h->seat[s].open = 1;
		host_save(h);
		if (h->state == HOST_PLAYING)
			hostview_announce(h, N_("%s stands up. A bot plays the seat."),
			            N_("You leave your seat; a bot plays in your place."), name);
		else
			hostview_announce(h, N_("%s stands up."), N_("You stand up."), name);
		update_names(h);
	}
	if (!m)
		return;
	if (leave) {
		drop_member(h, m);
	} else if (m->seat >= 0) {
		m->seat = -1;
		hostview_bind(h, m);
	}
	host_save(h); /* the spectators changed */
}

int host_set_seat(struct host *h, int seat, int open, int level, const struct i18n_lang *L, char *err, size_t errlen)
{
	touch(h);
	if (seat >= h->players)
		return errf(err, errlen, i18n_ntr(L, "this table has %d seat", "this table has %d seats", h->players),
		            h->players);
	if (h->seat[seat].name[0])
		return errf(err, errlen, i18n_tr(L, "seat %d is held by a player"), seat + 1);
	h->seat[seat].open = open;
	h->seat[seat].level = level;
	table_set_seat(&h->t, seat, bot_plays(h, seat, 0) ? SEAT_BOT : SEAT_HUMAN, level);
	host_save(h);
	return 0;
}

int host_start(struct host *h, long long now_ms, const struct i18n_lang *L, char *err, size_t errlen)
{
	touch(h);
	if (h->state != HOST_WAITING)
		return errf(err, errlen, "%s", i18n_tr(L, "the game has already begun"));
	h->state = HOST_PLAYING;
	update_kinds(h, now_ms);
	for (int i = 0; i < h->nmembers; i++)
		hostview_bind(h, h->member[i]);
	table_start(&h->t);
	h->deal = h->deal_tap;
	if (table_log_flush(&h->t) < 0)
		pause_play(h, TABLE_NOT_LOGGED, now_ms);
	host_save(h);
	h->next_bot_ms = now_ms + h->cfg->bot_delay_ms;
	if (table_to_act(&h->t) < 0)
		game_over(h, now_ms);
	return 0;
}

/* The member holding a seat at a table being played, or NULL with the
 * error's code and message. */
static struct host_member *seated_member(struct host *h, const char *name, const struct i18n_lang *L,
                                         const char **code, const char **msg)
{
	struct host_member *m = host_member(h, name);
	*code = *msg = NULL;
	if (h->state != HOST_PLAYING) {
		*code = "not_playing";
		*msg = i18n_tr(L, "the game is not being played");
	} else if (hostview_seat_of(h, name) < 0 || !m || !m->kind) {
		*code = "not_seated";
		*msg = i18n_tr(L, "you hold no seat at this table");
	}
	return *code ? NULL : m;
}

int host_action(struct host *h, const char *name, const struct action *a, long long now_ms)
{
	touch(h);
	const char *code, *msg;
	struct host_member *who = host_member(h, name);
	struct host_member *m = seated_member(h, name, who ? i18n_of(who->lang) : NULL, &code, &msg);
	int seat = hostview_seat_of(h, name);
	if (!m) {
		if ((m = who) && m->conn >= 0)
			h->out.send(h->out.ctx, m->conn, proto_error(code, msg, "action"));
		return -1;
	}
	update_kinds(h, now_ms);
	struct refusal why;
	act_format(a, m->acting, sizeof m->acting);
	if (table_act(&h->t, seat, a, &why) < 0) {
		if (why.code != TABLE_NOT_STORED && why.code != TABLE_NOT_LOGGED) {
			m->kind->only = m;
			view_refusal(&m->kind->v, &why);
			m->kind->only = NULL;
			return -1;
		}
		/* Not kept, not told: it waits, tried again every HOST_RETRY_MS. */
		int was = h->paused;
		h->has_held = 1;
		h->held_seat = seat;
		h->held = *a;
		pause_play(h, why.code, now_ms);
		if (was)
			say_paused(h, m, 1);
		return -1;
	}
	after_action(h, now_ms);
	return 0;
}

int host_verbosity(struct host *h, const char *name, int verbosity, int say)
{
	struct host_member *m = host_member(h, name);
	if (!m)
		return -1;
	int was = m->verbosity;
	m->verbosity = verbosity;
	struct host_kind *k = m->kind;
	if (k && was != verbosity) {
		/* Alone in their kind, and no kind of the new verbosity here: the
		 * view changes (no prompt said again); else they change kind. */
		int other = 0;
		for (int i = 0; i < h->nkinds; i++)
			other |= h->kind[i]->seat == k->seat && h->kind[i]->verbosity == verbosity &&
			         !strcmp(h->kind[i]->lang, k->lang);
		if (k->users == 1 && !other) {
			k->verbosity = verbosity;
			view_set_verbosity(&k->v, verbosity);
		} else {
			hostview_bind(h, m);
		}
	}
	if (say && m->conn >= 0) {
		const char *text = i18n_tr(i18n_of(m->lang), verbosity == TALK_SHORT ? N_("Short announcements.")
		                                                                      : N_("Full announcements."));
		hostview_send(h, m, proto_dump(json_pack("{s:s, s:I, s:i, s:o}", "type", "say", "table", (json_int_t)h->id,
		                                   "moves", table_moves(&h->t), "text", hostview_text(text))));
	}
	return 0;
}

/* Tell the seat's player, if here, how long they have left to act. */
static void warn_turn(struct host *h, int seat, long long left_ms)
{
	struct host_member *m = host_member(h, h->seat[seat].name);
	if (!m || m->conn < 0)
		return;
	long secs = (long)((left_ms + 999) / 1000);
	char text[256];
	snprintf(text, sizeof text, i18n_ntr(i18n_of(m->lang), "Hurry, %ld second left.", "Hurry, %ld seconds left.", secs),
	         secs);
	json_t *o = json_pack("{s:s, s:I, s:i, s:o, s:b, s:s, s:i}", "type", "say", "table", (json_int_t)h->id,
	                      "moves", table_moves(&h->t), "text", hostview_text(text), "urgent", 1, "cue",
	                      cue_name(CUE_YOUR_TURN), "from", seat);
	hostview_send(h, m, proto_dump(o));
}

/* ---- bots: their decisions searched on a worker (cfg work) ---- */

static struct host_job *job_new(struct host *h)
{
	struct host_job *j = xcalloc(1, sizeof *j + h->t.g->state_size);
	j->h = h;
	j->g = h->t.g;
	j->b = h->t.bot;
	j->think = h->cfg->think;
	j->moves = table_moves(&h->t);
	j->seat = table_to_act(&h->t);
	memcpy(j->st, h->t.st, h->t.g->state_size);
	return j;
}

/* On a worker: the search, on the job's copies alone. */
static void job_run(void *arg)
{
	struct host_job *j = arg;
	if (j->hint)
		bot_hint(j->g, j->b, j->st, BOT_BUDGET_DEFAULT, &j->rng, &j->a, &j->why);
	else
		bot_choose(j->g, j->b, j->st, j->level, &j->rng, &j->a);
	if (j->think)
		j->think(j->hint);
}

/* Play a bot's action for the seat to act: 1 played; 0 not (the table
 * paused with it as the move waiting, or the game ended on an error). */
static int bot_apply(struct host *h, const struct action *a, long long now_ms)
{
	int seat = table_to_act(&h->t);
	struct refusal why;
	if (table_act(&h->t, seat, a, &why) == 0) {
		after_action(h, now_ms);
		return 1;
	}
	if (why.code == TABLE_NOT_STORED || why.code == TABLE_NOT_LOGGED) {
		h->has_held = 1;
		h->held_seat = seat;
		h->held = *a;
		pause_play(h, why.code, now_ms);
		return 0;
	}
	char txt[ACT_STR_MAX];
	log_at(LOGL_ERROR, "table %ld: internal error: the bot's action '%s' was refused (%d)", h->id,
	        act_format(a, txt, sizeof txt), why.code);
	game_over(h, now_ms);
	return 0;
}

int host_tick(struct host *h, long long now_ms);

/* On the loop: a bot's decision back; played if the table is still at
 * that move, else dropped. */
static void bot_done(void *arg, int ran)
{
	struct host_job *j = arg;
	struct host *h = j->h;
	if (h) {
		h->bot_job = NULL;
		touch(h);
	}
	if (h && ran && h->state == HOST_PLAYING && !h->paused && table_moves(&h->t) == j->moves &&
	    table_to_act(&h->t) == j->seat && (j->timed || table_auto_turn(&h->t))) {
		long long now_ms = h->now_ms;
		h->t.bot_rng = j->rng;
		if (j->timed) {
			/* Said when it plays: a move of the person's own, come
			 * first, leaves nothing to say. */
			hostview_announce(h, N_("%s ran out of time. A bot plays this move."), N_("Your time is up: a bot plays this move."),
			            h->seat[j->seat].name);
			table_set_seat(&h->t, j->seat, SEAT_BOT, j->level);
		}
		int played = bot_apply(h, &j->a, now_ms);
		if (j->timed)
			update_kinds(h, now_ms);
		/* Bots that do not wait ask for the next move at once. */
		if (played && h->cfg->bot_delay_ms <= 0)
			host_tick(h, now_ms);
	}
	free(j);
}

/* A bot plays the seat to act (timed: the move of a person whose time ran
 * out): with cfg work, the decision is asked of a worker (0); else made
 * here: 1 when played. */
static int bot_move(struct host *h, long long now_ms, int timed)
{
	int seat = table_to_act(&h->t);
	if (h->cfg->work) {
		struct host_job *j = job_new(h);
		j->timed = timed;
		j->level = h->seat[seat].level;
		j->rng = h->t.bot_rng;
		if (work_submit(h->cfg->work, job_run, bot_done, j) == 0) {
			h->bot_job = j;
			return 0;
		}
		free(j); /* the workers' queue is full: decided here */
	}
	if (timed) {
		hostview_announce(h, N_("%s ran out of time. A bot plays this move."), N_("Your time is up: a bot plays this move."),
		            h->seat[seat].name);
		table_set_seat(&h->t, seat, SEAT_BOT, h->seat[seat].level);
	}
	char err[ERR_MAX];
	int rc = table_auto_step(&h->t, err, sizeof err);
	if (timed)
		update_kinds(h, now_ms);
	if (rc == 4 || rc == 5) {
		pause_play(h, rc == 4 ? TABLE_NOT_STORED : TABLE_NOT_LOGGED, now_ms);
		return 0;
	}
	if (rc != 0) {
		log_say("table %ld: %s", h->id, err);
		game_over(h, now_ms);
		return 0;
	}
	after_action(h, now_ms);
	return 1;
}

/* On the loop: a hint back, said if its asker is still to act at that
 * move, else dropped. */
static void hint_done(void *arg, int ran)
{
	struct host_job *j = arg;
	struct host_member *m = j->m;
	if (m)
		m->hint_job = NULL;
	struct host *h = j->h;
	if (h && m && ran && m->kind && h->state == HOST_PLAYING && table_moves(&h->t) == j->moves &&
	    m->seat == j->seat && view_hint_due(&m->kind->v)) {
		m->kind->only = m;
		view_hint_tell(&m->kind->v, &j->a, &j->why);
		m->kind->only = NULL;
	}
	free(j);
}

/* The hint searched and said here, to m alone. */
static int hint_here(struct host_member *m)
{
	m->kind->only = m;
	int rc = view_hint(&m->kind->v);
	m->kind->only = NULL;
	return rc;
}

int host_hint(struct host *h, const char *name, const struct i18n_lang *L, const char **code, const char **msg)
{
	struct host_member *m = seated_member(h, name, L, code, msg);
	if (!m)
		return -1;
	if (!h->cfg->work || !view_hint_due(&m->kind->v))
		return hint_here(m);
	if (m->hint_job)
		return 0; /* theirs is on its way */
	struct host_job *j = job_new(h);
	j->m = m;
	j->hint = 1;
	view_hint_seed(&m->kind->v, &j->rng);
	if (work_submit(h->cfg->work, job_run, hint_done, j) < 0) {
		free(j);
		return hint_here(m);
	}
	m->hint_job = j;
	return 0;
}

/* The turn timer: a person who is here but does not act is warned, then a
 * bot of the seat's level plays that one move (the seat stays theirs). It
 * never delays anything: bots and scripted moves are not timed. 1 when a
 * move was played. */
static int turn_timer(struct host *h, long long now_ms)
{
	int s = table_to_act(&h->t);
	if (h->cfg->turn_ms <= 0 || s < 0 || !h->seat[s].name[0] || !table_awaits(&h->t, s)) {
		h->turn_seat = -1;
		return 0;
	}
	if (s != h->turn_seat || table_moves(&h->t) != h->turn_moves) {
		h->turn_seat = s;
		h->turn_moves = table_moves(&h->t);
		h->turn_since_ms = now_ms;
		h->turn_warned = 0;
		return 0;
	}
	long long left = h->cfg->turn_ms - (now_ms - h->turn_since_ms);
	if (left > 0) {
		long long warn = h->cfg->turn_ms / 3 < HOST_TURN_WARN_MS ? h->cfg->turn_ms / 3 : HOST_TURN_WARN_MS;
		if (!h->turn_warned && left <= warn) {
			h->turn_warned = 1;
			warn_turn(h, s, left);
		}
		return 0;
	}
	return bot_move(h, now_ms, 1);
}

/* A paused table tries again to keep the move waiting: the player's held
 * action, or the bot's; a hand history that could not be written is
 * written. 1 when a move was played (and play resumed). */
static int retry_paused(struct host *h, long long now_ms)
{
	if (now_ms - h->retry_ms < HOST_RETRY_MS && now_ms >= h->retry_ms)
		return 0;
	h->retry_ms = now_ms;
	char err[ERR_MAX];
	if (h->has_held && h->held_seat == table_to_act(&h->t)) {
		struct refusal why;
		if (table_act(&h->t, h->held_seat, &h->held, &why) == 0) {
			h->has_held = 0;
			after_action(h, now_ms);
			return 1;
		}
		if (why.code == TABLE_NOT_STORED || why.code == TABLE_NOT_LOGGED) {
			h->paused = why.code;
			return 0;
		}
	}
	h->has_held = 0;
	if (table_auto_turn(&h->t)) {
		int rc = table_auto_step(&h->t, err, sizeof err);
		if (rc == 0) {
			after_action(h, now_ms);
			return 1;
		}
		if (rc == 4 || rc == 5) {
			h->paused = rc == 4 ? TABLE_NOT_STORED : TABLE_NOT_LOGGED;
		} else {
			log_say("table %ld: %s", h->id, err);
			game_over(h, now_ms);
		}
		return 0;
	}
	/* A person's turn and nothing waiting (their move went with them, or
	 * the turn timer's could not be kept): the hand history's lines
	 * waiting, or the table's row in the store, tell whether saving works
	 * again; if their move still cannot be kept, the table pauses again. */
	struct store_table row;
	host_row(h, &row);
	if (h->paused == TABLE_NOT_LOGGED ? table_log_flush(&h->t) == 0 : store_table_put(h->store, &row) == 0)
		resume_play(h);
	return 0;
}

int host_tick(struct host *h, long long now_ms)
{
	h->now_ms = now_ms;
	if (h->state != HOST_PLAYING)
		return 0;
	for (int s = 0; s < h->players; s++)
		if (h->seat[s].name[0] && h->seat[s].away_ms && !h->seat[s].bot_told && bot_plays(h, s, now_ms)) {
			h->seat[s].bot_told = 1;
			hostview_announce(h, N_("A bot plays for %s."), N_("You were away: a bot played for you."),
			            h->seat[s].name);
		}
	update_kinds(h, now_ms);
	if (h->paused) {
		/* Neither bots nor the turn timer: only the move waiting, tried
		 * again. */
		return retry_paused(h, now_ms);
	}
	if (h->bot_job)
		return 0; /* a decision is on its way */
	if (turn_timer(h, now_ms))
		return 1;
	if (!table_auto_turn(&h->t) || now_ms < h->next_bot_ms)
		return 0;
	return bot_move(h, now_ms, 0);
}

/* How long a waiting table nobody is connected to stays. */
static long long deserted_ms(const struct host *h)
{
	long long d = h->cfg->deserted_ms;
	return d > 0 && d < h->cfg->keep_ms ? d : h->cfg->keep_ms;
}

int host_expired(struct host *h, long long now_ms)
{
	int dropped = 0;
	for (int i = h->nmembers - 1; i >= 0; i--) {
		struct host_member *m = h->member[i];
		if (m->seat < 0 && m->conn < 0 && m->gone_ms && now_ms - m->gone_ms >= h->cfg->keep_ms) {
			drop_member(h, m);
			dropped = 1;
		}
	}
	if (dropped)
		host_save(h); /* their places are no longer kept */
	int here = 0;
	for (int i = 0; i < h->nmembers; i++)
		here |= h->member[i]->conn >= 0;
	if (here)
		h->empty_ms = 0;
	else if (!h->empty_ms)
		h->empty_ms = now_ms ? now_ms : 1;
	switch (h->state) {
	case HOST_OVER:
		return !h->nmembers || now_ms - h->over_ms >= h->cfg->keep_ms;
	case HOST_WAITING:
		return !h->nmembers || (h->empty_ms && now_ms - h->empty_ms >= deserted_ms(h));
	default:
		return 0;
	}
}

void host_chat(struct host *h, const char *from, const char *text)
{
	json_t *o = json_pack("{s:s, s:I, s:s, s:s, s:s}", "type", "chat", "table", (json_int_t)h->id, "from", from,
	                      "text", text, "cue", "chat");
	char *s = proto_dump(o);
	if (!s)
		return;
	for (int i = 0; i < h->nmembers; i++)
		hostview_send(h, h->member[i], xstrdup(s));
	free(s);
}

static long long sooner(long long a, long long b)
{
	return a < b ? a : b;
}

/* What host_tick and host_expired look at, and when each comes due. */
long long host_due(const struct host *h, long long now_ms)
{
	long long due = LLONG_MAX;
	if (h->state != h->state_seen)
		return now_ms; /* for the lobby to notice */
	int here = 0;
	for (int i = 0; i < h->nmembers; i++) {
		const struct host_member *m = h->member[i];
		here |= m->conn >= 0;
		if (m->seat < 0 && m->conn < 0 && m->gone_ms)
			due = sooner(due, m->gone_ms + h->cfg->keep_ms);
	}
	if (here ? h->empty_ms != 0 : h->empty_ms == 0)
		return now_ms; /* host_expired notes it */
	switch (h->state) {
	case HOST_OVER:
		return h->nmembers ? sooner(due, h->over_ms + h->cfg->keep_ms) : now_ms;
	case HOST_WAITING:
		if (!h->nmembers)
			return now_ms;
		return h->empty_ms ? sooner(due, h->empty_ms + deserted_ms(h)) : due;
	case HOST_PLAYING:
		break;
	default:
		return due;
	}
	for (int s = 0; s < h->players; s++)
		if (h->seat[s].name[0] && h->seat[s].away_ms) {
			/* A bot takes the seat, and says so once. */
			long long at = h->seat[s].away_ms + h->cfg->grace_ms;
			if (!h->seat[s].bot_told || at > h->now_ms)
				due = sooner(due, at);
		}
	if (h->paused)
		return sooner(due, h->retry_ms + HOST_RETRY_MS);
	if (h->bot_job)
		return now_ms; /* its answer uses the last tick's time */
	int s = table_to_act(&h->t);
	if (h->cfg->turn_ms > 0 && s >= 0 && h->seat[s].name[0] && table_awaits(&h->t, s)) {
		if (s != h->turn_seat || table_moves(&h->t) != h->turn_moves)
			return now_ms; /* the timer starts */
		long long warn = h->cfg->turn_ms / 3 < HOST_TURN_WARN_MS ? h->cfg->turn_ms / 3 : HOST_TURN_WARN_MS;
		long long end = h->turn_since_ms + h->cfg->turn_ms;
		due = sooner(due, h->turn_warned ? end : end - warn);
	} else if (h->turn_seat >= 0) {
		return now_ms; /* the timer stops */
	}
	if (table_auto_turn(&h->t))
		due = sooner(due, h->next_bot_ms);
	return due;
}
