/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sbuf: a fixed-size string builder for sentences (never allocates,
 * truncates safely). */
#ifndef TAPIS_SBUF_H
#define TAPIS_SBUF_H

#include <stddef.h>

#define SBUF_SIZE 2048

struct sbuf {
	size_t len;
	char s[SBUF_SIZE];
};

void sb_clear(struct sbuf *b);
void sb_puts(struct sbuf *b, const char *text);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void sb_printf(struct sbuf *b, const char *fmt, ...);
/* Appends a separator (". " by default) when b is not empty, then text. */
void sb_sentence(struct sbuf *b, const char *text);
/* Upper-cases the first letter (UTF-8 aware for the French accented letters). */
void sb_capitalize(struct sbuf *b);
/* The text into buf, cut to len - 1 bytes; returns buf. */
const char *sb_copy(const struct sbuf *b, char *buf, size_t len);

#endif
