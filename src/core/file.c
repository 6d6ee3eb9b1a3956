/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "core/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/xalloc.h"

/* Read fd to its end, at most FILE_MAX_BYTES; refuse a NUL byte unless
 * binary. */
static char *read_all(int fd, const char *name, int binary, size_t *len, char *err, size_t errlen)
{
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 == cap) {
			if (cap > FILE_MAX_BYTES) {
				errf(err, errlen, "%s: larger than %zu MiB: not a file of tapis", name,
				     FILE_MAX_BYTES >> 20);
				free(buf);
				return NULL;
			}
			xgrowz((void **)&buf, &cap, cap + 1, 1);
		}
		ssize_t got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			errf(err, errlen, "%s: %s", name, strerror(errno));
			free(buf);
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n > FILE_MAX_BYTES) {
		errf(err, errlen, "%s: larger than %zu MiB: not a file of tapis", name, FILE_MAX_BYTES >> 20);
		free(buf);
		return NULL;
	}
	const char *nul = binary ? NULL : memchr(buf, '\0', n);
	if (nul) {
		int line = 1;
		for (const char *p = buf; p < nul; p++)
			line += *p == '\n';
		errf(err, errlen, "%s:%d: a NUL byte: not a text file", name, line);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *file_read_fd(int fd, const char *name, size_t *len, char *err, size_t errlen)
{
	return read_all(fd, name, 0, len, err, errlen);
}

static char *read_path(const char *path, int binary, size_t *len, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		errf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		errf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		errf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if ((unsigned long long)st.st_size > FILE_MAX_BYTES) {
		errf(err, errlen, "%s: larger than %zu MiB: not a file of tapis", path, FILE_MAX_BYTES >> 20);
		close(fd);
		return NULL;
	}
	int flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	char *text = read_all(fd, path, binary, len, err, errlen);
	close(fd);
	return text;
}

char *file_read(const char *path, size_t *len, char *err, size_t errlen)
{
	return read_path(path, 0, len, err, errlen);
}

char *file_read_data(const char *path, size_t *len, char *err, size_t errlen)
{
	return read_path(path, 1, len, err, errlen);
}

int file_lines_open(struct file_lines *r, const char *path, size_t max, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errf(err, errlen, "%s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return errf(err, errlen, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return errf(err, errlen, "%s: not a regular file", path);
	}
	int flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	FILE *f = fdopen(fd, "r");
	if (!f) {
		int e = errno;
		close(fd);
		return errf(err, errlen, "%s: %s", path, strerror(e));
	}
	file_lines_stream(r, f, path, max);
	r->owned = 1;
	return 0;
}

void file_lines_stream(struct file_lines *r, void *stream, const char *name, size_t max)
{
	memset(r, 0, sizeof *r);
	r->f = stream;
	r->max = max;
	r->buf = xmalloc(max + 1);
	r->buf[0] = '\0';
	snprintf(r->name, sizeof r->name, "%s", name);
}

int file_lines_next(struct file_lines *r, char *err, size_t errlen)
{
	FILE *f = r->f;
	r->start = r->end;
	r->len = 0;
	r->newline = 0;
	r->toolong = 0;
	long long n = 0;
	int c;
	while ((c = getc_unlocked(f)) != EOF) {
		n++;
		if (c == '\n') {
			r->newline = 1;
			break;
		}
		if (r->len < r->max)
			r->buf[r->len++] = (char)c;
		else
			r->toolong = 1;
	}
	r->buf[r->len] = '\0';
	if (ferror(f)) {
		errf(err, errlen, "%s: %s", r->name, strerror(errno ? errno : EIO));
		return -1;
	}
	if (n == 0)
		return 0;
	r->end = r->start + n;
	r->lineno++;
	return 1;
}

int file_lines_rewind(struct file_lines *r)
{
	if (fseeko(r->f, 0, SEEK_SET) < 0)
		return -1;
	clearerr(r->f);
	r->start = r->end = 0;
	r->lineno = 0;
	r->len = 0;
	return 0;
}

void file_lines_close(struct file_lines *r)
{
	if (r->owned && r->f)
		fclose(r->f);
	free(r->buf);
	memset(r, 0, sizeof *r);
}

char *file_escape(const char *s, size_t n, char *out, size_t outlen)
{
	if (!outlen)
		return out;
	size_t o = 0;
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[5];
		size_t k = 1;
		if (c < 0x20 || c == 0x7f)
			k = (size_t)snprintf(esc, sizeof esc, "\\x%02x", c);
		else
			esc[0] = (char)c;
		if (o + k + 1 > outlen) {
			/* Cut: end with "..." when it fits. */
			size_t dots = outlen > 4 ? 3 : 0;
			if (o > outlen - 1 - dots)
				o = outlen - 1 - dots;
			memcpy(out + o, "...", dots);
			o += dots;
			break;
		}
		memcpy(out + o, esc, k);
		o += k;
	}
	out[o] = '\0';
	return out;
}
