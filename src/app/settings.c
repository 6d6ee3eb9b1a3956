/* SPDX-License-Identifier: GPL-3.0-or-later */
/* settings: the settings file (see settings.h). */
#include "app/settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audio/audio.h"
#include "core/err.h"
#include "core/paths.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "words/talk.h"

#define FILE_MAX 16384

void settings_default(struct settings *s)
{
	memset(s, 0, sizeof *s);
	snprintf(s->speech, sizeof s->speech, "%s", "auto");
	speech_settings_default(&s->voice);
	s->cue_volume = 70;
	s->speech_volume = 100;
	s->hrtf = AUDIO_HRTF_ON;
	s->confirm = 1;
	s->verbosity = TALK_FULL;
	s->braille_hold = 2.0;
}

const char *const settings_braille_words[3] = { "auto", "on", "off" };

int settings_braille_parse(const char *v, char *err, size_t errlen)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(v, settings_braille_words[i]))
			return i;
	snprintf(err, errlen, "--braille: '%s': auto, on or off", v);
	return -1;
}

const char *const settings_lobby_words[3] = { "all", "friends", "none" };

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int settings_path(char *buf, size_t len)
{
	char dir[1024];
	int n;

	if (paths_configdir(dir, sizeof dir, 0) < 0)
		return -1;
	n = snprintf(buf, len, "%s/settings", dir);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

const char *settings_hrtf_word(int hrtf)
{
	return hrtf == AUDIO_HRTF_OFF ? "off" : hrtf == AUDIO_HRTF_AUTO ? "auto" : "on";
}

/* ---- parsing ---- */

static char *trim(char *p)
{
	char *e;
	while (*p == ' ' || *p == '\t')
		p++;
	e = p + strlen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = 0;
	return p;
}

static int parse_int(const char *v, int lo, int hi, int *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || *end || errno)
		return -1;
	*out = (int)(n < lo ? lo : n > hi ? hi : n);
	return 0;
}

static int parse_word(const char *v, char *out, size_t len, int allow_empty)
{
	size_t n = strlen(v);
	if ((!n && !allow_empty) || n >= len)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char c = v[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '+' || c == '.'))
			return -1;
	}
	memcpy(out, v, n + 1);
	return 0;
}

/* on/yes/true/1 or off/no/false/0: 1 or 0; -1 otherwise. */
static int parse_onoff(const char *v)
{
	if (!strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
		return 1;
	if (!strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
		return 0;
	return -1;
}

static int parse_hrtf(const char *v, int *out)
{
	int on = parse_onoff(v);
	if (on >= 0)
		*out = on ? AUDIO_HRTF_ON : AUDIO_HRTF_OFF;
	else if (!strcmp(v, "auto"))
		*out = AUDIO_HRTF_AUTO;
	else
		return -1;
	return 0;
}

/* Mark what the player chose (when rc is 0 and yes); returns rc. */
static int chosen(struct settings *s, int rc, int yes, unsigned bit)
{
	if (rc == 0) {
		if (yes)
			s->voice.chosen |= bit;
		else
			s->voice.chosen &= ~bit;
	}
	return rc;
}

/* One key = value; 0, -1 for a bad value; unknown keys are ignored. */
static int set_key(struct settings *s, const char *k, const char *v)
{
	if (!strcmp(k, "lang")) {
		if (*v && !i18n_lang_known(v))
			return -1;
		snprintf(s->lang, sizeof s->lang, "%s", v);
		return 0;
	}
	if (!strcmp(k, "speech"))
		return parse_word(v, s->speech, sizeof s->speech, 0);
	/* A voice setting is the player's choice when it differs from the
	 * default (files written before the choice was kept hold them all). */
	struct speech_settings def;
	speech_settings_default(&def);
	if (!strcmp(k, "rate")) {
		int rc = parse_int(v, SETTINGS_RATE_MIN, SETTINGS_RATE_MAX, &s->voice.rate);
		return chosen(s, rc, s->voice.rate != def.rate, SPEECH_CHOSE_RATE);
	}
	if (!strcmp(k, "pitch")) {
		int rc = parse_int(v, 0, 100, &s->voice.pitch);
		return chosen(s, rc, s->voice.pitch != def.pitch, SPEECH_CHOSE_PITCH);
	}
	if (!strcmp(k, "volume")) {
		int rc = parse_int(v, 0, 100, &s->voice.volume);
		return chosen(s, rc, s->voice.volume != def.volume, SPEECH_CHOSE_VOLUME);
	}
	if (!strcmp(k, "voice")) {
		int rc = parse_word(v, s->voice.voice, sizeof s->voice.voice, 1);
		return chosen(s, rc, s->voice.voice[0] != '\0', SPEECH_CHOSE_VOICE);
	}
	if (!strcmp(k, "pause") || !strcmp(k, "braille_hold")) {
		char *end;
		double d;
		errno = 0;
		d = strtod(v, &end);
		if (end == v || *end || errno || d != d)
			return -1;
		if (k[0] == 'b')
			s->braille_hold = d < 0 ? 0 : d > SETTINGS_BRAILLE_HOLD_MAX ? SETTINGS_BRAILLE_HOLD_MAX : d;
		else
			s->voice.pause = d < 0 ? 0 : d > SETTINGS_PAUSE_MAX ? SETTINGS_PAUSE_MAX : d;
		return 0;
	}
	if (!strcmp(k, "cue_volume"))
		return parse_int(v, 0, AUDIO_VOLUME_MAX, &s->cue_volume);
	if (!strcmp(k, "speech_volume"))
		return parse_int(v, 0, AUDIO_VOLUME_MAX, &s->speech_volume);
	if (!strcmp(k, "hrtf"))
		return parse_hrtf(v, &s->hrtf);
	if (!strcmp(k, "confirm")) {
		int on = parse_onoff(v);
		if (on < 0)
			return -1;
		s->confirm = on;
		return 0;
	}
	if (!strcmp(k, "verbosity")) {
		if (strcmp(v, "full") && strcmp(v, "short"))
			return -1;
		s->verbosity = !strcmp(v, "short") ? TALK_SHORT : TALK_FULL;
		return 0;
	}
	if (!strcmp(k, "lessons")) {
		/* Ids of lessons: letters, digits, '-' and spaces; too long is not read. */
		if (strlen(v) >= sizeof s->lessons || v[strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789- ")])
			return -1;
		snprintf(s->lessons, sizeof s->lessons, "%s", v);
		return 0;
	}
	if (!strcmp(k, "braille")) {
		for (int i = 0; i < 3; i++)
			if (!strcmp(v, settings_braille_words[i])) {
				s->braille = i;
				return 0;
			}
		return -1;
	}
	if (!strcmp(k, "lobby")) {
		for (int i = 0; i < 3; i++)
			if (!strcmp(v, settings_lobby_words[i])) {
				s->lobby = i;
				return 0;
			}
		return -1;
	}
	return 0;
}

int settings_parse(struct settings *s, const char *text, char *err, size_t errlen)
{
	int line = 0;

	while (*text) {
		char buf[512];
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);
		char *p, *eq, *k, *v;

		line++;
		if (n >= sizeof buf)
			return errf(err, errlen, "line %d: too long", line);
		memcpy(buf, text, n);
		buf[n] = 0;
		text += n + (nl ? 1 : 0);
		p = trim(buf);
		if (!*p || *p == '#')
			continue;
		eq = strchr(p, '=');
		if (!eq)
			return errf(err, errlen, "line %d: no '='", line);
		*eq = 0;
		k = trim(p);
		v = trim(eq + 1);
		if (!*k)
			return errf(err, errlen, "line %d: no key", line);
		if (set_key(s, k, v) < 0)
			return errf(err, errlen, "line %d: bad value for %s", line, k);
	}
	return 0;
}

/* A voice setting the player did not choose, left at its default, is
 * written as a comment. */
static const char *unset(const struct settings *s, unsigned bit)
{
	struct speech_settings def;
	speech_settings_default(&def);
	int differs = bit == SPEECH_CHOSE_RATE ? s->voice.rate != def.rate
	            : bit == SPEECH_CHOSE_PITCH ? s->voice.pitch != def.pitch
	            : bit == SPEECH_CHOSE_VOLUME ? s->voice.volume != def.volume
	            : s->voice.voice[0] != '\0';
	return (s->voice.chosen & bit) || differs ? "" : "# ";
}

int settings_format(const struct settings *s, char *buf, size_t len)
{
	return snprintf(buf, len,
	                "# tapis settings: key = value; lines starting with # are comments.\n"
	                "# lang: en, fr or empty (the environment's language).\n"
	                "lang = %s\n"
	                "# speech: auto (speech-dispatcher, else espeak), espeak, speechd, text or none.\n"
	                "speech = %s\n"
	                "# rate: words per minute, 80 to 900. With speech-dispatcher, rate,\n"
	                "# pitch, volume and voice are the screen reader's own unless set here.\n"
	                "%srate = %d\n"
	                "%spitch = %d\n"
	                "%svolume = %d\n"
	                "# voice: an espeak-ng voice name, empty for the language's own.\n"
	                "%svoice = %s\n"
	                "# pause: seconds of quiet after an announcement before a bot plays.\n"
	                "pause = %.2f\n"
	                "# cue_volume, speech_volume: 0 to 100 in the mix.\n"
	                "cue_volume = %d\n"
	                "speech_volume = %d\n"
	                "# hrtf: on, off or auto (3D sound for headphones).\n"
	                "hrtf = %s\n"
	                "# confirm: on or off (ask before all-in, a fold after betting, a big bet).\n"
	                "confirm = %s\n"
	                "# verbosity: full or short (short leaves out what S, C and T tell).\n"
	                "verbosity = %s\n"
	                "# lobby: all, friends or none (what of a server's lobby is spoken as it happens).\n"
	                "lobby = %s\n"
	                "# lessons: the lessons done (tapis learn).\n"
	                "lessons = %s\n"
	                "# braille: auto, on or off (a braille display through BrlAPI; auto: when brltty answers).\n"
	                "braille = %s\n"
	                "# braille_hold: seconds a braille line is kept before the next one (or until a key).\n"
	                "braille_hold = %.2f\n",
	                s->lang, s->speech, unset(s, SPEECH_CHOSE_RATE), s->voice.rate, unset(s, SPEECH_CHOSE_PITCH),
	                s->voice.pitch, unset(s, SPEECH_CHOSE_VOLUME), s->voice.volume, unset(s, SPEECH_CHOSE_VOICE),
	                s->voice.voice, s->voice.pause, s->cue_volume, s->speech_volume,
	                settings_hrtf_word(s->hrtf), s->confirm ? "on" : "off",
	                s->verbosity == TALK_SHORT ? "short" : "full", settings_lobby_words[s->lobby % 3], s->lessons,
	                settings_braille_words[s->braille % 3], s->braille_hold);
}

/* ---- files ---- */

int settings_load_file(struct settings *s, const char *path, char *msg, size_t msglen)
{
	FILE *f;
	char *text;
	size_t n;
	char why[128];

	if (msg && msglen)
		msg[0] = 0;
	settings_default(s);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return SETTINGS_ABSENT;
		errf(msg, msglen, _("Settings not read from %1$s: %2$s."), path, strerror(errno));
		return SETTINGS_ERROR;
	}
	text = xmalloc(FILE_MAX + 1);
	n = fread(text, 1, FILE_MAX + 1, f);
	fclose(f);
	text[n > FILE_MAX ? FILE_MAX : n] = 0;
	if (n > FILE_MAX || strlen(text) != n)
		snprintf(why, sizeof why, "%s", n > FILE_MAX ? "too long" : "not text");
	else if (settings_parse(s, text, why, sizeof why) == 0) {
		free(text);
		return SETTINGS_OK;
	}
	free(text);
	settings_default(s);
	char bad[1024];
	snprintf(bad, sizeof bad, "%s.bad", path);
	if (rename(path, bad) < 0) {
		errf(msg, msglen, _("Settings file %1$s unreadable (%2$s): defaults used."), path, why);
		return SETTINGS_BAD;
	}
	errf(msg, msglen, _("Settings file unreadable (%1$s): set aside as %2$s; defaults used."),
	     why, bad);
	return SETTINGS_BAD;
}

int settings_load(struct settings *s, char *msg, size_t msglen)
{
	char path[1024];

	if (settings_path(path, sizeof path) < 0) {
		settings_default(s);
		if (msg && msglen)
			msg[0] = 0;
		return SETTINGS_ABSENT;
	}
	return settings_load_file(s, path, msg, msglen);
}

/* Why a file could not be written, in the player's language when it is
 * one a player can act on. */
static const char *why_unwritten(int e)
{
	if (e == EACCES || e == EPERM || e == EROFS)
		return _("the folder may not be written to");
	if (e == ENOSPC || e == EDQUOT)
		return _("the disk is full");
	return strerror(e);
}

int settings_save_file(const struct settings *s, const char *path, char *msg, size_t msglen)
{
	char dir[1024], tmp[1100], text[4096];
	char *slash;
	int len, fd, ok;

	if (msg && msglen)
		msg[0] = 0;
	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if (paths_mkdirs(dir) < 0) {
			errf(msg, msglen, _("Settings not saved in %1$s: %2$s."), path, why_unwritten(errno));
			return SETTINGS_ERROR;
		}
	}
	len = settings_format(s, text, sizeof text);
	if (len < 0 || (size_t)len >= sizeof text) {
		errf(msg, msglen, _("Settings not saved in %1$s: %2$s."), path, strerror(EOVERFLOW));
		return SETTINGS_ERROR;
	}
	snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		errf(msg, msglen, _("Settings not saved in %1$s: %2$s."), path, why_unwritten(errno));
		return SETTINGS_ERROR;
	}
	ok = write(fd, text, (size_t)len) == len;
	ok = fchmod(fd, 0644) == 0 && ok;
	ok = fsync(fd) == 0 && ok;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		errf(msg, msglen, _("Settings not saved in %1$s: %2$s."), path, why_unwritten(e));
		return SETTINGS_ERROR;
	}
	return SETTINGS_OK;
}

int settings_save(const struct settings *s, char *msg, size_t msglen)
{
	char path[1024];

	if (settings_path(path, sizeof path) < 0) {
		errf(msg, msglen, "%s", _("Settings not saved: no home directory."));
		return SETTINGS_ERROR;
	}
	return settings_save_file(s, path, msg, msglen);
}

/* ---- steps ---- */

int settings_step_rate(struct settings *s, int dir)
{
	int r = s->voice.rate;
	/* finer steps where most people listen, larger ones at the top */
	int step = (dir > 0 ? r >= 400 : r > 400) ? 50 : 20;
	if (dir > 0)
		r += step;
	else if (dir < 0)
		r -= step;
	s->voice.rate = clampi(r, SETTINGS_RATE_MIN, SETTINGS_RATE_MAX);
	s->voice.chosen |= SPEECH_CHOSE_RATE;
	return s->voice.rate;
}

/* The next multiple of ten up or down. */
static int step10(int *v, int dir, int hi)
{
	int n = *v < 0 ? 0 : *v;
	if (dir > 0)
		n = (n / 10 + 1) * 10;
	else if (dir < 0)
		n = n == 0 ? 0 : ((n + 9) / 10 - 1) * 10;
	*v = clampi(n, 0, hi);
	return *v;
}

int settings_step_pitch(struct settings *s, int dir)
{
	s->voice.chosen |= SPEECH_CHOSE_PITCH;
	return step10(&s->voice.pitch, dir, 100);
}

int settings_step_volume(struct settings *s, int dir)
{
	s->voice.chosen |= SPEECH_CHOSE_VOLUME;
	return step10(&s->voice.volume, dir, 100);
}

int settings_step_speech_volume(struct settings *s, int dir)
{
	return step10(&s->speech_volume, dir, AUDIO_VOLUME_MAX);
}

int settings_step_cue_volume(struct settings *s, int dir)
{
	return step10(&s->cue_volume, dir, AUDIO_VOLUME_MAX);
}

int settings_step_braille_hold(struct settings *s, int dir)
{
	static const int steps[] = { 0, 1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 60 };
	int n = (int)(sizeof steps / sizeof steps[0]), i;
	/* A value between steps (from the file) goes to the step beyond it. */
	if (dir > 0) {
		for (i = 0; i < n - 1 && steps[i] <= s->braille_hold; i++)
			;
	} else {
		for (i = n - 1; i > 0 && steps[i] >= s->braille_hold; i--)
			;
	}
	s->braille_hold = steps[i];
	return steps[i];
}

void settings_audio_options(const struct settings *s, struct audio_options *o)
{
	o->hrtf = s->hrtf;
	o->cue_volume = s->cue_volume;
	o->speech_volume = s->speech_volume;
}

void settings_choose_lang(const char *lang, const char *prog)
{
	struct settings set;
	char msg[ERR_MAX];
	settings_load(&set, msg, sizeof msg);
	if (!lang)
		lang = *set.lang ? set.lang : i18n_env_lang();
	char err[ERR_MAX];
	if (i18n_set_lang(lang, err, sizeof err) < 0 && strcmp(lang, "en") != 0)
		fprintf(stderr, "%s: %s; messages in English\n", prog, err);
}
