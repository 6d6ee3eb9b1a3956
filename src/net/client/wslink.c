/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/client/wslink.h"

#include <stdlib.h>
#include <string.h>

void wslink_connect_info(struct lws_client_connect_info *ci, struct lws_context *ctx, const char *host, int port,
                         const char *path, int tls)
{
	memset(ci, 0, sizeof *ci);
	ci->context = ctx;
	ci->address = host;
	ci->port = port;
	ci->path = path;
	ci->host = host;
	ci->origin = host;
	ci->protocol = "tapis";
	ci->ssl_connection = tls ? LCCSCF_USE_SSL : 0;
}

int wslink_send(struct wslink *k, const char *text)
{
	if (k->closed)
		return -1;
	outq_push(&k->out, text, strlen(text));
	if (k->wsi && k->open)
		lws_callback_on_writable(k->wsi);
	return 0;
}

void wslink_opened(struct wslink *k, struct lws *wsi)
{
	k->open = 1;
	if (k->out.head)
		lws_callback_on_writable(wsi);
}

int wslink_received(struct wslink *k, struct lws *wsi, const void *in, size_t len, size_t *whole)
{
	k->pieces++;
	return outq_gather(&k->rx, &k->rxlen, in, len, lws_is_final_fragment(wsi), whole);
}

int wslink_writeable(struct wslink *k, struct lws *wsi)
{
	if (outq_write(&k->out, wsi) < 0)
		return -1;
	if (k->out.head)
		lws_callback_on_writable(wsi);
	return 0;
}

void wslink_lost(struct wslink *k)
{
	k->open = 0;
	k->wsi = NULL;
	outq_clear(&k->out);
	k->rxlen = 0;
}

void wslink_free(struct wslink *k)
{
	outq_clear(&k->out);
	free(k->rx);
	k->rx = NULL;
	k->rxlen = 0;
}
