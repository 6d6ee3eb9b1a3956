/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jtext writes what jansson's json_dumps(JSON_COMPACT) writes of the same
 * object: strings with every kind of escape, text that is not UTF-8,
 * nested objects and arrays. */
#include <check.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/wire/jtext.h"
#include "testutil.h"

static json_t *text_of(const char *s)
{
	json_t *v = json_string(s);
	return v ? v : json_string("");
}

static const char *const samples[] = {
	"", "plain", "Dame de cœur", "quote \" and \\ backslash", "tab\there, line\nbreak\r",
	"\b\f\x01\x1f\x7f", "slash / stays", "€ and 𝄞", "cut \xc3", "overlong \xc0\xaf",
	"surrogate \xed\xa0\x80", "past the end \xf4\x90\x80\x80", "stray \x80 byte", "é",
};
enum { NSAMPLES = sizeof samples / sizeof samples[0] };

START_TEST(same_as_jansson)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("state"));
	json_object_set_new(o, "table", json_integer(-12345678901LL));
	json_object_set_new(o, "zero", json_integer(0));
	json_object_set_new(o, "least", json_integer(LLONG_MIN));
	json_object_set_new(o, "most", json_integer(LLONG_MAX));
	json_object_set_new(o, "yes", json_true());
	json_object_set_new(o, "no", json_false());
	json_t *keys = json_object();
	json_t *arr = json_array();
	struct jtext j;
	jt_init(&j, 8);  /* small: it has to grow */
	jt_open(&j, '{');
	jt_kstr(&j, "type", "state");
	jt_kint(&j, "table", -12345678901LL);
	jt_kint(&j, "zero", 0);
	jt_kint(&j, "least", LLONG_MIN);
	jt_kint(&j, "most", LLONG_MAX);
	jt_kbool(&j, "yes", 1);
	jt_kbool(&j, "no", 0);
	jt_key(&j, "keys");
	jt_open(&j, '{');
	for (int i = 0; i < NSAMPLES; i++) {
		char k[2] = { (char)('a' + i), 0 };
		json_object_set_new(keys, k, text_of(samples[i]));
		jt_kstr(&j, k, samples[i]);
	}
	jt_close(&j, '}');
	json_object_set_new(o, "keys", keys);
	jt_key(&j, "list");
	jt_open(&j, '[');
	for (int i = 0; i < NSAMPLES; i++) {
		json_t *x = json_object();
		json_object_set_new(x, "s", text_of(samples[i]));
		json_object_set_new(x, "n", json_integer(i));
		json_object_set_new(x, "empty", json_array());
		json_array_append_new(arr, x);
		jt_open(&j, '{');
		jt_kstr(&j, "s", samples[i]);
		jt_kint(&j, "n", i);
		jt_key(&j, "empty");
		jt_open(&j, '[');
		jt_close(&j, ']');
		jt_close(&j, '}');
		json_array_append_new(arr, json_string("between"));
		jt_str(&j, "between");
	}
	jt_close(&j, ']');
	json_object_set_new(o, "list", arr);
	jt_close(&j, '}');
	char *want = json_dumps(o, JSON_COMPACT);
	char *got = jt_done(&j);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	free(want);
	free(got);
	json_decref(o);
}
END_TEST

/* A byte to escape, or one of a character of several, at every place of
 * a long plain text (the plain runs are read a word at a time). */
START_TEST(every_offset)
{
	static const char *const odd[] = { "\"", "\\", "\n", "\x1f", "\x7f", "é", "𝄞", "\xff", "\xc3" };
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
		for (int at = 0; at <= 24; at++) {
			char text[64];
			snprintf(text, sizeof text, "%.*s%s%.*s", at, "abcdefghijklmnopqrstuvwxyz", odd[i], 24 - at,
			         "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
			json_t *o = json_object();
			json_object_set_new(o, "t", text_of(text));
			struct jtext j;
			jt_init(&j, 8);
			jt_open(&j, '{');
			jt_kstr(&j, "t", text);
			jt_close(&j, '}');
			char *want = json_dumps(o, JSON_COMPACT), *got = jt_done(&j);
			ck_assert_str_eq(got, want);
			free(want);
			free(got);
			json_decref(o);
		}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("jtext");
	TCase *tc = tcase_create("jtext");
	tcase_add_test(tc, same_as_jansson);
	tcase_add_test(tc, every_offset);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
