/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/wire/jtext.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "core/xalloc.h"

static void room(struct jtext *j, size_t n)
{
	xgrowz((void **)&j->s, &j->cap, j->len + n + 1, 1);
}

static void put(struct jtext *j, const char *s, size_t n)
{
	room(j, n);
	memcpy(j->s + j->len, s, n);
	j->len += n;
	j->s[j->len] = '\0';
}

void jt_init(struct jtext *j, size_t cap)
{
	memset(j, 0, sizeof *j);
	j->first = 1;
	room(j, cap);
}

/* A comma before every item but the first of its object or array. */
static void item(struct jtext *j)
{
	if (!j->first)
		put(j, ",", 1);
	j->first = 0;
}

void jt_open(struct jtext *j, char c)
{
	item(j);
	put(j, &c, 1);
	j->first = 1;
}

void jt_close(struct jtext *j, char c)
{
	put(j, &c, 1);
	j->first = 0;
}

/* The eight bytes at p need no escape and are ASCII: none below 0x20,
 * none with its high bit, no quote, no backslash (a zero byte of w ^ c
 * is a byte c). */
static int plain8(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t w;
	memcpy(&w, p, 8);
	uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
	uint64_t bad = ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b) | w;
	return !(bad & high);
}

/* s as a JSON string, in one pass: the runs of bytes that need no escape
 * are copied whole; text that is not UTF-8 is taken back and written
 * "". */
static void string(struct jtext *j, const char *s)
{
	size_t start = j->len;
	const unsigned char *p = (const unsigned char *)(s ? s : ""), *end = p + strlen((const char *)p);
	const unsigned char *from = p;
	put(j, "\"", 1);
	while (p < end) {
		/* Eight plain bytes at a time (none below 0x20 nor above 0x7f,
		 * no quote, no backslash): most of a sentence. */
		while (end - p >= 8 && plain8(p))
			p += 8;
		if (p == end)
			break;
		unsigned char c = *p;
		if (c >= 0x80) {
			size_t n = utf8_decode((const char *)p, (size_t)(end - p), NULL);
			if (!n) {
				j->len = start;
				put(j, "\"\"", 2);
				return;
			}
			p += n;
			continue;
		}
		if (c >= 0x20 && c != '"' && c != '\\') {
			p++;
			continue;
		}
		put(j, (const char *)from, (size_t)(p - from));
		char seq[8];
		switch (c) {
		case '"': put(j, "\\\"", 2); break;
		case '\\': put(j, "\\\\", 2); break;
		case '\b': put(j, "\\b", 2); break;
		case '\f': put(j, "\\f", 2); break;
		case '\n': put(j, "\\n", 2); break;
		case '\r': put(j, "\\r", 2); break;
		case '\t': put(j, "\\t", 2); break;
		default:
			snprintf(seq, sizeof seq, "\\u%04X", c);
			put(j, seq, 6);
		}
		from = ++p;
	}
	put(j, (const char *)from, (size_t)(p - from));
	put(j, "\"", 1);
}

void jt_key(struct jtext *j, const char *key)
{
	item(j);
	string(j, key);
	put(j, ":", 1);
	j->first = 1;   /* the value follows without a comma */
}

void jt_str(struct jtext *j, const char *s)
{
	item(j);
	string(j, s);
}

void jt_int(struct jtext *j, long long v)
{
	item(j);
	/* The digits written here (snprintf set up a stream for each number
	 * of every message). */
	char n[24], *p = n + sizeof n;
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	put(j, p, (size_t)(n + sizeof n - p));
}

void jt_bool(struct jtext *j, int v)
{
	item(j);
	if (v)
		put(j, "true", 4);
	else
		put(j, "false", 5);
}

void jt_kstr(struct jtext *j, const char *key, const char *s)
{
	jt_key(j, key);
	jt_str(j, s);
}

void jt_kint(struct jtext *j, const char *key, long long v)
{
	jt_key(j, key);
	jt_int(j, v);
}

void jt_kbool(struct jtext *j, const char *key, int v)
{
	jt_key(j, key);
	jt_bool(j, v);
}

char *jt_done(struct jtext *j)
{
	char *s = j->s;
	j->s = NULL;
	return s;
}

void jt_raw(struct jtext *j, const char *s, size_t n)
{
	put(j, s, n);
}

void jt_members(struct jtext *j, const char *members, size_t len)
{
	if (!len)
		return;
	item(j);
	put(j, members, len);
}
