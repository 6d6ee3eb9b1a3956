/* SPDX-License-Identifier: GPL-3.0-or-later */
/* settings: what the player chose, kept between games in a small readable
 * file, $XDG_CONFIG_HOME/tapis/settings (else ~/.config/tapis/settings):
 * `key = value` lines, `#` starts a comment line.
 *
 *   lang = fr              "" (the environment's), en, fr
 *   speech = auto          auto (speech-dispatcher when it answers, else
 *                          espeak), espeak, speechd, text, none
 *   rate = 220             words per minute, 80..900
 *   pitch = 50             0..100
 *   volume = 100           the voice's own loudness, 0..100
 *   voice =                an espeak-ng voice ("" = the language's; "+f3":
 *                          the language's voice with the variant f3)
 *   pause = 0.3            seconds of quiet after an announcement, 0..10
 *   cue_volume = 70        sound cues in the mix, 0..100
 *   speech_volume = 100    speech in the mix, 0..100
 *   hrtf = on              on, off, auto (3D sound for headphones)
 *   confirm = on           on, off: ask before going all-in, folding after
 *                          putting chips in, betting more than half one's chips
 *   verbosity = full       full, short (leave out what S, C and T tell)
 *   lobby = all            all, friends, none: what of a server's lobby is
 *                          spoken as it happens (friends: what concerns the
 *                          people one sat at a table with, and invitations)
 *   lessons =              the lessons done (app/lesson), space-separated ids
 *
 * rate, pitch, volume and voice are the player's choice when set in tapis
 * (or different from the default in the file); the others are written as
 * comments, and speech-dispatcher keeps the screen reader's own for them.
 *
 * Unknown keys are ignored (a newer version wrote them); a line that is not
 * `key = value` or a value that is not understood makes the file unreadable:
 * it is set aside as settings.bad and the defaults are used. Numbers out of
 * range are brought back in range. */
#ifndef TAPIS_SETTINGS_H
#define TAPIS_SETTINGS_H

#include <stddef.h>

#include "speech/speech.h"

struct audio_options;

struct settings {
	char lang[8];                  /* "" = from the environment */
	char speech[16];               /* backend name */
	struct speech_settings voice;  /* rate, pitch, volume, voice, pause */
	int cue_volume;                /* 0..100 */
	int speech_volume;             /* 0..100 */
	int hrtf;                      /* enum audio_hrtf */
	int confirm;                   /* 1: risky actions are confirmed */
	int verbosity;                 /* enum talk_verbosity */
	int lobby;                     /* 0 all, 1 friends, 2 none (net/remote's enum remote_lobby_talk) */
	char lessons[1024];            /* the lessons done: "bourre-1 bourre-2" (app/lesson) */
	int braille;                   /* 0 auto, 1 on, 2 off (ui/braille's enum brl_mode) */
	double braille_hold;           /* seconds a braille line is kept at least */
};

/* The words of the braille setting, by its value. */
extern const char *const settings_braille_words[3];
#define SETTINGS_BRAILLE_HOLD_MAX 60.0
/* --braille's word to the setting's value, or -1 with err. */
int settings_braille_parse(const char *v, char *err, size_t errlen);

/* The words of the lobby setting, by its value. */
extern const char *const settings_lobby_words[3];

#define SETTINGS_RATE_MIN 80
#define SETTINGS_RATE_MAX 900
#define SETTINGS_PAUSE_MAX 10.0

enum settings_status {
	SETTINGS_ERROR = -1,   /* could not read or write (msg says why) */
	SETTINGS_OK = 0,
	SETTINGS_ABSENT = 1,   /* no file yet: defaults */
	SETTINGS_BAD = 2,      /* unreadable: set aside as settings.bad, defaults (msg) */
};

void settings_default(struct settings *s);
/* The file's path. 0, or -1 (no HOME, too long). */
int settings_path(char *buf, size_t len);
/* Read the settings file (defaults first). msg gets a message for the
 * player for SETTINGS_BAD and SETTINGS_ERROR. */
int settings_load(struct settings *s, char *msg, size_t msglen);
int settings_load_file(struct settings *s, const char *path, char *msg, size_t msglen);
/* The language of printed text put in force: lang (--lang), else the
 * settings', else the environment's; one that cannot be is said on
 * standard error after prog ("tapis"), and English is kept. */
void settings_choose_lang(const char *lang, const char *prog);
/* Write atomically (a temporary file renamed over the old one), creating
 * the directory. SETTINGS_OK or SETTINGS_ERROR with msg. */
int settings_save(const struct settings *s, char *msg, size_t msglen);
int settings_save_file(const struct settings *s, const char *path, char *msg, size_t msglen);

/* Parse text into s (on top of what s holds). 0, or -1 with the line
 * number and the reason in err. */
int settings_parse(struct settings *s, const char *text, char *err, size_t errlen);
/* The file's text (what settings_save writes). Returns the length it
 * needs, like snprintf. */
int settings_format(const struct settings *s, char *buf, size_t len);

/* Steps: dir > 0 up, dir < 0 down; the new value is returned (clamped). */
int settings_step_rate(struct settings *s, int dir);
int settings_step_pitch(struct settings *s, int dir);
int settings_step_volume(struct settings *s, int dir);        /* the voice */
int settings_step_speech_volume(struct settings *s, int dir); /* speech in the mix */
int settings_step_cue_volume(struct settings *s, int dir);
/* The braille hold to the next of its steps (0, 1, 2, 3, 4, 5, 7, 10, 15,
 * 20, 30, 60 seconds) above or below it; the new value in whole seconds. */
int settings_step_braille_hold(struct settings *s, int dir);
/* The word of an hrtf value ("on", "off", "auto"). */
const char *settings_hrtf_word(int hrtf);

/* The audio options these settings ask for (on top of the defaults). */
void settings_audio_options(const struct settings *s, struct audio_options *o);

#endif
