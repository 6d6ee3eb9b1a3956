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
 * and sent to all of that language at once. A listener is not told their
 * own coming and going; past LOBBYEV_MAX events, the first LOBBYEV_MAX - 1
 * and how many more. */
static void tell(const struct lobbyev_in *in, const struct ev *evs, int n)
{
	if (!n || !in->nto)
		return;
	int *left = xcalloc((size_t)in->nto, sizeof *left);   /* events still to tell each */
	int *told = xcalloc((size_t)in->nto, sizeof *told);
	long *conns = xcalloc((size_t)in->nto, sizeof *conns);
	for (int i = 0; i < in->nto; i++)
		for (int k = 0; k < n; k++)
			left[i] += !((evs[k].kind == EV_ARRIVE || evs[k].kind == EV_LEAVE) && !strcmp(evs[k].name, in->to[i].name));
	for (int k = 0; k < n; k++) {
		const struct ev *e = &evs[k];
		const char *done[8];
		int ndone = 0;
		for (int i = 0; i < in->nto; i++) {
			const char *lang = in->to[i].lang;
			int seen = 0;
			for (int d = 0; d < ndone && !seen; d++)
				seen = !strcmp(done[d], lang);
			if (seen)
				continue;
			if (ndone < 8)
				done[ndone++] = lang;
			int nc = 0;
			for (int j = i; j < in->nto; j++) {
				if (strcmp(in->to[j].lang, lang))
					continue;
				if ((e->kind == EV_ARRIVE || e->kind == EV_LEAVE) && !strcmp(e->name, in->to[j].name))
					continue;
				if (left[j] > LOBBYEV_MAX && told[j] >= LOBBYEV_MAX - 1)
					continue;   /* counted in their "more" */
				told[j]++;
				conns[nc++] = in->to[j].conn;
			}
			if (!nc)
				continue;
			char *msg = event_msg(i18n_of(lang), e);
			in->send_many(in->ctx, conns, nc, msg);
		}
	}
	for (int i = 0; i < in->nto; i++)
		if (left[i] > LOBBYEV_MAX) {
			char *msg = more_msg(i18n_of(in->to[i].lang), left[i] - (LOBBYEV_MAX - 1));
			in->send_many(in->ctx, &in->to[i].conn, 1, msg);
		}
	free(left);
	free(told);
	free(conns);
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
