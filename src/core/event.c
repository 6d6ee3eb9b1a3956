#include "core/event.h"

#include <stddef.h>
#include <string.h>

static const char *const WORDS[EV_COUNT] = {
	[EV_GAME_START] = "game_start", [EV_HAND_START] = "hand_start", [EV_DEAL] = "deal",
	[EV_TURNUP] = "turnup",         [EV_DRAW] = "draw",             [EV_CHOICE] = "choice",
	[EV_ACTION] = "action",         [EV_TRICK] = "trick",           [EV_DECLARE] = "declare",
	[EV_SHOWDOWN] = "showdown",     [EV_PAYMENT] = "payment",       [EV_HAND_END] = "hand_end",
	[EV_GAME_END] = "game_end",     [EV_PHASE] = "phase",
};

void ev_init(struct event *e, int type)
{
	memset(e, 0, sizeof *e);
	e->type = type;
	e->seat = e->winner = e->from = e->to = -1;
	e->amount = -1;
	e->visible = EV_ALL;
}

const char *ev_type_word(int type)
{
	return (type >= 0 && type < EV_COUNT) ? WORDS[type] : "unknown";
}
