/* SPDX-License-Identifier: GPL-3.0-or-later */
/* learn: the lessons at the keyboard (`tapis learn`, "Learn to play" in
 * the main menu). A lesson (app/lesson) is played at a local table whose
 * other seats follow the lesson's moves (app/tutor walks it and judges
 * the player's moves; this module says its narration and reads the keys);
 * the player's keys are the game's
 * own (ui/play, every query key works), and the lesson's narrator speaks
 * between the moves. A move the lesson does not ask for is refused with
 * its explanation, never played, and the player tries again. */
#ifndef TAPIS_LEARN_H
#define TAPIS_LEARN_H

struct session;
struct lesson;
struct game_ops;

/* learn_run's and learn_menu's results besides an exit status. */
enum { LEARN_FIRST_GAME = -10 };

/* Play one lesson to its end (its summary said, the lesson marked done in
 * the settings) or until the player quits. Returns an exit status (0 done
 * or quit); *done is set to 1 when the lesson was played to its end. */
int learn_run(struct session *ses, const struct lesson *l, int *done);
/* The lessons' menu: of game g, or the games' first when g is NULL.
 * Returns an exit status, or LEARN_FIRST_GAME with *first set to the game
 * of which the player asked to play a first game. */
int learn_menu(struct session *ses, const struct game_ops *g, const struct game_ops **first);

#endif
