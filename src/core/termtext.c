/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/termtext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include "core/xalloc.h"

enum { KEEP, DROP, SPACE };

static int is_pict(UChar32 c)
{
	return u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC);
}

/* What becomes of c; next is the code point after it (-1 none), prev_pict
 * whether the last kept one (variation selectors aside) is a pictograph. */
static int fate(UChar32 c, UChar32 next, int prev_pict)
{
	if (c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || c == 0x85 || c == 0x2028 ||
	    c == 0x2029)
		return SPACE;
	switch (u_charType(c)) {
	case U_CONTROL_CHAR:
	case U_LINE_SEPARATOR:
	case U_PARAGRAPH_SEPARATOR:
	case U_SURROGATE:
	case U_PRIVATE_USE_CHAR:
	case U_UNASSIGNED:
		return DROP;
	default:
		break;
	}
	if (u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR))
		return KEEP;
	if (c == 0x200d) /* zero-width joiner: only inside an emoji sequence */
		return prev_pict && next >= 0 && is_pict(next) ? KEEP : DROP;
	if (u_charType(c) == U_FORMAT_CHAR || u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT))
		return DROP;
	return KEEP;
}

char *termtext_clean(const char *in, size_t len, char *out, size_t outlen)
{
	if (!outlen)
		return out;
	const uint8_t *s = (const uint8_t *)in;
	int32_t i = 0, n = len > INT32_MAX ? INT32_MAX : (int32_t)len;
	size_t o = 0;
	int prev_pict = 0;
	while (i < n) {
		UChar32 c;
		U8_NEXT(s, i, n, c);
		if (c < 0)
			c = 0xfffd; /* not UTF-8 */
		UChar32 next = -1;
		if (i < n) {
			int32_t j = i;
			U8_NEXT(s, j, n, next);
		}
		int f = c == 0 ? DROP : fate(c, next, prev_pict);
		if (f == DROP)
			continue;
		if (f == SPACE)
			c = ' ';
		uint8_t buf[4];
		int32_t k = 0;
		UBool bad = 0;
		U8_APPEND(buf, k, 4, c, bad);
		if (bad || o + (size_t)k >= outlen)
			break;
		memcpy(out + o, buf, (size_t)k);
		o += (size_t)k;
		if (!u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR))
			prev_pict = is_pict(c);
	}
	out[o] = '\0';
	return out;
}

char *termtext_dup(const char *in, size_t len)
{
	char *out = xmalloc(TERMTEXT_SIZE(len));
	return termtext_clean(in, len, out, TERMTEXT_SIZE(len));
}

int termtext_unsafe(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p >= 0x20 && *p < 0x7f)
		p++;
	if (!*p)
		return 0; /* printable ASCII: the usual case, at once */
	size_t len = strlen(s);
	char *c = termtext_dup(s, len);
	int differs = strcmp(c, s) != 0;
	free(c);
	return differs;
}
