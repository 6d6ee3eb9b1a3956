/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cue: the sound cue of an event as a number and a word, no sound. */
#include "core/cue.h"

#include <string.h>

static const char *const cue_names[CUE_COUNT] = {
	[CUE_SHUFFLE] = "shuffle", [CUE_DEAL] = "deal", [CUE_CARD] = "card",
	[CUE_TRICK] = "trick", [CUE_CHIPS] = "chips", [CUE_POT_WON] = "pot_won",
	[CUE_FOLD] = "fold", [CUE_PASS] = "pass", [CUE_YOUR_TURN] = "your_turn",
	[CUE_ILLEGAL] = "illegal", [CUE_ROUND_OVER] = "round_over",
	[CUE_GAME_OVER] = "game_over", [CUE_CHAT] = "chat",
};

const char *cue_name(enum cue cue)
{
	return (unsigned)cue < CUE_COUNT ? cue_names[cue] : NULL;
}

enum cue cue_find(const char *name)
{
	for (int i = 0; i < CUE_COUNT; i++)
		if (name && !strcmp(cue_names[i], name))
			return (enum cue)i;
	return CUE_COUNT;
}

enum cue cue_event(const struct event *e, int me, int *seat)
{
	int s = -1;
	enum cue cue = CUE_COUNT;

	(void)me;
	switch (e->type) {
	case EV_HAND_START:
		cue = CUE_SHUFFLE;
		s = e->dealer;
		break;
	case EV_DEAL:
		cue = CUE_DEAL;
		s = e->seat;
		break;
	case EV_ACTION:
		s = e->seat;
		switch (e->act.kind) {
		case ACT_PLAY:
			cue = CUE_CARD;
			break;
		case ACT_DISCARD:
		case ACT_TAKE:
			cue = CUE_DEAL;
			break;
		case ACT_CALL:
			/* calling nothing is a knock on the table */
			cue = e->amount == 0 ? CUE_PASS : CUE_CHIPS;
			break;
		case ACT_OPEN:
		case ACT_RAISE:
		case ACT_ALLIN:
		case ACT_STRADDLE:
		case ACT_BUYBACK:
			cue = CUE_CHIPS;
			break;
		case ACT_FOLD:
		case ACT_LEAVE:
			cue = CUE_FOLD;
			break;
		case ACT_PASS:
		case ACT_STAY:
		case ACT_DECLINE:
			cue = CUE_PASS;
			break;
		default:
			break;
		}
		break;
	case EV_TRICK:
		cue = CUE_TRICK;
		s = e->winner;
		break;
	case EV_PAYMENT:
		if (e->amount <= 0)
			break;
		if (e->to >= 0) {
			cue = CUE_POT_WON;
			s = e->to;
		} else {
			cue = CUE_CHIPS;
			s = e->from;
		}
		break;
	case EV_HAND_END:
		cue = CUE_ROUND_OVER;
		break;
	case EV_GAME_END:
		cue = CUE_GAME_OVER;
		break;
	default:
		break;
	}
	if (seat)
		*seat = s;
	return cue;
}
