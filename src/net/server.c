/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server.h"

#include <libwebsockets.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/view.h"
#include "core/err.h"
#include "core/xalloc.h"
#include "net/evloop.h"
#include "net/lobby.h"
#include "net/outq.h"
#include "net/proto.h"
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
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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
};

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

static void queue_text(struct conn *c, const char *text, size_t len)
{
	if (c->closing > 1)
		return;
	if (c->out.n >= SERVER_QUEUE_MAX) {
		/* Too slow to follow the game: let it go (it may come back). */
		c->closing = 2;
		lws_callback_on_writable(c->wsi);
		return;
	}
	outq_push(&c->out, text, len);
	lws_callback_on_writable(c->wsi);
}

static void io_send(void *ctx, long id, char *text)
{
	struct server *s = ctx;
	struct conn *c = find(s, id);
	if (c)
		queue_text(c, text, strlen(text));
	free(text);
}

static void io_close(void *ctx, long id)
{
	struct server *s = ctx;
	struct conn *c = find(s, id);
	if (c && !c->closing) {
		c->closing = 1;
		lws_callback_on_writable(c->wsi);
	}
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
static const char *over_cap(struct server *s, struct conn *c)
{
	if (s->o->max_conns > 0 && s->nconns > s->o->max_conns)
		return _("the server is full: too many connections, try again later");
	if (s->o->max_per_addr > 0) {
		int n = 0;
		for (struct conn *x = s->conns; x; x = x->next)
			if (!strcmp(x->addr, c->addr))
				n++;
		if (n > s->o->max_per_addr)
			return _("too many connections from your address: close some and try again");
	}
	return NULL;
}

/* A message too long, or one over the rate limit: said so (or, after too
 * many in a row, the connection closed). */
static void refuse(struct server *s, struct conn *c)
{
	if (c->rx_too_long) {
		char text[96];
		snprintf(text, sizeof text, _("message too long (at most %d bytes)"), PROTO_MAX_MESSAGE);
		char *e = proto_error("too_long", text, NULL);
		if (e)
			queue_text(c, e, strlen(e));
		free(e);
	} else if (++c->refused > SERVER_RATE_BURST * 4) {
		io_close(s, c->id);
	} else {
		char *e = proto_error("rate", _("too many messages: slow down"), NULL);
		if (e)
			queue_text(c, e, strlen(e));
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
		const char *saved = view_lang_enter(lobby_lang(&s->lobby, c->id));
		refuse(s, c);
		view_lang_leave(saved);
	} else {
		c->refused = 0;
		lobby_message(&s->lobby, c->id, c->rx ? c->rx : "", c->rxlen, now);
	}
	free(c->rx);
	c->rx = NULL;
	c->rxlen = 0;
	c->rx_too_long = 0;
}

static int callback_tapis(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct server *s = lws_context_user(lws_get_context(wsi));
	struct conn **pc = user;
	struct conn *c = pc ? *pc : NULL;
	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED: {
		/* Announcements leave as they are made (no Nagle delay). */
		int one = 1;
		setsockopt(lws_get_socket_fd(wsi), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		c = xcalloc(1, sizeof *c);
		c->wsi = wsi;
		c->id = s->next_id++;
		c->tokens = SERVER_RATE_BURST;
		c->tokens_ms = now_ms();
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
		const char *saved = view_lang_enter(lang);
		const char *why = over_cap(s, c);
		if (why) {
			/* Refused: told why, then closed; the lobby never hears of it. */
			char *e = proto_error("busy", why, NULL);
			if (e)
				queue_text(c, e, strlen(e));
			free(e);
			c->closing = 1;
			c->refused_conn = 1;
			lws_callback_on_writable(wsi);
		} else {
			lobby_open(&s->lobby, c->id, c->addr, lang);
		}
		view_lang_leave(saved);
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
			lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, NULL, 0);
			return -1;
		}
		if (outq_write(&c->out, wsi) < 0)
			return -1;
		if (c->out.head || c->closing)
			lws_callback_on_writable(wsi);
		break;
	case LWS_CALLBACK_CLOSED:
		if (c) {
			if (!c->refused_conn)
				lobby_close(&s->lobby, c->id, now_ms());
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

static void on_tick(lws_sorted_usec_list_t *sul)
{
	struct server *s = lws_container_of(sul, struct server, tick);
	lobby_tick(&s->lobby, now_ms());
	lws_sul_schedule(s->ctx, 0, &s->tick, on_tick, 5 * LWS_US_PER_MS);
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
	o->close_ms = SERVER_CLOSE_MINUTES * 60000LL;
	o->max_conns = SERVER_MAX_CONNS;
	o->max_per_addr = SERVER_MAX_PER_ADDR;
}

int server_run(const struct server_options *o, char *err, size_t errlen)
{
	struct server *s = xcalloc(1, sizeof *s);
	s->o = o;
	s->next_id = 1;
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
	struct host_config cfg = { o->grace_ms, o->bot_delay_ms, o->log_dir, o->turn_ms, o->keep_ms, o->close_ms };
	struct lobby_io io = { io_send, io_close, s };
	if (lobby_init(&s->lobby, &s->store, &cfg, io, o->cheap_hash, now_ms(), err, errlen) < 0)
		goto no_lobby;
	lws_set_log_level(LLL_ERR, NULL);

	static const struct lws_protocols protocols[] = {
		{ "http", callback_http, sizeof(struct http_answer), 0, 0, NULL, 0 },
		{ "tapis", callback_tapis, sizeof(struct conn *), PROTO_MAX_MESSAGE, 0, NULL, 0 },
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

	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = o->port;
	info.iface = o->host;
	info.protocols = protocols;
	info.mounts = o->web_dir ? &page_mount : o->sounds_dir ? &sounds_mount : &words_mount;
	info.user = s;
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
	running = s->ctx;
	if (!o->quiet)
		fprintf(stderr, "tapis serve: listening on %s://%s:%d\n", o->cert ? "wss" : "ws", o->host, port);
	if (o->on_ready)
		o->on_ready(o->ready_ctx, port);
	lws_sul_schedule(s->ctx, 0, &s->tick, on_tick, 5 * LWS_US_PER_MS);
	while (!stop_asked)
		if (evloop_service(s->ctx, s->loop) < 0)
			break;
	running = NULL;
	lobby_save_all(&s->lobby);
	evloop_destroy(s->ctx, s->loop);
	lobby_release(&s->lobby);
	store_close(&s->store);
	while (s->conns)
		conn_free(s, s->conns);
	free(s->byid);
	free(s);
	if (!o->quiet)
		fprintf(stderr, "tapis serve: stopped, every table saved\n");
	return 0;
no_context:
	lobby_release(&s->lobby);
no_lobby:
	store_close(&s->store);
no_store:
	free(s);
	return -1;
}
