/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rulewords: the values a rule option takes and their words, for the
 * options' menu (ui/menu) and the web page's words (ui/words). Words
 * only: no key, no speaker, so `tapis-server` links it without sound. */
#ifndef TAPIS_RULEWORDS_H
#define TAPIS_RULEWORDS_H

#include <stddef.h>

#include "core/rules.h"

/* Every value an option accepts, in order (random and auto first; none for
 * a number, whose range is min..max): how many, at most max. */
int rulewords_values(const struct rule_def *d, int *out, int max);
/* The value of option i as a player hears it ("yes", "hearts", "the queen
 * of spades", a number), in the language in force; buf may hold it. */
const char *rulewords_label(const struct rules *r, int i, char *buf, size_t len);

#endif
