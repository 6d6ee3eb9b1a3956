/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/wire/ws.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <libwebsockets.h>
#include <openssl/ssl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "core/err.h"
#include "app/log.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "net/wire/evloop.h"
#include "net/wire/netaddr.h"
#include "net/wire/outq.h"
#include "net/wire/proto.h"
#include "i18n/i18n.h"

static long long now_ms(void)
{
	return (long long)clock_ms();
}

/* One WebSocket connection. */
struct conn {
	struct conn *next;
	struct conn *hnext;   /* in its bucket of byid */
	struct lws *wsi;
	long id;
	char addr[64];        /* the peer's address */
	struct outq out;
	int closing;          /* close once the queue is sent */
	char *rx;             /* a message arriving in fragments */
	size_t rxlen;
	int rx_too_long;
	double tokens;        /* the rate limit's bucket */
	long long tokens_ms;
	int refused;          /* messages refused by the rate limit in a row */
	int refused_conn;     /* over a connection cap: closed without a word to the upper side */
	int said_bye;         /* the client closed it: the upper side was told then (it reads nothing more) */
	long long opened_ms;  /* when the handshake ended */
	long long waiting_ms; /* messages wait since then (the last write, or the first message) */
	int greeted;          /* the upper side took its hello */
	long wrote_round;     /* the round of the loop it was last written to in */
	struct conn *pnext;   /* in the server's list of those given messages this round */
	int pending;          /* in that list */
	int corked;           /* its guest's session being written off the loop: nothing sent until it is */
	int close_code;       /* the WebSocket close's code when closing (0: normal) */
};

/* What a connection's bytes are, as they are read (see recv below). */
struct frames {
	unsigned char http;   /* in an HTTP request's headers (else WebSocket frames) */
	unsigned char crlf;   /* of "\r\n\r\n" seen last, 0-4 */
	unsigned char ws;     /* of "websocket" seen last, 0-9 (9: the headers ask for it) */
	unsigned char st;     /* in a frame: 0 first byte, 1 length, 2 longer length, 3 mask, 4 payload */
	unsigned char need;   /* bytes of the longer length or of the mask still to come */
	unsigned char unmasked; /* a client frame came unmasked: the connection fails */
	unsigned long long left; /* of the payload */
};

/* A descriptor accepted (counted against the caps from then on). */
struct slot {
	struct lws *wsi;      /* once made */
	char addr[64];
	char prefix[NETADDR_PREFIX_MAX]; /* its network: the /24 of an IPv4 address, the /64 of an IPv6 one */
	int live;
	int ws;               /* its WebSocket handshake done (else a handshake under way, or HTTP) */
	int dropped;          /* a handshake dropped for a newer one (shut down, its close to come) */
	long long accepted;   /* the order of its accept */
	struct frames fr;
};

struct ws {
	const struct ws_options *o;
	struct ws_upper up;
	struct lws_context *ctx;
	void *loop;           /* the context's loop (evloop) */
	struct lws_vhost *vh;
	int port;
	struct conn *conns;
	int nconns;
	struct conn **byid;   /* the connections by number: buckets of id % nbyid */
	size_t nbyid;         /* a power of two, grown with the connections */
	long next_id;
	lws_sorted_usec_list_t tick;
	long long checked_ms; /* the last look for connections too slow or silent */
	struct slot *slots;   /* by descriptor */
	int nslots;
	int live;             /* slots live */
	int fd_limit;         /* the open-file limit */
	int half;             /* handshakes under way (live slots neither done nor dropped) */
	long long accepts;    /* connections accepted (the slots' order) */
	int mem_low;          /* the system's memory left under the floor */
	int mem_unknown;      /* the memory left cannot be read: said once */
	size_t round_bytes;   /* written in this round of the loop */
	long round;           /* rounds of the loop so far (from 1) */
	struct outq_scratch wbuf; /* the frames of one write */
	struct conn *pending; /* connections given messages in this round (flush_round) */
	struct ws_counters own, *cnt; /* cnt: own, or the tests' */
	struct conn *handling;   /* the connection whose message the upper side is given */
	struct lws_http_mount sounds_mount, page_mount; /* the context's mounts (it keeps them) */
	double lag[WS_LAG_SAMPLES]; /* the tick's lateness (ms), a ring */
	int nlag, lagpos;
	double tick_due;      /* when the tick was asked for (clock_ms) */
	long long tick_ms;    /* when it last ran */
	int idle;             /* it sleeps (WS_IDLE_TICK_MS) */
	long refused_protocol; /* handshakes without the subprotocol "tapis" */
	SSL_CTX *tls;         /* the listening vhost's TLS context (a reload loads the certificate into it) */
};

/* libwebsockets' own lines (accept failing when descriptors run out, a
 * thousand times a second) go through the same limit. */
static void lws_emit(int level, const char *line)
{
	char buf[200];
	snprintf(buf, sizeof buf, "%s", line);
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	log_at(level & LLL_ERR ? LOGL_ERROR : LOGL_WARNING, "%s", buf);
}

/* Every message the lobby sends names its connection by number: found in
 * a bucket, not by walking every connection (hundreds of them, for each of
 * the messages an action makes). */
static struct conn **bucket(struct ws *s, long id)
{
	return &s->byid[(size_t)id & (s->nbyid - 1)];
}

static struct conn *find(struct ws *s, long id)
{
	if (!s->nbyid)
		return NULL;
	for (struct conn *c = *bucket(s, id); c; c = c->hnext)
		if (c->id == id)
			return c;
	return NULL;
}

/* Index c (counted already in nconns). */
static void byid_add(struct ws *s, struct conn *c)
{
	if ((size_t)s->nconns > s->nbyid) {
		size_t n = s->nbyid ? s->nbyid * 2 : 256;
		while (n < (size_t)s->nconns)
			n *= 2;
		struct conn **b = xcalloc(n, sizeof *b);
		free(s->byid);
		s->byid = b;
		s->nbyid = n;
		for (struct conn *x = s->conns; x; x = x->next)
			if (x != c) {
				x->hnext = *bucket(s, x->id);
				*bucket(s, x->id) = x;
			}
	}
	c->hnext = *bucket(s, c->id);
	*bucket(s, c->id) = c;
}

/* Too slow to follow: its queue freed, the connection closed at once
 * (not after a last write it would not take); it may come back. */
static void drop(struct ws *s, struct conn *c)
{
	s->cnt->dropped++;
	c->closing = 2;
	outq_clear(&c->out);
	lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

static void queue_buf(struct ws *s, struct conn *c, struct outq_buf *b)
{
	if (c->closing > 1)
		return;
	if (c->out.head && c->out.bytes + b->len > WS_QUEUE_BYTES) {
		drop(s, c);
		return;
	}
	if (!c->out.head)
		c->waiting_ms = now_ms();
	outq_push_buf(&c->out, b);
	if (!c->pending) { /* written at the end of the round */
		c->pending = 1;
		c->pnext = s->pending;
		s->pending = c;
	}
}

static void queue_text(struct ws *s, struct conn *c, const char *text, size_t len)
{
	struct outq_buf *b = outq_buf_new(text, len);
	queue_buf(s, c, b);
	outq_buf_unref(b);
}

void ws_send(struct ws *s, long id, char *text)
{
	struct conn *c = find(s, id);
	if (c)
		queue_text(s, c, text, strlen(text));
	free(text);
}

/* One buffer for every listener (the lobby's list, a table's entry). */
void ws_send_many(struct ws *s, const long *ids, int n, char *text)
{
	struct outq_buf *b = outq_buf_take(text);
	for (int i = 0; i < n; i++) {
		struct conn *c = find(s, ids[i]);
		if (c)
			queue_buf(s, c, b);
	}
	outq_buf_unref(b);
}

void ws_close(struct ws *s, long id)
{
	struct conn *c = find(s, id);
	if (c && !c->closing) {
		c->closing = 1;
		lws_callback_on_writable(c->wsi);
		/* Gone in two seconds even if it does not read its last words. */
		lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, 2);
	}
}

/* A client told to connect again at once (net/cluster: its relay to
 * another node dropped). */
void ws_again(struct ws *s, long id)
{
	struct conn *c = find(s, id);
	if (c && !c->closing)
		c->close_code = PROTO_CLOSE_AGAIN;
	ws_close(s, id);
}

static void conn_free(struct ws *s, struct conn *c)
{
	for (struct conn **p = &s->conns; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	for (struct conn **p = s->nbyid ? bucket(s, c->id) : NULL; p && *p; p = &(*p)->hnext)
		if (*p == c) {
			*p = c->hnext;
			break;
		}
	if (c->pending)
		for (struct conn **p = &s->pending; *p; p = &(*p)->pnext)
			if (*p == c) {
				*p = c->pnext;
				break;
			}
	s->nconns--;
	outq_clear(&c->out);
	free(c->rx);
	free(c);
}

/* The rate limit, the server's (--rate, --burst) or the default. */
static double ws_rate(const struct ws *s)
{
	return s->o->rate_per_s > 0 ? s->o->rate_per_s : WS_RATE_PER_S;
}

static int ws_burst(const struct ws *s)
{
	return s->o->rate_burst > 0 ? s->o->rate_burst : WS_RATE_BURST;
}

/* 1 when the connection may send one more message now. */
static int rate_ok(const struct ws *s, struct conn *c, long long now)
{
	c->tokens += (double)(now - c->tokens_ms) * ws_rate(s) / 1000.0;
	c->tokens_ms = now;
	if (c->tokens > ws_burst(s))
		c->tokens = ws_burst(s);
	if (c->tokens < 1)
		return 0;
	c->tokens -= 1;
	return 1;
}

/* Why the new connection c goes over a cap (a message for its client), or
 * NULL. c is already counted. */
static int count_addr(const struct ws *s, const char *addr)
{
	int n = 0;
	for (int i = 0; i < s->nslots; i++)
		n += s->slots[i].live && !strcmp(s->slots[i].addr, addr);
	return n;
}

/* Why c is over a cap, in L, or NULL. */
static const char *over_cap(struct ws *s, struct conn *c, const struct i18n_lang *L)
{
	/* The WebSocket connections made (the handshakes under way have
	 * their own bound: accept_filter). */
	if (s->o->max_conns > 0 && s->nconns > s->o->max_conns)
		return i18n_tr(L, "the server is full: too many connections, try again later");
	/* The descriptors: the last WS_CAP_SLACK before those kept for
	 * the store and the logs are told, past them closed at the accept
	 * (descriptors are given lowest first: a descriptor's number counts
	 * those open). */
	if (s->fd_limit > 0 && lws_get_socket_fd(c->wsi) >= s->fd_limit - WS_FD_RESERVE - WS_CAP_SLACK)
		return i18n_tr(L, "the server is full: too many connections, try again later");
	if (s->mem_low)
		return i18n_tr(L, "the server is full: too many connections, try again later");
	if (s->o->max_per_addr > 0 && count_addr(s, c->addr) > s->o->max_per_addr)
		return i18n_tr(L, "too many connections from your address: close some and try again");
	return NULL;
}

/* ---- connections counted from their accept ---- */

/* A handshake under way dropped for a newer one: its socket shut down,
 * libwebsockets reads its end and closes it (WSI_DESTROY frees the slot). */
static void drop_handshake(struct ws *s, int fd)
{
	struct slot *sl = &s->slots[fd];
	sl->dropped = 1;
	s->half--;
	shutdown(fd, SHUT_RDWR);
	s->cnt->handshakes_dropped++;
}

/* Room for one more handshake from prefix: at the bound of its network
 * (--handshakes-per-prefix) or of all (--max-handshakes), the oldest
 * handshake under way (of that network, or of all) is dropped. A crowd of
 * addresses that opens connections and never ends their handshakes only
 * ever pushes out its own oldest ones, and a newcomer's handshake, done
 * in a moment, is never the oldest. */
static void handshake_room(struct ws *s, const char *prefix, int self)
{
	int per = s->o->handshakes_per_prefix, all = s->o->max_handshakes;
	if (per <= 0 && all <= 0)
		return;
	int in_prefix = 0, old_prefix = -1, old_all = -1;
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *x = &s->slots[i];
		if (i == self || !x->live || x->ws || x->dropped)
			continue;
		if (old_all < 0 || x->accepted < s->slots[old_all].accepted)
			old_all = i;
		if (!strcmp(x->prefix, prefix)) {
			in_prefix++;
			if (old_prefix < 0 || x->accepted < s->slots[old_prefix].accepted)
				old_prefix = i;
		}
	}
	if (per > 0 && in_prefix >= per && old_prefix >= 0)
		drop_handshake(s, old_prefix);
	else if (all > 0 && s->half >= all && old_all >= 0)
		drop_handshake(s, old_all);
}

/* The WebSocket handshake of wsi is done: no longer counted as under way. */
static void slot_established(struct ws *s, struct lws *wsi)
{
	int fd = lws_get_socket_fd(wsi);
	if (fd < 0 || fd >= s->nslots || !s->slots[fd].live || s->slots[fd].ws)
		return;
	s->slots[fd].ws = 1;
	if (!s->slots[fd].dropped)
		s->half--;
}

/* A connection accepted on fd from sa: 0 to take it, -1 to close it at
 * once (over a cap by more than the slack, or into the descriptors kept
 * for the store and the logs). */
static int accept_filter(struct ws *s, int fd, const struct sockaddr_storage *sa)
{
	if (fd < 0)
		return -1;
	if (s->fd_limit > 0 && fd >= s->fd_limit - WS_FD_RESERVE) {
		log_at(LOGL_WARNING, "descriptors running out: new connections refused");
		s->cnt->shut++;
		return -1;
	}
	char addr[64] = "";
	if (sa->ss_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, addr, sizeof addr);
	else if (sa->ss_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, addr, sizeof addr);
	if (fd >= s->nslots) {
		int old = s->nslots;
		xgrow((void **)&s->slots, &s->nslots, fd + 1, sizeof *s->slots);
		memset(s->slots + old, 0, (size_t)(s->nslots - old) * sizeof *s->slots);
	}
	struct slot *sl = &s->slots[fd];
	if (sl->live) { /* its close went unseen: the descriptor is new */
		if (!sl->ws && !sl->dropped)
			s->half--;
		sl->live = 0;
		s->live--;
	}
	if (s->o->max_conns > 0 && s->nconns >= s->o->max_conns + WS_CAP_SLACK) {
		log_at(LOGL_WARNING, "connections at the cap (--max-conns): new ones closed at the accept");
		s->cnt->shut++;
		return -1;
	}
	if (s->o->max_per_addr > 0 && count_addr(s, addr) >= s->o->max_per_addr + WS_CAP_SLACK) {
		log_at(LOGL_WARNING, "an address at its cap (--max-per-addr): its new connections closed at the accept");
		s->cnt->shut++;
		return -1;
	}
	char prefix[sizeof sl->prefix];
	netaddr_prefix(addr, prefix, sizeof prefix);
	handshake_room(s, prefix, fd);
	memset(sl, 0, sizeof *sl);
	snprintf(sl->addr, sizeof sl->addr, "%s", addr);
	snprintf(sl->prefix, sizeof sl->prefix, "%s", prefix);
	sl->live = 1;
	sl->accepted = ++s->accepts;
	sl->fr.http = 1;
	s->live++;
	s->half++;
	return 0;
}

/* ---- frames a client did not mask ----
 *
 * RFC 6455 (5.1): a server closes the connection on a frame from a client
 * that is not masked. libwebsockets 4.1 takes such frames as if masked and
 * has no option to refuse them, nor tells whether a frame was. So the
 * server looks at the bytes itself as libwebsockets reads them: recv()
 * below stands in for the C library's (libwebsockets calls it for plain
 * connections), follows the request's headers, then the frames' headers,
 * and fails the read (the connection closes) at a frame without its mask
 * bit. Descriptors the server did not accept pass through untouched. */

static struct ws *watching; /* the server running, for recv */

/* Follow n bytes of a connection; 0, or -1 at an unmasked frame. */
static int frames_scan(struct frames *f, const unsigned char *p, size_t n)
{
	static const char ws[] = "websocket";
	for (size_t i = 0; i < n && !f->unmasked; i++) {
		unsigned char c = p[i];
		if (f->http) {
			/* The end of the headers: frames follow if they asked for a
			 * WebSocket, else another request. */
			if (f->ws < 9)
				f->ws = (unsigned char)((c | 0x20) == ws[f->ws] ? f->ws + 1 : (c | 0x20) == 'w');
			f->crlf = (unsigned char)(c == (f->crlf % 2 ? '\n' : '\r') ? f->crlf + 1 : c == '\r');
			if (f->crlf == 4) {
				f->http = f->ws < 9;
				f->crlf = f->ws = 0;
				f->st = 0;
			}
			continue;
		}
		switch (f->st) {
		case 0:
			f->st = 1;
			break;
		case 1:
			if (!(c & 0x80)) {
				f->unmasked = 1;
				break;
			}
			c &= 0x7f;
			f->left = c < 126 ? c : 0;
			f->need = c == 126 ? 2 : c == 127 ? 8 : 4;
			f->st = c < 126 ? 3 : 2;
			break;
		case 2:
			f->left = f->left << 8 | c;
			if (--f->need == 0) {
				f->need = 4;
				f->st = 3;
			}
			break;
		case 3:
			if (--f->need == 0)
				f->st = f->left ? 4 : 0;
			break;
		default: {
			size_t take = n - i < f->left ? n - i : (size_t)f->left;
			f->left -= take;
			i += take - 1;
			if (!f->left)
				f->st = 0;
			break;
		}
		}
	}
	return f->unmasked ? -1 : 0;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	ssize_t n = recvfrom(fd, buf, len, flags, NULL, NULL);
	struct ws *s = watching;
	if (n > 0 && s && !(flags & MSG_PEEK) && fd >= 0 && fd < s->nslots && s->slots[fd].live &&
	    frames_scan(&s->slots[fd].fr, buf, (size_t)n) < 0) {
		log_at(LOGL_NOTICE, "a client sent a frame without its mask: connection closed");
		errno = EPROTO;
		return -1;
	}
	return n;
}

#if defined(LWS_WITH_TLS) && !defined(LWS_WITH_MBEDTLS)
/* The same for connections over TLS, whose clear bytes come from
 * OpenSSL's SSL_read (found with dlsym: libwebsockets brings OpenSSL). */
int SSL_read(SSL *ssl, void *buf, int num)
{
	static int (*real)(SSL *, void *, int);
	static int (*fd_of)(const SSL *);
	if (!real) {
		*(void **)&real = dlsym(RTLD_NEXT, "SSL_read");
		*(void **)&fd_of = dlsym(RTLD_DEFAULT, "SSL_get_fd");
		if (!real)
			return -1;
	}
	int n = real(ssl, buf, num);
	struct ws *s = watching;
	int fd = n > 0 && s && fd_of ? fd_of(ssl) : -1;
	if (fd >= 0 && fd < s->nslots && s->slots[fd].live && frames_scan(&s->slots[fd].fr, buf, (size_t)n) < 0) {
		log_at(LOGL_NOTICE, "a client sent a frame without its mask: connection closed");
		return -1;
	}
	return n;
}
#endif

static void slot_made(struct ws *s, struct lws *wsi)
{
	int fd = lws_get_socket_fd(wsi);
	if (fd >= 0 && fd < s->nslots && s->slots[fd].live && !s->slots[fd].wsi)
		s->slots[fd].wsi = wsi;
}

static void slot_gone(struct ws *s, struct lws *wsi)
{
	int fd = lws_get_socket_fd(wsi);
	struct slot *sl = fd >= 0 && fd < s->nslots && s->slots[fd].wsi == wsi ? &s->slots[fd] : NULL;
	for (int i = 0; !sl && i < s->nslots; i++)
		if (s->slots[i].live && s->slots[i].wsi == wsi)
			sl = &s->slots[i];
	if (sl && sl->live) {
		if (!sl->ws && !sl->dropped)
			s->half--;
		sl->live = 0;
		sl->wsi = NULL;
		s->live--;
	}
}

/* A message too long, or one over the rate limit: said so (or, after too
 * many in a row, the connection closed). */
static void refuse(struct ws *s, struct conn *c, const struct i18n_lang *L)
{
	if (c->rx_too_long) {
		char text[96];
		snprintf(text, sizeof text, i18n_tr(L, "message too long (at most %d bytes)"), PROTO_MAX_MESSAGE);
		char *e = proto_error("too_long", text, NULL);
		if (e)
			queue_text(s, c, e, strlen(e));
		free(e);
	} else if (++c->refused > ws_burst(s) * 4) {
		ws_close(s, c->id);
	} else {
		char *e = proto_error("rate", i18n_tr(L, "too many messages: slow down"), NULL);
		if (e)
			queue_text(s, c, e, strlen(e));
		free(e);
	}
}

static void receive(struct ws *s, struct conn *c, const void *in, size_t len, int final)
{
	if (c->closing)
		return;
	if (!c->rx_too_long) {
		if (c->rxlen + len > PROTO_MAX_MESSAGE) {
			c->rx_too_long = 1;
		} else {
			c->rx = xrealloc(c->rx, c->rxlen + len + 1);
			memcpy(c->rx + c->rxlen, in, len);
			c->rxlen += len;
		}
	}
	if (!final)
		return;
	long long now = now_ms();
	if (c->rx_too_long || !rate_ok(s, c, now)) {
		/* Its errors in its language, as the upper side's (which
		 * phrases those of the messages it is given). */
		refuse(s, c, i18n_of(s->up.lang(s->up.ctx, c->id)));
	} else {
		c->refused = 0;
		s->handling = c;
		s->up.message(s->up.ctx, c->id, c->rx ? c->rx : "", c->rxlen, now);
		s->handling = NULL;
		if (!c->greeted)
			c->greeted = s->up.logged_in(s->up.ctx, c->id);
	}
	free(c->rx);
	c->rx = NULL;
	c->rxlen = 0;
	c->rx_too_long = 0;
}

/* 1 when every message waiting is long. */
static int only_long(const struct outq *q)
{
	for (const struct outq_msg *m = q->head; m; m = m->next)
		if (m->b->len <= WS_SHORT_MESSAGE)
			return 0;
	return q->head != NULL;
}

void ws_wake(struct ws *s)
{
	lws_cancel_service(s->ctx);
}

long ws_handling(const struct ws *s)
{
	return s->handling ? s->handling->id : 0;
}

void ws_cork(struct ws *s, long id)
{
	struct conn *c = find(s, id);
	if (c)
		c->corked++;
}

void ws_uncork(struct ws *s, long id)
{
	struct conn *c = find(s, id);
	if (!c || --c->corked > 0 || !c->out.head || c->pending)
		return;
	c->pending = 1; /* written at the end of this round */
	c->pnext = s->pending;
	s->pending = c;
}

/* Write what waits for c (WS_WRITE_BYTES of it at most) in one write,
 * in a writable callback or at the end of a round; 0, or -1 when the
 * write failed (the connection is lost). */
static int write_conn(struct ws *s, struct conn *c)
{
	if (c->corked) /* written once uncorked (uncork) */
		return 0;
	/* Long messages to many (the lobby's list to a thousand people)
	 * leave over several rounds of the loop, not in one burst that
	 * would hold up everyone's next move; short ones always go, and
	 * the long ones before them (an answer waits for nothing). */
	if (s->round_bytes >= WS_ROUND_BYTES && only_long(&c->out)) {
		lws_callback_on_writable(c->wsi);
		return 0;
	}
	size_t before = c->out.bytes;
	int wrote = outq_write_frames(&c->out, c->wsi, &s->wbuf, WS_WRITE_BYTES);
	if (wrote < 0)
		return -1;
	s->round_bytes += before - c->out.bytes;
	if (wrote > 0) {
		c->waiting_ms = now_ms();
		s->cnt->writes++;
		s->cnt->messages += wrote;
		if (c->wrote_round == s->round)
			s->cnt->twice++;
		c->wrote_round = s->round;
	}
	if (c->out.head || c->closing)
		lws_callback_on_writable(c->wsi);
	return 0;
}

/* At the end of each round of the loop: every connection given messages
 * in it is written to at once, in one write (not at its writable moment
 * in the next round: no wait for that round, and no asking the kernel to
 * watch the socket and then not to). Those closing, written to already in
 * this round, whose last write libwebsockets still holds in part, or
 * carried by HTTP/2 wait for their writable callback instead. */
static void flush_round(struct ws *s)
{
	while (s->pending) {
		struct conn *c = s->pending;
		s->pending = c->pnext;
		c->pnext = NULL;
		c->pending = 0;
		if (c->closing || c->wrote_round == s->round || lws_partial_buffered(c->wsi) ||
		    lws_get_network_wsi(c->wsi) != c->wsi) {
			lws_callback_on_writable(c->wsi);
		} else if (write_conn(s, c) < 0) {
			c->closing = 2;
			outq_clear(&c->out);
			lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
		}
	}
}

static void on_tick(lws_sorted_usec_list_t *sul);

static void schedule_tick(struct ws *s, int ms)
{
	s->tick_due = clock_ms() + ms;
	lws_sul_schedule(s->ctx, 0, &s->tick, on_tick, (lws_usec_t)ms * LWS_US_PER_MS);
}

/* A connection came to an idle server: the tick at its usual pace again. */
static void tick_soon(struct ws *s)
{
	if (s->idle) {
		s->idle = 0;
		schedule_tick(s, WS_TICK_MS);
	}
}

static int callback_tapis(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct ws *s = lws_context_user(lws_get_context(wsi));
	struct conn **pc = user;
	struct conn *c = pc ? *pc : NULL;
	switch (reason) {
	case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
		/* The workers' results applied now: a bot's move leaves in this
		 * round (the tick only notices the tables it changed). */
		if (s && s->up.work(s->up.ctx, now_ms()) > 0)
			s->cnt->woken++;
		break;
	case LWS_CALLBACK_ESTABLISHED: {
		/* Announcements leave as they are made (no Nagle delay). */
		int one = 1, sndbuf = WS_SNDBUF;
		setsockopt(lws_get_socket_fd(wsi), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		/* The kernel's buffer for it bounded too (its growth is left to
		 * the kernel otherwise, up to megabytes a connection). */
		setsockopt(lws_get_socket_fd(wsi), SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
		slot_established(s, wsi);
		tick_soon(s);
		c = xcalloc(1, sizeof *c);
		c->wsi = wsi;
		c->id = s->next_id++;
		c->tokens = ws_burst(s);
		c->tokens_ms = now_ms();
		c->opened_ms = c->tokens_ms;
		lws_get_peer_simple(wsi, c->addr, sizeof c->addr);
		c->next = s->conns;
		s->conns = c;
		s->nconns++;
		byid_add(s, c);
		*pc = c;
		/* The language of the address (ws://host:port/?lang=fr), for
		 * what is said before the hello. */
		char arg[16];
		const char *lang = lws_get_urlarg_by_name(wsi, "lang=", arg, sizeof arg);
		if (!lang || !i18n_lang_known(lang))
			lang = "en";
		const char *why = over_cap(s, c, i18n_of(lang));
		if (why) {
			/* Refused: told why, then closed; the lobby never hears of it. */
			char *e = proto_error("busy", why, NULL);
			if (e)
				queue_text(s, c, e, strlen(e));
			free(e);
			c->closing = 1;
			c->refused_conn = 1;
			s->cnt->busy++;
			lws_callback_on_writable(wsi);
			lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, 2);
		} else {
			s->up.open(s->up.ctx, c->id, c->addr, lang);
		}
		break;
	}
	case LWS_CALLBACK_RECEIVE:
		if (c)
			receive(s, c, in, len, lws_is_final_fragment(wsi));
		break;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (!c)
			break;
		if (c->closing > 1 || (c->closing && !c->out.head)) {
			lws_close_reason(wsi, c->close_code ? (enum lws_close_status)c->close_code : LWS_CLOSE_STATUS_NORMAL,
			                 NULL, 0);
			return -1;
		}
		if (write_conn(s, c) < 0)
			return -1;
		break;
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		/* The client reads nothing more: away from now on, so that what
		 * its tables say meanwhile is kept for its return (`missed`),
		 * not written to a connection closing. */
		if (c && !c->refused_conn && !c->said_bye) {
			c->said_bye = 1;
			s->up.close(s->up.ctx, c->id, now_ms());
		}
		break;
	case LWS_CALLBACK_CLOSED:
		if (c) {
			if (!c->refused_conn && !c->said_bye)
				s->up.close(s->up.ctx, c->id, now_ms());
			s->up.gone(s->up.ctx, c->id);
			conn_free(s, c);
			*pc = NULL;
		}
		break;
	default:
		break;
	}
	return 0;
}

static const char placeholder[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>tapis</title></head>\n"
	"<body><h1>tapis</h1><p>A tapis server. Join it with <code>tapis join ws://HOST:PORT</code>.</p>"
	"</body></html>\n";

/* An HTTP answer made by the server (the placeholder page, /words). It
 * leaves in pieces, one each time the connection may write: over HTTP/2
 * (https:// offers it) a write may not exceed a frame. */
#define HTTP_PIECE 4096
struct http_answer {
	char *body;
	size_t len, sent;
	int owned;
};

static int http_answer(struct lws *wsi, struct http_answer *a, unsigned status, const char *type, const char *body,
                       size_t len, int owned)
{
	unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf;
	a->body = (char *)body;
	a->len = len;
	a->sent = 0;
	a->owned = owned;
	if (lws_add_http_common_headers(wsi, status, type, len, &p, end) ||
	    lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, (const unsigned char *)"no-cache", 8,
	                                 &p, end) ||
	    lws_finalize_write_http_header(wsi, start, &p, end))
		return 1;
	lws_callback_on_writable(wsi);
	return 0;
}

static void http_answer_free(struct http_answer *a)
{
	if (a->owned)
		free(a->body);
	memset(a, 0, sizeof *a);
}

/* 1 when the peer of wsi is on this machine (127.0.0.0/8). */
static int peer_loopback(struct lws *wsi)
{
	char addr[64] = "";
	lws_get_peer_simple(wsi, addr, sizeof addr);
	return !strncmp(addr, "127.", 4) || !strncmp(addr, "::ffff:127.", 11) || !strcmp(addr, "::1");
}

/* GET /healthz or /metrics: the server's answer, to the loopback only
 * unless the operator opened them (metrics are not for strangers). */
static int probe(struct ws *s, struct lws *wsi, struct http_answer *a, const char *uri)
{
	int status = HTTP_STATUS_OK;
	const char *type = "text/plain; charset=utf-8";
	char *body = NULL;
	if (s->o->probe && !s->o->probe_off && (s->o->probe_open || peer_loopback(wsi)))
		body = s->o->probe(s->o->probe_ctx, uri, &status, &type);
	if (!body) {
		lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
		return -1;
	}
	return http_answer(wsi, a, (unsigned)status, type, body, strlen(body), 1);
}

static int callback_http(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	/* Every connection passes here first (protocol 0): counted from its
	 * accept to its end, whatever it becomes. user is not an answer's
	 * in these. */
	if (reason == LWS_CALLBACK_OPENSSL_LOAD_EXTRA_SERVER_VERIFY_CERTS) {
		/* The vhost's TLS context, as it is made: a reload loads the
		 * renewed certificate into it (ws_reload_cert). */
		struct ws *s = lws_context_user(lws_get_context(wsi));
		if (s)
			s->tls = user;
		return 0;
	}
	if (reason == LWS_CALLBACK_FILTER_NETWORK_CONNECTION || reason == LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED ||
	    reason == LWS_CALLBACK_WSI_DESTROY) {
		struct ws *s = lws_context_user(lws_get_context(wsi));
		if (reason == LWS_CALLBACK_FILTER_NETWORK_CONNECTION) {
			const struct lws_filter_network_conn_args *f = user;
			return accept_filter(s, (int)(lws_intptr_t)in, &f->cli_addr);
		}
		if (reason == LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED)
			slot_made(s, wsi);
		else
			slot_gone(s, wsi);
		return 0;
	}
	struct http_answer *a = user;
	if (reason == LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION) {
		/* A WebSocket handshake bound here asked for no protocol of
		 * ours (the one protocol is "tapis"): refused with the reason,
		 * not taken and then left in silence. */
		struct ws *s = lws_context_user(lws_get_context(wsi));
		char arg[16];
		const char *lang = lws_get_urlarg_by_name(wsi, "lang=", arg, sizeof arg);
		s->refused_protocol++;
		lws_return_http_status(wsi, HTTP_STATUS_BAD_REQUEST,
		                       i18n_tr(i18n_of(lang && i18n_lang_known(lang) ? lang : "en"),
		                               "this server speaks the WebSocket subprotocol tapis only"));
		return -1;
	}
	if (reason == LWS_CALLBACK_HTTP) {
		struct ws *s = lws_context_user(lws_get_context(wsi));
		/* Mounted at /words (the page's words), /healthz and /metrics
		 * (the server's), else the placeholder. */
		char uri[64] = "";
		lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
		if (!strcmp(uri, "/healthz") || !strcmp(uri, "/metrics"))
			return probe(s, wsi, a, uri);
		if (!strcmp(uri, "/words") || !strcmp(uri, "/words/")) {
			char arg[16] = "";
			const char *lang = lws_get_urlarg_by_name(wsi, "lang=", arg, sizeof arg);
			char *body = s->o->words ? s->o->words(lang) : NULL;
			if (!body) {
				lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
				return -1;
			}
			return http_answer(wsi, a, HTTP_STATUS_OK, "application/json; charset=utf-8", body, strlen(body), 1);
		}
		if (strcmp(uri, "/") != 0 && strcmp(uri, "/index.html") != 0) {
			lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
			return -1;
		}
		return http_answer(wsi, a, HTTP_STATUS_OK, "text/html", placeholder, sizeof placeholder - 1, 0);
	}
	if (reason == LWS_CALLBACK_HTTP_WRITEABLE && a && a->body) {
		unsigned char buf[LWS_PRE + HTTP_PIECE];
		size_t n = a->len - a->sent < HTTP_PIECE ? a->len - a->sent : HTTP_PIECE;
		int last = a->sent + n == a->len;
		memcpy(buf + LWS_PRE, a->body + a->sent, n);
		if (lws_write(wsi, buf + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < (int)n) {
			http_answer_free(a);
			return -1;
		}
		a->sent += n;
		if (!last) {
			lws_callback_on_writable(wsi);
			return 0;
		}
		http_answer_free(a);
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	}
	if (reason == LWS_CALLBACK_CLOSED_HTTP && a)
		http_answer_free(a);
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/* The memory the system has left for processes (Linux's MemAvailable),
 * in kB, read from path (/proc/meminfo); -1 when unknown. */
static long long mem_available_kb(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[128];
	long long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "MemAvailable:", 13)) {
			kb = strtoll(line + 13, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return kb;
}

/* A memory left that cannot be read (a unit's ProcSubset=pid hides
 * /proc/meminfo) turns the refusal off: said once, as the operator's
 * protection is gone. */
static void check_memory(struct ws *s)
{
	long long floor = s->o->mem_floor_kb > 0 ? s->o->mem_floor_kb : WS_MEM_FLOOR_KB;
	const char *path = s->o->meminfo ? s->o->meminfo : "/proc/meminfo";
	long long left = mem_available_kb(path);
	if (left < 0 && !s->mem_unknown)
		log_say("warning: the memory left cannot be read (%s): new connections are never refused for want "
		        "of memory (a unit with ProcSubset=pid hides /proc/meminfo)",
		        path);
	s->mem_unknown = left < 0;
	int low = left >= 0 && left < floor;
	if (low && !s->mem_low)
		log_at(LOGL_WARNING, "memory running out (%lld kB left): new connections refused", left);
	s->mem_low = low;
}

/* Connections too slow to follow (nothing written for too long while
 * messages wait) are dropped; those silent past the hello time closed. */
static void check_conns(struct ws *s, long long now)
{
	long long hello_ms = s->o->hello_ms > 0 ? s->o->hello_ms : WS_HELLO_MS;
	for (struct conn *c = s->conns; c; c = c->next) {
		if (c->closing > 1)
			continue;
		/* A hello whose password the worker checks is taken later; it
		 * is not closed while it waits for that answer. */
		if (!c->greeted)
			c->greeted = s->up.logged_in(s->up.ctx, c->id);
		if (c->out.head && now - c->waiting_ms > WS_STALL_MS) {
			drop(s, c);
		} else if (!c->greeted && !c->closing && now - c->opened_ms > hello_ms &&
		           !s->up.hello_waiting(s->up.ctx, c->id)) {
			char *e = proto_error("hello_first", i18n_tr(i18n_of(s->up.lang(s->up.ctx, c->id)), "say hello first"), NULL);
			if (e)
				queue_text(s, c, e, strlen(e));
			free(e);
			c->closing = 1;
			lws_callback_on_writable(c->wsi);
			/* Closed in a second even if it does not read. */
			lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, 1);
		}
	}
}

static void on_tick(lws_sorted_usec_list_t *sul)
{
	struct ws *s = lws_container_of(sul, struct ws, tick);
	long long now = now_ms();
	/* How late it comes: the loop's lag (a round that held the loop,
	 * a machine short of CPU). */
	double at = clock_ms();
	double late = s->tick_due > 0 && at > s->tick_due ? at - s->tick_due : 0;
	s->lag[s->lagpos] = late;
	s->lagpos = (s->lagpos + 1) % WS_LAG_SAMPLES;
	if (s->nlag < WS_LAG_SAMPLES)
		s->nlag++;
	s->tick_ms = now;
	s->up.tick(s->up.ctx, now);
	if (now - s->checked_ms >= 100 || now < s->checked_ms) {
		s->checked_ms = now;
		check_conns(s, now);
		check_memory(s);
		log_flush(0);
	}
	/* Nothing to look after: the next tick in a while (a connection
	 * coming brings it back at once, tick_soon). */
	s->idle = s->up.idle && s->up.idle(s->up.ctx);
	schedule_tick(s, s->idle ? WS_IDLE_TICK_MS : WS_TICK_MS);
}

/* The open-file limit raised to what the system allows this process (a
 * server holds a descriptor a connection and a hand history a table);
 * the limit in force. */
static int raise_fd_limit(void)
{
	struct rlimit r;
	if (getrlimit(RLIMIT_NOFILE, &r) < 0)
		return 0;
	if (r.rlim_cur < r.rlim_max) {
		struct rlimit want = r;
		want.rlim_cur = r.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &want) == 0)
			r = want;
	}
	return r.rlim_cur == RLIM_INFINITY || r.rlim_cur > (1 << 30) ? 1 << 30 : (int)r.rlim_cur;
}

struct ws *ws_new(const struct ws_options *o, const struct ws_upper *up, char *err, size_t errlen)
{
	struct ws *s = xcalloc(1, sizeof *s);
	s->o = o;
	s->up = *up;
	s->next_id = 1;
	s->cnt = o->counters ? o->counters : &s->own;
	s->fd_limit = raise_fd_limit();
	check_memory(s);
	lws_set_log_level(LLL_ERR, lws_emit);

	static const struct lws_protocols protocols[] = {
		{ "http", callback_http, sizeof(struct http_answer), 0, 0, NULL, 0 },
		/* A write of WS_WRITE_BYTES leaves in one send (libwebsockets
		 * would cut it at the receive buffer's size otherwise). */
		{ "tapis", callback_tapis, sizeof(struct conn *), PROTO_MAX_MESSAGE, 0, NULL, WS_WRITE_BYTES },
		{ NULL, NULL, 0, 0, 0, NULL, 0 },
	};
	/* The page's words from the catalogues, the sound cues, the page. */
	static const struct lws_http_mount metrics_mount = {
		.mountpoint = "/metrics", .mountpoint_len = 8, .origin = "http",
		.origin_protocol = LWSMPRO_CALLBACK,
	};
	static const struct lws_http_mount healthz_mount = {
		.mount_next = &metrics_mount, .mountpoint = "/healthz", .mountpoint_len = 8, .origin = "http",
		.origin_protocol = LWSMPRO_CALLBACK,
	};
	static const struct lws_http_mount words_mount = {
		.mount_next = &healthz_mount, .mountpoint = "/words", .mountpoint_len = 6, .origin = "http",
		.origin_protocol = LWSMPRO_CALLBACK,
	};
	/* The context keeps these (not copied): they live as long as it. */
	struct lws_http_mount *sounds_mount = &s->sounds_mount, *page_mount = &s->page_mount;
	sounds_mount->mount_next = &words_mount;
	sounds_mount->mountpoint = "/sounds";
	sounds_mount->mountpoint_len = 7;
	sounds_mount->origin = o->sounds_dir;
	sounds_mount->origin_protocol = LWSMPRO_FILE;
	static const struct lws_protocol_vhost_options wav = { NULL, NULL, ".wav", "audio/wav" };
	sounds_mount->extra_mimetypes = &wav;
	page_mount->mount_next = o->sounds_dir ? sounds_mount : &words_mount;
	page_mount->mountpoint = "/";
	page_mount->mountpoint_len = 1;
	page_mount->origin = o->web_dir;
	page_mount->def = "index.html";
	page_mount->origin_protocol = LWSMPRO_FILE;
	/* The page's web app manifest (a phone adds the page to its home screen). */
	static const struct lws_protocol_vhost_options manifest = { NULL, NULL, ".webmanifest", "application/manifest+json" };
	page_mount->extra_mimetypes = &manifest;

	/* Every HTTP answer (the page that takes passwords first): its own
	 * scripts and styles only, no type guessed, no frame; under TLS,
	 * browsers told to come back by https alone for a year. libwebsockets
	 * keeps the list's address: it is static. */
#define WS_CSP "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; " \
	"form-action 'none'; frame-ancestors 'none'"
	static const struct lws_protocol_vhost_options hsts = { NULL, NULL, "strict-transport-security:",
	                                                        "max-age=31536000" };
	static const struct lws_protocol_vhost_options nosniff_tls = { &hsts, NULL, "x-content-type-options:",
	                                                               "nosniff" };
	static const struct lws_protocol_vhost_options nosniff = { NULL, NULL, "x-content-type-options:", "nosniff" };
	static const struct lws_protocol_vhost_options csp_tls = { &nosniff_tls, NULL, "content-security-policy:",
	                                                           WS_CSP };
	static const struct lws_protocol_vhost_options csp = { &nosniff, NULL, "content-security-policy:", WS_CSP };

	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.headers = o->cert && o->key ? &csp_tls : &csp;
	info.port = o->port;
	info.iface = o->host;
	info.protocols = protocols;
	info.mounts = o->web_dir ? page_mount : o->sounds_dir ? sounds_mount : &words_mount;
	info.user = s;
	/* A handshake not done within the hello time is closed. */
	long long hello_ms = o->hello_ms > 0 ? o->hello_ms : WS_HELLO_MS;
	info.timeout_secs = (unsigned)((hello_ms + 999) / 1000);
	info.timeout_secs_ah_idle = info.timeout_secs;
	info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_DISABLE_IPV6;
	if (o->cert && o->key) {
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
		info.ssl_cert_filepath = o->cert;
		info.ssl_private_key_filepath = o->key;
	}
	s->ctx = evloop_context(&info, &s->loop);
	if (!s->ctx) {
		errf(err, errlen, "cannot listen on %s port %d", o->host, o->port);
		free(s);
		return NULL;
	}
	s->vh = lws_get_vhost_by_name(s->ctx, "default");
	s->port = s->vh ? lws_get_vhost_listen_port(s->vh) : o->port;
	schedule_tick(s, WS_TICK_MS);
	watching = s;
	return s;
}

int ws_port(const struct ws *s)
{
	return s->port;
}

void *ws_loop(const struct ws *s)
{
	return s->loop;
}

void ws_run(struct ws *s, volatile sig_atomic_t *stop)
{
	while (!*stop) {
		s->round_bytes = 0;
		s->round++;
		s->cnt->rounds++;
		if (evloop_service(s->ctx, s->loop) < 0)
			break;
		flush_round(s);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void ws_stats(const struct ws *s, struct ws_stats *out)
{
	memset(out, 0, sizeof *out);
	out->conns = s->nconns;
	out->handshakes = s->half;
	for (const struct conn *c = s->conns; c; c = c->next) {
		out->queued_bytes += (long long)c->out.bytes;
		for (const struct outq_msg *m = c->out.head; m; m = m->next)
			out->queued_msgs++;
	}
	if (s->nlag) {
		double v[WS_LAG_SAMPLES];
		memcpy(v, s->lag, (size_t)s->nlag * sizeof *v);
		qsort(v, (size_t)s->nlag, sizeof *v, cmp_double);
		out->lag_p50_ms = v[(s->nlag - 1) / 2];
		out->lag_p99_ms = v[(s->nlag - 1) * 99 / 100];
		out->lag_max_ms = v[s->nlag - 1];
	}
	out->tick_ms = s->tick_ms;
	out->rounds = s->round;
	out->refused_protocol = s->refused_protocol;
	out->idle = s->idle;
	out->mem_low = s->mem_low;
	out->mem_unknown = s->mem_unknown;
}

int ws_reload_cert(struct ws *s, char *err, size_t errlen)
{
	if (!s->o->cert || !s->o->key)
		return 0;
	if (!s->tls)
		return errf(err, errlen, "no TLS context to load the certificate into");
	/* Checked in a context of its own first: a certificate and key that
	 * do not go together leave the one in force as it is. */
	SSL_CTX *trial = SSL_CTX_new(TLS_server_method());
	int ok = trial && SSL_CTX_use_certificate_chain_file(trial, s->o->cert) == 1 &&
	         SSL_CTX_use_PrivateKey_file(trial, s->o->key, SSL_FILETYPE_PEM) == 1 && SSL_CTX_check_private_key(trial) == 1;
	SSL_CTX_free(trial);
	if (!ok || SSL_CTX_use_certificate_chain_file(s->tls, s->o->cert) != 1 ||
	    SSL_CTX_use_PrivateKey_file(s->tls, s->o->key, SSL_FILETYPE_PEM) != 1)
		return errf(err, errlen, "the certificate %s and key %s were not taken (unreadable, or not a pair)",
		            s->o->cert, s->o->key);
	return 0;
}

void ws_free(struct ws *s)
{
	if (!s)
		return;
	if (watching == s)
		watching = NULL;
	evloop_destroy(s->ctx, s->loop);
	while (s->conns)
		conn_free(s, s->conns);
	free(s->byid);
	free(s->slots);
	outq_scratch_free(&s->wbuf);
	free(s);
}
