/* SPDX-License-Identifier: GPL-3.0-or-later */
/* file: the one reader of the text files tapis is given (--deck, --actions,
 * hand histories, saved games, rules documents), and the escaping of their
 * text when a message quotes it. */
#ifndef TAPIS_FILE_H
#define TAPIS_FILE_H

#include <stddef.h>

/* The largest file read: far above any deck, script, log or save. */
#define FILE_MAX_BYTES ((size_t)16 << 20)

/* Read a whole regular file of at most FILE_MAX_BYTES into a NUL-terminated
 * malloc'd buffer (free it); *len (when not NULL) gets its length. A device,
 * a FIFO or a directory is refused at once, and so is a file holding a NUL
 * byte (not text). NULL with a message naming the file. */
char *file_read(const char *path, size_t *len, char *err, size_t errlen);

/* The same checks for a binary file (a .mo catalogue): NUL bytes allowed
 * (the buffer still ends with one more). */
char *file_read_data(const char *path, size_t *len, char *err, size_t errlen);

/* The same from an open descriptor (standard input: a pipe is fine), named
 * `name` in messages. */
char *file_read_fd(int fd, const char *name, size_t *len, char *err, size_t errlen);

/* A text file read one line at a time, never whole: hand histories and
 * saved games of any length. A line longer than `max` bytes is read to its
 * end but only its first `max` bytes are kept (toolong set). */
struct file_lines {
	void *f;                 /* FILE *, owned when opened by file_lines_open */
	int owned;
	char *buf;               /* the line, NUL-terminated (it may hold NUL bytes) */
	size_t max;
	size_t len;              /* bytes of the line kept, newline left out */
	int newline;             /* 1: the line ended with a newline (0: the last, cut) */
	int toolong;             /* 1: longer than max */
	long long start;         /* offset of the line in the file */
	long long end;           /* offset after it (its newline included) */
	int lineno;              /* 1, 2, ... */
	char name[256];          /* the file named in messages */
};

/* Open a regular file (a device, FIFO or directory refused at once). 0, or
 * -1 with a message. */
int file_lines_open(struct file_lines *r, const char *path, size_t max, char *err, size_t errlen);
/* Read from an open stream (not closed by file_lines_close). */
void file_lines_stream(struct file_lines *r, void *stream, const char *name, size_t max);
/* The next line: 1, 0 at the end, -1 on a read error (with a message). */
int file_lines_next(struct file_lines *r, char *err, size_t errlen);
/* Back to the first line: 0, or -1 when the stream cannot seek. */
int file_lines_rewind(struct file_lines *r);
void file_lines_close(struct file_lines *r);

/* Text from a file made safe to print in a message: bytes below 0x20 and
 * 0x7f become \xNN, a backslash stays as it is. At most n bytes of s are
 * read (stopping at a NUL); out is always terminated, cut with "..." when
 * too small. Returns out. */
char *file_escape(const char *s, size_t n, char *out, size_t outlen);
/* Room for a word of a file quoted in a message, and for the start of a line. */
#define FILE_QUOTE_MAX 80
#define FILE_LINE_QUOTE_MAX 160

#endif
