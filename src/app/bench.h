/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench: `tapis bench`, the performance figures (docs/tapis.6, BENCH). */
#ifndef TAPIS_BENCH_H
#define TAPIS_BENCH_H

#include <stdio.h>

/* Print the table (or one JSON object); returns the exit status. */
int bench_run(int json, FILE *out);

#endif
