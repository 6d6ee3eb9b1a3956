/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/wire/outq.h"

#include <libwebsockets.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

struct outq_buf *outq_buf_new(const char *text, size_t len)
{
	struct outq_buf *b = xmalloc(sizeof *b + LWS_PRE + len);
	b->refs = 1;
	b->len = len;
	memcpy(b->buf + LWS_PRE, text, len);
	return b;
}

struct outq_buf *outq_buf_take(char *text)
{
	struct outq_buf *b = outq_buf_new(text, strlen(text));
	free(text);
	return b;
}

void outq_buf_ref(struct outq_buf *b)
{
	b->refs++;
}

void outq_buf_unref(struct outq_buf *b)
{
	if (b && --b->refs == 0)
		free(b);
}

void outq_push_buf(struct outq *q, struct outq_buf *b)
{
	struct outq_msg *m = xmalloc(sizeof *m);
	m->next = NULL;
	m->b = b;
	outq_buf_ref(b);
	if (q->tail)
		q->tail->next = m;
	else
		q->head = m;
	q->tail = m;
	q->n++;
	q->bytes += b->len;
}

void outq_push(struct outq *q, const char *text, size_t len)
{
	struct outq_buf *b = outq_buf_new(text, len);
	outq_push_buf(q, b);
	outq_buf_unref(b);
}

/* Drop the first message. */
static void drop_one(struct outq *q)
{
	struct outq_msg *m = q->head;
	q->head = m->next;
	if (!q->head)
		q->tail = NULL;
	q->n--;
	q->bytes -= m->b->len;
	outq_buf_unref(m->b);
	free(m);
}

/* Write the first message; -1 when the write failed (it stays). */
static int write_one(struct outq *q, struct lws *wsi)
{
	struct outq_buf *b = q->head->b;
	if (lws_write(wsi, b->buf + LWS_PRE, b->len, LWS_WRITE_TEXT) < (int)b->len)
		return -1;
	drop_one(q);
	return 0;
}

int outq_write(struct outq *q, void *wsi)
{
	/* The first message is what the writable callback was given; the next
	 * ones go while the socket takes them at once (a table's action makes
	 * several messages for each member: waiting a poll round for each
	 * one would delay the last by as many rounds). */
	/* Several messages go out in few TCP segments: each is still its own
	 * frame, but the kernel's sending (on loopback, the peer's receiving
	 * with it) is done once for them rather than once a message: corked
	 * until the last one is written. */
	int fd = q->head && q->head->next ? lws_get_socket_fd(wsi) : -1, on = 1, off = 0;
	if (fd >= 0)
		setsockopt(fd, IPPROTO_TCP, TCP_CORK, &on, sizeof on);
	int rc = 0;
	for (int k = 0; q->head && k < OUTQ_WRITE_MAX; k++) {
		if (k > 0 && lws_send_pipe_choked(wsi))
			break;
		if (write_one(q, wsi) < 0) {
			rc = -1;
			break;
		}
		rc++;
	}
	if (fd >= 0)
		setsockopt(fd, IPPROTO_TCP, TCP_CORK, &off, sizeof off);
	return rc;
}

/* The header of a server's frame (FIN, text, unmasked) of len bytes into
 * h: its length. */
static size_t frame_header(unsigned char *h, size_t len)
{
	h[0] = 0x81;
	if (len < 126) {
		h[1] = (unsigned char)len;
		return 2;
	}
	if (len < 65536) {
		h[1] = 126;
		h[2] = (unsigned char)(len >> 8);
		h[3] = (unsigned char)len;
		return 4;
	}
	h[1] = 127;
	for (int i = 0; i < 8; i++)
		h[2 + i] = (unsigned char)((unsigned long long)len >> (56 - 8 * i));
	return 10;
}

int outq_write_frames(struct outq *q, void *wsi, struct outq_scratch *sc, size_t max)
{
	if (!q->head)
		return 0;
	/* A WebSocket carried in an HTTP/2 stream is framed by its parent:
	 * its messages go one by one. */
	if (lws_get_network_wsi(wsi) != wsi)
		return outq_write(q, wsi);
	size_t total = 0;
	int k = 0;
	for (const struct outq_msg *m = q->head; m; m = m->next, k++) {
		size_t one = 10 + m->b->len;
		if (k > 0 && total + one > max)
			break;
		total += one;
	}
	if (k == 1) /* alone: framed in place, no copy */
		return write_one(q, wsi) < 0 ? -1 : 1;
	if (sc->cap < LWS_PRE + total) {
		free(sc->buf);
		sc->cap = LWS_PRE + total;
		sc->buf = xmalloc(sc->cap);
	}
	unsigned char *p = sc->buf + LWS_PRE;
	for (int i = 0; i < k; i++) {
		struct outq_buf *b = q->head->b;
		p += frame_header(p, b->len);
		memcpy(p, b->buf + LWS_PRE, b->len);
		p += b->len;
		drop_one(q);
	}
	/* Raw bytes (the frames are made): libwebsockets sends them as they
	 * are, through TLS when the connection has it, and keeps what the
	 * socket did not take for its next writable moment. */
	size_t n = (size_t)(p - (sc->buf + LWS_PRE));
	if (lws_write(wsi, sc->buf + LWS_PRE, n, LWS_WRITE_RAW) < (int)n)
		return -1;
	return k;
}

void outq_scratch_free(struct outq_scratch *sc)
{
	free(sc->buf);
	sc->buf = NULL;
	sc->cap = 0;
}

void outq_clear(struct outq *q)
{
	while (q->head)
		drop_one(q);
}

int outq_gather(char **rx, size_t *rxlen, const void *in, size_t len, int final, size_t *whole)
{
	char *p = *rx = xrealloc(*rx, *rxlen + len + 1);
	memcpy(p + *rxlen, in, len);
	*rxlen += len;
	if (!final)
		return 0;
	p[*rxlen] = '\0';
	*whole = *rxlen;
	*rxlen = 0;
	return 1;
}
