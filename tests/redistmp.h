/* SPDX-License-Identifier: GPL-3.0-or-later */
/* redistmp: a redis-server of the tests' own (Debian's redis-server): a
 * free loopback port, a temporary folder, nothing saved; it dies with the
 * process that started it, and redistmp_stop removes it. And a few
 * synchronous commands on it (hiredis). */
#ifndef TAPIS_TESTS_REDISTMP_H
#define TAPIS_TESTS_REDISTMP_H

#include <stddef.h>
#include <sys/types.h>

struct redistmp {
	pid_t pid;
	int port;
	char dir[64];
	char url[64];       /* redis://127.0.0.1:PORT */
};

/* 0 when it answers; -1 when redis-server is not installed or did not start. */
int redistmp_start(struct redistmp *r);
void redistmp_stop(struct redistmp *r);
/* Kill it (kill -9), its folder kept; start it again, empty, on the same
 * port (0, or -1 when it did not answer). */
void redistmp_kill(struct redistmp *r);
int redistmp_restart(struct redistmp *r);
/* A free loopback port (-1 none). */
int redistmp_free_port(void);
/* A command's answer: an integer (-1 when not one), or a string into out
 * ("" when nil; 0 found, -1 not a string). */
long long redistmp_int(const struct redistmp *r, const char *fmt, const char *arg);
int redistmp_str(const struct redistmp *r, const char *fmt, const char *arg, char *out, size_t len);

#endif
