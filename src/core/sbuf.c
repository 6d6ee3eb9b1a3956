/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/sbuf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/utf8.h"

void sb_clear(struct sbuf *b)
{
	b->len = 0;
	b->s[0] = '\0';
}


static void put(struct sbuf *b, const char *text, size_t n)
{
	if (b->len + n >= SBUF_SIZE)
		n = SBUF_SIZE - 1 - b->len;
	memcpy(b->s + b->len, text, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* The conversions the sentences and their translations use are written
 * here: %s (with a precision: %.40s), %d and %u (with l, ll or z), %%,
 * each argument in order or all by position (%2$s). A server phrases
 * thousands of sentences a second, and glibc's vsnprintf sets up a stream
 * for each, and reads a format with positions twice. Anything else
 * (a width, a flag, another conversion) goes to vsnprintf. */
enum { FMT_MAX_ARGS = 9 };
enum { ARG_NONE, ARG_INT, ARG_LONG, ARG_LLONG, ARG_UINT, ARG_ULONG, ARG_ULLONG, ARG_SIZE, ARG_STR };

struct spec {
	int pos;              /* 1.. by position, 0 in order */
	int prec;             /* of %s, -1 none */
	int type;
	const char *end;      /* past the conversion */
};

/* The conversion after the '%' at p; -1 when it is not one of those
 * written here. */
static int parse_spec(const char *p, struct spec *sp)
{
	sp->pos = 0;
	sp->prec = -1;
	if (*p >= '1' && *p <= '9' && p[1] == '$') {
		sp->pos = *p - '0';
		p += 2;
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		int n = 0;
		while (isdigit((unsigned char)*p) && n < SBUF_SIZE)
			n = n * 10 + (*p++ - '0');
		sp->prec = n;
	}
	int l = 0;
	if (*p == 'l') {
		l = *++p == 'l' ? 2 : 1;
		p += l == 2;
	} else if (*p == 'z') {
		l = 3;
		p++;
	}
	static const int d[] = { ARG_INT, ARG_LONG, ARG_LLONG, ARG_NONE }, u[] = { ARG_UINT, ARG_ULONG, ARG_ULLONG, ARG_SIZE };
	if (*p == 's' && !l)
		sp->type = ARG_STR;
	else if (*p == 'd' && sp->prec < 0)
		sp->type = d[l];
	else if (*p == 'u' && sp->prec < 0)
		sp->type = u[l];
	else
		return -1;
	sp->end = p + 1;
	return sp->type == ARG_NONE ? -1 : 0;
}

union arg {
	long long i;
	unsigned long long u;
	const char *s;
};

static void put_unsigned(struct sbuf *b, unsigned long long v, int minus)
{
	char digits[24], *p = digits + sizeof digits;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	if (minus)
		*--p = '-';
	put(b, p, (size_t)(digits + sizeof digits - p));
}

/* fmt with ap into b; -1 (nothing written, nothing read of ap) when fmt
 * has a conversion not written here. */
static int format(struct sbuf *b, const char *fmt, va_list ap)
{
	int type[FMT_MAX_ARGS + 1] = { 0 }, n = 0, by_pos = -1;
	for (const char *p = fmt; (p = strchr(p, '%'));) {
		struct spec sp;
		if (p[1] == '%') {
			p += 2;
			continue;
		}
		if (parse_spec(p + 1, &sp) < 0 || (by_pos >= 0 && by_pos != (sp.pos > 0)))
			return -1;
		by_pos = sp.pos > 0;
		int k = sp.pos ? sp.pos : n + 1;
		if (k > FMT_MAX_ARGS || (type[k] && type[k] != sp.type))
			return -1;
		type[k] = sp.type;
		if (k > n)
			n = k;
		p = sp.end;
	}
	union arg arg[FMT_MAX_ARGS + 1];
	for (int k = 1; k <= n; k++)
		if (!type[k])
			return -1;  /* a position left out: its type is unknown */
	for (int k = 1; k <= n; k++) {
		switch (type[k]) {
		case ARG_INT: arg[k].i = va_arg(ap, int); break;
		case ARG_LONG: arg[k].i = va_arg(ap, long); break;
		case ARG_LLONG: arg[k].i = va_arg(ap, long long); break;
		case ARG_UINT: arg[k].u = va_arg(ap, unsigned); break;
		case ARG_ULONG: arg[k].u = va_arg(ap, unsigned long); break;
		case ARG_ULLONG: arg[k].u = va_arg(ap, unsigned long long); break;
		case ARG_SIZE: arg[k].u = va_arg(ap, size_t); break;
		default: arg[k].s = va_arg(ap, const char *); break;
		}
	}
	int next = 1;
	for (const char *p = fmt;;) {
		const char *pc = strchr(p, '%');
		if (!pc) {
			put(b, p, strlen(p));
			return 0;
		}
		put(b, p, (size_t)(pc - p));
		if (pc[1] == '%') {
			put(b, "%", 1);
			p = pc + 2;
			continue;
		}
		struct spec sp;
		parse_spec(pc + 1, &sp);
		const union arg *a = &arg[sp.pos ? sp.pos : next++];
		if (sp.type == ARG_STR) {
			const char *s = a->s ? a->s : sp.prec < 0 || sp.prec >= 6 ? "(null)" : "";
			put(b, s, sp.prec < 0 ? strlen(s) : strnlen(s, (size_t)sp.prec));
		} else if (sp.type <= ARG_LLONG) {
			put_unsigned(b, a->i < 0 ? 0 - (unsigned long long)a->i : (unsigned long long)a->i, a->i < 0);
		} else {
			put_unsigned(b, a->u, 0);
		}
		p = sp.end;
	}
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int done = format(b, fmt, ap) == 0;
	va_end(ap);
	if (done)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(b->s + b->len, SBUF_SIZE - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	b->len += (size_t)n;
	if (b->len >= SBUF_SIZE)
		b->len = SBUF_SIZE - 1;
}

void sb_puts(struct sbuf *b, const char *text)
{
	put(b, text, strlen(text));
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
	/* é è ê à â ç ô î -> É È Ê À Â Ç Ô Î: U+00E0..U+00FE less 0x20, the same
	 * length in UTF-8. */
	uint32_t cp;
	if (utf8_decode(b->s, strnlen(b->s, 4), &cp) == 2 && cp >= 0xe0 && cp <= 0xfe)
		utf8_encode(cp - 0x20, b->s);
}

const char *sb_copy(const struct sbuf *b, char *buf, size_t len)
{
	snprintf(buf, len, "%s", b->s);
	return buf;
}
