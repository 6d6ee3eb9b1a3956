/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/client/remote.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/registry.h"
#include "core/clock.h"
#include "core/cue.h"
#include "core/err.h"
#include "core/termtext.h"
#include "core/xalloc.h"
#include "net/client/client.h"
#include "net/wire/proto.h"
#include "i18n/i18n.h"

static void tell(struct remote *r, int kind, int urgent, int cue, int seat, const char *text)
{
	struct view_say m;
	memset(&m, 0, sizeof m);
	m.kind = kind;
	m.urgent = urgent;
	m.interrupt = kind == VIEW_SAY_REFUSAL;
	m.cue = cue;
	m.seat = seat;
	snprintf(m.text, sizeof m.text, "%s", text ? text : "");
	if (r->sink.say)
		r->sink.say(r->sink.ctx, &m);
}

static int cue_named(const char *name)
{
	enum cue c = cue_find(name);
	return c == CUE_COUNT ? -1 : (int)c;
}


static const char *str_of(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static long long int_of(json_t *o, const char *key, long long def)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

/* Item i of an array of integers within a card's index, else def. */
static int int_of_at(json_t *a, int i, int def)
{
	json_t *v = json_array_get(a, (size_t)i);
	return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < GAME_MAX_HAND
	       ? (int)json_integer_value(v) : def;
}

/* ---- the view of the table, from "state" ---- */

static int variants_reserve(struct remote *r, int n)
{
	if (n <= r->cap_variants)
		return 0;
	r->variant = xrealloc(r->variant, (size_t)n * sizeof *r->variant);
	r->cap_variants = n;
	return 0;
}

/* The lobby's game and number of players of the table we are at. */
static void table_facts(struct remote *r)
{
	json_t *t = remote_table(r, r->table);
	if (!t)
		return;
	const struct registry_game *rg = registry_find(str_of(t, "game"));
	if (rg) {
		r->vs.game = rg->ops->name;
		r->vs.clockwise = rg->ops->clockwise;
		r->vs.showdowns = rg->talk && rg->talk->showdowns;
	}
	r->vs.players = (int)int_of(t, "players", r->vs.players);
}

/* The entry of a table (from "joined") put in the lobby's list, replacing
 * the one it had: a player at a table in play is not sent the list. */
static void keep_table(struct remote *r, json_t *info)
{
	if (!json_is_object(info))
		return;
	if (!r->lobby)
		r->lobby = json_pack("{s:s, s:[], s:[]}", "type", "lobby", "users", "tables");
	json_t *tables = json_object_get(r->lobby, "tables");
	if (!json_is_array(tables))
		return;
	long id = (long)int_of(info, "id", 0);
	for (size_t i = 0; i < json_array_size(tables); i++)
		if (int_of(json_array_get(tables, i), "id", 0) == id) {
			json_array_set(tables, i, info);
			return;
		}
	json_array_append(tables, info);
}

static void keep_friends(struct remote *r, json_t *info);

/* The entries of a list (of objects; of strings: key NULL) whose key's
 * value (a number, or a string) is one of those in which, removed. */
static void drop_entries(json_t *list, json_t *which, const char *key)
{
	for (size_t i = json_array_size(list); i-- > 0;) {
		json_t *x = key ? json_object_get(json_array_get(list, i), key) : json_array_get(list, i);
		for (size_t k = 0; k < json_array_size(which); k++)
			if (json_equal(x, json_array_get(which, k))) {
				json_array_remove(list, i);
				break;
			}
	}
}

/* A change of the lobby's list applied to ours: tables made or changed,
 * gone, people in and out. One missed (its number not the next): the
 * whole list asked for again. */
static void on_lobby_delta(struct remote *r, json_t *o)
{
	json_int_t seq = json_integer_value(json_object_get(o, "seq"));
	if (!r->lobby || seq != json_integer_value(json_object_get(r->lobby, "seq")) + 1) {
		remote_send(r, json_pack("{s:s, s:I}", "type", "lobby_query", "page",
		                         json_integer_value(json_object_get(r->lobby, "page"))));
		return;
	}
	json_object_set_new(r->lobby, "seq", json_integer(seq));
	json_object_set(r->lobby, "online", json_object_get(o, "online"));
	json_t *tables = json_object_get(o, "tables");
	for (size_t i = 0; i < json_array_size(tables); i++) {
		keep_table(r, json_array_get(tables, i));
		keep_friends(r, json_array_get(tables, i));
	}
	drop_entries(json_object_get(r->lobby, "tables"), json_object_get(o, "gone"), "id");
	json_t *users = json_object_get(r->lobby, "users");
	json_t *out = json_object_get(o, "out");
	drop_entries(users, out, "name");
	json_t *in = json_object_get(o, "in");
	if (json_is_array(users))
		for (size_t i = 0; i < json_array_size(in); i++)
			json_array_append(users, json_array_get(in, i));
	r->lobby_seen++;
	if (r->table)
		table_facts(r);
}

/* The people holding a seat at a table where this player holds one are
 * friends for the rest of the session (the lobby's "friends" setting). */
static void keep_friends(struct remote *r, json_t *info)
{
	json_t *seats = json_object_get(info, "seats");
	int mine = 0;
	for (size_t i = 0; i < json_array_size(seats); i++)
		mine |= !strcmp(str_of(json_array_get(seats, i), "name"), r->name);
	if (!mine)
		return;
	for (size_t i = 0; i < json_array_size(seats); i++) {
		const char *n = str_of(json_array_get(seats, i), "name");
		if (*n && strcmp(n, r->name) && !remote_is_friend(r, n) && r->nfriends < REMOTE_FRIENDS_MAX)
			snprintf(r->friends[r->nfriends++], sizeof r->friends[0], "%s", n);
	}
}

int remote_is_friend(const struct remote *r, const char *name)
{
	for (int i = 0; i < r->nfriends; i++)
		if (!strcmp(r->friends[i], name))
			return 1;
	return 0;
}

/* Whether a change of the lobby (its names: who it concerns) is spoken. */
static int lobby_heard(const struct remote *r, json_t *names, int invitation)
{
	if (r->lobby_talk == REMOTE_LOBBY_ALL)
		return 1;
	if (r->lobby_talk == REMOTE_LOBBY_NONE)
		return 0;
	if (invitation)
		return 1;
	for (size_t i = 0; i < json_array_size(names); i++) {
		const char *n = json_string_value(json_array_get(names, i));
		if (n && remote_is_friend(r, n))
			return 1;
	}
	return 0;
}

static void on_lobby_event(struct remote *r, json_t *o)
{
	r->lobby_events++;
	const char *ev = str_of(o, "event");
	if (lobby_heard(r, json_object_get(o, "names"), !strncmp(ev, "invit", 5)))
		tell(r, VIEW_SAY_EVENT, 0, -1, -1, str_of(o, "text"));
}

/* "cursor": where the server's rules take each key (app/keymap); what it
 * leaves out, by this program's own. Indices out of the hand are kept
 * and refused where they are used (keymap_cursor_to). */
static void cursor_read(struct keymap_cursor *c, json_t *o)
{
	json_t *hand = json_object_get(o, "hand"), *amount = json_object_get(o, "amount");
	const char *key;
	json_t *x;
	json_object_foreach(hand, key, x) {
		int m = keymap_move_of(key);
		json_t *to = json_object_get(x, "to"), *edge = json_object_get(x, "edge");
		if (m < 0 || !json_is_array(to))
			continue;
		for (int i = 0; i < c->n; i++) {
			c->to[m][i] = (signed char)int_of_at(to, i, i);
			c->edge[m][i] = 0;
		}
		for (size_t k = 0; k < json_array_size(edge); k++) {
			long long i = int_of_at(edge, (int)k, -1);
			if (i >= 0 && i < c->n)
				c->edge[m][i] = 1;
		}
		const char *said = str_of(x, "said");
		termtext_clean(said, strlen(said), c->said[m], sizeof c->said[m]);
	}
	json_t *turn = json_object_get(o, "turn");
	for (int i = 0; json_is_array(turn) && i < c->n; i++)
		c->turn[i] = (signed char)int_of_at(turn, i, i);
	json_object_foreach(amount, key, x) {
		int s = keymap_step_of(key);
		if (s < 0)
			continue;
		const char *b = json_string_value(x);
		c->bound[s] = b && !strcmp(b, "least") ? KEYMAP_LEAST : b && !strcmp(b, "most") ? KEYMAP_MOST : KEYMAP_STEP;
		long long step = json_is_integer(x) ? json_integer_value(x) : 0;
		c->step[s] = step < -KEYMAP_STEP_MAX ? -KEYMAP_STEP_MAX : step > KEYMAP_STEP_MAX ? KEYMAP_STEP_MAX : (int)step;
	}
	const char *enter = str_of(o, "enter");
	if (*enter)
		c->enter = !strcmp(enter, "play") ? KEYMAP_ENTER_PLAY : !strcmp(enter, "discard") ? KEYMAP_ENTER_DISCARD
		                                                                                : KEYMAP_ENTER_MENU;
	long long marks = int_of(o, "marks", c->marks);
	c->marks = marks < 0 ? 0 : marks > ACT_MAX_CARDS ? ACT_MAX_CARDS : (int)marks;
}

/* "trick" and "tags": the trick in progress by seat and the seats' short
 * names (an older server sends neither: no trick, the seats' numbers). A
 * seat out of the table or a card that is no card is left out. */
static void trick_read(struct view_state *v, json_t *trick, json_t *tags)
{
	int players = v->players < GAME_MAX_SEATS ? v->players : GAME_MAX_SEATS;
	v->ntrick = 0;
	for (size_t i = 0; i < json_array_size(trick) && v->ntrick < GAME_MAX_SEATS; i++) {
		json_t *c = json_array_get(trick, i);
		long long seat = int_of(c, "seat", -1);
		card_t card;
		if (seat < 0 || seat >= players || card_parse(str_of(c, "card"), &card) < 0)
			continue;
		v->trick_seat[v->ntrick] = (int)seat;
		v->trick_card[v->ntrick++] = card;
	}
	for (int s = 0; s < GAME_MAX_SEATS; s++) {
		const char *tag = json_string_value(json_array_get(tags, (size_t)s));
		if (tag && *tag)
			termtext_clean(tag, strlen(tag), v->tag[s], VIEW_TAG_MAX);
		else
			snprintf(v->tag[s], VIEW_TAG_MAX, "%d", s + 1);
	}
}

static void on_state(struct remote *r, json_t *o)
{
	struct view_state *v = &r->vs;
	const char *st = str_of(o, "state");
	r->table_state = !strcmp(st, "playing") ? 1 : !strcmp(st, "over") ? 2 : 0;
	v->seat = (int)int_of(o, "seat", VIEW_SPECTATOR);
	snprintf(v->lang, sizeof v->lang, "%s", r->lang);
	v->chips = -1;   /* not sent: the choices carry what asks for a yes */
	v->chips_in = 0;
	table_facts(r);
	v->to_act = (int)int_of(o, "to_act", -1);
	v->game_over = r->table_state == 2;
	json_t *mt = json_object_get(o, "my_turn");
	v->my_turn = json_is_boolean(mt) ? json_is_true(mt)
	                                 : r->table_state == 1 && v->seat >= 0 && v->to_act == v->seat;
	v->moves = (int)int_of(o, "moves", int_of(o, "seq", 0));
	json_t *keys = json_object_get(o, "keys");
	for (int k = 0; k < VIEW_NQUERY; k++) {
		char key[2] = { VIEW_QUERY_KEYS[k], 0 };
		view_text_set(&v->answer[k], str_of(keys, key));
	}
	view_text_set(&v->hand_text, str_of(keys, "H"));
	if (!v->my_turn)
		view_text_set(&v->prompt, "");
	else if (json_is_string(json_object_get(o, "prompt")))
		view_text_set(&v->prompt, str_of(o, "prompt"));
	view_texts_fill(v);
	json_t *hand = json_object_get(o, "hand");
	v->nhand = 0;
	v->can_play = 0;
	for (size_t i = 0; i < json_array_size(hand) && v->nhand < GAME_MAX_HAND; i++) {
		json_t *c = json_array_get(hand, i);
		card_t card;
		if (card_parse(str_of(c, "card"), &card) < 0)
			continue;
		view_hand_room(v, &r->cap_hand, v->nhand + 1);
		struct view_card *vc = &v->hand[v->nhand++];
		vc->card = card;
		vc->playable = json_is_true(json_object_get(c, "playable"));
		v->can_play |= vc->playable;
		snprintf(vc->name, sizeof vc->name, "%s", str_of(c, "name"));
	}
	trick_read(v, json_object_get(o, "trick"), json_object_get(o, "tags"));
	json_t *ch = json_object_get(o, "choices");
	v->nchoices = 0;
	v->nvariants = 0;
	v->discard_ahead = json_is_true(json_object_get(o, "discard_ahead"));
	for (size_t i = 0; i < json_array_size(ch) && v->nchoices < VIEW_MAX_CHOICES; i++) {
		json_t *c = json_array_get(ch, i);
		struct view_choice *vc = view_choice_next(v, &r->cap_choices);
		char err[ERR_MAX];
		if (act_parse(str_of(c, "action"), &vc->act, err, sizeof err) < 0)
			continue;
		if (vc->act.kind == ACT_PLAY)
			continue; /* cards are played from the hand */
		vc->lo = vc->act.amount;
		vc->hi = (int)int_of(c, "max", vc->lo);
		if (vc->hi > vc->lo)
			vc->act.amount_max = vc->hi;
		snprintf(vc->word, sizeof vc->word, "%s", str_of(c, "action"));
		snprintf(vc->label, sizeof vc->label, "%s", str_of(c, "label"));
		vc->confirm = json_is_true(json_object_get(c, "confirm"));
		vc->confirm_from = (int)int_of(c, "confirm_from", 0);
		json_t *labels = json_object_get(c, "labels");
		int n = (int)json_array_size(labels);
		if (n && variants_reserve(r, v->nvariants + n) == 0) {
			/* The label of each amount from min to max, or of each set of
			 * cards to discard. */
			vc->first = v->nvariants;
			vc->nvariants = n;
			for (int k = 0; k < n; k++)
				snprintf(r->variant[v->nvariants + k], VIEW_LABEL_MAX, "%s",
				         json_string_value(json_array_get(labels, (size_t)k)) ? json_string_value(json_array_get(labels, (size_t)k)) : "");
			v->nvariants += n;
		} else if (vc->act.kind == ACT_DISCARD && v->nhand < 16 &&
		           variants_reserve(r, v->nvariants + (1 << v->nhand)) == 0) {
			/* No labels given: every set of cards is told by the one. */
			n = 1 << v->nhand;
			vc->first = v->nvariants;
			vc->nvariants = n;
			for (int k = 0; k < n; k++)
				snprintf(r->variant[v->nvariants + k], VIEW_LABEL_MAX, "%s", vc->label);
			v->nvariants += n;
		}
		v->nchoices++;
	}
	v->variant = r->variant;
	view_cursor_make(v, keymap_moves, i18n_of(r->lang));
	cursor_read(&v->cursor, json_object_get(o, "cursor"));
	if (r->sent_moves >= 0 && (v->moves != r->sent_moves || !v->my_turn))
		r->sent_moves = -1;
	if (r->sink.update)
		r->sink.update(r->sink.ctx, v);
	if (r->catch_up && r->table_state == 1) {
		/* Back at the table: where the game stands. */
		struct sbuf b;
		sb_clear(&b);
		view_catch_up_state(v, r->catch_up == 1, &b);
		r->catch_up = 0;
		tell(r, VIEW_SAY_EVENT, 0, -1, -1, b.s);
	} else if (r->table_state != 1) {
		r->catch_up = 0;
	}
}

static void on_say(struct remote *r, json_t *o)
{
	const char *cue = json_string_value(json_object_get(o, "cue"));
	int c = cue_named(cue);
	int seat = (int)int_of(o, "from", -1);
	int prompt = c == CUE_YOUR_TURN;
	int urgent = prompt || json_is_true(json_object_get(o, "urgent"));
	const char *text = str_of(o, "text");
	if (prompt)
		view_text_set(&r->vs.prompt, text);
	tell(r, prompt ? VIEW_SAY_PROMPT : VIEW_SAY_EVENT, urgent, c, seat, text);
}

static void on_chat(struct remote *r, json_t *o)
{
	/* The lobby's chat as the lobby's setting says; a table's always. */
	if (!json_object_get(o, "table")) {
		json_t *from = json_pack("[s]", str_of(o, "from"));
		int heard = lobby_heard(r, from, 0);
		json_decref(from);
		if (!heard)
			return;
	}
	char text[VIEW_TEXT_MAX];
	snprintf(text, sizeof text, _("%1$s: %2$s"), str_of(o, "from"), str_of(o, "text"));
	tell(r, VIEW_SAY_CHAT, 0, cue_named(str_of(o, "cue")), -1, text);
}

static void on_error(struct remote *r, json_t *o)
{
	r->errors++;
	snprintf(r->error, sizeof r->error, "%s", str_of(o, "message"));
	snprintf(r->error_code, sizeof r->error_code, "%s", str_of(o, "code"));
	/* The server's own words: they name the problem exactly. */
	tell(r, VIEW_SAY_SYSTEM, 1, CUE_ILLEGAL, -1, r->error);
	if (!strcmp(str_of(o, "re"), "action"))
		r->sent_moves = -1;
	if (!strcmp(r->error_code, "replaced") || !strcmp(r->error_code, "banned"))
		r->replaced = 1; /* logged in elsewhere, or banned: no coming back */
}

static void on_message(void *ctx, const char *text, size_t len)
{
	remote_message(ctx, text, len);
}

/* Every string of a server's message made printable text (core/termtext)
 * before anything reads it: names, chat, errors, announcements, labels
 * reach the terminal, the speech and the menus only through here. */
static void clean_strings(json_t *v)
{
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		if (strlen(s) != json_string_length(v) || termtext_unsafe(s)) {
			char *c = termtext_dup(s, strlen(s));
			json_string_set(v, c);
			free(c);
		}
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			clean_strings(json_array_get(v, i));
	} else if (json_is_object(v)) {
		const char *key;
		json_t *x;
		json_object_foreach(v, key, x)
			clean_strings(x);
	}
}

static void got_welcome(struct remote *r, json_t *o)
{
	snprintf(r->token, sizeof r->token, "%s", str_of(o, "token"));
	r->guest = json_is_true(json_object_get(o, "guest"));
	r->welcomed = 1;
	r->going = 0;
	/* A new connection: its states come whole again, its moments anew. */
	json_object_clear(r->held);
	json_object_clear(r->moments);
}

static void got_lobby(struct remote *r, json_t *o)
{
	/* One page of the tables: the one we are at stays known. */
	json_t *mine = r->table ? json_incref(remote_table(r, r->table)) : NULL;
	json_decref(r->lobby);
	r->lobby = json_incref(o);
	if (mine && !remote_table(r, r->table))
		keep_table(r, mine);
	json_decref(mine);
	r->lobby_seen++;
	json_t *tables = json_object_get(o, "tables");
	for (size_t i = 0; i < json_array_size(tables); i++)
		keep_friends(r, json_array_get(tables, i));
	if (r->table)
		table_facts(r);
}

static void got_saved(struct remote *r, json_t *o)
{
	json_decref(r->saved);
	r->saved = json_incref(json_object_get(o, "tables"));
}

static void got_table(struct remote *r, json_t *o)
{
	keep_table(r, json_object_get(o, "info"));
	keep_friends(r, json_object_get(o, "info"));
	if (r->table)
		table_facts(r);
}

static void got_created(struct remote *r, json_t *o)
{
	r->created = (long)int_of(o, "table", 0);
}

static void got_joined(struct remote *r, json_t *o)
{
	r->table = (long)int_of(o, "table", 0);
	keep_table(r, json_object_get(o, "info"));
	r->vs.seat = (int)int_of(o, "seat", -1);
	r->watching = r->vs.seat < 0;
	if (r->rematch == r->table)
		r->rematch = 0; /* the table started again */
	r->left = 0;
	r->joined++;
	keep_friends(r, json_object_get(o, "info"));
	table_facts(r);
}

static void got_left(struct remote *r, json_t *o)
{
	/* The table as it is left (a seat open, a bot playing): the
	 * entry kept since joining is not said in the lobby. */
	keep_table(r, json_object_get(o, "info"));
	if (int_of(o, "table", 0) == r->table) {
		r->left = 1;
		r->table = 0;
		if (!strcmp(str_of(o, "reason"), "removed"))
			tell(r, VIEW_SAY_SYSTEM, 1, -1, -1, _("You were removed from the table."));
	}
}

static void got_say(struct remote *r, json_t *o)
{
	if (int_of(o, "table", 0) == r->table)
		on_say(r, o);
}

static void got_missed(struct remote *r, json_t *o)
{
	json_t *says = json_object_get(o, "says");
	if (r->table && int_of(o, "table", 0) == r->table) {
		tell(r, VIEW_SAY_EVENT, 0, -1, -1, _("While you were away:"));
		r->catch_up = 2;   /* where the game stands follows the state */
	}
	for (size_t i = 0; i < json_array_size(says); i++) {
		json_t *x = json_array_get(says, i);
		if (!strcmp(str_of(x, "type"), "say"))
			on_say(r, x);
		else if (!strcmp(str_of(x, "type"), "chat"))
			on_chat(r, x);
	}
}

static void got_moment(struct remote *r, json_t *o)
{
	if (!r->moments)
		r->moments = json_object();
	proto_moment_keep(r->moments, o);
}

static void got_state(struct remote *r, json_t *o)
{
	/* Each table's state held, its changes applied (proto_state_apply). */
	char key[24];
	snprintf(key, sizeof key, "%lld", int_of(o, "table", 0));
	if (!r->held)
		r->held = json_object();
	if (!r->moments)
		r->moments = json_object();
	json_t *st = proto_state_apply(json_object_get(r->held, key), o, r->moments);
	if (st) {
		json_object_set_new(r->held, key, st);
		if (int_of(st, "table", 0) == r->table)
			on_state(r, st);
	}
}

static void got_refused(struct remote *r, json_t *o)
{
	r->refused++;
	r->sent_moves = -1;
	if (r->script && r->script->next > 0 && !r->script_refused) {
		const struct script_line *l = &r->script->lines[r->script->next - 1];
		r->script_refused = 1;
		snprintf(r->script_err, sizeof r->script_err, "%.200s:%d: '%s' refused: %.200s", r->script->name, l->line,
		         l->text, str_of(o, "text"));
	}
	tell(r, VIEW_SAY_REFUSAL, 1, cue_named(str_of(o, "cue")), r->vs.seat, str_of(o, "text"));
}

/* An answer asked for (stats, leaders, history, settings): kept for who asked. */
static void got_answer(struct remote *r, json_t *o)
{
	json_decref(r->answer);
	r->answer = json_incref(o);
	r->answers++;
}

static void got_notice(struct remote *r, json_t *o)
{
	tell(r, VIEW_SAY_SYSTEM, 0, -1, -1, str_of(o, "text"));
}

static void got_invited(struct remote *r, json_t *o)
{
	r->invited = (long)int_of(o, "table", 0);
	if (!remote_table(r, r->invited))
		keep_table(r, json_object_get(o, "info"));   /* on none of our pages */
	tell(r, VIEW_SAY_SYSTEM, 0, CUE_CHAT, -1, str_of(o, "text"));
}

static void got_ask(struct remote *r, json_t *o)
{
	json_decref(r->ask);
	r->ask = json_incref(o);
	r->asks++;
}

static void got_rematch(struct remote *r, json_t *o)
{
	r->rematch = (long)int_of(o, "table", 0);
	tell(r, VIEW_SAY_SYSTEM, 0, -1, -1, str_of(o, "text"));
}

/* What the client does with each server message, by its type (docs/protocol.md,
 * "Server messages"); a type not here is let be. */
static const struct {
	const char *type;
	void (*run)(struct remote *r, json_t *o);
} rows[] = {
	{ "welcome", got_welcome },
	{ "lobby", got_lobby },
	{ "saved", got_saved },
	{ "lobby_delta", on_lobby_delta },
	{ "lobby_event", on_lobby_event },
	{ "table", got_table },
	{ "created", got_created },
	{ "joined", got_joined },
	{ "left", got_left },
	{ "say", got_say },
	{ "missed", got_missed },
	{ "moment", got_moment },
	{ "state", got_state },
	{ "refused", got_refused },
	{ "chat", on_chat },
	{ "error", on_error },
	{ "stats", got_answer },
	{ "leaders", got_answer },
	{ "history", got_answer },
	{ "settings", got_answer },
	{ "notice", got_notice },
	{ "invited", got_invited },
	{ "ask", got_ask },
	{ "rematch", got_rematch },
};

void remote_message(struct remote *r, const char *text, size_t len)
{
	json_t *o = json_loadb(text, len, 0, NULL);
	if (!json_is_object(o)) {
		json_decref(o);
		return;
	}
	clean_strings(o);
	const char *type = str_of(o, "type");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (!strcmp(type, rows[i].type)) {
			rows[i].run(r, o);
			break;
		}
	json_decref(o);
}

/* ---- the connection ---- */

static int hello(struct remote *r)
{
	/* The states as what changed (docs/protocol.md). */
	json_t *o = json_pack("{s:s, s:i, s:s, s:s, s:b}", "type", "hello", "version", PROTO_VERSION, "name", r->name,
	                      "lang", r->lang, "state_changes", 1);
	if (o && r->aside) /* beside the session, which it leaves as it is */
		json_object_set_new(o, "aside", json_true());
	if (o && r->going) /* the first hello only: a regained connection is put back */
		json_object_set_new(o, "going", json_true());
	if (o && r->password[0])
		json_object_set_new(o, "password", json_string(r->password));
	if (o && r->token[0])
		json_object_set_new(o, "token", json_string(r->token));
	return remote_send(r, o);
}

void remote_url(const struct remote *r, char *out, size_t len)
{
	const char *host = strstr(r->url, "://");
	host = host ? host + 3 : r->url;
	if (!r->lang[0] || strstr(r->url, "lang=")) {
		snprintf(out, len, "%s", r->url);
		return;
	}
	snprintf(out, len, "%s%s%slang=%s", r->url, strchr(host, '/') ? "" : "/", strchr(host, '?') ? "&" : "?",
	         r->lang);
}

/* Connect, say hello, wait for the welcome (or an error). */
static int connect_once(struct remote *r, char *err, size_t errlen)
{
	char url[REMOTE_URL_MAX + 16];
	remote_url(r, url, sizeof url);
	r->c = netc_open_ca(url, r->ca[0] ? r->ca : NULL, on_message, r, err, errlen);
	if (!r->c)
		return -1;
	r->welcomed = 0;
	int errors = r->errors;
	if (hello(r) < 0)
		return errf(err, errlen, "the connection closed");
	double end = clock_s() + 5.0;
	while (!r->welcomed && r->errors == errors && netc_connected(r->c) && clock_s() < end)
		netc_service(r->c, 20);
	if (r->welcomed)
		return 0;
	errf(err, errlen, "%s", r->errors != errors ? r->error : "the server did not answer");
	netc_close(r->c);
	r->c = NULL;
	return -1;
}

int remote_open(struct remote *r, const char *url, const char *name, const char *password,
                const char *lang, const struct view_sink *sink, char *err, size_t errlen)
{
	return remote_open_token(r, url, name, password, NULL, lang, sink, err, errlen);
}

/* The connection opened as a person (token: a guest's, or NULL), in the
 * session or aside it. */
enum { OPEN_ASIDE = 1, OPEN_GOING = 2 };
static int open_as(struct remote *r, const char *url, const char *name, const char *password, const char *token,
                   const char *lang, const struct view_sink *sink, int how, char *err, size_t errlen)
{
	char ca[sizeof r->ca];
	memcpy(ca, r->ca, sizeof ca);
	memset(r, 0, sizeof *r);
	memcpy(r->ca, ca, sizeof ca);
	r->aside = (how & OPEN_ASIDE) != 0;
	r->going = (how & OPEN_GOING) != 0;
	snprintf(r->token, sizeof r->token, "%s", token ? token : "");
	r->lobby_talk = REMOTE_LOBBY_NONE;   /* until the caller says: nothing of the lobby before the welcome's round */
	snprintf(r->url, sizeof r->url, "%s", url);
	snprintf(r->name, sizeof r->name, "%s", name);
	snprintf(r->password, sizeof r->password, "%s", password ? password : "");
	snprintf(r->lang, sizeof r->lang, "%s", lang);
	if (sink)
		r->sink = *sink;
	r->sent_moves = -1;
	r->vs.seat = VIEW_SPECTATOR;
	r->vs.to_act = -1;
	r->retry_ms = REMOTE_RETRY_MIN_MS;
	if (connect_once(r, err, errlen) < 0)
		return -1;
	/* Its texts "" until the first state (a failed open holds nothing). */
	view_texts_fill(&r->vs);
	return 0;
}

int remote_open_token(struct remote *r, const char *url, const char *name, const char *password,
                      const char *token, const char *lang, const struct view_sink *sink, char *err,
                      size_t errlen)
{
	return open_as(r, url, name, password, token, lang, sink, 0, err, errlen);
}

int remote_open_aside(struct remote *r, const char *url, const char *name, const char *password, const char *lang,
                      const struct view_sink *sink, char *err, size_t errlen)
{
	return open_as(r, url, name, password, NULL, lang, sink, OPEN_ASIDE, err, errlen);
}

int remote_open_going(struct remote *r, const char *url, const char *name, const char *password,
                      const char *token, const char *lang, const struct view_sink *sink, char *err,
                      size_t errlen)
{
	return open_as(r, url, name, password, token, lang, sink, OPEN_GOING, err, errlen);
}

void remote_state_reset(struct remote *r)
{
	view_state_free(&r->vs);
	r->cap_choices = r->cap_hand = 0;
	memset(&r->vs, 0, sizeof r->vs);
	r->vs.seat = VIEW_SPECTATOR;
	r->vs.to_act = -1;
	view_texts_fill(&r->vs);
}

void remote_close(struct remote *r)
{
	if (r->c)
		netc_close(r->c);
	r->c = NULL;
	json_decref(r->lobby);
	r->lobby = NULL;
	json_decref(r->saved);
	r->saved = NULL;
	json_decref(r->ask);
	r->ask = NULL;
	json_decref(r->request);
	r->request = NULL;
	json_decref(r->held);
	r->held = NULL;
	json_decref(r->moments);
	r->moments = NULL;
	json_decref(r->answer);
	r->answer = NULL;
	free(r->variant);
	r->variant = NULL;
	view_state_free(&r->vs);
	r->cap_choices = r->cap_hand = 0;
}

static void lose(struct remote *r)
{
	/* Closed to be made again at once (the server said why, error
	 * `reconnect`): no pause, nothing more said. */
	int again = r->c && netc_close_code(r->c) == PROTO_CLOSE_AGAIN;
	if (r->c)
		netc_close(r->c);
	r->c = NULL;
	r->lost = 1;
	r->sent_moves = -1;
	r->retry_ms = REMOTE_RETRY_MIN_MS;
	r->retry_at = again ? 0 : clock_s() + r->retry_ms / 1000.0;
	if (!again)
		tell(r, VIEW_SAY_SYSTEM, 1, -1, -1, _("Connection lost. Trying again."));
}

static void retry(struct remote *r)
{
	char err[ERR_MAX];
	if (connect_once(r, err, sizeof err) < 0) {
		r->retry_ms = r->retry_ms * 2 > REMOTE_RETRY_MAX_MS ? REMOTE_RETRY_MAX_MS : r->retry_ms * 2;
		r->retry_at = clock_s() + r->retry_ms / 1000.0;
		return;
	}
	r->lost = 0;
	r->reconnects++;
	tell(r, VIEW_SAY_SYSTEM, 1, -1, -1, _("Connection regained."));
	if (r->table)
		r->catch_up = 1;
	/* A seat comes back with the hello; a spectator watches again. */
	if (r->table && r->watching)
		remote_watch(r, r->table, NULL);
}

int remote_service(struct remote *r, int timeout_ms)
{
	if (r->replaced) {
		if (r->c)
			netc_close(r->c);
		r->c = NULL;
		return -1;
	}
	if (r->c && !netc_connected(r->c))
		lose(r);
	if (!r->c) {
		if (clock_s() >= r->retry_at)
			retry(r);
		return r->c ? 0 : -1;
	}
	if (netc_service(r->c, timeout_ms) < 0 || !netc_connected(r->c)) {
		lose(r);
		return -1;
	}
	return 0;
}

int remote_send(struct remote *r, json_t *msg)
{
	const char *type = json_string_value(json_object_get(msg, "type"));
	if (type && (!strcmp(type, "sit") || !strcmp(type, "create"))) {
		json_decref(r->request);
		r->request = json_deep_copy(msg);
	}
	char *text = proto_dump(msg);
	int rc = text && r->c ? netc_send(r->c, text) : -1;
	free(text);
	return rc;
}

long remote_answer(struct remote *r, int k)
{
	json_t *c = json_array_get(json_object_get(r->ask, "choices"), (size_t)k);
	json_t *send = json_object_get(c, "send");
	if (json_is_object(send)) {
		long to = (long)int_of(send, "table", 0);
		return remote_send(r, json_deep_copy(send)) < 0 ? -1 : to;
	}
	if (!json_is_true(json_object_get(c, "again")) || !r->request)
		return -1;
	json_t *again = json_deep_copy(r->request);
	json_object_set_new(again, "give_up", json_true());
	long to = (long)int_of(again, "table", 0);
	return remote_send(r, again) < 0 ? -1 : to;
}

json_t *remote_table(const struct remote *r, long id)
{
	json_t *tables = json_object_get(r->lobby, "tables");
	for (size_t i = 0; i < json_array_size(tables); i++) {
		json_t *t = json_array_get(tables, i);
		if (int_of(t, "id", 0) == id)
			return t;
	}
	return NULL;
}

static json_t *table_msg(const char *type, long table)
{
	return json_pack("{s:s, s:I}", "type", type, "table", (json_int_t)table);
}

int remote_sit(struct remote *r, long table, int seat, const char *password)
{
	json_t *o = table_msg("sit", table);
	if (o && seat >= 0)
		json_object_set_new(o, "seat", json_integer(seat));
	if (o && password && *password)
		json_object_set_new(o, "password", json_string(password));
	return remote_send(r, o);
}

int remote_watch(struct remote *r, long table, const char *password)
{
	json_t *o = table_msg("watch", table);
	if (o && password && *password)
		json_object_set_new(o, "password", json_string(password));
	return remote_send(r, o);
}

int remote_simple(struct remote *r, const char *type, long table)
{
	return remote_send(r, table_msg(type, table));
}

int remote_set_seat(struct remote *r, long table, int seat, const char *kind)
{
	json_t *o = table_msg("seat", table);
	if (o) {
		json_object_set_new(o, "seat", json_integer(seat));
		json_object_set_new(o, "kind", json_string(kind));
	}
	return remote_send(r, o);
}

int remote_resume(struct remote *r, long table)
{
	return remote_send(r, table_msg("resume", table));
}

int remote_kick(struct remote *r, long table, int seat)
{
	json_t *o = table_msg("kick", table);
	if (o)
		json_object_set_new(o, "seat", json_integer(seat));
	return remote_send(r, o);
}

int remote_chat(struct remote *r, const char *text)
{
	json_t *o = json_pack("{s:s, s:s}", "type", "chat", "text", text);
	if (o && r->table)
		json_object_set_new(o, "table", json_integer(r->table));
	return remote_send(r, o);
}

int remote_act(struct remote *r, const struct action *a)
{
	char txt[ACT_STR_MAX];
	json_t *o = table_msg("action", r->table);
	if (o)
		json_object_set_new(o, "action", json_string(act_format(a, txt, sizeof txt)));
	if (remote_send(r, o) < 0)
		return -1;
	r->sent_moves = r->vs.moves;
	return 0;
}

int remote_invite(struct remote *r, const char *name)
{
	json_t *o = table_msg("invite", r->table);
	if (o)
		json_object_set_new(o, "name", json_string(name));
	return remote_send(r, o);
}

int remote_rematch(struct remote *r)
{
	return remote_simple(r, "rematch", r->rematch ? r->rematch : r->table);
}

int remote_hint(struct remote *r)
{
	return remote_simple(r, "hint", r->table);
}

int remote_verbosity(struct remote *r, int verbosity)
{
	json_t *o = table_msg("verbosity", r->table);
	if (o)
		json_object_set_new(o, "level", json_string(verbosity == TALK_SHORT ? "short" : "full"));
	return remote_send(r, o);
}
