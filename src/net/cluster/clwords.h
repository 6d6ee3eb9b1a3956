/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clwords: the words a node of a cluster says to Redis (docs/cluster.md):
 * the names it checks (a node's id, a channel, a node's inbox, the
 * redis:// URL of --cluster) and a command's words, built up one by one
 * and each copied. */
#ifndef TAPIS_CLWORDS_H
#define TAPIS_CLWORDS_H

#include <stddef.h>

#define CLUSTER_URL_MAX 300          /* redis://HOST:PORT */
#define CLUSTER_HOST_MAX 253
#define CLUSTER_ID_MAX 64            /* a node's id: letters, digits, . _ - : */
#define CLUSTER_CHANNEL_MAX 128      /* a channel's name */
#define CLUSTER_INBOX "tapis:inbox:"

/* A command's words, each copied. */
struct clwords {
	int n, cap;
	char **v;
	size_t *len;
};

void clwords_add(struct clwords *a, const void *s, size_t len);
__attribute__((format(printf, 2, 3))) void clwords_addf(struct clwords *a, const char *fmt, ...);
/* Every word freed; a is empty again. */
void clwords_clear(struct clwords *a);

/* Parse redis://HOST[:PORT] (PORT 6379 by default). 0, or -1 with a
 * message. */
int clwords_parse_url(const char *url, char *host, size_t hostlen, int *port, char *err, size_t errlen);
/* 0 when id is a node's id (1 to CLUSTER_ID_MAX of A-Z a-z 0-9 . _ - :). */
int clwords_check_id(const char *id);
/* 0 when ch may be a channel's name (1 to CLUSTER_CHANNEL_MAX bytes, no
 * space nor control). */
int clwords_check_channel(const char *ch);
/* The channel of node's inbox into buf; -1 when node is not an id. */
int clwords_inbox(const char *node, char *buf, size_t len);

#endif
