/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/wire/evloop.h"

#include <ev.h>
#include <libwebsockets.h>
#include <stdint.h>

struct lws_context *evloop_context(struct lws_context_creation_info *info, void **loop)
{
	struct ev_loop *l = ev_loop_new(EVBACKEND_EPOLL);
	*loop = NULL;
	if (l) {
		void *loops[1] = { l };
		info->options |= LWS_SERVER_OPTION_LIBEV;
		info->foreign_loops = loops;
		struct lws_context *ctx = lws_create_context(info);
		info->foreign_loops = NULL;
		if (ctx) {
			*loop = l;
			return ctx;
		}
		ev_loop_destroy(l);
	}
	info->options &= ~(uint64_t)LWS_SERVER_OPTION_LIBEV;
	return lws_create_context(info);
}

int evloop_service(struct lws_context *ctx, void *loop)
{
	if (!loop)
		return lws_service(ctx, 0) < 0 ? -1 : 0;
	ev_run(loop, EVRUN_ONCE);
	return 0;
}

void evloop_destroy(struct lws_context *ctx, void *loop)
{
	if (ctx)
		lws_context_destroy(ctx);
	if (loop)
		ev_loop_destroy(loop);
}
