/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef TAPIS_NET_DUE_H
#define TAPIS_NET_DUE_H

/* Times things are due, in a min-heap: (when, what) pairs, the earliest
 * first. An entry is never removed in place: whoever pops it checks that
 * it still holds (the lobby: a table's due time, its id), so a change
 * only pushes a new entry. */

struct due_item {
	long long at; /* when, ms */
	long id;      /* what */
};

struct due {
	struct due_item *v;
	int n, cap;
};

void due_push(struct due *d, long long at, long id);
/* 1 and the earliest entry in *out (removed) if it is due at now_ms or
 * before; 0 when none is. */
int due_pop(struct due *d, long long now_ms, struct due_item *out);
void due_clear(struct due *d);
void due_free(struct due *d);

#endif
