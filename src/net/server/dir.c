/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/dir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

struct local {
	long next;
	long *ids;
	int n, cap;
	/* On blocks: the ids from next to end (excluded), then from
	 * after_first for after_count (the block asked ahead). */
	int blocks;
	long end, after_first, after_count, low;
	int asked;
	void (*want)(void *ctx);
	void *want_ctx;
};

static void blocks_check(struct local *l)
{
	if (l->next >= l->end && l->after_count) {
		l->next = l->after_first;
		l->end = l->after_first + l->after_count;
		l->after_count = 0;
	}
	if (!l->asked && !l->after_count && l->end - l->next < l->low && l->want) {
		l->asked = 1;
		l->want(l->want_ctx);
	}
}

static long local_new_id(struct dir *d)
{
	struct local *l = d->impl;
	if (!l->blocks)
		return l->next++;
	blocks_check(l);
	if (l->next >= l->end)
		return -1;
	long id = l->next++;
	blocks_check(l);
	return id;
}

void dir_use_blocks(struct dir *d, long low, void (*want)(void *ctx), void *ctx)
{
	struct local *l = d->impl;
	l->blocks = 1;
	l->next = l->end = 0;
	l->after_count = 0;
	l->low = low;
	l->want = want;
	l->want_ctx = ctx;
	l->asked = 0;
	blocks_check(l);
}

void dir_add_ids(struct dir *d, long first, long count)
{
	struct local *l = d->impl;
	l->asked = 0;
	if (!l->blocks || first <= 0 || count <= 0)
		return;
	if (l->next >= l->end) {
		l->next = first;
		l->end = first + count;
	} else {
		l->after_first = first;
		l->after_count = count;
	}
}

long dir_ids_left(const struct dir *d)
{
	const struct local *l = d->impl;
	return l->blocks ? l->end - l->next + l->after_count : 0;
}

static int local_claim(struct dir *d, long id, const char *owner)
{
	struct local *l = d->impl;
	(void)owner; /* one process: every table is this one's */
	if (id >= l->next && !l->blocks)
		l->next = id + 1;
	for (int i = 0; i < l->n; i++)
		if (l->ids[i] == id)
			return 0;
	xgrow((void **)&l->ids, &l->cap, l->n + 1, sizeof *l->ids);
	l->ids[l->n++] = id;
	return 0;
}

static int local_owner(struct dir *d, long id, char *out, size_t len)
{
	struct local *l = d->impl;
	for (int i = 0; i < l->n; i++)
		if (l->ids[i] == id) {
			snprintf(out, len, "%s", d->self);
			return 1;
		}
	return 0;
}

static void local_release(struct dir *d, long id)
{
	struct local *l = d->impl;
	for (int i = 0; i < l->n; i++)
		if (l->ids[i] == id) {
			l->ids[i] = l->ids[--l->n];
			return;
		}
}

static void local_reserve(struct dir *d, long id)
{
	struct local *l = d->impl;
	if (id >= l->next && !l->blocks)
		l->next = id + 1;
}

static void local_close(struct dir *d)
{
	struct local *l = d->impl;
	if (l)
		free(l->ids);
	free(l);
}

static const struct dir_ops local_ops = {
	.name = "local",
	.new_id = local_new_id,
	.claim = local_claim,
	.owner = local_owner,
	.release = local_release,
	.reserve = local_reserve,
	.close = local_close,
};

int dir_open_local(struct dir *d, const char *self)
{
	memset(d, 0, sizeof *d);
	struct local *l = xcalloc(1, sizeof *l);
	l->next = 1;
	d->ops = &local_ops;
	d->impl = l;
	snprintf(d->self, sizeof d->self, "%s", self);
	return 0;
}

void dir_close(struct dir *d)
{
	if (d->ops)
		d->ops->close(d);
	memset(d, 0, sizeof *d);
}
