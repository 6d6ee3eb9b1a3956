/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/lobbyev.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/view.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "net/lobby.h"

enum ev_kind { EV_ARRIVE, EV_LEAVE, EV_TABLE_NEW, EV_TABLE_START, EV_TABLE_OVER, EV_TABLE_GONE, EV_TABLE_SAVED };

static const char *const ev_word[] = { "arrive", "leave", "table_new", "table_start", "table_over",
                                       "table_gone", "table_saved" };

struct ev {
	int kind;
	const char *name;       /* the person concerned (arrive, leave), or the table's creator */
	const struct host *h;   /* the table (NULL when gone) */
	long table;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sentence of an event, in the language in force. */
static void phrase(const struct ev *e, char *buf, size_t len)
{
	switch (e->kind) {
	case EV_ARRIVE:
		snprintf(buf, len, _("%s arrives."), e->name);
		break;
	case EV_LEAVE:
		snprintf(buf, len, _("%s leaves."), e->name);
		break;
	case EV_TABLE_NEW:
		snprintf(buf, len, _("New table %1$ld: %2$s, by %3$s."), e->table, _(e->h->g->title), e->name);
		break;
	case EV_TABLE_START:
		snprintf(buf, len, _("Table %ld begins."), e->table);
		break;
	case EV_TABLE_OVER:
		snprintf(buf, len, _("Table %ld is over."), e->table);
		break;
	case EV_TABLE_SAVED:
		snprintf(buf, len, _("Table %ld is saved; its players may resume it."), e->table);
		break;
	default:
		snprintf(buf, len, _("Table %ld is closed."), e->table);
		break;
	}
}

/* The names an event concerns (the client's "friends" filter): the person,
 * or the table's creator and the people holding its seats. */
static json_t *names_of(const struct ev *e)
{
	json_t *a = json_array();
	if (e->name && *e->name)
		json_array_append_new(a, json_string(e->name));
	if (e->h)
		for (int s = 0; s < e->h->players; s++)
			if (e->h->seat[s].name[0] && strcmp(e->h->seat[s].name, e->name ? e->name : ""))
				json_array_append_new(a, json_string(e->h->seat[s].name));
	return a;
}

static char *event_msg(const struct ev *e)
{
	char text[400];
	phrase(e, text, sizeof text);
	json_t *o = json_pack("{s:s, s:s, s:s, s:o}", "type", "lobby_event", "event", ev_word[e->kind], "text", text,
	                      "names", names_of(e));
	if (o && e->table)
		json_object_set_new(o, "table", json_integer(e->table));
	return proto_dump(o);
}

/* More changes than a listener is told one by one. */
static char *more_msg(int more)
{
	char text[200];
	snprintf(text, sizeof text, P_("And %d more change in the lobby.", "And %d more changes in the lobby.", more),
	         more);
	return proto_dump(json_pack("{s:s, s:s, s:s, s:[]}", "type", "lobby_event", "event", "more", "text", text,
	                            "names"));
}

/* Each event's message is made once per language, whatever the number of
 * listeners. */
#define LANGS_MAX 4
struct made {
	char lang[3];
	char **msg;             /* by event, made when first needed */
};

static const char *made_msg(struct made *m, int *nm, const char *lang, const struct ev *evs, int n, int k)
{
	int i = 0;
	while (i < *nm && strcmp(m[i].lang, lang))
		i++;
	if (i == *nm) {
		if (*nm == LANGS_MAX) {
			i = LANGS_MAX - 1;   /* more languages than known: the last slot made again */
			for (int k2 = 0; k2 < n; k2++) {
				free(m[i].msg[k2]);
				m[i].msg[k2] = NULL;
			}
		} else {
			(*nm)++;
		}
		if (!m[i].msg)
			m[i].msg = xcalloc((size_t)n, sizeof *m[i].msg);
		snprintf(m[i].lang, sizeof m[i].lang, "%s", lang);
	}
	if (!m[i].msg[k]) {
		const char *saved = view_lang_enter(lang);
		m[i].msg[k] = event_msg(&evs[k]);
		view_lang_leave(saved);
	}
	return m[i].msg[k];
}

static void tell(struct lobby *l, const unsigned char *at, const struct ev *evs, int n)
{
	if (!n)
		return;
	struct made made[LANGS_MAX];
	int nmade = 0;
	memset(made, 0, sizeof made);
	for (int i = 0; i < l->nconns; i++) {
		int u = l->conns[i].user;
		if (u < 0 || at[u])
			continue;
		const char *me = l->users[u].name;
		const char *lang = l->users[u].lang;
		int told = 0, more = 0;
		for (int k = 0; k < n; k++) {
			const struct ev *e = &evs[k];
			if ((e->kind == EV_ARRIVE || e->kind == EV_LEAVE) && !strcmp(e->name, me))
				continue; /* not one's own coming and going */
			if (told >= LOBBYEV_MAX - 1 && n - k > 1) {
				more++;
				continue;
			}
			const char *s = made_msg(made, &nmade, lang, evs, n, k);
			if (s)
				l->io.send(l->io.ctx, l->conns[i].id, xstrdup(s));
			told++;
		}
		if (more) {
			const char *saved = view_lang_enter(lang);
			char *s = more_msg(more);
			view_lang_leave(saved);
			if (s)
				l->io.send(l->io.ctx, l->conns[i].id, s);
		}
	}
	for (int i = 0; i < LANGS_MAX; i++) {
		for (int k = 0; made[i].msg && k < n; k++)
			free(made[i].msg[k]);
		free(made[i].msg);
	}
}

static const struct lobbyev_table *told_table(const struct lobbyev *e, long id)
{
	for (int i = 0; i < e->ntables; i++)
		if (e->tables[i].id == id)
			return &e->tables[i];
	return NULL;
}

void lobbyev_tick(struct lobby *l, const unsigned char *at)
{
	struct lobbyev *e = &l->ev;
	/* The names online now, sorted. */
	char **now = xcalloc((size_t)l->nusers + 1, sizeof *now);
	int nnow = 0;
	for (int i = 0; i < l->nusers; i++)
		if (l->users[i].conn >= 0)
			now[nnow++] = l->users[i].name;
	qsort(now, (size_t)nnow, sizeof *now, cmp_name);
	struct ev *evs = NULL;
	int nev = 0, capev = 0;
#define ADD(...)                                                                                                 \
	do {                                                                                                         \
		xgrow((void **)&evs, &capev, nev + 1, sizeof *evs);                                                  \
		evs[nev++] = (struct ev){ __VA_ARGS__ };                                                             \
	} while (0)
	if (e->primed) {
		/* Arrivals and departures: the two sorted lists merged. */
		int a = 0, b = 0;
		while (a < e->nonline || b < nnow) {
			int c = a >= e->nonline ? 1 : b >= nnow ? -1 : strcmp(e->online[a], now[b]);
			if (c < 0)
				ADD(EV_LEAVE, e->online[a++], NULL, 0);
			else if (c > 0)
				ADD(EV_ARRIVE, now[b++], NULL, 0);
			else
				a++, b++;
		}
		for (int i = 0; i < l->ntables; i++) {
			const struct host *h = l->tables[i];
			const struct lobbyev_table *was = told_table(e, h->id);
			if (!was)
				ADD(EV_TABLE_NEW, h->creator, h, h->id);
			/* Made and begun between two looks: both told. */
			int before = was ? was->state : HOST_WAITING;
			if (before != h->state && h->state == HOST_PLAYING)
				ADD(EV_TABLE_START, h->creator, h, h->id);
			else if (before != h->state && h->state == HOST_OVER)
				ADD(EV_TABLE_OVER, h->creator, h, h->id);
		}
		for (int i = 0; i < e->ntables; i++) {
			int still = 0;
			for (int k = 0; k < l->ntables && !still; k++)
				still = l->tables[k]->id == e->tables[i].id;
			if (!still)
				ADD(lobby_saved_index(l, e->tables[i].id) >= 0 ? EV_TABLE_SAVED : EV_TABLE_GONE, NULL, NULL,
				    e->tables[i].id);
		}
	}
#undef ADD
	tell(l, at, evs, nev);
	free(evs);
	/* What was told, for the next time (names copied: a user's entry moves). */
	for (int i = 0; i < e->nonline; i++)
		free(e->online[i]);
	xgrow((void **)&e->online, &e->caponline, nnow + 1, sizeof *e->online);
	for (int i = 0; i < nnow; i++)
		e->online[i] = xstrdup(now[i]);
	e->nonline = nnow;
	free(now);
	xgrow((void **)&e->tables, &e->captables, l->ntables + 1, sizeof *e->tables);
	for (int i = 0; i < l->ntables; i++)
		e->tables[i] = (struct lobbyev_table){ l->tables[i]->id, l->tables[i]->state };
	e->ntables = l->ntables;
	e->primed = 1;
}

void lobbyev_release(struct lobbyev *e)
{
	for (int i = 0; i < e->nonline; i++)
		free(e->online[i]);
	free(e->online);
	free(e->tables);
	memset(e, 0, sizeof *e);
}
