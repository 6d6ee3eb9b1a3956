/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What an operator runs the server by: GET /healthz and /metrics (their
 * figures moving with a game played, the store failing), SIGHUP (the
 * connections kept, a changed setting applied), an idle server asleep,
 * a WebSocket client without the subprotocol refused with a reason. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "net/server/cmd_admin.h"
#include "net/server/cmd_serve.h"
#include "net/server/health.h"
#include "net/server/metrics.h"
#include "net/server/sdnotify.h"
#include "net/store/store.h"
#include "netutil.h"
#include "testutil.h"

/* A raw request to the server's port; what came back (malloc'd), read
 * until the answer's length is in or the server closes. */
static char *raw(int port, const char *request)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
	struct timeval tv = { 10, 0 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	size_t n = strlen(request);
	ck_assert_int_eq(write(fd, request, n), (ssize_t)n);
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);
	for (;;) {
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r <= 0)
			break;
		len += (size_t)r;
		buf[len] = '\0';
		char *end = strstr(buf, "\r\n\r\n");
		const char *cl = strcasestr(buf, "content-length:");
		if (end && cl && cl < end && len >= (size_t)(end + 4 - buf) + strtoul(cl + 15, NULL, 10))
			break;
	}
	buf[len] = '\0';
	close(fd);
	return buf;
}

static char *get(int port, const char *path)
{
	char req[256];
	snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", path);
	return raw(port, req);
}

static int status_of(const char *answer)
{
	ck_assert_msg(!strncmp(answer, "HTTP/1.", 7) && answer[8] == ' ', "not an HTTP answer: %.80s", answer);
	return atoi(answer + 9);
}

/* The value of the sample named (with its labels, as written), or -1
 * when it is not there. */
static double sample(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ' ')
			return strtod(p + n + 1, NULL);
	return -1;
}

static double metric(struct srv *s, const char *name)
{
	char *m = get(s->port, "/metrics");
	ck_assert_int_eq(status_of(m), 200);
	ck_assert_ptr_nonnull(strstr(m, "text/plain; version=0.0.4"));
	double v = sample(m, name);
	ck_assert_msg(v >= 0, "no %s in %s", name, m);
	free(m);
	return v;
}

/* GET /healthz says ok while the loop turns and the store answers; GET
 * /metrics tells the people, the tables and the actions, and its figures
 * move with a game played. */
START_TEST(test_health_and_metrics)
{
	struct srv s;
	srv_start(&s);
	char *h = get(s.port, "/healthz");
	ck_assert_int_eq(status_of(h), 200);
	ck_assert_msg(strstr(h, "\r\n\r\nok\n"), "%s", h);
	free(h);
	ck_assert(metric(&s, "tapis_up") == 1);
	ck_assert(metric(&s, "tapis_people") == 0);
	ck_assert(metric(&s, "tapis_actions_total") == 0);
	ck_assert(metric(&s, "tapis_tables{state=\"playing\",game=\"brouc\"}") == 0);
	static struct tc a;
	tc_login(&a, &s, "Anne", "en", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	ck_assert(metric(&s, "tapis_people") == 1);
	ck_assert(metric(&s, "tapis_connections") == 1);
	ck_assert(metric(&s, "tapis_tables{state=\"waiting\",game=\"brouc\"}") == 1);
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	tc_wait(&a, "state");
	ck_assert(metric(&s, "tapis_tables{state=\"playing\",game=\"brouc\"}") == 1);
	struct tc *all[] = { &a };
	play_until(all, 1, NULL, NULL);
	/* Every move of the deal is counted, people's and bots' (a deal of
	 * Le Brouc is 32 cards played at least), and was timed. */
	double acts = metric(&s, "tapis_actions_total");
	ck_assert_msg(acts >= 32, "%g actions", acts);
	ck_assert(metric(&s, "tapis_store_journal_write_seconds_count") == acts);
	ck_assert(metric(&s, "tapis_store_journal_write_seconds_bucket{le=\"+Inf\"}") == acts);
	ck_assert(metric(&s, "tapis_actions_per_second") > 0);
	ck_assert(metric(&s, "tapis_tables{state=\"over\",game=\"brouc\"}") == 1);
	ck_assert(metric(&s, "tapis_tables{state=\"playing\",game=\"brouc\"}") == 0);
	ck_assert(metric(&s, "tapis_memory_resident_bytes") > 1e6);
	ck_assert(metric(&s, "tapis_loop_lag_milliseconds{quantile=\"0.99\"}") >= 0);
	ck_assert(metric(&s, "tapis_loop_wakeups_total") > 0);
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

/* The store refusing writes makes the server unwell (503, and why);
 * a write that works again makes it well. */
START_TEST(test_health_store)
{
	struct store st;
	char err[256];
	ck_assert_int_eq(store_open(&st, "memory", "", err, sizeof err), 0);
	struct health h = { 0 };
	struct ws_stats w = { 0 };
	w.tick_ms = 1000;
	int status = 0;
	char *t = health_text(&h, &st, &w, 1000, &status);
	ck_assert_int_eq(status, 200);
	free(t);
	store_memory_full(&st, 1);
	ck_assert_int_lt(store_journal_add(&st, 1, 0, 0, "pass"), 0);
	t = health_text(&h, &st, &w, 1500, &status);
	ck_assert_int_eq(status, 503);
	ck_assert_msg(strstr(t, "unwell: the store refuses writes"), "%s", t);
	free(t);
	store_memory_full(&st, 0);
	ck_assert_int_eq(store_journal_add(&st, 1, 0, 0, "pass"), 0);
	t = health_text(&h, &st, &w, 2000, &status);
	ck_assert_int_eq(status, 200);
	free(t);
	/* A loop that lags, or whose tick stopped, is unwell too. */
	w.lag_p99_ms = HEALTH_LAG_MS + 1;
	t = health_text(&h, &st, &w, 2000, &status);
	ck_assert_int_eq(status, 503);
	ck_assert_msg(strstr(t, "the loop lags"), "%s", t);
	free(t);
	w.lag_p99_ms = 0;
	t = health_text(&h, &st, &w, 1000 + HEALTH_STALL_MS + 1, &status);
	ck_assert_int_eq(status, 503);
	ck_assert_msg(strstr(t, "tick has not come"), "%s", t);
	free(t);
	store_close(&st);
}
END_TEST

/* Actions a second over the window. */
START_TEST(test_metrics_rate)
{
	struct metrics m;
	metrics_init(&m, 0);
	ck_assert(metrics_rate(&m, 0, 0) == 0);
	for (int i = 0; i <= 20; i++)
		metrics_tick(&m, i * 5LL, i * 1000LL);
	ck_assert(metrics_rate(&m, 100, 20000) > 4.9 && metrics_rate(&m, 100, 20000) < 5.1);
	/* Ticks closer than a second are not samples. */
	metrics_tick(&m, 1000, 20100);
	ck_assert(metrics_rate(&m, 100, 20000) > 4.9);
}
END_TEST

/* An idle server (nobody connected, no table) sleeps: its loop wakes a
 * few times a second, not every 5 ms (counted by the loop itself). */
START_TEST(test_idle_sleeps)
{
	struct srv s;
	srv_make(&s);
	srv_counters(&s);
	srv_run(&s);
	usleep(300 * 1000);
	long before = s.counters->rounds;
	sleep(2);
	long woke = s.counters->rounds - before;
	ck_assert_msg(woke < 40, "an idle server woke %ld times in 2 s", woke);
	/* A person coming wakes it up: the lobby answers as ever. */
	static struct tc a;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

/* A WebSocket handshake without the subprotocol tapis is refused with
 * the reason, not taken and then left silent. */
START_TEST(test_subprotocol_refused)
{
	struct srv s;
	srv_start(&s);
	char *r = raw(s.port, "GET /?lang=fr HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
	                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
	ck_assert_msg(status_of(r) == 400, "%s", r);
	ck_assert_msg(strstr(r, "tapis"), "%s", r);
	free(r);
	ck_assert(metric(&s, "tapis_refused_protocol_total") == 1);
	/* With it, the lobby as ever. */
	static struct tc a;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

static int count_type(const struct tc *t, const char *type)
{
	int n = 0;
	for (int i = 0; i < t->n; i++)
		n += !strcmp(mtype(t->msg[i]), type);
	return n;
}

/* A port free on the loopback now. */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	socklen_t n = sizeof a;
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &n), 0);
	close(fd);
	return ntohs(a.sin_port);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* 1 once the file holds part (looked at for 20 s at most). */
static int file_says(const char *path, const char *part)
{
	for (int i = 0; i < 400; i++) {
		FILE *f = fopen(path, "r");
		char buf[8192];
		size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
		if (f)
			fclose(f);
		buf[n] = '\0';
		if (strstr(buf, part))
			return 1;
		usleep(50 * 1000);
	}
	return 0;
}

/* SIGHUP: the configuration file read again, a changed limit in force
 * at once, and every connection kept (the server as tapis serve runs
 * it: its file, its command line). */
/* A server as tapis serve runs it, with the settings of conf (its
 * file in the server's folder, named in conf_path) and its log in errs. */
static void serve_with(struct srv *s, const char *text, char *conf, char *errs)
{
	char port[16];
	srv_make(s);
	snprintf(conf, 128, "%s/server.conf", s->dir);
	snprintf(errs, 160, "%s/stderr.txt", s->dir);
	write_file(conf, text);
	s->port = free_port();
	snprintf(port, sizeof port, "%d", s->port);
	snprintf(s->url, sizeof s->url, "ws://127.0.0.1:%d", s->port);
	s->pid = fork();
	ck_assert_int_ge(s->pid, 0);
	if (s->pid == 0) {
		if (!freopen(errs, "a", stderr))
			_exit(1);
		setvbuf(stderr, NULL, _IONBF, 0);
		alarm(60);
		char *argv[] = { "serve", "--config", conf, "--port", port, "--db", s->db, "--bot-delay", "0", NULL };
		exit(serve_main(9, argv, NULL, NULL));
	}
	ck_assert(file_says(errs, "listening on"));
}

/* The chat's flood rules are settings: two lines in the window, and the
 * first refusal mutes. */
START_TEST(test_chat_flood_settings)
{
	struct srv s;
	char conf[128], errs[160];
	serve_with(&s, "[limits]\nchat-lines = 2\nchat-strikes = 1\nchat-mute-minutes = 7\n", conf, errs);
	static struct tc a;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_send(&a, "{\"type\":\"chat\",\"text\":\"one\"}");
	tc_wait(&a, "chat");
	tc_send(&a, "{\"type\":\"chat\",\"text\":\"two\"}");
	tc_wait(&a, "chat");
	tc_send(&a, "{\"type\":\"chat\",\"text\":\"three\"}");
	json_t *e = tc_wait(&a, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "muted");
	ck_assert_str_eq(json_string_value(json_object_get(e, "message")),
	                 "You are muted for 7 minutes: too many lines at once.");
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

START_TEST(test_sighup_reloads)
{
	struct srv s;
	char conf[128], errs[160];
	serve_with(&s, "[limits]\nrate = 100\nburst = 100\n", conf, errs);
	static struct tc a;
	tc_login(&a, &s, "Anne", "en", NULL);
	/* 30 at once: under the burst of the file. */
	for (int i = 0; i < 30; i++)
		tc_send(&a, "{\"type\":\"ping\"}");
	for (int i = 0; i < 400 && count_type(&a, "pong") < 30; i++)
		netc_service(a.c, 5);
	ck_assert_int_eq(count_type(&a, "pong"), 30);
	ck_assert_int_eq(count_type(&a, "error"), 0);
	write_file(conf, "[limits]\nrate = 1\nburst = 2\n");
	ck_assert_int_eq(kill(s.pid, SIGHUP), 0);
	ck_assert_msg(file_says(errs, "reload: settings read again"), "no reload");
	ck_assert(srv_alive(&s));
	/* Anne is still there, now under the new limit. */
	ck_assert(netc_connected(a.c));
	for (int i = 0; i < 10; i++)
		tc_send(&a, "{\"type\":\"ping\"}");
	json_t *e = tc_wait(&a, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "rate");
	/* A file that no longer reads changes nothing, and the server stays. */
	write_file(conf, "[limits]\nrate = many\n");
	ck_assert_int_eq(kill(s.pid, SIGHUP), 0);
	ck_assert(file_says(errs, "the settings stay as they were"));
	ck_assert(netc_connected(a.c));
	tc_free(&a);
	srv_stop(&s);
}
END_TEST

/* The next datagram systemd would get, or "" after 10 s. */
static void notified(int fd, char *buf, size_t len)
{
	ssize_t n = recv(fd, buf, len - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
}

/* Under systemd (NOTIFY_SOCKET, WATCHDOG_USEC): READY=1 once listening,
 * WATCHDOG=1 from the loop, STOPPING=1 at the end. Built without
 * libsystemd, the null version says nothing and the server runs alike. */
START_TEST(test_sd_notify)
{
	struct srv s;
	srv_make(&s);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof a.sun_path, "%s/notify", s.dir);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	struct timeval tv = { 10, 0 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setenv("NOTIFY_SOCKET", a.sun_path, 1);
	setenv("WATCHDOG_USEC", "200000", 1);
	srv_run(&s);
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
	char buf[512];
	if (sdnotify_built()) {
		notified(fd, buf, sizeof buf);
		ck_assert_msg(strstr(buf, "READY=1"), "first: '%s'", buf);
		int pings = 0;
		for (int i = 0; i < 3; i++) {
			notified(fd, buf, sizeof buf);
			pings += !strcmp(buf, "WATCHDOG=1");
		}
		ck_assert_int_eq(pings, 3);
	}
	static struct tc c;
	tc_login(&c, &s, "Anne", "en", NULL);
	tc_free(&c);
	ck_assert_int_eq(kill(s.pid, SIGTERM), 0);
	if (sdnotify_built()) {
		do
			notified(fd, buf, sizeof buf);
		while (buf[0] && strcmp(buf, "STOPPING=1"));
		ck_assert_str_eq(buf, "STOPPING=1");
	}
	int status = 0;
	ck_assert_int_eq(waitpid(s.pid, &status, 0), s.pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s.dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The two calls that put a worker below the loop refused, as a unit's
 * SystemCallFilter=~@resources does (this process and its children). */
static void refuse_priority(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_sched_setscheduler, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_setpriority, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = { (unsigned short)(sizeof f / sizeof f[0]), f };
	ck_assert_int_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ck_assert_int_eq(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog), 0);
}

/* How many times the file holds part. */
static int file_count(const char *path, const char *part)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0;
	while (f && fgets(line, sizeof line, f))
		n += strstr(line, part) != NULL;
	if (f)
		fclose(f);
	return n;
}

/* Workers that cannot go below the loop are said once, not silently
 * left at its priority. */
START_TEST(test_priority_refused_said)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		refuse_priority();
		struct srv s;
		srv_start(&s);
		char errs[160];
		snprintf(errs, sizeof errs, "%s/stderr.txt", s.dir);
		/* A bot's move on a worker: the table plays on. */
		static struct tc a;
		tc_login(&a, &s, "Anne", "en", NULL);
		long id = tc_create(&a, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
		a.seat = 0;
		tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
		struct tc *all[] = { &a };
		play_until(all, 1, NULL, NULL);
		tc_free(&a);
		int said = file_says(errs, "cannot go below the loop's priority");
		int once = file_count(errs, "cannot go below the loop's priority");
		srv_stop(&s);
		_exit(said && once == 1 ? 0 : 1);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "not said once (%d)", status);
}
END_TEST

/* Under systemd, standard error is the journal's (JOURNAL_STREAM names
 * it): each line begins with its level, <N>; plain otherwise. */
START_TEST(test_journal_levels)
{
	struct srv s;
	srv_make(&s);
	char errs[160], js[64];
	snprintf(errs, sizeof errs, "%s/stderr.txt", s.dir);
	write_file(errs, "");
	struct stat st;
	ck_assert_int_eq(stat(errs, &st), 0);
	snprintf(js, sizeof js, "%llu:%llu", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	setenv("JOURNAL_STREAM", js, 1);
	srv_run(&s);
	unsetenv("JOURNAL_STREAM");
	ck_assert(file_says(errs, "<5>tapis: listening on ws://127.0.0.1:"));
	ck_assert(file_says(errs, "<5>tapis: store: "));
	srv_halt(&s); /* its file kept meanwhile: another would not take its inode */
	struct srv first = s;
	/* Not the journal's (another file): plain lines. */
	srv_make(&s);
	snprintf(errs, sizeof errs, "%s/stderr.txt", s.dir);
	setenv("JOURNAL_STREAM", js, 1);
	srv_run(&s);
	unsetenv("JOURNAL_STREAM");
	ck_assert(file_says(errs, "\ntapis: listening on") || file_says(errs, "tapis: listening on"));
	FILE *f = fopen(errs, "r");
	int c = f ? fgetc(f) : EOF;
	if (f)
		fclose(f);
	ck_assert_int_eq(c, 't');
	srv_stop(&s);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", first.dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* tapis admin drain: no new game from then on, the one in play finishes,
 * then the server stops by itself, cleanly. */
START_TEST(test_drain)
{
	struct srv s;
	srv_start(&s);
	char errs[160];
	snprintf(errs, sizeof errs, "%s/stderr.txt", s.dir);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	tc_wait(&a, "state");
	/* A table waiting: it may not start once the drain is asked. */
	tc_login(&b, &s, "Bruno", "fr", NULL);
	long other = tc_create(&b, "brouc", 4, "[\"open\",\"bot\",\"bot\",\"bot\"]", NULL);
	char *argv[] = { "admin", "--db", s.db, "drain", NULL };
	ck_assert_int_eq(admin_main(4, argv), 0);
	ck_assert(file_says(errs, "drain: asked; no new game, 1 in play to finish"));
	tc_send(&b, "{\"type\":\"create\",\"game\":\"brelan\",\"players\":3}");
	json_t *e = tc_wait(&b, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "create");
	ck_assert_str_eq(json_string_value(json_object_get(e, "message")),
	                 "le serveur ferme : pas de nouvelle partie pour l'instant, celles en cours se terminent");
	tc_send(&b, "{\"type\":\"start\",\"table\":%ld}", other);
	e = tc_wait(&b, "error");
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "start");
	ck_assert(srv_alive(&s));
	struct tc *all[] = { &a };
	play_until(all, 1, NULL, NULL);
	int status = -1;
	for (int i = 0; i < 400 && waitpid(s.pid, &status, WNOHANG) == 0; i++)
		usleep(50 * 1000);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server did not stop by itself (%d)", status);
	ck_assert(file_says(errs, "drain: every game finished; stopping"));
	ck_assert(file_says(errs, "stopped, every table saved"));
	tc_free(&a);
	tc_free(&b);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s.dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A new self-signed certificate and key at the server's paths; 0, or -1
 * without an openssl command. */
static int new_cert(const struct srv *s)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd,
	         "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
	         "-addext subjectAltName=DNS:localhost -keyout %s -out %s >/dev/null 2>&1",
	         s->key, s->cert);
	return system(cmd) == 0 ? 0 : -1;
}

/* SIGHUP reads the certificate again (a renewed one at the same paths):
 * the connections made before go on, the new ones are under the new
 * certificate. */
START_TEST(test_sighup_certificate)
{
	struct srv s;
	srv_make(&s);
	snprintf(s.cert, sizeof s.cert, "%s/cert.pem", s.dir);
	snprintf(s.key, sizeof s.key, "%s/key.pem", s.dir);
	char old[160], errs[160], cmd[400];
	snprintf(old, sizeof old, "%s/old.pem", s.dir);
	snprintf(errs, sizeof errs, "%s/stderr.txt", s.dir);
	if (new_cert(&s) < 0) {
		snprintf(cmd, sizeof cmd, "rm -rf %s", s.dir);
		ck_assert_int_eq(system(cmd), 0);
		return; /* nothing to sign a certificate with here */
	}
	snprintf(cmd, sizeof cmd, "cp %s %s", s.cert, old);
	ck_assert_int_eq(system(cmd), 0);
	srv_run(&s);
	static struct tc a, b;
	char err[256];
	memset(&a, 0, sizeof a);
	a.c = netc_open_ca(s.url, old, on_msg, &a, err, sizeof err);
	ck_assert_msg(a.c != NULL, "%s", err);
	tc_send(&a, "{\"type\":\"hello\",\"version\":1,\"name\":\"Anne\"}");
	tc_wait(&a, "welcome");
	ck_assert_int_eq(new_cert(&s), 0);
	ck_assert_int_eq(kill(s.pid, SIGHUP), 0);
	ck_assert(file_says(errs, "reload: settings read again, certificate too"));
	/* Anne's connection goes on. */
	tc_send(&a, "{\"type\":\"ping\"}");
	tc_wait(&a, "pong");
	/* Closed before the next client is made: with two TLS clients of
	 * net/client at once in one process, LeakSanitizer counts OpenSSL's
	 * memory as lost once the first goes (the server has no part in it:
	 * one client at a time, nothing is). */
	tc_free(&a);
	/* A client that trusts only the old certificate is refused now; one
	 * that trusts the new one comes in. */
	memset(&b, 0, sizeof b);
	struct netc *refused = netc_open_ca(s.url, old, on_msg, &b, err, sizeof err);
	ck_assert_ptr_null(refused);
	b.c = netc_open_ca(s.url, s.cert, on_msg, &b, err, sizeof err);
	ck_assert_msg(b.c != NULL, "%s", err);
	tc_send(&b, "{\"type\":\"hello\",\"version\":1,\"name\":\"Bruno\"}");
	tc_wait(&b, "welcome");
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("ops");
	TCase *tc = tcase_create("health");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_health_and_metrics);
	tcase_add_test(tc, test_health_store);
	tcase_add_test(tc, test_metrics_rate);
	tcase_add_test(tc, test_idle_sleeps);
	tcase_add_test(tc, test_subprotocol_refused);
	tcase_add_test(tc, test_sighup_reloads);
	tcase_add_test(tc, test_chat_flood_settings);
	tcase_add_test(tc, test_sighup_certificate);
	tcase_add_test(tc, test_sd_notify);
	tcase_add_test(tc, test_priority_refused_said);
	tcase_add_test(tc, test_journal_levels);
	tcase_add_test(tc, test_drain);
	suite_add_tcase(su, tc);
	return tu_run(su);
}
