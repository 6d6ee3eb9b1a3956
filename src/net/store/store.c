/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/err.h"
#include "app/log.h"
#include "core/xalloc.h"
#include "net/wire/ident.h"

static const struct store_ops *const backends[] = { &store_memory_ops, &store_sqlite_ops, &store_pg_ops, NULL };

int store_open(struct store *s, const char *backend, const char *path, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	for (int i = 0; backends[i]; i++)
		if (!strcmp(backends[i]->name, backend)) {
			s->ops = backends[i];
			if (s->ops->open(s, path, err, errlen) < 0) {
				s->ops = NULL;
				return -1;
			}
			return 0;
		}
	return errf(err, errlen, "no store backend called '%s'", backend);
}

void store_upgraded(long long from, long long to)
{
	/* A new store (0) is made at the last version: nothing to say. */
	if (from > 0 && from != to)
		log_at(LOGL_NOTICE, "store upgraded from %lld to %lld", from, to);
}

int store_is_url(const char *where)
{
	return !strncmp(where, "postgresql://", 13) || !strncmp(where, "postgres://", 11);
}

void store_close(struct store *s)
{
	if (s->ops)
		s->ops->close(s);
	memset(s, 0, sizeof *s);
}

/* What the operator sees of the store's health: one line when it starts
 * failing (not one a failed write: a full disk fails every move), one when
 * a write works again. */
static int seen(struct store *s, const char *what, int rc, int write)
{
	if (rc < 0 && !s->failing) {
		s->failing = 1;
		log_at(LOGL_ERROR, "store: cannot %s the %s: %s%s", write ? "write" : "read", what,
		        s->err[0] ? s->err : "error", write ? "; the tables wait until it can" : "");
	} else if (rc >= 0 && write && s->failing) {
		s->failing = 0;
		log_at(LOGL_NOTICE, "store: writing again");
	}
	return rc;
}

int store_account_get(struct store *s, const char *name, char *hash, size_t hashlen)
{
	return seen(s, "accounts", s->ops->account_get(s, name, hash, hashlen), 0);
}
int store_account_put(struct store *s, const char *name, const char *hash)
{
	return seen(s, "accounts", s->ops->account_put(s, name, hash), 1);
}
int store_account_alike(struct store *s, const char *name, char *out, size_t outlen)
{
	struct ident_keys k;
	ident_keys_of(name, &k);
	return seen(s, "accounts", s->ops->account_alike(s, &k, name, out, outlen), 0);
}
int store_table_put(struct store *s, const struct store_table *t)
{
	return seen(s, "tables", s->ops->table_put(s, t), 1);
}
int store_table_delete(struct store *s, long id) { return seen(s, "tables", s->ops->table_delete(s, id), 1); }
int store_table_each(struct store *s, void (*fn)(void *, const struct store_table *), void *ctx)
{
	return seen(s, "tables", s->ops->table_each(s, fn, ctx), 0);
}
const double store_lat_ms[STORE_LAT_BUCKETS] = { 1, 2, 5, 10, 25, 100, 500, 2500 };

int store_journal_add(struct store *s, long id, int n, int seat, const char *action)
{
	double t0 = clock_ms();
	int rc = s->ops->journal_add(s, id, n, seat, action);
	double ms = clock_ms() - t0;
	s->journal_writes++;
	s->journal_ms += ms;
	for (int i = 0; i < STORE_LAT_BUCKETS; i++)
		if (ms <= store_lat_ms[i])
			s->journal_le[i]++;
	return seen(s, "journal", rc, 1);
}
int store_journal_each(struct store *s, long id, void (*fn)(void *, int, const char *), void *ctx)
{
	return seen(s, "journal", s->ops->journal_each(s, id, fn, ctx), 0);
}

int store_table_own(struct store *s, long id)
{
	return s->ops->table_own ? seen(s, "tables", s->ops->table_own(s, id), 1) : 1;
}

int store_table_own_many(struct store *s, const long *ids, int n, signed char *owned)
{
	if (s->ops->table_own_many)
		return seen(s, "tables", s->ops->table_own_many(s, ids, n, owned), 1);
	for (int i = 0; i < n; i++) {
		int rc = store_table_own(s, ids[i]);
		if (rc < 0)
			return -1;
		owned[i] = (signed char)rc;
	}
	return 0;
}

int store_held_take(struct store *s, long id, long long *epoch)
{
	return s->ops->held_take ? s->ops->held_take(s, id, epoch) : 0;
}

void store_held_put(struct store *s, long id, long long epoch)
{
	if (s->ops->held_put)
		s->ops->held_put(s, id, epoch);
}

struct table_find {
	long id;
	struct store_table *out;
	int found;
};

static void table_found(void *ctx, const struct store_table *t)
{
	struct table_find *f = ctx;
	if (t->id == f->id && !f->found) {
		*f->out = *t;
		f->found = 1;
	}
}

int store_table_get(struct store *s, long id, struct store_table *out)
{
	if (s->ops->table_get)
		return seen(s, "tables", s->ops->table_get(s, id, out), 0);
	struct table_find f = { id, out, 0 };
	if (store_table_each(s, table_found, &f) < 0)
		return -1;
	return f.found;
}

int store_session_put(struct store *s, const char *name, const char *hash, long long expires)
{
	if (s->defer_session && s->defer_session(s->defer_ctx, name, hash, expires) == 0)
		return 0;
	return seen(s, "sessions", s->ops->session_put(s, name, hash, expires), 1);
}
int store_session_get(struct store *s, const char *name, char *hash, size_t hashlen, long long *expires)
{
	return seen(s, "sessions", s->ops->session_get(s, name, hash, hashlen, expires), 0);
}
int store_session_delete(struct store *s, const char *name)
{
	if (s->defer_session && s->defer_session(s->defer_ctx, name, NULL, 0) == 0)
		return 0;
	return seen(s, "sessions", s->ops->session_delete(s, name), 1);
}
int store_session_write_many(struct store *s, const struct store_session_write *w, int n)
{
	if (s->ops->session_write_many && seen(s, "sessions", s->ops->session_write_many(s, w, n), 1) == 0)
		return 0;
	int failed = 0;
	for (int i = 0; i < n; i++)
		failed += seen(s, "sessions",
		               w[i].hash ? s->ops->session_put(s, w[i].name, w[i].hash, w[i].expires)
		                         : s->ops->session_delete(s, w[i].name),
		               1) < 0;
	return failed;
}

int store_last_id(struct store *s, long *id)
{
	*id = 0;
	return seen(s, "tables", s->ops->last_id(s, id), 0);
}

/* A flag's row in meta: "flag:KEY" (never the store's own keys). */
static int flag_key(const char *key, char *out, size_t len)
{
	return strlen(key) > STORE_FLAG_MAX || snprintf(out, len, "flag:%s", key) >= (int)len ? -1 : 0;
}
int store_flag_get(struct store *s, const char *key, long long *v)
{
	char k[STORE_FLAG_MAX + 8];
	*v = 0;
	if (flag_key(key, k, sizeof k) < 0)
		return -1;
	return seen(s, "flags", s->ops->flag_get(s, k, v), 0);
}
int store_flag_put(struct store *s, const char *key, long long v)
{
	char k[STORE_FLAG_MAX + 8];
	if (flag_key(key, k, sizeof k) < 0)
		return -1;
	return seen(s, "flags", s->ops->flag_put(s, k, v), 1);
}

int store_role_get(struct store *s, const char *name, char *role, size_t rolelen)
{
	return seen(s, "roles", s->ops->role_get(s, name, role, rolelen), 0);
}
int store_role_put(struct store *s, const char *name, const char *role)
{
	return seen(s, "roles", s->ops->role_put(s, name, role), 1);
}
int store_role_each(struct store *s, void (*fn)(void *, const char *, const char *), void *ctx)
{
	return seen(s, "roles", s->ops->role_each(s, fn, ctx), 0);
}
int store_ban_put(struct store *s, const struct store_ban *b) { return seen(s, "bans", s->ops->ban_put(s, b), 1); }
int store_ban_get(struct store *s, const char *name, struct store_ban *b)
{
	return seen(s, "bans", s->ops->ban_get(s, name, b), 0);
}
int store_ban_alike(struct store *s, const char *name, struct store_ban *b)
{
	struct ident_keys k;
	ident_keys_of(name, &k);
	return seen(s, "bans", s->ops->ban_alike(s, &k, name, b), 0);
}
int store_ban_delete(struct store *s, const char *name) { return seen(s, "bans", s->ops->ban_delete(s, name), 1); }
int store_ban_each(struct store *s, void (*fn)(void *, const struct store_ban *), void *ctx)
{
	return seen(s, "bans", s->ops->ban_each(s, fn, ctx), 0);
}
int store_audit_add(struct store *s, const struct store_audit *a)
{
	return seen(s, "audit", s->ops->audit_add(s, a), 1);
}
int store_audit_each(struct store *s, void (*fn)(void *, const struct store_audit *), void *ctx)
{
	return seen(s, "audit", s->ops->audit_each(s, fn, ctx), 0);
}
int store_mute_put(struct store *s, const char *owner, const char *target, int on)
{
	return seen(s, "mutes", s->ops->mute_put(s, owner, target, on), 1);
}
int store_mute_each(struct store *s, const char *owner, void (*fn)(void *, const char *), void *ctx)
{
	return seen(s, "mutes", s->ops->mute_each(s, owner, fn, ctx), 0);
}

int store_settings_get(struct store *s, const char *name, struct store_settings *out)
{
	memset(out, 0, sizeof *out);
	out->verbosity = -1;
	return seen(s, "accounts", s->ops->settings_get(s, name, out), 0);
}
int store_settings_put(struct store *s, const char *name, const struct store_settings *in)
{
	return seen(s, "accounts", s->ops->settings_put(s, name, in), 1);
}
int store_rating_get(struct store *s, const char *name, const char *game, struct rating *out)
{
	rating_init(out);
	return seen(s, "ratings", s->ops->rating_get(s, name, game, out), 0);
}
int store_game_record(struct store *s, struct store_game *g)
{
	return seen(s, "games", s->ops->game_record(s, g), 1);
}
int store_stat_each(struct store *s, const char *name, void (*fn)(void *, const struct store_stat *), void *ctx)
{
	return seen(s, "stats", s->ops->stat_each(s, name, fn, ctx), 0);
}
int store_leaders(struct store *s, const char *game, int n, void (*fn)(void *, const struct store_stat *),
                  void *ctx)
{
	return seen(s, "ratings", s->ops->leaders(s, game, n, fn, ctx), 0);
}
int store_recent(struct store *s, const char *name, void (*fn)(void *, const struct store_played *), void *ctx)
{
	return seen(s, "games", s->ops->recent(s, name, fn, ctx), 0);
}
int store_backup(struct store *s, const char *path, char *err, size_t errlen)
{
	if (!s->ops->backup)
		return errf(err, errlen, "the %s store has no backup", s->ops->name);
	return s->ops->backup(s, path, err, errlen);
}

/* The memory backend: plain arrays, gone with the process. */

struct mem_account {
	char name[100];
	char hash[128];
	struct store_settings set;
	struct ident_keys look;    /* its name's keys */
};
/* A player's figures at a game, and the ratings in the same entry. */
struct mem_stat {
	struct store_stat st;
};
/* One player's line of a recorded game (the latest last). */
struct mem_played {
	char name[100];
	long gid;
	struct store_played p;
};
struct mem_session {
	char name[100];
	char hash[72];
	long long expires;
};
struct mem_action {
	long id;
	int n, seat;
	char text[64];
};
struct mem {
	int full;                  /* store_memory_full: every write fails */
	long last_id;
	struct mem_account *acc;
	int nacc, capacc;
	struct store_table *tab;
	int ntab, captab;
	struct mem_action *act;
	int nact, capact;
	struct mem_session *ses;
	int nses, capses;
	struct mem_stat *stat;
	int nstat, capstat;
	struct mem_played *pl;
	int npl, cappl;
	long gid;
	struct mem_mod *mod;       /* roles, bans, audit, mutes */
	struct mem_flag { char key[STORE_FLAG_MAX + 8]; long long v; } flag[16];
	int nflag;
};

/* Moderation in memory: a role, a mute are pairs of names. */
struct mem_pair {
	char a[STORE_NAME_MAX], b[STORE_NAME_MAX];
};
struct mem_mod {
	struct mem_pair *role, *mute;
	int nrole, caprole, nmute, capmute;
	struct store_ban *ban;
	int nban, capban;
	struct store_audit *audit;
	int naudit, capaudit;
};

static int mem_open(struct store *s, const char *path, char *err, size_t errlen)
{
	(void)path;
	(void)err;
	(void)errlen;
	s->impl = xcalloc(1, sizeof(struct mem));
	return 0;
}

static void mem_close(struct store *s)
{
	struct mem *m = s->impl;
	if (!m)
		return;
	free(m->acc);
	free(m->tab);
	free(m->act);
	free(m->ses);
	free(m->stat);
	free(m->pl);
	if (m->mod) {
		free(m->mod->role);
		free(m->mod->mute);
		free(m->mod->ban);
		free(m->mod->audit);
		free(m->mod);
	}
	free(m);
}

void store_memory_full(struct store *s, int full)
{
	if (s->ops == &store_memory_ops)
		((struct mem *)s->impl)->full = full;
}

/* -1 (with the message of a full disk) while the memory store is full. */
static int mem_full(struct store *s)
{
	if (!((struct mem *)s->impl)->full)
		return 0;
	snprintf(s->err, sizeof s->err, "No space left on device (the memory store is full)");
	return -1;
}

static int mem_account_get(struct store *s, const char *name, char *hash, size_t hashlen)
{
	struct mem *m = s->impl;
	for (int i = 0; i < m->nacc; i++)
		if (!strcmp(m->acc[i].name, name)) {
			snprintf(hash, hashlen, "%s", m->acc[i].hash);
			return 1;
		}
	return 0;
}

static int mem_account_put(struct store *s, const char *name, const char *hash)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem *m = s->impl;
	for (int i = 0; i < m->nacc; i++)
		if (!strcmp(m->acc[i].name, name)) {
			snprintf(m->acc[i].hash, sizeof m->acc[i].hash, "%s", hash);
			return 0;
		}
	xgrow((void **)&m->acc, &m->capacc, m->nacc + 1, sizeof *m->acc);
	struct mem_account *a = &m->acc[m->nacc++];
	memset(a, 0, sizeof *a);
	a->set.verbosity = -1;
	snprintf(a->name, sizeof a->name, "%s", name);
	snprintf(a->hash, sizeof a->hash, "%s", hash);
	ident_keys_of(name, &a->look);
	return 0;
}

static int mem_account_alike(struct store *s, const struct ident_keys *k, const char *name, char *out,
                             size_t outlen)
{
	struct mem *m = s->impl;
	for (int i = 0; i < m->nacc; i++)
		if (strcmp(m->acc[i].name, name) != 0 && ident_keys_alike(&m->acc[i].look, k)) {
			snprintf(out, outlen, "%s", m->acc[i].name);
			return 1;
		}
	return 0;
}

static int mem_table_put(struct store *s, const struct store_table *t)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem *m = s->impl;
	for (int i = 0; i < m->ntab; i++)
		if (m->tab[i].id == t->id) {
			m->tab[i] = *t;
			return 0;
		}
	/* Kept in order of id, as table_each gives them (the ids come in
	 * order: the place is at the end but for a table restored late). */
	xgrow((void **)&m->tab, &m->captab, m->ntab + 1, sizeof *m->tab);
	int at = m->ntab;
	while (at > 0 && m->tab[at - 1].id > t->id)
		at--;
	memmove(&m->tab[at + 1], &m->tab[at], (size_t)(m->ntab - at) * sizeof *m->tab);
	m->tab[at] = *t;
	m->ntab++;
	if (t->id > m->last_id)
		m->last_id = t->id;
	return 0;
}

static int mem_table_delete(struct store *s, long id)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem *m = s->impl;
	for (int i = 0; i < m->ntab; i++)
		if (m->tab[i].id == id) {
			memmove(&m->tab[i], &m->tab[i + 1], (size_t)(m->ntab - i - 1) * sizeof *m->tab);
			m->ntab--;
			break;
		}
	int k = 0;
	for (int i = 0; i < m->nact; i++)
		if (m->act[i].id != id)
			m->act[k++] = m->act[i];
	m->nact = k;
	return 0;
}

static int mem_table_each(struct store *s, void (*fn)(void *, const struct store_table *), void *ctx)
{
	struct mem *m = s->impl;
	for (int i = 0; i < m->ntab; i++)
		fn(ctx, &m->tab[i]);
	return 0;
}

static int mem_journal_add(struct store *s, long id, int n, int seat, const char *action)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem *m = s->impl;
	/* An action written again replaces the one of that number (as
	 * SQLite's); looked for back to the table's action before it. */
	struct mem_action *a = NULL;
	for (int i = m->nact - 1; i >= 0 && !a; i--)
		if (m->act[i].id == id && m->act[i].n <= n) {
			if (m->act[i].n == n)
				a = &m->act[i];
			else
				break;
		}
	if (!a) {
		xgrow((void **)&m->act, &m->capact, m->nact + 1, sizeof *m->act);
		a = &m->act[m->nact++];
	}
	a->id = id;
	a->n = n;
	a->seat = seat;
	snprintf(a->text, sizeof a->text, "%s", action);
	return 0;
}

static int mem_journal_each(struct store *s, long id, void (*fn)(void *, int, const char *), void *ctx)
{
	struct mem *m = s->impl;
	for (int i = 0; i < m->nact; i++)
		if (m->act[i].id == id)
			fn(ctx, m->act[i].seat, m->act[i].text);
	return 0;
}

static struct mem_session *mem_session_of(struct mem *m, const char *name)
{
	for (int i = 0; i < m->nses; i++)
		if (!strcmp(m->ses[i].name, name))
			return &m->ses[i];
	return NULL;
}

static int mem_session_put(struct store *s, const char *name, const char *hash, long long expires)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem *m = s->impl;
	struct mem_session *x = mem_session_of(m, name);
	if (!x) {
		xgrow((void **)&m->ses, &m->capses, m->nses + 1, sizeof *m->ses);
		x = &m->ses[m->nses++];
		snprintf(x->name, sizeof x->name, "%s", name);
	}
	snprintf(x->hash, sizeof x->hash, "%s", hash);
	x->expires = expires;
	return 0;
}

static int mem_session_get(struct store *s, const char *name, char *hash, size_t hashlen, long long *expires)
{
	struct mem_session *x = mem_session_of(s->impl, name);
	if (!x)
		return 0;
	snprintf(hash, hashlen, "%s", x->hash);
	*expires = x->expires;
	return 1;
}

static int mem_session_delete(struct store *s, const char *name)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem *m = s->impl;
	struct mem_session *x = mem_session_of(m, name);
	if (x)
		*x = m->ses[--m->nses];
	return 0;
}

static int mem_last_id(struct store *s, long *id)
{
	*id = ((struct mem *)s->impl)->last_id;
	return 0;
}

static struct mem_mod *mem_mod(struct store *s)
{
	struct mem *m = s->impl;
	if (!m->mod)
		m->mod = xcalloc(1, sizeof *m->mod);
	return m->mod;
}

/* The pair (a, b) of ps (b NULL: any b), or NULL. */
static struct mem_pair *mem_pair_of(struct mem_pair *ps, int n, const char *a, const char *b)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(ps[i].a, a) && (!b || !strcmp(ps[i].b, b)))
			return &ps[i];
	return NULL;
}

static int mem_role_get(struct store *s, const char *name, char *role, size_t rolelen)
{
	struct mem_mod *d = mem_mod(s);
	struct mem_pair *p = mem_pair_of(d->role, d->nrole, name, NULL);
	if (p)
		snprintf(role, rolelen, "%s", p->b);
	return p != NULL;
}

static int mem_flag_get(struct store *s, const char *key, long long *v)
{
	struct mem *m = s->impl;
	for (int i = 0; i < m->nflag; i++)
		if (!strcmp(m->flag[i].key, key)) {
			*v = m->flag[i].v;
			return 1;
		}
	return 0;
}

static int mem_flag_put(struct store *s, const char *key, long long v)
{
	struct mem *m = s->impl;
	if (mem_full(s) < 0)
		return -1;
	int i = 0;
	while (i < m->nflag && strcmp(m->flag[i].key, key))
		i++;
	if (i == m->nflag) {
		if (m->nflag == (int)(sizeof m->flag / sizeof m->flag[0]))
			return -1;
		m->nflag++;
		snprintf(m->flag[i].key, sizeof m->flag[i].key, "%s", key);
	}
	m->flag[i].v = v;
	return 0;
}

static int mem_role_put(struct store *s, const char *name, const char *role)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem_mod *d = mem_mod(s);
	struct mem_pair *p = mem_pair_of(d->role, d->nrole, name, NULL);
	if (!strcmp(role, "player")) {
		if (p)
			*p = d->role[--d->nrole];
		return 0;
	}
	if (!p) {
		xgrow((void **)&d->role, &d->caprole, d->nrole + 1, sizeof *d->role);
		p = &d->role[d->nrole++];
		snprintf(p->a, sizeof p->a, "%s", name);
	}
	snprintf(p->b, sizeof p->b, "%s", role);
	return 0;
}

/* The lists are given in the order of their names (SQLite's ORDER BY):
 * sorted in place as they are listed (lookups do not mind the order). */
static int pair_cmp(const void *x, const void *y)
{
	const struct mem_pair *a = x, *b = y;
	int c = strcmp(a->a, b->a);
	return c ? c : strcmp(a->b, b->b);
}
static int ban_cmp(const void *x, const void *y)
{
	return strcmp(((const struct store_ban *)x)->name, ((const struct store_ban *)y)->name);
}

static int mem_role_each(struct store *s, void (*fn)(void *, const char *, const char *), void *ctx)
{
	struct mem_mod *d = mem_mod(s);
	if (d->nrole)
		qsort(d->role, (size_t)d->nrole, sizeof *d->role, pair_cmp);
	for (int i = 0; i < d->nrole; i++)
		fn(ctx, d->role[i].a, d->role[i].b);
	return 0;
}

static struct store_ban *mem_ban_of(struct mem_mod *d, const char *name)
{
	for (int i = 0; i < d->nban; i++)
		if (!strcmp(d->ban[i].name, name))
			return &d->ban[i];
	return NULL;
}

static int mem_ban_put(struct store *s, const struct store_ban *b)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem_mod *d = mem_mod(s);
	struct store_ban *x = mem_ban_of(d, b->name);
	if (!x) {
		xgrow((void **)&d->ban, &d->capban, d->nban + 1, sizeof *d->ban);
		x = &d->ban[d->nban++];
	}
	*x = *b;
	return 0;
}

static int mem_ban_get(struct store *s, const char *name, struct store_ban *b)
{
	struct store_ban *x = mem_ban_of(mem_mod(s), name);
	if (x)
		*b = *x;
	return x != NULL;
}

static int mem_ban_alike(struct store *s, const struct ident_keys *k, const char *name, struct store_ban *b)
{
	struct mem_mod *d = mem_mod(s);
	int found = 0;
	for (int i = 0; i < d->nban; i++) {
		struct ident_keys bk;
		ident_keys_of(d->ban[i].name, &bk);
		if ((!strcmp(d->ban[i].name, name) || ident_keys_alike(&bk, k)) && (!found || d->ban[i].until > b->until)) {
			*b = d->ban[i];
			found = 1;
		}
	}
	return found;
}

static int mem_ban_delete(struct store *s, const char *name)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem_mod *d = mem_mod(s);
	struct store_ban *x = mem_ban_of(d, name);
	if (x)
		*x = d->ban[--d->nban];
	return 0;
}

static int mem_ban_each(struct store *s, void (*fn)(void *, const struct store_ban *), void *ctx)
{
	struct mem_mod *d = mem_mod(s);
	if (d->nban)
		qsort(d->ban, (size_t)d->nban, sizeof *d->ban, ban_cmp);
	for (int i = 0; i < d->nban; i++)
		fn(ctx, &d->ban[i]);
	return 0;
}

static int mem_audit_add(struct store *s, const struct store_audit *a)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem_mod *d = mem_mod(s);
	xgrow((void **)&d->audit, &d->capaudit, d->naudit + 1, sizeof *d->audit);
	d->audit[d->naudit++] = *a;
	return 0;
}

static int mem_audit_each(struct store *s, void (*fn)(void *, const struct store_audit *), void *ctx)
{
	struct mem_mod *d = mem_mod(s);
	for (int i = 0; i < d->naudit; i++)
		fn(ctx, &d->audit[i]);
	return 0;
}

static int mem_mute_put(struct store *s, const char *owner, const char *target, int on)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem_mod *d = mem_mod(s);
	struct mem_pair *p = mem_pair_of(d->mute, d->nmute, owner, target);
	if (!on && p)
		*p = d->mute[--d->nmute];
	if (on && !p) {
		xgrow((void **)&d->mute, &d->capmute, d->nmute + 1, sizeof *d->mute);
		p = &d->mute[d->nmute++];
		snprintf(p->a, sizeof p->a, "%s", owner);
		snprintf(p->b, sizeof p->b, "%s", target);
	}
	return 0;
}

static int mem_mute_each(struct store *s, const char *owner, void (*fn)(void *, const char *), void *ctx)
{
	struct mem_mod *d = mem_mod(s);
	if (d->nmute)
		qsort(d->mute, (size_t)d->nmute, sizeof *d->mute, pair_cmp);
	for (int i = 0; i < d->nmute; i++)
		if (!strcmp(d->mute[i].a, owner))
			fn(ctx, d->mute[i].b);
	return 0;
}

static struct mem_account *mem_account_of(struct mem *m, const char *name)
{
	for (int i = 0; i < m->nacc; i++)
		if (!strcmp(m->acc[i].name, name))
			return &m->acc[i];
	return NULL;
}

static int mem_settings_get(struct store *s, const char *name, struct store_settings *out)
{
	struct mem_account *a = mem_account_of(s->impl, name);
	if (!a)
		return 0;
	*out = a->set;
	return 1;
}

static int mem_settings_put(struct store *s, const char *name, const struct store_settings *in)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem_account *a = mem_account_of(s->impl, name);
	if (a)
		a->set = *in;
	return 0;
}

static struct mem_stat *mem_stat_of(struct mem *m, const char *name, const char *game, int make)
{
	for (int i = 0; i < m->nstat; i++)
		if (!strcmp(m->stat[i].st.name, name) && !strcmp(m->stat[i].st.game, game))
			return &m->stat[i];
	if (!make)
		return NULL;
	xgrow((void **)&m->stat, &m->capstat, m->nstat + 1, sizeof *m->stat);
	struct mem_stat *x = &m->stat[m->nstat++];
	memset(x, 0, sizeof *x);
	snprintf(x->st.name, sizeof x->st.name, "%s", name);
	snprintf(x->st.game, sizeof x->st.game, "%s", game);
	return x;
}

static int mem_rating_get(struct store *s, const char *name, const char *game, struct rating *out)
{
	struct mem_stat *x = mem_stat_of(s->impl, name, game, 0);
	if (!x || !x->st.has_rating)
		return 0;
	*out = x->st.rating;
	return 1;
}

static int mem_game_record(struct store *s, struct store_game *g)
{
	if (mem_full(s) < 0)
		return -1;
	struct mem *m = s->impl;
	long gid = ++m->gid;
	g->id = g->n ? gid : 0;
	for (int i = 0; i < g->n; i++) {
		const struct store_game_player *p = &g->p[i];
		struct mem_stat *x = mem_stat_of(m, p->name, g->game, 1);
		x->st.games++;
		x->st.deals += g->deals;
		x->st.won += p->won;
		x->st.net += p->net;
		if (g->rated) {
			x->st.has_rating = 1;
			x->st.rating = p->after;
			x->st.rated_games++;
		}
		xgrow((void **)&m->pl, &m->cappl, m->npl + 1, sizeof *m->pl);
		struct mem_played *y = &m->pl[m->npl++];
		memset(y, 0, sizeof *y);
		snprintf(y->name, sizeof y->name, "%s", p->name);
		y->gid = gid;
		y->p.table = g->table;
		snprintf(y->p.game, sizeof y->p.game, "%s", g->game);
		y->p.ended = g->ended;
		y->p.seat = p->seat;
		y->p.place = p->place;
		y->p.won = p->won;
		y->p.rated = g->rated;
		y->p.net = p->net;
		y->p.id = gid;
		/* Only the last STORE_RECENT_GAMES of that player are kept. */
		int have = 0;
		for (int k = m->npl - 1; k >= 0; k--)
			if (!strcmp(m->pl[k].name, p->name) && ++have > STORE_RECENT_GAMES) {
				memmove(&m->pl[k], &m->pl[k + 1], (size_t)(m->npl - k - 1) * sizeof *m->pl);
				m->npl--;
			}
	}
	return 0;
}

static int mem_stat_each(struct store *s, const char *name, void (*fn)(void *, const struct store_stat *),
                         void *ctx)
{
	struct mem *m = s->impl;
	/* By game name, as the SQLite backend lists them. */
	const char *last = "";
	for (;;) {
		struct mem_stat *next = NULL;
		for (int i = 0; i < m->nstat; i++)
			if (!strcmp(m->stat[i].st.name, name) && strcmp(m->stat[i].st.game, last) > 0 &&
			    (!next || strcmp(m->stat[i].st.game, next->st.game) < 0))
				next = &m->stat[i];
		if (!next)
			return 0;
		fn(ctx, &next->st);
		last = next->st.game;
	}
}

static int better_rated(const struct store_stat *a, const struct store_stat *b)
{
	if (a->rating.r != b->rating.r)
		return a->rating.r > b->rating.r;
	if (a->rated_games != b->rated_games)
		return a->rated_games > b->rated_games;
	return strcmp(a->name, b->name) < 0;
}

static int mem_leaders(struct store *s, const char *game, int n, void (*fn)(void *, const struct store_stat *),
                       void *ctx)
{
	struct mem *m = s->impl;
	unsigned char *told = xcalloc((size_t)m->nstat + 1, 1);
	for (int k = 0; k < n; k++) {
		int best = -1;
		for (int i = 0; i < m->nstat; i++)
			if (!told[i] && m->stat[i].st.has_rating && !strcmp(m->stat[i].st.game, game) &&
			    (best < 0 || better_rated(&m->stat[i].st, &m->stat[best].st)))
				best = i;
		if (best < 0)
			break;
		told[best] = 1;
		fn(ctx, &m->stat[best].st);
	}
	free(told);
	return 0;
}

static int mem_recent(struct store *s, const char *name, void (*fn)(void *, const struct store_played *),
                      void *ctx)
{
	struct mem *m = s->impl;
	for (int k = m->npl - 1; k >= 0; k--)
		if (!strcmp(m->pl[k].name, name))
			fn(ctx, &m->pl[k].p);
	return 0;
}

const struct store_ops store_memory_ops = {
	.name = "memory",
	.open = mem_open,
	.close = mem_close,
	.account_get = mem_account_get,
	.account_put = mem_account_put,
	.account_alike = mem_account_alike,
	.table_put = mem_table_put,
	.table_delete = mem_table_delete,
	.table_each = mem_table_each,
	.journal_add = mem_journal_add,
	.journal_each = mem_journal_each,
	.session_put = mem_session_put,
	.session_get = mem_session_get,
	.session_delete = mem_session_delete,
	.last_id = mem_last_id,
	.role_get = mem_role_get,
	.role_put = mem_role_put,
	.flag_get = mem_flag_get,
	.flag_put = mem_flag_put,
	.role_each = mem_role_each,
	.ban_put = mem_ban_put,
	.ban_get = mem_ban_get,
	.ban_alike = mem_ban_alike,
	.ban_delete = mem_ban_delete,
	.ban_each = mem_ban_each,
	.audit_add = mem_audit_add,
	.audit_each = mem_audit_each,
	.mute_put = mem_mute_put,
	.mute_each = mem_mute_each,
	.settings_get = mem_settings_get,
	.settings_put = mem_settings_put,
	.rating_get = mem_rating_get,
	.game_record = mem_game_record,
	.stat_each = mem_stat_each,
	.leaders = mem_leaders,
	.recent = mem_recent,
	.backup = NULL,
};
