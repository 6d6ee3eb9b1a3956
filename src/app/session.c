/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/session.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "audio/audio.h"
#include "app/log.h"
#include "core/sbuf.h"
#include "i18n/i18n.h"

static void notice(struct session *s, const char *msg)
{
	if (!msg || !*msg)
		return;
	if (s->sp.backend)
		speech_say(&s->sp, msg, SPEECH_QUEUE);
	else
		log_say("%s", msg);
}

void session_open(struct session *s, const struct session_request *req)
{
	memset(s, 0, sizeof *s);
	char msg[512] = "";
	int st = settings_load(&s->set, msg, sizeof msg);
	s->settings_ok = st != SETTINGS_ERROR;
	const char *lang = req->lang ? req->lang : *s->set.lang ? s->set.lang : i18n_env_lang();
	char err[512] = "";
	if (i18n_set_lang(lang, err, sizeof err) < 0 && strcmp(lang, "en") != 0)
		log_say("%s; messages in English", err);
	lang = i18n_lang();

	const char *backend = req->speech ? req->speech : *s->set.speech ? s->set.speech : "auto";
	if (req->text)
		backend = "text";
	else if (req->no_speech)
		backend = "none";
	s->no_sound = req->no_sound;
	char why[64];
	if (req->braille && settings_braille_parse(req->braille, why, sizeof why) >= 0)
		s->set.braille = settings_braille_parse(req->braille, why, sizeof why);
	s->tty = req->tty;
	int espeak_may_speak = strcmp(backend, "espeak") == 0 || strcmp(backend, "auto") == 0;
	int want_audio = !req->text && (espeak_may_speak || !req->no_sound);
	char aerr[512] = "";
	if (want_audio) {
		struct audio_options o;
		audio_options_default(&o);
		settings_audio_options(&s->set, &o);
		if (req->no_sound)
			o.cue_volume = 0;
		s->audio = audio_open("openal", &o, aerr, sizeof aerr);
	}
	if (want_audio && !s->audio && strcmp(backend, "espeak") == 0)
		backend = "text";   /* espeak speaks through the audio device */
	s->sp.out = stdout;
	char serr[512] = "";
	if (speech_open(&s->sp, backend, lang, &s->set.voice, s->audio, serr, sizeof serr) != 0 && *serr)
		log_say("%s; speech goes to text", serr);
	if (!s->tty)
		s->sp.set.pause = 0;
	/* Say why something is missing, once, in the player's language. */
	if (*msg)
		notice(s, msg);
	if (want_audio && !s->audio)
		notice(s, *aerr ? aerr : _("No sound device: text only."));
	else if (s->audio)
		notice(s, audio_notice(s->audio));
}

void session_close(struct session *s)
{
	speech_close(&s->sp);
	if (s->audio)
		audio_close(s->audio);
	s->audio = NULL;
}

void session_pump(struct session *s)
{
	if (s->unsaved[0]) {
		/* After what the key that changed a setting answered (which
		 * interrupts whatever was queued before it). */
		notice(s, s->unsaved);
		s->unsaved[0] = '\0';
	}
	speech_pump(&s->sp);
	if (s->audio) {
		audio_pump(s->audio);
		notice(s, audio_notice(s->audio));
	}
}

int session_busy(struct session *s)
{
	return s->audio && (audio_busy(s->audio) || speech_busy(&s->sp));
}

void session_cue(struct session *s, int cue)
{
	if (s->audio)
		audio_cue(s->audio, (enum cue)cue, -1);
}

void session_save_settings(struct session *s)
{
	if (s->settings_ok) {
		char msg[256];
		if (settings_save(&s->set, msg, sizeof msg) != SETTINGS_OK) {
			/* Said once (by session_pump); play goes on with the
			 * settings of the moment. */
			s->settings_ok = 0;
			snprintf(s->unsaved, sizeof s->unsaved, "%s %s", msg, _("Settings changes are kept until you quit."));
		}
	}
}

void session_tune(struct session *s, enum session_knob knob, int step)
{
	struct sbuf b;
	sb_clear(&b);
	step = step > 0 ? 1 : -1;
	switch (knob) {
	case SESSION_RATE:
		sb_printf(&b, _("Rate %d."), settings_step_rate(&s->set, step));
		break;
	case SESSION_SPEECH_VOLUME:
		/* speech-dispatcher speaks outside our mix: its own volume. */
		if (s->sp.backend && !strcmp(s->sp.backend->name, "speechd"))
			sb_printf(&b, _("Speech volume %d."), settings_step_volume(&s->set, step));
		else
			sb_printf(&b, _("Speech volume %d."), settings_step_speech_volume(&s->set, step));
		break;
	case SESSION_CUE_VOLUME:
		sb_printf(&b, _("Sound volume %d."), settings_step_cue_volume(&s->set, step));
		break;
	case SESSION_BRAILLE_HOLD: {
		int held = settings_step_braille_hold(&s->set, step);
		if (held)
			sb_printf(&b, P_("Braille lines held %d second.", "Braille lines held %d seconds.", held), held);
		else
			sb_puts(&b, _("Braille lines shown at once."));
		break;
	}
	}
	speech_configure(&s->sp, &s->set.voice);
	if (!s->tty)
		s->sp.set.pause = 0;
	if (s->audio)
		audio_set_volumes(s->audio, s->no_sound ? 0 : s->set.cue_volume, s->set.speech_volume);
	session_save_settings(s);
	speech_say(&s->sp, b.s, SPEECH_INTERRUPT | SPEECH_ECHO);
	if (knob == SESSION_CUE_VOLUME)
		session_cue(s, CUE_CARD);
}
