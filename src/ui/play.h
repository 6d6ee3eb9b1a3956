/* SPDX-License-Identifier: GPL-3.0-or-later */
/* play: the keyboard at the table. Runs a game until it ends, the player
 * quits (Q, confirmed) or the input ends; bots and scripted seats act by
 * themselves, after what came before has been said.
 *
 * The keys answer from the latest view_state (app/view) and actions go
 * through a port: the local table here, a server's connection for
 * `tapis join`. What the table has to say (events, prompts, refusals)
 * reaches the player through the view's sink, not through play. */
#ifndef TAPIS_PLAY_H
#define TAPIS_PLAY_H

#include <stddef.h>

struct table;
struct session;
struct action;
struct view_state;

struct play_port {
	/* The latest state of the player's view (never NULL). */
	const struct view_state *(*state)(void *ctx);
	/* Let the game move on: bots and scripted lines (locally, only when
	 * idle: what was said has been heard), messages from a server. 0, or
	 * an exit status (1 internal error, 3 a scripted action refused) with
	 * the message in err. */
	int (*advance)(void *ctx, int idle, char *err, size_t errlen);
	/* 1 while the game waits for this player's keys. */
	int (*awaits)(void *ctx);
	/* Send the player's action: 0 accepted (or sent), -1 refused (the
	 * refusal is said through the view's sink). */
	int (*act)(void *ctx, const struct action *a);
	/* Full or short announcements from now on (enum talk_verbosity): the
	 * view's, phrased where the view is (here, or on a server). May be
	 * NULL. */
	void (*verbosity)(void *ctx, int verbosity);
	/* The hint key: say what the strongest bot would do now, and why
	 * (through the view's sink). May be NULL. */
	void (*hint)(void *ctx);
	void *ctx;
	/* Optional: a key seen before play's own (a network client's chat
	 * line and table menu); 1 when it took the key. */
	int (*key)(void *ctx, int key);
	/* 1 at a network table: F1 names its keys too (KEYS_IF_NET). */
	int network;
	/* Optional: 1 while the game waits for a seat that neither this
	 * player's keys nor a bot or script will play (another human seat of
	 * a local table): the end of the input then ends the game as a Q. */
	int (*blocked)(void *ctx);
	/* 1 when nothing is saved (a lesson): quitting says so, not "Game saved." */
	int unsaved;
};

/* Returns the exit status: 0 done or quit (game saved), 1 internal error,
 * 3 a scripted action could not be applied (message in err), 128 + the
 * signal when SIGINT, SIGTERM or SIGHUP stopped the game. */
int play_port_run(const struct play_port *port, struct session *s, char *err, size_t errlen);
/* The keys at the table one by one, without a terminal nor a braille
 * display (a test's): each handled as play_port_run handles it, over the
 * port's state, the answers said through s. play_key returns 1 when the
 * key (a confirmed Q) quits. */
struct play;
struct play *play_open(const struct play_port *port, struct session *s);
int play_key(struct play *p, int key);
void play_close(struct play *p);
/* Local play: the port of table t, heard through its local view. */
int play_run(struct table *t, struct session *s, char *err, size_t errlen);

#endif
