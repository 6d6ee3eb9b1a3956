/* SPDX-License-Identifier: GPL-3.0-or-later */
/* remote: a table of a tapis server seen from `tapis join`. It holds the
 * connection (net/client), says hello, keeps the session token the server
 * gives, and turns the server's messages into what play and the local sink
 * already understand: "say" into view_say (speech and cues, through the
 * sink), "state" into a view_state (the answers to the keys, the hand, the
 * legal choices and their labels, all phrased by the server in the
 * player's language). play's actions leave as "action" messages.
 *
 * A lost connection is announced, then tried again with a growing pause;
 * the hello with the token gives the seat back, and the return is
 * announced. Single-threaded: everything happens in remote_service. */
#ifndef TAPIS_REMOTE_H
#define TAPIS_REMOTE_H

#include <stddef.h>

#include "app/view.h"
#include "core/script.h"

struct json_t;
struct netc;

#define REMOTE_URL_MAX 256
#define REMOTE_NAME_MAX 100
#define REMOTE_RETRY_MIN_MS 250
#define REMOTE_RETRY_MAX_MS 8000
#define REMOTE_FRIENDS_MAX 64

/* What of the lobby is spoken as it happens (docs/protocol.md, lobby_event
 * and the lobby's chat): everything, what concerns friends (the people one
 * has sat at a table with in this session) and invitations, or nothing. */
enum remote_lobby_talk { REMOTE_LOBBY_ALL, REMOTE_LOBBY_FRIENDS, REMOTE_LOBBY_NONE };

struct remote {
	struct netc *c;
	char url[REMOTE_URL_MAX];
	/* The certificates a wss:// server's is checked against (a PEM file;
	 * empty: the system's): set before remote_open, kept by it. */
	char ca[REMOTE_URL_MAX];
	char name[REMOTE_NAME_MAX];
	char password[130];
	char lang[3];
	char token[128];
	int guest;                    /* the welcome said so */
	int aside;                    /* a connection beside the person's session (remote_open_aside) */
	int going;                    /* its first hello: bound for a table of its own (remote_open_going) */
	struct json_t *ask;           /* the last "ask" message (a question with its choices), or NULL */
	int asks;                     /* such questions received */
	struct json_t *request;       /* the last sit or create sent, or NULL: "again" sends it anew */
	struct view_sink sink;        /* where announcements go (the local sink) */
	struct view_state vs;         /* the player's table, as last told */
	char (*variant)[VIEW_LABEL_MAX];
	int cap_variants, cap_choices, cap_hand;
	long table;                   /* the table sat or watched at, 0 none */
	int watching;
	int table_state;              /* 0 waiting, 1 playing, 2 over */
	struct json_t *lobby;         /* the last "lobby" message, or NULL */
	struct json_t *held;          /* each table's state (by its number), as told: NULL none yet */
	struct json_t *moments;       /* the "moment" messages' queries and f1, by their name */
	struct json_t *saved;         /* the last "saved" message's tables (the player's saved tables), or NULL */
	int lobby_seen;               /* lobby messages received */
	long created;                 /* the table the last "created" named */
	int joined;                   /* "joined" messages received */
	int errors;                   /* "error" messages received */
	char error[256];              /* the last one's text */
	char error_code[32];
	int left;                     /* the server said we left the table */
	int refused;                  /* "refused" messages received */
	int welcomed;
	/* The lobby spoken as it happens. */
	int lobby_talk;               /* enum remote_lobby_talk: none after remote_open, until set */
	int lobby_events;             /* lobby_event messages received */
	char friends[REMOTE_FRIENDS_MAX][REMOTE_NAME_MAX];
	int nfriends;
	struct json_t *answer;        /* the last answer to stats, leaders, history or settings, or NULL */
	int answers;                  /* such answers received */
	long invited;                 /* the table of the last invitation heard, 0 none */
	long rematch;                 /* the finished table whose rematch is offered, 0 none */
	/* The connection. */
	int lost;                     /* lost and not yet back */
	double retry_at;              /* monotonic seconds of the next try */
	int retry_ms;
	int reconnects;               /* times regained */
	int catch_up;                 /* back at the table: 1 say where the game stands with the
	                               * next state, 2 the same, "While you were away:" said */
	int replaced;                 /* logged in elsewhere: not tried again */
	/* Acting. */
	int sent_moves;               /* vs.moves when an action left, -1 none waiting */
	struct script *script;        /* --actions: the lines of the player's seat */
	int script_refused;           /* a scripted action was refused */
	char script_err[512];
};

/* Connect to url and say hello (password NULL: a guest); wait for the
 * welcome. 0, or -1 with the server's or the connection's message. */
int remote_open(struct remote *r, const char *url, const char *name, const char *password,
                const char *lang, const struct view_sink *sink, char *err, size_t errlen);
/* The same, coming back as a guest with the token of an earlier session
 * (NULL or "": none): the server gives the guest's name and seats back. */
int remote_open_token(struct remote *r, const char *url, const char *name, const char *password,
                      const char *token, const char *lang, const struct view_sink *sink, char *err,
                      size_t errlen);
/* The same, bound for a table of its own (tapis join --create, --table):
 * the hello does not put the person back at the seats they hold; a seat
 * held where a game goes on is asked about at the sit or create
 * ("ask"). Later hellos (a connection regained) put them back. */
int remote_open_going(struct remote *r, const char *url, const char *name, const char *password,
                      const char *token, const char *lang, const struct view_sink *sink, char *err,
                      size_t errlen);
/* Answer the last "ask" with its choice k (from 0): the message the
 * choice names, or the last sit or create again with give_up. The table
 * the answer goes to (0: the one the create makes, or the sit's), or -1
 * (no such question or choice). */
long remote_answer(struct remote *r, int k);
/* The same, aside the person's session (an account's): it replaces no
 * connection, is at no table and in no lobby, and asks only for
 * histories and figures (`tapis join --history` while playing). */
int remote_open_aside(struct remote *r, const char *url, const char *name, const char *password, const char *lang,
                      const struct view_sink *sink, char *err, size_t errlen);
void remote_close(struct remote *r);
/* The table's state forgotten (back in the lobby): what it held freed,
 * a spectator's empty state. */
void remote_state_reset(struct remote *r);
/* Send and receive for up to timeout_ms; try the connection again when it
 * is due. Returns 0, or -1 when the connection is down now. */
int remote_service(struct remote *r, int timeout_ms);
/* Send a message (a JSON object, its reference stolen). 0 or -1. */
int remote_send(struct remote *r, struct json_t *msg);
/* The lobby's entry for table id, or NULL. */
struct json_t *remote_table(const struct remote *r, long id);

/* The messages of the lobby (docs/protocol.md). */
int remote_sit(struct remote *r, long table, int seat, const char *password);
int remote_watch(struct remote *r, long table, const char *password);
int remote_simple(struct remote *r, const char *type, long table);   /* start, stand, leave */
int remote_set_seat(struct remote *r, long table, int seat, const char *kind);
int remote_chat(struct remote *r, const char *text);
int remote_act(struct remote *r, const struct action *a);
/* Ask the server for a hint at the table: it comes back as a say. */
int remote_hint(struct remote *r);
/* Invite a person online to the table; say yes to its rematch. */
int remote_invite(struct remote *r, const char *name);
int remote_rematch(struct remote *r);
/* Full or short announcements (enum talk_verbosity) at the server, for
 * this session; the server says which. */
int remote_verbosity(struct remote *r, int verbosity);

/* 1 when name is one of the friends (the people sat with this session). */
int remote_is_friend(const struct remote *r, const char *name);
/* Take up again a saved table where one holds a seat. */
int remote_resume(struct remote *r, long table);
/* Take the seat held at table, now away, from its player (the creator). */
int remote_kick(struct remote *r, long table, int seat);

/* The address connected to: the server's with the language in it
 * (ws://host:port/?lang=fr), so that what it says before the hello is in
 * that language too. */
void remote_url(const struct remote *r, char *out, size_t len);
/* Handle one message as if the server had sent it (tests). */
void remote_message(struct remote *r, const char *text, size_t len);

#endif
