/* SPDX-License-Identifier: GPL-3.0-or-later */
/* speech_backends: the backends that need a device or a service (the text
 * and none backends are declared in speech.h). */
#ifndef TAPIS_SPEECH_BACKENDS_H
#define TAPIS_SPEECH_BACKENDS_H

#include "speech/speech.h"

/* espeak-ng, its PCM queued on the audio speech stream (sp->audio). */
extern const struct speech_backend speech_espeak_backend;
/* The espeak voice in effect for sp ("" when not open). */
const char *speech_espeak_voice(const struct speech *sp);
/* espeak's output rate (samples per second), 0 before the first open. */
int speech_espeak_rate(void);

#ifdef HAVE_SPEECHD
/* speech-dispatcher: the user's own screen-reader voice. */
extern const struct speech_backend speech_speechd_backend;
#endif

#endif
