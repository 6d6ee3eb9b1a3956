/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* sched_getaffinity */
#include "net/wire/work.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "app/log.h"
#include "core/xalloc.h"

#define WORK_THREADS_MAX 64

struct work_job {
	struct work_job *next;
	void (*run)(void *arg);
	void (*done)(void *arg, int ran);
	void *arg;
};

struct work {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct work_job *todo, **todo_end, *done, **done_end;
	int queued;              /* submitted and not yet collected */
	int stop;
	int nthreads;
	int nice;                /* of its threads */
	int below_failed;        /* a thread could not go below the loop: its errno (under mu) */
	int below_told;          /* said in the log (on the loop) */
	void (*notify)(void *ctx); /* a result is ready (called on the worker) */
	void *notify_ctx;
	pthread_t th[WORK_THREADS_MAX];
};

/* Below the loop: when the cores are all busy, the loop (whose every
 * message someone waits for) goes first and the searches take what is
 * left. On Linux a pool below the loop runs its threads in the idle
 * class (SCHED_IDLE): a thread of the loop's class waking on the same
 * core takes it at once, where a nice value only weighs the shares
 * (docs/performance.md, "Bots and hints off the loop": at nice 10 a
 * hint flood or ten tables of the strongest bots moved the other
 * tables' p99 by 1–14 ms, in the idle class by under 1 ms). Where the
 * class cannot be had, the thread's nice value; elsewhere this may fail
 * too, and the worker runs as the loop does. */
#define WORK_NICE 10

/* 0, or the errno of the last refusal (a unit's SystemCallFilter that
 * forbids both calls): the operator is told once, from the loop. */
static int below_loop(int nice)
{
#ifdef SCHED_IDLE
	struct sched_param sp = { 0 };
	if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp) == 0)
		return 0;
#endif
#ifdef SYS_gettid
	if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) == 0)
		return 0;
	return errno ? errno : EPERM;
#else
	(void)nice;
	return 0;
#endif
}

static void *worker(void *arg)
{
	struct work *w = arg;
	int below = w->nice ? below_loop(w->nice) : 0;
	pthread_mutex_lock(&w->mu);
	if (below)
		w->below_failed = below;
	for (;;) {
		while (!w->stop && !w->todo)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->stop)
			break;
		struct work_job *j = w->todo;
		w->todo = j->next;
		if (!w->todo)
			w->todo_end = &w->todo;
		pthread_mutex_unlock(&w->mu);
		j->run(j->arg);
		j->next = NULL;
		pthread_mutex_lock(&w->mu);
		int first = !w->done; /* the loop is told once until it collects */
		*w->done_end = j;
		w->done_end = &j->next;
		/* Under the lock: once work_set_notify(w, NULL, ...) returns,
		 * no worker calls the old one (its context may be gone). */
		if (first && w->notify)
			w->notify(w->notify_ctx);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

struct work *work_new(int threads)
{
	return work_new_at(threads, WORK_NICE);
}

struct work *work_new_at(int threads, int nice)
{
	if (threads <= 0) {
		/* The cores this process may run on (a container or taskset may
		 * give it fewer than the machine has). */
		cpu_set_t set;
		long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
		threads = n > 0 ? (int)n : 1;
	}
	if (threads > WORK_THREADS_MAX)
		threads = WORK_THREADS_MAX;
	struct work *w = xcalloc(1, sizeof *w);
	w->nice = nice;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->todo_end = &w->todo;
	w->done_end = &w->done;
	for (int i = 0; i < threads; i++) {
		if (pthread_create(&w->th[w->nthreads], NULL, worker, w) != 0)
			break;
		w->nthreads++;
	}
	if (!w->nthreads) {
		work_free(w);
		return NULL;
	}
	return w;
}

void work_set_notify(struct work *w, void (*notify)(void *ctx), void *ctx)
{
	pthread_mutex_lock(&w->mu);
	w->notify = notify;
	w->notify_ctx = ctx;
	pthread_mutex_unlock(&w->mu);
}

int work_threads(const struct work *w)
{
	return w->nthreads;
}

int work_submit(struct work *w, void (*run)(void *arg), void (*done)(void *arg, int ran), void *arg)
{
	if (w->queued >= WORK_QUEUE_MAX)
		return -1;
	struct work_job *j = xcalloc(1, sizeof *j);
	j->run = run;
	j->done = done;
	j->arg = arg;
	pthread_mutex_lock(&w->mu);
	*w->todo_end = j;
	w->todo_end = &j->next;
	w->queued++;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return 0;
}

int work_collect(struct work *w)
{
	pthread_mutex_lock(&w->mu);
	struct work_job *list = w->done;
	w->done = NULL;
	w->done_end = &w->done;
	int below = w->below_told ? 0 : w->below_failed;
	pthread_mutex_unlock(&w->mu);
	if (below) {
		w->below_told = 1;
		log_say("warning: the workers cannot go below the loop's priority (SCHED_IDLE and setpriority refused: "
		        "%s): bots and hints run at the loop's priority (a unit's SystemCallFilter=~@resources forbids "
		        "them)",
		        strerror(below));
	}
	int n = 0;
	for (struct work_job *j = list, *next; j; j = next) {
		next = j->next;
		w->queued--;
		j->done(j->arg, 1);
		free(j);
		n++;
	}
	return n;
}

static void drop_all(struct work_job *j)
{
	for (struct work_job *next; j; j = next) {
		next = j->next;
		j->done(j->arg, 0);
		free(j);
	}
}

void work_free(struct work *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->stop = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	for (int i = 0; i < w->nthreads; i++)
		pthread_join(w->th[i], NULL);
	drop_all(w->done);
	drop_all(w->todo);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
