/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/script.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/file.h"
#include "core/num.h"
#include "core/xalloc.h"

int script_parse(struct script *s, const char *text, const char *name, int players,
                 char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", name);
	int lineno = 0;
	const char *p = text;
	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char line[SCRIPT_LINE_MAX + 1];
		lineno++;
		if (len > SCRIPT_LINE_MAX) {
			errf(err, errlen, "%s:%d: a line longer than %d characters", name, lineno, SCRIPT_LINE_MAX);
			script_release(s);
			return -1;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (end ? 1 : 0);
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *q = line;
		while (*q == ' ' || *q == '\t')
			q++;
		size_t ql = strlen(q);
		while (ql && (q[ql - 1] == ' ' || q[ql - 1] == '\t' || q[ql - 1] == '\r'))
			q[--ql] = '\0';
		if (!*q)
			continue;
		char *rest = q + strcspn(q, " \t");
		char word[16];
		uint64_t seat;
		snprintf(word, sizeof word, "%.*s", (int)(rest - q), q);
		if (!*rest || (size_t)(rest - q) >= sizeof word || num_parse_u64(word, 1000, &seat) < 0) {
			char shown[FILE_LINE_QUOTE_MAX];
			errf(err, errlen, "%s:%d: a line starts with a seat number: '%s'", name, lineno,
			     file_escape(q, SIZE_MAX, shown, sizeof shown));
			script_release(s);
			return -1;
		}
		if (seat >= (uint64_t)players) {
			errf(err, errlen, "%s:%d: seat %d does not exist (seats 0 to %d)", name, lineno, (int)seat,
			     players - 1);
			script_release(s);
			return -1;
		}
		struct script_line sl;
		memset(&sl, 0, sizeof sl);
		char aerr[ERR_MAX];
		if (act_parse(rest, &sl.act, aerr, sizeof aerr) < 0) {
			errf(err, errlen, "%s:%d: %s", name, lineno, aerr);
			script_release(s);
			return -1;
		}
		sl.line = lineno;
		sl.seat = (int)seat;
		file_escape(q, SIZE_MAX, sl.text, sizeof sl.text);
		xgrow((void **)&s->lines, &s->cap, s->n + 1, sizeof *s->lines);
		s->lines[s->n++] = sl;
	}
	return 0;
}

int script_load(struct script *s, const char *path, int players, char *err, size_t errlen)
{
	char *text = file_read(path, NULL, err, errlen);
	if (!text)
		return -1;
	int rc = script_parse(s, text, path, players, err, errlen);
	free(text);
	return rc;
}

void script_release(struct script *s)
{
	free(s->lines);
	s->lines = NULL;
	s->n = s->cap = s->next = 0;
}

const struct script_line *script_peek(const struct script *s)
{
	return s->next < s->n ? &s->lines[s->next] : NULL;
}

void script_advance(struct script *s)
{
	if (s->next < s->n)
		s->next++;
}
