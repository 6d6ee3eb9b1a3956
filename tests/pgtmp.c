/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "pgtmp.h"

#include <errno.h>
#include <glob.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"

/* A free loopback port: bound to port 0, read, let go. */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof a;
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* Run argv (argv[0] a path), as the postgres user when we are root, its
 * output into the folder's log; its exit status, or -1. */
static int run_as_pg(const struct pgtmp *p, char *const argv[])
{
	struct passwd *pw = geteuid() == 0 ? getpwnam("postgres") : NULL;
	if (geteuid() == 0 && !pw)
		return -1;
	char log[128];
	snprintf(log, sizeof log, "%s/setup.log", p->dir);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (pw && (setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0))
			_exit(126);
		if (!freopen(log, "a", stdout) || !freopen(log, "a", stderr))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	int status = 0;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The newest installed version's binaries; 0 when there are none. */
static int find_bin(struct pgtmp *p)
{
	glob_t g;
	int found = 0;
	if (glob("/usr/lib/postgresql/*/bin/pg_ctl", 0, NULL, &g) == 0 && g.gl_pathc) {
		/* glob sorts: the last is the highest version of one digit
		 * count; Debian installs one in practice. */
		snprintf(p->bin, sizeof p->bin, "%s", g.gl_pathv[g.gl_pathc - 1]);
		*strrchr(p->bin, '/') = '\0';
		found = 1;
	}
	globfree(&g);
	return found;
}

int pgtmp_start(struct pgtmp *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	if (!find_bin(p)) {
		errf(err, errlen, "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl)");
		return 0;
	}
	if (geteuid() == 0 && !getpwnam("postgres")) {
		errf(err, errlen, "running as root and no postgres user to run PostgreSQL as");
		return 0;
	}
	snprintf(p->dir, sizeof p->dir, "/tmp/tapis-pg-XXXXXX");
	if (!mkdtemp(p->dir)) {
		p->dir[0] = '\0';
		return errf(err, errlen, "mkdtemp: %s", strerror(errno));
	}
	struct passwd *pw = geteuid() == 0 ? getpwnam("postgres") : NULL;
	if (pw && chown(p->dir, pw->pw_uid, pw->pw_gid) != 0) {
		pgtmp_stop(p);
		return errf(err, errlen, "chown %s: %s", p->dir, strerror(errno));
	}
	char initdb[300], data[128], conf[160], log[128];
	snprintf(initdb, sizeof initdb, "%s/initdb", p->bin);
	snprintf(data, sizeof data, "%s/data", p->dir);
	snprintf(log, sizeof log, "%s/server.log", p->dir);
	char *const init_argv[] = { initdb, "-D", data, "-U", "tapis", "-A", "trust", "-E", "UTF8",
		                    "--locale=C", "--no-sync", NULL };
	if (run_as_pg(p, init_argv) != 0) {
		errf(err, errlen, "initdb failed (see %s/setup.log)", p->dir);
		return -1; /* the folder is left for the log; pgtmp_stop removes it */
	}
	p->port = free_port();
	snprintf(conf, sizeof conf, "%s/postgresql.conf", data);
	FILE *f = fopen(conf, "a");
	if (!f || p->port <= 0)
		return errf(err, errlen, "cannot configure %s", conf);
	fprintf(f, "listen_addresses = '127.0.0.1'\nport = %d\nunix_socket_directories = '%s'\n"
	           "fsync = off\nfull_page_writes = off\nsynchronous_commit = off\nmax_connections = 50\n",
	        p->port, p->dir);
	fclose(f);
	if (pgtmp_resume(p) < 0)
		return errf(err, errlen, "pg_ctl start failed (see %s)", log);
	return 1;
}

int pgtmp_resume(struct pgtmp *p)
{
	char pg_ctl[300], data[128], log[128];
	snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", p->bin);
	snprintf(data, sizeof data, "%s/data", p->dir);
	snprintf(log, sizeof log, "%s/server.log", p->dir);
	char *const argv[] = { pg_ctl, "-w", "-t", "60", "-D", data, "-l", log, "start", NULL };
	if (run_as_pg(p, argv) != 0)
		return -1;
	p->up = 1;
	return 0;
}

int pgtmp_halt(struct pgtmp *p)
{
	char pg_ctl[300], data[128];
	snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", p->bin);
	snprintf(data, sizeof data, "%s/data", p->dir);
	char *const argv[] = { pg_ctl, "-D", data, "-m", "fast", "-w", "stop", NULL };
	if (run_as_pg(p, argv) != 0)
		return -1;
	p->up = 0;
	return 0;
}

void pgtmp_stop(struct pgtmp *p)
{
	if (!p->dir[0])
		return;
	if (p->up) {
		char pg_ctl[300], data[128];
		snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", p->bin);
		snprintf(data, sizeof data, "%s/data", p->dir);
		char *const argv[] = { pg_ctl, "-D", data, "-m", "immediate", "-w", "stop", NULL };
		run_as_pg(p, argv);
		p->up = 0;
	}
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", p->dir);
	if (system(cmd) != 0)
		fprintf(stderr, "pgtmp: cannot remove %s\n", p->dir);
	p->dir[0] = '\0';
}

static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

int pgtmp_sql(const char *url, const char *sql, char *err, size_t errlen)
{
	PGconn *c = PQconnectdb(url);
	if (!c || PQstatus(c) != CONNECTION_OK) {
		errf(err, errlen, "%s", c ? PQerrorMessage(c) : "out of memory");
		PQfinish(c);
		return -1;
	}
	PQsetNoticeProcessor(c, quiet, NULL); /* "does not exist, skipping" */
	PGresult *r = PQexec(c, sql);
	int ok = r && (PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK);
	if (!ok)
		errf(err, errlen, "%s", PQerrorMessage(c));
	PQclear(r);
	PQfinish(c);
	return ok ? 0 : -1;
}

int pgtmp_db(const struct pgtmp *p, const char *name, char *url, size_t len, char *err, size_t errlen)
{
	char admin[160], sql[256];
	snprintf(admin, sizeof admin, "postgresql://tapis@127.0.0.1:%d/postgres", p->port);
	snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS \"%s\"", name);
	if (pgtmp_sql(admin, sql, err, errlen) < 0)
		return -1;
	snprintf(sql, sizeof sql, "CREATE DATABASE \"%s\"", name);
	if (pgtmp_sql(admin, sql, err, errlen) < 0)
		return -1;
	snprintf(url, len, "postgresql://tapis@127.0.0.1:%d/%s", p->port, name);
	return 0;
}

int pgtmp_missing_fails(const char *why)
{
	const char *ci = getenv("CI");
	int fails = ci && !strcmp(ci, "true");
	fprintf(stderr, "PostgreSQL tests %s: %s\n", fails ? "FAIL (CI=true)" : "skipped", why);
	return fails;
}
