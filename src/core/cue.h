/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cue: the sound cues of the game as numbers and words, and the cue of an
 * event. Pure data: no sound, no device. audio/ plays the cues, a view
 * (app/view) hands them to its sink with what it says, and a server
 * sends their words (net/host); `tapis join` turns a word back into a cue
 * (cue_find). The words are those of the sound files (sounds/NAME.wav)
 * and of docs/protocol.md. */
#ifndef TAPIS_CUE_H
#define TAPIS_CUE_H

#include "core/event.h"

enum cue {
	CUE_SHUFFLE, CUE_DEAL, CUE_CARD, CUE_TRICK, CUE_CHIPS, CUE_POT_WON,
	CUE_FOLD, CUE_PASS, CUE_YOUR_TURN, CUE_ILLEGAL, CUE_ROUND_OVER, CUE_GAME_OVER,
	CUE_CHAT,      /* a chat line (network play) */
	CUE_COUNT
};

/* The word of a cue ("your_turn"), or NULL for CUE_COUNT and beyond. */
const char *cue_name(enum cue cue);
/* The cue of a word, CUE_COUNT when none (or name is NULL). */
enum cue cue_find(const char *name);
/* The cue of a game event (CUE_COUNT for none) and the seat it comes from
 * (-1: the centre), as heard by seat `me`; seat may be NULL. */
enum cue cue_event(const struct event *e, int me, int *seat);

#endif
