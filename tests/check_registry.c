/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one table of games: every entry whole and about one game, names
 * unique, found by name with accents and case ignored. */
#include <string.h>

#include "app/registry.h"
#include "testutil.h"

START_TEST(every_entry_whole)
{
	int n = 0;
	for (const struct registry_game *e = registry_games; e->ops; e++, n++) {
		ck_assert_ptr_nonnull(e->bot);
		ck_assert_ptr_nonnull(e->talk);
		ck_assert_str_eq(e->bot->game, e->ops->name);
		ck_assert_str_eq(e->talk->game, e->ops->name);
		for (const struct registry_game *o = registry_games; o < e; o++)
			ck_assert_str_ne(o->ops->name, e->ops->name);
		ck_assert_ptr_eq(registry_find(e->ops->name), e);
		ck_assert_ptr_eq(registry_ops(e->ops->name), e->ops);
	}
	ck_assert_int_gt(n, 0);
	ck_assert_ptr_null(registry_games[n].bot);
	ck_assert_ptr_null(registry_games[n].talk);
}
END_TEST

START_TEST(found_by_name)
{
	const struct registry_game *e = registry_find("bourre");
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_eq(registry_find("Bourré"), e);
	ck_assert_ptr_eq(registry_find("BOURRE"), e);
	ck_assert_ptr_eq(registry_ops("Brelan"), registry_find("brelan")->ops);
	ck_assert_ptr_null(registry_find("belote"));
	ck_assert_ptr_null(registry_find(""));
	ck_assert_ptr_null(registry_find("bourre "));
	ck_assert_ptr_null(registry_ops("belote"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("registry");
	TCase *tc = tcase_create("registry");
	tcase_add_test(tc, every_entry_whole);
	tcase_add_test(tc, found_by_name);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
