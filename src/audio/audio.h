/* audio: OpenAL device, seat positions, the speech stream and the sound
 * cues (loaded with libsndfile). Backends: "openal" and "null"; the null one
 * accepts everything and plays nothing, so tests need no sound card.
 * (Interface fixed by the foundation; implemented in audio.c.) */
#ifndef TAPIS_AUDIO_H
#define TAPIS_AUDIO_H

#include <stddef.h>

#include "core/event.h"

struct audio;

enum audio_cue {
	CUE_SHUFFLE, CUE_DEAL, CUE_CARD, CUE_TRICK, CUE_CHIPS, CUE_POT_WON,
	CUE_FOLD, CUE_PASS, CUE_YOUR_TURN, CUE_ILLEGAL, CUE_ROUND_OVER, CUE_GAME_OVER,
	CUE_COUNT
};

#endif
