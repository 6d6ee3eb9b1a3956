/* SPDX-License-Identifier: GPL-3.0-or-later */
/* num: strict decimal numbers from the command line and from files: digits
 * only (a '-' first where negative numbers are allowed), no space, no '+',
 * nothing after, within the bounds. */
#ifndef TAPIS_NUM_H
#define TAPIS_NUM_H

#include <stdint.h>

/* 0 and *out, or -1 when s is not such a number within lo..hi. */
int num_parse(const char *s, long long lo, long long hi, long long *out);
/* The same for an unsigned number up to hi. */
int num_parse_u64(const char *s, uint64_t hi, uint64_t *out);
/* v brought within lo..hi (lo <= hi). */
int num_clamp(int v, int lo, int hi);

#endif
