/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bouillotte: built on the shared vying machinery (games/vying.h, whose
 * refusal codes it uses). */
#ifndef TAPIS_BOUILLOTTE_H
#define TAPIS_BOUILLOTTE_H

#include "core/game.h"

extern const struct game_ops bouillotte_ops;

#endif
