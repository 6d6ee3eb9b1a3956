/* SPDX-License-Identifier: GPL-3.0-or-later */
/* health: whether the server is well, for GET /healthz (and the
 * watchdog's ping): its loop turns (the tick came within HEALTH_STALL_MS
 * and its lag, p99, is under HEALTH_LAG_MS) and its store answers (a
 * read, timed, at most once every HEALTH_PROBE_MS; no write failed since
 * the last one that worked). The answer says why in its body. */
#ifndef TAPIS_HEALTH_H
#define TAPIS_HEALTH_H

#include "net/store/store.h"
#include "net/wire/ws.h"

#define HEALTH_LAG_MS 1000    /* the loop's lag (p99) past which the server is not well */
#define HEALTH_STALL_MS 5000  /* nor when its tick has not come for this long */
#define HEALTH_PROBE_MS 1000  /* the store read at most this often */

struct health {
	long long probed_ms;  /* when the store was last read (0: never) */
	double store_ms;      /* how long that read took */
	int store_ok;         /* it worked */
	long long probes, probe_failures;
	char store_err[256];  /* why it failed */
};

/* The store read now, unless it was within HEALTH_PROBE_MS. */
void health_probe(struct health *h, struct store *st, long long now_ms);
/* 1 when well; else 0 with why (a sentence for the operator). */
int health_ok(struct health *h, struct store *st, const struct ws_stats *w, long long now_ms, char *why,
              size_t len);
/* GET /healthz: "ok" or "unwell: why", each with the figures it looked
 * at (malloc'd), *status 200 or 503. */
char *health_text(struct health *h, struct store *st, const struct ws_stats *w, long long now_ms, int *status);

#endif
