/* SPDX-License-Identifier: GPL-3.0-or-later */
/* session: the player's outputs for one run of tapis: settings, the audio
 * device and the speech queue. Opened once by main, used by the menus and
 * the table, closed at exit (after the last sounds have played). */
#ifndef TAPIS_SESSION_H
#define TAPIS_SESSION_H

#include "speech/speech.h"
#include "app/settings.h"

struct audio;

struct session_request {
	const char *lang;     /* NULL: settings, then the environment */
	const char *speech;   /* NULL: settings (auto by default) */
	int text;             /* --text */
	int no_speech;        /* --no-speech */
	int no_sound;         /* --no-sound */
};

struct session {
	struct settings set;
	struct audio *audio;  /* NULL: no sound device or --text */
	struct speech sp;
	int no_sound;
	int settings_ok;      /* the settings file may be written */
};

/* Open everything; problems are said to the player (and on stderr), never
 * fatal: the game goes on with text. */
void session_open(struct session *s, const struct session_request *req);
void session_close(struct session *s);
/* Keep sound flowing; say what the audio device has to say. Call often. */
void session_pump(struct session *s);
/* Keys that tune speech and sound while playing ('+' '-' rate, '[' ']'
 * speech volume, '{' '}' cue volume... see keymap). Returns 1 when key was
 * one of them (and the new value was said). */
int session_key(struct session *s, int key);
/* Keep what the player changed in the settings file (when it may be
 * written: an unreadable file is left alone). */
void session_save_settings(struct session *s);
/* A cue of the interface (your turn, illegal move), centred. */
void session_cue(struct session *s, int cue);

#endif
