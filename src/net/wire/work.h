/* SPDX-License-Identifier: GPL-3.0-or-later */
/* work: a pool of worker threads for what would hold the server's loop
 * (a bot's search, a hint). A job's run is called on a worker with its
 * argument; its done is called later on the loop (work_collect), with the
 * same argument, and owns it then. A job's argument is touched by run
 * alone until it is done: whatever the loop may change meanwhile (the
 * owner going away) lives in fields run does not read. */
#ifndef TAPIS_WORK_H
#define TAPIS_WORK_H

#define WORK_QUEUE_MAX 16384 /* jobs submitted and not yet collected */

struct work;

/* A pool of threads workers (<= 0: one a core, at least one); NULL when
 * no thread could be started. */
struct work *work_new(int threads);
/* The same, its threads below the loop (work_new's: in the idle class,
 * or at that nice value where the class cannot be had) or, with nice 0,
 * at the loop's own, for work someone waits on, such as a table being
 * taken over: net/storew. */
struct work *work_new_at(int threads, int nice);
/* Stop the pool: the jobs being run finish, those waiting are not run;
 * every job not collected gets done(arg, 0), on the caller's thread. */
void work_free(struct work *w);
/* 0, or -1 when WORK_QUEUE_MAX jobs are waiting (nothing was queued). */
int work_submit(struct work *w, void (*run)(void *arg), void (*done)(void *arg, int ran), void *arg);
/* Call done(arg, 1) for the jobs run so far (not those that end while it
 * does: a done that submits again cannot keep it busy); how many. */
int work_collect(struct work *w);
/* notify(ctx) is called on a worker when a result is ready and none was
 * waiting to be collected (the loop woken once, then work_collect takes
 * them all), under the pool's lock: it must be short and safe from any
 * thread (lws_cancel_service is). After work_set_notify(w, NULL, NULL)
 * returns, the old one is not called any more. */
void work_set_notify(struct work *w, void (*notify)(void *ctx), void *ctx);
/* Threads of the pool: one a core this process may run on, unless told. */
int work_threads(const struct work *w);

#endif
