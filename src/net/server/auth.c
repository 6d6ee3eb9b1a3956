/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/auth.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "net/wire/work.h"

int auth_init(struct auth *a, int cost)
{
	memset(a, 0, sizeof *a);
	a->cost = cost;
	a->accounts_per_hour = AUTH_ACCOUNTS_PER_HOUR;
	return sodium_init() < 0 ? -1 : 0;
}

static int hash_with(int cost, const char *password, char out[AUTH_HASH_MAX])
{
	char h[crypto_pwhash_STRBYTES];
	unsigned long long ops = crypto_pwhash_OPSLIMIT_INTERACTIVE;
	size_t mem = crypto_pwhash_MEMLIMIT_INTERACTIVE;
	if (cost == AUTH_COST_CHEAP) {
		ops = crypto_pwhash_OPSLIMIT_MIN;
		mem = crypto_pwhash_MEMLIMIT_MIN;
	} else if (cost == AUTH_COST_SLOW) {
		ops = 24;
		mem = 32u << 20;
	}
	if (crypto_pwhash_str_alg(h, password, strlen(password), ops, mem, crypto_pwhash_ALG_ARGON2ID13) != 0)
		return -1;
	snprintf(out, AUTH_HASH_MAX, "%s", h);
	return 0;
}

int auth_hash(const struct auth *a, const char *password, char out[AUTH_HASH_MAX])
{
	return hash_with(a->cost, password, out);
}

int auth_verify(const char *hash, const char *password)
{
	return crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
}

/* ---- the worker: one thread of net/wire/work's pool, at the loop's own
 * priority (someone waits on a login); the answers it ran are handed to
 * auth_done in order ---- */

struct auth_job {
	struct auth_job *next;
	struct auth_worker *w;
	char password[AUTH_PASSWORD_MAX + 1];
	struct auth_answer ans;  /* id, verify; hash: in for a check, out for a hash */
};

struct auth_worker {
	struct work *pool;
	struct auth_job *ready, **ready_end; /* run, not yet taken by auth_done */
	int queued;              /* jobs submitted and not yet taken */
	int cost;
};

static void job_free(struct auth_job *j)
{
	sodium_memzero(j, sizeof *j);
	free(j);
}

/* On the worker. */
static void job_run(void *arg)
{
	struct auth_job *j = arg;
	if (j->ans.verify)
		j->ans.ok = auth_verify(j->ans.hash, j->password);
	else
		j->ans.ok = hash_with(j->w->cost, j->password, j->ans.hash) == 0;
	sodium_memzero(j->password, sizeof j->password);
}

/* On the caller's thread (work_collect, or work_free: not run). */
static void job_done(void *arg, int ran)
{
	struct auth_job *j = arg;
	struct auth_worker *w = j->w;
	if (!ran) {
		w->queued--;
		job_free(j);
		return;
	}
	j->next = NULL;
	*w->ready_end = j;
	w->ready_end = &j->next;
}

int auth_submit(struct auth *a, long id, const char *password, const char *hash)
{
	if (!a->w) {
		struct work *pool = work_new_at(1, 0);
		if (!pool)
			return -1;
		struct auth_worker *w = xcalloc(1, sizeof *w);
		w->pool = pool;
		w->ready_end = &w->ready;
		w->cost = a->cost;
		a->w = w;
	}
	struct auth_worker *w = a->w;
	if (w->queued >= AUTH_QUEUE_MAX || strlen(password) > AUTH_PASSWORD_MAX)
		return -1;
	struct auth_job *j = xcalloc(1, sizeof *j);
	j->w = w;
	j->ans.id = id;
	j->ans.verify = hash != NULL;
	snprintf(j->password, sizeof j->password, "%s", password);
	if (hash)
		snprintf(j->ans.hash, sizeof j->ans.hash, "%s", hash);
	if (work_submit(w->pool, job_run, job_done, j) < 0) {
		job_free(j);
		return -1;
	}
	w->queued++;
	return 0;
}

int auth_done(struct auth *a, struct auth_answer *out)
{
	struct auth_worker *w = a->w;
	if (!w)
		return 0;
	if (!w->ready)
		work_collect(w->pool);
	struct auth_job *j = w->ready;
	if (!j)
		return 0;
	w->ready = j->next;
	if (!w->ready)
		w->ready_end = &w->ready;
	w->queued--;
	*out = j->ans;
	job_free(j);
	return 1;
}

void auth_release(struct auth *a)
{
	struct auth_worker *w = a->w;
	if (!w)
		return;
	work_free(w->pool); /* the jobs not collected: job_done(j, 0) */
	for (struct auth_job *j = w->ready, *next; j; j = next) {
		next = j->next;
		job_free(j);
	}
	free(w);
	a->w = NULL;
}

void auth_token_hash(const char *token, char out[AUTH_TOKEN_HASH_MAX])
{
	unsigned char h[32];
	crypto_generichash(h, sizeof h, (const unsigned char *)token, strlen(token), NULL, 0);
	sodium_bin2hex(out, AUTH_TOKEN_HASH_MAX, h, sizeof h);
}

int auth_token_matches(const char *hash, const char *token)
{
	char mine[AUTH_TOKEN_HASH_MAX];
	auth_token_hash(token, mine);
	return strlen(hash) == AUTH_TOKEN_HASH_MAX - 1 && sodium_memcmp(mine, hash, AUTH_TOKEN_HASH_MAX - 1) == 0;
}

void auth_wipe(void *p, size_t n)
{
	sodium_memzero(p, n);
}

#define HOUR_MS (3600 * 1000LL)

/* A slot holds a lock while its wait has not passed, or while it counts
 * more wrong passwords than are free and no quiet hour forgave them (its
 * next wrong password waits at once): it is never forgotten to make room,
 * or a crowd of other names would give a locked one its free guesses
 * again. */
static int locked(const struct auth_slot *x, long long now_ms)
{
	if (x->until_ms > now_ms)
		return 1;
	int free_fails = x->key[0] == 'a' ? AUTH_FREE_FAILS * 3 : AUTH_FREE_FAILS;
	return x->key[0] != 'c' && x->fails > free_fails && now_ms - x->last_ms <= HOUR_MS;
}

/* When x holds no lock: the time it would be forgotten (the sooner the
 * better to forget), fewest failures first, then the oldest. */
static int sooner(const struct auth_slot *x, const struct auth_slot *than)
{
	return x->fails < than->fails || (x->fails == than->fails && x->last_ms < than->last_ms);
}

/* The slot of a key; when absent and make is set, a free one, else one
 * holding no lock (the fewest failures, then the oldest): NULL when every
 * slot holds a lock. */
static struct auth_slot *slot_but(struct auth *a, char kind, const char *key, int make, long long now_ms,
                                   const struct auth_slot *keep)
{
	char k[sizeof a->slot[0].key];
	snprintf(k, sizeof k, "%c:%s", kind, key);
	struct auth_slot *old = NULL;
	for (int i = 0; i < AUTH_SLOTS; i++) {
		struct auth_slot *x = &a->slot[i];
		if (x->key[0] && !strcmp(x->key, k))
			return x;
		if (x == keep)
			continue;
		if (!x->key[0]) {
			if (!old || old->key[0])
				old = x;
		} else if (!locked(x, now_ms) && (!old || (old->key[0] && sooner(x, old)))) {
			old = x;
		}
	}
	if (!make || !old)
		return NULL;
	memset(old, 0, sizeof *old);
	snprintf(old->key, sizeof old->key, "%s", k);
	return old;
}

static struct auth_slot *slot(struct auth *a, char kind, const char *key, int make, long long now_ms)
{
	return slot_but(a, kind, key, make, now_ms, NULL);
}

/* When a key not yet known could get no slot: the wait until one is
 * free (every slot holds a lock), else 0. */
static long long crowded(struct auth *a, long long now_ms)
{
	long long w = 0;
	for (int i = 0; i < AUTH_SLOTS; i++) {
		const struct auth_slot *x = &a->slot[i];
		if (!x->key[0] || !locked(x, now_ms))
			return 0;
		long long until = x->until_ms > now_ms ? x->until_ms : x->last_ms + HOUR_MS + 1;
		if (!w || until - now_ms < w)
			w = until - now_ms;
	}
	return w;
}

long long auth_wait(struct auth *a, const char *name, const char *addr, long long now_ms)
{
	long long w = 0;
	struct auth_slot *s[2] = { slot(a, 'n', name, 0, now_ms), addr ? slot(a, 'a', addr, 0, now_ms) : NULL };
	for (int i = 0; i < 2; i++)
		if (s[i] && s[i]->until_ms - now_ms > w)
			w = s[i]->until_ms - now_ms;
	/* A wrong password here could not be counted: wait, rather than
	 * forget someone else's wait. */
	if (!w && (!s[0] || (addr && !s[1])))
		w = crowded(a, now_ms);
	return w;
}

static void fail_one(struct auth_slot *s, long long now_ms, int free_fails)
{
	if (!s)
		return;
	/* A quiet hour forgives. */
	if (now_ms - s->last_ms > 3600 * 1000LL)
		s->fails = 0;
	s->fails++;
	s->last_ms = now_ms;
	if (s->fails > free_fails) {
		int k = s->fails - free_fails - 1;
		long long wait = 1000LL << (k > 6 ? 6 : k); /* 1 s, 2 s, ... 64 s */
		s->until_ms = now_ms + wait;
	}
}

void auth_failed(struct auth *a, const char *name, const char *addr, long long now_ms)
{
	struct auth_slot *n = slot(a, 'n', name, 1, now_ms);
	fail_one(n, now_ms, AUTH_FREE_FAILS);
	/* One address may try a few names before it waits as well (the
	 * name's slot is not the one to make room for it). */
	if (addr)
		fail_one(slot_but(a, 'a', addr, 1, now_ms, n), now_ms, AUTH_FREE_FAILS * 3);
}

void auth_succeeded(struct auth *a, const char *name)
{
	struct auth_slot *s = slot(a, 'n', name, 0, 0);
	if (s)
		memset(s, 0, sizeof *s);
}

long long auth_create_wait(struct auth *a, const char *addr, long long now_ms)
{
	struct auth_slot *s = slot(a, 'c', addr, 0, now_ms);
	if (!s)
		return crowded(a, now_ms);
	if (now_ms - s->last_ms >= HOUR_MS || s->fails < a->accounts_per_hour)
		return 0;
	return s->last_ms + HOUR_MS - now_ms;
}

void auth_created(struct auth *a, const char *addr, long long now_ms)
{
	struct auth_slot *s = slot(a, 'c', addr, 1, now_ms);
	if (!s)
		return;
	if (!s->fails || now_ms - s->last_ms >= HOUR_MS) {
		s->fails = 0;
		s->last_ms = now_ms;
	}
	s->fails++;
	s->until_ms = s->last_ms + HOUR_MS; /* the hour's count is kept till its end */
}
