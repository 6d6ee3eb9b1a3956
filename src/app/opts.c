/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/opts.h"

#include <getopt.h>
#include <stdarg.h>
#include <string.h>

#include "core/err.h"
#include "core/num.h"
#include "core/utf8.h"
#include "i18n/i18n.h"

enum {
	OPT_MAX = 64,          /* options of one command */
	OPT_VAL0 = 256,        /* getopt's val of the first option of the table */
	OPT_COLUMN = 22,       /* where the help words start in the usage, at least */
	OPT_LEFT_MAX = 128,    /* an option and its value's name in the usage */
	OPT_ERR_MAX = 512,     /* a message of a handler */
};

static void (*choose_lang)(const char *lang);

void opt_set_lang(void (*choose)(const char *lang))
{
	choose_lang = choose;
}

int opt_fail(const struct opt_cmd *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", c->prog);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (see %s --help)\n", c->prog);
	va_end(ap);
	return OPT_USAGE;
}

/* The element of argv that held the option getopt_long just returned. */
static const char *given(char **argv, int takes_value)
{
	return takes_value && optarg == argv[optind - 1] ? argv[optind - 2] : argv[optind - 1];
}

/* Whether s is "--name" or "--name=...": a whole name, not an abbreviation. */
static int whole(const char *s, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(s, "--", 2) && !strncmp(s + 2, name, n) && (s[2 + n] == '\0' || s[2 + n] == '=');
}

static int apply(const struct opt *o, void *cfg, const char *value, char *err, size_t errlen)
{
	switch (o->kind) {
	case OPT_FLAG:
		*(int *)((char *)cfg + o->field) = 1;
		return 0;
	case OPT_STRING:
		*(const char **)((char *)cfg + o->field) = value;
		return 0;
	case OPT_INT: {
		long long n;
		if (num_parse(value, o->lo, o->hi, &n) < 0)
			return errf(err, errlen, "--%s: '%s' is not a number from %lld to %lld", o->name, value, o->lo, o->hi);
		*(int *)((char *)cfg + o->field) = (int)n;
		return 0;
	}
	case OPT_LANG:
		if (!i18n_lang_known(value))
			return errf(err, errlen, "--%s: '%s' is not a language of tapis (%s)", o->name, value, o->arg);
		*(const char **)((char *)cfg + o->field) = value;
		return 0;
	case OPT_LIST: {
		struct opt_list *l = (struct opt_list *)((char *)cfg + o->field);
		if (l->n >= OPT_LIST_MAX)
			return errf(err, errlen, "--%s: at most %d times", o->name, OPT_LIST_MAX);
		l->v[l->n++] = value;
		l->v[l->n] = NULL;
		return 0;
	}
	case OPT_CALL:
		return o->call(cfg, value, err, errlen);
	}
	return errf(err, errlen, "--%s: not an option", o->name);
}

const struct opt *opt_find(const struct opt_cmd *c, const char *name)
{
	for (const struct opt *o = c->opts; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

int opt_set(const struct opt *o, void *cfg, const char *value, char *err, size_t errlen)
{
	if (o->kind == OPT_FLAG) {
		int on = !strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "on") || !strcmp(value, "1");
		if (!on && strcmp(value, "no") && strcmp(value, "false") && strcmp(value, "off") && strcmp(value, "0"))
			return errf(err, errlen, "--%s: '%s' is not yes or no", o->name, value);
		*(int *)((char *)cfg + o->field) = on;
		return 0;
	}
	return apply(o, cfg, value, err, errlen);
}

static int positional(const struct opt_cmd *c, const char *arg, const char **pos, int maxpos, int *npos)
{
	if (*npos >= maxpos)
		return opt_fail(c, "unexpected argument '%s'", arg);
	pos[(*npos)++] = arg;
	return OPT_OK;
}

int opt_parse(const struct opt_cmd *c, int argc, char **argv, void *cfg, const char **pos, int maxpos,
              int *npos)
{
	struct option lo[OPT_MAX + 2];
	int n = 0;
	for (; c->opts[n].name && n < OPT_MAX; n++)
		lo[n] = (struct option){ c->opts[n].name, c->opts[n].arg ? required_argument : no_argument, NULL,
		                         OPT_VAL0 + n };
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n + 1] = (struct option){ NULL, 0, NULL, 0 };
	*npos = 0;
	int help = 0;
	/* "-": positional arguments come back in order (no permutation);
	 * ":": a missing value is told apart from an unknown option. */
	optind = 0;
	opterr = 0;
	for (;;) {
		int k = getopt_long(argc, argv, "-:h", lo, NULL);
		if (k == -1)
			break;
		if (k == 1) {
			if (positional(c, optarg, pos, maxpos, npos))
				return OPT_USAGE;
			continue;
		}
		if (k == 'h') {
			/* "-h" or "--help" alone: not "--he", nor "-h" among other letters
			 * ("-hx", where getopt has not yet moved to the next element). */
			const char *el = argv[optind - 1];
			if (optind < argc && !strncmp(argv[optind], "-h", 2) && argv[optind][2] && argv[optind][1] != '-')
				return opt_fail(c, "unknown option '%s'", argv[optind]);
			if (!whole(el, "help") && strcmp(el, "-h"))
				return opt_fail(c, "unknown option '%s'", el);
			help = 1;
			continue;
		}
		if (k == ':') {
			const char *name = optopt >= OPT_VAL0 && optopt < OPT_VAL0 + n ? c->opts[optopt - OPT_VAL0].name : "";
			return opt_fail(c, "--%s needs a value", name);
		}
		if (k == '?') {
			if (optopt >= OPT_VAL0 && optopt < OPT_VAL0 + n)
				return opt_fail(c, "--%s takes no value", c->opts[optopt - OPT_VAL0].name);
			if (optopt)
				return opt_fail(c, "unknown option '-%c'", optopt);
			return opt_fail(c, "unknown option '%s'", argv[optind - 1]);
		}
		const struct opt *o = &c->opts[k - OPT_VAL0];
		const char *el = given(argv, o->arg != NULL);
		if (!whole(el, o->name))
			return opt_fail(c, "unknown option '%s'", el);
		char err[OPT_ERR_MAX];
		if (apply(o, cfg, o->arg ? optarg : NULL, err, sizeof err) < 0) {
			fprintf(stderr, "%s: %s\n", c->prog, err);
			return OPT_USAGE;
		}
	}
	for (int i = optind; i < argc; i++)   /* after "--" */
		if (positional(c, argv[i], pos, maxpos, npos))
			return OPT_USAGE;
	return help ? OPT_HELP : OPT_OK;
}

/* Characters on the screen, not bytes: "CLÉ" is three wide. */
static int width(const char *s)
{
	return (int)utf8_count(s);
}

static void line(FILE *f, const char *left, const char *help, int column)
{
	fprintf(f, "%s", left);
	for (int w = width(left); w < column; w++)
		fputc(' ', f);
	fprintf(f, "%s\n", help);
}

static void left_of(const struct opt *o, char *buf, size_t len)
{
	snprintf(buf, len, "  --%s%s%s", o->name, o->arg ? " " : "", o->arg ? _(o->arg) : "");
}

void opt_print_options(FILE *f, const struct opt *o)
{
	char left[OPT_LEFT_MAX];
	int column = OPT_COLUMN;   /* the help words of every line start there */
	for (const struct opt *p = o; p->name; p++) {
		left_of(p, left, sizeof left);
		if (width(left) + 2 > column)
			column = width(left) + 2;
	}
	for (; o->name; o++) {
		left_of(o, left, sizeof left);
		line(f, left, _(o->help), column);
	}
	line(f, "  -h, --help", _("this help"), column);
}

void opt_usage(FILE *f, const struct opt_cmd *c)
{
	fprintf(f, "%s %s\n", _("Usage:"), c->synopsis);
	opt_print_options(f, c->opts);
}

int opt_help(const struct opt_cmd *c, const char *lang)
{
	char err[OPT_ERR_MAX];
	if (choose_lang) {
		choose_lang(lang);
	} else {
		if (!lang)
			lang = i18n_env_lang();
		if (i18n_set_lang(lang, err, sizeof err) < 0 && strcmp(lang, "en") != 0)
			fprintf(stderr, "%s: %s; messages in English\n", c->prog, err);
	}
	opt_usage(stdout, c);
	return 0;
}
