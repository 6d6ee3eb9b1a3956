/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wslink: one client's WebSocket link to a tapis server, the part every
 * client of libwebsockets' client API has the same: the connection asked
 * for (ws:// or wss://, the protocol "tapis"), the messages queued until
 * it is writable, a message received in fragments gathered whole. Its
 * owner keeps the lws context and calls these from its callback: the
 * terminal's and the tests' one connection (net/client/client) and the
 * bench's thousands on one context (net/client/bench_net). */
#ifndef TAPIS_WSLINK_H
#define TAPIS_WSLINK_H

#include <libwebsockets.h>
#include <stddef.h>

#include "net/wire/outq.h"

struct wslink {
	struct lws *wsi;        /* NULL while none is asked for or once it ended */
	int open, closed;
	struct outq out;        /* waiting to be written */
	char *rx;               /* a message being received */
	size_t rxlen;
	unsigned long pieces;   /* received so far (frames and fragments) */
};

/* The connection's request: host, port and path (from "/"), through TLS
 * when tls is set; the owner may set more (iface, pwsi, opaque data)
 * before lws_client_connect_via_info. */
void wslink_connect_info(struct lws_client_connect_info *ci, struct lws_context *ctx, const char *host, int port,
                         const char *path, int tls);
/* Queue text (copied): it leaves once the link is open and writable. 0,
 * or -1 when the link is closed. */
int wslink_send(struct wslink *k, const char *text);
/* LWS_CALLBACK_CLIENT_ESTABLISHED: open, and what waits asked out. */
void wslink_opened(struct wslink *k, struct lws *wsi);
/* LWS_CALLBACK_CLIENT_RECEIVE: a piece gathered; 1 when k->rx holds a
 * whole message (NUL-terminated, *whole bytes), 0 while more is to come. */
int wslink_received(struct wslink *k, struct lws *wsi, const void *in, size_t len, size_t *whole);
/* LWS_CALLBACK_CLIENT_WRITEABLE: what waits written (another callback
 * asked while some is left); -1 when a write failed (close the link). */
int wslink_writeable(struct wslink *k, struct lws *wsi);
/* The link gone, to be asked for again: not open, what waited and what
 * was half received dropped (the buffers kept). */
void wslink_lost(struct wslink *k);
/* Everything freed (the link itself is the context's). */
void wslink_free(struct wslink *k);

#endif
