/* SPDX-License-Identifier: GPL-3.0-or-later */
/* opts: the options of a command, written once as a table from which
 * getopt_long's `struct option[]` is built and the usage (`--help`) is
 * printed. Every command takes `--help` and `-h`; an option's value may
 * follow it (`--seed 5`) or be joined to it (`--seed=5`); a name must be
 * given whole; `--` ends the options. Positional arguments keep their order
 * wherever they stand among the options. */
#ifndef TAPIS_OPTS_H
#define TAPIS_OPTS_H

#include <stddef.h>
#include <stdio.h>

#ifndef N_
#define N_(s) (s)   /* words to translate where they are printed */
#endif

enum opt_kind {
	OPT_FLAG,    /* sets the int at `field` to 1 */
	OPT_STRING,  /* points the const char * at `field` to the value */
	OPT_INT,     /* sets the int at `field` to the value, a number from lo to hi */
	OPT_LANG,    /* as OPT_STRING, for a language tapis speaks (i18n_lang_known) */
	OPT_LIST,    /* adds the value to the struct opt_list at `field` (repeatable) */
	OPT_CALL,    /* calls `call` with the value (NULL for a flag) */
};

enum { OPT_LIST_MAX = 64 };   /* values of a repeatable option */

/* The values of a repeatable option, in order, NULL after the last. */
struct opt_list {
	const char *v[OPT_LIST_MAX + 1];
	int n;
};

struct opt {
	const char *name;  /* the long name, without "--" */
	const char *arg;   /* N_(): the value's name in the usage ("N", "FILE"); NULL: takes no value */
	const char *help;  /* N_(): what it does, in a few words */
	enum opt_kind kind;
	size_t field;      /* every kind but OPT_CALL: offsetof in the command's struct */
	/* OPT_CALL: 0, or -1 with errf (the message names the option). */
	int (*call)(void *cfg, const char *value, char *err, size_t errlen);
	long long lo, hi;  /* OPT_INT: the bounds (strict numbers, core/num) */
};
/* The lines of a table: a flag, a string, a number from lo to hi, the
 * language (--lang), a repeatable option's values (each a member of the command's struct T), a
 * handler; then the end. */
#define OPT_F(name, help, T, m) { name, NULL, help, OPT_FLAG, offsetof(T, m), NULL, 0, 0 }
#define OPT_S(name, arg, help, T, m) { name, arg, help, OPT_STRING, offsetof(T, m), NULL, 0, 0 }
#define OPT_I(name, arg, help, T, m, lo, hi) { name, arg, help, OPT_INT, offsetof(T, m), NULL, lo, hi }
#define OPT_G(help, T, m) { "lang", "en|fr", help, OPT_LANG, offsetof(T, m), NULL, 0, 0 }
#define OPT_L(name, arg, help, T, m) { name, arg, help, OPT_LIST, offsetof(T, m), NULL, 0, 0 }
#define OPT_C(name, arg, help, fn) { name, arg, help, OPT_CALL, 0, fn, 0, 0 }
#define OPT_END { NULL, NULL, NULL, OPT_FLAG, 0, NULL, 0, 0 }

struct opt_cmd {
	const char *prog;      /* "tapis serve": the start of its messages */
	const char *synopsis;  /* after "Usage:", e.g. "tapis serve [OPTIONS]" */
	const struct opt *opts;  /* ends with OPT_END */
};

/* What opt_parse found: go on, print the usage (--help), or stop with exit
 * status 2 (OPT_USAGE, the message said on standard error). */
enum { OPT_OK = 0, OPT_HELP = 1, OPT_USAGE = 2 };

/* Read argv[1..argc-1] (argv[0] is the command's word) into cfg through
 * the table; the positional arguments go to pos (at most maxpos, more is an
 * error), their number to *npos. */
int opt_parse(const struct opt_cmd *c, int argc, char **argv, void *cfg, const char **pos, int maxpos,
              int *npos);
/* The option of that name (without "--"), or NULL. */
const struct opt *opt_find(const struct opt_cmd *c, const char *name);
/* Give the option o its value as the command line would (a string kept as
 * it is, so it must outlive cfg's use), a flag taking yes/no (true/false,
 * on/off, 1/0): what a configuration file does (net/conf). 0, or -1 with a
 * message naming the option ("--port: ..."). */
int opt_set(const struct opt *o, void *cfg, const char *value, char *err, size_t errlen);
/* "Usage: SYNOPSIS" then the options, in the language in force. */
void opt_usage(FILE *f, const struct opt_cmd *c);
/* The lines of the options alone, aligned. */
void opt_print_options(FILE *f, const struct opt *o);
/* `CMD --help`: the language (lang, else the one the program chose, see
 * opt_set_lang), the usage on standard output; returns 0. */
int opt_help(const struct opt_cmd *c, const char *lang);
/* The one message for a command line that does not fit: "PROG: WHY (see
 * PROG --help)" on standard error; returns OPT_USAGE. */
int opt_fail(const struct opt_cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* How the program chooses the language of printed text when no --lang is
 * given (main: the settings', else the environment's). Without it, the
 * environment's. */
void opt_set_lang(void (*choose)(const char *lang));

#endif
