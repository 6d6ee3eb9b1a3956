#include "core/paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TAPIS_DATADIR
#define TAPIS_DATADIR "/usr/local/share/tapis"
#endif

static char datadir[4300];
static char localedir[4300];

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void paths_init(const char *argv0)
{
	const char *env = getenv("TAPIS_DATADIR");
	const char *lenv = getenv("TAPIS_LOCALEDIR");
	char exe[4096] = "";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0)
		exe[n] = '\0';
	else if (argv0)
		snprintf(exe, sizeof exe, "%s", argv0);
	/* The source tree: <top>/build/tapis (or build-asan...), with <top>/sounds. */
	char top[4200] = "";
	char *slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0';
		char probe[4200];
		snprintf(probe, sizeof probe, "%s/../sounds", exe);
		if (is_dir(probe))
			snprintf(top, sizeof top, "%s/..", exe);
	}
	if (env && *env)
		snprintf(datadir, sizeof datadir, "%s", env);
	else if (*top)
		snprintf(datadir, sizeof datadir, "%s", top);
	else
		snprintf(datadir, sizeof datadir, "%s", TAPIS_DATADIR);
	if (lenv && *lenv)
		snprintf(localedir, sizeof localedir, "%s", lenv);
	else if (*top)
		snprintf(localedir, sizeof localedir, "%s/locale", exe);
	else
		snprintf(localedir, sizeof localedir, "%s/locale", TAPIS_DATADIR);
}

const char *paths_datadir(void)
{
	if (!*datadir)
		paths_init(NULL);
	return datadir;
}

const char *paths_localedir(void)
{
	if (!*localedir)
		paths_init(NULL);
	return localedir;
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return (mkdir(path, 0700) < 0 && errno != EEXIST) ? -1 : 0;
}

static int xdg_dir(char *buf, size_t len, const char *var, const char *fallback, int create)
{
	const char *base = getenv(var);
	const char *home = getenv("HOME");
	if (base && *base)
		snprintf(buf, len, "%s/tapis", base);
	else if (home && *home)
		snprintf(buf, len, "%s/%s/tapis", home, fallback);
	else
		return -1;
	return create ? mkdirs(buf) : 0;
}

int paths_configdir(char *buf, size_t len, int create)
{
	return xdg_dir(buf, len, "XDG_CONFIG_HOME", ".config", create);
}

int paths_statedir(char *buf, size_t len, int create)
{
	return xdg_dir(buf, len, "XDG_STATE_HOME", ".local/state", create);
}

int paths_datahome(char *buf, size_t len, int create)
{
	return xdg_dir(buf, len, "XDG_DATA_HOME", ".local/share", create);
}
