/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sb_printf writes what snprintf writes: the conversions it does itself
 * (%s, %.Ns, %d and %u with l, ll, z, %%, by position), those it leaves
 * to the C library, and a text cut at the buffer's end. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/sbuf.h"
#include "testutil.h"

#define SAME(...)                                                   \
	do {                                                            \
		struct sbuf b_;                                             \
		char want_[SBUF_SIZE];                                      \
		sb_clear(&b_);                                              \
		sb_puts(&b_, "> ");                                         \
		sb_printf(&b_, __VA_ARGS__);                                \
		snprintf(want_, sizeof want_, "> " __VA_ARGS__);            \
		ck_assert_str_eq(b_.s, want_);                              \
		ck_assert_uint_eq(b_.len, strlen(want_));                   \
	} while (0)

START_TEST(same_as_snprintf)
{
	SAME("plain text");
	SAME("%s", "");
	SAME("%s and %s.", "Anne", "Bernard");
	SAME("%d chips, %d left", 12, -7);
	SAME("%d %d", INT_MIN, INT_MAX);
	SAME("%ld %lld %llu %zu %u %lu", LONG_MIN, LLONG_MIN, ULLONG_MAX, (size_t)42, UINT_MAX, 0UL);
	SAME("100%% sure, %s", "yes");
	SAME("%.40s|", "a name far longer than forty bytes, cut at forty");
	SAME("%.3s|%.0s|%.10s", "abcdef", "gone", "short");
	SAME("%2$s takes %1$d chips from %3$s.", 5, "Anne", "the pot");
	SAME("%1$s, %1$s, %2$ld", "again", 9L);
	SAME("dame de c\xc5\x93ur: %s", "l'as de pique");
	/* Left to the C library. */
	SAME("%5d|%-4s|%02d|%x|%c|%.1f", 3, "ab", 7, 255, 'z', 2.25);
	SAME("%2$5s|%1$-3d|", 4, "pos");
	SAME("%s %5s", "mixed", "in");
}
END_TEST

START_TEST(cut_at_the_end)
{
	char big[3 * SBUF_SIZE];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	struct sbuf b;
	sb_clear(&b);
	sb_printf(&b, "%s and %d", big, 5);
	ck_assert_uint_eq(b.len, SBUF_SIZE - 1);
	ck_assert_uint_eq(strlen(b.s), SBUF_SIZE - 1);
	/* Full: nothing more fits, nothing breaks. */
	sb_printf(&b, "%d", 12);
	sb_printf(&b, "%2$s%1$s", "a", "b");
	ck_assert_uint_eq(b.len, SBUF_SIZE - 1);
	sb_clear(&b);
	for (int i = 0; i < SBUF_SIZE; i++)
		sb_printf(&b, "%d,", i);
	ck_assert_uint_eq(b.len, SBUF_SIZE - 1);
	ck_assert_uint_eq(strlen(b.s), SBUF_SIZE - 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sbuf");
	TCase *tc = tcase_create("sbuf");
	tcase_add_test(tc, same_as_snprintf);
	tcase_add_test(tc, cut_at_the_end);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
