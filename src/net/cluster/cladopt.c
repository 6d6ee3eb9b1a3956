/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/cluster/cladopt.h"

#include <stdlib.h>
#include <string.h>

#include "app/log.h"
#include "core/err.h"
#include "core/xalloc.h"
#include "net/cluster/cluster.h"
#include "net/server/lobby.h"
#include "net/store/storew.h"

/* A set of table ids, small and unordered. */
struct ids {
	long *v;
	int n, cap;
};

static int ids_has(const struct ids *s, long id)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i] == id)
			return 1;
	return 0;
}

static void ids_add(struct ids *s, long id)
{
	if (ids_has(s, id))
		return;
	xgrow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v);
	s->v[s->n++] = id;
}

static void ids_del(struct ids *s, long id)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i] == id) {
			s->v[i] = s->v[--s->n];
			return;
		}
}

/* The tables won restored at most this many a tick on the loop (the
 * others at the next ones); with the store's worker, at most this many a
 * job, and twice that many under way (so as many come back to be
 * installed in a round at most). */
#define CLADOPT_RESTORE_SLICE 8

/* One table of a restore on the store's worker (below). */
struct restore_one {
	long id;
	int lost;                  /* the loop's: its lease found another node's meanwhile: dropped, not installed */
	/* ---- the worker's until done ---- */
	int own;                   /* taken over: 1, 0 no such table, -1 the store failed */
	int held;                  /* the owner number taken, to be held by the loop's connection */
	long long epoch;
	int saved;                 /* its row says saved: nothing to run */
	struct host *h;            /* the table restored, or NULL */
	char err[ERR_MAX];         /* why not, when own is 1 and neither saved nor h */
};

/* Tables restored on the store's worker (net/storew), together: taken
 * over in one statement (one commit), then each read and replayed. What
 * the worker touches is its own until done. */
struct restore_job {
	struct cladopt *a;
	struct restore_job *next;  /* in a->busy */
	long long now_ms;
	struct host_config cfg;    /* the lobby's, copied: the restored tables' until installed */
	int n;
	struct restore_one t[CLADOPT_RESTORE_SLICE];
};

struct cladopt {
	struct lobby *l;
	struct cluster *c;
	struct storew *w;     /* the store's worker, or NULL: restored on the loop */
	struct restore_job *busy; /* restores given to the worker, not yet back */
	int nbusy;            /* their tables */
	struct ids won;       /* leases won, the tables to restore */
	struct ids unleased;  /* running here, their lease not yet asked (the link was down) */
	struct ids seen;      /* in play in the store, run by nobody, at the last look */
	struct ids found;     /* the same, at this look */
	int looked;           /* looks at the store so far */
	long long up_ms;      /* when the link was first seen up (0: not yet) */
	long long next_ms;    /* the next look */
	long long retry_ms;
	long restored;
};

/* ---- the leases of the tables run here ---- */

static void on_claimed(void *ctx, long table, int ok)
{
	struct cladopt *a = ctx;
	if (ok > 0 || !lobbyrec_table_of(a->l, table))
		return;
	if (ok < 0) {
		ids_add(&a->unleased, table); /* asked again when the link is back */
		return;
	}
	/* Another node took it first (it found the table in the store before
	 * this lease was asked): it runs it, this node stops. */
	log_say("cluster: table %ld is run by another node", table);
	lobbytab_drop_table(a->l, table);
}

static void on_running(void *ctx, long table, int running)
{
	struct cladopt *a = ctx;
	ids_del(&a->unleased, table);
	if (!running) {
		cluster_release_table(a->c, table, NULL, NULL);
		return;
	}
	if (cluster_claim_table(a->c, table, on_claimed, a) < 0)
		ids_add(&a->unleased, table);
}

struct cladopt *cladopt_new(struct lobby *l, struct cluster *c)
{
	struct cladopt *a = xcalloc(1, sizeof *a);
	a->l = l;
	a->c = c;
	l->on_running = on_running;
	l->running_ctx = a;
	/* Tables already running (none, in cluster mode, unless made before). */
	for (int i = 0; i < l->ntables; i++)
		on_running(a, l->tables[i]->id, 1);
	return a;
}

void cladopt_set_worker(struct cladopt *a, struct storew *w)
{
	a->w = w;
}

void cladopt_free(struct cladopt *a)
{
	if (!a)
		return;
	if (a->l->running_ctx == a) {
		a->l->on_running = NULL;
		a->l->running_ctx = NULL;
	}
	free(a->won.v);
	free(a->unleased.v);
	free(a->seen.v);
	free(a->found.v);
	free(a);
}

long cladopt_restored(const struct cladopt *a)
{
	return a->restored;
}

/* ---- tables won: restored from the store ---- */

static struct restore_one *busy_with(const struct cladopt *a, long id)
{
	for (struct restore_job *j = a->busy; j; j = j->next)
		for (int i = 0; i < j->n; i++)
			if (j->t[i].id == id)
				return &j->t[i];
	return NULL;
}

/* Neither run here, nor being restored, nor waiting to be. */
static int wanted(const struct cladopt *a, long id)
{
	return !lobbyrec_table_of(a->l, id) && !busy_with(a, id);
}

void cladopt_adopted(struct cladopt *a, long table)
{
	if (wanted(a, table))
		ids_add(&a->won, table);
}

void cladopt_lost(struct cladopt *a, long table)
{
	struct restore_one *o = busy_with(a, table);
	if (o)
		o->lost = 1; /* its restore, once back, is dropped */
	ids_del(&a->won, table);
	ids_del(&a->unleased, table);
	if (lobbytab_drop_table(a->l, table))
		log_say("cluster: table %ld is now run by another node: stopped here", table);
}

struct restore_pass {
	struct cladopt *a;
	struct ids *want;
};

static void restore_row(void *ctx, const struct store_table *t)
{
	struct restore_pass *p = ctx;
	if (!ids_has(p->want, t->id))
		return;
	ids_del(p->want, t->id);
	if (t->state == HOST_SAVED || lobbyrec_table_of(p->a->l, t->id)) {
		cluster_release_table(p->a->c, t->id, NULL, NULL);
		return;
	}
	if (lobbytab_restore_table(p->a->l, t) < 0) {
		cluster_release_table(p->a->c, t->id, NULL, NULL);
		return;
	}
	p->a->restored++;
	log_say("cluster: table %ld taken over and restored from the store", t->id);
}

/* On the store's worker, on its own connection: the tables taken over
 * (their owner numbers raised, in one commit: the former owner's writes
 * refused from now), then each one's row read and its journal replayed
 * through the rules. Nothing of the loop's is touched: the tables are the
 * job's until done. */
static void restore_run(struct store *st, void *arg)
{
	struct restore_job *j = arg;
	long ids[CLADOPT_RESTORE_SLICE];
	signed char owned[CLADOPT_RESTORE_SLICE];
	for (int i = 0; i < j->n; i++)
		ids[i] = j->t[i].id;
	int rc = store_table_own_many(st, ids, j->n, owned);
	struct store_table *row = xmalloc(sizeof *row);
	for (int i = 0; i < j->n; i++) {
		struct restore_one *o = &j->t[i];
		o->own = rc < 0 ? -1 : owned[i];
		if (o->own <= 0)
			continue;
		/* The number goes to the loop's connection, whose writes carry it. */
		o->held = store_held_take(st, o->id, &o->epoch);
		int found = store_table_get(st, o->id, row);
		if (found <= 0) {
			o->own = found;
		} else if (row->state == HOST_SAVED) {
			o->saved = 1;
		} else {
			struct host *h = xcalloc(1, sizeof *h);
			struct net_out none = { .send = NULL }; /* its members are all away: nothing is sent */
			if (host_restore(h, row, st, &j->cfg, none, j->now_ms, o->err, sizeof o->err) < 0) {
				host_free(h);
				free(h);
			} else {
				o->h = h;
			}
		}
	}
	free(row);
}

/* Back on the loop: one table installed in the lobby, its people seated
 * back, unless its lease went to another node meanwhile (it runs it: this
 * one is dropped, unwritten) or the store failed (tried again). */
static void restore_back(struct cladopt *a, struct restore_one *o, long long now_ms)
{
	if (o->lost || lobbyrec_table_of(a->l, o->id))
		return;
	if (o->own < 0) {
		ids_add(&a->won, o->id); /* the store does not answer: tried again in a while */
		a->retry_ms = now_ms + 500;
	} else if (o->own == 0 || o->saved || !o->h) {
		if (o->own > 0 && !o->saved)
			log_say("%s", o->err);
		cluster_release_table(a->c, o->id, NULL, NULL);
	} else {
		if (o->held)
			store_held_put(a->l->store, o->id, o->epoch);
		lobbytab_add_restored(a->l, o->h);
		o->h = NULL;
		a->restored++;
		log_say("cluster: table %ld taken over and restored from the store", o->id);
	}
}

static void restore_done(void *arg, int ran)
{
	struct restore_job *j = arg;
	struct cladopt *a = j->a;
	for (struct restore_job **p = &a->busy; *p; p = &(*p)->next)
		if (*p == j) {
			*p = j->next;
			a->nbusy -= j->n;
			break;
		}
	for (int i = 0; i < j->n; i++) {
		struct restore_one *o = &j->t[i];
		if (ran)
			restore_back(a, o, j->now_ms);
		if (o->h) {
			host_free(o->h);
			free(o->h);
		}
	}
	free(j);
}

/* The tables won given to the worker, CLADOPT_RESTORE_SLICE a job, two
 * jobs under way at most (the worker has the next while the loop
 * installs the last). */
static void restore_off_loop(struct cladopt *a, long long now_ms)
{
	while (a->won.n && a->nbusy < 2 * CLADOPT_RESTORE_SLICE) {
		struct restore_job *j = xcalloc(1, sizeof *j);
		j->a = a;
		j->now_ms = now_ms;
		j->cfg = a->l->cfg;
		while (a->won.n && j->n < CLADOPT_RESTORE_SLICE) {
			long id = a->won.v[0];
			memmove(a->won.v, a->won.v + 1, (size_t)(a->won.n - 1) * sizeof *a->won.v);
			a->won.n--;
			if (wanted(a, id))
				j->t[j->n++].id = id;
		}
		if (!j->n) {
			free(j);
			return;
		}
		if (storew_submit(a->w, restore_run, restore_done, j) < 0) {
			for (int i = 0; i < j->n; i++)
				ids_add(&a->won, j->t[i].id);
			free(j);
			a->retry_ms = now_ms + 500;
			return;
		}
		j->next = a->busy;
		a->busy = j;
		a->nbusy += j->n;
	}
}

/* The tables won, on the loop (no worker): taken over in the store (the
 * former owner's writes refused from now), then their rows read and each
 * restored; at most
 * CLADOPT_RESTORE_SLICE a tick, the others at the next ones: a node that
 * wins hundreds at once (a lost node's) keeps serving its loop, and so
 * renewing its leases, between them (all at once, the loop stalled past
 * the lease under load, and the survivors took each other for lost). */
static void restore_won(struct cladopt *a, long long now_ms)
{
	if (!a->won.n || now_ms < a->retry_ms)
		return;
	if (a->w) {
		restore_off_loop(a, now_ms);
		return;
	}
	struct store *st = a->l->store;
	struct ids want = { 0 };
	int slice = a->won.n < CLADOPT_RESTORE_SLICE ? a->won.n : CLADOPT_RESTORE_SLICE;
	for (int i = 0; i < slice; i++) {
		long id = a->won.v[i];
		if (lobbyrec_table_of(a->l, id))
			continue;
		int own = store_table_own(st, id);
		if (own < 0) {
			/* The store does not answer: tried again in a while. */
			a->retry_ms = now_ms + 500;
			free(want.v);
			return;
		}
		if (own == 0)
			cluster_release_table(a->c, id, NULL, NULL); /* gone from the store */
		else
			ids_add(&want, id);
	}
	memmove(a->won.v, a->won.v + slice, (size_t)(a->won.n - slice) * sizeof *a->won.v);
	a->won.n -= slice;
	struct restore_pass p = { a, &want };
	a->l->now_ms = now_ms;
	if (want.n && store_table_each(st, restore_row, &p) < 0) {
		for (int i = 0; i < want.n; i++)
			ids_add(&a->won, want.v[i]);
		a->retry_ms = now_ms + 500;
	}
	for (int i = 0; i < want.n; i++) /* not found after all */
		cluster_release_table(a->c, want.v[i], NULL, NULL);
	free(want.v);
}

/* ---- the store looked through: tables in play that nobody runs ---- */

static void on_taken(void *ctx, long table, int ok)
{
	struct cladopt *a = ctx;
	if (ok > 0 && wanted(a, table))
		ids_add(&a->won, table);
}

static void found_row(void *ctx, const struct store_table *t)
{
	struct cladopt *a = ctx;
	if (t->state != HOST_SAVED && wanted(a, t->id) && !ids_has(&a->won, t->id))
		ids_add(&a->found, t->id);
}

static int cmp_id(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* This node's place among the live nodes in the order of their ids, and
 * how many there are. */
static int rank(const struct cladopt *a, int *count)
{
	const char *ids[CLUSTER_MAX_NODES + 1];
	int n = cluster_nodes(a->c, ids, CLUSTER_MAX_NODES);
	ids[n++] = cluster_node(a->c);
	qsort(ids, (size_t)n, sizeof *ids, cmp_id);
	*count = n;
	for (int i = 0; i < n; i++)
		if (!strcmp(ids[i], cluster_node(a->c)))
			return i;
	return 0;
}

static void look(struct cladopt *a, long long now_ms)
{
	a->found.n = 0;
	if (store_table_each(a->l->store, found_row, a) < 0) {
		a->next_ms = now_ms + CLADOPT_FIRST_MS;
		return;
	}
	/* The first look takes this node's share of such tables (a cluster
	 * started again: the nodes up share them by id), the second, soon
	 * after, any still free (a node that did not come back); later ones
	 * only tables found twice in a row, never one another node has just
	 * made and not yet leased. The lease decides: a table another node
	 * runs is refused. */
	int n = 1, me = a->looked ? 0 : rank(a, &n);
	for (int i = 0; i < a->found.n; i++) {
		long id = a->found.v[i];
		if (a->looked ? ids_has(&a->seen, id) : id % n == me)
			cluster_claim_table(a->c, id, on_taken, a);
	}
	struct ids t = a->seen;
	a->seen = a->found;
	a->found = t;
	a->next_ms = now_ms + (a->looked++ ? CLADOPT_SCAN_MS : CLADOPT_FIRST_MS);
}

void cladopt_tick(struct cladopt *a, long long now_ms)
{
	restore_won(a, now_ms);
	if (!cluster_up(a->c))
		return;
	while (a->unleased.n) {
		long id = a->unleased.v[--a->unleased.n];
		if (lobbyrec_table_of(a->l, id) && cluster_claim_table(a->c, id, on_claimed, a) < 0) {
			ids_add(&a->unleased, id);
			break;
		}
	}
	/* The first look once the others were read (their leases). */
	if (!a->up_ms) {
		a->up_ms = now_ms;
		a->next_ms = now_ms + CLADOPT_FIRST_MS;
	}
	if (now_ms >= a->next_ms)
		look(a, now_ms);
}
