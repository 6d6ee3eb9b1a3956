/* play: the keyboard at the table. Runs a table until the game ends, the
 * player quits (Q, confirmed) or the input ends; bots and scripted seats act
 * by themselves, after what came before has been said. */
#ifndef TAPIS_PLAY_H
#define TAPIS_PLAY_H

#include <stddef.h>

struct table;
struct session;

/* Returns the exit status: 0 done or quit (game saved), 1 internal error,
 * 3 a scripted action could not be applied (message in err), 128 + the
 * signal when SIGINT, SIGTERM or SIGHUP stopped the game. */
int play_run(struct table *t, struct session *s, char *err, size_t errlen);

#endif
