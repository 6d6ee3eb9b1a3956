/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/client/client.h"

#include "core/err.h"
#include "core/xalloc.h"
#include "net/client/wslink.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

/* Passes of the loop at most while serving without waiting. */
#define NETC_DRAIN_PASSES 64

struct netc {
	struct lws_context *ctx;
	struct wslink k;               /* its wsi, open, closed, queues */
	netc_on_message on_message;
	void *user;
	int failed;
	int close_code;                /* the server's closing frame's code, 0 none */
	int woken;                     /* the heartbeat fired */
	lws_sorted_usec_list_t timer;
	char err[ERR_MAX];
};

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct netc *c = lws_context_user(lws_get_context(wsi));
	(void)user;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_ESTABLISHED: {
		/* Each message leaves at once, not held back for the last one's
		 * acknowledgement (Nagle). */
		int one = 1;
		setsockopt(lws_get_socket_fd(wsi), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		wslink_opened(&c->k, wsi);
		break;
	}
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		snprintf(c->err, sizeof c->err, "%s", in ? (const char *)in : "cannot connect");
		c->failed = 1;
		c->k.closed = 1;
		c->k.wsi = NULL;
		break;
	case LWS_CALLBACK_CLIENT_RECEIVE: {
		size_t n;
		if (wslink_received(&c->k, wsi, in, len, &n) && c->on_message)
			c->on_message(c->user, c->k.rx, n);
		break;
	}
	case LWS_CALLBACK_CLIENT_WRITEABLE:
		return wslink_writeable(&c->k, wsi);
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		if (in && len >= 2)
			c->close_code = ((const unsigned char *)in)[0] << 8 | ((const unsigned char *)in)[1];
		break;
	case LWS_CALLBACK_CLIENT_CLOSED:
	case LWS_CALLBACK_CLOSED:
		c->k.closed = 1;
		c->k.open = 0;
		c->k.wsi = NULL;
		break;
	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{ "tapis", callback, 0, 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

/* A heartbeat every 2 ms, so that lws_service returns to netc_service in
 * time to notice its deadline (libwebsockets' own wait is long). */
static void on_timer(lws_sorted_usec_list_t *sul)
{
	struct netc *c = lws_container_of(sul, struct netc, timer);
	c->woken = 1;
	lws_sul_schedule(c->ctx, 0, &c->timer, on_timer, 2 * LWS_US_PER_MS);
}

struct netc *netc_open(const char *url, netc_on_message on_message, void *ctx, char *err, size_t errlen)
{
	return netc_open_ca(url, NULL, on_message, ctx, err, errlen);
}

struct netc *netc_open_ca(const char *url, const char *ca_file, netc_on_message on_message, void *ctx,
                          char *err, size_t errlen)
{
	char copy[512];
	const char *prot, *addr, *path;
	int port;
	snprintf(copy, sizeof copy, "%s", url);
	if (lws_parse_uri(copy, &prot, &addr, &port, &path) || (strcmp(prot, "ws") && strcmp(prot, "wss"))) {
		errf(err, errlen, "%s: not a ws:// or wss:// address", url);
		return NULL;
	}
	struct netc *c = xcalloc(1, sizeof *c);
	c->on_message = on_message;
	c->user = ctx;
	int tls = !strcmp(prot, "wss");
	/* None of libwebsockets' own lines on the player's terminal: what
	 * went wrong comes back in err (CLIENT_CONNECTION_ERROR). */
	lws_set_log_level(0, NULL);
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.user = c;
	info.options = tls ? LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT : 0;
	info.client_ssl_ca_filepath = ca_file;
	c->ctx = lws_create_context(&info);
	if (!c->ctx) {
		errf(err, errlen, "cannot start libwebsockets");
		free(c);
		return NULL;
	}
	lws_sul_schedule(c->ctx, 0, &c->timer, on_timer, 2 * LWS_US_PER_MS);
	char fullpath[256];
	snprintf(fullpath, sizeof fullpath, "/%s", path);
	struct lws_client_connect_info ci;
	wslink_connect_info(&ci, c->ctx, addr, port, fullpath, tls);
	ci.pwsi = &c->k.wsi;
	if (!lws_client_connect_via_info(&ci)) {
		errf(err, errlen, "%s: cannot connect", url);
		lws_context_destroy(c->ctx);
		free(c);
		return NULL;
	}
	for (int waited = 0; !c->k.open && !c->k.closed && waited < 5000; waited += 20)
		netc_service(c, 20);
	if (!c->k.open && tls && strstr(c->err, "SSL")) {
		/* The reason libwebsockets would have logged is not to be had
		 * here: say what it most likely is. */
		errf(err, errlen, "%s: the TLS handshake failed: a certificate this machine does not trust%s (%s)", url,
		     ca_file ? " nor the one given" : "", c->err);
		netc_close(c);
		return NULL;
	}
	if (!c->k.open) {
		errf(err, errlen, "%s: %s", url, c->err[0] ? c->err : "no answer");
		netc_close(c);
		return NULL;
	}
	return c;
}

int netc_send(struct netc *c, const char *text)
{
	return wslink_send(&c->k, text);
}

int netc_service(struct netc *c, int timeout_ms)
{
	if (timeout_ms <= 0) {
		/* Everything already come, without waiting: one pass of the
		 * loop reads one buffer, and a long message may be behind it
		 * (what a key pressed now acts on). */
		for (int i = 0; i < NETC_DRAIN_PASSES && !c->k.closed; i++) {
			unsigned long before = c->k.pieces;
			lws_service(c->ctx, -1);
			if (c->k.pieces == before)
				break;
		}
		return c->k.closed ? -1 : 0;
	}
	lws_usec_t deadline = lws_now_usecs() + (lws_usec_t)timeout_ms * LWS_US_PER_MS;
	while (!c->k.closed && lws_now_usecs() < deadline)
		if (lws_service(c->ctx, 0) < 0)
			break;
	return c->k.closed ? -1 : 0;
}

int netc_close_code(const struct netc *c)
{
	return c->close_code;
}

int netc_connected(const struct netc *c)
{
	return c->k.open && !c->k.closed;
}

void netc_close(struct netc *c)
{
	if (!c)
		return;
	lws_sul_cancel(&c->timer);
	lws_context_destroy(c->ctx);
	wslink_free(&c->k);
	free(c);
}

void netc_abandon(struct netc *c)
{
	if (!c)
		return;
	/* Shut the socket under libwebsockets' feet: the server sees the
	 * connection drop with no closing frame. */
	if (c->k.wsi) {
		int fd = lws_get_socket_fd(c->k.wsi);
		if (fd >= 0)
			shutdown(fd, SHUT_RDWR);
	}
	netc_close(c);
}
