/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/due.h"

#include <stdlib.h>

#include "core/xalloc.h"

static int before(const struct due_item *a, const struct due_item *b)
{
	return a->at < b->at || (a->at == b->at && a->id < b->id);
}

void due_push(struct due *d, long long at, long id)
{
	xgrow((void **)&d->v, &d->cap, d->n + 1, sizeof *d->v);
	int i = d->n++;
	struct due_item x = { at, id };
	while (i > 0) {
		int up = (i - 1) / 2;
		if (!before(&x, &d->v[up]))
			break;
		d->v[i] = d->v[up];
		i = up;
	}
	d->v[i] = x;
}

int due_pop(struct due *d, long long now_ms, struct due_item *out)
{
	if (!d->n || d->v[0].at > now_ms)
		return 0;
	*out = d->v[0];
	struct due_item x = d->v[--d->n];
	int i = 0;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= d->n)
			break;
		if (c + 1 < d->n && before(&d->v[c + 1], &d->v[c]))
			c++;
		if (!before(&d->v[c], &x))
			break;
		d->v[i] = d->v[c];
		i = c;
	}
	if (d->n)
		d->v[i] = x;
	return 1;
}

void due_clear(struct due *d)
{
	d->n = 0;
}

void due_free(struct due *d)
{
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}
