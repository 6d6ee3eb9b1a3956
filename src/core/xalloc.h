/* SPDX-License-Identifier: GPL-3.0-or-later */
/* xalloc: the allocation policy. A small internal allocation (a state, a
 * buffer of a known bounded size, a copy of a string) cannot fail in any
 * way a player could act on, so xmalloc and its kin stop the program with a
 * message on standard error (exit status 1, an internal error) instead of
 * passing NULL up. A size that comes from outside (a file, the network)
 * is bounded before it is allocated, and the few allocations whose failure
 * must be survived (the server's, per connection) keep calling malloc and
 * say so where they do. */
#ifndef TAPIS_XALLOC_H
#define TAPIS_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif
