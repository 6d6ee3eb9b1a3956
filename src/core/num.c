/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/num.h"

#include <errno.h>
#include <stdlib.h>

static int all_digits(const char *s)
{
	if (*s < '0' || *s > '9')
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

int num_parse(const char *s, long long lo, long long hi, long long *out)
{
	if (!s || !all_digits(s[0] == '-' ? s + 1 : s))
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

int num_parse_u64(const char *s, uint64_t hi, uint64_t *out)
{
	if (!s || !all_digits(s))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > hi)
		return -1;
	*out = v;
	return 0;
}

int num_clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}
