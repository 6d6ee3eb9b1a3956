/* SPDX-License-Identifier: GPL-3.0-or-later */
/* err: the one way library code says why it failed. A function that can
 * fail returns 0 or -1 and takes `char *err, size_t errlen`; on failure it
 * ends with `return errf(err, errlen, "...", ...)`. */
#ifndef TAPIS_ERR_H
#define TAPIS_ERR_H

#include <stddef.h>

enum { ERR_MAX = 1024 };   /* a buffer for an error message */

/* Write the message (printf format) into err, cut to errlen bytes with its
 * NUL; err may be NULL or errlen 0 (the message is then dropped).
 * Returns -1. */
int errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
