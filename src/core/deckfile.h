/* SPDX-License-Identifier: GPL-3.0-or-later */
/* deckfile: the `--deck FILE` reader (docs/tapis.6). */
#ifndef TAPIS_DECKFILE_H
#define TAPIS_DECKFILE_H

#include <stddef.h>

#include "core/game.h"

/* Parse text (named `name` in messages) into packs, each checked to be
 * exactly `pack` (npack cards, copies counted). 0, or -1 with a message
 * naming the file, the line and the card. */
int deckfile_parse(const char *text, const char *name, const card_t *pack, int npack,
                   struct deckstack *out, char *err, size_t errlen);
/* Read and parse a file. */
int deckfile_load(const char *path, const card_t *pack, int npack,
                  struct deckstack *out, char *err, size_t errlen);

/* The pack of deal k (from 0): stacked pack k when the stack has one of the
 * right size, else `pack` shuffled with rng. Writes n cards to out. */
void deckfile_deal_pack(const struct deckstack *ds, int k, const card_t *pack, int n,
                        struct rng *rng, card_t *out);

/* Read a whole file into a NUL-terminated malloc'd buffer (free it), or NULL
 * with a message: file_read, with its limits. */
char *deckfile_slurp(const char *path, char *err, size_t errlen);

#endif
