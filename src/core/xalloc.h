/* SPDX-License-Identifier: GPL-3.0-or-later */
/* xalloc: the allocation policy (docs/architecture.md, Conventions). A
 * small internal allocation (a state, a table, a copy of a string, an array
 * that doubles) cannot fail in any way a player could act on, so these stop
 * the program with a message on standard error (exit status 1, an internal
 * error) instead of passing NULL up. A size that comes from outside (a
 * file, a message of the network) is bounded before it is allocated. */
#ifndef TAPIS_XALLOC_H
#define TAPIS_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* Room for need elements of size bytes in the array *p of *cap elements:
 * the capacity doubles (from 16) until it holds them. */
void xgrow(void **p, int *cap, int need, size_t size);
/* The same for a capacity counted in size_t (a buffer of bytes, samples). */
void xgrowz(void **p, size_t *cap, size_t need, size_t size);

#endif
