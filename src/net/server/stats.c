/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/registry.h"
#include "app/log.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "net/server/auth.h"

/* Each seat's standing: its own, or its team's. */
static void seat_values(const struct game_ops *g, const void *st, int players, long long *v)
{
	int out[GAME_MAX_SEATS] = { 0 };
	int n = g->standings(st, out);
	for (int s = 0; s < players; s++) {
		int k = g->teams ? s % g->teams : s;
		v[s] = k < n ? out[k] : 0;
	}
}

int stats_of_host(struct host *h, long long now_s, struct stats_result *r)
{
	memset(r, 0, sizeof *r);
	const struct game_ops *g = h->g;
	struct store_game *sg = &r->g;
	sg->table = h->id;
	snprintf(sg->game, sizeof sg->game, "%s", g->name);
	sg->ended = now_s;
	sg->deals = g->hand_number ? g->hand_number(h->t.st) : 0;
	/* Where every seat stood at the start: a new game of the same setup. */
	long long end[GAME_MAX_SEATS], start[GAME_MAX_SEATS];
	seat_values(g, h->t.st, h->players, end);
	void *st0 = xcalloc(1, g->state_size);
	struct game_setup setup = { h->players, -1, h->seed, &h->rules, NULL };
	char err[200];
	if (g->init(st0, &setup, err, sizeof err) < 0) {
		free(st0);
		return -1;
	}
	seat_values(g, st0, h->players, start);
	free(st0);
	int nreg = 0;
	for (int s = 0; s < h->players; s++) {
		const char *name = h->seat[s].name;
		if (!name[0]) {
			if (h->seat[s].open)
				r->humans_left = 1;
			continue;
		}
		char hash[AUTH_HASH_MAX];
		int acc = store_account_get(h->store, name, hash, sizeof hash);
		if (acc < 0)
			return -1;
		if (acc == 0)
			continue;
		struct store_game_player *p = &sg->p[sg->n++];
		snprintf(p->name, sizeof p->name, "%s", name);
		p->seat = s;
		for (int t = 0; t < h->players; t++)
			p->place += g->lower_wins ? end[t] < end[s] : end[t] > end[s];
		p->won = p->place == 0;
		p->net = end[s] - start[s];
		nreg++;
	}
	sg->rated = nreg >= 2 && !r->humans_left;
	return 0;
}

int stats_record(struct store *s, struct stats_result *r)
{
	struct store_game *g = &r->g;
	if (!g->n)
		return 0;
	if (g->rated) {
		struct rating x[GAME_MAX_SEATS];
		int rank[GAME_MAX_SEATS];
		for (int i = 0; i < g->n; i++) {
			if (store_rating_get(s, g->p[i].name, g->game, &x[i]) < 0)
				return -1;
			rank[i] = g->p[i].place;
		}
		rating_game(x, rank, g->n, RATING_TAU);
		for (int i = 0; i < g->n; i++)
			g->p[i].after = x[i];
	}
	return store_game_record(s, g);
}

int stats_game_over(struct host *h)
{
	struct stats_result r;
	if (!h->store || stats_of_host(h, (long long)time(NULL), &r) < 0)
		return -1;
	if (stats_record(h->store, &r) < 0) {
		log_at(LOGL_ERROR, "table %ld: its players' figures are not stored", h->id);
		return -1;
	}
	return host_history_keep(h, r.g.id);
}

static const char *title_of(const struct i18n_lang *L, const char *game)
{
	const struct game_ops *g = registry_ops(game);
	return g && g->title ? i18n_tr(L, g->title) : game;
}

void stats_sentence(const struct i18n_lang *L, const struct store_stat *x, char *out, size_t len)
{
	char part[200];
	snprintf(part, sizeof part, i18n_ntr(L, "%s: %d game, %d won, deals: %d, net: %+lld",
	                                     "%s: %d games, %d won, deals: %d, net: %+lld", x->games),
	         title_of(L, x->game), x->games, x->won, x->deals, x->net);
	if (x->has_rating)
		snprintf(out, len, i18n_tr(L, "%s; rating %ld, give or take %ld."), part, lround(x->rating.r),
		         lround(2 * x->rating.rd));
	else
		snprintf(out, len, i18n_tr(L, "%s; not rated yet."), part);
}

void stats_leader_sentence(const struct i18n_lang *L, int rank, const struct store_stat *x, char *out, size_t len)
{
	snprintf(out, len, i18n_tr(L, "%d, %s, %ld"), rank, x->name, lround(x->rating.r));
}
