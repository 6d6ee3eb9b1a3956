/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Each sentence in its listeners' language, given as a value (L). */
#define I18N_LANG L
#include "net/server/lobbyev.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "net/wire/proto.h"

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

/* The sentence of an event, in L. */
static void phrase(const struct i18n_lang *L, const struct ev *e, char *buf, size_t len)
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

static char *event_msg(const struct i18n_lang *L, const struct ev *e)
{
	char text[400];
	phrase(L, e, text, sizeof text);
	json_t *o = json_pack("{s:s, s:s, s:s, s:o}", "type", "lobby_event", "event", ev_word[e->kind], "text", text,
	                      "names", names_of(e));
	if (o && e->table)
		json_object_set_new(o, "table", json_integer(e->table));
	return proto_dump(o);
}

/* More changes than a listener is told one by one. */
static char *more_msg(const struct i18n_lang *L, int more)
{
	char text[200];
	snprintf(text, sizeof text, P_("And %d more change in the lobby.", "And %d more changes in the lobby.", more),
	         more);
	return proto_dump(json_pack("{s:s, s:s, s:s, s:[]}", "type", "lobby_event", "event", "more", "text", text,
	                            "names"));
}

/* Send every event to its listeners: each message made once per language
 * and sent to all of that language at once. A listener hears only what
 * its list shows (lobbylist_sees), and not their own coming and going;
 * past LOBBYEV_MAX events, the first LOBBYEV_MAX - 1 and how many more. */
static void tell(const struct lobbyev_in *in, const struct ev *evs, int n)
{
	if (!n || !in->nto)
		return;
	struct lobbylist_change *ch = xcalloc((size_t)n, sizeof *ch);
	for (int k = 0; k < n; k++) {
		int person = evs[k].kind == EV_ARRIVE || evs[k].kind == EV_LEAVE;
		ch[k] = (struct lobbylist_change){ person, evs[k].kind == EV_ARRIVE || evs[k].kind == EV_TABLE_NEW,
		                                   evs[k].name, evs[k].table, evs[k].h };
	}
	/* Each listener's events (the first LOBBYEV_MAX) and how many it may
	 * hear; the languages met (one message an event each). */
	unsigned char *seen = xcalloc((size_t)n, 1);
	int *pick = xcalloc((size_t)in->nto * LOBBYEV_MAX, sizeof *pick);
	int *npick = xcalloc((size_t)in->nto, sizeof *npick);
	int *left = xcalloc((size_t)in->nto, sizeof *left);
	int *lang = xcalloc((size_t)in->nto, sizeof *lang);
	const struct i18n_lang **langs = xcalloc((size_t)in->nto, sizeof *langs);
	int nlangs = 0;
	for (int i = 0; i < in->nto; i++) {
		const struct lobbyev_listener *to = &in->to[i];
		if (to->view)
			lobbylist_sees(to->view, ch, n, seen);
		else
			memset(seen, 1, (size_t)n);
		for (int k = 0; k < n; k++) {
			if (!seen[k] || (ch[k].person && !strcmp(evs[k].name, to->name)))
				continue;
			if (left[i]++ < LOBBYEV_MAX)
				pick[i * LOBBYEV_MAX + npick[i]++] = k;
		}
		if (left[i] > LOBBYEV_MAX)
			npick[i] = LOBBYEV_MAX - 1;   /* the last place says how many more */
		const struct i18n_lang *L = i18n_of(to->lang);
		int l = 0;
		while (l < nlangs && langs[l] != L)
			l++;
		if (l == nlangs)
			langs[nlangs++] = L;
		lang[i] = l;
	}
	/* One message an event and language, to all its listeners at once:
	 * the listeners put in a bucket for each. */
	int nb = n * nlangs;
	int *start = xcalloc((size_t)nb + 2, sizeof *start);
	for (int i = 0; i < in->nto; i++)
		for (int p = 0; p < npick[i]; p++)
			start[pick[i * LOBBYEV_MAX + p] * nlangs + lang[i] + 2]++;
	for (int b = 2; b < nb + 2; b++)
		start[b] += start[b - 1];
	long *conns = xcalloc((size_t)start[nb + 1] + 1, sizeof *conns);
	for (int i = 0; i < in->nto; i++)
		for (int p = 0; p < npick[i]; p++)
			conns[start[pick[i * LOBBYEV_MAX + p] * nlangs + lang[i] + 1]++] = in->to[i].conn;
	for (int b = 0; b < nb; b++)
		if (start[b + 1] > start[b])
			in->send_many(in->ctx, conns + start[b], start[b + 1] - start[b],
			              event_msg(langs[b % nlangs], &evs[b / nlangs]));
	for (int i = 0; i < in->nto; i++)
		if (left[i] > LOBBYEV_MAX) {
			char *msg = more_msg(langs[lang[i]], left[i] - (LOBBYEV_MAX - 1));
			in->send_many(in->ctx, &in->to[i].conn, 1, msg);
		}
	free(ch);
	free(seen);
	free(pick);
	free(npick);
	free(left);
	free(lang);
	free(langs);
	free(conns);
	free(start);
}

void lobbyev_tick(struct lobbyev *e, const struct lobbyev_in *in)
{
	/* The names online now, sorted (those of the last look, kept, when
	 * the same). */
	int same = in->same_people && e->primed;
	char **now = xcalloc(same ? 1 : (size_t)in->nonline + 1, sizeof *now);
	int nnow = 0;
	for (int i = 0; !same && i < in->nonline; i++)
		now[nnow++] = (char *)in->online[i];
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
		while (!same && (a < e->nonline || b < nnow)) {
			int c = a >= e->nonline ? 1 : b >= nnow ? -1 : strcmp(e->online[a], now[b]);
			if (c < 0)
				ADD(EV_LEAVE, e->online[a++], NULL, 0);
			else if (c > 0)
				ADD(EV_ARRIVE, now[b++], NULL, 0);
			else
				a++, b++;
		}
		/* The tables keep their order (taken out of it, or added at its
		 * end): one walk of both lists. The told ones passed by are gone
		 * (told after); past the last one still there, the tables are new. */
		long *gone = xcalloc((size_t)e->ntables + 1, sizeof *gone);
		int ngone = 0, k = 0;
		for (int i = 0; i < in->ntables; i++) {
			const struct host *h = in->tables[i];
			while (k < e->ntables && e->tables[k].id != h->id)
				gone[ngone++] = e->tables[k++].id;
			const struct lobbyev_table *was = k < e->ntables ? &e->tables[k++] : NULL;
			if (!was)
				ADD(EV_TABLE_NEW, h->creator, h, h->id);
			/* Made and begun between two looks: both told. */
			int before = was ? was->state : HOST_WAITING;
			if (before != h->state && h->state == HOST_PLAYING)
				ADD(EV_TABLE_START, h->creator, h, h->id);
			else if (before != h->state && h->state == HOST_OVER)
				ADD(EV_TABLE_OVER, h->creator, h, h->id);
		}
		while (k < e->ntables)
			gone[ngone++] = e->tables[k++].id;
		for (int i = 0; i < ngone; i++)
			ADD(in->saved && in->saved(in->ctx, gone[i]) ? EV_TABLE_SAVED : EV_TABLE_GONE, NULL, NULL, gone[i]);
		free(gone);
	}
#undef ADD
	tell(in, evs, nev);
	free(evs);
	/* What was told, for the next time (names copied: they move). */
	for (int i = 0; !same && i < e->nonline; i++)
		free(e->online[i]);
	xgrow((void **)&e->online, &e->caponline, nnow + 1, sizeof *e->online);
	for (int i = 0; !same && i < nnow; i++)
		e->online[i] = xstrdup(now[i]);
	if (!same)
		e->nonline = nnow;
	free(now);
	xgrow((void **)&e->tables, &e->captables, in->ntables + 1, sizeof *e->tables);
	for (int i = 0; i < in->ntables; i++)
		e->tables[i] = (struct lobbyev_table){ in->tables[i]->id, in->tables[i]->state };
	e->ntables = in->ntables;
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
