/* SPDX-License-Identifier: GPL-3.0-or-later */
/* termtext: a stranger's string made safe to print on a terminal or to
 * speak. What a server (or a player, through it) sends may hold escape
 * sequences that set a terminal's title, clear its screen or colour it,
 * bidirectional overrides that turn text around, and invisible characters
 * that make one name look like another. termtext keeps the printable text
 * and nothing else, using Unicode's own character data (ICU):
 *  - C0 and C1 controls (ESC included) and DEL are dropped; the ones that
 *    break lines or space words (tab, line feed, carriage return, NEL, the
 *    line and paragraph separators) become one space;
 *  - format characters (bidi embeddings, overrides, isolates and marks,
 *    zero-width spaces and joiners, the soft hyphen, tags...), other
 *    default-ignorable characters (the Hangul fillers...), surrogates,
 *    private-use and unassigned code points are dropped; variation
 *    selectors stay (an emoji's presentation), and so does a zero-width
 *    joiner between two pictographs (one emoji of several);
 *  - a byte that is not part of valid UTF-8 becomes U+FFFD.
 * Everything else (letters of every script, marks, punctuation, symbols,
 * emoji) is kept as it came. */
#ifndef TAPIS_TERMTEXT_H
#define TAPIS_TERMTEXT_H

#include <stddef.h>

/* The output never needs more than 3 bytes per input byte, plus the NUL. */
#define TERMTEXT_SIZE(len) (3 * (len) + 1)

/* Clean len bytes of in into out (outlen bytes, cut at a whole character
 * when short); returns out. */
char *termtext_clean(const char *in, size_t len, char *out, size_t outlen);

/* The same into a new string (free it); never NULL. */
char *termtext_dup(const char *in, size_t len);

/* 1 when s (a NUL-ended string) would be changed by termtext_clean. */
int termtext_unsafe(const char *s);

#endif
