/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "redistmp.h"

#include <arpa/inet.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int find_redis(char *out, size_t len)
{
	const char *path = getenv("PATH");
	char buf[4096];
	snprintf(buf, sizeof buf, "%s:/usr/bin:/usr/sbin", path ? path : "");
	for (char *save = NULL, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/redis-server", d);
		if (access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

int redistmp_free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t n = sizeof a;
	int port = -1;
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && getsockname(fd, (struct sockaddr *)&a, &n) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static pid_t spawn(const char *bin, int port, const char *dir)
{
	char p[16], log[128];
	snprintf(p, sizeof p, "%d", port);
	snprintf(log, sizeof log, "%s/redis.log", dir);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* it ends with whoever started it */
		if (!freopen(log, "w", stdout))
			_exit(127);
		execl(bin, bin, "--port", p, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir,
		      (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* 1 once pid answers on port, 0 when it ended or did not within 5 s. */
static int answers(pid_t pid, int port)
{
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return 0; /* the port was taken */
		struct timeval tv = { 2, 0 };
		redisContext *rc = redisConnectWithTimeout("127.0.0.1", port, tv);
		int ok = 0;
		if (rc && !rc->err) {
			redisReply *r = redisCommand(rc, "PING");
			ok = r && r->type == REDIS_REPLY_STATUS;
			freeReplyObject(r);
		}
		if (rc)
			redisFree(rc);
		if (ok)
			return 1;
		usleep(50000);
	}
	return 0;
}

int redistmp_start(struct redistmp *r)
{
	memset(r, 0, sizeof *r);
	char bin[4200];
	if (find_redis(bin, sizeof bin) < 0)
		return -1;
	snprintf(r->dir, sizeof r->dir, "/tmp/tapis-redis-XXXXXX");
	if (!mkdtemp(r->dir)) {
		r->dir[0] = '\0';
		return -1;
	}
	for (int attempt = 0; attempt < 5; attempt++) {
		int port = redistmp_free_port();
		r->pid = spawn(bin, port, r->dir);
		if (r->pid < 0)
			break;
		if (answers(r->pid, port)) {
			r->port = port;
			snprintf(r->url, sizeof r->url, "redis://127.0.0.1:%d", port);
			return 0;
		}
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
	}
	r->pid = 0;
	redistmp_stop(r);
	return -1;
}

void redistmp_kill(struct redistmp *r)
{
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
		r->pid = 0;
	}
}

int redistmp_restart(struct redistmp *r)
{
	char bin[4200];
	redistmp_kill(r);
	if (find_redis(bin, sizeof bin) < 0 || (r->pid = spawn(bin, r->port, r->dir)) < 0) {
		r->pid = 0;
		return -1;
	}
	if (answers(r->pid, r->port))
		return 0;
	redistmp_kill(r);
	return -1;
}

void redistmp_stop(struct redistmp *r)
{
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
		r->pid = 0;
	}
	if (r->dir[0]) {
		char p[128];
		snprintf(p, sizeof p, "%s/redis.log", r->dir);
		unlink(p);
		rmdir(r->dir);
		r->dir[0] = '\0';
	}
}

/* One command on a link of its own (2 s to connect). */
static redisReply *ask(const struct redistmp *r, const char *fmt, const char *arg)
{
	struct timeval tv = { 2, 0 };
	redisContext *rc = redisConnectWithTimeout("127.0.0.1", r->port, tv);
	if (!rc || rc->err) {
		if (rc)
			redisFree(rc);
		return NULL;
	}
	redisReply *rep = redisCommand(rc, fmt, arg);
	redisFree(rc);
	return rep;
}

long long redistmp_int(const struct redistmp *r, const char *fmt, const char *arg)
{
	redisReply *rep = ask(r, fmt, arg);
	long long v = rep && rep->type == REDIS_REPLY_INTEGER ? rep->integer : -1;
	freeReplyObject(rep);
	return v;
}

int redistmp_str(const struct redistmp *r, const char *fmt, const char *arg, char *out, size_t len)
{
	redisReply *rep = ask(r, fmt, arg);
	int rc = -1;
	out[0] = '\0';
	if (rep && (rep->type == REDIS_REPLY_STRING || rep->type == REDIS_REPLY_STATUS)) {
		snprintf(out, len, "%s", rep->str);
		rc = 0;
	} else if (rep && rep->type == REDIS_REPLY_NIL) {
		rc = 0;
	}
	freeReplyObject(rep);
	return rc;
}
