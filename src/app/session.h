/* SPDX-License-Identifier: GPL-3.0-or-later */
/* session: the player's outputs for one run of tapis: settings, the audio
 * device and the speech queue. Opened once by main, used by the menus and
 * the table, closed at exit (after the last sounds have played:
 * ui/finish). It reads no key: the interface tells it what to do. */
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
	int tty;              /* a person at a terminal (ui/term): speech pauses between messages */
	const char *braille;  /* --braille auto|on|off, NULL: the settings */
};

struct session {
	struct settings set;
	struct audio *audio;  /* NULL: no sound device or --text */
	struct speech sp;
	int no_sound;
	int tty;              /* from the request */
	int hints;            /* 1: the hint is said at each of the player's turns (a first game after the lessons) */
	int settings_ok;      /* the settings file may be written */
	char unsaved[512];    /* why it could not be: said by the next session_pump, after the answer to the key */
};

/* What the player may tune while playing, one step at a time. */
enum session_knob {
	SESSION_RATE,
	SESSION_SPEECH_VOLUME,
	SESSION_CUE_VOLUME,
	SESSION_BRAILLE_HOLD,   /* seconds a braille line is kept at least */
};

/* Open everything; problems are said to the player (and on stderr), never
 * fatal: the game goes on with text. */
void session_open(struct session *s, const struct session_request *req);
/* Close at once; ui/finish lets the last words finish first. */
void session_close(struct session *s);
/* Keep sound flowing; say what the audio device has to say. Call often. */
void session_pump(struct session *s);
/* 1 while words or sounds are still playing (always 0 without an audio
 * device). */
int session_busy(struct session *s);
/* Turn a knob one step up (step > 0) or down, say its new value, and keep
 * it in the settings file (ui/play gives it its keys, see app/keymap). */
void session_tune(struct session *s, enum session_knob knob, int step);
/* Keep what the player changed in the settings file (when it may be
 * written: an unreadable file is left alone). */
void session_save_settings(struct session *s);
/* A cue of the interface (your turn, illegal move), centred. */
void session_cue(struct session *s, int cue);

#endif
