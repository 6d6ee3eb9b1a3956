/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/health.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/xalloc.h"

void health_probe(struct health *h, struct store *st, long long now_ms)
{
	if (h->probed_ms && now_ms - h->probed_ms < HEALTH_PROBE_MS && now_ms >= h->probed_ms)
		return;
	long id = 0;
	double t0 = clock_ms();
	int rc = store_last_id(st, &id);
	h->store_ms = clock_ms() - t0;
	h->probed_ms = now_ms ? now_ms : 1;
	h->probes++;
	h->store_ok = rc >= 0;
	if (!h->store_ok) {
		h->probe_failures++;
		snprintf(h->store_err, sizeof h->store_err, "%s", st->err[0] ? st->err : "error");
	}
}

int health_ok(struct health *h, struct store *st, const struct ws_stats *w, long long now_ms, char *why, size_t len)
{
	health_probe(h, st, now_ms);
	if (!h->store_ok)
		snprintf(why, len, "the store does not answer: %s", h->store_err);
	else if (st->failing)
		snprintf(why, len, "the store refuses writes: %s", st->err[0] ? st->err : "error");
	else if (w->tick_ms && now_ms - w->tick_ms > HEALTH_STALL_MS)
		snprintf(why, len, "the loop's tick has not come for %lld ms", now_ms - w->tick_ms);
	else if (w->lag_p99_ms > HEALTH_LAG_MS)
		snprintf(why, len, "the loop lags: %.0f ms (p99)", w->lag_p99_ms);
	else
		return 1;
	return 0;
}

char *health_text(struct health *h, struct store *st, const struct ws_stats *w, long long now_ms, int *status)
{
	char why[400], *out = NULL;
	int ok = health_ok(h, st, w, now_ms, why, sizeof why);
	*status = ok ? 200 : 503;
	size_t n = (size_t)snprintf(NULL, 0, "%s%s\nloop lag p50 %.1f ms p99 %.1f ms\nstore read %.2f ms\n",
	                            ok ? "ok" : "unwell: ", ok ? "" : why, w->lag_p50_ms, w->lag_p99_ms, h->store_ms);
	out = xmalloc(n + 1);
	snprintf(out, n + 1, "%s%s\nloop lag p50 %.1f ms p99 %.1f ms\nstore read %.2f ms\n", ok ? "ok" : "unwell: ",
	         ok ? "" : why, w->lag_p50_ms, w->lag_p99_ms, h->store_ms);
	return out;
}
