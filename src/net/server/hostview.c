/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/hostview.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/log.h"
#include "core/cue.h"
#include "core/err.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "net/server/jstate.h"
#include "net/wire/jtext.h"
#include "net/wire/proto.h"

int hostview_seat_of(const struct host *h, const char *name)
{
	for (int s = 0; s < h->players; s++)
		if (!strcmp(h->seat[s].name, name))
			return s;
	return -1;
}

void hostview_send(struct host *h, struct host_member *m, char *text)
{
	if (!text)
		return;
	if (m->conn >= 0) {
		h->out.send(h->out.ctx, m->conn, text);
		return;
	}
	if (m->nmissed == HOST_MISSED_MAX) {
		free(m->missed[0]);
		memmove(m->missed, m->missed + 1, (HOST_MISSED_MAX - 1) * sizeof m->missed[0]);
		m->nmissed--;
		m->dropped++;
	}
	m->missed[m->nmissed++] = text;
}

json_t *hostview_text(const char *s)
{
	json_t *v = json_string(s);
	return v ? v : json_string("");
}

/* ---- the kinds of listener, their views as messages ---- */

static const char *const sm_name[SM_N] = {
	[SM_PAUSED] = "paused", [SM_TO_ACT] = "to_act", [SM_MY_TURN] = "my_turn", [SM_KEYH] = "H",
	[SM_PROMPT] = "prompt", [SM_HAND] = "hand", [SM_CHOICES] = "choices", [SM_DISCARD] = "discard_ahead",
	[SM_TRICK] = "trick", [SM_TAGS] = "tags",
	[SM_MENU] = "menu", [SM_SHOWDOWNS] = "showdowns", [SM_MOMENT] = "moment", [SM_QUERIES] = "queries", [SM_F1] = "f1",
	[SM_CURSOR] = "cursor",
};

static void state_text_free(struct state_text *t)
{
	free(t->s);
	memset(t, 0, sizeof *t);
}

/* The kind's last state kept in the bytes it has (written with room to
 * grow): a table keeps one for every kind of listener. */
static void state_keep(struct host_kind *k, struct state_text *t)
{
	state_text_free(&k->last);
	t->s = xrealloc(t->s, t->len + 1);
	k->last = *t;
}

/* Send text (malloc'd) to every member of kind k, the same bytes: the last
 * one takes it, the others a copy. */
static void send_kind(struct host_kind *k, char *text)
{
	struct host *h = k->h;
	if (!text)
		return;
	if (k->only) {
		hostview_send(h, k->only, text);
		return;
	}
	struct host_member *last = NULL;
	for (int i = 0; i < h->nmembers; i++) {
		struct host_member *m = h->member[i];
		if (m->kind != k)
			continue;
		if (last)
			hostview_send(h, last, xstrdup(text));
		last = m;
	}
	if (last)
		hostview_send(h, last, text);
	else
		free(text);
}

static void sink_say(void *ctx, const struct view_say *m)
{
	struct host_kind *k = ctx;
	struct host *h = k->h;
	const char *cue = m->cue >= 0 ? cue_name((enum cue)m->cue) : NULL;
	if (m->kind == VIEW_SAY_REFUSAL) {
		/* The refused member's own: said to them alone (host_action). */
		struct host_member *mb = k->only;
		if (!mb)
			return;
		json_t *o = json_pack("{s:s, s:I, s:s, s:o}", "type", "refused", "table", (json_int_t)h->id, "action",
		                      mb->acting, "text", hostview_text(m->text));
		if (o && cue) {
			json_object_set_new(o, "cue", json_string(cue));
			json_object_set_new(o, "from", json_integer(m->seat));
		}
		hostview_send(h, mb, proto_dump(o));
		return;
	}
	/* Several to every kind after every action: written straight. */
	struct jtext j;
	jt_init(&j, 256);
	jt_open(&j, '{');
	jt_kstr(&j, "type", "say");
	jt_kint(&j, "table", h->id);
	jt_kint(&j, "moves", table_moves(&h->t));
	jt_kstr(&j, "text", m->text);
	if (m->urgent)
		jt_kbool(&j, "urgent", 1);
	if (cue) {
		jt_kstr(&j, "cue", cue);
		jt_kint(&j, "from", m->seat);
	}
	jt_close(&j, '}');
	send_kind(k, jt_done(&j));
}

/* A member's state, after every action: written straight (net/jtext), as
 * json_dumps would write the same object, with where its members are. */
static void state_write(struct host *h, const struct view_state *vs, int seat, struct state_text *t)
{
	const char *word = h->state == HOST_WAITING ? "waiting"
	                   : h->state == HOST_OVER || (vs && vs->game_over) ? "over" : "playing";
	memset(t, 0, sizeof *t);
	t->id = ++h->nstates;
	struct jtext j;
	jt_init(&j, 4096);
	jt_open(&j, '{');
	jt_kstr(&j, "type", "state");
	jt_kint(&j, "table", h->id);
	jt_kint(&j, "moves", vs ? vs->moves : 0);
	jt_kint(&j, "seat", vs ? vs->seat : seat);
	jt_kstr(&j, "state", word);
	t->head = j.len;
#define MARK(m) (t->at[m] = j.len)
#define END(m) (t->n[m] = j.len - t->at[m])
	if (h->paused) {
		MARK(SM_PAUSED);
		jt_kbool(&j, "paused", 1);
		END(SM_PAUSED);
	}
	if (vs) {
		t->game = 1;
		t->moment = jstate_moment_of(vs);
		MARK(SM_TO_ACT);
		jt_kint(&j, "to_act", vs->to_act);
		END(SM_TO_ACT);
		MARK(SM_MY_TURN);
		jt_kbool(&j, "my_turn", vs->my_turn);
		END(SM_MY_TURN);
		jt_key(&j, "keys");
		jt_open(&j, '{');
		for (int i = 0; i < VIEW_NQUERY; i++) {
			char k[2] = { VIEW_QUERY_KEYS[i], 0 };
			MARK(SM_KEY0 + i);
			jt_kstr(&j, k, vs->answer[i]);
			END(SM_KEY0 + i);
		}
		if (vs->seat >= 0) {
			MARK(SM_KEYH);
			jt_kstr(&j, "H", vs->hand_text);
			END(SM_KEYH);
		}
		jt_close(&j, '}');
		if (vs->prompt[0]) {
			MARK(SM_PROMPT);
			jt_kstr(&j, "prompt", vs->prompt);
			END(SM_PROMPT);
		}
		MARK(SM_HAND);
		jt_key(&j, "hand");
		jt_open(&j, '[');
		for (int i = 0; i < vs->nhand; i++) {
			char cs[4];
			jt_open(&j, '{');
			jt_kstr(&j, "card", card_str(vs->hand[i].card, cs));
			jt_kstr(&j, "name", vs->hand[i].name);
			jt_kbool(&j, "playable", vs->hand[i].playable);
			jt_close(&j, '}');
		}
		jt_close(&j, ']');
		END(SM_HAND);
		MARK(SM_CHOICES);
		jt_key(&j, "choices");
		jt_open(&j, '[');
		for (int i = 0; i < vs->nchoices; i++) {
			const struct view_choice *c = &vs->choice[i];
			jt_open(&j, '{');
			jt_kstr(&j, "action", c->word);
			jt_kstr(&j, "label", c->label);
			if (c->hi > c->lo) {
				jt_kint(&j, "min", c->lo);
				jt_kint(&j, "max", c->hi);
			}
			if (c->nvariants) {
				jt_key(&j, "labels");
				jt_open(&j, '[');
				for (int k = 0; k < c->nvariants && c->first + k < vs->nvariants; k++)
					jt_str(&j, vs->variant[c->first + k]);
				jt_close(&j, ']');
			}
			/* A risky action asks for a yes (view_risky): always, or from an amount up. */
			if (c->confirm)
				jt_kbool(&j, "confirm", 1);
			else if (c->confirm_from > 0)
				jt_kint(&j, "confirm_from", c->confirm_from);
			jt_close(&j, '}');
		}
		jt_close(&j, ']');
		END(SM_CHOICES);
		if (vs->discard_ahead) {
			MARK(SM_DISCARD);
			jt_kbool(&j, "discard_ahead", 1);
			END(SM_DISCARD);
		}
		/* The trick in progress, by seat, and the seats' tags: what a
		 * braille line shows in few cells. */
		MARK(SM_TRICK);
		jt_key(&j, "trick");
		jt_open(&j, '[');
		for (int i = 0; i < vs->ntrick; i++) {
			char cs[4];
			jt_open(&j, '{');
			jt_kint(&j, "seat", vs->trick_seat[i]);
			jt_kstr(&j, "card", card_str(vs->trick_card[i], cs));
			jt_close(&j, '}');
		}
		jt_close(&j, ']');
		END(SM_TRICK);
		MARK(SM_TAGS);
		jt_key(&j, "tags");
		jt_open(&j, '[');
		for (int s = 0; s < vs->players && s < GAME_MAX_SEATS; s++)
			jt_str(&j, vs->tag[s]);
		jt_close(&j, ']');
		END(SM_TAGS);
		size_t at[JSTATE_NMEMBERS];
		jstate_meaning(&j, vs, at);
		for (int i = 0; i < JSTATE_NMEMBERS; i++) {
			t->at[SM_MENU + i] = at[i];
			t->n[SM_MENU + i] = (i + 1 < JSTATE_NMEMBERS ? at[i + 1] : j.len) - at[i];
		}
	}
#undef MARK
#undef END
	jt_close(&j, '}');
	t->len = j.len;
	t->s = jt_done(&j);
}

static char *state_msg(struct host *h, const struct view_state *vs, int seat)
{
	struct state_text t;
	state_write(h, vs, seat, &t);
	return t.s;
}

/* The same member in a and b (its bytes, or absent from both). */
static int sm_same(const struct state_text *a, const struct state_text *b, int m)
{
	return a->n[m] == b->n[m] && !memcmp(a->s + a->at[m], b->s + b->at[m], b->n[m]);
}

/* One member of b written as a change from a: its bytes (the leading
 * comma left to the caller), or "key":null when b has it no more. */
static void sm_put(struct jtext *j, const struct state_text *b, int m)
{
	const char *p = b->s + b->at[m];
	size_t n = b->n[m];
	if (n && *p == ',') {
		p++;
		n--;
	}
	if (n) {
		jt_raw(j, p, n);
		return;
	}
	char k[2] = { m >= SM_KEY0 && m < SM_KEYH ? VIEW_QUERY_KEYS[m - SM_KEY0] : 0, 0 };
	const char *name = k[0] ? k : sm_name[m];
	jt_raw(j, "\"", 1);
	jt_raw(j, name, strlen(name));
	jt_raw(j, "\":null", 6);
}

/* State b told to a connection that has a: what comes first, then the
 * members that changed, "keys" with those of its keys that did; a member
 * gone is null. Not "queries" and "f1": the connection has them by the
 * name in "moment" (a "moment" message before, send_state). */
static char *state_changes(const struct state_text *a, const struct state_text *b)
{
	struct jtext j;
	jt_init(&j, 1024);
	jt_raw(&j, b->s, b->head);
	static const char changes[] = ",\"changes\":true";
	jt_raw(&j, changes, sizeof changes - 1);
	for (int m = 0; m < SM_N; m++) {
		if (m == SM_KEY0) {
			int any = 0;
			for (int k = SM_KEY0; k <= SM_KEYH; k++) {
				if (sm_same(a, b, k))
					continue;
				const char *open = any ? "," : ",\"keys\":{";
				jt_raw(&j, open, strlen(open));
				sm_put(&j, b, k);
				any = 1;
			}
			if (any)
				jt_raw(&j, "}", 1);
			m = SM_KEYH;
			continue;
		}
		if (m == SM_QUERIES || m == SM_F1 || sm_same(a, b, m))
			continue;
		jt_raw(&j, ",", 1);
		sm_put(&j, b, m);
	}
	jt_raw(&j, "}", 1);
	return jt_done(&j);
}

/* What was missed, sent back at the table (host_join): its heading and,
 * when the view has its state, where the game stands (view_catch_up_state:
 * the cards on the table, whose turn, the scores), in the member's
 * language, so that a client says it as it comes. */
void hostview_catch_up(struct host_member *mb, const struct view_state *vs)
{
	json_t *o = json_loads(mb->catch_up, 0, NULL);
	free(mb->catch_up);
	mb->catch_up = NULL;
	if (!o)
		return;
	json_object_set_new(o, "heading", hostview_text(i18n_tr(i18n_of(mb->lang), N_("While you were away:"))));
	if (vs) {
		/* The state's answers, already in the member's language. */
		struct sbuf b;
		sb_clear(&b);
		view_catch_up_state(vs, 0, &b);
		json_object_set_new(o, "now", hostview_text(b.s));
	}
	hostview_send(mb->h, mb, proto_dump(o));
}

/* The state to one member coming to a kind already phrased, or to all
 * the kind's members after an action: written once, and told as its
 * changes (once for all) to those whose connection asks for them and has
 * the kind's state before. */
static void send_state(struct host_kind *k, struct host_member *to, const struct view_state *vs)
{
	struct host *h = k->h;
	int any = 0;
	for (int i = 0; i < h->nmembers; i++) {
		struct host_member *m = h->member[i];
		if (m->kind != k || (to && m != to))
			continue;
		if (m->catch_up && m->conn >= 0)
			hostview_catch_up(m, vs);
		any |= m->conn >= 0;
	}
	/* Only the latest state matters: none is kept for an absent member. */
	if (!any)
		return;
	struct state_text t;
	state_write(h, vs, k->seat, &t);
	if (to) {
		/* One member coming to the kind: the whole state; when it is the
		 * kind's last, the other members keep theirs as it was. */
		if (k->last.s && k->last.len == t.len && !memcmp(k->last.s, t.s, t.len)) {
			to->base = k->last.id;
			hostview_send(h, to, t.s);
			return;
		}
		to->base = t.id;
		hostview_send(h, to, xstrdup(t.s));
		state_keep(k, &t);
		return;
	}
	char *changes = NULL;
	for (int i = 0; i < h->nmembers; i++) {
		struct host_member *m = h->member[i];
		if (m->kind != k || m->conn < 0)
			continue;
		uint64_t *has = m->changes ? h->out.changes(h->out.ctx, m->conn) : NULL;
		if (has && m->base && m->base == k->last.id && k->last.game && t.game) {
			if (!(*has & 1ull << t.moment)) {
				hostview_send(h, m, jstate_moment_msg(vs));
				*has |= 1ull << t.moment;
			}
			if (!changes)
				changes = state_changes(&k->last, &t);
			hostview_send(h, m, xstrdup(changes));
		} else {
			hostview_send(h, m, xstrdup(t.s));
		}
		m->base = t.id;
	}
	free(changes);
	state_keep(k, &t);
}

static void sink_update(void *ctx, const struct view_state *vs)
{
	struct host_kind *k = ctx;
	k->h->phrasings++;
	send_state(k, k->only, vs);
}

/* The member hears their kind no more; the kind's view goes with its last
 * member. */
void hostview_unbind(struct host *h, struct host_member *m)
{
	struct host_kind *k = m->kind;
	m->kind = NULL;
	if (!k || --k->users > 0)
		return;
	view_release(&k->v);
	state_text_free(&k->last);
	for (int i = 0; i < h->nkinds; i++)
		if (h->kind[i] == k) {
			h->kind[i] = h->kind[--h->nkinds];
			break;
		}
	free(k);
}

/* Bind (again) the member to the view of their kind (seat, language,
 * verbosity): made for the first of a kind, when it sends the state at once
 * (and the prompt when the seat is to act); a kind already here sends them
 * its latest state. */
void hostview_bind(struct host *h, struct host_member *m)
{
	hostview_unbind(h, m);
	if (h->state == HOST_WAITING) {
		if (m->conn >= 0)
			hostview_send(h, m, state_msg(h, NULL, m->seat));
		m->base = 0;
		return;
	}
	for (int i = 0; i < h->nkinds; i++) {
		struct host_kind *k = h->kind[i];
		if (k->seat == m->seat && k->verbosity == m->verbosity && !strcmp(k->lang, m->lang)) {
			m->kind = k;
			k->users++;
			/* Its state, when it has made one (not before the first action). */
			if (view_state(&k->v)->game && (m->conn >= 0 || m->catch_up))
				send_state(k, m, view_state(&k->v));
			return;
		}
	}
	struct host_kind *k = xcalloc(1, sizeof *k);
	k->h = h;
	k->seat = m->seat;
	k->verbosity = m->verbosity;
	snprintf(k->lang, sizeof k->lang, "%s", m->lang);
	k->users = 1;
	m->kind = k;
	h->kind[h->nkinds++] = k;
	struct view_sink sink = { sink_say, sink_update, k };
	char err[ERR_MAX];
	/* Attached to a table in play, the view sends its state at once; before
	 * the start, the first events will. */
	k->only = m;
	if (view_init(&k->v, &h->t, m->seat, m->lang, &sink, err, sizeof err) == 0) {
		view_verbosity(&k->v, m->verbosity);
	} else {
		log_say("table %ld: %s", h->id, err);
		k->only = NULL;
		m->kind = NULL;
		h->nkinds--;
		free(k);
		return;
	}
	k->only = NULL;
}

/* A sentence about a player ("%s sits down.") told to every member; the
 * player themself hears self_msgid ("You sit at table %lld, seat %d."),
 * given the table's number and their seat counted from 1, when it is
 * given. */
void hostview_announce(struct host *h, const char *msgid, const char *self_msgid, const char *name)
{
	int seat = hostview_seat_of(h, name);
	for (int i = 0; i < h->nmembers; i++) {
		struct host_member *m = h->member[i];
		const struct i18n_lang *l = i18n_of(m->lang);
		char text[512];
		if (self_msgid && !*self_msgid && !strcmp(m->name, name))
			continue; /* "": they hear theirs otherwise (host_tell_seat) */
		if (self_msgid && !strcmp(m->name, name))
			snprintf(text, sizeof text, i18n_tr(l, self_msgid), (long long)h->id, seat + 1);
		else
			snprintf(text, sizeof text, i18n_tr(l, msgid), name);
		json_t *o = json_pack("{s:s, s:I, s:i, s:o}", "type", "say", "table", (json_int_t)h->id, "moves",
		                      table_moves(&h->t), "text", hostview_text(text));
		hostview_send(h, m, proto_dump(o));
	}
}

/* A player's connection is gone: the others hear it at once, with the
 * minutes their seat waits for them (cfg keep_ms). */
void hostview_say_lost(struct host *h, const char *name)
{
	long mins = (long)((h->cfg->keep_ms + 59999) / 60000);
	if (mins < 1)
		mins = 1;
	for (int i = 0; i < h->nmembers; i++) {
		struct host_member *m = h->member[i];
		if (!strcmp(m->name, name))
			continue;
		char text[512];
		snprintf(text, sizeof text,
		         i18n_ntr(i18n_of(m->lang), "%s lost the connection; the seat waits %ld minute.",
		                  "%s lost the connection; the seat waits %ld minutes.", mins),
		         name, mins);
		json_t *o = json_pack("{s:s, s:I, s:i, s:o}", "type", "say", "table", (json_int_t)h->id, "moves",
		                      table_moves(&h->t), "text", hostview_text(text));
		hostview_send(h, m, proto_dump(o));
	}
}
