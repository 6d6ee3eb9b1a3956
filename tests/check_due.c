/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The due heap gives its entries back earliest first (ties by id), only
 * those due, each once. */
#include <check.h>
#include <stdlib.h>

#include "net/due.h"
#include "testutil.h"

START_TEST(earliest_first)
{
	struct due d = { 0 };
	struct due_item x;
	ck_assert_int_eq(due_pop(&d, 1000, &x), 0);
	srand(7);
	long long sum = 0;
	for (int i = 0; i < 5000; i++) {
		long long at = rand() % 1000;
		due_push(&d, at, i % 97);
		sum += at;
	}
	ck_assert_int_eq(due_pop(&d, -1, &x), 0); /* nothing due yet */
	struct due_item last = { -1, -1 };
	int n = 0;
	while (due_pop(&d, 499, &x)) {
		ck_assert(x.at <= 499);
		ck_assert(x.at > last.at || (x.at == last.at && x.id >= last.id));
		last = x;
		sum -= x.at;
		n++;
	}
	ck_assert_int_gt(n, 0);
	ck_assert_int_lt(n, 5000);
	ck_assert_int_eq(d.n, 5000 - n);
	while (due_pop(&d, 999, &x)) {
		ck_assert(x.at >= 500);
		ck_assert(x.at > last.at || (x.at == last.at && x.id >= last.id));
		last = x;
		sum -= x.at;
		n++;
	}
	ck_assert_int_eq(n, 5000);
	ck_assert(sum == 0);
	ck_assert_int_eq(due_pop(&d, 1 << 30, &x), 0);
	due_push(&d, 3, 1);
	due_clear(&d);
	ck_assert_int_eq(due_pop(&d, 1 << 30, &x), 0);
	due_free(&d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("due");
	TCase *tc = tcase_create("due");
	tcase_add_test(tc, earliest_first);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
