/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/store/bench_store.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/err.h"
#include "net/store/store.h"


static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct figure {
	const char *name;
	double median, p99, max;
};

static void sum_up(double *v, int n, struct figure *f)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	f->median = v[n / 2];
	f->p99 = v[(int)((n - 1) * 0.99)];
	f->max = v[n - 1];
}

int bench_store_run(const char *where, int n, int json, FILE *out, char *err, size_t errlen)
{
	int pg = store_is_url(where);
	struct store st;
	if (store_open(&st, pg ? "postgresql" : "sqlite", where, err, errlen) < 0)
		return -1;
	long base = 0;
	double *v = malloc((size_t)n * sizeof *v);
	struct figure fig[4] = { { "account_get", 0, 0, 0 }, { "table_put", 0, 0, 0 }, { "journal_add", 0, 0, 0 },
		                 { "account_alike", 0, 0, 0 } };
	enum { NFIG = sizeof fig / sizeof *fig };
	int rc = v && store_last_id(&st, &base) == 0 ? 0 : -1;
	char name[32];
	/* Accounts to find: as many as the lookups. */
	for (int i = 0; rc == 0 && i < n; i++) {
		snprintf(name, sizeof name, "bench-%d", i);
		rc = store_account_put(&st, name, "$argon2id$v=19$m=65536,t=2,p=1$c2FsdA$aGFzaA");
	}
	for (int i = 0; rc == 0 && i < n; i++) {
		char hash[128];
		snprintf(name, sizeof name, "bench-%d", (i * 7919) % n);
		double t0 = clock_ms();
		rc = store_account_get(&st, name, hash, sizeof hash) == 1 ? 0 : -1;
		v[i] = clock_ms() - t0;
	}
	if (rc == 0)
		sum_up(v, n, &fig[0]);
	/* A new name at a hello, compared with every account by its look
	 * (its keys made, then the index asked): one alike found. */
	for (int i = 0; rc == 0 && i < n; i++) {
		char other[100];
		snprintf(name, sizeof name, "BENCH-%d", (i * 7919) % n);
		double t0 = clock_ms();
		rc = store_account_alike(&st, name, other, sizeof other) == 1 ? 0 : -1;
		v[i] = clock_ms() - t0;
	}
	if (rc == 0)
		sum_up(v, n, &fig[3]);
	/* Tables saved (a tenth of them new, the others saved again as their
	 * seats change), then moves kept at them. */
	struct store_table t;
	memset(&t, 0, sizeof t);
	snprintf(t.game, sizeof t.game, "brelan");
	snprintf(t.creator, sizeof t.creator, "bench-0");
	snprintf(t.rules, sizeof t.rules, "hands=3");
	snprintf(t.seats, sizeof t.seats, "[\"open\",\"bot:2\",{\"name\":\"bench-0\",\"level\":0}]");
	t.players = 4;
	int ntab = n / 10 > 0 ? n / 10 : 1;
	for (int i = 0; rc == 0 && i < n; i++) {
		t.id = base + 1 + i % ntab;
		t.state = i / ntab;
		double t0 = clock_ms();
		rc = store_table_put(&st, &t);
		v[i] = clock_ms() - t0;
	}
	if (rc == 0)
		sum_up(v, n, &fig[1]);
	for (int i = 0; rc == 0 && i < n; i++) {
		double t0 = clock_ms();
		rc = store_journal_add(&st, base + 1 + i % ntab, i / ntab, i % 4, "raise 5");
		v[i] = clock_ms() - t0;
	}
	if (rc == 0)
		sum_up(v, n, &fig[2]);
	if (rc < 0)
		errf(err, errlen, "%s", st.err[0] ? st.err : "out of memory");
	for (int i = 0; i < ntab; i++)
		store_table_delete(&st, base + 1 + i);
	store_close(&st);
	free(v);
	if (rc < 0)
		return -1;
	if (json) {
		fprintf(out, "{\"store\": \"%s\", \"n\": %d", pg ? "postgresql" : "sqlite", n);
		for (int i = 0; i < NFIG; i++)
			fprintf(out, ", \"%s_median_ms\": %.4f, \"%s_p99_ms\": %.4f, \"%s_max_ms\": %.4f", fig[i].name,
			        fig[i].median, fig[i].name, fig[i].p99, fig[i].name, fig[i].max);
		fprintf(out, "}\n");
	} else {
		fprintf(out, "store            %s, %d of each\n", pg ? "postgresql" : "sqlite", n);
		for (int i = 0; i < NFIG; i++)
			fprintf(out, "%-16s median %.3f ms, p99 %.3f ms, max %.3f ms\n", fig[i].name, fig[i].median,
			        fig[i].p99, fig[i].max);
	}
	return 0;
}
