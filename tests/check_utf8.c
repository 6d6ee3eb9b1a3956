/* SPDX-License-Identifier: GPL-3.0-or-later */
/* core/utf8: well-formed characters decoded, everything else refused
 * (stray continuations, overlong forms, surrogates, past U+10FFFF, a
 * character cut at the buffer's end); encoding the reverse; counting and
 * stepping back by characters. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "core/utf8.h"
#include "testutil.h"

static size_t dec(const char *s, uint32_t *cp)
{
	return utf8_decode(s, strlen(s), cp);
}

START_TEST(well_formed)
{
	uint32_t cp = 0;
	ck_assert_uint_eq(dec("A", &cp), 1);
	ck_assert_uint_eq(cp, 'A');
	ck_assert_uint_eq(dec("\xc3\xa9t\xc3\xa9", &cp), 2);   /* é */
	ck_assert_uint_eq(cp, 0xe9);
	ck_assert_uint_eq(dec("\xc2\x80", &cp), 2);   /* the smallest of two bytes */
	ck_assert_uint_eq(cp, 0x80);
	ck_assert_uint_eq(dec("\xe2\x82\xac", &cp), 3);   /* € */
	ck_assert_uint_eq(cp, 0x20ac);
	ck_assert_uint_eq(dec("\xe0\xa0\x80", &cp), 3);
	ck_assert_uint_eq(cp, 0x800);
	ck_assert_uint_eq(dec("\xed\x9f\xbf", &cp), 3);   /* just below the surrogates */
	ck_assert_uint_eq(cp, 0xd7ff);
	ck_assert_uint_eq(dec("\xee\x80\x80", &cp), 3);   /* just above */
	ck_assert_uint_eq(cp, 0xe000);
	ck_assert_uint_eq(dec("\xf0\x9f\x82\xa1", &cp), 4);   /* a playing card */
	ck_assert_uint_eq(cp, 0x1f0a1);
	ck_assert_uint_eq(dec("\xf4\x8f\xbf\xbf", &cp), 4);
	ck_assert_uint_eq(cp, 0x10ffff);
	ck_assert_uint_eq(utf8_decode("\0", 1, &cp), 1);   /* a NUL is a character */
	ck_assert_uint_eq(dec("\xc3\xa9", NULL), 2);       /* no code point asked */
}
END_TEST

START_TEST(refused)
{
	uint32_t cp = 77;
	const char *bad[] = {
		"\x80", "\xbf", "\x80\x80",                 /* continuations alone */
		"\xc0\x80", "\xc1\xbf",                     /* overlong forms of two bytes */
		"\xe0\x80\x80", "\xe0\x9f\xbf",             /* of three */
		"\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf",     /* of four */
		"\xed\xa0\x80", "\xed\xbf\xbf",             /* surrogates */
		"\xf4\x90\x80\x80", "\xf5\x80\x80\x80",     /* past U+10FFFF */
		"\xf8\x88\x80\x80\x80", "\xfe", "\xff",     /* no such lead */
		"\xc3" "A", "\xe2\x82" "A", "\xf0\x9f\x82" "A",     /* a byte that does not continue */
		NULL,
	};
	for (int i = 0; bad[i]; i++) {
		ck_assert_msg(dec(bad[i], &cp) == 0, "%d taken", i);
		ck_assert_uint_eq(cp, 77);   /* untouched */
	}
	ck_assert_uint_eq(utf8_decode("", 0, &cp), 0);
}
END_TEST

/* A character that the buffer's end cuts is no character, though its
 * bytes go on past the end. */
START_TEST(cut_at_the_end)
{
	const char *euro = "\xe2\x82\xac", *card = "\xf0\x9f\x82\xa1";
	ck_assert_uint_eq(utf8_decode(euro, 2, NULL), 0);
	ck_assert_uint_eq(utf8_decode(euro, 1, NULL), 0);
	ck_assert_uint_eq(utf8_decode(euro, 3, NULL), 3);
	for (size_t n = 0; n < 4; n++)
		ck_assert_uint_eq(utf8_decode(card, n, NULL), 0);
	ck_assert_uint_eq(utf8_decode(card, 4, NULL), 4);
	ck_assert_uint_eq(utf8_decode("\xc3\xa9", 1, NULL), 0);
}
END_TEST

START_TEST(encode)
{
	char out[4];
	uint32_t back;
	const uint32_t cps[] = { 0, 'z', 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x20ac, 0xd7ff, 0xe000,
	                         0xfffd, 0xffff, 0x10000, 0x1f0a1, 0x10ffff };
	const size_t lens[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4 };
	for (size_t i = 0; i < sizeof cps / sizeof *cps; i++) {
		size_t n = utf8_encode(cps[i], out);
		ck_assert_uint_eq(n, lens[i]);
		ck_assert_uint_eq(utf8_decode(out, n, &back), n);
		ck_assert_uint_eq(back, cps[i]);
	}
	ck_assert_uint_eq(utf8_encode(0xe9, out), 2);
	ck_assert_int_eq(memcmp(out, "\xc3\xa9", 2), 0);
	ck_assert_uint_eq(utf8_encode(0xd800, out), 0);
	ck_assert_uint_eq(utf8_encode(0xdfff, out), 0);
	ck_assert_uint_eq(utf8_encode(0x110000, out), 0);
}
END_TEST

START_TEST(count_and_step)
{
	ck_assert_uint_eq(utf8_count(""), 0);
	ck_assert_uint_eq(utf8_count("CL\xc3\x89"), 3);                  /* CLÉ */
	ck_assert_uint_eq(utf8_count("\xe2\x82\xac\xf0\x9f\x82\xa1!"), 3);
	const char *s = "a\xc3\xa9\xe2\x82\xac";   /* a é € */
	ck_assert_uint_eq(utf8_start(s, 0), 0);
	ck_assert_uint_eq(utf8_start(s, 1), 1);
	ck_assert_uint_eq(utf8_start(s, 2), 1);
	ck_assert_uint_eq(utf8_start(s, 3), 3);
	ck_assert_uint_eq(utf8_start(s, 4), 3);
	ck_assert_uint_eq(utf8_start(s, 5), 3);
	ck_assert_uint_eq(utf8_start("\x80\x80", 1), 0);   /* never before the start */
	ck_assert_int_eq(utf8_cont(0x80), 1);
	ck_assert_int_eq(utf8_cont(0xbf), 1);
	ck_assert_int_eq(utf8_cont(0xc3), 0);
	ck_assert_int_eq(utf8_cont('a'), 0);
	ck_assert_int_eq(utf8_lead('a'), 1);
	ck_assert_int_eq(utf8_lead(0xc3), 2);
	ck_assert_int_eq(utf8_lead(0xe2), 3);
	ck_assert_int_eq(utf8_lead(0xf0), 4);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("utf8");
	TCase *tc = tcase_create("utf8");
	tcase_add_test(tc, well_formed);
	tcase_add_test(tc, refused);
	tcase_add_test(tc, cut_at_the_end);
	tcase_add_test(tc, encode);
	tcase_add_test(tc, count_and_step);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
