/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/join.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/local.h"
#include "app/opts.h"
#include "app/registry.h"
#include "app/session.h"
#include "audio/audio.h"
#include "bots/bot.h"
#include "core/deckfile.h"
#include "core/err.h"
#include "core/num.h"
#include "core/rules.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "net/client/remote.h"
#include "net/client/resume.h"
#include "i18n/i18n.h"
#include "speech/speech.h"
#include "ui/finish.h"
#include "ui/menu.h"
#include "ui/play.h"
#include "ui/term.h"

enum { JOIN_DONE = 0, JOIN_UNREACHABLE = 1, JOIN_USAGE = 2, JOIN_SCRIPT = 3 };

#define JOIN_LINE_MAX 400
#define JOIN_ITEM_MAX 160   /* a table of the lobby as a menu item */
#define JOIN_MUTES_MAX 64   /* names muted from this client in a session */

struct join_opts {
	const char *url, *name, *password_file, *lang, *speech, *actions, *braille;
	const char *ca;             /* --ca FILE: a wss:// server's certificate checked against it */
	int text, no_speech, no_sound;
	long table;                 /* --table */
	int seat;                   /* --seat, -1 the first open one */
	int watch;                  /* --watch */
	const char *create;         /* --create GAME */
	int players;                /* --players */
	struct opt_list rules;      /* --rule, in order */
	const char *seats;          /* --seats open,bot:2,... */
	const char *table_password_file;
	int start;                  /* --start */
	const char *chat;           /* --chat TEXT, said once at the table */
	long long seed;             /* --seed: the created table's, -1 the server's choice */
	const char *history;        /* --history TABLE|last: fetch a past game's hand history */
	const char *out;            /* --out FILE: where it goes (- standard output) */
};

struct join {
	struct join_opts o;
	struct session ses;
	struct local local;
	struct remote r;
	struct script script;
	int have_script;
	int chat_sent;
	char muted[JOIN_MUTES_MAX][REMOTE_NAME_MAX]; /* whose chat this player asked not to hear */
	int nmuted;
	/* The choices of the create menus, kept while going back and for the
	 * next table made (set: there are some). */
	struct create_choices {
		int set, game, players, priv;
		struct rules rules;
		int kind[GAME_MAX_SEATS], level[GAME_MAX_SEATS];
	} cc;
	/* A line for standard error once the terminal is itself again (out of
	 * raw mode, where a newline does not go back to the line's start). */
	char farewell[JOIN_LINE_MAX];
};

static const char *jstr(json_t *v)
{
	const char *s = json_string_value(v);
	return s ? s : "";
}

static struct speech *sp_of(struct join *j) { return &j->ses.sp; }

static void say(struct join *j, const char *text)
{
	speech_say(sp_of(j), text, SPEECH_INTERRUPT | SPEECH_ECHO); /* menus and typing: not the game */
}

/* Service the connection and the sound for about ms. */
static void pump(struct join *j, int ms)
{
	double end = speech_now() + ms / 1000.0;
	do {
		session_pump(&j->ses);
		remote_service(&j->r, 10);
	} while (speech_now() < end);
}

/* A question of the server come since *asks (one holds a seat where a
 * game goes on, and asked for another table): its choices a menu, the
 * one chosen answered (Escape: the first, keeping what one holds). The
 * table the answer goes to (0: the one a create makes), or -1 when no
 * question came. */
static long answer_asked(struct join *j, int *asks)
{
	if (j->r.asks == *asks || !j->r.ask)
		return -1;
	*asks = j->r.asks;
	json_t *choices = json_object_get(j->r.ask, "choices");
	const char *items[8];
	int n = 0;
	for (; n < 8 && n < (int)json_array_size(choices); n++)
		items[n] = jstr(json_object_get(json_array_get(choices, (size_t)n), "text"));
	if (!n)
		return -1;
	int k = menu_run(sp_of(j), jstr(json_object_get(j->r.ask, "text")), items, n, 0);
	return remote_answer(&j->r, k < 0 ? 0 : k);
}

/* Wait until *counter changes or an error comes (up to 10 s, a question
 * answered meanwhile); 0 or -1. */
static int await_change(struct join *j, const int *counter)
{
	int was = *counter, errors = j->r.errors, asks = j->r.asks;
	double end = speech_now() + 10.0;
	while (*counter == was && j->r.errors == errors && speech_now() < end && !term_interrupted()) {
		if (answer_asked(j, &asks) >= 0)
			end = speech_now() + 10.0;
		pump(j, 10);
	}
	return *counter != was ? 0 : -1;
}

/* Wait until joined at table id (0: the one this client's create made),
 * not at another the server put us back at meanwhile: 0, or -1 (an error,
 * or no answer in 10 s). */
static int await_table(struct join *j, long id)
{
	int errors = j->r.errors, asks = j->r.asks;
	double end = speech_now() + 10.0;
	while (j->r.errors == errors && speech_now() < end && !term_interrupted()) {
		long to = answer_asked(j, &asks); /* the table asked for, or the seat kept */
		if (to >= 0) {
			id = to;
			end = speech_now() + 10.0;
		}
		long want = id ? id : j->r.created;
		if (want && j->r.table == want && !j->r.left)
			return 0;
		pump(j, 10);
	}
	return -1;
}

/* ---- a line of text: chat, passwords ---- */

/* Read a line, each character said as typed (secret: "star" instead);
 * Enter gives 0, Escape or the end of input -1. The table goes on
 * meanwhile. */
static int read_line_keys(struct join *j, int secret, char *out, size_t len);

/* One line typed, each character said (UTF-8 taken whole). */
static int read_line(struct join *j, const char *prompt, int secret, char *out, size_t len)
{
	out[0] = '\0';
	say(j, prompt);
	return read_line_keys(j, secret, out, len);
}

static int read_line_keys(struct join *j, int secret, char *out, size_t len)
{
	size_t n = 0;
	for (;;) {
		pump(j, 0);
		int key = term_read_key(20);
		if (key == KEY_NONE)
			continue;
		if (key == KEY_ENTER)
			return 0;
		if (key == KEY_ESCAPE || key == KEY_EOF || key == KEY_INTERRUPT)
			return -1;
		if (key == KEY_BACKSPACE) {
			if (n) {
				size_t from = utf8_start(out, n - 1);   /* a whole UTF-8 character */
				char gone[8];
				snprintf(gone, sizeof gone, "%s", out + from);
				n = from;
				out[n] = '\0';
				say(j, secret ? _("Erased.") : gone);
			}
			continue;
		}
		const char *one = term_last_text();
		size_t k = strlen(one);
		if (k && n + k < len) {
			memcpy(out + n, one, k + 1);
			n += k;
			say(j, secret ? _("star") : !strcmp(one, " ") ? _("space") : one);
		}
	}
}

static void chat_line(struct join *j)
{
	char line[JOIN_LINE_MAX];
	if (read_line(j, _("Chat: type, Enter sends, Escape cancels."), 0, line, sizeof line) < 0 ||
	    !line[strspn(line, " ")]) {
		say(j, _("Chat cancelled."));
		return;
	}
	remote_chat(&j->r, line);
}

static int read_password_file(const char *path, char *out, size_t len)
{
	char err[ERR_MAX];
	char *text = deckfile_slurp(path, err, sizeof err);
	if (!text) {
		fprintf(stderr, "tapis join: %s\n", err);
		return -1;
	}
	text[strcspn(text, "\r\n")] = '\0';
	snprintf(out, len, "%s", text);
	free(text);
	return 0;
}

/* ---- the table's menu (F2) ---- */

static int am_creator(struct join *j)
{
	if (j->r.table && j->r.created == j->r.table)
		return 1; /* made here: whatever page of the lobby is held */
	json_t *t = remote_table(&j->r, j->r.table);
	return t && !strcmp(jstr(json_object_get(t, "creator")), j->r.name);
}

/* An item that changes one's place at the table (Stand up, Leave, Remove)
 * acts only after Y; 1 when confirmed. */
static int confirm_y(struct join *j, const char *item)
{
	char line[256];
	snprintf(line, sizeof line, _("%s? Press Y to confirm, any other key to go back."), item);
	say(j, line);
	int key = KEY_NONE;
	while (key == KEY_NONE) {
		pump(j, 0);
		key = term_read_key(50);
	}
	return key == 'y' || key == 'Y';
}

/* The creator sets each seat nobody holds: open, or a bot of a level. */
static void seats_menu(struct join *j)
{
	json_t *t = remote_table(&j->r, j->r.table);
	json_t *seats = json_object_get(t, "seats");
	int n = (int)json_array_size(seats);
	if (!n)
		return;
	char labels[GAME_MAX_SEATS][128];
	const char *items[GAME_MAX_SEATS];
	for (int s = 0; s < n && s < GAME_MAX_SEATS; s++) {
		json_t *x = json_array_get(seats, (size_t)s);
		const char *st = jstr(json_object_get(x, "state"));
		const char *name = json_string_value(json_object_get(x, "name"));
		const char *bot = json_string_value(json_object_get(x, "bot"));
		if (name)
			snprintf(labels[s], sizeof labels[s], _("Seat %1$d: %2$s."), s + 1, name);
		else if (!strcmp(st, "open"))
			snprintf(labels[s], sizeof labels[s], _("Seat %d: open."), s + 1);
		else if (bot)
			/* TRANSLATORS: a seat a bot holds, called by its name as the
			 * table's sentences call it ("Claire (bot)"). */
			snprintf(labels[s], sizeof labels[s], _("Seat %1$d: %2$s, bot, level %3$d."), s + 1, bot,
			         (int)json_integer_value(json_object_get(x, "level")));
		else
			snprintf(labels[s], sizeof labels[s], _("Seat %1$d: a bot of level %2$d."), s + 1,
			         (int)json_integer_value(json_object_get(x, "level")));
		items[s] = labels[s];
	}
	int s = menu_run(sp_of(j), _("Seats"), items, n, 0);
	if (s < 0)
		return;
	if (json_string_value(json_object_get(json_array_get(seats, (size_t)s), "name"))) {
		/* A player's seat: the creator may only ask them to leave. */
		const char *yes[] = { _("Remove this player"), _("Back") };
		if (menu_run(sp_of(j), labels[s], yes, 2, 1) == 0) {
			json_t *o = json_pack("{s:s, s:I, s:i}", "type", "kick", "table", (json_int_t)j->r.table, "seat", s);
			remote_send(&j->r, o);
		}
		return;
	}
	const char *kinds[] = { _("Open to a player"), _("Bot, level 1"), _("Bot, level 2"), _("Bot, level 3") };
	int k = menu_run(sp_of(j), labels[s], kinds, 4, 0);
	if (k < 0)
		return;
	char word[16];
	snprintf(word, sizeof word, k == 0 ? "open" : "bot:%d", k);
	remote_set_seat(&j->r, j->r.table, s, word);
}

/* The seats others hold at a table in play, the creator may free (the
 * page's "Remove NAME"): the seat goes to a bot and opens. Those away are
 * said so. */
static int others_seats(struct join *j, int *seat, int max)
{
	json_t *seats = json_object_get(remote_table(&j->r, j->r.table), "seats");
	int n = 0;
	for (size_t s = 0; s < json_array_size(seats) && n < max; s++) {
		const char *name = jstr(json_object_get(json_array_get(seats, s), "name"));
		if (*name && strcmp(name, j->r.name) && (int)s != j->r.vs.seat)
			seat[n++] = (int)s;
	}
	return n;
}

static void free_seat_menu(struct join *j)
{
	int seat[GAME_MAX_SEATS];
	int n = others_seats(j, seat, GAME_MAX_SEATS);
	json_t *seats = json_object_get(remote_table(&j->r, j->r.table), "seats");
	char labels[GAME_MAX_SEATS][160];
	const char *items[GAME_MAX_SEATS];
	for (int i = 0; i < n; i++) {
		json_t *x = json_array_get(seats, (size_t)seat[i]);
		const char *name = jstr(json_object_get(x, "name"));
		if (!strcmp(jstr(json_object_get(x, "state")), "away"))
			snprintf(labels[i], sizeof labels[i], _("Remove %s, away"), name);
		else
			snprintf(labels[i], sizeof labels[i], _("Remove %s"), name);
		items[i] = labels[i];
	}
	if (!n)
		return;
	int c = menu_run(sp_of(j), _("Remove a player"), items, n, 0);
	if (c >= 0 && confirm_y(j, items[c]))
		remote_kick(&j->r, j->r.table, seat[c]);
}

/* Invite a person online to this table, by name. */
static void invite_line(struct join *j)
{
	char name[JOIN_LINE_MAX];
	if (read_line(j, _("Name of the person to invite, then Enter."), 0, name, sizeof name) < 0 || !name[0])
		return;
	remote_invite(&j->r, name);
}

/* Stop hearing a person's chat, or hear it again when muted already (the
 * server says which). */
static void mute_line(struct join *j)
{
	char name[JOIN_LINE_MAX];
	if (read_line(j, _("Name of the person whose chat to mute or hear again, then Enter."), 0, name, sizeof name) < 0 ||
	    !name[0])
		return;
	int k = 0;
	while (k < j->nmuted && strcmp(j->muted[k], name))
		k++;
	json_t *o = json_pack("{s:s, s:s, s:b}", "type", "mute", "name", name, "on", k == j->nmuted);
	if (k < j->nmuted)
		memcpy(j->muted[k], j->muted[--j->nmuted], sizeof j->muted[k]);
	else if (j->nmuted < JOIN_MUTES_MAX && strlen(name) < sizeof j->muted[0]) /* longer: no one's name */
		memcpy(j->muted[j->nmuted++], name, strlen(name) + 1);
	remote_send(&j->r, o);
}

/* A moderator's act (docs/protocol.md, "Moderation"): mute, remove from
 * this table or from the server, ban for a time, with a reason; the
 * server says it to the person, writes it to its audit, and refuses it,
 * in one's language, to anyone not a moderator. */
static void moderate(struct join *j)
{
	static const char *const acts[] = { "mute", "kick", "kick", "ban" };
	const char *items[] = { _("Mute their chat for a time"), _("Remove them from this table"),
	                        _("Remove them from the server"), _("Ban them for a time") };
	int k = menu_run(sp_of(j), _("Moderation"), items, 4, 0);
	if (k < 0)
		return;
	char name[JOIN_LINE_MAX], minutes[16] = "", reason[JOIN_LINE_MAX] = "";
	if (read_line(j, _("Name of the person, then Enter."), 0, name, sizeof name) < 0 || !name[0])
		return;
	if ((k == 0 || k == 3) &&
	    read_line(j, _("For how many minutes? Enter alone: the usual time."), 0, minutes, sizeof minutes) < 0)
		return;
	if (read_line(j, _("The reason, said to them, then Enter (Enter alone: none)."), 0, reason, sizeof reason) < 0)
		return;
	json_t *o = json_pack("{s:s, s:s, s:s}", "type", "mod", "act", acts[k], "name", name);
	long long mins;
	if (o && minutes[0] && num_parse(minutes, 0, 5256000, &mins) == 0)
		json_object_set_new(o, "minutes", json_integer(mins));
	if (o && reason[0])
		json_object_set_new(o, "reason", json_string(reason));
	if (o && k == 1)
		json_object_set_new(o, "table", json_integer(j->r.table));
	remote_send(&j->r, o);
}

static void table_menu(struct join *j)
{
	enum { T_REMATCH, T_START, T_SEATS, T_FREE, T_STAND, T_SIT, T_LEAVE, T_INVITE, T_MUTE, T_MOD, T_N };
	const char *all[T_N] = { _("Rematch"), _("Start the game"), _("Seats"), _("Remove a player"), _("Stand up"),
	                         _("Sit down"), _("Leave the table"), _("Invite someone"), _("Mute someone's chat"),
	                         _("Moderation") };
	int others[GAME_MAX_SEATS];
	int which[T_N], n = 0;
	const char *items[T_N];
	int creator = am_creator(j), waiting = j->r.table_state == 0;
	for (int i = 0; i < T_N; i++) {
		if ((i == T_START || i == T_SEATS) && !(creator && waiting))
			continue;
		if (i == T_FREE && !(creator && j->r.table_state == 1 && others_seats(j, others, GAME_MAX_SEATS)))
			continue;
		if (i == T_STAND && j->r.vs.seat < 0)
			continue;
		if (i == T_SIT && j->r.vs.seat >= 0)
			continue;
		if (i == T_REMATCH && (!j->r.rematch || j->r.rematch != j->r.table))
			continue;
		if (i == T_MOD && j->r.guest) /* a moderator is an account */
			continue;
		which[n] = i;
		items[n++] = all[i];
	}
	int c = menu_run(sp_of(j), _("Table"), items, n, 0);
	if (c < 0)
		return;
	switch (which[c]) {
	case T_START: remote_simple(&j->r, "start", j->r.table); break;
	case T_SEATS: seats_menu(j); break;
	case T_FREE: free_seat_menu(j); break;
	case T_STAND:
		if (confirm_y(j, items[c]))
			remote_simple(&j->r, "stand", j->r.table);
		break;
	case T_SIT: remote_sit(&j->r, j->r.table, -1, NULL); break;
	case T_INVITE: invite_line(j); break;
	case T_MUTE: mute_line(j); break;
	case T_MOD: moderate(j); break;
	case T_REMATCH: remote_rematch(&j->r); break;
	case T_LEAVE:
		if (confirm_y(j, items[c]))
			remote_simple(&j->r, "leave", j->r.table);
		break;
	default: break;
	}
}

/* ---- the port play acts through ---- */

/* The next scripted line for the player's seat (lines of other seats are
 * passed over), or NULL. */
static const struct script_line *script_next(struct join *j)
{
	if (!j->have_script)
		return NULL;
	const struct script_line *l;
	while ((l = script_peek(&j->script)) && l->seat != j->r.vs.seat)
		script_advance(&j->script);
	return l;
}

static const struct view_state *jp_state(void *ctx)
{
	struct join *j = ctx;
	return &j->r.vs;
}

static int jp_advance(void *ctx, int idle, char *err, size_t errlen)
{
	struct join *j = ctx;
	remote_service(&j->r, idle ? 2 : 0);
	if (j->r.script_refused) {
		errf(err, errlen, "%s", j->r.script_err);
		return JOIN_SCRIPT;
	}
	if (j->o.chat && !j->chat_sent && j->r.table && !j->r.lost) {
		j->chat_sent = 1;
		remote_chat(&j->r, j->o.chat);
	}
	if (j->r.left || j->r.replaced)
		j->r.vs.game_over = 1;   /* back to the lobby, or gone */
	const struct script_line *l;
	if (idle && j->r.vs.my_turn && j->r.sent_moves < 0 && !j->r.lost && (l = script_next(j))) {
		script_advance(&j->script);
		remote_act(&j->r, &l->act);
	}
	return 0;
}

static int jp_awaits(void *ctx)
{
	struct join *j = ctx;
	return j->r.vs.my_turn && j->r.sent_moves < 0 && !j->r.lost && !script_next(j);
}

static int jp_act(void *ctx, const struct action *a)
{
	struct join *j = ctx;
	return remote_act(&j->r, a);
}

static void jp_hint(void *ctx)
{
	struct join *j = ctx;
	remote_hint(&j->r);
}

static void jp_verbosity(void *ctx, int verbosity)
{
	struct join *j = ctx;
	remote_verbosity(&j->r, verbosity);
}

static int jp_key(void *ctx, int key)
{
	struct join *j = ctx;
	if (key == KEY_TAB) {
		chat_line(j);
		return 1;
	}
	if (key == KEY_F2) {
		table_menu(j);
		return 1;
	}
	return 0;
}

/* Escape or Quit in the lobby: leave the server only when the player says
 * so (a slip of Escape would drop them from it). */
static int confirm_leave(struct join *j)
{
	const char *items[] = { _("No, stay"), _("Yes, leave the server") };
	int k = menu_run(sp_of(j), _("Leave the server?"), items, 2, 0);
	return k == 1 || k == MENU_QUIT;
}

/* ---- the lobby ---- */

static const char *seat_word(int kind, int level, char *buf, size_t len)
{
	if (kind == 0)
		return "open";
	snprintf(buf, len, "bot:%d", level);
	return buf;
}

/* Send a create and wait until we are at the new table. 0 or -1. */
static int create_table(struct join *j, const struct game_ops *g, int players, const struct rules *rules,
                        const int *kind, const int *level, const char *password)
{
	json_t *jr = json_object();
	for (int i = 0; i < rules->n; i++) {
		char buf[32];
		json_object_set_new(jr, rules->defs[i].key, json_string(rules_value_str(rules, i, buf, sizeof buf)));
	}
	json_t *js = json_array();
	for (int s = 0; s < players; s++) {
		char buf[16];
		json_array_append_new(js, json_string(seat_word(kind[s], level[s], buf, sizeof buf)));
	}
	json_t *o = json_pack("{s:s, s:s, s:i, s:o, s:o}", "type", "create", "game", g->name, "players", players,
	                      "rules", jr, "seats", js);
	if (o && j->o.seed >= 0)
		json_object_set_new(o, "seed", json_integer(j->o.seed));
	if (o && password && *password) {
		json_object_set_new(o, "private", json_true());
		json_object_set_new(o, "password", json_string(password));
	}
	j->r.created = 0;
	remote_send(&j->r, o);
	return await_table(j, 0);
}

/* The create menus: game, players, rules, seats, privacy. Escape goes
 * back one menu, its choice kept; Escape at the first leaves them, and
 * the choices made are kept for the next table made in the session. */
static void create_menu(struct join *j)
{
	struct create_choices *cc = &j->cc;
	const char *games[16];
	int ng = 0;
	for (; registry_games[ng].ops && ng < 16; ng++)
		games[ng] = _(registry_games[ng].ops->title);
	const char *kinds[] = { _("Open to a player"), _("Bot, level 1"), _("Bot, level 2"), _("Bot, level 3") };
	const char *priv[] = { _("Public table"), _("Private table, with a password") };
	char password[130] = "";
	const struct game_ops *g = cc->set ? registry_games[cc->game].ops : NULL;
	enum { C_GAME, C_PLAYERS, C_RULES, C_SEATS, C_PRIVATE, C_PASSWORD, C_MAKE };
	int step = C_GAME, seat = 1;
	while (step != C_MAKE) {
		int k = 0;
		switch (step) {
		case C_GAME:
			k = menu_run(sp_of(j), _("Which game?"), games, ng, cc->set ? cc->game : 0);
			if (k < 0)
				return;
			if (!cc->set || k != cc->game) { /* another game: its own defaults */
				g = registry_games[k].ops;
				memset(cc, 0, sizeof *cc);
				cc->set = 1;
				cc->game = k;
				cc->players = g->default_players;
				rules_init(&cc->rules, g->rules, g->nrules);
				for (int x = 0; x < GAME_MAX_SEATS; x++) {
					cc->kind[x] = x > 0;
					cc->level[x] = BOT_LEVEL_DEFAULT;
				}
				cc->kind[0] = 0;
			}
			step = C_PLAYERS;
			break;
		case C_PLAYERS: {
			char pl[GAME_MAX_SEATS][48];
			const char *pitems[GAME_MAX_SEATS];
			int np = 0;
			for (int p = g->min_players; p <= g->max_players && np < GAME_MAX_SEATS; p++, np++) {
				snprintf(pl[np], sizeof pl[np], P_("%d player", "%d players", p), p);
				pitems[np] = pl[np];
			}
			k = np > 1 ? menu_run(sp_of(j), _("How many players?"), pitems, np, cc->players - g->min_players) : 0;
			if (k == MENU_QUIT)
				return;
			if (k < 0 || np <= 1) {
				step = k < 0 ? C_GAME : C_RULES;
				break;
			}
			cc->players = g->min_players + k;
			step = C_RULES;
			break;
		}
		case C_RULES: {
			char otitle[128];
			snprintf(otitle, sizeof otitle, _("Options of %s."), _(g->title));
			k = menu_rules(sp_of(j), otitle, &cc->rules);
			if (k == MENU_QUIT)
				return;
			step = k != 0 ? C_PLAYERS : cc->players > 1 ? C_SEATS : C_PRIVATE;
			seat = 1;
			break;
		}
		case C_SEATS: {
			char title[64];
			snprintf(title, sizeof title, _("Seat %d"), seat + 1);
			k = menu_run(sp_of(j), title, kinds, 4, cc->kind[seat] ? cc->level[seat] : 0);
			if (k == MENU_QUIT)
				return;
			if (k < 0) {
				if (--seat < 1)
					step = C_RULES;
				break;
			}
			cc->kind[seat] = k > 0;
			cc->level[seat] = k > 0 ? k : BOT_LEVEL_DEFAULT;
			if (++seat >= cc->players)
				step = C_PRIVATE;
			break;
		}
		case C_PRIVATE:
			k = menu_run(sp_of(j), _("Who may join?"), priv, 2, cc->priv);
			if (k == MENU_QUIT)
				return;
			if (k < 0) {
				seat = cc->players - 1;
				step = seat >= 1 ? C_SEATS : C_RULES;
				break;
			}
			cc->priv = k;
			step = k == 1 ? C_PASSWORD : C_MAKE;
			break;
		case C_PASSWORD:
			step = read_line(j, _("Password of the table, then Enter."), 1, password, sizeof password) < 0 ? C_PRIVATE
			                                                                                            : C_MAKE;
			break;
		}
	}
	int kind[GAME_MAX_SEATS], level[GAME_MAX_SEATS];
	memcpy(kind, cc->kind, sizeof kind);
	memcpy(level, cc->level, sizeof level);
	kind[0] = 0;
	level[0] = BOT_LEVEL_DEFAULT;
	if (create_table(j, g, cc->players, &cc->rules, kind, level, password) < 0) {
		say(j, j->r.error[0] ? j->r.error : _("The table could not be made."));
		return;
	}
	char made[160];
	snprintf(made, sizeof made, _("Table %ld is yours. F2 starts the game and sets the seats."), j->r.table);
	speech_say(sp_of(j), made, SPEECH_QUEUE);
}

static const char *table_line(json_t *t, char *buf, size_t len)
{
	const struct game_ops *g = registry_ops(jstr(json_object_get(t, "game")));
	long id = (long)json_integer_value(json_object_get(t, "id"));
	int players = (int)json_integer_value(json_object_get(t, "players"));
	const char *st = jstr(json_object_get(t, "state"));
	json_t *seats = json_object_get(t, "seats");
	int open = 0;
	for (size_t i = 0; i < json_array_size(seats); i++)
		open += !strcmp(jstr(json_object_get(json_array_get(seats, i), "state")), "open");
	/* Mid-sentence, a French title's article in lower case ("Table 1 : la
	 * Bouillotte à 4"). */
	char low[64];
	snprintf(low, sizeof low, "%s", g ? _(g->title) : "?");
	if (!strcmp(i18n_lang(), "fr") && (!strncmp(low, "La ", 3) || !strncmp(low, "Le ", 3) || !strncmp(low, "L'", 2)))
		low[0] = (char)(low[0] - 'A' + 'a');
	const char *title = low;
	if (!strcmp(st, "waiting"))
		snprintf(buf, len,
		         P_("Table %1$ld: %2$s, %3$d players, waiting, %4$d open seat.",
		            "Table %1$ld: %2$s, %3$d players, waiting, %4$d open seats.", open),
		         id, title, players, open);
	else if (!strcmp(st, "playing"))
		snprintf(buf, len,
		         P_("Table %1$ld: %2$s, %3$d players, playing, %4$d open seat.",
		            "Table %1$ld: %2$s, %3$d players, playing, %4$d open seats.", open),
		         id, title, players, open);
	else
		snprintf(buf, len, _("Table %1$ld: %2$s, %3$d players, over."), id, title, players);
	/* Private: said in the same sentence ("…, 1 open seat, private."). */
	size_t n = strlen(buf);
	if (json_is_true(json_object_get(t, "private")) && n && buf[n - 1] == '.') {
		buf[n - 1] = '\0';
		snprintf(buf + n - 1, len - (n - 1), "%s", C_("lobby", ", private."));
	}
	return buf;
}

/* Sit or watch at a table chosen in the lobby. */
static void table_choice(struct join *j, json_t *t)
{
	long id = (long)json_integer_value(json_object_get(t, "id"));
	const char *items[] = { _("Sit down"), _("Watch") };
	int c = menu_run(sp_of(j), _("Table"), items, 2, 0);
	if (c < 0)
		return;
	char password[130] = "";
	/* Invited there: the invitation lets one in without the password. */
	if (json_is_true(json_object_get(t, "private")) && id != j->r.invited &&
	    read_line(j, _("Password of the table, then Enter."), 1, password, sizeof password) < 0)
		return;
	if (c == 0)
		remote_sit(&j->r, id, -1, password);
	else
		remote_watch(&j->r, id, password);
	if (await_change(j, &j->r.joined) < 0 && j->r.error[0])
		say(j, j->r.error);
}

/* Ask the server (a stats or leaders message) and say its answer's
 * sentence; an error is said by remote. */
static void ask_and_say(struct join *j, json_t *msg, const char *type)
{
	remote_send(&j->r, msg);
	if (await_change(j, &j->r.answers) == 0 && j->r.answer &&
	    !strcmp(jstr(json_object_get(j->r.answer, "type")), type))
		say(j, jstr(json_object_get(j->r.answer, "text")));
}

/* The lobby's figures: one's own (an account's), and the best rated of
 * each game, as the server phrases them. */
static void figures_menu(struct join *j)
{
	const char *items[16];
	char lines[16][JOIN_ITEM_MAX];
	int n = 0;
	items[n++] = _("My figures");
	for (int i = 0; registry_games[i].ops && n < 16; i++) {
		snprintf(lines[n], sizeof lines[n], _("Best rated at %s"), _(registry_games[i].ops->title));
		items[n] = lines[n];
		n++;
	}
	for (int sel = 0;;) {
		int c = menu_run(sp_of(j), _("Figures"), items, n, sel);
		if (c < 0)
			return;
		sel = c;
		if (c == 0)
			ask_and_say(j, json_pack("{s:s}", "type", "stats"), "stats");
		else
			ask_and_say(j, json_pack("{s:s, s:s}", "type", "leaders", "game", registry_games[c - 1].ops->name),
			            "leaders");
	}
}

/* --history: a past table's hand history (or the last game's) into --out,
 * to be told again with tapis replay. 0, or an exit status. */
static int fetch_history(struct join *j)
{
	json_t *o = json_pack("{s:s}", "type", "history");
	if (strcmp(j->o.history, "last") != 0) {
		long long id;
		if (num_parse(j->o.history, 1, LONG_MAX, &id) < 0) {
			fprintf(stderr, "tapis join: --history: '%s' is not a table's number nor last\n", j->o.history);
			json_decref(o);
			return JOIN_USAGE;
		}
		json_object_set_new(o, "table", json_integer(id));
	}
	remote_send(&j->r, o);
	int was = j->r.answers, errors = j->r.errors;
	double end = speech_now() + 30.0;
	json_t *a = NULL;
	while (j->r.errors == errors && speech_now() < end && !term_interrupted()) {
		pump(j, 10);
		if (j->r.answers != was && j->r.answer && !strcmp(jstr(json_object_get(j->r.answer, "type")), "history")) {
			a = j->r.answer;
			break;
		}
	}
	if (!a) {
		fprintf(stderr, "tapis join: --history: %s\n", j->r.error[0] ? j->r.error : "no answer");
		return JOIN_UNREACHABLE;
	}
	FILE *f = strcmp(j->o.out, "-") ? fopen(j->o.out, "w") : stdout;
	if (!f) {
		perror(j->o.out);
		return JOIN_USAGE;
	}
	json_t *lines = json_object_get(a, "lines");
	for (size_t i = 0; i < json_array_size(lines); i++)
		fprintf(f, "%s\n", jstr(json_array_get(lines, i)));
	int bad = ferror(f) | (f != stdout ? fclose(f) : fflush(f));
	if (bad) {
		fprintf(stderr, "tapis join: %s: cannot be written\n", j->o.out);
		return JOIN_USAGE;
	}
	if (f != stdout)
		snprintf(j->farewell, sizeof j->farewell, _("The hand history of table %ld is in %s."),
		         (long)json_integer_value(json_object_get(a, "table")), j->o.out);
	return JOIN_DONE;
}

/* Sit or watch at a table one is invited to: no password asked. */
static void invitation(struct join *j, json_t *t)
{
	long id = (long)json_integer_value(json_object_get(t, "id"));
	const char *items[] = { _("Sit down"), _("Watch") };
	int c = menu_run(sp_of(j), _("Table"), items, 2, 0);
	if (c < 0)
		return;
	if (c == 0)
		remote_sit(&j->r, id, -1, NULL);
	else
		remote_watch(&j->r, id, NULL);
	if (await_change(j, &j->r.joined) < 0 && j->r.error[0])
		say(j, j->r.error);
}

/* The rematch offered: a menu of two items, Rematch and Leave the table
 * (the arrows choose, Enter confirms; Escape goes to Leave), where the
 * query keys answer as in play and no other key acts. 1: a rematch, -1:
 * leave the table, 0: the input's end or an interrupt. */
static int rematch_menu(struct join *j)
{
	const char *items[] = { _("Rematch"), _("Leave the table") };
	int i = 0;
	menu_say_item(sp_of(j), items, 2, i, NULL); /* after the server's offer */
	for (;;) {
		int key = term_read_key(50);
		pump(j, 0);
		if (key == KEY_INTERRUPT || key == KEY_EOF || j->r.left || !j->r.table)
			return 0;
		if (key == KEY_NONE)
			continue;
		int up = key < 128 ? toupper(key) : key;
		if (key == KEY_ENTER)
			return i == 0 ? 1 : -1;
		if (key == KEY_UP || key == KEY_DOWN || key == KEY_LEFT || key == KEY_RIGHT || key == KEY_ESCAPE ||
		    key == KEY_HOME || key == KEY_END) {
			i = key == KEY_ESCAPE || key == KEY_END ? 1 : key == KEY_HOME ? 0 : !i;
			menu_say_item(sp_of(j), items, 2, i, NULL);
		} else if (up < 128 && strchr(VIEW_QUERY_KEYS, up)) {
			const char *answer = j->r.vs.answer[strchr(VIEW_QUERY_KEYS, up) - VIEW_QUERY_KEYS];
			if (answer[0])
				say(j, answer);
		} else if (up == 'H' && j->r.vs.hand_text[0]) {
			say(j, j->r.vs.hand_text);
		} else {
			say(j, _("Up and Down choose, Enter confirms, Escape goes back."));
		}
	}
}

/* At a finished table whose rematch the server offers (a terminal's
 * keys): the rematch menu; Rematch says yes and waits for the others (1:
 * the table started again, play goes on there); Leave the table, or Escape
 * while waiting, leaves it (-1: the lobby); 0: no offer, or the input's
 * end. */
static int rematch_key(struct join *j)
{
	if (!j->r.table || j->r.left || j->r.table_state != 2 || j->r.vs.seat < 0)
		return 0;
	/* The offer follows the game's end. */
	for (int waited = 0; j->r.rematch != j->r.table && waited < 500 && j->r.table && !j->r.left; waited += 50)
		pump(j, 50);
	if (!j->r.table || j->r.left || j->r.rematch != j->r.table)
		return 0;
	int chosen = rematch_menu(j);
	if (chosen <= 0)
		return chosen;
	int joined = j->r.joined;
	remote_rematch(&j->r);
	say(j, _("Waiting for the other players. Escape: leave the table."));
	while (j->r.joined == joined) {
		int key = term_read_key(50);
		pump(j, 0);
		if (key == KEY_ESCAPE)
			return -1;
		if (key == KEY_INTERRUPT || key == KEY_EOF || j->r.left || !j->r.table)
			return 0;
	}
	/* The new game's state follows. */
	for (int waited = 0; j->r.table_state == 2 && waited < 5000 && j->r.table; waited += 50)
		pump(j, 50);
	return j->r.table != 0;
}

/* O: who is online. */
static void say_online(struct join *j)
{
	json_t *users = json_object_get(j->r.lobby, "users");
	char text[VIEW_TEXT_MAX] = "";
	size_t n = json_array_size(users), k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = jstr(json_object_get(json_array_get(users, i), "name"));
		size_t at = strlen(text);
		if (at + strlen(name) + 4 >= sizeof text)
			break;
		snprintf(text + at, sizeof text - at, "%s%s", k++ ? ", " : "", name);
	}
	char line[VIEW_TEXT_MAX + 64];
	snprintf(line, sizeof line, P_("%1$d online: %2$s.", "%1$d online: %2$s.", (int)n), (int)n, text);
	say(j, line);
}

/* T: every table, with its game, seats, players and state. */
static void say_tables(struct join *j)
{
	json_t *tables = json_object_get(j->r.lobby, "tables");
	size_t n = json_array_size(tables);
	if (!n) {
		say(j, _("No table yet."));
		return;
	}
	char text[4096] = "";
	for (size_t i = 0; i < n; i++) {
		json_t *t = json_array_get(tables, i);
		char line[JOIN_ITEM_MAX], names[400] = "";
		json_t *seats = json_object_get(t, "seats");
		for (size_t s = 0; s < json_array_size(seats); s++) {
			const char *name = jstr(json_object_get(json_array_get(seats, s), "name"));
			size_t at = strlen(names);
			if (*name && at + strlen(name) + 3 < sizeof names)
				snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "", name);
		}
		size_t at = strlen(text);
		snprintf(text + at, sizeof text - at, "%s ", table_line(t, line, sizeof line));
		if (names[0]) {
			at = strlen(text);
			snprintf(text + at, sizeof text - at, _("Players: %s."), names);
			at = strlen(text);
			snprintf(text + at, sizeof text - at, " ");
		}
	}
	say(j, text);
}

/* V: what of the lobby is spoken as it happens, in turn all, friends and
 * invitations, nothing; kept in the settings. */
static void lobby_talk_next(struct join *j)
{
	static const char *const said[] = { N_("Lobby: everything is spoken."),
		                                N_("Lobby: friends and invitations only."),
		                                N_("Lobby: nothing is spoken.") };
	j->r.lobby_talk = (j->r.lobby_talk + 1) % 3;
	j->ses.set.lobby = j->r.lobby_talk;
	session_save_settings(&j->ses);
	say(j, _(said[j->r.lobby_talk]));
}

/* The saved tables where one holds a seat: one chosen is taken up again,
 * at one's seat. */
static void resume_menu(struct join *j)
{
	json_t *saved = json_incref(j->r.saved);
	int n = (int)json_array_size(saved);
	if (n > 50)
		n = 50;
	char (*lines)[JOIN_ITEM_MAX] = xcalloc((size_t)n + 1, sizeof *lines);
	const char **items = xcalloc((size_t)n + 1, sizeof *items);
	for (int i = 0; i < n; i++) {
		json_t *t = json_array_get(saved, (size_t)i);
		const struct game_ops *g = registry_ops(jstr(json_object_get(t, "game")));
		char names[JOIN_ITEM_MAX] = "";
		json_t *seats = json_object_get(t, "seats");
		for (size_t s = 0; s < json_array_size(seats); s++) {
			const char *name = jstr(json_array_get(seats, s));
			size_t at = strlen(names);
			if (*name && strcmp(name, j->r.name) && at + strlen(name) + 3 < sizeof names)
				snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "", name);
		}
		snprintf(lines[i], sizeof lines[i], names[0] ? _("Table %1$ld: %2$s, with %3$s.") : _("Table %1$ld: %2$s."),
		         (long)json_integer_value(json_object_get(t, "id")), g ? _(g->title) : "?", names);
		items[i] = lines[i];
	}
	int c = n ? menu_run(sp_of(j), _("Saved tables"), items, n, 0) : -1;
	if (c >= 0) {
		remote_resume(&j->r, (long)json_integer_value(json_object_get(json_array_get(saved, (size_t)c), "id")));
		if (await_change(j, &j->r.joined) < 0 && j->r.error[0])
			say(j, j->r.error);
	}
	json_decref(saved);
	free(lines);
	free(items);
}

enum { LOBBY_INVITED, LOBBY_TABLE, LOBBY_PREV, LOBBY_NEXT, LOBBY_RESUME, LOBBY_CREATE, LOBBY_CHAT, LOBBY_FIGURES,
       LOBBY_QUIT };

struct lobby_item {
	int kind;
	long id;                   /* LOBBY_TABLE: the table */
	char text[JOIN_ITEM_MAX];
};

/* The lobby's items from its last list: the tables of its page (50 at
 * most), the other pages when there are some, then what one may do. */
static int lobby_items(struct join *j, struct lobby_item *items, int max)
{
	json_t *tables = json_object_get(j->r.lobby, "tables");
	int n = 0;
	/* An invitation heard: its table first. */
	if (j->r.invited && remote_table(&j->r, j->r.invited)) {
		items[n].kind = LOBBY_INVITED;
		items[n].id = j->r.invited;
		snprintf(items[n].text, sizeof items[n].text, _("Accept the invitation to table %ld"), j->r.invited);
		n++;
	}
	for (size_t i = 0; i < json_array_size(tables) && n < max - 7; i++) {
		json_t *t = json_array_get(tables, i);
		items[n].kind = LOBBY_TABLE;
		items[n].id = (long)json_integer_value(json_object_get(t, "id"));
		table_line(t, items[n].text, sizeof items[n].text);
		n++;
	}
	json_int_t page = json_integer_value(json_object_get(j->r.lobby, "page"));
	json_int_t pages = json_integer_value(json_object_get(j->r.lobby, "pages"));
	for (int k = 0; k < 2; k++)
		if (k ? page + 1 < pages : page > 0) {
			items[n].kind = k ? LOBBY_NEXT : LOBBY_PREV;
			items[n].id = 0;
			snprintf(items[n].text, sizeof items[n].text, "%s", k ? _("More tables") : _("Previous tables"));
			n++;
		}
	if (json_array_size(j->r.saved)) {
		items[n].kind = LOBBY_RESUME;
		items[n].id = 0;
		snprintf(items[n].text, sizeof items[n].text, "%s", _("Resume a saved table"));
		n++;
	}
	static const char *const acts[] = { N_("Create a table"), N_("Chat in the lobby"), N_("Figures"), N_("Quit") };
	for (int k = 0; k < 4; k++, n++) {
		items[n].kind = LOBBY_CREATE + k;
		items[n].id = 0;
		snprintf(items[n].text, sizeof items[n].text, "%s", _(acts[k]));
	}
	return n;
}

static void say_lobby_item(struct join *j, const struct lobby_item *items, int n, int i, int title)
{
	char line[JOIN_ITEM_MAX + 64];
	char item[JOIN_ITEM_MAX];
	/* As the menus say an item: a stop after the title, none before the
	 * position. */
	snprintf(item, sizeof item, "%s", items[i].text);
	size_t k = strlen(item);
	if (k && item[k - 1] == '.')
		item[k - 1] = '\0';
	char pos[JOIN_ITEM_MAX + 48];
	/* TRANSLATORS: a menu item, its position and the number of items. */
	snprintf(pos, sizeof pos, _("%1$s, %2$d of %3$d."), item, i + 1, n);
	snprintf(line, sizeof line, "%s%s%s", title ? _("Lobby") : "", title ? ". " : "", pos);
	say(j, line);
}

/* The lobby: the tables, create, chat, leave, walked as a menu whose items
 * follow the lobby as it changes, while what happens there is spoken
 * (queued after what is being said). Returns 1 once at a table, 0 to
 * leave the server. */
static int lobby_menu(struct join *j)
{
	enum { MAX = 205 };
	struct lobby_item *items = xcalloc(MAX, sizeof *items);
	int sel = 0, kind = -1, title = 1, rc = 0;
	long id = 0;
	for (;;) {
		if (j->r.table) {
			rc = 1;
			break;
		}
		pump(j, title ? 50 : 0);
		int seen = j->r.lobby_seen;
		int n = lobby_items(j, items, MAX);
		/* The same item stays chosen as the list changes. */
		int found = -1;
		for (int i = 0; i < n && found < 0; i++)
			if (items[i].kind == kind && items[i].id == id)
				found = i;
		sel = found >= 0 ? found : sel < n ? sel : n - 1;
		if (title) {
			say_lobby_item(j, items, n, sel, 1);
			title = 0;
		}
		int key = KEY_NONE;
		while (key == KEY_NONE && seen == j->r.lobby_seen && !j->r.table) {
			pump(j, 0);
			key = term_read_key(20);
		}
		if (key == KEY_NONE)
			continue; /* the list changed: made again */
		kind = items[sel].kind;
		id = items[sel].id;
		int move = 0;
		switch (key) {
		case KEY_EOF:
		case KEY_INTERRUPT:
			goto out;
		case KEY_ESCAPE:
		case 'Q':
			if (confirm_leave(j))
				goto out;
			title = 1;
			break;
		case KEY_DOWN:
		case KEY_RIGHT:
			sel = (sel + 1) % n;
			move = 1;
			break;
		case KEY_UP:
		case KEY_LEFT:
			sel = (sel + n - 1) % n;
			move = 1;
			break;
		case KEY_HOME:
			sel = 0;
			move = 1;
			break;
		case KEY_END:
			sel = n - 1;
			move = 1;
			break;
		case KEY_TAB:
			chat_line(j);
			title = 1;   /* the lobby again, as after any item */
			break;
		case 'O':
			say_online(j);
			break;
		case 'T':
			say_tables(j);
			break;
		case 'V':
			lobby_talk_next(j);
			break;
		case KEY_F1:
			say(j, _("Up and Down choose, Enter confirms. Tab: chat in the lobby. O: who is online. T: the "
			         "tables. V: what of the lobby is spoken. Escape or Q: leave the server."));
			break;
		case KEY_ENTER:
			speech_stop(sp_of(j));
			if (items[sel].kind == LOBBY_INVITED) {
				json_t *t = remote_table(&j->r, items[sel].id);
				if (t) {
					json_incref(t);
					j->r.invited = 0;
					invitation(j, t);
					json_decref(t);
				}
			} else if (items[sel].kind == LOBBY_TABLE) {
				json_t *t = remote_table(&j->r, items[sel].id);
				if (t) {
					json_incref(t);
					table_choice(j, t);
					json_decref(t);
				}
			} else if (items[sel].kind == LOBBY_PREV || items[sel].kind == LOBBY_NEXT) {
				/* Another page of the tables: the server sends it. */
				json_int_t page = json_integer_value(json_object_get(j->r.lobby, "page"));
				remote_send(&j->r, json_pack("{s:s, s:I}", "type", "lobby_query", "page",
				                             page + (items[sel].kind == LOBBY_NEXT ? 1 : -1)));
			} else if (items[sel].kind == LOBBY_RESUME) {
				resume_menu(j);
			} else if (items[sel].kind == LOBBY_CREATE) {
				create_menu(j);
			} else if (items[sel].kind == LOBBY_CHAT) {
				chat_line(j);
			} else if (items[sel].kind == LOBBY_FIGURES) {
				figures_menu(j);
			} else if (confirm_leave(j)) {
				goto out;
			}
			title = 1;
			break;
		default:
			break;
		}
		if (move) {
			kind = items[sel].kind;
			id = items[sel].id;
			say_lobby_item(j, items, n, sel, 0);
		}
	}
out:
	free(items);
	return rc;
}

/* --seats (NULL: the creator's seat open, bots elsewhere) into kind and
 * level for players seats; 0, or -1 with the message printed. */
static int parse_seats(const char *list, int players, int *kind, int *level)
{
	for (int s = 0; s < GAME_MAX_SEATS; s++) {
		kind[s] = s > 0;
		level[s] = BOT_LEVEL_DEFAULT;
	}
	if (!list)
		return 0;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", list);
	int s = 0;
	char *next = buf;
	for (char *w; s < GAME_MAX_SEATS && (w = strsep(&next, ",")) != NULL; s++) {
		if (!*w) {
			fprintf(stderr, "tapis join: --seats: item %d is empty: open or bot[:LEVEL]\n", s + 1);
			return -1;
		}
		if (!strcmp(w, "open") || !strcmp(w, "human")) {
			kind[s] = 0;
		} else if (!strncmp(w, "bot", 3) && (!w[3] || (w[3] == ':' && w[4] >= '0' && w[4] <= '9' && !w[5]))) {
			kind[s] = 1;
			level[s] = w[3] ? w[4] - '0' : BOT_LEVEL_DEFAULT;
		} else {
			fprintf(stderr, "tapis join: --seats: '%s' is not open or bot[:LEVEL]\n", w);
			return -1;
		}
	}
	if (s != players || next) {
		fprintf(stderr, "tapis join: --seats: %d seats for %d players\n", s + (next != NULL), players);
		return -1;
	}
	return 0;
}

/* --create and --table: the lobby passed by options. 0, or an exit status. */
static int scripted_lobby(struct join *j)
{
	char password[130] = "";
	if (j->o.table_password_file && read_password_file(j->o.table_password_file, password, sizeof password) < 0)
		return JOIN_USAGE;
	if (j->o.create) {
		const struct game_ops *g = registry_ops(j->o.create);
		int players = j->o.players ? j->o.players : g->default_players;
		struct rules rules;
		rules_init(&rules, g->rules, g->nrules);
		char err[ERR_MAX];
		for (int i = 0; i < j->o.rules.n; i++)
			if (rules_set_arg(&rules, j->o.rules.v[i], err, sizeof err) < 0) {
				fprintf(stderr, "tapis join: --rule: %s\n", err);
				return JOIN_USAGE;
			}
		int kind[GAME_MAX_SEATS], level[GAME_MAX_SEATS];
		parse_seats(j->o.seats, players, kind, level);
		if (create_table(j, g, players, &rules, kind, level, password) < 0) {
			fprintf(stderr, "tapis join: the table was not made: %s\n", j->r.error);
			return JOIN_UNREACHABLE;
		}
		if (j->o.start && j->r.table == j->r.created) /* not a seat kept elsewhere */
			remote_simple(&j->r, "start", j->r.table);
		return 0;
	}
	if (j->o.watch)
		remote_watch(&j->r, j->o.table, password);
	else
		/* --seat counts from 1, as every seat is spoken; 0 is the first
		 * seat too (the count from 0 named it so). */
		remote_sit(&j->r, j->o.table, j->o.seat > 0 ? j->o.seat - 1 : j->o.seat, password);
	if (await_table(j, j->o.table) < 0) {
		fprintf(stderr, "tapis join: table %ld: %s\n", j->o.table, j->r.error[0] ? j->r.error : "no answer");
		return JOIN_UNREACHABLE;
	}
	return 0;
}

/* ---- the command ---- */

static int opt_braille(void *cfg, const char *v, char *err, size_t errlen)
{
	if (settings_braille_parse(v, err, errlen) < 0)
		return -1;
	((struct join_opts *)cfg)->braille = v;
	return 0;
}

static int opt_table(void *cfg, const char *v, char *err, size_t errlen)
{
	long long n;
	if (num_parse(v, 1, LONG_MAX, &n) < 0)
		return errf(err, errlen, "--table: '%s' is not a table's number", v);
	((struct join_opts *)cfg)->table = (long)n;
	return 0;
}

static int opt_seed(void *cfg, const char *v, char *err, size_t errlen)
{
	if (num_parse(v, 0, LLONG_MAX, &((struct join_opts *)cfg)->seed) < 0)
		return errf(err, errlen, "--seed: '%s' is not a number", v);
	return 0;
}

static int opt_ca(void *cfg, const char *v, char *err, size_t errlen)
{
	if (strlen(v) >= REMOTE_URL_MAX)
		return errf(err, errlen, "--ca: the file's name is too long");
	if (access(v, R_OK) != 0)
		return errf(err, errlen, "--ca: '%s': %s", v, strerror(errno));
	((struct join_opts *)cfg)->ca = v;
	return 0;
}

#define O struct join_opts
static const struct opt join_options[] = {
	OPT_S("name", N_("NAME"), N_("the player's name (default: $USER)"), O, name),
	OPT_S("password-file", N_("FILE"), N_("the account's password, read from this file"), O, password_file),
	OPT_C("ca", N_("FILE"), N_("trust a wss:// server whose certificate this file holds or signed (PEM)"), opt_ca),
	OPT_S("lang", "en|fr", N_("language of speech and text"), O, lang),
	OPT_F("text", N_("every announcement as a line of text, no voice"), O, text),
	OPT_S("speech", N_("BACKEND"), N_("auto (default), espeak, speechd, text or none"), O, speech),
	OPT_F("no-speech", N_("no speech"), O, no_speech),
	OPT_F("no-sound", N_("no sound cues"), O, no_sound),
	OPT_C("braille", "auto|on|off", N_("a braille display through BrlAPI (auto: when brltty answers)"), opt_braille),
	OPT_S("actions", N_("FILE"), N_("scripted actions of the player's seat"), O, actions),
	OPT_C("table", N_("ID"), N_("sit at this table"), opt_table),
	OPT_I("seat", N_("N"), N_("at this seat, counted from 1 (default: the first open one)"), O, seat, 0, INT_MAX),
	OPT_F("watch", N_("watch the table instead"), O, watch),
	OPT_S("table-password-file", N_("FILE"), N_("the table's password, read from this file"), O,
	      table_password_file),
	OPT_S("create", N_("GAME"), N_("create a table of GAME"), O, create),
	OPT_I("players", N_("N"), N_("number of players of the new table"), O, players, 1, INT_MAX),
	OPT_L("rule", N_("KEY=VALUE"), N_("a rule option (repeatable)"), O, rules),
	OPT_S("seats", N_("LIST"), N_("open, human or bot[:LEVEL] per seat of the new table"), O, seats),
	OPT_C("seed", N_("N"), N_("seed of the new table's game"), opt_seed),
	OPT_F("start", N_("start the new table's game at once"), O, start),
	OPT_S("chat", N_("TEXT"), N_("say this at the table, once"), O, chat),
	OPT_S("history", N_("TABLE|last"), N_("save the hand history of one of your last games (with --out), then exit"), O,
	      history),
	OPT_S("out", N_("FILE"), N_("where --history saves it (- standard output)"), O, out),
	OPT_END,
};
#undef O
static const struct opt_cmd join_cmd = { "tapis join", "tapis join URL [OPTIONS]", join_options };

/* OPT_OK, OPT_HELP (the usage printed), or JOIN_USAGE with a message. */
static int parse(int argc, char **argv, struct join_opts *o)
{
	memset(o, 0, sizeof *o);
	o->seat = -1;
	o->seed = -1;
	int npos, rc = opt_parse(&join_cmd, argc, argv, o, &o->url, 1, &npos);
	if (rc == OPT_HELP) {
		opt_help(&join_cmd, o->lang);
		return OPT_HELP;
	}
	if (rc)
		return JOIN_USAGE;
	if (!npos)
		return opt_fail(&join_cmd, "which server? (ws://HOST:PORT)");
	if (strncmp(o->url, "ws://", 5) && strncmp(o->url, "wss://", 6)) {
		fprintf(stderr, "tapis join: the address is ws://HOST:PORT or wss://HOST:PORT\n");
		return JOIN_USAGE;
	}
	if (!o->history != !o->out) {
		fprintf(stderr, "tapis join: --history and --out go together\n");
		return JOIN_USAGE;
	}
	if (o->history && (o->create || o->table)) {
		fprintf(stderr, "tapis join: --history goes alone, without --table or --create\n");
		return JOIN_USAGE;
	}
	if (o->create) {
		const struct game_ops *g = registry_ops(o->create);
		if (!g) {
			fprintf(stderr, "tapis join: unknown game '%s'\n", o->create);
			return JOIN_USAGE;
		}
		if (o->players && (o->players < g->min_players || o->players > g->max_players)) {
			fprintf(stderr, "tapis join: %s is for %d to %d players\n", g->name, g->min_players, g->max_players);
			return JOIN_USAGE;
		}
		if (o->table) {
			fprintf(stderr, "tapis join: --create and --table do not go together\n");
			return JOIN_USAGE;
		}
		int kind[GAME_MAX_SEATS], level[GAME_MAX_SEATS];
		if (parse_seats(o->seats, o->players ? o->players : g->default_players, kind, level) < 0)
			return JOIN_USAGE;
	}
	return 0;
}

/* The name: --name, else $USER, made to fit the server's rules. */
static void pick_name(const struct join_opts *o, char *out, size_t len)
{
	const char *n = o->name ? o->name : getenv("USER");
	snprintf(out, len, "%s", n && *n ? n : "player");
}

/* What a menu does while it waits: the connection served, its news said. */
static void menu_idle(void *ctx)
{
	struct join *j = ctx;
	session_pump(&j->ses);
	remote_service(&j->r, 0);
}

/* A guest's resume token, kept for this server and name: the seat comes
 * back with it after the program closed (net/resume). */
static void keep_token(struct join *j)
{
	char err[ERR_MAX];
	if (j->r.guest && j->r.token[0] &&
	    resume_save(NULL, j->o.url, j->r.name, j->r.token, err, sizeof err) < 0)
		fprintf(stderr, "tapis join: %s\n", err);
}

static void place_seats(struct join *j)
{
	if (j->ses.audio && j->r.vs.players > 0)
		audio_set_table(j->ses.audio, j->r.vs.players, j->r.vs.seat, j->r.vs.clockwise);
}

int join_main(int argc, char **argv)
{
	struct join *j = xcalloc(1, sizeof *j);
	int rc = parse(argc, argv, &j->o);
	if (rc) {
		free(j);
		return rc == OPT_HELP ? JOIN_DONE : rc;
	}
	const char *lang = j->o.lang ? j->o.lang : i18n_env_lang();
	char err[ERR_MAX];
	if (i18n_set_lang(lang, err, sizeof err) < 0 && strcmp(lang, "en") != 0)
		fprintf(stderr, "tapis join: %s; messages in English\n", err);
	char password[130] = "";
	if (j->o.password_file && read_password_file(j->o.password_file, password, sizeof password) < 0) {
		free(j);
		return JOIN_USAGE;
	}
	if (j->o.actions) {
		if (script_load(&j->script, j->o.actions, GAME_MAX_SEATS, err, sizeof err) < 0) {
			fprintf(stderr, "tapis join: %s\n", err);
			free(j);
			return JOIN_USAGE;
		}
		j->have_script = 1;
	}
	struct session_request req = { i18n_lang(), j->o.speech, j->o.text, j->o.no_speech, j->o.no_sound,
	                               term_is_tty(), j->o.braille };
	session_open(&j->ses, &req);
	j->local.sp = &j->ses.sp;
	j->local.audio = j->ses.audio;
	struct view_sink sink = local_sink(&j->local);
	char name[REMOTE_NAME_MAX];
	pick_name(&j->o, name, sizeof name);
	term_open();
	char token[RESUME_TOKEN_MAX] = "";
	if (!password[0])
		resume_load(NULL, j->o.url, name, token, sizeof token);
	snprintf(j->r.ca, sizeof j->r.ca, "%s", j->o.ca ? j->o.ca : "");
	/* A history is fetched aside the session: a client of the same
	 * account at a table stays there. */
	int opened = j->o.history && password[0]
	                     ? remote_open_aside(&j->r, j->o.url, name, password, i18n_lang(), &sink, err, sizeof err)
	             : j->o.create || j->o.table /* bound for a table: a seat held elsewhere is asked about */
	                     ? remote_open_going(&j->r, j->o.url, name, password[0] ? password : NULL, token,
	                                         i18n_lang(), &sink, err, sizeof err)
	                     : remote_open_token(&j->r, j->o.url, name, password[0] ? password : NULL, token,
	                                         i18n_lang(), &sink, err, sizeof err);
	if (opened < 0 && token[0] && !strcmp(j->r.error_code, "bad_message")) /* a token it cannot read */
		opened = remote_open(&j->r, j->o.url, name, NULL, i18n_lang(), &sink, err, sizeof err);
	if (opened < 0) {
		fprintf(stderr, "tapis join: %s: %s\n", j->o.url, err);
		rc = JOIN_UNREACHABLE;
		goto out;
	}
	j->r.script = j->have_script ? &j->script : NULL;
	if (j->o.history) {
		rc = fetch_history(j);
		goto out;
	}
	int scripted = j->o.create || j->o.table;
	/* A table reached by options: the lobby passed by is not spoken. */
	j->r.lobby_talk = scripted ? REMOTE_LOBBY_NONE : j->ses.set.lobby;
	keep_token(j);
	menu_set_idle(menu_idle, j);
	if (scripted && (rc = scripted_lobby(j)))
		goto out;
	/* The hello may already have put us back at our table. */
	pump(j, 100);
	if (!scripted && !term_is_tty() && !j->r.table) {
		fprintf(stderr, "tapis join: without a terminal, give --table ID or --create GAME\n");
		rc = JOIN_USAGE;
		goto out;
	}
	struct play_port port = { .state = jp_state, .advance = jp_advance, .awaits = jp_awaits, .act = jp_act,
	                          .verbosity = jp_verbosity, .hint = jp_hint, .ctx = j, .key = jp_key,
	                          .network = 1 };
	/* Scripted to a table (--table, --create) on a terminal, one who leaves
	 * it is in the lobby, as anyone else; with --actions or no terminal,
	 * the end. */
	int ends = !term_is_tty() || (scripted && j->o.actions);
	for (;;) {
		if (!j->r.table && (ends || !lobby_menu(j)))
			break;
		place_seats(j);
		/* The server phrases in full until told otherwise. */
		if (j->ses.set.verbosity == TALK_SHORT)
			remote_verbosity(&j->r, TALK_SHORT);
		err[0] = '\0';
		rc = play_port_run(&port, &j->ses, err, sizeof err);
		if (rc) {
			/* An interrupt ends play with its status and no message. */
			if (err[0])
				fprintf(stderr, "tapis join: %s\n", err);
			break;
		}
		int again = !term_interrupted() && !j->r.replaced && term_is_tty() ? rematch_key(j) : 0;
		if (again > 0)
			continue; /* the game over: a rematch, and play goes on */
		/* Q at a table reached by options ends the program; leaving it
		 * (F2, the rematch's Leave) is the lobby. */
		int left = again < 0 || j->r.left || !j->r.table;
		if (ends || term_interrupted() || j->r.replaced || (scripted && !left))
			break;
		/* The game is over or the table was left: back to the lobby. */
		if (j->r.table && !j->r.left)
			remote_simple(&j->r, "leave", j->r.table);
		j->r.table = 0;
		remote_state_reset(&j->r);
	}
	/* Let the last words be said. */
	while (speech_busy(&j->ses.sp) && !term_interrupted())
		pump(j, 20);
out:
	menu_set_idle(NULL, NULL);
	term_close();
	if (j->farewell[0])
		fprintf(stderr, "%s\n", j->farewell);
	remote_close(&j->r);
	if (j->have_script)
		script_release(&j->script);
	finish_session(&j->ses);
	free(j);
	return rc;
}
