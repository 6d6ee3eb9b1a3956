/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/lobbyround.h"

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
#include "words/say.h"

#include "net/server/lobbyrec.h"

static const char *state_word(int state)
{
	return state == HOST_WAITING ? "waiting" : state == HOST_PLAYING ? "playing" : "over";
}

json_t *lobbyround_table_json(const struct host *h)
{
	json_t *rules = json_object();
	for (int i = 0; i < h->rules.n; i++) {
		char buf[32];
		json_object_set_new(rules, h->rules.defs[i].key,
		                    json_string(rules_value_str(&h->rules, i, buf, sizeof buf)));
	}
	json_t *seats = json_array();
	const char *person[GAME_MAX_SEATS] = { 0 };
	for (int s = 0; s < h->players && s < GAME_MAX_SEATS; s++)
		person[s] = h->seat[s].name;
	for (int s = 0; s < h->players; s++) {
		const char *word = host_seat_word(h, s);
		json_t *x = json_pack("{s:i, s:s, s:i}", "seat", s, "state", word, "level", h->seat[s].level);
		if (h->seat[s].name[0])
			json_object_set_new(x, "name", json_string(h->seat[s].name));
		/* A bot's seat: the name the table's sentences give it. */
		const char *bot = strcmp(word, "bot") ? NULL : say_bot_name(person, h->players, s);
		if (bot)
			json_object_set_new(x, "bot", json_string(bot));
		json_array_append_new(seats, x);
	}
	int watchers = 0;
	for (int i = 0; i < h->nmembers; i++)
		watchers += h->member[i]->seat < 0 && h->member[i]->conn >= 0;
	return json_pack("{s:I, s:s, s:i, s:o, s:o, s:b, s:s, s:s, s:i}", "id", (json_int_t)h->id, "game",
	                 h->g->name, "players", h->players, "rules", rules, "seats", seats, "private", h->private_,
	                 "creator", h->creator, "state", state_word(h->state), "watchers", watchers);
}

/* "joined", with the table as the lobby lists it (a player at a table in
 * play is not sent the lobby's list). */
char *lobbyround_joined_msg(const struct host *h, int seat)
{
	return proto_dump(json_pack("{s:s, s:I, s:i, s:o}", "type", "joined", "table", (json_int_t)h->id, "seat",
	                            seat, "info", lobbyround_table_json(h)));
}

/* "joined" for the one arriving at h (a seat taken, a table watched or
 * resumed), with where they are said in their language ("Table 3,
 * Bourré, 3 players. Start when ready.": the last words for its creator
 * while it waits). */
char *lobbyround_arrival_joined_msg(const struct host *h, int seat, const char *name, const char *lang)
{
	const struct i18n_lang *tr = i18n_of(lang);
	char text[256];
	snprintf(text, sizeof text, i18n_ntr(tr, "Table %1$ld, %2$s, %3$d player.", "Table %1$ld, %2$s, %3$d players.",
	                                     h->players),
	         (long)h->id, i18n_tr(tr, h->g->title), h->players);
	if (h->state == HOST_WAITING && !strcmp(h->creator, name)) {
		size_t n = strlen(text);
		snprintf(text + n, sizeof text - n, " %s", i18n_tr(tr, "Start when ready."));
	}
	json_t *o = json_pack("{s:s, s:I, s:i, s:o, s:s}", "type", "joined", "table", (json_int_t)h->id, "seat", seat,
	                      "info", lobbyround_table_json(h), "text", text);
	return proto_dump(o);
}

/* The people online (the first max, in the lobby's order) and how many. */
static int people_online(struct lobby *l, struct lobbylist_person *p, int max, int *n)
{
	int online = 0;
	*n = 0;
	for (int i = 0; i < l->nusers; i++)
		if (l->users[i].conn >= 0 && l->users[i].conn < LOBBY_RELAYED_CONN) {
			if (*n < max)
				p[(*n)++] = (struct lobbylist_person){ l->users[i].name, l->users[i].guest };
			online++;
		}
	const struct lobbylist_person *far = NULL;
	int nfar = l->far ? l->far->people(l->far->ctx, &far) : 0;
	for (int i = 0; i < nfar; i++)
		if (*n < max)
			p[(*n)++] = far[i];
	return online + nfar;
}


/* The lobby as one arriving hears it: "Lobby: 2 tables, 3 people." */
const char *lobbyround_arrival(struct lobby *l, const char *lang, char *buf, size_t len)
{
	const struct i18n_lang *tr = i18n_of(lang);
	struct lobbylist_person p[1];
	int n, people = people_online(l, p, 0, &n);
	const struct lobbylist_entry *far = NULL;
	int tables = l->ntables + (l->far ? l->far->tables(l->far->ctx, &far) : 0);
	char t[48], q[48];
	snprintf(t, sizeof t, i18n_ntr(tr, "%d table", "%d tables", tables), tables);
	snprintf(q, sizeof q, i18n_ntr(tr, "%d person", "%d people", people), people);
	snprintf(buf, len, i18n_tr(tr, "Lobby: %1$s, %2$s."), t, q);
	return buf;
}

/* A connection's snapshot of the lobby (its view's page), sent; its
 * bytes. people: kept for the next snapshot of the same moment, or NULL. */
size_t lobbyround_send_snapshot(struct lobby *l, struct lobby_conn *c, struct snap_people *people)
{
	struct snap_people here = { .made = 0 };
	struct snap_people *sp = people ? people : &here;
	if (!sp->made) {
		sp->online = people_online(l, sp->p, LOBBYLIST_PEOPLE, &sp->n);
		sp->made = 1;
	}
	const struct lobbylist_entry *far = NULL;
	int nfar = l->far ? l->far->tables(l->far->ctx, &far) : 0;
	char *text = lobbylist_snapshot(&c->view, l->tables, l->ntables, lobbyround_table_json, far, nfar, sp->p, sp->n, sp->online);
	size_t len = text ? strlen(text) : 0;
	lobbyrec_send_text(l, c->id, text);
	return len;
}

/* Flags by user index: 1 for a user at a table (seated or watching). One
 * pass over the tables' members, each found among the users by the
 * lobby's index of names, rather than every table searched for every user
 * (hundreds of each). */
unsigned char *lobbyround_users_at_tables(struct lobby *l)
{
	unsigned char *at = xcalloc((size_t)l->nusers + 1, 1);
	for (int t = 0; t < l->ntables; t++)
		for (int m = 0; m < l->tables[t]->nmembers; m++) {
			const struct lobby_user *u = lobbyrec_user_named(l, l->tables[t]->member[m]->name);
			if (u)
				at[u - l->users] = 1;
		}
	for (int u = 0; l->far && u < l->nusers; u++)
		if (l->users[u].conn >= 0 && l->far->away(l->far->ctx, l->users[u].conn))
			at[u] = 1;
	return at;
}

/* A table's own entry ("table"), as the lobby lists it. */
static char *table_msg(const struct host *h)
{
	return proto_dump(json_pack("{s:s, s:o}", "type", "table", "info", lobbyround_table_json(h)));
}

/* text to the members of h connected. */
static void send_members(struct lobby *l, const struct host *h, const char *text)
{
	long *to = xmalloc(((size_t)h->nmembers + 1) * sizeof *to);
	int n = 0;
	for (int k = 0; k < h->nmembers; k++)
		if (h->member[k]->conn >= 0)
			to[n++] = h->member[k]->conn;
	lobbyrec_send_many(l, to, n, xstrdup(text));
	free(to);
}

/* A table's own entry to its members connected (as the lobby's updates
 * send it while the table waits). */
void lobbyround_send_table(struct lobby *l, const struct host *h)
{
	char *one = table_msg(h);
	if (one)
		send_members(l, h, one);
	free(one);
}

static unsigned long long print_bytes(unsigned long long x, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x = (x ^ ((const unsigned char *)p)[i]) * 1099511628211ULL;
	return x;
}

/* A hash of what of a table its entry shows and may change (its seats,
 * their people and bots, its state, its watchers): a table whose hash is
 * the one last listed is not listed again (no entry made for it). */
static unsigned long long table_print(const struct host *h)
{
	int watchers = 0;
	for (int i = 0; i < h->nmembers; i++)
		watchers += h->member[i]->seat < 0 && h->member[i]->conn >= 0;
	int head[3] = { h->state, watchers, h->players };
	unsigned long long x = print_bytes(14695981039346656037ULL, head, sizeof head);
	for (int s = 0; s < h->players; s++) {
		const char *w = host_seat_word(h, s);
		x = print_bytes(x, w, strlen(w) + 1);
		x = print_bytes(x, h->seat[s].name, strlen(h->seat[s].name) + 1);
		x = print_bytes(x, &h->seat[s].level, sizeof h->seat[s].level);
	}
	return x;
}

static int cmp_person(const void *a, const void *b)
{
	return strcmp(((const struct lobbylist_person *)a)->name, ((const struct lobbylist_person *)b)->name);
}

static int online_here(const struct lobby_user *u)
{
	return u->conn >= 0 && u->conn < LOBBY_RELAYED_CONN;
}

/* 1 when the people online are those of the last round (none came or
 * went): a look at each one's flag rather than every name sorted. */
static int people_same(const struct lobby *l)
{
	if (l->unlisted)
		return 0;
	for (int i = 0; i < l->nusers; i++)
		if (online_here(&l->users[i]) != l->users[i].listed)
			return 0;
	return 1;
}

/* Who came and went since the last round: the names online now, sorted,
 * merged with those of the last round (kept for the next); nothing when
 * the people are the same. */
static void people_changes(struct lobby *l, struct lobbylist_person **in, int *nin, const char ***out, int *nout,
                           int *online)
{
	*nin = *nout = 0;
	*online = l->nshown;
	l->people_same = people_same(l);
	if (l->people_same) {
		*in = xcalloc(1, sizeof **in);
		*out = xcalloc(1, sizeof **out);
		return;
	}
	for (int i = 0; i < l->nusers; i++)
		l->users[i].listed = online_here(&l->users[i]);
	l->unlisted = 0;
	struct lobbylist_person *now = xcalloc((size_t)l->nusers + 1, sizeof *now);
	int n = 0;
	for (int i = 0; i < l->nusers; i++)
		if (l->users[i].listed)
			now[n++] = (struct lobbylist_person){ l->users[i].name, l->users[i].guest };
	qsort(now, (size_t)n, sizeof *now, cmp_person);
	*in = xcalloc((size_t)n + 1, sizeof **in);
	*out = xcalloc((size_t)l->nshown + 1, sizeof **out);
	/* The names kept are kept as they are (no copy made again). */
	char **next = xcalloc((size_t)n + 1, sizeof *next);
	int a = 0, b = 0;
	while (a < l->nshown || b < n) {
		int c = a >= l->nshown ? 1 : b >= n ? -1 : strcmp(l->shown[a], now[b].name);
		if (c < 0) {
			(*out)[(*nout)++] = l->shown[a++];   /* freed by the caller, after the round */
		} else if (c > 0) {
			next[b] = xstrdup(now[b].name);
			(*in)[(*nin)++] = now[b++];
		} else {
			next[b++] = l->shown[a++];
		}
	}
	free(l->shown);
	l->shown = next;
	l->capshown = n + 1;
	l->nshown = n;
	*online = n;
	free(now);
}

/* n items of a, then m of b, in one new array. */
static void *joined_arrays(const void *a, int n, const void *b, int m, size_t size)
{
	char *x = xcalloc((size_t)(n + m) + 1, size);
	if (n)
		memcpy(x, a, (size_t)n * size);
	if (m)
		memcpy(x + (size_t)n * size, b, (size_t)m * size);
	return x;
}

/* A round of the lobby's list: each table whose hash changed has its entry
 * made once and compared with the one last listed (its changes since, one
 * entry), the tables gone
 * and the people who came and went; then each connection in the lobby (at
 * no table, or following it) is sent what of it its view shows, or its
 * snapshot when it has just come back to the lobby or asked for one. The
 * members of a table still waiting to begin are told its entry ("table")
 * when it changed. The bytes sent. */
size_t lobbyround_round(struct lobby *l, const unsigned char *at)
{
	struct lobbylist_entry *made = xcalloc((size_t)l->ntables + 1, sizeof *made);
	int nmade = 0;
	double t0 = clock_ms();
	for (int t = 0; t < l->ntables; t++) {
		struct host *h = l->tables[t];
		unsigned long long print = table_print(h);
		if (l->told[t] && print == l->print[t])
			continue;
		/* Entries made for LOBBY_ROUND_MS at most: the tables changed
		 * after are listed at the next round (a thousand games begun at
		 * once would hold the loop tens of milliseconds). */
		if (nmade && clock_ms() - t0 >= l->round_ms) {
			l->dirty = 1;
			break;
		}
		l->print[t] = print;
		json_t *info = lobbyround_table_json(h);
		char *text = json_dumps(info, JSON_COMPACT);
		if (!text || (l->told[t] && !strcmp(text, l->told[t]))) {
			json_decref(info);
			free(text);
			continue;
		}
		made[nmade++] = (struct lobbylist_entry){ h->id, h, info, !l->told[t] };
		free(l->told[t]);
		l->told[t] = text;
		if (h->state == HOST_WAITING) {
			char *one = proto_dump(json_pack("{s:s, s:O}", "type", "table", "info", info));
			if (one)
				send_members(l, h, one);
			free(one);
		}
	}
	struct lobbylist_person *in;
	const char **out;
	int nin, nout, online;
	people_changes(l, &in, &nin, &out, &nout, &online);
	struct lobbylist_round r = { made, nmade, l->gone, l->ngone, in, nin, out, nout, online, l->ntables };
	/* The other nodes' changes after this one's (told to them first). */
	struct lobbylist_entry *all_made = NULL;
	long *all_gone = NULL;
	struct lobbylist_person *all_in = NULL;
	const char **all_out = NULL;
	if (l->far) {
		struct lobbylist_round f;
		memset(&f, 0, sizeof f);
		l->far->round(l->far->ctx, &r, &f);
		all_made = joined_arrays(made, nmade, f.tables, f.ntables, sizeof *made);
		all_gone = joined_arrays(l->gone, l->ngone, f.gone, f.ngone, sizeof *l->gone);
		all_in = joined_arrays(in, nin, f.in, f.nin, sizeof *in);
		all_out = joined_arrays(out, nout, f.out, f.nout, sizeof *out);
		r = (struct lobbylist_round){ all_made, nmade + f.ntables, all_gone, l->ngone + f.ngone, all_in,
			                      nin + f.nin, all_out, nout + f.nout, online + f.online,
			                      l->ntables + f.count };
	}
	size_t cost = 0;
	struct snap_people snap = { .made = 0 };
	struct lobbylist_memo memo = { NULL, 0 };
	for (int i = 0; i < l->nconns; i++) {
		struct lobby_conn *c = &l->conns[i];
		if (c->user < 0 || c->id >= LOBBY_RELAYED_CONN)
			continue;
		int listener = !at[c->user] || c->view.follow;
		char *text = NULL;
		if (c->view.want || (listener && !c->view.listening)) {
			cost += lobbyround_send_snapshot(l, c, &snap);
		} else if (listener && (text = lobbylist_delta_memo(&memo, &c->view, &r))) {
			cost += strlen(text);
			lobbyrec_send_text(l, c->id, text);
		}
		c->view.listening = listener;
	}
	lobbylist_memo_free(&memo);
	for (int k = 0; k < nmade; k++)
		json_decref(made[k].info);
	free(made);
	free(all_made);
	free(all_gone);
	free(all_in);
	free(all_out);
	for (int k = 0; k < nout; k++)
		free((char *)out[k]);
	free(out);
	free(in);
	l->ngone = 0;
	return cost;
}

static int saved_gone(void *ctx, long id)
{
	return lobbyrec_saved_index(ctx, id) >= 0;
}

static void send_many_io(void *ctx, const long *conns, int n, char *text)
{
	lobbyrec_send_many(ctx, conns, n, text);
}

/* The lobby's changes to the connections in the lobby (at: by user, 1
 * for someone at a table): net/lobbyev. */
void lobbyround_tell_changes(struct lobby *l, const unsigned char *at)
{
	const struct lobbylist_person *far = NULL;
	int nfar = l->far ? l->far->people(l->far->ctx, &far) : 0;
	/* The people of this round the same as the last (and no other
	 * node's): not listed again. Told before the round's list, against
	 * the pages as their clients hold them. */
	int same = !l->far && people_same(l);
	const char **online = xcalloc(same ? 1 : (size_t)(l->nusers + nfar) + 1, sizeof *online);
	struct lobbyev_listener *to = xcalloc((size_t)l->nconns + 1, sizeof *to);
	int non = 0, nto = 0;
	for (int i = 0; !same && i < l->nusers; i++)
		if (online_here(&l->users[i]))
			online[non++] = l->users[i].name;
	for (int i = 0; i < nfar; i++)
		online[non++] = far[i].name;
	for (int i = 0; i < l->nconns; i++) {
		int u = l->conns[i].user;
		if (u >= 0 && !at[u] && l->conns[i].id < LOBBY_RELAYED_CONN)
			to[nto++] = (struct lobbyev_listener){ l->conns[i].id, l->users[u].name, l->users[u].lang,
			                                       &l->conns[i].view };
	}
	struct lobbyev_in in = { online, non, l->tables, l->ntables, to, nto, saved_gone, send_many_io, l, same };
	lobbyev_tick(&l->ev, &in);
	free(online);
	free(to);
}

json_t *lobbyround_table_info(const struct host *h)
{
	return lobbyround_table_json(h);
}

char *lobbyround_joined_text(const struct host *h, int seat)
{
	return lobbyround_joined_msg(h, seat);
}

void lobbyround_table_changed(struct lobby *l, const struct host *h)
{
	if (h->state != HOST_WAITING)
		lobbyround_send_table(l, h);
	l->dirty = 1;
}
