/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ident: the names people give themselves and the lines they chat, checked
 * before anyone else hears them. A name is what other players hear and
 * read of a person, so it must say who it is and nobody else:
 *  - 2 to 24 characters once trimmed; letters, marks and digits (those
 *    Unicode recommends for identifiers, UTS #39), with single spaces,
 *    hyphens, apostrophes, periods and underscores between them; it starts
 *    with a letter or a digit;
 *  - one script, or Latin with Han and the Japanese or Korean scripts (the
 *    "highly restrictive" level of UTS #39): no Cyrillic "А" in "Аnne";
 *  - not confusable with a reserved word (server, system, admin, bot...,
 *    in English and French), and not ending with the word bot or robot;
 *  - kept in NFC.
 * Two names are the same person when their keys are equal: the confusable
 * skeleton of UTS #39 of the case-folded name without its separators nor
 * its accents (nonspacing marks), so "Anne", "anne", "A-nne", "Anné" and a
 * Cyrillic "Аnne" are one. The store keeps every account's and every
 * ban's keys (net/store): a change here is a step of the store's schema,
 * which makes them again.
 * Unicode's data comes from ICU (uspoof, uchar, unorm2). The refusals are
 * phrased in the language given (a value, i18n_of; NULL: the one in force,
 * for the program's own command line). */
#ifndef TAPIS_IDENT_H
#define TAPIS_IDENT_H

#include <stddef.h>

#define IDENT_MIN 2           /* characters */
#define IDENT_MAX 24
#define IDENT_KEY_MAX 512     /* bytes of a key */

/* Check a stranger's name; 0 with out (outlen bytes) holding it trimmed
 * and in NFC, or -1 with err saying why. */
struct i18n_lang;
int ident_check(const char *in, char *out, size_t outlen, const struct i18n_lang *L, char *err, size_t errlen);

/* The key of a name (see above) into key; 0, or -1 when it cannot be made
 * (then key is the name itself). */
int ident_key(const char *name, char *key, size_t keylen);

/* 1 when a and b are names of the same look (their keys are equal). */
int ident_alike(const char *a, const char *b);

/* A name's two keys: two names are alike when either of their keys is
 * the same (the lobby finds the names alike among many through them). */
struct ident_keys {
	char k[2][IDENT_KEY_MAX];
};
void ident_keys_of(const char *name, struct ident_keys *k);
/* 1 when the names of keys a and b are alike. */
int ident_keys_alike(const struct ident_keys *a, const struct ident_keys *b);

/* A chat line made fit to pass on: controls, bidi overrides and isolates,
 * invisible characters dropped, line breaks made spaces (core/termtext),
 * trimmed. 0 with out filled, or -1 with err when nothing is left. */
int ident_chat(const char *in, char *out, size_t outlen, const struct i18n_lang *L, char *err, size_t errlen);

#endif
