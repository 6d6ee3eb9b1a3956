/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The keyboard: escape sequences of xterm and the Linux console. */
#include <string.h>

#include "testutil.h"
#include "app/keymap.h"
#include "ui/term.h"

static int decode(const char *bytes, int *used)
{
	return term_decode((const unsigned char *)bytes, (int)strlen(bytes), used);
}

START_TEST(sequences)
{
	static const struct { const char *bytes; int key; int used; } cases[] = {
		{ "\033[A", KEY_UP, 3 },       { "\033OB", KEY_DOWN, 3 },    { "\033[C", KEY_RIGHT, 3 },
		{ "\033[D", KEY_LEFT, 3 },     { "\033OP", KEY_F1, 3 },      { "\033[11~", KEY_F1, 5 },
		{ "\033[[A", KEY_F1, 4 },      { "\033[5~", KEY_PAGE_UP, 4 }, { "\033[6~", KEY_PAGE_DOWN, 4 },
		{ "\033[1~", KEY_HOME, 4 },    { "\033[H", KEY_HOME, 3 },    { "\033[4~", KEY_END, 4 },
		{ "\r", KEY_ENTER, 1 },        { "\n", KEY_ENTER, 1 },       { "c", 'C', 1 },
		{ "7", '7', 1 },               { " ", ' ', 1 },              { "\033", KEY_ESCAPE, 1 },
		{ "\177", KEY_BACKSPACE, 1 },  { ",", ',', 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int used;
		int key = decode(cases[i].bytes, &used);
		ck_assert_msg(key == cases[i].key, "case %zu: key %d", i, key);
		ck_assert_int_eq(used, cases[i].used);
	}
	/* An unknown sequence is swallowed whole. */
	int used;
	ck_assert_int_eq(decode("\033[99;5Zx", &used), KEY_NONE);
	ck_assert_int_eq(used, 7);
	/* Escape then a letter: two keys. */
	ck_assert_int_eq(decode("\033q", &used), KEY_ESCAPE);
	ck_assert_int_eq(used, 1);
}
END_TEST

START_TEST(every_key_described)
{
	int n = 0;
	for (int i = 0; keymap[i].keys; i++) {
		ck_assert(keymap[i].what && *keymap[i].what);
		ck_assert(keymap[i].when);
		n++;
	}
	/* The keys every game promises. */
	const char *want[] = { "C", "1-9", "F", "R", "S", "T", "H", "F1", "Q" };
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		int found = 0;
		for (int i = 0; i < n; i++)
			found |= strcmp(keymap[i].keys, want[k]) == 0;
		ck_assert_msg(found, "no key %s", want[k]);
	}
}
END_TEST

/* The top row of an AZERTY keyboard, unshifted (and with Caps Lock), is
 * read as its digits; nothing else is. */
START_TEST(azerty_digits)
{
	static const char *const top[] = { "\xc3\xa0", "&", "\xc3\xa9", "\"", "'", "(", "-", "\xc3\xa8", "_", "\xc3\xa7" };
	for (int d = 0; d < 10; d++) {
		char digit[2] = { (char)('0' + d), 0 };
		ck_assert_int_eq(keymap_digit(top[d]), '0' + d);
		ck_assert_int_eq(keymap_digit(digit), '0' + d);
	}
	ck_assert_int_eq(keymap_digit("\xc3\x89"), '2');   /* É */
	ck_assert_int_eq(keymap_digit("\xc3\x80"), '0');   /* À */
	static const char *const other[] = { "", "c", "C", "+", "<", ">", ",", ";", "?", "[", "{", ")", "\xc3\xb9", "12" };
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
		ck_assert_msg(keymap_digit(other[i]) == 0, "%s", other[i]);
	ck_assert_int_eq(keymap_digit(NULL), 0);
	/* No key of tapis is one of them ('-' slowed the voice): the rate is
	 * on < and >. */
	for (int i = 0; keymap[i].keys; i++)
		ck_assert_msg(!strchr(keymap[i].keys, '-') || !strcmp(keymap[i].keys, "1-9") || !strcmp(keymap[i].keys, "0-9"),
		              "%s", keymap[i].keys);
}
END_TEST

/* F1 first: 4 to 6 keys at every moment, then "F1 again for all keys". */
START_TEST(brief_keys)
{
	static const int moments[] = {
		KEYS_BRIEF_PLAY, KEYS_BRIEF_CHOOSE, KEYS_BRIEF_CHOOSE | KEYS_IF_DISCARD, KEYS_BRIEF_WAIT,
	};
	for (size_t m = 0; m < sizeof moments / sizeof moments[0]; m++) {
		struct sbuf b;
		sb_clear(&b);
		keymap_say_brief(NULL, &b, moments[m]);
		int keys = 0;
		for (const char *c = b.s; *c; c++)
			keys += c[0] == '.' && c[1] == ' ';   /* each key's sentence ends so */
		ck_assert_msg(keys >= 4 && keys <= 6, "%d keys: %s", keys, b.s);
		ck_assert_msg(strstr(b.s, "F1 again for all keys."), "%s", b.s);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ui");
	TCase *tc = tcase_create("ui");
	tcase_add_test(tc, sequences);
	tcase_add_test(tc, every_key_described);
	tcase_add_test(tc, azerty_digits);
	tcase_add_test(tc, brief_keys);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
