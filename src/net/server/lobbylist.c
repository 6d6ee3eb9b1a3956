/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/lobbylist.h"

#include <stdio.h>
#include <string.h>

#include "app/registry.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "net/wire/proto.h"

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* needle within hay, without regard to ASCII case. */
static int has_piece(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++) {
		size_t k = 0;
		while (k < n && hay[k] && lower((unsigned char)hay[k]) == lower((unsigned char)needle[k]))
			k++;
		if (k == n)
			return 1;
	}
	return 0;
}

int lobbylist_matches(const char *filter, const struct host *h)
{
	if (!filter[0])
		return 1;
	char id[24];
	snprintf(id, sizeof id, "%ld", h->id);
	if (has_piece(h->g->name, filter) || has_piece(h->g->title, filter) || has_piece(i18n_tr(i18n_of("fr"), h->g->title), filter) ||
	    has_piece(h->creator, filter) || !strcmp(id, filter))
		return 1;
	for (int s = 0; s < h->players; s++)
		if (h->seat[s].name[0] && has_piece(h->seat[s].name, filter))
			return 1;
	return 0;
}

int lobbylist_matches_info(const char *filter, const json_t *info)
{
	if (!filter[0])
		return 1;
	char id[24];
	snprintf(id, sizeof id, "%lld", (long long)json_integer_value(json_object_get(info, "id")));
	const char *game = json_string_value(json_object_get(info, "game"));
	const char *creator = json_string_value(json_object_get(info, "creator"));
	const struct game_ops *g = game ? registry_ops(game) : NULL;
	if ((game && has_piece(game, filter)) || (creator && has_piece(creator, filter)) || !strcmp(id, filter) ||
	    (g && (has_piece(g->title, filter) || has_piece(i18n_tr(i18n_of("fr"), g->title), filter))))
		return 1;
	size_t i;
	json_t *seat;
	json_array_foreach(json_object_get(info, "seats"), i, seat) {
		const char *name = json_string_value(json_object_get(seat, "name"));
		if (name && has_piece(name, filter))
			return 1;
	}
	return 0;
}

static int entry_matches(const char *filter, const struct lobbylist_entry *e)
{
	return e->h ? lobbylist_matches(filter, e->h) : lobbylist_matches_info(filter, e->info);
}

/* A name's hash (FNV-1a, 64 bits): what a view keeps of the people it shows. */
static uint64_t name_hash(const char *name)
{
	uint64_t x = 14695981039346656037ULL;
	for (; *name; name++)
		x = (x ^ (unsigned char)*name) * 1099511628211ULL;
	return x;
}

static int held_at(const struct lobbylist_view *v, long id)
{
	for (int i = 0; i < v->nheld; i++)
		if (v->held[i] == id)
			return i;
	return -1;
}

static int person_at(const struct lobbylist_view *v, uint64_t x)
{
	for (int i = 0; i < v->npeople; i++)
		if (v->people[i] == x)
			return i;
	return -1;
}

/* The slots of a small open table of a page's items (LOBBYLIST_PAGE and
 * LOBBYLIST_PEOPLE are at most half of it). */
#define SEES_SLOTS 128
_Static_assert(LOBBYLIST_PAGE <= SEES_SLOTS / 2 && LOBBYLIST_PEOPLE <= SEES_SLOTS / 2, "a page fills half its table");

static unsigned slot_of(uint64_t x)
{
	return (unsigned)((x * 0x9E3779B97F4A7C15ULL) >> 57);   /* 7 bits: SEES_SLOTS */
}

static void slot_put(uint64_t *key, unsigned char *used, uint64_t x)
{
	unsigned i = slot_of(x);
	while (used[i] && key[i] != x)
		i = (i + 1) % SEES_SLOTS;
	key[i] = x;
	used[i] = 1;
}

static int slot_has(const uint64_t *key, const unsigned char *used, uint64_t x)
{
	for (unsigned i = slot_of(x); used[i]; i = (i + 1) % SEES_SLOTS)
		if (key[i] == x)
			return 1;
	return 0;
}

int lobbylist_sees(const struct lobbylist_view *v, const struct lobbylist_change *c, int n, unsigned char *seen)
{
	uint64_t pkey[SEES_SLOTS], tkey[SEES_SLOTS];
	unsigned char pused[SEES_SLOTS] = { 0 }, tused[SEES_SLOTS] = { 0 };
	for (int i = 0; i < v->npeople; i++)
		slot_put(pkey, pused, v->people[i]);
	for (int i = 0; i < v->nheld; i++)
		slot_put(tkey, tused, (uint64_t)v->held[i]);
	int proom = LOBBYLIST_PEOPLE - v->npeople, troom = LOBBYLIST_PAGE - v->nheld, count = 0;
	for (int k = 0; k < n; k++) {
		int s;
		if (c[k].person) {
			uint64_t x = name_hash(c[k].name);
			s = slot_has(pkey, pused, x);
			if (!s && c[k].in && proom > 0) {
				s = 1;
				proom--;
				slot_put(pkey, pused, x);
			}
		} else {
			s = slot_has(tkey, tused, (uint64_t)c[k].id);
			if (!s && c[k].in && c[k].h && troom > 0 && lobbylist_matches(v->filter, c[k].h)) {
				/* On the page from now: its next changes too (made
				 * and begun in one round). */
				s = 1;
				troom--;
				slot_put(tkey, tused, (uint64_t)c[k].id);
			}
		}
		seen[k] = (unsigned char)s;
		count += s;
	}
	return count;
}

char *lobbylist_snapshot(struct lobbylist_view *v, struct host *const *tables, int ntables,
                         json_t *(*entry)(const struct host *), const struct lobbylist_entry *far, int nfar,
                         const struct lobbylist_person *people, int npeople, int online)
{
	json_t *list = json_array();
	int total = 0;
	long first = (long)v->page * LOBBYLIST_PAGE;
	v->nheld = 0;
	for (int i = 0; i < ntables; i++) {
		if (!lobbylist_matches(v->filter, tables[i]))
			continue;
		if (total >= first && v->nheld < LOBBYLIST_PAGE) {
			json_array_append_new(list, entry(tables[i]));
			v->held[v->nheld++] = tables[i]->id;
		}
		total++;
	}
	for (int i = 0; i < nfar; i++) {
		if (!entry_matches(v->filter, &far[i]))
			continue;
		if (total >= first && v->nheld < LOBBYLIST_PAGE) {
			json_array_append(list, far[i].info);
			v->held[v->nheld++] = far[i].id;
		}
		total++;
	}
	json_t *users = json_array();
	v->npeople = 0;
	for (int i = 0; i < npeople && v->npeople < LOBBYLIST_PEOPLE; i++) {
		json_array_append_new(users, json_pack("{s:s, s:b}", "name", people[i].name, "guest", people[i].guest));
		v->people[v->npeople++] = name_hash(people[i].name);
	}
	v->want = 0;
	v->seq++;
	return proto_dump(json_pack("{s:s, s:I, s:i, s:i, s:i, s:s, s:i, s:o, s:o}", "type", "lobby", "seq",
	                            (json_int_t)v->seq, "page", v->page, "pages",
	                            (total + LOBBYLIST_PAGE - 1) / LOBBYLIST_PAGE, "total", total, "filter", v->filter,
	                            "online", online, "users", users, "tables", list));
}

char *lobbylist_delta(struct lobbylist_view *v, const struct lobbylist_round *r)
{
	json_t *tables = NULL, *gone = NULL, *in = NULL, *out = NULL;
	for (int i = 0; i < r->ntables; i++) {
		const struct lobbylist_entry *e = &r->tables[i];
		if (held_at(v, e->id) < 0) {
			/* A table made goes at the end of the list: on a page not
			 * yet full, when it matches. */
			if (!e->made || v->nheld >= LOBBYLIST_PAGE || !entry_matches(v->filter, e))
				continue;
			v->held[v->nheld++] = e->id;
		}
		if (!tables)
			tables = json_array();
		json_array_append(tables, e->info);
	}
	for (int i = 0; i < r->ngone; i++) {
		int k = held_at(v, r->gone[i]);
		if (k < 0)
			continue;
		memmove(&v->held[k], &v->held[k + 1], (size_t)(v->nheld - k - 1) * sizeof *v->held);
		v->nheld--;
		if (!gone)
			gone = json_array();
		json_array_append_new(gone, json_integer(r->gone[i]));
	}
	for (int i = 0; i < r->nout; i++) {
		int k = person_at(v, name_hash(r->out[i]));
		if (k < 0)
			continue;
		v->people[k] = v->people[--v->npeople];
		if (!out)
			out = json_array();
		json_array_append_new(out, json_string(r->out[i]));
	}
	for (int i = 0; i < r->nin && v->npeople < LOBBYLIST_PEOPLE; i++) {
		uint64_t x = name_hash(r->in[i].name);
		if (person_at(v, x) >= 0)
			continue;
		v->people[v->npeople++] = x;
		if (!in)
			in = json_array();
		json_array_append_new(in, json_pack("{s:s, s:b}", "name", r->in[i].name, "guest", r->in[i].guest));
	}
	if (!tables && !gone && !in && !out)
		return NULL;
	v->seq++;
	json_t *o = json_pack("{s:s, s:I, s:i, s:i}", "type", "lobby_delta", "seq", (json_int_t)v->seq, "online",
	                      r->online, "count", r->count);
	if (o && tables)
		json_object_set_new(o, "tables", tables);
	else
		json_decref(tables);
	if (o && gone)
		json_object_set_new(o, "gone", gone);
	else
		json_decref(gone);
	if (o && in)
		json_object_set_new(o, "in", in);
	else
		json_decref(in);
	if (o && out)
		json_object_set_new(o, "out", out);
	else
		json_decref(out);
	return proto_dump(o);
}

/* A delta made for a view as it was (before), what the view is after it,
 * and its text from the members after "seq" (NULL: nothing to send). */
struct lobbylist_memo_item {
	struct lobbylist_view before, after;
	char *rest;
};

/* The views show the same: all but whether and how they listen, and the
 * number of their messages. */
static int view_same(const struct lobbylist_view *a, const struct lobbylist_view *b)
{
	return a->page == b->page && a->nheld == b->nheld && a->npeople == b->npeople && !strcmp(a->filter, b->filter) &&
	       !memcmp(a->held, b->held, (size_t)a->nheld * sizeof *a->held) &&
	       !memcmp(a->people, b->people, (size_t)a->npeople * sizeof *a->people);
}

char *lobbylist_delta_memo(struct lobbylist_memo *m, struct lobbylist_view *v, const struct lobbylist_round *r)
{
	static const char head[] = "{\"type\":\"lobby_delta\",\"seq\":";
	for (int i = 0; i < m->n; i++) {
		struct lobbylist_memo_item *it = &m->item[i];
		if (!view_same(&it->before, v))
			continue;
		if (!it->rest)
			return NULL;
		memcpy(v->held, it->after.held, sizeof v->held);
		v->nheld = it->after.nheld;
		memcpy(v->people, it->after.people, sizeof v->people);
		v->npeople = it->after.npeople;
		v->seq++;
		char num[24];
		int k = snprintf(num, sizeof num, "%ld", v->seq);
		size_t len = strlen(it->rest);
		char *text = xmalloc(sizeof head - 1 + (size_t)k + len + 1);
		memcpy(text, head, sizeof head - 1);
		memcpy(text + sizeof head - 1, num, (size_t)k);
		memcpy(text + sizeof head - 1 + k, it->rest, len + 1);
		return text;
	}
	struct lobbylist_view before = *v;
	char *text = lobbylist_delta(v, r);
	if (m->n >= LOBBYLIST_MEMO_MAX)
		return text;
	if (!(m->n & (m->n - 1)))   /* 0, 1, 2, 4, ...: grown to the next power of two */
		m->item = xrealloc(m->item, (size_t)(m->n ? 2 * m->n : 1) * sizeof *m->item);
	struct lobbylist_memo_item *it = &m->item[m->n++];
	it->before = before;
	it->after = *v;
	it->rest = NULL;
	if (text && !strncmp(text, head, sizeof head - 1)) {
		const char *p = text + sizeof head - 1;
		while (*p >= '0' && *p <= '9')
			p++;
		it->rest = xstrdup(p);
	} else if (text) {
		m->n--;   /* not as expected: not kept */
	}
	return text;
}

void lobbylist_memo_free(struct lobbylist_memo *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->item[i].rest);
	free(m->item);
	m->item = NULL;
	m->n = 0;
}
