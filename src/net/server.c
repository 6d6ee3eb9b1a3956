/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <libwebsockets.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
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
#include "net/cladopt.h"
#include "net/cluster.h"
#include "net/clnet.h"
#include "net/evloop.h"
#include "net/lobby.h"
#include "net/netaddr.h"
#include "net/mod.h"
#include "net/outq.h"
#include "net/proto.h"
#include "net/storew.h"
#include "net/work.h"
#include "i18n/i18n.h"

static volatile sig_atomic_t stop_asked;
static struct lws_context *running; /* for the signal handler's wake-up */

static void on_signal(int sig)
{
	(void)sig;
	stop_asked = 1;
	if (running)
		lws_cancel_service(running);
}

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
	int refused_conn;     /* over a connection cap: closed without a word to the lobby */
	int said_bye;         /* the client closed it: the lobby was told then (it reads nothing more) */
	long long opened_ms;  /* when the handshake ended */
	long long waiting_ms; /* messages wait since then (the last write, or the first message) */
	int greeted;          /* the lobby took its hello */
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

struct server {
	const struct server_options *o;
	struct lws_context *ctx;
	void *loop;           /* the context's loop (evloop) */
	struct lws_vhost *vh;
	struct conn *conns;
	int nconns;
	struct conn **byid;   /* the connections by number: buckets of id % nbyid */
	size_t nbyid;         /* a power of two, grown with the connections */
	long next_id;
	struct store store;
	struct lobby lobby;
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
	struct server_counters own, *cnt; /* cnt: own, or the tests' */
	struct cluster *cluster; /* cluster mode: the other nodes, through Redis; or NULL */
	struct clnet *clnet;     /* and the lobby and tables joined to them (net/clnet) */
	struct cladopt *adopt;   /* and the leases of its tables (net/cladopt) */
	/* On PostgreSQL, the store's workers, each on its own connection
	 * (net/storew): the tables taken over read and replayed; the guests'
	 * sessions written. NULL: on the loop. */
	struct storew *restorer, *sessions;
	struct sess_batch *sess_next; /* sessions to write once the batch being written is in */
	int sess_busy;           /* a batch is being written */
	struct conn *handling;   /* the connection whose message the lobby is given */
};

/* libwebsockets' own lines (accept failing when descriptors run out, a
 * thousand times a second) go through the same limit. */
static void lws_emit(int level, const char *line)
{
	(void)level;
	char buf[200];
	snprintf(buf, sizeof buf, "%s", line);
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	log_say("%s", buf);
}

/* Every message the lobby sends names its connection by number: found in
 * a bucket, not by walking every connection (hundreds of them, for each of
 * the messages an action makes). */
static struct conn **bucket(struct server *s, long id)
{
	return &s->byid[(size_t)id & (s->nbyid - 1)];
}

static struct conn *find(struct server *s, long id)
{
	if (!s->nbyid)
		return NULL;
	for (struct conn *c = *bucket(s, id); c; c = c->hnext)
		if (c->id == id)
			return c;
	return NULL;
}

/* Index c (counted already in nconns). */
static void byid_add(struct server *s, struct conn *c)
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
static void drop(struct server *s, struct conn *c)
{
	s->cnt->dropped++;
	c->closing = 2;
	outq_clear(&c->out);
	lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

static void queue_buf(struct server *s, struct conn *c, struct outq_buf *b)
{
	if (c->closing > 1)
		return;
	if (c->out.head && c->out.bytes + b->len > SERVER_QUEUE_BYTES) {
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

static void queue_text(struct server *s, struct conn *c, const char *text, size_t len)
{
	struct outq_buf *b = outq_buf_new(text, len);
	queue_buf(s, c, b);
	outq_buf_unref(b);
}

static void io_send(void *ctx, long id, char *text)
{
	struct server *s = ctx;
	if (id >= LOBBY_RELAYED_CONN) { /* a person of another node: to it (none once the cluster is left) */
		if (s->clnet)
			clnet_send(s->clnet, id, text);
		else
			free(text);
		return;
	}
	struct conn *c = find(s, id);
	if (c)
		queue_text(s, c, text, strlen(text));
	free(text);
}

/* One buffer for every listener (the lobby's list, a table's entry). */
static void io_send_many(void *ctx, const long *ids, int n, char *text)
{
	struct server *s = ctx;
	for (int i = 0; i < n; i++)
		if (ids[i] >= LOBBY_RELAYED_CONN && s->clnet) /* people of other nodes: to them */
			clnet_send(s->clnet, ids[i], xstrdup(text));
	struct outq_buf *b = outq_buf_take(text);
	for (int i = 0; i < n; i++) {
		struct conn *c = ids[i] < LOBBY_RELAYED_CONN ? find(s, ids[i]) : NULL;
		if (c)
			queue_buf(s, c, b);
	}
	outq_buf_unref(b);
}

static void io_close(void *ctx, long id)
{
	struct server *s = ctx;
	if (id >= LOBBY_RELAYED_CONN) {
		if (s->clnet)
			clnet_close(s->clnet, id);
		return;
	}
	struct conn *c = find(s, id);
	if (c && !c->closing) {
		c->closing = 1;
		lws_callback_on_writable(c->wsi);
		/* Gone in two seconds even if it does not read its last words. */
		lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, 2);
	}
}

/* A client of this node told to connect again at once (net/clnet: its
 * relay to another node dropped). */
static void io_again(void *ctx, long id)
{
	struct server *s = ctx;
	struct conn *c = find(s, id);
	if (c && !c->closing)
		c->close_code = PROTO_CLOSE_AGAIN;
	io_close(ctx, id);
}

static void conn_free(struct server *s, struct conn *c)
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

/* 1 when the connection may send one more message now. */
static int rate_ok(struct conn *c, long long now)
{
	c->tokens += (double)(now - c->tokens_ms) * SERVER_RATE_PER_S / 1000.0;
	c->tokens_ms = now;
	if (c->tokens > SERVER_RATE_BURST)
		c->tokens = SERVER_RATE_BURST;
	if (c->tokens < 1)
		return 0;
	c->tokens -= 1;
	return 1;
}

/* Why the new connection c goes over a cap (a message for its client), or
 * NULL. c is already counted. */
static int count_addr(const struct server *s, const char *addr)
{
	int n = 0;
	for (int i = 0; i < s->nslots; i++)
		n += s->slots[i].live && !strcmp(s->slots[i].addr, addr);
	return n;
}

/* Why c is over a cap, in L, or NULL. */
static const char *over_cap(struct server *s, struct conn *c, const struct i18n_lang *L)
{
	/* The WebSocket connections made (the handshakes under way have
	 * their own bound: accept_filter). */
	if (s->o->max_conns > 0 && s->nconns > s->o->max_conns)
		return i18n_tr(L, "the server is full: too many connections, try again later");
	/* The descriptors: the last SERVER_CAP_SLACK before those kept for
	 * the store and the logs are told, past them closed at the accept
	 * (descriptors are given lowest first: a descriptor's number counts
	 * those open). */
	if (s->fd_limit > 0 && lws_get_socket_fd(c->wsi) >= s->fd_limit - SERVER_FD_RESERVE - SERVER_CAP_SLACK)
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
static void drop_handshake(struct server *s, int fd)
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
static void handshake_room(struct server *s, const char *prefix, int self)
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
static void slot_established(struct server *s, struct lws *wsi)
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
static int accept_filter(struct server *s, int fd, const struct sockaddr_storage *sa)
{
	if (fd < 0)
		return -1;
	if (s->fd_limit > 0 && fd >= s->fd_limit - SERVER_FD_RESERVE) {
		log_say("descriptors running out: new connections refused");
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
	if (s->o->max_conns > 0 && s->nconns >= s->o->max_conns + SERVER_CAP_SLACK) {
		log_say("connections at the cap (--max-conns): new ones closed at the accept");
		s->cnt->shut++;
		return -1;
	}
	if (s->o->max_per_addr > 0 && count_addr(s, addr) >= s->o->max_per_addr + SERVER_CAP_SLACK) {
		log_say("an address at its cap (--max-per-addr): its new connections closed at the accept");
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

static struct server *watching; /* the server running, for recv */

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
	struct server *s = watching;
	if (n > 0 && s && !(flags & MSG_PEEK) && fd >= 0 && fd < s->nslots && s->slots[fd].live &&
	    frames_scan(&s->slots[fd].fr, buf, (size_t)n) < 0) {
		log_say("a client sent a frame without its mask: connection closed");
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
	struct server *s = watching;
	int fd = n > 0 && s && fd_of ? fd_of(ssl) : -1;
	if (fd >= 0 && fd < s->nslots && s->slots[fd].live && frames_scan(&s->slots[fd].fr, buf, (size_t)n) < 0) {
		log_say("a client sent a frame without its mask: connection closed");
		return -1;
	}
	return n;
}
#endif

static void slot_made(struct server *s, struct lws *wsi)
{
	int fd = lws_get_socket_fd(wsi);
	if (fd >= 0 && fd < s->nslots && s->slots[fd].live && !s->slots[fd].wsi)
		s->slots[fd].wsi = wsi;
}

static void slot_gone(struct server *s, struct lws *wsi)
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
static void refuse(struct server *s, struct conn *c, const struct i18n_lang *L)
{
	if (c->rx_too_long) {
		char text[96];
		snprintf(text, sizeof text, i18n_tr(L, "message too long (at most %d bytes)"), PROTO_MAX_MESSAGE);
		char *e = proto_error("too_long", text, NULL);
		if (e)
			queue_text(s, c, e, strlen(e));
		free(e);
	} else if (++c->refused > SERVER_RATE_BURST * 4) {
		io_close(s, c->id);
	} else {
		char *e = proto_error("rate", i18n_tr(L, "too many messages: slow down"), NULL);
		if (e)
			queue_text(s, c, e, strlen(e));
		free(e);
	}
}

static void receive(struct server *s, struct conn *c, const void *in, size_t len, int final)
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
	if (c->rx_too_long || !rate_ok(c, now)) {
		/* Its errors in its language, as the lobby's (which phrases
		 * those of the messages it is given). */
		refuse(s, c, i18n_of(lobby_lang(&s->lobby, c->id)));
	} else {
		c->refused = 0;
		/* A table of another node: relayed to it. */
		if (!s->clnet || !clnet_message(s->clnet, c->id, c->rx ? c->rx : "", c->rxlen)) {
			s->handling = c;
			lobby_message(&s->lobby, c->id, c->rx ? c->rx : "", c->rxlen, now);
			s->handling = NULL;
		}
		if (!c->greeted)
			c->greeted = lobby_logged_in(&s->lobby, c->id);
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
		if (m->b->len <= SERVER_SHORT_MESSAGE)
			return 0;
	return q->head != NULL;
}

/* On a worker: a bot's move or a hint is ready; the loop wakes at once
 * (LWS_CALLBACK_EVENT_WAIT_CANCELLED) instead of at its next tick. */
static void work_ready(void *ctx)
{
	struct server *s = ctx;
	lws_cancel_service(s->ctx);
}

/* ---- a guest's session written off the loop ----
 *
 * The lobby writes a guest's session as it welcomes them (its token
 * hashed, so that they may come back with it on any node). On PostgreSQL
 * that is a commit, which the loop would wait for; the write goes to the
 * sessions' worker instead, and what the lobby says to that connection
 * meanwhile (the welcome and its token first) is held until it is done:
 * no client holds a token the store does not know. A session removed
 * goes the same way (in order with the writes), and nothing waits for it.
 * The writes that come while a batch is being written go together in the
 * next (one transaction, one commit: a burst of logins, a node's clients
 * coming back after another's loss, costs a few commits, not one each). */
#define SESS_BATCH_MAX 4096 /* writes waiting: more are made by the caller, at once */

struct sess_item {
	long conn;            /* the connection held until it is written (0: none) */
	long long expires;
	char *name;
	char *hash;           /* NULL: removed */
};

struct sess_batch {
	struct server *s;
	struct sess_item *v;
	int n, cap;
};

static void sess_run(struct store *st, void *arg)
{
	struct sess_batch *b = arg;
	struct store_session_write *w = xcalloc((size_t)b->n, sizeof *w);
	for (int i = 0; i < b->n; i++)
		w[i] = (struct store_session_write){ b->v[i].name, b->v[i].hash, b->v[i].expires };
	store_session_write_many(st, w, b->n);
	free(w);
}

static void uncork(struct server *s, long id)
{
	struct conn *c = find(s, id);
	if (!c || --c->corked > 0 || !c->out.head || c->pending)
		return;
	c->pending = 1; /* written at the end of this round */
	c->pnext = s->pending;
	s->pending = c;
}

/* The batch written (or, the worker gone, here): its connections
 * uncorked. */
static void sess_release(struct server *s, struct sess_batch *b)
{
	for (int i = 0; i < b->n; i++) {
		if (b->v[i].conn)
			uncork(s, b->v[i].conn);
		free(b->v[i].name);
		free(b->v[i].hash);
	}
	free(b->v);
	free(b);
}

static void sess_done(void *arg, int ran);

/* The writes waiting, to the worker (one batch at a time). */
static void sess_flush(struct server *s)
{
	struct sess_batch *b = s->sess_next;
	if (!b || s->sess_busy)
		return;
	s->sess_next = NULL;
	if (storew_submit(s->sessions, sess_run, sess_done, b) < 0) {
		sess_run(&s->store, b); /* cannot be: one job at most */
		sess_release(s, b);
		return;
	}
	s->sess_busy = 1;
}

static void sess_done(void *arg, int ran)
{
	struct sess_batch *b = arg;
	struct server *s = b->s;
	if (!ran) /* the worker stopped first (the server stopping): written here */
		sess_run(&s->store, b);
	sess_release(s, b);
	s->sess_busy = 0;
	if (ran)
		sess_flush(s);
}

/* The store's defer_session: 0 taken, -1 written by the caller (too many
 * waiting). */
static int defer_session(void *ctx, const char *name, const char *hash, long long expires)
{
	struct server *s = ctx;
	struct sess_batch *b = s->sess_next;
	if (!b) {
		b = s->sess_next = xcalloc(1, sizeof *b);
		b->s = s;
	}
	if (b->n >= SESS_BATCH_MAX)
		return -1;
	xgrow((void **)&b->v, &b->cap, b->n + 1, sizeof *b->v);
	struct sess_item *it = &b->v[b->n++];
	it->conn = hash && s->handling ? s->handling->id : 0;
	it->expires = expires;
	it->name = xstrdup(name);
	it->hash = hash ? xstrdup(hash) : NULL;
	if (it->conn)
		s->handling->corked++;
	sess_flush(s);
	return 0;
}

/* The store's workers (cluster mode on PostgreSQL), each on a connection
 * of its own: 0, or -1 with a message. */
static int storew_start(struct server *s, char *err, size_t errlen)
{
	const struct server_options *o = s->o;
	if (!o->cluster || !o->store || strcmp(o->store, "postgresql") != 0)
		return 0;
	s->restorer = storew_new(o->store, o->db, err, errlen);
	s->sessions = s->restorer ? storew_new(o->store, o->db, err, errlen) : NULL;
	if (!s->sessions) {
		storew_free(s->restorer);
		s->restorer = NULL;
		return -1;
	}
	storew_set_notify(s->restorer, work_ready, s);
	storew_set_notify(s->sessions, work_ready, s);
	s->store.defer_session = defer_session;
	s->store.defer_ctx = s;
	cladopt_set_worker(s->adopt, s->restorer);
	return 0;
}

/* Every job back, the last sessions written: before the leases are
 * handed over (the next owner reads them). */
static void storew_stop(struct server *s)
{
	if (!s->restorer)
		return;
	storew_set_notify(s->restorer, NULL, NULL);
	storew_set_notify(s->sessions, NULL, NULL);
	s->store.defer_session = NULL;
	storew_free(s->restorer);
	storew_free(s->sessions);
	s->restorer = s->sessions = NULL;
	if (s->sess_next) { /* never given to the worker: written here */
		sess_run(&s->store, s->sess_next);
		sess_release(s, s->sess_next);
		s->sess_next = NULL;
	}
}

/* The store's workers' results taken on the loop; how many. */
static int storew_take(struct server *s)
{
	if (!s->restorer)
		return 0;
	return storew_collect(s->restorer) + storew_collect(s->sessions);
}

/* Write what waits for c (SERVER_WRITE_BYTES of it at most) in one write,
 * in a writable callback or at the end of a round; 0, or -1 when the
 * write failed (the connection is lost). */
static int write_conn(struct server *s, struct conn *c)
{
	if (c->corked) /* written once uncorked (uncork) */
		return 0;
	/* Long messages to many (the lobby's list to a thousand people)
	 * leave over several rounds of the loop, not in one burst that
	 * would hold up everyone's next move; short ones always go, and
	 * the long ones before them (an answer waits for nothing). */
	if (s->round_bytes >= SERVER_ROUND_BYTES && only_long(&c->out)) {
		lws_callback_on_writable(c->wsi);
		return 0;
	}
	size_t before = c->out.bytes;
	int wrote = outq_write_frames(&c->out, c->wsi, &s->wbuf, SERVER_WRITE_BYTES);
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
static void flush_round(struct server *s)
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

static int callback_tapis(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct server *s = lws_context_user(lws_get_context(wsi));
	struct conn **pc = user;
	struct conn *c = pc ? *pc : NULL;
	switch (reason) {
	case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
		/* The workers' results applied now: a bot's move leaves in this
		 * round (the tick only notices the tables it changed). */
		if (s && lobby_work(&s->lobby, now_ms()) + storew_take(s) > 0)
			s->cnt->woken++;
		break;
	case LWS_CALLBACK_ESTABLISHED: {
		/* Announcements leave as they are made (no Nagle delay). */
		int one = 1, sndbuf = SERVER_SNDBUF;
		setsockopt(lws_get_socket_fd(wsi), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		/* The kernel's buffer for it bounded too (its growth is left to
		 * the kernel otherwise, up to megabytes a connection). */
		setsockopt(lws_get_socket_fd(wsi), SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
		slot_established(s, wsi);
		c = xcalloc(1, sizeof *c);
		c->wsi = wsi;
		c->id = s->next_id++;
		c->tokens = SERVER_RATE_BURST;
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
			lobby_open(&s->lobby, c->id, c->addr, lang);
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
			lobby_close(&s->lobby, c->id, now_ms());
		}
		break;
	case LWS_CALLBACK_CLOSED:
		if (c) {
			if (!c->refused_conn && !c->said_bye)
				lobby_close(&s->lobby, c->id, now_ms());
			if (s->clnet)
				clnet_closed(s->clnet, c->id);
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

static int http_answer(struct lws *wsi, struct http_answer *a, const char *type, const char *body, size_t len,
                       int owned)
{
	unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf;
	a->body = (char *)body;
	a->len = len;
	a->sent = 0;
	a->owned = owned;
	if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, type, len, &p, end) ||
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

static int callback_http(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	/* Every connection passes here first (protocol 0): counted from its
	 * accept to its end, whatever it becomes. user is not an answer's
	 * in these. */
	if (reason == LWS_CALLBACK_FILTER_NETWORK_CONNECTION || reason == LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED ||
	    reason == LWS_CALLBACK_WSI_DESTROY) {
		struct server *s = lws_context_user(lws_get_context(wsi));
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
	if (reason == LWS_CALLBACK_HTTP) {
		struct server *s = lws_context_user(lws_get_context(wsi));
		/* Mounted at /words (the page's words), else the placeholder. */
		char uri[64] = "";
		lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
		if (!strcmp(uri, "/words") || !strcmp(uri, "/words/")) {
			char arg[16] = "";
			const char *lang = lws_get_urlarg_by_name(wsi, "lang=", arg, sizeof arg);
			char *body = s->o->words ? s->o->words(lang) : NULL;
			if (!body) {
				lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
				return -1;
			}
			return http_answer(wsi, a, "application/json; charset=utf-8", body, strlen(body), 1);
		}
		if (strcmp(uri, "/") != 0 && strcmp(uri, "/index.html") != 0) {
			lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
			return -1;
		}
		return http_answer(wsi, a, "text/html", placeholder, sizeof placeholder - 1, 0);
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
static void check_memory(struct server *s)
{
	long long floor = s->o->mem_floor_kb > 0 ? s->o->mem_floor_kb : SERVER_MEM_FLOOR_KB;
	const char *path = s->o->meminfo ? s->o->meminfo : "/proc/meminfo";
	long long left = mem_available_kb(path);
	if (left < 0 && !s->mem_unknown)
		log_say("warning: the memory left cannot be read (%s): new connections are never refused for want "
		        "of memory (a unit with ProcSubset=pid hides /proc/meminfo)",
		        path);
	s->mem_unknown = left < 0;
	int low = left >= 0 && left < floor;
	if (low && !s->mem_low)
		log_say("memory running out (%lld kB left): new connections refused", left);
	s->mem_low = low;
}

/* Connections too slow to follow (nothing written for too long while
 * messages wait) are dropped; those silent past the hello time closed. */
static void check_conns(struct server *s, long long now)
{
	long long hello_ms = s->o->hello_ms > 0 ? s->o->hello_ms : SERVER_HELLO_MS;
	for (struct conn *c = s->conns; c; c = c->next) {
		if (c->closing > 1)
			continue;
		/* A hello whose password the worker checks is taken later; it
		 * is not closed while it waits for that answer. */
		if (!c->greeted)
			c->greeted = lobby_logged_in(&s->lobby, c->id);
		if (c->out.head && now - c->waiting_ms > SERVER_STALL_MS) {
			drop(s, c);
		} else if (!c->greeted && !c->closing && now - c->opened_ms > hello_ms &&
		           !lobby_hello_waiting(&s->lobby, c->id)) {
			char *e = proto_error("hello_first", i18n_tr(i18n_of(lobby_lang(&s->lobby, c->id)), "say hello first"), NULL);
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
	struct server *s = lws_container_of(sul, struct server, tick);
	long long now = now_ms();
	if (s->clnet)
		clnet_tick(s->clnet, now);
	lobby_tick(&s->lobby, now);
	storew_take(s);
	if (s->adopt)
		cladopt_tick(s->adopt, now);
	if (now - s->checked_ms >= 100 || now < s->checked_ms) {
		s->checked_ms = now;
		check_conns(s, now);
		check_memory(s);
		log_flush(0);
	}
	lws_sul_schedule(s->ctx, 0, &s->tick, on_tick, 5 * LWS_US_PER_MS);
}

/* Cluster mode: the node keeps its lease and says what it sees of the
 * others. The lobby and the tables are not yet wired to it
 * (docs/cluster.md, "Still to build"): these hooks are where a lost
 * node's tables will be rebuilt from the store and the lobby told. */
static void cl_link(void *ctx, int up)
{
	struct server *s = ctx;
	log_say("cluster: the link to Redis is %s", up ? "up" : "down, trying again");
	clnet_link(s->clnet, up);
}

static void cl_seen(void *ctx, const char *node, const char *info)
{
	struct server *s = ctx;
	log_say("cluster: node %s seen (%s)", node, info);
	clnet_node_seen(s->clnet, node);
}

static void cl_lost(void *ctx, const char *node)
{
	struct server *s = ctx;
	log_say("cluster: node %s lost", node);
	clnet_node_lost(s->clnet, node);
}

/* A lost node's table won: rebuilt from the store at the next tick
 * (net/cladopt); one whose lease another node took: stopped here. */
static void cl_adopted(void *ctx, long table)
{
	struct server *s = ctx;
	log_say("cluster: table %ld taken from a lost node", table);
	cladopt_adopted(s->adopt, table);
}

static void cl_table_lost(void *ctx, long table)
{
	struct server *s = ctx;
	log_say("cluster: table %ld now owned by another node", table);
	cladopt_lost(s->adopt, table);
	clnet_table_lost(s->clnet, table);
}

/* The node's id: the one given, or the host's name and the port, in the
 * letters an id may have. */
static void node_name(const struct server_options *o, int port, char *id, size_t len)
{
	if (o->node_id) {
		snprintf(id, len, "%s", o->node_id);
		return;
	}
	char host[64] = "tapis";
	gethostname(host, sizeof host - 1);
	host[sizeof host - 1] = '\0';
	int n = snprintf(id, len, "%.40s:%d", host, port);
	for (int i = 0; i < n && (size_t)i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:", id[i]))
			id[i] = '-';
}

static int cluster_join(struct server *s, int port, char *err, size_t errlen)
{
	const struct server_options *o = s->o;
	char id[CLUSTER_ID_MAX + 1], info[CLUSTER_INFO_MAX + 1];
	node_name(o, port, id, sizeof id);
	snprintf(info, sizeof info, "%s://%.200s:%d", o->cert ? "wss" : "ws", o->host, port);
	struct cluster_hooks h = { s, cl_link, cl_seen, cl_lost, cl_adopted, cl_table_lost };
	s->cluster = cluster_new(s->loop, o->cluster, id, info, &h, err, errlen);
	if (!s->cluster)
		return -1;
	struct clnet_io io = { io_send, io_again, s };
	s->clnet = clnet_new(s->cluster, &s->lobby, io);
	s->adopt = cladopt_new(&s->lobby, s->cluster);
	log_say("cluster: node %s, Redis at %s", id, o->cluster);
	return 0;
}

void server_options_default(struct server_options *o)
{
	memset(o, 0, sizeof *o);
	o->host = "127.0.0.1";
	o->port = SERVER_PORT;
	o->store = "sqlite";
	o->grace_ms = 30000;
	o->bot_delay_ms = 800;
	o->turn_ms = SERVER_TURN_SECONDS * 1000LL;
	o->keep_ms = SERVER_KEEP_MS;
	o->deserted_ms = SERVER_DESERTED_MS;
	o->tables_max = LOBBY_TABLES_MAX;
	o->close_ms = SERVER_CLOSE_MINUTES * 60000LL;
	o->max_conns = SERVER_MAX_CONNS;
	o->max_per_addr = SERVER_MAX_PER_ADDR;
	o->max_handshakes = SERVER_MAX_HANDSHAKES;
	o->handshakes_per_prefix = SERVER_HANDSHAKES_PER_PREFIX;
	o->hello_ms = SERVER_HELLO_MS;
	o->mem_floor_kb = SERVER_MEM_FLOOR_KB;
	o->tables_per_addr = LOBBY_TABLES_PER_ADDR;
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

int server_run(const struct server_options *o, char *err, size_t errlen)
{
	struct server *s = xcalloc(1, sizeof *s);
	s->o = o;
	s->next_id = 1;
	s->cnt = o->counters ? o->counters : &s->own;
	/* A stop asked while starting up is heard once the loop runs. */
	stop_asked = 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (store_open(&s->store, o->store ? o->store : "sqlite", o->db ? o->db : ":memory:", err, errlen) < 0)
		goto no_store;
	struct host_config cfg = { o->grace_ms, o->bot_delay_ms, o->log_dir, o->turn_ms, o->keep_ms, o->seed,
	                           o->close_ms, NULL, NULL, o->think, o->deserted_ms };
	struct lobby_io io = { io_send, io_close, s, io_send_many };
	/* A node of a cluster restores only the tables whose lease it takes. */
	if ((o->cluster ? lobby_init_shared : lobby_init)(&s->lobby, &s->store, &cfg, io, o->cheap_hash, now_ms(), err,
	                                                 errlen) < 0)
		goto no_lobby;
	mod_attach(&s->lobby);
	s->lobby.tables_per_addr = o->tables_per_addr;
	s->lobby.tables_max = o->tables_max;
	s->fd_limit = raise_fd_limit();
	check_memory(s);
	lws_set_log_level(LLL_ERR, lws_emit);

	static const struct lws_protocols protocols[] = {
		{ "http", callback_http, sizeof(struct http_answer), 0, 0, NULL, 0 },
		/* A write of SERVER_WRITE_BYTES leaves in one send (libwebsockets
		 * would cut it at the receive buffer's size otherwise). */
		{ "tapis", callback_tapis, sizeof(struct conn *), PROTO_MAX_MESSAGE, 0, NULL, SERVER_WRITE_BYTES },
		{ NULL, NULL, 0, 0, 0, NULL, 0 },
	};
	/* The page's words from the catalogues, the sound cues, the page. */
	static const struct lws_http_mount words_mount = {
		.mountpoint = "/words", .mountpoint_len = 6, .origin = "http",
		.origin_protocol = LWSMPRO_CALLBACK,
	};
	struct lws_http_mount sounds_mount, page_mount;
	memset(&sounds_mount, 0, sizeof sounds_mount);
	sounds_mount.mount_next = &words_mount;
	sounds_mount.mountpoint = "/sounds";
	sounds_mount.mountpoint_len = 7;
	sounds_mount.origin = o->sounds_dir;
	sounds_mount.origin_protocol = LWSMPRO_FILE;
	static const struct lws_protocol_vhost_options wav = { NULL, NULL, ".wav", "audio/wav" };
	sounds_mount.extra_mimetypes = &wav;
	memset(&page_mount, 0, sizeof page_mount);
	page_mount.mount_next = o->sounds_dir ? &sounds_mount : &words_mount;
	page_mount.mountpoint = "/";
	page_mount.mountpoint_len = 1;
	page_mount.origin = o->web_dir;
	page_mount.def = "index.html";
	page_mount.origin_protocol = LWSMPRO_FILE;
	/* The page's web app manifest (a phone adds the page to its home screen). */
	static const struct lws_protocol_vhost_options manifest = { NULL, NULL, ".webmanifest", "application/manifest+json" };
	page_mount.extra_mimetypes = &manifest;

	/* Every HTTP answer (the page that takes passwords first): its own
	 * scripts and styles only, no type guessed, no frame; under TLS,
	 * browsers told to come back by https alone for a year. libwebsockets
	 * keeps the list's address: it is static. */
#define SERVER_CSP "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; " \
	"form-action 'none'; frame-ancestors 'none'"
	static const struct lws_protocol_vhost_options hsts = { NULL, NULL, "strict-transport-security:",
	                                                        "max-age=31536000" };
	static const struct lws_protocol_vhost_options nosniff_tls = { &hsts, NULL, "x-content-type-options:",
	                                                               "nosniff" };
	static const struct lws_protocol_vhost_options nosniff = { NULL, NULL, "x-content-type-options:", "nosniff" };
	static const struct lws_protocol_vhost_options csp_tls = { &nosniff_tls, NULL, "content-security-policy:",
	                                                           SERVER_CSP };
	static const struct lws_protocol_vhost_options csp = { &nosniff, NULL, "content-security-policy:", SERVER_CSP };

	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.headers = o->cert && o->key ? &csp_tls : &csp;
	info.port = o->port;
	info.iface = o->host;
	info.protocols = protocols;
	info.mounts = o->web_dir ? &page_mount : o->sounds_dir ? &sounds_mount : &words_mount;
	info.user = s;
	/* A handshake not done within the hello time is closed. */
	long long hello_ms = o->hello_ms > 0 ? o->hello_ms : SERVER_HELLO_MS;
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
		goto no_context;
	}
	s->vh = lws_get_vhost_by_name(s->ctx, "default");
	int port = s->vh ? lws_get_vhost_listen_port(s->vh) : o->port;
	if (o->cluster && (cluster_join(s, port, err, errlen) < 0 || storew_start(s, err, errlen) < 0)) {
		cluster_free(s->cluster, 0);
		clnet_free(s->clnet);
		cladopt_free(s->adopt);
		evloop_destroy(s->ctx, s->loop);
		goto no_context;
	}
	running = s->ctx;
	watching = s;
	if (!o->quiet)
		log_say("listening on %s://%s:%d", o->cert ? "wss" : "ws", o->host, port);
	if (o->on_ready)
		o->on_ready(o->ready_ctx, port);
	lws_sul_schedule(s->ctx, 0, &s->tick, on_tick, 5 * LWS_US_PER_MS);
	if (s->lobby.cfg.work)
		work_set_notify(s->lobby.cfg.work, work_ready, s);
	while (!stop_asked) {
		s->round_bytes = 0;
		s->round++;
		s->cnt->rounds++;
		if (evloop_service(s->ctx, s->loop) < 0)
			break;
		flush_round(s);
	}
	running = NULL;
	watching = NULL;
	if (s->lobby.cfg.work)
		work_set_notify(s->lobby.cfg.work, NULL, NULL); /* before the context goes */
	/* Every table saved, then handed over: its leases dropped at once
	 * (once the last writes are in), the other nodes take them without
	 * waiting for them to lapse. */
	storew_stop(s);
	lobby_save_all(&s->lobby);
	if (s->cluster)
		log_say("cluster: %d tables handed over", s->lobby.ntables);
	cluster_free(s->cluster, 1);
	/* Gone before the context: the connections it closes as it goes are
	 * not told to them (their callbacks look for them). */
	clnet_free(s->clnet);
	cladopt_free(s->adopt);
	s->cluster = NULL;
	s->clnet = NULL;
	s->adopt = NULL;
	evloop_destroy(s->ctx, s->loop);
	lobby_release(&s->lobby);
	store_close(&s->store);
	while (s->conns)
		conn_free(s, s->conns);
	free(s->byid);
	free(s->slots);
	outq_scratch_free(&s->wbuf);
	free(s);
	log_flush(1);
	if (!o->quiet)
		log_say("stopped, every table saved");
	return 0;
no_context:
	lobby_release(&s->lobby);
no_lobby:
	store_close(&s->store);
no_store:
	free(s);
	return -1;
}
