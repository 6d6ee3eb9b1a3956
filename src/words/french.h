/* SPDX-License-Identifier: GPL-3.0-or-later */
/* french: the contractions a French sentence built from parts needs ("de
 * Le Brelan" -> "du Brelan"). Pure text, no speaker: a server phrases
 * with it as a local player's speech queue does. */
#ifndef TAPIS_FRENCH_H
#define TAPIS_FRENCH_H

#include <stddef.h>

/* French contractions a sentence built from parts needs, in out: a game's
 * title after "de" or "à" ("Options de Le Brelan" -> "Options du Brelan",
 * "à Le Brouc" -> "au Brouc", "de La Bouillotte" -> "de la Bouillotte"),
 * no article after "une partie de" ("une partie de Brelan"), and an article
 * in lower case after a word ("Reprendre le Brelan"), "que" elided before
 * the number 1 ("qu'1 % de chances"). Only a
 * capitalised article is touched: the pronoun in "de le jouer" stays.
 * What stands between SAY_KEEP_OPEN and SAY_KEEP_CLOSE (words/say: a
 * person's name) is kept as it is ("la carte de Le Goff"), the marks
 * dropped. speech_say (speech/speech) applies it when the language is French
 * (unless SPEECH_PHRASED), a view to everything it phrases in French. Returns out. */
const char *french_contract(const char *in, char *out, size_t len);

#endif
