/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/utf8.h"

int utf8_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

int utf8_lead(unsigned char c)
{
	return c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
}

size_t utf8_decode(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	if (!n)
		return 0;
	unsigned c = s[0];
	size_t len;
	uint32_t v;
	if (c < 0x80) {
		len = 1;
		v = c;
	} else if (c < 0xc2) {
		return 0;   /* a continuation, or an overlong two-byte form */
	} else if (c < 0xe0) {
		len = 2;
		v = c & 0x1f;
	} else if (c < 0xf0) {
		len = 3;
		v = c & 0x0f;
	} else if (c < 0xf5) {
		len = 4;
		v = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if (!utf8_cont(s[i]))
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && v < 0x800) || (len == 4 && v < 0x10000) || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	if (cp)
		*cp = v;
	return len;
}

size_t utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *)out;
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | cp >> 18);
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t utf8_count(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += !utf8_cont((unsigned char)*s);
	return n;
}

size_t utf8_start(const char *s, size_t i)
{
	while (i > 0 && utf8_cont((unsigned char)s[i]))
		i--;
	return i;
}
