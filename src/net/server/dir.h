/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dir: the table directory, which process owns table T and which table ids
 * are free. The "local" directory answers itself for every table; in a
 * cluster (docs/cluster.md) its ids come from blocks that net/clnet takes
 * from Redis (dir_use_blocks), so that no two processes sharing a store
 * give the same id; which node runs another's table is net/clnet's (the
 * lobby's rows). */
#ifndef TAPIS_DIR_H
#define TAPIS_DIR_H

#include <stddef.h>

#define DIR_OWNER_MAX 64

struct dir;

struct dir_ops {
	const char *name;
	/* A fresh table id, never given before. */
	long (*new_id)(struct dir *d);
	/* Record that owner hosts table id (a restored table claims its id). */
	int (*claim)(struct dir *d, long id, const char *owner);
	/* The owner of table id into out: 1, or 0 when nobody hosts it. */
	int (*owner)(struct dir *d, long id, char *out, size_t len);
	/* The table is gone. */
	void (*release)(struct dir *d, long id);
	/* Ids up to id were given before (the store remembers them): never
	 * again. */
	void (*reserve)(struct dir *d, long id);
	void (*close)(struct dir *d);
};

struct dir {
	const struct dir_ops *ops;
	char self[DIR_OWNER_MAX];   /* this process's name as an owner */
	void *impl;
};

/* The in-process directory; self names this process. 0 or -1. */
int dir_open_local(struct dir *d, const char *self);
/* Several processes sharing one store (net/clnet): the in-process
 * directory's new ids come only from blocks given with dir_add_ids (a
 * cluster's blocks never overlap), and new_id answers -1 when none is
 * left. want is called (at most once until a block comes) when fewer than
 * low ids are left. */
void dir_use_blocks(struct dir *d, long low, void (*want)(void *ctx), void *ctx);
void dir_add_ids(struct dir *d, long first, long count);
/* Ids left in the blocks (0 when not on blocks). */
long dir_ids_left(const struct dir *d);
void dir_close(struct dir *d);

#endif
