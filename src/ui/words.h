/* SPDX-License-Identifier: GPL-3.0-or-later */
/* words: what the web page says of its own (the labels of its forms, its
 * headings and buttons, the keys and their help, the games and their rule
 * options) in one language, from the catalogues, as one JSON document that
 * the server gives at GET /words?lang=LANG (docs/protocol.md). The page
 * holds no sentence: everything it shows or speaks is from here or from
 * the protocol's messages. */
#ifndef TAPIS_WORDS_H
#define TAPIS_WORDS_H

/* The document in lang ("en" or "fr"; anything else gives English), as
 * malloc'd text, or NULL when out of memory. Switches the catalogue in
 * force for the time of the call and gives the previous one back. */
char *words_json(const char *lang);

#endif
