/* SPDX-License-Identifier: GPL-3.0-or-later */
/* talk_hint: the hint key's sentence. What the strongest bot would do and
 * why, in one short sentence in the current language ("Play the king of
 * spades: you take the trick."), from bot_hint's action and reason. */
#ifndef TAPIS_TALK_HINT_H
#define TAPIS_TALK_HINT_H

#include "bots/bot.h"
#include "core/sbuf.h"
#include "words/talk.h"

/* Appends the sentence to b. t: who listens; gt: the game's talk, whose
 * order gives the game's own words for an action (NULL: the shared words
 * alone); a and why: from bot_hint. */
void talk_hint(const struct talk *t, const struct game_talk *gt, const struct action *a,
               const struct bot_reason *why, struct sbuf *b);

#endif
