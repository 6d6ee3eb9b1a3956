/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/client/resume.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/paths.h"
#include "core/xalloc.h"

#define LINE_MAX_LEN 1024

int resume_path(char *buf, size_t len, int create_dir)
{
	char dir[PATHS_MAX];
	if (paths_statedir(dir, sizeof dir, create_dir) < 0)
		return -1;
	if ((size_t)snprintf(buf, len, "%s/tokens", dir) >= len)
		return -1;
	return 0;
}

static int is_hex(const char *s)
{
	if (!*s || strlen(s) >= RESUME_TOKEN_MAX)
		return 0;
	for (; *s; s++)
		if (!strchr("0123456789abcdefABCDEF", *s))
			return 0;
	return 1;
}

/* A field may hold no tab, no line break, no control character. */
static int plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* Split a line (its end already cut) into its three fields; 0 or -1. */
static int split(char *line, char **url, char **name, char **token)
{
	char *t1 = strchr(line, '\t');
	char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
	if (!t1 || !t2 || strchr(t2 + 1, '\t'))
		return -1;
	*t1 = *t2 = '\0';
	*url = line;
	*name = t1 + 1;
	*token = t2 + 1;
	return **url && **name && is_hex(*token) ? 0 : -1;
}

int resume_load(const char *path, const char *url, const char *name, char *token, size_t len)
{
	char buf[PATHS_MAX];
	if (!path) {
		if (resume_path(buf, sizeof buf, 0) < 0)
			return 0;
		path = buf;
	}
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[LINE_MAX_LEN];
	int found = 0;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		char *u, *n, *t;
		if (split(line, &u, &n, &t) == 0 && !strcmp(u, url) && !strcmp(n, name)) {
			snprintf(token, len, "%s", t);
			found = 1;
		}
	}
	fclose(f);
	return found;
}

int resume_save(const char *path, const char *url, const char *name, const char *token, char *err,
                size_t errlen)
{
	char buf[PATHS_MAX];
	if (!path) {
		if (resume_path(buf, sizeof buf, 1) < 0)
			return errf(err, errlen, "no home to keep the resume token in");
		path = buf;
	}
	if (!plain(url) || !plain(name) || (*token && !is_hex(token)) || strlen(url) + strlen(name) > 600)
		return errf(err, errlen, "the resume token cannot be kept for this name");
	/* The lines kept: every other (server, name), the oldest dropped. */
	char *keep[RESUME_MAX];
	int n = 0;
	FILE *f = fopen(path, "r");
	if (f) {
		char line[LINE_MAX_LEN];
		while (fgets(line, sizeof line, f)) {
			line[strcspn(line, "\r\n")] = '\0';
			char copy[LINE_MAX_LEN];
			snprintf(copy, sizeof copy, "%s", line);
			char *u, *nm, *t;
			if (split(copy, &u, &nm, &t) < 0 || (!strcmp(u, url) && !strcmp(nm, name)))
				continue;
			if (n == RESUME_MAX - 1) {
				free(keep[0]);
				memmove(keep, keep + 1, (size_t)(n - 1) * sizeof *keep);
				n--;
			}
			keep[n++] = xstrdup(line);
		}
		fclose(f);
	}
	char tmp[PATHS_MAX + 16];
	snprintf(tmp, sizeof tmp, "%s.new", path);
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
	FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
	int rc = 0;
	if (!out) {
		rc = errf(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
	} else {
		for (int i = 0; i < n; i++)
			fprintf(out, "%s\n", keep[i]);
		if (*token)
			fprintf(out, "%s\t%s\t%s\n", url, name, token);
		if (fflush(out) != 0 || fsync(fileno(out)) != 0)
			rc = errf(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fclose(out) != 0 && rc == 0)
			rc = errf(err, errlen, "%s: %s", tmp, strerror(errno));
		if (rc == 0 && rename(tmp, path) < 0)
			rc = errf(err, errlen, "%s: %s", path, strerror(errno));
		if (rc < 0)
			unlink(tmp);
	}
	for (int i = 0; i < n; i++)
		free(keep[i]);
	return rc;
}
