/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/sbuf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sb_clear(struct sbuf *b)
{
	b->len = 0;
	b->s[0] = '\0';
}

void sb_puts(struct sbuf *b, const char *text)
{
	size_t n = strlen(text);
	if (b->len + n >= SBUF_SIZE)
		n = SBUF_SIZE - 1 - b->len;
	memcpy(b->s + b->len, text, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->s + b->len, SBUF_SIZE - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	b->len += (size_t)n;
	if (b->len >= SBUF_SIZE)
		b->len = SBUF_SIZE - 1;
}

void sb_sentence(struct sbuf *b, const char *text)
{
	if (!*text)
		return;
	if (b->len) {
		char last = b->s[b->len - 1];
		sb_puts(b, (last == '.' || last == '?' || last == '!' || last == ':') ? " " : ". ");
	}
	sb_puts(b, text);
}

void sb_capitalize(struct sbuf *b)
{
	unsigned char *p = (unsigned char *)b->s;
	if (p[0] < 0x80) {
		p[0] = (unsigned char)toupper(p[0]);
		return;
	}
	/* é è ê à â ç ô î -> É È Ê À Â Ç Ô Î: in UTF-8, 0xC3 0xA0..0xBF maps to
	 * 0xC3 0x80..0x9F. */
	if (p[0] == 0xC3 && p[1] >= 0xA0 && p[1] <= 0xBE)
		p[1] = (unsigned char)(p[1] - 0x20);
}

const char *sb_copy(const struct sbuf *b, char *buf, size_t len)
{
	snprintf(buf, len, "%s", b->s);
	return buf;
}
