/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *checked(void *p, size_t size)
{
	if (!p && size) {
		fprintf(stderr, "tapis: out of memory (%zu bytes)\n", size);
		exit(1);
	}
	return p;
}

void *xmalloc(size_t size)
{
	return checked(malloc(size ? size : 1), size ? size : 1);
}

void *xcalloc(size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size)
		return checked(NULL, (size_t)-1);
	return checked(calloc(n ? n : 1, size ? size : 1), 1);
}

void *xrealloc(void *p, size_t size)
{
	return checked(realloc(p, size ? size : 1), size ? size : 1);
}

void xgrow(void **p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return;
	int c = *cap ? *cap * 2 : 16;
	while (c < need)
		c *= 2;
	*p = xrealloc(*p, (size_t)c * size);
	*cap = c;
}

void xgrowz(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap * 2 : 16;
	while (c < need)
		c *= 2;
	if (size && c > (size_t)-1 / size)
		checked(NULL, (size_t)-1);
	*p = xrealloc(*p, c * size);
	*cap = c;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}
