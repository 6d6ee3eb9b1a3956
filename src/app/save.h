/* SPDX-License-Identifier: GPL-3.0-or-later */
/* save: the envelope of a saved game file, whatever it holds
 * (docs/architecture.md "Saved games"). A version line, header lines closed
 * by a checksum line, then records appended one line at a time, each with a
 * checksum chained from the one before. The header is written once through
 * a fresh temporary file renamed into place; records are appended to the
 * open file and made durable with save_sync. */
#ifndef TAPIS_SAVE_H
#define TAPIS_SAVE_H

#include <stddef.h>
#include <stdint.h>

#define SAVE_VERSION 2
#define SAVE_MAX_HEADER 256
#define SAVE_LINE_MAX 512

/* CRC-32 (the polynomial and chaining of zlib's crc32: crc32(0, ...) then
 * crc32(previous, ...)). */
uint32_t save_crc32(uint32_t crc, const void *data, size_t n);

struct save_writer {
	int fd;                  /* -1 when closed */
	uint32_t crc;            /* checksum of the last line written */
	char *path;              /* while open (save_close frees it), else NULL */
};

void save_writer_init(struct save_writer *w);
/* Write `header` (whole lines, without the version line) and its checksum
 * line to a new temporary file next to `path` (a unique name, opened with
 * O_EXCL and O_NOFOLLOW), fsync it, move it to `path`, fsync the directory,
 * and keep it open for appending. With replace == 0 an existing file at
 * `path` is never replaced: -1 with errno EEXIST. 0, or -1 with errno set
 * and a message. */
int save_create(struct save_writer *w, const char *path, const char *header, int replace,
                char *err, size_t errlen);
/* Open an existing save for appending after `valid_len` bytes (a torn last
 * line beyond them is cut off), the checksum going on from `crc`. */
int save_reopen(struct save_writer *w, const char *path, long valid_len, uint32_t crc,
                char *err, size_t errlen);
/* Append one record (a line without its newline) with its checksum. */
int save_append(struct save_writer *w, const char *record, char *err, size_t errlen);
/* Make what was written durable (fsync). */
int save_sync(struct save_writer *w, char *err, size_t errlen);
/* fsync and close; safe when closed. */
void save_close(struct save_writer *w);

/* The longest line read back from a save (a header's packs included). */
#define SAVE_READ_LINE_MAX 16384

/* A save file read and checked, one line at a time (a save of any length). */
struct save_file {
	char *header[SAVE_MAX_HEADER];     /* header lines (owned), without version and checksum */
	int nheader;
	long long nrecords_seen;           /* records read (given to the callback or kept) */
	char **records;                    /* appended records (owned), without their checksum,
	                                      when no callback takes them */
	int *record_line;                  /* their line numbers in the file */
	int nrecords, cap;
	long valid_len;                    /* bytes up to the end of the last whole line */
	uint32_t crc;                      /* the checksum of that line */
	int torn;                          /* 1: a torn last line was left out */
};

/* Read and check a save: the version (refused unless SAVE_VERSION), the
 * header's checksum, every record's. A last line without its newline (a
 * write cut short) is left out and `torn` set; anything else that does not
 * check is refused. 0, or -1 with a message naming the file and line. */
int save_parse(const char *text, size_t len, const char *name, struct save_file *f,
               char *err, size_t errlen);
/* The same from lines being read (core/file); each record is given to fn
 * (its line number; -1 stops with fn's message) instead of being kept,
 * unless fn is NULL. With zero_tail, zeros from a NUL byte to the end of the
 * file are a write cut short (left out like a torn line); any other byte
 * after a NUL is damage. */
struct file_lines;
typedef int (*save_record_fn)(void *ctx, const char *record, int lineno, char *err, size_t errlen);
int save_scan(struct file_lines *in, int zero_tail, struct save_file *f, save_record_fn fn, void *ctx,
              char *err, size_t errlen);
int save_read(const char *path, struct save_file *f, char *err, size_t errlen);
void save_file_release(struct save_file *f);

#endif
