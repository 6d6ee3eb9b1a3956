/* SPDX-License-Identifier: GPL-3.0-or-later */
/* outq: a queue of outgoing WebSocket messages, each stored with the
 * LWS_PRE bytes libwebsockets needs in front of what lws_write sends.
 * Shared by the server's connections and the client.
 *
 * A message's text is held once however many queues it waits in: a
 * reference-counted buffer (the lobby's list to a thousand listeners is
 * one buffer and a thousand small links). libwebsockets writes a frame's
 * header in the LWS_PRE bytes before each send; the text itself is never
 * changed, so the same buffer goes to every queue. */
#ifndef TAPIS_OUTQ_H
#define TAPIS_OUTQ_H

#include <stddef.h>

struct outq_buf {
	int refs;
	size_t len;
	unsigned char buf[];  /* OUTQ_PRE bytes, then the text */
};

struct outq_msg {
	struct outq_msg *next;
	struct outq_buf *b;
};

struct outq {
	struct outq_msg *head, *tail;
	int n;
	size_t bytes;         /* of text waiting, each buffer counted in full */
};

/* A buffer of len bytes of text (copied), held once (refs 1). */
struct outq_buf *outq_buf_new(const char *text, size_t len);
/* The same from text (malloc'd, NUL-terminated), which it frees. */
struct outq_buf *outq_buf_take(char *text);
void outq_buf_ref(struct outq_buf *b);
/* Let go of one reference; the last frees it. */
void outq_buf_unref(struct outq_buf *b);

/* Append a buffer (the queue takes a reference of its own). */
void outq_push_buf(struct outq *q, struct outq_buf *b);
/* Append a copy of len bytes of text. */
void outq_push(struct outq *q, const char *text, size_t len);
/* At most this many messages leave in one writable callback. */
#define OUTQ_WRITE_MAX 32

/* Write on wsi (a struct lws *), in a writable callback, the first
 * message and the next ones while the socket takes them without waiting
 * (at most OUTQ_WRITE_MAX; several leave corked, in as few TCP segments
 * as they fit), dropping each one written: the number written, or -1 when
 * a write failed (that message stays). Nothing queued: 0. The caller asks
 * for another callback while messages remain. */
int outq_write(struct outq *q, void *wsi);
/* A buffer reused from one write to the next (a server's, for all its
 * connections: one writes at a time). */
struct outq_scratch {
	unsigned char *buf;
	size_t cap;
};
/* The server's side, in a writable callback of wsi: the first messages
 * of the queue, as many as fit in max bytes of frames (the first always),
 * framed one after the other into sc and given to the socket in one
 * write; the number of messages written (dropped from the queue), 0 when
 * none waits, -1 when the write failed. The messages stay one frame each:
 * what the peer reads does not change, only the system calls (one for a
 * connection's messages of a round of the loop instead of one each, and
 * no corking around them). A connection carried by HTTP/2 writes them as
 * outq_write does. */
int outq_write_frames(struct outq *q, void *wsi, struct outq_scratch *sc, size_t max);
void outq_scratch_free(struct outq_scratch *sc);
void outq_clear(struct outq *q);

/* The other way: a message received in fragments, gathered in *rx (*rxlen
 * bytes so far). Returns 1 when this fragment was the final one (*rx then
 * holds the whole message, NUL-terminated, its length in *whole, and the
 * next fragment starts a new message), 0 while more is to come. *rx is the
 * caller's to free. */
int outq_gather(char **rx, size_t *rxlen, const void *in, size_t len, int final, size_t *whole);

#endif
