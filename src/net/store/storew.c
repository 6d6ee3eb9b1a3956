/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/store/storew.h"

#include <stdlib.h>

#include "core/err.h"
#include "core/xalloc.h"
#include "net/store/store.h"
#include "net/wire/work.h"

struct storew {
	struct work *pool;   /* one thread */
	struct store st;     /* touched by that thread alone once open */
};

struct storew_job {
	struct storew *w;
	void (*run)(struct store *st, void *arg);
	void (*done)(void *arg, int ran);
	void *arg;
};

struct storew *storew_new(const char *backend, const char *path, char *err, size_t errlen)
{
	struct storew *w = xcalloc(1, sizeof *w);
	if (store_open(&w->st, backend, path, err, errlen) < 0) {
		free(w);
		return NULL;
	}
	w->pool = work_new_at(1, 0);
	if (!w->pool) {
		store_close(&w->st);
		free(w);
		errf(err, errlen, "cannot start the store's worker thread");
		return NULL;
	}
	return w;
}

void storew_free(struct storew *w)
{
	if (!w)
		return;
	work_free(w->pool);
	store_close(&w->st);
	free(w);
}

static void job_run(void *arg)
{
	struct storew_job *j = arg;
	j->run(&j->w->st, j->arg);
}

static void job_done(void *arg, int ran)
{
	struct storew_job *j = arg;
	j->done(j->arg, ran);
	free(j);
}

int storew_submit(struct storew *w, void (*run)(struct store *st, void *arg), void (*done)(void *arg, int ran),
                  void *arg)
{
	struct storew_job *j = xmalloc(sizeof *j);
	*j = (struct storew_job){ w, run, done, arg };
	if (work_submit(w->pool, job_run, job_done, j) < 0) {
		free(j);
		return -1;
	}
	return 0;
}

int storew_collect(struct storew *w)
{
	return work_collect(w->pool);
}

void storew_set_notify(struct storew *w, void (*notify)(void *ctx), void *ctx)
{
	work_set_notify(w->pool, notify, ctx);
}
