/* SPDX-License-Identifier: GPL-3.0-or-later */
/* utf8: the one place that knows how UTF-8 is built. Every text of tapis
 * is UTF-8 (names, sentences, the keys typed); these step through it,
 * count it, cut it and check it. (Case, width and normalisation are ICU's:
 * core/termtext, net/ident.) */
#ifndef TAPIS_UTF8_H
#define TAPIS_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Whether c continues a character (10xxxxxx) rather than starting one. */
int utf8_cont(unsigned char c);
/* The bytes of the character whose first byte is c, as that byte
 * announces them: 1 below 0x80, 4 from 0xf0, 3 from 0xe0, else 2 (a byte
 * that starts no character, skipped with the next). */
int utf8_lead(unsigned char c);
/* The length of the well-formed character at s, within its n bytes (no
 * overlong form, no surrogate, nothing past U+10FFFF, none cut short), its
 * code point in *cp (cp may be NULL); 0 when none is there. */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
/* cp in UTF-8 at out (room for 4 bytes): its length, or 0 when cp is a
 * surrogate or past U+10FFFF. */
size_t utf8_encode(uint32_t cp, char *out);
/* The characters of the string s: its bytes that start one. */
size_t utf8_count(const char *s);
/* The start of the character that holds byte i of s: i, or back over the
 * bytes that continue a character, never before 0. Cutting s at
 * utf8_start(s, i) keeps whole characters. */
size_t utf8_start(const char *s, size_t i);

#endif
