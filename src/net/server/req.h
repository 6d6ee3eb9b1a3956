/* SPDX-License-Identifier: GPL-3.0-or-later */
/* req: a client's message as the server reads it (docs/protocol.md), in
 * JSON through jansson: read and checked by one function of its type into
 * a plain struct (a game's name found in the registry, its rules and seats
 * checked). Unknown fields are ignored; unknown types are refused. */
#ifndef TAPIS_REQ_H
#define TAPIS_REQ_H

#include <stddef.h>

#include "core/game.h"
#include "net/wire/proto.h"

struct i18n_lang;

enum req_type {
	PM_NONE,
	PM_HELLO,   /* version, name, password | token, lang */
	PM_CREATE,  /* game, players, rules, seats, private password */
	PM_SIT,     /* table, seat (-1: the first open one), password */
	PM_STAND,   /* table */
	PM_WATCH,   /* table, password */
	PM_LEAVE,   /* table */
	PM_START,   /* table */
	PM_SEAT,    /* table, seat, kind (open | bot), level: the creator sets a seat */
	PM_KICK,    /* table, seat */
	PM_ACTION,  /* table, action (text of the --actions vocabulary) */
	PM_CHAT,    /* text, table (0: the lobby) */
	PM_PING,
	PM_HINT,    /* table: what the strongest bot would do for one's seat */
	PM_VERBOSITY, /* table, level (short | full): how much one's view says */
	PM_RESUME,  /* table: a saved table taken up again */
	PM_SETTINGS, /* lang, level, settings: kept with one's account */
	PM_STATS,    /* game (optional): one's own figures */
	PM_LEADERS,  /* game: the leaderboard */
	PM_HISTORY,  /* table (optional: the last one): a hand history of one's last games */
	PM_INVITE,  /* table, name: invite someone online to a table */
	PM_REMATCH, /* table: yes to the rematch offered at a game's end */
	PM_MOD,     /* act, name, minutes, reason, table: a moderator's act */
	PM_MUTE,    /* name, on: stop (or start again) hearing someone's chat */
	PM_LOBBY_QUERY, /* page, filter (in text), follow: the lobby's list asked again, a page of it */
	PM_COUNT
};

enum req_seat_kind { PSEAT_OPEN, PSEAT_BOT };

/* The acts of `mod`. */
enum req_mod_act { PMOD_MUTE, PMOD_UNMUTE, PMOD_KICK, PMOD_BAN, PMOD_UNBAN, PMOD_COUNT };
extern const char *const req_mod_words[PMOD_COUNT];

struct req {
	int type;                      /* enum req_type */
	int version;
	char name[PROTO_NAME_MAX * 4 + 1];
	char password[PROTO_PASSWORD_MAX + 1];
	int has_password;
	char token[PROTO_TOKEN_LEN + 1];
	char lang[3];
	int has_lang;                  /* hello, settings: lang was given */
	int state_changes;             /* hello: states as their changes from the one before */
	int aside;                     /* hello: a connection aside the person's session, for history,
	                                * stats and leaders only (it replaces nothing) */
	int has_verbosity;             /* settings: level was given */
	char settings[PROTO_SETTINGS_MAX + 1]; /* settings: the object as JSON ("" none) */
	/* create */
	const struct game_ops *game;
	int players;
	struct rules rules;
	int nseats;
	int seat_kind[GAME_MAX_SEATS]; /* enum req_seat_kind */
	int seat_level[GAME_MAX_SEATS];
	int private_;
	long long seed;                /* create: the table's seed, when has_seed */
	int has_seed;
	/* tables */
	long table;
	int seat;
	int kind, level;
	int verbosity;                 /* enum talk_verbosity */
	struct action act;
	char text[PROTO_CHAT_MAX + 1];
	/* mod, mute (their name is in name) */
	int mod_act;                   /* enum req_mod_act */
	long minutes;                  /* of a mute or ban (0: the default) */
	int on;                        /* mute: 1 stop hearing, 0 hear again */
	long page;                     /* lobby_query: the page of the tables */
	int follow;                    /* lobby_query: the lobby's changes also while at a table */
};

/* Read one client message (len bytes of JSON text): 0 with m filled, or -1
 * with a message for the client in err, in L (the connection's language;
 * a hello's refused name in the language it asks for). */
int req_read(const char *text, size_t len, struct req *m, const struct i18n_lang *L, char *err,
               size_t errlen);
/* The word of a type ("hello"), or NULL. */
const char *req_type_word(int type);

#endif
