/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/err.h"

#include <stdarg.h>
#include <stdio.h>

int errf(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}
