/* SPDX-License-Identifier: GPL-3.0-or-later */
/* speech: what the player hears, in order. A queue of messages spoken one
 * after the other by a backend (espeak-ng, speech-dispatcher, text, none),
 * a history of every message, and instant interruption.
 *
 * Backends are one table each (speech_backend), chosen by name; the text and
 * none backends need no device, so every test runs without sound. */
#ifndef TAPIS_SPEECH_H
#define TAPIS_SPEECH_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define SPEECH_HISTORY 256
#define SPEECH_TEXT_MAX 2048

struct audio;
struct speech;

struct speech_settings {
	int rate;        /* words per minute, 80..900 (espeak's range) */
	int pitch;       /* 0..100 */
	int volume;      /* 0..100 */
	char voice[32];  /* "" = the language's default voice */
	double pause;    /* seconds of quiet after a game announcement before a bot acts */
	unsigned chosen; /* enum speech_chosen: what the player set in tapis; speechd
	                  * keeps the user's own voice, rate, pitch and volume otherwise */
};

enum speech_chosen {
	SPEECH_CHOSE_RATE = 1,
	SPEECH_CHOSE_PITCH = 2,
	SPEECH_CHOSE_VOLUME = 4,
	SPEECH_CHOSE_VOICE = 8,
};

struct speech_backend {
	const char *name;
	/* 0, or -1 with a message (the caller then falls back to text). */
	int (*open)(struct speech *sp, char *err, size_t errlen);
	void (*close)(struct speech *sp);
	/* Start saying text after what is already being said. */
	void (*say)(struct speech *sp, const char *text);
	/* Silence now and forget everything queued. */
	void (*stop)(struct speech *sp);
	/* 1 while something is still being said. */
	int (*busy)(struct speech *sp);
	/* Language or settings changed. */
	void (*configure)(struct speech *sp);
	/* Called often by the main loop (feed audio buffers); may be NULL. */
	void (*pump)(struct speech *sp);
};

struct speech {
	const struct speech_backend *backend;
	void *impl;                    /* the backend's own data */
	struct audio *audio;           /* where PCM goes (espeak), may be NULL */
	FILE *out;                     /* the text backend's stream (stdout) */
	char lang[8];                  /* "en" / "fr" */
	struct speech_settings set;
	/* History: every message, oldest dropped first. */
	char history[SPEECH_HISTORY][SPEECH_TEXT_MAX];
	int hist_count;                /* messages kept (<= SPEECH_HISTORY) */
	int hist_head;                 /* index of the next slot to write */
	int hist_pos;                  /* walking position: 0 = newest */
	char echo[SPEECH_TEXT_MAX];    /* the last echo of a key (SPEECH_ECHO) */
	double quiet_until;            /* monotonic time before which bots wait */
	/* Optional: told every message said, in its final words, with its
	 * flags (the braille display, ui/braille). */
	void (*tap)(void *ctx, const char *text, int flags);
	void *tap_ctx;
};

enum speech_flags {
	SPEECH_QUEUE = 0,       /* a game announcement: after what is being said */
	SPEECH_INTERRUPT = 1,   /* an answer to a key: cut what is being said first */
	SPEECH_NO_HISTORY = 2,  /* not kept in the history (walking the history itself) */
	SPEECH_ECHO = 4,        /* an echo of a key (a menu item, typed digits, a card
	                         * walked to): kept apart, as speech.echo, not in the
	                         * history of the game's announcements */
	SPEECH_PHRASED = 8,     /* already in its final words (a view's text, a
	                         * server's sentence, a chat line): said as it is,
	                         * without the French contractions */
};

/* The defaults (inline: the settings file, app/settings, is read by
 * tapis-server too, which has no speech queue). */
static inline void speech_settings_default(struct speech_settings *s)
{
	memset(s, 0, sizeof *s);
	s->rate = 220;
	s->pitch = 50;
	s->volume = 100;
	s->pause = 0.3;
}
/* Backend by name ("espeak", "speechd", "text", "none"), or NULL. */
const struct speech_backend *speech_backend_find(const char *name);
/* Open with a backend; when it fails, falls back to text and says why in err
 * (returns 1 then, 0 when opened as asked). "auto" is the player's screen
 * reader voice when speech-dispatcher answers at once, else espeak-ng, else
 * text (err says why then). */
int speech_open(struct speech *sp, const char *backend, const char *lang,
                const struct speech_settings *set, struct audio *audio, char *err, size_t errlen);
void speech_close(struct speech *sp);
void speech_set_lang(struct speech *sp, const char *lang);
void speech_configure(struct speech *sp, const struct speech_settings *set);

void speech_say(struct speech *sp, const char *text, int flags);
void speech_stop(struct speech *sp);
int speech_busy(struct speech *sp);
void speech_pump(struct speech *sp);
/* 1 when a bot may act: nothing being said and the pause is over. */
int speech_idle(struct speech *sp, double now);

/* History walking: the previous (older) / next (newer) / last message, or
 * NULL when there is none; they are said by the caller. */
const char *speech_history_prev(struct speech *sp);
const char *speech_history_next(struct speech *sp);
const char *speech_history_last(struct speech *sp);
/* Where the walk stands: 1 on the oldest message kept, 0 otherwise;
 * speech_history_at_end: 1 on the newest. */
int speech_history_at_start(const struct speech *sp);
int speech_history_at_end(const struct speech *sp);

/* A Markdown text (the rules in docs/rules) made fit to be heard, as a new
 * string the caller frees: no heading marks, list bullets, emphasis, code
 * quotes or table rules; a table row becomes its cells separated by commas; a heading or a
 * row ends with a full stop so the voice pauses; [text](link) keeps the
 * text; an underscore between words is a space. */
char *speech_plain_text(const char *md);
/* The same for the eye (`tapis rules --text`): no mark of Markdown, but
 * headings and rows without an added full stop, bullets kept as "- ", option
 * names and "--rule" as written, a link's address after its text. */
char *speech_print_text(const char *md);

/* Monotonic seconds. */
double speech_now(void);

/* The backends. */
extern const struct speech_backend speech_text_backend;
extern const struct speech_backend speech_none_backend;

#endif
