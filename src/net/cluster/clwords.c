/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/cluster/clwords.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/xalloc.h"

void clwords_add(struct clwords *a, const void *s, size_t len)
{
	if (a->n == a->cap) {
		int cap = a->cap;
		xgrow((void **)&a->v, &cap, a->n + 1, sizeof *a->v);
		xgrow((void **)&a->len, &a->cap, a->n + 1, sizeof *a->len);
	}
	a->v[a->n] = xmalloc(len + 1);
	memcpy(a->v[a->n], s, len);
	a->v[a->n][len] = '\0';
	a->len[a->n++] = len;
}

void clwords_addf(struct clwords *a, const char *fmt, ...)
{
	char buf[CLUSTER_CHANNEL_MAX + CLUSTER_ID_MAX + 64];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	clwords_add(a, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void clwords_clear(struct clwords *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	free(a->len);
	memset(a, 0, sizeof *a);
}

int clwords_check_id(const char *id)
{
	size_t n = id ? strlen(id) : 0;
	if (n == 0 || n > CLUSTER_ID_MAX)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char ch = id[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
		      ch == '_' || ch == '-' || ch == ':'))
			return -1;
	}
	return 0;
}

int clwords_check_channel(const char *ch)
{
	size_t n = ch ? strlen(ch) : 0;
	if (n == 0 || n > CLUSTER_CHANNEL_MAX)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)ch[i] <= ' ' || ch[i] == 0x7f)
			return -1;
	return 0;
}

int clwords_inbox(const char *node, char *buf, size_t len)
{
	if (clwords_check_id(node) < 0)
		return -1;
	int n = snprintf(buf, len, "%s%s", CLUSTER_INBOX, node);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int clwords_parse_url(const char *url, char *host, size_t hostlen, int *port, char *err, size_t errlen)
{
	static const char scheme[] = "redis://";
	if (!url || strlen(url) > CLUSTER_URL_MAX)
		return errf(err, errlen, "--cluster: give redis://HOST:PORT (at most %d characters)", CLUSTER_URL_MAX);
	if (strncmp(url, scheme, sizeof scheme - 1) != 0)
		return errf(err, errlen, "--cluster: '%s' is not redis://HOST:PORT", url);
	const char *h = url + sizeof scheme - 1;
	size_t hl = strcspn(h, ":/");
	if (hl == 0 || hl > CLUSTER_HOST_MAX || hl >= hostlen)
		return errf(err, errlen, "--cluster: '%s' names no host", url);
	for (size_t i = 0; i < hl; i++) {
		char ch = h[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
		      ch == '-'))
			return errf(err, errlen, "--cluster: '%s': the host is a name or an IPv4 address", url);
	}
	long p = 6379;
	const char *rest = h + hl;
	if (*rest == ':') {
		char *end;
		rest++;
		if (*rest < '0' || *rest > '9')
			return errf(err, errlen, "--cluster: '%s': the port is a number from 1 to 65535", url);
		p = strtol(rest, &end, 10);
		if (p < 1 || p > 65535 || end - rest > 5)
			return errf(err, errlen, "--cluster: '%s': the port is a number from 1 to 65535", url);
		rest = end;
	}
	if (*rest == '/')
		rest++;
	if (*rest)
		return errf(err, errlen, "--cluster: '%s': only redis://HOST:PORT (no database, no password)", url);
	memcpy(host, h, hl);
	host[hl] = '\0';
	*port = (int)p;
	return 0;
}
