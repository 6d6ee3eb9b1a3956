/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_bench: the `tapis bench` command line (docs/tapis.6, BENCH) and its
 * report, beside the bench of a server it drives (net/client/bench_net). */
#ifndef TAPIS_CMD_BENCH_H
#define TAPIS_CMD_BENCH_H

#include <stdio.h>

#include "net/client/bench_net.h"

/* What main hands down to `tapis bench`: local, the figures of app/bench
 * (they measure the speech queue, which net/ does not reach); store, the
 * store's (net/store's bench_store_run); spawn, a server of the bench's
 * own. */
struct bench_parts {
	int (*local)(int json, FILE *out);
	int (*store)(const char *where, int n, int json, FILE *out, char *err, size_t errlen);
	bench_net_spawn_fn spawn;
};
/* `tapis bench [--json]`, `tapis bench --store URL|FILE` and `tapis bench
 * --net [URL] ...`: argv[0] is "bench"; prints the figures; returns the
 * exit status. */
int bench_main(int argc, char **argv, FILE *out, const struct bench_parts *parts);

#endif
