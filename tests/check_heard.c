/* The table as a blind player hears it: numbers, the rules read aloud, the
 * menus' first letters, the query keys, the announcements, in both
 * languages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sbuf.h"
#include "speech/announce.h"
#include "speech/i18n.h"
#include "speech/say.h"
#include "speech/speech.h"
#include "speech/talk.h"
#include "testutil.h"
#include "ui/menu.h"

static void lang(const char *l)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(l, err, sizeof err) == 0, "%s", err);
}

START_TEST(negative_numbers_said_with_a_word)
{
	char buf[64];
	struct sbuf b;
	lang("en");
	ck_assert_str_eq(say_number_str(-16, 0, buf, sizeof buf), "minus 16");
	ck_assert_str_eq(say_number_str(16, 0, buf, sizeof buf), "16");
	ck_assert_str_eq(say_number_str(16, SAY_PLUS, buf, sizeof buf), "plus 16");
	ck_assert_str_eq(say_number_str(0, SAY_PLUS, buf, sizeof buf), "0");
	sb_clear(&b);
	say_points(&b, -55);
	ck_assert_str_eq(b.s, "minus 55 points");
	sb_clear(&b);
	say_chips(&b, -1);
	ck_assert_str_eq(b.s, "minus 1 chip");
	lang("fr");
	ck_assert_str_eq(say_number_str(-16, 0, buf, sizeof buf), "moins 16");
	ck_assert_str_eq(say_number_str(3, SAY_PLUS, buf, sizeof buf), "plus 3");
	sb_clear(&b);
	say_points(&b, -1);
	ck_assert_str_eq(b.s, "moins 1 point");
	sb_clear(&b);
	say_chips(&b, -7);
	ck_assert_str_eq(b.s, "moins 7 jetons");
	lang("en");
}
END_TEST

START_TEST(rules_read_without_markdown)
{
	const char *md = "# Le Brelan\n"
	                 "\n"
	                 "Some **bold** and `code` and _emphasis_, `passe_chips`.\n"
	                 "- a bullet, see [the rules](https://example.org/x).\n"
	                 "> a quote\n"
	                 "| option | values |\n"
	                 "|---|:--|\n"
	                 "| `pack` | 28, 32 |\n"
	                 "---\n"
	                 "Run `tapis play brelan --rule carre=yes` -- then play.\n";
	char *p = speech_plain_text(md);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p, "Le Brelan.\n"
	                    "\n"
	                    "Some bold and code and emphasis, passe chips.\n"
	                    "a bullet, see the rules.\n"
	                    "a quote\n"
	                    "option, values.\n"
	                    "\n"
	                    "pack, 28, 32.\n"
	                    "\n"
	                    "Run tapis play brelan rule carre=yes , then play.\n");
	free(p);
	/* Every rules text reads with no mark left. */
	static const char *const docs[] = { "bouillabaisse", "bouillotte", "bourre", "brelan", "brouc" };
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
		for (int l = 0; l < 2; l++) {
			char path[256];
			snprintf(path, sizeof path, "docs/rules/%s.%s.md", docs[i], l ? "fr" : "en");
			FILE *f = fopen(path, "rb");
			ck_assert_msg(f != NULL, "%s", path);
			static char text[65536];
			size_t n = fread(text, 1, sizeof text - 1, f);
			fclose(f);
			text[n] = '\0';
			char *q = speech_plain_text(text);
			ck_assert_ptr_nonnull(q);
			ck_assert_msg(strpbrk(q, "*#`|") == NULL, "%s: %s", path, strpbrk(q, "*#`|"));
			/* Roman numerals and card abbreviations are written out. */
			ck_assert_msg(strstr(q, "XVI") == NULL && strstr(q, "A-R-D") == NULL && strstr(q, "A-K-Q") == NULL,
			              "%s", path);
			free(q);
		}
}
END_TEST

START_TEST(menu_letters_skip_articles)
{
	ck_assert_int_eq(menu_item_letter("Le Brouc"), 'B');
	ck_assert_int_eq(menu_item_letter("La Bouillabaisse"), 'B');
	ck_assert_int_eq(menu_item_letter("L'Homme de Brou"), 'H');
	ck_assert_int_eq(menu_item_letter("Les Options"), 'O');
	ck_assert_int_eq(menu_item_letter("The rules"), 'R');
	ck_assert_int_eq(menu_item_letter("Bourré"), 'B');
	ck_assert_int_eq(menu_item_letter("Lettre"), 'L');
	ck_assert_int_eq(menu_item_letter("Écart"), 'E');
	ck_assert_int_eq(menu_item_letter("4 players"), '4');
	ck_assert_int_eq(menu_item_letter(""), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("heard");
	TCase *tc = tcase_create("heard");
	tcase_add_test(tc, negative_numbers_said_with_a_word);
	tcase_add_test(tc, rules_read_without_markdown);
	tcase_add_test(tc, menu_letters_skip_articles);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
