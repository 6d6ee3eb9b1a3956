/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/req.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "core/err.h"
#include "core/termtext.h"
#include "core/utf8.h"
#include "i18n/i18n.h"
#include "net/wire/ident.h"
#include "words/talk.h"

static const char *const type_words[PM_COUNT] = {
	[PM_HELLO] = "hello", [PM_CREATE] = "create", [PM_SIT] = "sit", [PM_STAND] = "stand",
	[PM_WATCH] = "watch", [PM_LEAVE] = "leave", [PM_START] = "start", [PM_SEAT] = "seat",
	[PM_KICK] = "kick", [PM_ACTION] = "action", [PM_CHAT] = "chat", [PM_PING] = "ping",
	[PM_HINT] = "hint", [PM_VERBOSITY] = "verbosity", [PM_RESUME] = "resume", [PM_SETTINGS] = "settings",
	[PM_STATS] = "stats", [PM_LEADERS] = "leaders", [PM_HISTORY] = "history",
	[PM_INVITE] = "invite", [PM_REMATCH] = "rematch", [PM_MOD] = "mod", [PM_MUTE] = "mute",
	[PM_LOBBY_QUERY] = "lobby_query",
};

const char *const req_mod_words[PMOD_COUNT] = {
	[PMOD_MUTE] = "mute", [PMOD_UNMUTE] = "unmute", [PMOD_KICK] = "kick", [PMOD_BAN] = "ban",
	[PMOD_UNBAN] = "unban",
};

const char *req_type_word(int type)
{
	return type > PM_NONE && type < PM_COUNT ? type_words[type] : NULL;
}

/* A string member: 1 found (copied), 0 absent, -1 wrong (err filled). */
static int get_str(json_t *o, const char *key, char *out, size_t outlen, size_t max_chars,
                   int required, const struct i18n_lang *L, char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);
	if (!v)
		return required ? errf(err, errlen, i18n_tr(L, "'%s' is missing"), key) : 0;
	if (!json_is_string(v))
		return errf(err, errlen, i18n_tr(L, "'%s' must be a string"), key);
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);
	if (strlen(s) != len)
		return errf(err, errlen, i18n_tr(L, "'%s' holds a NUL character"), key);
	if (len >= outlen || utf8_count(s) > max_chars)
		return errf(err, errlen, i18n_tr(L, "'%s' is too long (at most %zu characters)"), key, max_chars);
	memcpy(out, s, len + 1);
	return 1;
}

/* get_str for a string kept and shown to others (a name acted on, a
 * reason): a control, bidi or invisible character (core/termtext) is
 * refused, never passed on to the store and the operator's terminal. */
static int get_clean(json_t *o, const char *key, char *out, size_t outlen, size_t max_chars, int required,
                     const struct i18n_lang *L, char *err, size_t errlen)
{
	int r = get_str(o, key, out, outlen, max_chars, required, L, err, errlen);
	if (r > 0 && termtext_unsafe(out))
		return errf(err, errlen, i18n_tr(L, "'%s' holds a control or invisible character"), key);
	return r;
}

/* An integer member within [min, max]: 1, 0 absent (out = def), -1 wrong. */
static int get_int(json_t *o, const char *key, long *out, long min, long max, long def,
                   int required, const struct i18n_lang *L, char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);
	*out = def;
	if (!v)
		return required ? errf(err, errlen, i18n_tr(L, "'%s' is missing"), key) : 0;
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return errf(err, errlen, i18n_tr(L, "'%s' must be a whole number from %ld to %ld"), key, min, max);
	*out = (long)json_integer_value(v);
	return 1;
}

static int get_bool(json_t *o, const char *key, int *out, const struct i18n_lang *L, char *err, size_t errlen)
{
	json_t *v = json_object_get(o, key);
	*out = 0;
	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return errf(err, errlen, i18n_tr(L, "'%s' must be true or false"), key);
	*out = json_is_true(v);
	return 1;
}

static int read_hello(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	long v;
	if (get_int(o, "version", &v, 0, 1000000, 0, 1, L, err, errlen) < 0)
		return -1;
	m->version = (int)v;
	char name[sizeof m->name];
	if (get_str(o, "name", name, sizeof name, PROTO_NAME_MAX, 1, L, err, errlen) < 0)
		return -1;
	int r = get_str(o, "password", m->password, sizeof m->password, PROTO_PASSWORD_MAX, 0, L, err, errlen);
	if (r < 0)
		return -1;
	m->has_password = r;
	if (r && !m->password[0])
		return errf(err, errlen, "%s", i18n_tr(L, "'password' must not be empty"));
	if (get_str(o, "token", m->token, sizeof m->token, PROTO_TOKEN_LEN, 0, L, err, errlen) < 0)
		return -1;
	if ((m->has_lang = get_str(o, "lang", m->lang, sizeof m->lang, 2, 0, L, err, errlen)) < 0)
		return -1;
	if (!m->lang[0])
		snprintf(m->lang, sizeof m->lang, "en");
	if (!i18n_lang_known(m->lang))
		return errf(err, errlen, "%s", i18n_tr(L, "'lang' must be \"en\" or \"fr\""));
	if (get_bool(o, "state_changes", &m->state_changes, L, err, errlen) < 0)
		return -1;
	if (get_bool(o, "aside", &m->aside, L, err, errlen) < 0)
		return -1;
	/* Why a name is refused, in the language the player asks for. */
	return ident_check(name, m->name, sizeof m->name, i18n_of(m->lang), err, errlen);
}

static int read_table(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	return get_int(o, "table", &m->table, 1, 1L << 40, 0, 1, L, err, errlen) < 0 ? -1 : 0;
}

static int read_seat_word(const char *w, int *kind, int *level, const struct i18n_lang *L, char *err, size_t errlen)
{
	if (!strcmp(w, "open")) {
		*kind = PSEAT_OPEN;
		*level = 2; /* the bot that plays it while nobody does */
		return 0;
	}
	if (!strncmp(w, "bot", 3) && (w[3] == '\0' || (w[3] == ':' && w[4] >= '0' && w[4] <= '9' && !w[5]))) {
		*kind = PSEAT_BOT;
		*level = w[3] ? w[4] - '0' : 2;
		return 0;
	}
	return errf(err, errlen, "%s", i18n_tr(L, "a seat is \"open\", \"bot\" or \"bot:LEVEL\" (0 to 9)"));
}

static int read_create(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	char game[32];
	if (get_str(o, "game", game, sizeof game, 31, 1, L, err, errlen) < 0)
		return -1;
	m->game = registry_ops(game);
	if (!m->game)
		return errf(err, errlen, i18n_tr(L, "no game called '%s'"), game);
	long players;
	if (get_int(o, "players", &players, m->game->min_players, m->game->max_players,
	            m->game->default_players, 0, L, err, errlen) < 0)
		return -1;
	m->players = (int)players;
	rules_init(&m->rules, m->game->rules, m->game->nrules);
	json_t *rules = json_object_get(o, "rules");
	if (rules && !json_is_object(rules))
		return errf(err, errlen, "%s", i18n_tr(L, "'rules' must be an object of option names and values"));
	const char *key;
	json_t *val;
	json_object_foreach(rules, key, val) {
		char buf[32];
		if (json_is_string(val))
			snprintf(buf, sizeof buf, "%s", json_string_value(val));
		else if (json_is_integer(val))
			snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(val));
		else if (json_is_boolean(val))
			snprintf(buf, sizeof buf, "%s", json_is_true(val) ? "yes" : "no");
		else {
			return errf(err, errlen, i18n_tr(L, "rule '%.40s': a value is a string, a number or true/false"), key);
		}
		if (rules_set(&m->rules, key, buf, err, errlen) < 0)
			return -1;
	}
	json_t *seats = json_object_get(o, "seats");
	for (int s = 0; s < m->players; s++) {
		m->seat_kind[s] = s == 0 ? PSEAT_OPEN : PSEAT_BOT;
		m->seat_level[s] = 2;
	}
	if (seats) {
		if (!json_is_array(seats) || json_array_size(seats) != (size_t)m->players)
			return errf(err, errlen, i18n_tr(L, "'seats' must be an array of %d seats"), m->players);
		for (int s = 0; s < m->players; s++) {
			json_t *w = json_array_get(seats, (size_t)s);
			if (!json_is_string(w) || read_seat_word(json_string_value(w), &m->seat_kind[s],
			                                         &m->seat_level[s], L, err, errlen) < 0) {
				if (!json_is_string(w))
					return errf(err, errlen, "%s", i18n_tr(L, "a seat is \"open\", \"bot\" or \"bot:LEVEL\""));
				return -1;
			}
		}
	}
	m->nseats = m->players;
	long seed;
	int r0 = get_int(o, "seed", &seed, 0, (1L << 48) - 1, 0, 0, L, err, errlen);
	if (r0 < 0)
		return -1;
	m->has_seed = r0;
	m->seed = seed;
	if (get_bool(o, "private", &m->private_, L, err, errlen) < 0)
		return -1;
	int r = get_str(o, "password", m->password, sizeof m->password, PROTO_PASSWORD_MAX, 0, L, err, errlen);
	if (r < 0)
		return -1;
	m->has_password = r && m->password[0];
	if (m->private_ && !m->has_password)
		return errf(err, errlen, "%s", i18n_tr(L, "a private table needs a 'password'"));
	return 0;
}

static int read_sit(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	long seat;
	if (read_table(o, m, L, err, errlen) < 0 ||
	    get_int(o, "seat", &seat, -1, GAME_MAX_SEATS - 1, -1, 0, L, err, errlen) < 0)
		return -1;
	m->seat = (int)seat;
	int r = get_str(o, "password", m->password, sizeof m->password, PROTO_PASSWORD_MAX, 0, L, err, errlen);
	if (r < 0)
		return -1;
	m->has_password = r;
	return 0;
}

static int read_seat(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	long seat;
	char word[16];
	if (read_table(o, m, L, err, errlen) < 0 ||
	    get_int(o, "seat", &seat, 0, GAME_MAX_SEATS - 1, 0, 1, L, err, errlen) < 0 ||
	    get_str(o, "kind", word, sizeof word, 15, 1, L, err, errlen) < 0 ||
	    read_seat_word(word, &m->kind, &m->level, L, err, errlen) < 0)
		return -1;
	m->seat = (int)seat;
	return 0;
}

static int read_kick(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	long seat;
	if (read_table(o, m, L, err, errlen) < 0 ||
	    get_int(o, "seat", &seat, 0, GAME_MAX_SEATS - 1, 0, 1, L, err, errlen) < 0)
		return -1;
	m->seat = (int)seat;
	return 0;
}

static int read_action(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	char text[ACT_STR_MAX];
	if (read_table(o, m, L, err, errlen) < 0 ||
	    get_str(o, "action", text, sizeof text, ACT_STR_MAX - 1, 1, L, err, errlen) < 0)
		return -1;
	char aerr[128];
	if (act_parse(text, &m->act, aerr, sizeof aerr) < 0)
		return errf(err, errlen, i18n_tr(L, "'action': %s"), aerr);
	return 0;
}

static int read_chat(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	char text[sizeof m->text];
	if (get_str(o, "text", text, sizeof text, PROTO_CHAT_MAX, 1, L, err, errlen) < 0 ||
	    get_int(o, "table", &m->table, 0, 1L << 40, 0, 0, L, err, errlen) < 0)
		return -1;
	return ident_chat(text, m->text, sizeof m->text, L, err, errlen);
}

static int read_verbosity(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	char word[8];
	if (read_table(o, m, L, err, errlen) < 0 || get_str(o, "level", word, sizeof word, 5, 1, L, err, errlen) < 0)
		return -1;
	if (strcmp(word, "short") && strcmp(word, "full"))
		return errf(err, errlen, "%s", i18n_tr(L, "'level' must be \"short\" or \"full\""));
	m->verbosity = !strcmp(word, "short") ? TALK_SHORT : TALK_FULL;
	return 0;
}

static int read_level(json_t *o, struct req *m, int required, const struct i18n_lang *L, char *err, size_t errlen)
{
	char word[8];
	int r = get_str(o, "level", word, sizeof word, 5, required, L, err, errlen);
	if (r <= 0)
		return r;
	if (strcmp(word, "short") && strcmp(word, "full"))
		return errf(err, errlen, "%s", i18n_tr(L, "'level' must be \"short\" or \"full\""));
	m->verbosity = !strcmp(word, "short") ? TALK_SHORT : TALK_FULL;
	return 1;
}

/* settings: any of lang, level, and an object of the client's own settings
 * (names and short values: strings, numbers, true/false), kept as JSON. */
static int read_settings(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	if ((m->has_lang = get_str(o, "lang", m->lang, sizeof m->lang, 2, 0, L, err, errlen)) < 0)
		return -1;
	if (m->has_lang && !i18n_lang_known(m->lang))
		return errf(err, errlen, "%s", i18n_tr(L, "'lang' must be \"en\" or \"fr\""));
	if ((m->has_verbosity = read_level(o, m, 0, L, err, errlen)) < 0)
		return -1;
	json_t *set = json_object_get(o, "settings");
	if (!set)
		return 0;
	if (!json_is_object(set) || json_object_size(set) > PROTO_SETTINGS_KEYS)
		return errf(err, errlen, i18n_tr(L, "'settings' must be an object of at most %d names and values"),
		            PROTO_SETTINGS_KEYS);
	const char *key;
	json_t *val;
	json_object_foreach(set, key, val) {
		if (strlen(key) > 32 || (!json_is_string(val) && !json_is_number(val) && !json_is_boolean(val)) ||
		    (json_is_string(val) && json_string_length(val) > 64))
			return errf(err, errlen, "%s",
			            i18n_tr(L, "a setting is a short name and a short string, a number or true/false"));
	}
	char *text = json_dumps(set, JSON_COMPACT | JSON_SORT_KEYS);
	if (!text || strlen(text) > PROTO_SETTINGS_MAX) {
		free(text);
		return errf(err, errlen, i18n_tr(L, "'settings' is too long (at most %d bytes)"), PROTO_SETTINGS_MAX);
	}
	snprintf(m->settings, sizeof m->settings, "%s", text);
	free(text);
	return 0;
}

/* A game's name, required or not. */
static int read_game(json_t *o, struct req *m, int required, const struct i18n_lang *L, char *err, size_t errlen)
{
	char game[32];
	int r = get_str(o, "game", game, sizeof game, 31, required, L, err, errlen);
	if (r <= 0)
		return r;
	if (!(m->game = registry_ops(game)))
		return errf(err, errlen, i18n_tr(L, "no game called '%s'"), game);
	return 0;
}

static int read_stats(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	return read_game(o, m, 0, L, err, errlen);
}

static int read_leaders(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	return read_game(o, m, 1, L, err, errlen);
}

static int read_history(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	return get_int(o, "table", &m->table, 1, 1L << 40, 0, 0, L, err, errlen) < 0 ? -1 : 0;
}

/* The name of someone else (invite, mod, mute): only its length is
 * checked; the lobby looks it up. */
static int read_other(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	return get_clean(o, "name", m->name, sizeof m->name, PROTO_NAME_MAX, 1, L, err, errlen) < 0 ? -1 : 0;
}

static int read_invite(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	return read_table(o, m, L, err, errlen) < 0 || read_other(o, m, L, err, errlen) < 0 ? -1 : 0;
}

static int read_mod(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	char word[16];
	if (get_str(o, "act", word, sizeof word, 15, 1, L, err, errlen) < 0 || read_other(o, m, L, err, errlen) < 0 ||
	    get_int(o, "minutes", &m->minutes, 0, PROTO_MINUTES_MAX, 0, 0, L, err, errlen) < 0 ||
	    get_int(o, "table", &m->table, 0, 1L << 40, 0, 0, L, err, errlen) < 0)
		return -1;
	m->mod_act = -1;
	for (int i = 0; i < PMOD_COUNT; i++)
		if (!strcmp(word, req_mod_words[i]))
			m->mod_act = i;
	if (m->mod_act < 0)
		return errf(err, errlen, "%s", i18n_tr(L, "'act' must be mute, unmute, kick, ban or unban"));
	char reason[PROTO_REASON_MAX + 1];
	int r = get_clean(o, "reason", reason, sizeof reason, PROTO_REASON_MAX, 0, L, err, errlen);
	if (r < 0)
		return -1;
	if (r && reason[0] && ident_chat(reason, m->text, sizeof m->text, L, err, errlen) < 0)
		return -1;
	return 0;
}

static int read_mute(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	if (read_other(o, m, L, err, errlen) < 0)
		return -1;
	int r = get_bool(o, "on", &m->on, L, err, errlen);
	if (r < 0)
		return -1;
	if (r == 0)
		m->on = 1;
	return 0;
}

/* lobby_query: a page of the tables (past the last: none), those matching a
 * filter ("" all), and whether the changes come also while at a table. */
static int read_lobby_query(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	if (get_int(o, "page", &m->page, 0, PROTO_PAGE_MAX, 0, 0, L, err, errlen) < 0 ||
	    get_str(o, "filter", m->text, sizeof m->text, PROTO_FILTER_MAX, 0, L, err, errlen) < 0 ||
	    get_bool(o, "follow", &m->follow, L, err, errlen) < 0)
		return -1;
	return 0;
}

static int read_nothing(json_t *o, struct req *m, const struct i18n_lang *L, char *err, size_t errlen)
{
	(void)o, (void)m, (void)L, (void)err, (void)errlen;
	return 0;
}

static int (*const readers[PM_COUNT])(json_t *, struct req *, const struct i18n_lang *, char *, size_t) = {
	[PM_HELLO] = read_hello, [PM_CREATE] = read_create, [PM_SIT] = read_sit,
	[PM_STAND] = read_table, [PM_WATCH] = read_sit, [PM_LEAVE] = read_table,
	[PM_START] = read_table, [PM_SEAT] = read_seat, [PM_KICK] = read_kick,
	[PM_ACTION] = read_action, [PM_CHAT] = read_chat, [PM_PING] = read_nothing,
	[PM_HINT] = read_table, [PM_VERBOSITY] = read_verbosity, [PM_RESUME] = read_table,
	[PM_SETTINGS] = read_settings, [PM_STATS] = read_stats, [PM_LEADERS] = read_leaders,
	[PM_HISTORY] = read_history,
	[PM_INVITE] = read_invite, [PM_REMATCH] = read_table, [PM_MOD] = read_mod, [PM_MUTE] = read_mute,
	[PM_LOBBY_QUERY] = read_lobby_query,
};

int req_read(const char *text, size_t len, struct req *m, const struct i18n_lang *L, char *err,
               size_t errlen)
{
	memset(m, 0, sizeof *m);
	m->seat = -1;
	if (len > PROTO_MAX_MESSAGE)
		return errf(err, errlen, i18n_tr(L, "message too long (at most %d bytes)"), PROTO_MAX_MESSAGE);
	json_error_t jerr;
	json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!o)
		return errf(err, errlen, i18n_tr(L, "not JSON: %s"), jerr.text);
	int rc = -1;
	if (!json_is_object(o)) {
		errf(err, errlen, "%s", i18n_tr(L, "a message is a JSON object"));
		goto out;
	}
	json_t *t = json_object_get(o, "type");
	if (!json_is_string(t)) {
		errf(err, errlen, "%s", i18n_tr(L, "'type' is missing"));
		goto out;
	}
	for (int i = PM_NONE + 1; i < PM_COUNT; i++)
		if (!strcmp(json_string_value(t), type_words[i])) {
			m->type = i;
			break;
		}
	if (m->type == PM_NONE) {
		errf(err, errlen, i18n_tr(L, "unknown message type '%.40s'"), json_string_value(t));
		goto out;
	}
	rc = readers[m->type](o, m, L, err, errlen);
out:
	json_decref(o);
	return rc;
}
