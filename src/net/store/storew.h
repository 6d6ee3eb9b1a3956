/* SPDX-License-Identifier: GPL-3.0-or-later */
/* storew: the store's slow calls off the server's loop. One thread
 * (net/work, at the loop's priority: someone waits for what it does) with
 * a connection of its own to the store, for a libpq connection is not to
 * be shared between threads. A job's run is called on that thread with
 * the worker's store; its done comes back on the loop (storew_collect),
 * with ran 1, or 0 when the worker stopped before it was collected (then
 * on the thread that stops it). Used by a node of a cluster on PostgreSQL
 * (docs/cluster.md): a lost node's tables read and replayed (net/cladopt),
 * the guests' sessions written at login (net/server). */
#ifndef TAPIS_STOREW_H
#define TAPIS_STOREW_H

#include <stddef.h>

struct store;
struct storew;

/* A worker on its own connection to the store backend at path (as
 * store_open); NULL with a message when the store or the thread cannot
 * be had. */
struct storew *storew_new(const char *backend, const char *path, char *err, size_t errlen);
/* The job being run finishes; the others get done(arg, 0); then the
 * connection is closed. */
void storew_free(struct storew *w);
/* 0, or -1 when the queue is full (nothing queued). Jobs run one at a
 * time, in the order given. */
int storew_submit(struct storew *w, void (*run)(struct store *st, void *arg), void (*done)(void *arg, int ran),
                  void *arg);
/* done(arg, 1) for the jobs run so far; how many. */
int storew_collect(struct storew *w);
/* As work_set_notify: notify(ctx) on the worker when a result waits. */
void storew_set_notify(struct storew *w, void (*notify)(void *ctx), void *ctx);

#endif
