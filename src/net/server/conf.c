/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/conf.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

/* The file, handed to libinih a line at a time: the number of the line it
 * holds is that of the handler's key. */
struct conf_read {
	const char *text, *end;
	const char *at;
	const char *last;             /* the line read last */
	int line;
	/* What the handler found first, and where. */
	int bad_line;
	char bad[ERR_MAX];
	struct conf *c;
	const struct opt_cmd *cmd;
	const struct conf_key *keys;
	void *cfg;
};

static char *conf_reader(char *str, int num, void *stream)
{
	struct conf_read *r = stream;
	if (r->at >= r->end)
		return NULL;
	const char *nl = memchr(r->at, '\n', (size_t)(r->end - r->at));
	size_t n = nl ? (size_t)(nl - r->at) + 1 : (size_t)(r->end - r->at);
	if (n > (size_t)num - 1)
		n = (size_t)num - 1;   /* not reached: the lines were measured first */
	memcpy(str, r->at, n);
	str[n] = '\0';
	r->last = r->at;
	r->at += n;
	r->line++;
	return str;
}

static const struct conf_key *key_of(const struct conf_key *keys, const char *name)
{
	for (; keys->name; keys++)
		if (!strcmp(keys->name, name))
			return keys;
	return NULL;
}

static int section_known(const struct conf_key *keys, const char *section)
{
	for (; keys->name; keys++)
		if (!strcmp(keys->section, section))
			return 1;
	return 0;
}

/* The sections, in the order of the keys, each once: "server, store, ...". */
static void sections_text(const struct conf_key *keys, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (const struct conf_key *k = keys; k->name; k++) {
		const struct conf_key *seen = keys;
		while (seen < k && strcmp(seen->section, k->section))
			seen++;
		if (seen < k)
			continue;
		int w = snprintf(out + n, len - n, "%s[%s]", n ? ", " : "", k->section);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
}

/* A key and its value: 1 when taken (libinih goes on), 0 with the first
 * message kept. */
static int conf_handler(void *user, const char *section, const char *name, const char *value)
{
	struct conf_read *r = user;
	if (r->bad_line)
		return 0;
	char err[ERR_MAX], all[256];
	const struct opt *o = opt_find(r->cmd, name);
	const struct conf_key *k = key_of(r->keys, name);
	if (*section && !section_known(r->keys, section)) {
		sections_text(r->keys, all, sizeof all);
		errf(err, sizeof err, "[%s]: not a section (%s)", section, all);
	} else if (!o && !k)
		errf(err, sizeof err, "%s: not a setting (the options of %s are: see %s --help)", name, r->cmd->prog,
		     r->cmd->prog);
	else if (!k || !o)
		errf(err, sizeof err, "%s: not a setting of this file (give it on the command line)", name);
	else if (strcmp(section, k->section))
		errf(err, sizeof err, "%s: a setting of [%s]%s%s", name, k->section, *section ? ", not of " : "",
		     *section ? section : "");
	else if (r->c->n >= CONF_KEYS_MAX)
		errf(err, sizeof err, "more than %d settings", CONF_KEYS_MAX);
	else {
		for (int i = 0; i < r->c->n; i++)
			if (!strcmp(r->c->keys[i], name)) {
				/* libinih reads an indented line as more of the value above. */
				if (i == r->c->n - 1 && r->line > 1 && (*r->last == ' ' || *r->last == '\t'))
					errf(err, sizeof err, "an indented line continues the one before: begin it at the line's start");
				else
					errf(err, sizeof err, "%s: given twice", name);
				goto bad;
			}
		char *kc = strdup(name), *v = strdup(value);
		if (!kc || !v) {
			free(kc);
			free(v);
			errf(err, sizeof err, "out of memory");
			goto bad;
		}
		r->c->keys[r->c->n] = kc;
		r->c->vals[r->c->n++] = v;
		if (opt_set(o, r->cfg, v, err, sizeof err) == 0)
			return 1;
		/* The option's message without its dashes: the file's key. */
		if (!strncmp(err, "--", 2))
			memmove(err, err + 2, strlen(err + 2) + 1);
	}
bad:
	r->bad_line = r->line;
	snprintf(r->bad, sizeof r->bad, "%s", err);
	return 0;
}

/* The whole file, at most CONF_FILE_MAX bytes, in a malloc'd buffer. */
static char *conf_slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		errf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	char *buf = malloc(CONF_FILE_MAX + 1);
	size_t n = buf ? fread(buf, 1, CONF_FILE_MAX + 1, f) : 0;
	int bad = !buf || ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		errf(err, errlen, "%s: %s", path, buf ? "cannot be read" : "out of memory");
		return NULL;
	}
	if (n > CONF_FILE_MAX) {
		free(buf);
		errf(err, errlen, "%s: longer than %d bytes", path, CONF_FILE_MAX);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

int conf_load(struct conf *c, const char *path, const struct opt_cmd *cmd, const struct conf_key *keys, void *cfg,
              char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	size_t len;
	char *text = conf_slurp(path, &len, err, errlen);
	if (!text)
		return -1;
	/* Each line within libinih's bound (a longer one it would cut in two,
	 * and read the rest as a line of its own), and no NUL byte. */
	int line = 1;
	for (size_t i = 0, start = 0; i <= len; i++) {
		if (i < len && text[i] == '\0') {
			free(text);
			return errf(err, errlen, "%s:%d: a NUL byte: not a text file", path, line);
		}
		if (i == len || text[i] == '\n') {
			size_t n = i - start;
			if (n && text[i - 1] == '\r')
				n--;
			if (n > CONF_LINE_MAX) {
				free(text);
				return errf(err, errlen, "%s:%d: longer than %d bytes", path, line, CONF_LINE_MAX);
			}
			start = i + 1;
			line++;
		}
	}
	struct conf_read r = { .text = text, .end = text + len, .at = text, .c = c, .cmd = cmd,
	                       .keys = keys, .cfg = cfg };
	int rc = ini_parse_stream(conf_reader, &r, conf_handler, &r);
	free(text);
	if (rc == 0)
		return 0;
	if (rc < 0)
		return errf(err, errlen, "%s: out of memory", path);
	/* The first fault: a line that is not KEY = VALUE (libinih's), or a
	 * key refused (ours), whichever comes first. */
	if (r.bad_line && r.bad_line <= rc)
		return errf(err, errlen, "%s:%d: %s", path, r.bad_line, r.bad);
	return errf(err, errlen, "%s:%d: not a KEY = VALUE line", path, rc);
}

void conf_free(struct conf *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->keys[i]);
		free(c->vals[i]);
	}
	c->n = 0;
}

const char *conf_arg(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	const char *found = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			break;
		if (strncmp(a, "--", 2) || strncmp(a + 2, name, n))
			continue;
		if (a[2 + n] == '=')
			found = a + 3 + n;
		else if (a[2 + n] == '\0' && i + 1 < argc)
			found = argv[++i];
	}
	return found;
}
