/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/save.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/deckfile.h"
#include "core/err.h"
#include "core/file.h"
#include "core/paths.h"
#include "core/xalloc.h"

uint32_t save_crc32(uint32_t crc, const void *data, size_t n)
{
	const unsigned char *p = data;
	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

void save_writer_init(struct save_writer *w)
{
	memset(w, 0, sizeof *w);
	w->fd = -1;
}

static int fail(char *err, size_t errlen, const char *what, const char *path)
{
	int e = errno;
	errf(err, errlen, "%s %s: %s", what, path, strerror(e));
	errno = e;
	return -1;
}

/* Write all of buf; -1 with errno on failure (a short write of a full disk
 * included). */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t k = write(fd, buf, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (k == 0) {
			errno = ENOSPC;
			return -1;
		}
		buf += k;
		n -= (size_t)k;
	}
	return 0;
}

static int sync_dir_of(const char *path)
{
	char dir[PATHS_MAX];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

/* A new file next to path with a name no one else holds. */
static int open_temp(const char *path, char *tmp, size_t len)
{
	static unsigned counter;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	for (int tries = 0; tries < 100; tries++) {
		unsigned r = (unsigned)ts.tv_nsec ^ (unsigned)getpid() * 2654435761u ^ ++counter * 40503u;
		snprintf(tmp, len, "%s.%ld.%08x.tmp", path, (long)getpid(), r);
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int save_create(struct save_writer *w, const char *path, const char *header, int replace,
                char *err, size_t errlen)
{
	save_writer_init(w);
	char tmp[4300];
	int fd = open_temp(path, tmp, sizeof tmp);
	if (fd < 0)
		return fail(err, errlen, "cannot create", tmp);
	char first[32];
	snprintf(first, sizeof first, "tapis-save %d\n", SAVE_VERSION);
	uint32_t crc = save_crc32(0, first, strlen(first));
	crc = save_crc32(crc, header, strlen(header));
	char check[32];
	snprintf(check, sizeof check, "header %08x\n", (unsigned)crc);
	if (write_all(fd, first, strlen(first)) < 0 || write_all(fd, header, strlen(header)) < 0 ||
	    write_all(fd, check, strlen(check)) < 0 || fsync(fd) < 0) {
		fail(err, errlen, "cannot write", tmp);
		int e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		return -1;
	}
	int rc;
	if (replace) {
		rc = rename(tmp, path);
	} else {
		/* link() never replaces: a save made meanwhile by another tapis
		 * stays. File systems without hard links get a rename when no
		 * save is there. */
		rc = link(tmp, path);
		if (rc == 0) {
			unlink(tmp);
		} else if (errno != EEXIST) {
			struct stat st;
			if (lstat(path, &st) == 0)
				errno = EEXIST;
			else if (errno == ENOENT)
				rc = rename(tmp, path);
		}
	}
	if (rc < 0) {
		int e = errno;
		errf(err, errlen, "cannot save %s: %s", path, strerror(e));
		close(fd);
		unlink(tmp);
		errno = e;
		return -1;
	}
	if (sync_dir_of(path) < 0) {
		fail(err, errlen, "cannot sync the folder of", path);
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	w->fd = fd;
	w->crc = crc;
	w->path = xstrdup(path);
	return 0;
}

int save_reopen(struct save_writer *w, const char *path, long valid_len, uint32_t crc,
                char *err, size_t errlen)
{
	save_writer_init(w);
	int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, "cannot open", path);
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (errno == 0 || fstat(fd, &st) == 0)
			errno = EINVAL;
		fail(err, errlen, "not a regular file:", path);
		close(fd);
		return -1;
	}
	if (st.st_size > valid_len && (ftruncate(fd, valid_len) < 0 || fsync(fd) < 0)) {
		fail(err, errlen, "cannot cut the torn line of", path);
		close(fd);
		return -1;
	}
	w->fd = fd;
	w->crc = crc;
	w->path = xstrdup(path);
	return 0;
}

int save_append(struct save_writer *w, const char *record, char *err, size_t errlen)
{
	if (w->fd < 0) {
		errno = EBADF;
		return fail(err, errlen, "not open:", w->path ? w->path : "(no file)");
	}
	char line[SAVE_LINE_MAX + 16];
	size_t n = strlen(record);
	if (n > SAVE_LINE_MAX || memchr(record, '\n', n)) {
		errno = EINVAL;
		return fail(err, errlen, "bad record for", w->path);
	}
	uint32_t crc = save_crc32(w->crc, record, n);
	int len = snprintf(line, sizeof line, "%s %08x\n", record, (unsigned)crc);
	/* One write for the whole line: a crash leaves it whole or torn at
	 * the end of the file, where reading finds it. */
	if (write_all(w->fd, line, (size_t)len) < 0)
		return fail(err, errlen, "cannot write", w->path);
	w->crc = crc;
	return 0;
}

int save_sync(struct save_writer *w, char *err, size_t errlen)
{
	if (w->fd < 0)
		return 0;
	if (fsync(w->fd) < 0)
		return fail(err, errlen, "cannot write", w->path);
	return 0;
}

void save_close(struct save_writer *w)
{
	if (w->fd >= 0) {
		fsync(w->fd);
		close(w->fd);
	}
	w->fd = -1;
	free(w->path);
	w->path = NULL;
}

static int parse_crc(const char *s, uint32_t *out)
{
	if (strlen(s) != 8)
		return -1;
	uint32_t v = 0;
	for (int i = 0; i < 8; i++) {
		int c = s[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			return -1;
		v = v << 4 | (uint32_t)d;
	}
	*out = v;
	return 0;
}

static void add_record(struct save_file *f, const char *rec, int lineno)
{
	if (f->nrecords == f->cap) {
		xgrow((void **)&f->records, &f->cap, f->nrecords + 1, sizeof *f->records);
		f->record_line = xrealloc(f->record_line, (size_t)f->cap * sizeof *f->record_line);
	}
	f->records[f->nrecords] = xstrdup(rec);
	f->record_line[f->nrecords++] = lineno;
}

int save_scan(struct file_lines *in, int zero_tail, struct save_file *f, save_record_fn fn, void *ctx,
              char *err, size_t errlen)
{
	const char *name = in->name;
	memset(f, 0, sizeof *f);
	int in_header = 1, got;
	uint32_t crc = 0;
	while ((got = file_lines_next(in, err, errlen)) > 0) {
		int lineno = in->lineno;
		char *p = in->buf;
		size_t n = in->len;
		char *nul = memchr(p, '\0', n);
		if (nul && zero_tail) {
			/* Zeros from the first NUL byte to the end: a write cut
			 * short by a crash, left out like a torn line. */
			int zeros = 1;
			for (char *q = nul; q < p + n; q++)
				zeros &= *q == 0;
			if (!zeros || in->toolong || in->newline) {
				errf(err, errlen, "%s: damaged (a NUL byte before the end)", name);
				goto bad;
			}
			n = (size_t)(nul - p);
			in->newline = 0;
		}
		if (!in->newline) {
			/* A last line without its newline: a write cut short. */
			if (in_header) {
				errf(err, errlen, "%s:%d: the saved game is cut short", name, lineno);
				goto bad;
			}
			f->torn = 1;
			break;
		}
		if (in->toolong) {
			errf(err, errlen, "%s:%d: damaged (a line longer than %d bytes)", name, lineno,
			     SAVE_READ_LINE_MAX);
			goto bad;
		}
		if (nul) {
			errf(err, errlen, "%s:%d: damaged (a NUL byte)", name, lineno);
			goto bad;
		}
		if (lineno == 1) {
			int v;
			char extra;
			if (strncmp(p, "tapis-save ", 11) != 0 || sscanf(p + 11, "%d%c", &v, &extra) != 1) {
				errf(err, errlen, "%s: not a saved game of tapis", name);
				goto bad;
			}
			if (v != SAVE_VERSION) {
				errf(err, errlen, "%s: a saved game of format %d; this tapis reads format %d only",
				     name, v, SAVE_VERSION);
				goto bad;
			}
			crc = save_crc32(0, p, n);
			crc = save_crc32(crc, "\n", 1);
		} else if (in_header && strncmp(p, "header ", 7) == 0) {
			uint32_t want;
			if (parse_crc(p + 7, &want) < 0 || want != crc) {
				errf(err, errlen, "%s:%d: damaged (the header does not match its checksum)", name, lineno);
				goto bad;
			}
			in_header = 0;
		} else if (in_header) {
			if (f->nheader == SAVE_MAX_HEADER) {
				errf(err, errlen, "%s:%d: too many header lines", name, lineno);
				goto bad;
			}
			f->header[f->nheader++] = xstrdup(p);
			crc = save_crc32(crc, p, n);
			crc = save_crc32(crc, "\n", 1);
		} else {
			char *sp = strrchr(p, ' ');
			uint32_t want;
			if (!sp || parse_crc(sp + 1, &want) < 0 || want != save_crc32(crc, p, (size_t)(sp - p))) {
				errf(err, errlen, "%s:%d: damaged (the line does not match its checksum)", name, lineno);
				goto bad;
			}
			*sp = '\0';
			crc = want;
			if (fn) {
				if (fn(ctx, p, lineno, err, errlen) < 0)
					goto bad;
			} else {
				add_record(f, p, lineno);
			}
			f->nrecords_seen++;
		}
		f->valid_len = (long)in->end;
	}
	if (got < 0)
		goto bad;
	if (in->lineno == 0 || in_header) {
		errf(err, errlen, "%s:%d: the saved game is cut short", name, in->lineno);
		goto bad;
	}
	f->crc = crc;
	return 0;
bad:
	save_file_release(f);
	return -1;
}

int save_parse(const char *text, size_t len, const char *name, struct save_file *f,
               char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	if (len == 0)
		return errf(err, errlen, "%s:0: the saved game is cut short", name);
	FILE *in = fmemopen((void *)text, len, "r");
	if (!in)
		return errf(err, errlen, "%s: %s", name, strerror(errno));
	struct file_lines r;
	file_lines_stream(&r, in, name, SAVE_READ_LINE_MAX);
	int rc = save_scan(&r, 0, f, NULL, NULL, err, errlen);
	file_lines_close(&r);
	fclose(in);
	return rc;
}

int save_read(const char *path, struct save_file *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	struct file_lines r;
	if (file_lines_open(&r, path, SAVE_READ_LINE_MAX, err, errlen) < 0)
		return -1;
	int rc = save_scan(&r, 1, f, NULL, NULL, err, errlen);
	file_lines_close(&r);
	return rc;
}

void save_file_release(struct save_file *f)
{
	for (int i = 0; i < f->nheader; i++)
		free(f->header[i]);
	for (int i = 0; i < f->nrecords; i++)
		free(f->records[i]);
	free(f->records);
	free(f->record_line);
	memset(f, 0, sizeof *f);
}
