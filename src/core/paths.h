/* SPDX-License-Identifier: GPL-3.0-or-later */
/* paths: where tapis finds its data (sounds, catalogues) and keeps its files
 * (settings, the saved game). Data: $TAPIS_DATADIR, else next to the
 * executable when run from the source tree (build/tapis or
 * build/tests/check_X -> ./), else the
 * installed directory. */
#ifndef TAPIS_PATHS_H
#define TAPIS_PATHS_H

/* Room for a file's path; PATHS_MORE for what is added after one
 * ("/../sounds", "/locale"). */
#define PATHS_MAX 4200
#define PATHS_MORE 104

#include <stddef.h>

/* Remember argv[0] (or /proc/self/exe) to find the source tree. */
void paths_init(const char *argv0);
/* The source tree this program runs from, if it does: <top>/BUILD/tapis
 * (or tapis-server), or a test suite <top>/BUILD/tests/check_X. 0 with
 * <top> in top and <top>/BUILD in build (each cut to its length), else -1
 * (an installed program). argv0 when /proc/self/exe cannot be read. */
int paths_tree(const char *argv0, char *top, size_t toplen, char *build, size_t buildlen);
/* The data directory (sounds/ and docs/ live there). */
const char *paths_datadir(void);
/* The directory holding LANG/LC_MESSAGES/tapis.mo. */
const char *paths_localedir(void);
/* $XDG_CONFIG_HOME/tapis (else ~/.config/tapis); created when create != 0.
 * Returns 0, or -1 when there is no home. */
int paths_configdir(char *buf, size_t len, int create);
/* $XDG_STATE_HOME/tapis (else ~/.local/state/tapis), for the saved games.
 * Relative XDG variables are ignored, and a relative HOME is no home. */
int paths_statedir(char *buf, size_t len, int create);
/* The saved game of a game: <statedir>/saves/GAME.save, its folder created
 * when create != 0 and it can be (writing the save tells when it cannot).
 * 0, or -1 when there is no home. */
int paths_savefile(char *buf, size_t len, const char *game, int create);
/* $XDG_DATA_HOME/tapis (else ~/.local/share/tapis), for the server's store. */
int paths_datahome(char *buf, size_t len, int create);
/* Make the directory path and the ones above it that are missing (mode
 * 0700); path is changed while it works and given back whole. 0, or -1 with
 * errno. */
int paths_mkdirs(char *path);

#endif
