/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The server's configuration file (net/conf): every key an option of the
 * command, its value checked as the command line checks it, the command
 * line read after it wins, and every fault refused with its line named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/opts.h"
#include "core/err.h"
#include "net/server/conf.h"
#include "testutil.h"

struct cfg {
	int flag, num;
	const char *str, *other;
};

static const struct opt table[] = {
	OPT_F("flag", N_("a flag"), struct cfg, flag),
	OPT_I("num", N_("N"), N_("a number"), struct cfg, num, 0, 100),
	OPT_S("str", N_("TEXT"), N_("a string"), struct cfg, str),
	OPT_S("backup", N_("FILE"), N_("an action, not a setting"), struct cfg, other),
	OPT_S("config", N_("FILE"), N_("the file"), struct cfg, other),
	OPT_END,
};
static const struct opt_cmd cmd = { "tapis test", "tapis test [OPTIONS]", table };
/* backup and config are options, not settings of the file. */
static const struct conf_key keys[] = {
	{ "flag", "a" }, { "num", "a" }, { "str", "b" }, { NULL, NULL },
};

static char path[64];

/* The file holding text; then read into c (zeroed first). */
static int load(struct conf *cf, struct cfg *c, const char *text, char *err, size_t errlen)
{
	snprintf(path, sizeof path, "/tmp/tapis-conf-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	size_t n = strlen(text);
	ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
	memset(c, 0, sizeof *c);
	int rc = conf_load(cf, path, &cmd, keys, c, err, errlen);
	unlink(path);
	return rc;
}

/* The message for text, which must be refused: "PATH:LINE: why". */
static void refuses(const char *text, int line, const char *why)
{
	struct conf cf;
	struct cfg c;
	char err[ERR_MAX] = "";
	ck_assert_int_eq(load(&cf, &c, text, err, sizeof err), -1);
	conf_free(&cf);
	char want[128];
	snprintf(want, sizeof want, "%s:%d: ", path, line);
	ck_assert_msg(!strncmp(err, want, strlen(want)), "'%s' does not begin with '%s'", err, want);
	ck_assert_msg(strstr(err, why) != NULL, "'%s' does not say '%s'", err, why);
}

START_TEST(values)
{
	struct conf cf;
	struct cfg c;
	char err[ERR_MAX] = "";
	ck_assert_int_eq(load(&cf, &c,
	                      "# the server\n"
	                      "; another comment\n"
	                      "\n"
	                      "[a]\n"
	                      "num = 42\r\n"
	                      "flag   =   yes\n"
	                      "[b]\n"
	                      "str=a b  ; after a value\n",
	                      err, sizeof err),
	                 0);
	ck_assert_msg(!*err, "%s", err);
	ck_assert_int_eq(c.num, 42);
	ck_assert_str_eq(c.str, "a b");
	ck_assert_int_eq(c.flag, 1);
	/* The command line, read after the file, overrides it. */
	char *argv[] = { "test", "--num", "7", NULL };
	int npos;
	ck_assert_int_eq(opt_parse(&cmd, 3, argv, &c, NULL, 0, &npos), OPT_OK);
	ck_assert_int_eq(c.num, 7);
	ck_assert_str_eq(c.str, "a b");
	conf_free(&cf);
	/* A flag may be turned off; an empty file sets nothing. */
	ck_assert_int_eq(load(&cf, &c, "[a]\nflag = no\n", err, sizeof err), 0);
	ck_assert_int_eq(c.flag, 0);
	conf_free(&cf);
	ck_assert_int_eq(load(&cf, &c, "", err, sizeof err), 0);
	ck_assert_int_eq(c.num, 0);
	conf_free(&cf);
}
END_TEST

START_TEST(faults)
{
	/* Each fault, on the line where it is. */
	refuses("[a]\nnum = 1\nnope = 3\n", 3, "nope: not a setting");
	refuses("[a]\n\nnum = 101\n", 3, "num: '101' is not a number from 0 to 100");
	refuses("[a]\nnum = 12x\n", 2, "num: '12x'");
	refuses("[a]\nflag = maybe\n", 2, "flag: 'maybe' is not yes or no");
	refuses("[b]\nstr = a\nnum\n", 3, "not a KEY = VALUE line");
	refuses("[c]\nnum = 1\n", 2, "[c]: not a section ([a], [b])");
	refuses("num = 1\n", 1, "num: a setting of [a]");
	refuses("[b]\nnum = 1\n", 2, "num: a setting of [a], not of b");
	refuses("[a]\nnum = 1\n\nnum = 2\n", 4, "num: given twice");
	refuses("[a]\nnum = 1\n[b]\n[a]\nnum = 2\n", 5, "num: given twice");
	refuses("[b]\nstr = a\n  num = 2\n", 3, "an indented line continues the one before");
	refuses("[a]\nbackup = /tmp/x\n", 2, "backup: not a setting of this file");
	refuses("[b]\nstr = a\nconfig = other.conf\n", 3, "config: not a setting of this file");
	/* The first fault is the one told, of either kind. */
	refuses("[a]\nnum\nnope = 1\n", 2, "not a KEY = VALUE line");
	refuses("[a]\nnope = 1\nnum\n", 2, "nope: not a setting");
	/* A line longer than libinih reads whole, and a NUL byte. */
	char longline[400];
	memset(longline, 'a', sizeof longline);
	memcpy(longline, "[b]\nstr = ", 10);
	memcpy(longline + sizeof longline - 2, "\n", 2);
	refuses(longline, 2, "longer than 199 bytes");
	struct conf cf;
	struct cfg c;
	char err[ERR_MAX] = "";
	snprintf(path, sizeof path, "/tmp/tapis-conf-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "[b]\nstr = a\0b\n", 14), 14);
	close(fd);
	ck_assert_int_eq(conf_load(&cf, path, &cmd, keys, &c, err, sizeof err), -1);
	conf_free(&cf);
	ck_assert_msg(strstr(err, ":2: a NUL byte") != NULL, "%s", err);
	unlink(path);
	/* A file that is not there, or too big. */
	ck_assert_int_eq(conf_load(&cf, "/nonexistent/tapis.conf", &cmd, keys, &c, err, sizeof err), -1);
	conf_free(&cf);
	ck_assert_msg(strstr(err, "/nonexistent/tapis.conf: No such file") != NULL, "%s", err);
	char *big = malloc(CONF_FILE_MAX + 2);
	ck_assert_ptr_nonnull(big);
	for (int i = 0; i <= CONF_FILE_MAX; i++)
		big[i] = i % 50 == 49 ? '\n' : '#';
	big[CONF_FILE_MAX + 1] = '\0';
	ck_assert_int_eq(load(&cf, &c, big, err, sizeof err), -1);
	conf_free(&cf);
	free(big);
	ck_assert_msg(strstr(err, "longer than 65536 bytes") != NULL, "%s", err);
}
END_TEST

START_TEST(arg)
{
	char *a[] = { "serve", "--port", "1", "--config", "a.conf", "--config=b.conf", "--", "--config", "c", NULL };
	ck_assert_str_eq(conf_arg(9, a, "config"), "b.conf");
	ck_assert_str_eq(conf_arg(5, a, "config"), "a.conf");
	ck_assert_ptr_null(conf_arg(3, a, "config"));
	char *b[] = { "serve", "--configx", "a", "--config", NULL };
	ck_assert_ptr_null(conf_arg(4, b, "config"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("conf");
	TCase *tc = tcase_create("conf");
	tcase_add_test(tc, values);
	tcase_add_test(tc, faults);
	tcase_add_test(tc, arg);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
