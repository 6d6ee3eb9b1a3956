/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Le Brelan: built on the shared vying machinery (games/vying.h, whose
 * refusal codes it uses). */
#ifndef TAPIS_BRELAN_H
#define TAPIS_BRELAN_H

#include "core/game.h"

extern const struct game_ops brelan_ops;

#endif
