/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE
#include "redistmp.h"

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

static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t n = sizeof a;
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && getsockname(fd, (struct sockaddr *)&a, &n) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static redisContext *link_to(int port)
{
	struct timeval tv = { 2, 0 };
	redisContext *rc = redisConnectWithTimeout("127.0.0.1", port, tv);
	if (rc && rc->err) {
		redisFree(rc);
		return NULL;
	}
	return rc;
}

static int answers(pid_t pid, int port)
{
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return 0; /* the port was taken */
		redisContext *rc = link_to(port);
		int ok = 0;
		if (rc) {
			redisReply *r = redisCommand(rc, "PING");
			ok = r && r->type == REDIS_REPLY_STATUS;
			freeReplyObject(r);
			redisFree(rc);
		}
		if (ok)
			return 1;
		usleep(50000);
	}
	return 0;
}

int redistmp_start(struct redistmp *r)
{
	memset(r, 0, sizeof *r);
	const char *path = getenv("PATH");
	char dirs[4096], bin[4200] = "";
	snprintf(dirs, sizeof dirs, "%s:/usr/bin:/usr/sbin", path ? path : "");
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d && !bin[0]; d = strtok_r(NULL, ":", &save)) {
		snprintf(bin, sizeof bin, "%s/redis-server", d);
		if (access(bin, X_OK) != 0)
			bin[0] = '\0';
	}
	snprintf(r->dir, sizeof r->dir, "/tmp/tapis-redis-XXXXXX");
	if (!bin[0] || !mkdtemp(r->dir)) {
		r->dir[0] = '\0';
		return -1;
	}
	for (int attempt = 0; attempt < 5; attempt++) {
		int port = free_port();
		char p[16], log[128];
		snprintf(p, sizeof p, "%d", port);
		snprintf(log, sizeof log, "%s/redis.log", r->dir);
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL); /* it ends with whoever started it */
			if (!freopen(log, "w", stdout))
				_exit(127);
			execl(bin, bin, "--port", p, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir",
			      r->dir, (char *)NULL);
			_exit(127);
		}
		if (answers(pid, port)) {
			r->pid = pid;
			r->port = port;
			snprintf(r->url, sizeof r->url, "redis://127.0.0.1:%d", port);
			return 0;
		}
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	redistmp_stop(r);
	return -1;
}

void redistmp_stop(struct redistmp *r)
{
	if (r->pid > 0) {
		kill(r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
	}
	r->pid = 0;
	if (r->dir[0]) {
		char p[128];
		snprintf(p, sizeof p, "%s/redis.log", r->dir);
		unlink(p);
		rmdir(r->dir);
		r->dir[0] = '\0';
	}
}

static redisReply *ask(const struct redistmp *r, const char *fmt, const char *arg)
{
	redisContext *rc = link_to(r->port);
	if (!rc)
		return NULL;
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
