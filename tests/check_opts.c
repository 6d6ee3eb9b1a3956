/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The option tables of the commands (app/opts), the error helper
 * (core/err) and the growing arrays (core/xalloc). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/opts.h"
#include "core/err.h"
#include "core/xalloc.h"
#include "testutil.h"

struct cfg {
	int flag, num;
	const char *str, *lang;
	struct opt_list list;
	int calls;
	const char *last;
};

static int count_call(void *cfg, const char *v, char *err, size_t errlen)
{
	struct cfg *c = cfg;
	if (v && !strcmp(v, "bad"))
		return errf(err, errlen, "--call: '%s' is refused", v);
	c->calls++;
	c->last = v;
	return 0;
}

static const struct opt table[] = {
	OPT_F("flag", N_("a flag"), struct cfg, flag),
	OPT_I("num", N_("N"), N_("a number"), struct cfg, num, -5, 10),
	OPT_S("str", N_("TEXT"), N_("a string"), struct cfg, str),
	OPT_G(N_("the language"), struct cfg, lang),
	OPT_L("rule", N_("KEY=VALUE"), N_("repeatable"), struct cfg, list),
	OPT_C("call", N_("V"), N_("a handler"), count_call),
	OPT_END,
};
static const struct opt_cmd cmd = { "tapis test", "tapis test [OPTIONS]", table };

/* Parse a NULL-terminated list of words after the command's word. */
static int parse(struct cfg *c, const char **pos, int maxpos, int *npos, const char *first, ...)
{
	static char *argv[32];
	int argc = 0;
	argv[argc++] = "test";
	va_list ap;
	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	memset(c, 0, sizeof *c);
	return opt_parse(&cmd, argc, argv, c, pos, maxpos, npos);
}

START_TEST(values)
{
	struct cfg c;
	const char *pos[3];
	int n;
	ck_assert_int_eq(parse(&c, pos, 3, &n, "--flag", "--num", "-5", "--str=a b", "--lang", "fr", "--call", "x",
	                       NULL),
	                 OPT_OK);
	ck_assert_int_eq(c.flag, 1);
	ck_assert_int_eq(c.num, -5);
	ck_assert_str_eq(c.str, "a b");
	ck_assert_str_eq(c.lang, "fr");
	ck_assert_int_eq(c.calls, 1);
	ck_assert_str_eq(c.last, "x");
	ck_assert_int_eq(n, 0);
	/* A repeated option keeps every value in order, NULL after the last. */
	ck_assert_int_eq(parse(&c, pos, 3, &n, "--rule", "a=1", "--rule=b=2", "--rule", "c=3", NULL), OPT_OK);
	ck_assert_int_eq(c.list.n, 3);
	ck_assert_str_eq(c.list.v[0], "a=1");
	ck_assert_str_eq(c.list.v[1], "b=2");
	ck_assert_str_eq(c.list.v[2], "c=3");
	ck_assert_ptr_null(c.list.v[3]);
	/* The last of a repeated single value wins. */
	ck_assert_int_eq(parse(&c, pos, 3, &n, "--num", "1", "--num", "2", NULL), OPT_OK);
	ck_assert_int_eq(c.num, 2);
}
END_TEST

START_TEST(positionals)
{
	struct cfg c;
	const char *pos[3];
	int n;
	/* In order, wherever they stand; "-" is one; "--" ends the options. */
	ck_assert_int_eq(parse(&c, pos, 3, &n, "one", "--flag", "-", "--", "--num", NULL), OPT_OK);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(pos[0], "one");
	ck_assert_str_eq(pos[1], "-");
	ck_assert_str_eq(pos[2], "--num");
	ck_assert_int_eq(c.flag, 1);
	/* One too many is refused. */
	ck_assert_int_eq(parse(&c, pos, 1, &n, "one", "two", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, NULL, 0, &n, "one", NULL), OPT_USAGE);
	/* A value that looks like an option is still the value. */
	ck_assert_int_eq(parse(&c, pos, 3, &n, "--str", "--flag", NULL), OPT_OK);
	ck_assert_str_eq(c.str, "--flag");
	ck_assert_int_eq(c.flag, 0);
}
END_TEST

START_TEST(refusals)
{
	struct cfg c;
	const char *pos[1];
	int n;
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--nosuch", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "-x", NULL), OPT_USAGE);
	/* A name is given whole: getopt_long's abbreviations are refused. */
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--fla", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--hel", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "-hx", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "-hh", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--num", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--flag=1", NULL), OPT_USAGE);
	/* Strict numbers within the bounds. */
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--num", "11", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--num", "+3", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--num", " 3", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--num", "", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--lang", "de", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--lang", "e", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--lang", "en|fr", NULL), OPT_USAGE);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--call", "bad", NULL), OPT_USAGE);
	ck_assert_int_eq(c.calls, 0);
}
END_TEST

START_TEST(help)
{
	struct cfg c;
	const char *pos[1];
	int n;
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--help", NULL), OPT_HELP);
	ck_assert_int_eq(parse(&c, pos, 1, &n, "-h", NULL), OPT_HELP);
	/* The options after --help are still read (--lang chooses its language)... */
	ck_assert_int_eq(parse(&c, pos, 1, &n, "--help", "--lang", "fr", NULL), OPT_HELP);
	ck_assert_str_eq(c.lang, "fr");
	/* ...and a mistake among them is still one. */
	ck_assert_int_eq(parse(&c, pos, 0, &n, "--help", "extra", NULL), OPT_USAGE);
	/* The usage: every option of the table, its value's name, its words,
	 * aligned in one column. */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	opt_usage(f, &cmd);
	fclose(f);
	ck_assert_msg(strstr(text, "tapis test [OPTIONS]\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n  --flag              a flag\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n  --num N             a number\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n  --rule KEY=VALUE    repeatable\n"), "%s", text);
	ck_assert_msg(strstr(text, "\n  -h, --help          "), "%s", text);
	free(text);
}
END_TEST

START_TEST(errors_and_growth)
{
	char err[8];
	ck_assert_int_eq(errf(err, sizeof err, "%s %d", "abcdef", 42), -1);
	ck_assert_str_eq(err, "abcdef ");   /* cut to the buffer, NUL-terminated */
	ck_assert_int_eq(errf(NULL, 0, "nothing %d", 1), -1);
	int *a = NULL, cap = 0;
	xgrow((void **)&a, &cap, 1, sizeof *a);
	ck_assert_int_eq(cap, 16);
	xgrow((void **)&a, &cap, 100, sizeof *a);
	ck_assert_int_eq(cap, 128);
	a[99] = 7;
	xgrow((void **)&a, &cap, 50, sizeof *a);   /* room enough: nothing moves */
	ck_assert_int_eq(cap, 128);
	ck_assert_int_eq(a[99], 7);
	free(a);
	char *s = xstrdup("tapis");
	ck_assert_str_eq(s, "tapis");
	free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("opts");
	TCase *tc = tcase_create("opts");
	tcase_add_test(tc, values);
	tcase_add_test(tc, positionals);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, help);
	tcase_add_test(tc, errors_and_growth);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
