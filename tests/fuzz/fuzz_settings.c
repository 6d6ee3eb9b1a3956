/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The settings file (settings_parse): any text; what is accepted is in
 * range, and written out then read back it gives the same file. */
#include "fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "audio/audio.h"
#include "app/settings.h"

int fuzz_settings(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct settings s, t;
	char err[256];
	settings_default(&s);
	if (settings_parse(&s, text, err, sizeof err) == 0) {
		if (s.voice.rate < SETTINGS_RATE_MIN || s.voice.rate > SETTINGS_RATE_MAX ||
		    s.cue_volume < 0 || s.cue_volume > AUDIO_VOLUME_MAX || s.speech_volume < 0 || s.speech_volume > AUDIO_VOLUME_MAX ||
		    !(s.voice.pause >= 0 && s.voice.pause <= SETTINGS_PAUSE_MAX) ||
		    !memchr(s.lang, '\0', sizeof s.lang) || !memchr(s.speech, '\0', sizeof s.speech))
			fuzz_fail("settings out of range after '%s'", text);
		char out1[4096], out2[4096];
		int n1 = settings_format(&s, out1, sizeof out1);
		if (n1 < 0 || (size_t)n1 >= sizeof out1)
			fuzz_fail("settings_format needs %d bytes", n1);
		settings_default(&t);
		if (settings_parse(&t, out1, err, sizeof err) < 0)
			fuzz_fail("settings written do not read back: %s\n%s", err, out1);
		settings_format(&t, out2, sizeof out2);
		if (strcmp(out1, out2) != 0)
			fuzz_fail("settings read back differ:\n%s\n---\n%s", out1, out2);
	}
	free(text);
	return 0;
}

FUZZ_TARGET(fuzz_settings)
