/* SPDX-License-Identifier: GPL-3.0-or-later */
/* outq: a queue of outgoing WebSocket messages, each stored with the
 * LWS_PRE bytes libwebsockets needs in front of what lws_write sends.
 * Shared by the server's connections and the client. */
#ifndef TAPIS_OUTQ_H
#define TAPIS_OUTQ_H

#include <stddef.h>

struct outq_msg {
	struct outq_msg *next;
	size_t len;
	unsigned char buf[];  /* OUTQ_PRE bytes, then the text */
};

struct outq {
	struct outq_msg *head, *tail;
	int n;
};

/* Append a copy of len bytes of text. */
void outq_push(struct outq *q, const char *text, size_t len);
/* At most this many messages leave in one writable callback. */
#define OUTQ_WRITE_MAX 32

/* Write on wsi (a struct lws *), in a writable callback, the first
 * message and the next ones while the socket takes them without waiting
 * (at most OUTQ_WRITE_MAX; several leave corked, in as few TCP segments
 * as they fit), dropping each one written: 0, or -1 when a
 * write failed (that message stays). Nothing queued: 0. The caller asks
 * for another callback while messages remain. */
int outq_write(struct outq *q, void *wsi);
void outq_clear(struct outq *q);

/* The other way: a message received in fragments, gathered in *rx (*rxlen
 * bytes so far). Returns 1 when this fragment was the final one (*rx then
 * holds the whole message, NUL-terminated, its length in *whole, and the
 * next fragment starts a new message), 0 while more is to come. *rx is the
 * caller's to free. */
int outq_gather(char **rx, size_t *rxlen, const void *in, size_t len, int final, size_t *whole);

#endif
