/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The server under load and abuse: clients that never read, connections
 * that never finish their handshake or never say hello, frames without a
 * mask, tables made without end, descriptors running out; and a soak of a
 * minute (1,000 connections, half of which never read, and a client making
 * accounts and tables as fast as the limits allow) that measures the
 * server's memory, another client's round trip and the log.
 *
 * The clients here are raw sockets speaking WebSocket by hand: they can do
 * what libwebsockets' client never would (not read, not mask, stop in the
 * middle of a handshake), they come from any address of 127.0.0.0/8 (so
 * the caps per address are tested for real), and a thousand of them cost
 * the test process little. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "net/server/lobby.h"
#include "net/wire/netaddr.h"
#include "net/wire/outq.h"
#include "net/server/server.h"
#include "testutil.h"

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This process's open-file limit raised to its hard limit (a thousand
 * sockets and more). */
static void raise_nofile(void)
{
	struct rlimit r;
	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
}

/* ---- a server in a child process ---- */

struct srv {
	pid_t pid;
	int port;
	char dir[64];
	/* set before srv_start: */
	int max_conns, max_per_addr;
	int max_handshakes, handshakes_per_prefix; /* 0: none (every client here is of 127.0.0.1) */
	long long hello_ms;
	int nofile_soft, nofile_hard; /* the child's open-file limit when set */
	int seconds;                  /* its lifetime at most */
};

static void srv_ready(void *ctx, int port)
{
	int fd = *(int *)ctx;
	if (write(fd, &port, sizeof port) != sizeof port)
		_exit(1);
	close(fd);
}

static void srv_start(struct srv *s)
{
	snprintf(s->dir, sizeof s->dir, "/tmp/tapis-load-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(s->dir));
	char logs[128];
	snprintf(logs, sizeof logs, "%s/logs", s->dir);
	ck_assert_int_eq(mkdir(logs, 0700), 0);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	fflush(NULL);
	s->pid = fork();
	ck_assert_int_ge(s->pid, 0);
	if (s->pid == 0) {
		close(fds[0]);
		if (s->nofile_hard) {
			struct rlimit r = { (rlim_t)s->nofile_soft, (rlim_t)s->nofile_hard };
			if (setrlimit(RLIMIT_NOFILE, &r) < 0)
				_exit(1);
		}
		struct server_options o;
		server_options_default(&o);
		char db[128], errpath[128];
		snprintf(db, sizeof db, "%s/server.db", s->dir);
		snprintf(errpath, sizeof errpath, "%s/stderr.txt", s->dir);
		o.port = 0;
		o.db = db;
		o.log_dir = logs;
		o.bot_delay_ms = 0;
		o.grace_ms = 300;
		o.max_conns = s->max_conns;
		o.max_per_addr = s->max_per_addr;
		o.max_handshakes = s->max_handshakes;
		o.handshakes_per_prefix = s->handshakes_per_prefix;
		if (s->hello_ms)
			o.hello_ms = s->hello_ms;
		o.cheap_hash = 1;
		if (!freopen(errpath, "a", stderr))
			_exit(1);
		setvbuf(stderr, NULL, _IONBF, 0);
		o.on_ready = srv_ready;
		o.ready_ctx = &fds[1];
		alarm((unsigned)(s->seconds ? s->seconds : 60));
		char err[256];
		exit(server_run(&o, err, sizeof err) == 0 ? 0 : 1);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], &s->port, sizeof s->port), (int)sizeof s->port);
	close(fds[0]);
}

static void srv_stop(struct srv *s)
{
	int status = 0;
	ck_assert_int_eq(kill(s->pid, SIGTERM), 0);
	ck_assert_int_eq(waitpid(s->pid, &status, 0), s->pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server did not stop cleanly (%d)", status);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A line of /proc/PID/status ("VmRSS:", "VmHWM:"), in kB. */
static long proc_kb(pid_t pid, const char *key)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, key, strlen(key)))
			kb = atol(line + strlen(key));
	if (f)
		fclose(f);
	return kb;
}

/* The server's log (its standard error), NUL-terminated, malloc'd. */
static char *srv_log(const struct srv *s)
{
	char path[128];
	snprintf(path, sizeof path, "%s/stderr.txt", s->dir);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	char buf[4096];
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			text = realloc(text, cap);
		}
		memcpy(text + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!text)
		text = calloc(1, 1);
	text[len] = '\0';
	return text;
}

/* The most times one line (its count of those not written aside) is in
 * the log; *which is set to it. */
static int most_repeated(const char *log, char *which, size_t whichlen)
{
	char *copy = strdup(log), *save = NULL;
	char **lines = NULL;
	int n = 0, best = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *more = strstr(l, " more like it)");
		if (more) {
			while (more > l && *more != '(')
				more--;
			if (more > l && more[-1] == ' ')
				more[-1] = '\0';
		}
		lines = realloc(lines, (size_t)(n + 1) * sizeof *lines);
		lines[n++] = l;
	}
	for (int i = 0; i < n; i++) {
		int k = 0;
		for (int j = 0; j < n; j++)
			k += !strcmp(lines[i], lines[j]);
		if (k > best) {
			best = k;
			snprintf(which, whichlen, "%s", lines[i]);
		}
	}
	free(lines);
	free(copy);
	return best;
}

/* ---- a raw WebSocket client ---- */

struct wsc {
	int fd;
	unsigned char *in;   /* bytes read, not yet taken */
	size_t inlen, incap;
	int closed;
};

/* A TCP connection to the server from the address from ("127.0.0.X"),
 * with a small receive buffer when rcvbuf > 0; -1 when refused. */
static int tcp_open(int port, const char *from, int rcvbuf)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	if (rcvbuf > 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (from) {
		struct sockaddr_in me = { .sin_family = AF_INET };
		inet_pton(AF_INET, from, &me.sin_addr);
		ck_assert_int_eq(bind(fd, (struct sockaddr *)&me, sizeof me), 0);
	}
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static const char handshake[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                                "Sec-WebSocket-Protocol: tapis\r\n\r\n";

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN) {
			struct pollfd pf = { fd, POLLOUT, 0 };
			if (poll(&pf, 1, 2000) <= 0)
				return -1;
			continue;
		}
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Read what comes within ms (at least one byte, or until closed); -1 when
 * closed, 0 on time out, else the bytes added. */
static ssize_t wsc_fill(struct wsc *w, int ms)
{
	struct pollfd pf = { w->fd, POLLIN, 0 };
	if (poll(&pf, 1, ms) <= 0)
		return 0;
	if (w->inlen + 65536 > w->incap) {
		w->incap = (w->inlen + 65536) * 2;
		w->in = realloc(w->in, w->incap);
	}
	ssize_t k = recv(w->fd, w->in + w->inlen, w->incap - w->inlen, MSG_DONTWAIT);
	if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR)) {
		w->closed = 1;
		return -1;
	}
	if (k > 0)
		w->inlen += (size_t)k;
	return k > 0 ? k : 0;
}

/* Connect (from, rcvbuf as tcp_open) and do the handshake: 0, or -1 when
 * the server closed or refused. */
static int wsc_open(struct wsc *w, int port, const char *from, int rcvbuf)
{
	memset(w, 0, sizeof *w);
	w->fd = tcp_open(port, from, rcvbuf);
	if (w->fd < 0 || write_all(w->fd, handshake, sizeof handshake - 1) < 0)
		return -1;
	long long end = mono_ms() + 5000;
	for (;;) {
		unsigned char *e = w->inlen ? memmem(w->in, w->inlen, "\r\n\r\n", 4) : NULL;
		if (e) {
			int ok = w->inlen > 12 && !memcmp(w->in + 9, "101", 3);
			size_t head = (size_t)(e + 4 - w->in);
			memmove(w->in, w->in + head, w->inlen - head);
			w->inlen -= head;
			return ok ? 0 : -1;
		}
		if (mono_ms() > end || wsc_fill(w, 100) < 0)
			return -1;
	}
}

static void wsc_close(struct wsc *w)
{
	if (w->fd >= 0)
		close(w->fd);
	free(w->in);
	memset(w, 0, sizeof *w);
	w->fd = -1;
}

/* A text frame, masked (as a client must) unless unmasked. */
static int wsc_send_frame(struct wsc *w, const char *text, int unmasked)
{
	size_t n = strlen(text);
	unsigned char *f = malloc(n + 14), *p = f;
	*p++ = 0x81;
	unsigned char mbit = unmasked ? 0 : 0x80;
	if (n < 126) {
		*p++ = (unsigned char)(mbit | n);
	} else {
		*p++ = mbit | 126;
		*p++ = (unsigned char)(n >> 8);
		*p++ = (unsigned char)n;
	}
	static const unsigned char key[4] = { 0x37, 0xfa, 0x21, 0x3d };
	if (!unmasked) {
		memcpy(p, key, 4);
		p += 4;
	}
	for (size_t i = 0; i < n; i++)
		*p++ = (unsigned char)text[i] ^ (unmasked ? 0 : key[i % 4]);
	int rc = write_all(w->fd, f, (size_t)(p - f));
	free(f);
	return rc;
}

static int wsc_send(struct wsc *w, const char *text)
{
	return wsc_send_frame(w, text, 0);
}

/* The next text message within ms (malloc'd), or NULL (time out, or
 * closed: w->closed). Control frames are skipped. */
static char *wsc_next(struct wsc *w, int ms)
{
	long long end = mono_ms() + ms;
	for (;;) {
		if (w->inlen >= 2) {
			size_t len = w->in[1] & 0x7f, head = 2;
			if (len == 126 && w->inlen >= 4) {
				len = (size_t)w->in[2] << 8 | w->in[3];
				head = 4;
			} else if (len == 127 && w->inlen >= 10) {
				len = 0;
				for (int i = 2; i < 10; i++)
					len = len << 8 | w->in[i];
				head = 10;
			}
			if ((w->in[1] & 0x7f) < 126 || head > 2) {
				if (w->inlen >= head + len) {
					int op = w->in[0] & 0x0f;
					char *text = NULL;
					if (op == 1) {
						text = malloc(len + 1);
						memcpy(text, w->in + head, len);
						text[len] = '\0';
					}
					memmove(w->in, w->in + head + len, w->inlen - head - len);
					w->inlen -= head + len;
					if (op == 8)
						w->closed = 1;
					if (text)
						return text;
					if (op == 8)
						return NULL;
					continue;
				}
			}
		}
		long long left = end - mono_ms();
		if (left <= 0 || w->closed || wsc_fill(w, (int)(left < 50 ? left : 50)) < 0)
			return NULL;
	}
}

static const char *jtype(json_t *j)
{
	const char *t = json_string_value(json_object_get(j, "type"));
	return t ? t : "";
}

/* The next message of a type within ms (others skipped), or NULL. */
static json_t *wsc_wait(struct wsc *w, const char *type, int ms)
{
	long long end = mono_ms() + ms;
	for (;;) {
		long long left = end - mono_ms();
		char *text = left > 0 ? wsc_next(w, (int)left) : NULL;
		if (!text)
			return NULL;
		json_t *j = json_loads(text, 0, NULL);
		free(text);
		if (j && !strcmp(jtype(j), type))
			return j;
		json_decref(j);
	}
}

/* The next error's code, or a message's type when not an error. */
static int wsc_login(struct wsc *w, int port, const char *from, const char *name, const char *lang,
                     const char *password)
{
	if (wsc_open(w, port, from, 0) < 0)
		return -1;
	char msg[256];
	if (password)
		snprintf(msg, sizeof msg, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"%s\",\"password\":\"%s\"}",
		         name, lang, password);
	else
		snprintf(msg, sizeof msg, "{\"type\":\"hello\",\"version\":1,\"name\":\"%s\",\"lang\":\"%s\"}", name, lang);
	if (wsc_send(w, msg) < 0)
		return -1;
	json_t *j = wsc_wait(w, "welcome", 5000);
	json_decref(j);
	return j ? 0 : -1;
}

/* 1 when the server closed the connection within ms (whatever it sent). */
static int closed_within(int fd, int ms)
{
	long long end = mono_ms() + ms;
	char buf[4096];
	while (mono_ms() < end) {
		struct pollfd pf = { fd, POLLIN, 0 };
		if (poll(&pf, 1, 50) <= 0)
			continue;
		ssize_t k = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
		if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR))
			return 1;
	}
	return 0;
}

static const char create_msg[] = "{\"type\":\"create\",\"game\":\"brouc\",\"players\":4,"
                                 "\"seats\":[\"open\",\"open\",\"bot\",\"bot\"]}";

/* Create a table: its id, or 0 with the error's code and message. */
static long wsc_create(struct wsc *w, char *code, size_t codelen, char *message, size_t msglen)
{
	ck_assert_int_eq(wsc_send(w, create_msg), 0);
	long long end = mono_ms() + 5000;
	while (mono_ms() < end) {
		char *text = wsc_next(w, 200);
		json_t *j = text ? json_loads(text, 0, NULL) : NULL;
		free(text);
		if (!j)
			continue;
		long id = 0;
		int done = 0;
		if (!strcmp(jtype(j), "created")) {
			id = (long)json_integer_value(json_object_get(j, "table"));
			done = 1;
		} else if (!strcmp(jtype(j), "error")) {
			snprintf(code, codelen, "%s", json_string_value(json_object_get(j, "code")));
			snprintf(message, msglen, "%s", json_string_value(json_object_get(j, "message")));
			done = 1;
		}
		json_decref(j);
		if (done)
			return id;
	}
	ck_abort_msg("no answer to create");
	return 0;
}

/* ---- the small cases ---- */

/* A message to many queues is one buffer, counted in full in each. */
START_TEST(test_outq_shared)
{
	struct outq q[3];
	memset(q, 0, sizeof q);
	struct outq_buf *b = outq_buf_take(strdup("{\"type\":\"lobby\"}"));
	for (int i = 0; i < 3; i++)
		outq_push_buf(&q[i], b);
	ck_assert_int_eq(b->refs, 4);
	outq_push(&q[0], "{\"type\":\"pong\"}", 15);
	ck_assert_uint_eq(q[0].bytes, b->len + 15);
	ck_assert_uint_eq(q[1].bytes, b->len);
	ck_assert_int_eq(q[0].n, 2);
	ck_assert_ptr_eq(q[1].head->b, q[2].head->b);
	outq_clear(&q[1]);
	ck_assert_int_eq(b->refs, 3);
	ck_assert_uint_eq(q[1].bytes, 0);
	ck_assert_ptr_null(q[1].head);
	outq_clear(&q[0]);
	outq_clear(&q[2]);
	ck_assert_int_eq(b->refs, 1);
	outq_buf_unref(b);
}
END_TEST

/* RFC 6455 5.1: a client frame without its mask closes the connection. */
START_TEST(test_unmasked_frame)
{
	struct srv s = { 0 };
	srv_start(&s);
	struct wsc w;
	ck_assert_int_eq(wsc_open(&w, s.port, NULL, 0), 0);
	ck_assert_int_eq(wsc_send_frame(&w, "{\"type\":\"hello\",\"version\":1,\"name\":\"Nomask\",\"lang\":\"en\"}", 1), 0);
	ck_assert_ptr_null(wsc_wait(&w, "welcome", 2000));
	ck_assert(w.closed);
	wsc_close(&w);
	/* After a masked message too, on a connection already in use. */
	ck_assert_int_eq(wsc_login(&w, s.port, NULL, "Masked", "en", NULL), 0);
	ck_assert_int_eq(wsc_send(&w, "{\"type\":\"ping\"}"), 0);
	json_t *pong = wsc_wait(&w, "pong", 2000);
	ck_assert_ptr_nonnull(pong);
	json_decref(pong);
	ck_assert_int_eq(wsc_send_frame(&w, "{\"type\":\"ping\"}", 1), 0);
	ck_assert_ptr_null(wsc_wait(&w, "pong", 2000));
	ck_assert(w.closed);
	wsc_close(&w);
	/* A masked client goes on being served. */
	ck_assert_int_eq(wsc_login(&w, s.port, NULL, "Masked", "en", NULL), 0);
	wsc_close(&w);
	char *log = srv_log(&s);
	ck_assert_ptr_nonnull(strstr(log, "without its mask"));
	free(log);
	srv_stop(&s);
}
END_TEST

/* A connection that says no hello, or does not finish its handshake, is
 * closed after the hello time; one that said hello stays. */
START_TEST(test_hello_time)
{
	struct srv s = { 0 };
	s.hello_ms = 1000;
	srv_start(&s);
	struct wsc silent, talker;
	ck_assert_int_eq(wsc_open(&silent, s.port, NULL, 0), 0);
	ck_assert_int_eq(wsc_login(&talker, s.port, NULL, "Talker", "en", NULL), 0);
	int half = tcp_open(s.port, NULL, 0);
	ck_assert_int_ge(half, 0);
	ck_assert_int_eq(write_all(half, handshake, 30), 0);
	long long t0 = mono_ms();
	json_t *e = wsc_wait(&silent, "error", 4000);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "hello_first");
	json_decref(e);
	ck_assert(wsc_next(&silent, 3000) == NULL && silent.closed);
	ck_assert_int_ge(mono_ms() - t0, 500);
	ck_assert(closed_within(half, 4000));
	close(half);
	/* The one that said hello is served still. */
	ck_assert_int_eq(wsc_send(&talker, "{\"type\":\"ping\"}"), 0);
	json_t *pong = wsc_wait(&talker, "pong", 2000);
	ck_assert_ptr_nonnull(pong);
	json_decref(pong);
	wsc_close(&silent);
	wsc_close(&talker);
	srv_stop(&s);
}
END_TEST

/* Connections are counted from their accept: handshakes under way count
 * against --max-per-addr, a WebSocket over the cap is told busy, and past
 * the slack a connection is closed at the accept; other addresses are
 * served. */
START_TEST(test_caps_before_handshake)
{
	struct srv s = { 0 };
	s.max_per_addr = 2;
	srv_start(&s);
	int half[2 + WS_CAP_SLACK];
	for (int i = 0; i < 2; i++) {
		half[i] = tcp_open(s.port, "127.0.0.7", 0);
		ck_assert_int_eq(write_all(half[i], handshake, 20), 0);
	}
	usleep(200 * 1000);
	/* Two handshakes under way: a third connection is over the cap. */
	struct wsc w;
	ck_assert_int_eq(wsc_open(&w, s.port, "127.0.0.7", 0), 0);
	json_t *e = wsc_wait(&w, "error", 3000);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "busy");
	json_decref(e);
	wsc_close(&w);
	usleep(200 * 1000); /* its close seen */
	for (int i = 2; i < 2 + WS_CAP_SLACK; i++) {
		half[i] = tcp_open(s.port, "127.0.0.7", 0);
		ck_assert_int_eq(write_all(half[i], handshake, 20), 0);
	}
	usleep(200 * 1000);
	for (int i = 0; i < 2 + WS_CAP_SLACK; i++)
		ck_assert_msg(!closed_within(half[i], 10), "connection %d closed", i);
	/* Past the slack: closed at once, before any handshake. */
	int over = tcp_open(s.port, "127.0.0.7", 0);
	ck_assert(over < 0 || closed_within(over, 1000));
	if (over >= 0)
		close(over);
	/* Another address is served. */
	ck_assert_int_eq(wsc_login(&w, s.port, "127.0.0.8", "Other", "en", NULL), 0);
	wsc_close(&w);
	for (int i = 0; i < 2 + WS_CAP_SLACK; i++)
		close(half[i]);
	srv_stop(&s);
}
END_TEST

/* A crowd's half-open handshakes: 1,000 connections from 50 addresses
 * (25 in 127.0.0.0/24, 25 others each in its own /24) that begin a
 * handshake and never end it, opened again as soon as the server drops
 * them; meanwhile 20 newcomers (of the crowd's /24 and of others) each
 * get in: welcomed, not told busy, not kept waiting. */
#define FLOOD_CONNS 1000
#define FLOOD_ADDRS 50

static void flood_addr(int i, char *out, size_t len)
{
	int k = i % FLOOD_ADDRS;
	if (k < FLOOD_ADDRS / 2)
		snprintf(out, len, "127.0.0.%d", 2 + k);
	else
		snprintf(out, len, "127.0.%d.1", 1 + k - FLOOD_ADDRS / 2);
}

/* Open again those of the crowd the server closed: how many. */
static int flood_renew(int *fd, int port)
{
	int renewed = 0;
	for (int i = 0; i < FLOOD_CONNS; i++) {
		if (fd[i] >= 0) {
			char buf[512];
			ssize_t k = recv(fd[i], buf, sizeof buf, MSG_DONTWAIT);
			if (k != 0 && !(k < 0 && errno != EAGAIN && errno != EINTR))
				continue;
			close(fd[i]);
		}
		char from[32];
		flood_addr(i, from, sizeof from);
		fd[i] = tcp_open(port, from, 0);
		if (fd[i] >= 0 && write_all(fd[i], handshake, 20) < 0) {
			close(fd[i]);
			fd[i] = -1;
		}
		renewed++;
	}
	return renewed;
}

/* The networks that the bounds count by. */
START_TEST(test_netaddr_prefix)
{
	char p[NETADDR_PREFIX_MAX];
	netaddr_prefix("127.0.3.9", p, sizeof p);
	ck_assert_str_eq(p, "127.0.3/24");
	netaddr_prefix("::ffff:10.1.2.3", p, sizeof p);
	ck_assert_str_eq(p, "10.1.2/24");
	netaddr_prefix("2001:db8:aa:bb:1:2:3:4", p, sizeof p);
	ck_assert_str_eq(p, "2001:0db8:00aa:00bb::/64");
	char q[NETADDR_PREFIX_MAX];
	netaddr_prefix("2001:db8:aa:bb:ffff:ffff:ffff:ffff", q, sizeof q);
	ck_assert_str_eq(p, q);
	netaddr_prefix("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", p, sizeof p);
	ck_assert_str_eq(p, "ffff:ffff:ffff:ffff::/64");
	netaddr_prefix("", p, sizeof p);
	ck_assert_str_eq(p, "");
}
END_TEST

START_TEST(test_half_open_flood)
{
	struct rlimit r;
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &r), 0);
	ck_assert_msg(r.rlim_max >= FLOOD_CONNS + 200, "an open-file limit of %ld", (long)r.rlim_max);
	r.rlim_cur = r.rlim_max;
	setrlimit(RLIMIT_NOFILE, &r);
	struct srv s = { 0 };
	/* The server's own caps, as it runs by default. */
	s.max_conns = WS_MAX_CONNS;
	s.max_per_addr = WS_MAX_PER_ADDR;
	s.max_handshakes = WS_MAX_HANDSHAKES;
	s.handshakes_per_prefix = WS_HANDSHAKES_PER_PREFIX;
	srv_start(&s);
	static int fd[FLOOD_CONNS];
	for (int i = 0; i < FLOOD_CONNS; i++)
		fd[i] = -1;
	flood_renew(fd, s.port);
	int renewed = 0;
	long long slowest = 0;
	static const char *const newcomer[] = { "127.0.0.200", "127.0.9.9", "127.0.0.1", "127.1.2.3" };
	for (int n = 0; n < 20; n++) {
		renewed += flood_renew(fd, s.port);
		struct wsc w;
		char name[32];
		snprintf(name, sizeof name, "Newcomer%d", n);
		long long t0 = mono_ms();
		ck_assert_msg(wsc_login(&w, s.port, newcomer[n % 4], name, "en", NULL) == 0,
		              "newcomer %d (%s) not let in", n, newcomer[n % 4]);
		long long took = mono_ms() - t0;
		if (took > slowest)
			slowest = took;
		wsc_close(&w);
	}
	/* The crowd was pushed out and came back, again and again. */
	ck_assert_int_gt(renewed, FLOOD_CONNS);
	fprintf(stderr, "half-open flood: %d connections opened again, the slowest newcomer in %lld ms\n", renewed,
	        slowest);
	for (int i = 0; i < FLOOD_CONNS; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	srv_stop(&s);
}
END_TEST

/* Tables cannot eat the descriptors: under an open-file limit of 1,024,
 * 72 addresses (each in its own /24) x 4 guests make tables until they are
 * refused, and stay connected; a newcomer still connects and makes a
 * table. Three addresses of one /24 make no more than the network's
 * bound. */
START_TEST(test_tables_flood)
{
	struct srv s = { 0 };
	s.nofile_soft = s.nofile_hard = 1024;
	s.max_conns = WS_MAX_CONNS;
	s.max_per_addr = WS_MAX_PER_ADDR;
	srv_start(&s);
	enum { ADDRS = 72, GUESTS = 4 };
	static struct wsc g[ADDRS * GUESTS];
	char code[32], message[256], name[32], from[32];
	int made = 0;
	for (int i = 0; i < ADDRS * GUESTS; i++) {
		snprintf(from, sizeof from, "127.0.%d.%d", 10 + i / GUESTS, 1 + i % GUESTS);
		snprintf(name, sizeof name, "Crowd%d", i);
		ck_assert_msg(wsc_login(&g[i], s.port, from, name, "en", NULL) == 0, "guest %d not let in", i);
		while (wsc_create(&g[i], code, sizeof code, message, sizeof message) > 0)
			made++;
		ck_assert_str_eq(code, "tables");
	}
	ck_assert_int_eq(made, ADDRS * GUESTS * LOBBY_TABLES_PER_PERSON);
	struct wsc w;
	ck_assert_int_eq(wsc_login(&w, s.port, "127.0.0.1", "Newcomer", "en", NULL), 0);
	ck_assert_msg(wsc_create(&w, code, sizeof code, message, sizeof message) > 0, "%s: %s", code, message);
	wsc_close(&w);
	/* One network, three addresses: its bound. */
	static struct wsc n[3 * GUESTS];
	int near = 0;
	for (int i = 0; i < 3 * GUESTS; i++) {
		snprintf(from, sizeof from, "127.0.200.%d", 1 + i / GUESTS);
		snprintf(name, sizeof name, "Near%d", i);
		ck_assert_int_eq(wsc_login(&n[i], s.port, from, name, "en", NULL), 0);
		while (wsc_create(&n[i], code, sizeof code, message, sizeof message) > 0)
			near++;
	}
	ck_assert_int_eq(near, LOBBY_TABLES_PER_PREFIX);
	ck_assert_msg(strstr(message, "your network"), "%s", message);
	for (int i = 0; i < 3 * GUESTS; i++)
		wsc_close(&n[i]);
	for (int i = 0; i < ADDRS * GUESTS; i++)
		wsc_close(&g[i]);
	srv_stop(&s);
}
END_TEST

/* Tables per person and per address, refused in the player's language. */
START_TEST(test_table_limits)
{
	struct srv s = { 0 };
	srv_start(&s);
	struct wsc p;
	char code[32], message[256];
	ck_assert_int_eq(wsc_login(&p, s.port, "127.0.0.10", "Pierre", "fr", NULL), 0);
	for (int i = 0; i < LOBBY_TABLES_PER_PERSON; i++)
		ck_assert_int_gt(wsc_create(&p, code, sizeof code, message, sizeof message), 0);
	ck_assert_int_eq(wsc_create(&p, code, sizeof code, message, sizeof message), 0);
	ck_assert_str_eq(code, "tables");
	ck_assert_msg(strstr(message, "trop de tables"), "%s", message);
	wsc_close(&p);
	/* From one address, under other names: the address's limit. */
	static struct wsc q[LOBBY_TABLES_PER_ADDR];
	int made = 0, k = 0;
	char name[32];
	for (; made < LOBBY_TABLES_PER_ADDR; k++) {
		snprintf(name, sizeof name, "Quentin%d", k);
		ck_assert_int_eq(wsc_login(&q[k], s.port, "127.0.0.11", name, "en", NULL), 0);
		for (int i = 0; i < LOBBY_TABLES_PER_PERSON && made < LOBBY_TABLES_PER_ADDR; i++, made++)
			ck_assert_int_gt(wsc_create(&q[k], code, sizeof code, message, sizeof message), 0);
		/* Gone, the tables stay theirs (and the address's). */
		wsc_close(&q[k]);
	}
	ck_assert_int_eq(wsc_login(&q[k], s.port, "127.0.0.11", "Quentin-last", "en", NULL), 0);
	ck_assert_int_eq(wsc_create(&q[k], code, sizeof code, message, sizeof message), 0);
	ck_assert_str_eq(code, "tables");
	ck_assert_msg(strstr(message, "your address"), "%s", message);
	wsc_close(&q[k]);
	/* Another address may. */
	ck_assert_int_eq(wsc_login(&p, s.port, "127.0.0.12", "Rose", "en", NULL), 0);
	ck_assert_int_gt(wsc_create(&p, code, sizeof code, message, sizeof message), 0);
	wsc_close(&p);
	srv_stop(&s);
}
END_TEST

/* The server raises its open-file limit to the hard limit at start. */
START_TEST(test_fd_limit_raised)
{
	struct srv s = { 0 };
	s.nofile_soft = 256;
	s.nofile_hard = 1024;
	srv_start(&s);
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/limits", (int)s.pid);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	long soft = -1, hard = -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "Max open files", 14))
			sscanf(line + 14, "%ld %ld", &soft, &hard);
	fclose(f);
	ck_assert_int_eq(hard, 1024);
	ck_assert_int_eq(soft, 1024);
	srv_stop(&s);
}
END_TEST

/* Descriptors running out: new connections are closed at the accept while
 * a reserve is kept, so that a table can still be made (its hand history
 * opened); the log says so once a second at most. */
START_TEST(test_fd_reserve)
{
	struct srv s = { 0 };
	s.nofile_soft = s.nofile_hard = 160;
	srv_start(&s);
	struct wsc a;
	ck_assert_int_eq(wsc_login(&a, s.port, NULL, "Anne", "en", NULL), 0);
	enum { FLOOD = 200 };
	static int fds[FLOOD];
	int refused = 0;
	for (int i = 0; i < FLOOD; i++) {
		char from[32];
		snprintf(from, sizeof from, "127.0.%d.%d", 20 + i / 200, 1 + i % 200);
		fds[i] = tcp_open(s.port, from, 0);
		if (fds[i] >= 0)
			write_all(fds[i], handshake, 20);
	}
	usleep(300 * 1000);
	for (int i = 0; i < FLOOD; i++)
		if (fds[i] < 0 || closed_within(fds[i], 5))
			refused++;
	ck_assert_int_gt(refused, 0);
	char code[32] = "", message[256] = "";
	ck_assert_msg(wsc_create(&a, code, sizeof code, message, sizeof message) > 0, "%s: %s", code, message);
	/* Those kept are closed in turn: room again. */
	for (int i = 0; i < FLOOD; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	usleep(300 * 1000);
	struct wsc b;
	ck_assert_int_eq(wsc_login(&b, s.port, NULL, "Bruno", "en", NULL), 0);
	wsc_close(&b);
	wsc_close(&a);
	char *log = srv_log(&s), which[256] = "";
	ck_assert_ptr_nonnull(strstr(log, "descriptors running out"));
	ck_assert_msg(most_repeated(log, which, sizeof which) <= 2, "repeated: %s\n%s", which, log);
	free(log);
	srv_stop(&s);
}
END_TEST

/* A client that never reads is dropped once what waits for it passes the
 * byte bound (the lobby's page of tables, large, asked for again and again
 * while the lobby changes ten times a second, piling up), not after
 * thousands of messages; the others are served. */
START_TEST(test_slow_reader_dropped)
{
	struct srv s = { 0 };
	s.seconds = 50;
	srv_start(&s);
	/* Makers: tables in the lobby (a long list), from several addresses
	 * (in networks of their own: a network's tables are bounded too). */
	enum { MAKERS = 12 };
	static struct wsc mk[MAKERS];
	char code[32], message[256], name[32], from[32];
	for (int i = 0; i < MAKERS; i++) {
		snprintf(name, sizeof name, "maker-a-long-name-%d", i);
		snprintf(from, sizeof from, "127.0.%d.1", 101 + i / 3);
		ck_assert_int_eq(wsc_login(&mk[i], s.port, from, name, "en", NULL), 0);
		for (int t = 0; t < LOBBY_TABLES_PER_PERSON; t++)
			ck_assert_int_gt(wsc_create(&mk[i], code, sizeof code, message, sizeof message), 0);
		/* Back in the lobby (its tables wait there), it hears the list. */
	}
	struct wsc slow;
	ck_assert_int_eq(wsc_open(&slow, s.port, "127.0.2.1", 2048), 0);
	ck_assert_int_eq(wsc_send(&slow, "{\"type\":\"hello\",\"version\":1,\"name\":\"Slow\",\"lang\":\"en\"}"), 0);
	struct wsc watch;
	ck_assert_int_eq(wsc_login(&watch, s.port, "127.0.3.1", "Watcher", "en", NULL), 0);
	/* The watcher's page of the lobby: its size. */
	ck_assert_int_eq(wsc_send(&watch, "{\"type\":\"lobby_query\"}"), 0);
	/* The lobby changes ten times a second: a maker stands and sits, and
	 * the slow reader asks for the lobby's page each time. */
	long long t0 = mono_ms(), gone_at = 0, sat_at = 0;
	int sit = 0;
	size_t list_bytes = 0;
	while (mono_ms() - t0 < 30000 && !gone_at) {
		if (mono_ms() - sat_at >= 60) {
			char m[128];
			snprintf(m, sizeof m, "{\"type\":\"%s\",\"table\":1%s}", sit ? "sit" : "stand", sit ? ",\"seat\":1" : "");
			wsc_send(&mk[0], m);
			wsc_send(&slow, "{\"type\":\"lobby_query\"}");
			sit = !sit;
			sat_at = mono_ms();
		}
		for (int i = 0; i < MAKERS; i++) {
			char *t;
			while ((t = wsc_next(&mk[i], 0)))
				free(t);
		}
		char *t;
		while ((t = wsc_next(&watch, 5))) {
			json_t *j = json_loads(t, 0, NULL);
			if (j && !strcmp(jtype(j), "lobby") && strlen(t) > list_bytes)
				list_bytes = strlen(t);
			/* Gone from the people online. */
			json_t *out = j && !strcmp(jtype(j), "lobby_delta") ? json_object_get(j, "out") : NULL, *u;
			size_t k;
			json_array_foreach(out, k, u)
				if (!strcmp(json_string_value(u), "Slow"))
					gone_at = mono_ms();
			json_decref(j);
			free(t);
		}
	}
	ck_assert_msg(gone_at, "a client that never reads is still served after 30 s (lists of %zu bytes)", list_bytes);
	ck_assert_int_gt(list_bytes, 10000);
	long hwm = proc_kb(s.pid, "VmHWM:");
	fprintf(stderr, "slow reader dropped after %.1f s (lists of %zu bytes); server VmHWM %ld kB\n",
	        (double)(gone_at - t0) / 1000, list_bytes, hwm);
	ck_assert_int_eq(wsc_send(&watch, "{\"type\":\"ping\"}"), 0);
	json_t *pong = wsc_wait(&watch, "pong", 3000);
	ck_assert_ptr_nonnull(pong);
	json_decref(pong);
	for (int i = 0; i < MAKERS; i++)
		wsc_close(&mk[i]);
	wsc_close(&slow);
	wsc_close(&watch);
	srv_stop(&s);
}
END_TEST

/* ---- the soak ---- */

/* The bound stated in docs/performance.md for the server's memory under
 * the soak. Under AddressSanitizer (make asan) the process also holds the
 * shadow memory and the freed blocks kept in quarantine (256 MiB by
 * default), so the bound there is four times as large: it still catches a
 * queue that grows without end (gigabytes in a minute), not the figure. */
#if defined(__SANITIZE_ADDRESS__)
#define SOAK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOAK_ASAN 1
#endif
#endif
#ifdef SOAK_ASAN
#define SOAK_MAX_RSS_KB (1024 * 1024)
#else
#define SOAK_MAX_RSS_KB (256 * 1024)
#endif
#define SOAK_P99_MS 50.0
#define SOAK_CONNS 1000

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

struct probe_result {
	int n;
	double p50, p99, max;
};

/* The measured client, in its own process (the load does not slow its
 * clock): a person in the lobby sending a ping every 100 ms and timing the
 * pong, reading everything else that comes (the lobby's lists). */
static void probe(int port, double seconds, int out)
{
	struct wsc w;
	struct probe_result r = { 0 };
	if (wsc_login(&w, port, "127.0.9.1", "Probe", "en", NULL) < 0) {
		r.n = -1;
		if (write(out, &r, sizeof r) != sizeof r)
			_exit(1);
		_exit(0);
	}
	int cap = (int)(seconds * 10) + 16;
	double *rtt = calloc((size_t)cap, sizeof *rtt);
	double end = mono_s() + seconds;
	while (mono_s() < end && r.n < cap) {
		double t0 = mono_s();
		if (wsc_send(&w, "{\"type\":\"ping\"}") < 0)
			break;
		json_t *pong = wsc_wait(&w, "pong", 5000);
		if (!pong)
			break;
		json_decref(pong);
		rtt[r.n++] = (mono_s() - t0) * 1000;
		/* The rest of the 100 ms, reading what comes. */
		double next = t0 + 0.1;
		while (mono_s() < next) {
			char *t = wsc_next(&w, (int)((next - mono_s()) * 1000) + 1);
			free(t);
		}
	}
	if (getenv("TAPIS_SOAK_TRACE"))
		for (int i = 0; i < r.n; i++)
			if (rtt[i] > 20)
				fprintf(stderr, "probe: ping %d (%.1f s): %.1f ms\n", i, i / 10.0, rtt[i]);
	qsort(rtt, (size_t)r.n, sizeof *rtt, cmp_double);
	if (r.n > 0) {
		r.p50 = rtt[r.n / 2];
		r.p99 = rtt[(int)((r.n - 1) * 0.99)];
		r.max = rtt[r.n - 1];
	}
	if (write(out, &r, sizeof r) != sizeof r)
		_exit(1);
	_exit(0);
}

struct lconn {
	int fd;
	int reader;           /* reads everything; else never reads */
	double ping_at;       /* a non-reader writes now and then (and so learns it was dropped) */
	int n;                /* its number, for its name and address */
};

static int soak_hello(int port, struct lconn *c, int gen)
{
	char from[32], msg[160];
	snprintf(from, sizeof from, "127.0.%d.%d", 10 + c->n / 200, 1 + c->n % 200);
	struct wsc w;
	if (wsc_open(&w, port, from, c->reader ? 0 : 4096) < 0) {
		wsc_close(&w);
		return -1;
	}
	snprintf(msg, sizeof msg, "{\"type\":\"hello\",\"version\":1,\"name\":\"%c%d-%d\",\"lang\":\"en\"}",
	         c->reader ? 'r' : 'n', c->n, gen);
	if (wsc_send(&w, msg) < 0) {
		wsc_close(&w);
		return -1;
	}
	c->fd = w.fd;
	free(w.in);
	fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

START_TEST(test_soak)
{
	raise_nofile();
	double seconds = 60;
	const char *env = getenv("TAPIS_SOAK_SECONDS");
	if (env && atof(env) > 0)
		seconds = atof(env);
	/* Fewer connections for a look at the figures (make check: all). */
	int conns = SOAK_CONNS;
	const char *cenv = getenv("TAPIS_SOAK_CONNS");
	if (cenv && atoi(cenv) >= 0 && atoi(cenv) < SOAK_CONNS)
		conns = atoi(cenv);
	struct srv s = { 0 };
	s.max_conns = SOAK_CONNS + 100; /* the load, the maker and the probe */
	s.max_per_addr = WS_MAX_PER_ADDR;
	s.seconds = (int)seconds + 60;
	srv_start(&s);

	static struct lconn c[SOAK_CONNS];
	int ep = epoll_create1(0);
	ck_assert_int_ge(ep, 0);
	int reconnects = 0, gen = 0;
	for (int i = 0; i < SOAK_CONNS; i++)
		c[i].fd = -1;
	for (int i = 0; i < conns; i++) {
		c[i].n = i;
		c[i].reader = i % 2 == 0;
		ck_assert_msg(soak_hello(s.port, &c[i], gen) == 0, "connection %d refused", i);
		struct epoll_event ev = { .events = c[i].reader ? EPOLLIN : EPOLLRDHUP, .data.u32 = (uint32_t)i };
		ck_assert_int_eq(epoll_ctl(ep, EPOLL_CTL_ADD, c[i].fd, &ev), 0);
		c[i].ping_at = mono_s() + 1 + (i % 20) * 0.1;
	}
	int pfd[2];
	ck_assert_int_eq(pipe(pfd), 0);
	fflush(NULL);
	pid_t prober = fork();
	ck_assert_int_ge(prober, 0);
	if (prober == 0) {
		close(pfd[0]);
		probe(s.port, seconds, pfd[1]);
	}
	close(pfd[1]);
	/* The load stands for clients on other machines: it yields the
	 * cores to the server and the probe (at their usual priority). */
	if (setpriority(PRIO_PROCESS, 0, 10) < 0)
		perror("setpriority");

	/* The maker: accounts and tables as fast as the limits allow, from
	 * one address, on a new connection each time; with the tables it
	 * holds, the lobby changes all the time. */
	double end = mono_s() + seconds, maker_at = 0;
	int accounts = 0, tables = 0, refusals = 0, k = 0;
	long max_rss = 0;
	double rss_at = 0;
	static char buf[1 << 16];
	while (mono_s() < end) {
		struct epoll_event evs[64];
		int n = epoll_wait(ep, evs, 64, 5);
		for (int e = 0; e < n; e++) {
			struct lconn *x = &c[evs[e].data.u32];
			int gone = (evs[e].events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0;
			if (x->reader && !gone)
				for (;;) {
					ssize_t r = recv(x->fd, buf, sizeof buf, 0);
					if (r > 0)
						continue;
					gone = r == 0 || (errno != EAGAIN && errno != EINTR);
					break;
				}
			if (gone) {
				epoll_ctl(ep, EPOLL_CTL_DEL, x->fd, NULL);
				close(x->fd);
				if (soak_hello(s.port, x, ++gen) == 0) {
					struct epoll_event ev = { .events = x->reader ? EPOLLIN : EPOLLRDHUP,
					                          .data.u32 = (uint32_t)x->n };
					epoll_ctl(ep, EPOLL_CTL_ADD, x->fd, &ev);
					reconnects++;
				} else {
					x->fd = -1;
				}
			}
		}
		double now = mono_s();
		/* The non-readers write a ping every 2 s: a dropped one finds out
		 * (the server's reset) and comes back. */
		for (int i = 1; i < conns; i += 2) {
			if (c[i].fd < 0 || now < c[i].ping_at)
				continue;
			c[i].ping_at = now + 2;
			static const unsigned char ping[] = { 0x81, 0x8f, 0, 0, 0, 0, '{', '"', 't', 'y', 'p', 'e', '"',
			                                      ':', '"', 'p', 'i', 'n', 'g', '"', '}' };
			if (send(c[i].fd, ping, sizeof ping, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EAGAIN) {
				epoll_ctl(ep, EPOLL_CTL_DEL, c[i].fd, NULL);
				close(c[i].fd);
				if (soak_hello(s.port, &c[i], ++gen) == 0) {
					struct epoll_event ev = { .events = EPOLLRDHUP, .data.u32 = (uint32_t)i };
					epoll_ctl(ep, EPOLL_CTL_ADD, c[i].fd, &ev);
					reconnects++;
				} else {
					c[i].fd = -1;
				}
			}
		}
		if (now >= maker_at) {
			maker_at = now + 0.05;
			struct wsc m;
			char name[32], code[32] = "", message[256];
			snprintf(name, sizeof name, "acct%d", k++);
			if (wsc_login(&m, s.port, "127.0.8.1", name, "en", "a password") == 0) {
				accounts++;
				if (wsc_create(&m, code, sizeof code, message, sizeof message) > 0)
					tables++;
				else
					refusals++;
			}
			wsc_close(&m);
		}
		if (now >= rss_at) {
			rss_at = now + 0.5;
			long rss = proc_kb(s.pid, "VmRSS:");
			if (rss > max_rss)
				max_rss = rss;
		}
	}
	struct probe_result r;
	ck_assert_int_eq(read(pfd[0], &r, sizeof r), (int)sizeof r);
	close(pfd[0]);
	waitpid(prober, NULL, 0);
	long hwm = proc_kb(s.pid, "VmHWM:");
	for (int i = 0; i < SOAK_CONNS; i++)
		if (c[i].fd >= 0)
			close(c[i].fd);
	close(ep);
	ck_assert(waitpid(s.pid, NULL, WNOHANG) == 0);
	char *log = srv_log(&s), which[256] = "";
	int most = most_repeated(log, which, sizeof which);
	fprintf(stderr,
	        "soak %.0f s: %d connections (half never read), %d reconnections; maker: %d accounts, %d tables, "
	        "%d refused; server VmRSS max %ld kB, VmHWM %ld kB; probe: %d pings, p50 %.1f ms, p99 %.1f ms, "
	        "max %.1f ms; log: %zu bytes, a line at most %d times\n",
	        seconds, conns, reconnects, accounts, tables, refusals, max_rss, hwm, r.n, r.p50, r.p99, r.max,
	        strlen(log), most);
	ck_assert_msg(r.n > seconds * 5, "the probe was served %d times", r.n);
	ck_assert_msg(hwm < SOAK_MAX_RSS_KB, "server memory %ld kB over %d kB", hwm, SOAK_MAX_RSS_KB);
	ck_assert_msg(r.p99 < SOAK_P99_MS, "p99 %.1f ms", r.p99);
	ck_assert_msg(most <= seconds + 1, "logged %d times: %s", most, which);
	ck_assert_int_gt(tables, 0);
	free(log);
	srv_stop(&s);
}
END_TEST

Suite *load_suite(void);
Suite *load_suite(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("units");
	tcase_add_test(tc, test_outq_shared);
	tcase_add_test(tc, test_netaddr_prefix);
	suite_add_tcase(s, tc);
	tc = tcase_create("abuse");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_unmasked_frame);
	tcase_add_test(tc, test_hello_time);
	tcase_add_test(tc, test_caps_before_handshake);
	tcase_add_test(tc, test_half_open_flood);
	tcase_add_test(tc, test_tables_flood);
	tcase_add_test(tc, test_table_limits);
	tcase_add_test(tc, test_fd_limit_raised);
	tcase_add_test(tc, test_fd_reserve);
	tcase_add_test(tc, test_slow_reader_dropped);
	suite_add_tcase(s, tc);
	tc = tcase_create("soak");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_soak);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	raise_nofile();
	return tu_run(load_suite());
}
