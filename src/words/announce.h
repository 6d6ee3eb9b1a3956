/* SPDX-License-Identifier: GPL-3.0-or-later */
/* announce: events into sentences for one listening seat. The game's talk
 * module speaks first; what it leaves is phrased here, the same way for
 * every game. This is the only place, with the talk modules, that phrases. */
#ifndef TAPIS_ANNOUNCE_H
#define TAPIS_ANNOUNCE_H

#include "core/event.h"
#include "core/sbuf.h"
#include "words/talk.h"

/* Phrase e for t->me into b (b left empty: nothing to say). gt may be NULL.
 * Remembers the last trick and showdown in t->heard for the query keys.
 * The antes paid before e come first, parted from e's words by ANN_BREAK:
 * two messages ("Antes paid: 1 chip each." and "Your 5 cards: ..."). */
#define ANN_BREAK "\n"
void ann_event(struct talk *t, const struct game_talk *gt, const void *view,
               const struct event *e, struct sbuf *b);
/* Remember e in t->heard as ann_event does, without phrasing it: for a
 * listener that must know what the table showed while it was silent (a
 * resumed game replayed, a listener attached mid-game). Antes are not kept:
 * they are said only when heard. */
void ann_remember(struct talk *t, const struct event *e);
/* An event as every game says it, for a game that adds to it. */
void ann_generic(const struct talk *t, const void *view, const struct event *e, struct sbuf *b);
/* Answer a query key (C F L N R S T 1-9) for t->me. The game answers
 * first; L (the last trick) and N (cards held) have a generic answer. */
void ann_query(const struct talk *t, const struct game_talk *gt, const void *view, int key,
               struct sbuf *b);
/* The antes or the passe paid since they were last said, as one sentence
 * ("Antes paid: 1 chip each."); nothing when none. ann_event says them
 * with the first event that follows; a game says them sooner (a question
 * to the player may follow) when its event handler phrases the last
 * payment with this. */
void ann_dues(const struct talk *t, struct sbuf *b);
/* 1 when e is an ante or passe payment (kept for ann_dues). */
int ann_is_due(const struct event *e);
/* N: how many cards each player holds ("Cards held: Anne 3, you 5."), from
 * counts a game knows (a redacted hand hides how many cards it has). */
void ann_cards_held(const struct talk *t, const int *count, int players, struct sbuf *b);
/* An action as heard or offered in a menu, into b (cleared first). */
void ann_action(const struct talk *t, const struct game_talk *gt, const void *view,
                const struct action *a, struct sbuf *b);
/* A refusal. */
void ann_refusal(const struct talk *t, const struct game_talk *gt, const void *view,
                 const struct refusal *r, struct sbuf *b);
/* The whole hand of t->me: "Your cards: spades: ace, king; ..." */
void ann_hand(const struct talk *t, const card_t *cards, int n, struct sbuf *b);

#endif
