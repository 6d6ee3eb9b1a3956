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

/* Text from a file made safe to print in a message: bytes below 0x20 and
 * 0x7f become \xNN, a backslash stays as it is. At most n bytes of s are
 * read (stopping at a NUL); out is always terminated, cut with "..." when
 * too small. Returns out. */
char *file_escape(const char *s, size_t n, char *out, size_t outlen);
/* Room for a word of a file quoted in a message, and for the start of a line. */
#define FILE_QUOTE_MAX 80
#define FILE_LINE_QUOTE_MAX 160

#endif
