/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/outq.h"

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
