/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/cmd_serve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/paths.h"
#include "net/server.h"

static int usage_to(FILE *f, int status)
{
	fprintf(f, "Usage: tapis serve [--host ADDR] [--port N] [--db FILE] [--log-dir DIR]\n"
	                "                   [--cert FILE --key FILE] [--web DIR] [--bot-delay MS]\n"
	                "                   [--turn-seconds N] [--max-conns N] [--max-per-addr N]\n");
	return status;
}

static int usage(void)
{
	return usage_to(stderr, 2);
}

/* A whole number from lo to hi for option a: 0, or -1 said on stderr. */
static int number(const char *a, const char *v, long lo, long hi, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < lo || n > hi) {
		fprintf(stderr, "tapis serve: %s: '%s' is not a number from %ld to %ld\n", a, v, lo, hi);
		return -1;
	}
	*out = (int)n;
	return 0;
}

int serve_main(int argc, char **argv, char *(*words)(const char *lang))
{
	struct server_options o;
	server_options_default(&o);
	char db[4096];
	const char *dbarg = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help"))
			return usage_to(stdout, 0);
		if (i + 1 >= argc) {
			fprintf(stderr, "tapis serve: '%s' %s\n", a, a[0] == '-' ? "needs a value" : "is not an option");
			return usage();
		}
		const char *v = argv[++i];
		if (!strcmp(a, "--host")) {
			o.host = v;
		} else if (!strcmp(a, "--port")) {
			char *end;
			long p = strtol(v, &end, 10);
			if (*end || p < 0 || p > 65535) {
				fprintf(stderr, "tapis serve: --port: '%s' is not a port number\n", v);
				return 2;
			}
			o.port = (int)p;
		} else if (!strcmp(a, "--turn-seconds")) {
			int n;
			if (number(a, v, 0, 86400, &n) < 0)
				return 2;
			o.turn_ms = n * 1000LL;
		} else if (!strcmp(a, "--max-conns")) {
			if (number(a, v, 0, 1000000, &o.max_conns) < 0)
				return 2;
		} else if (!strcmp(a, "--max-per-addr")) {
			if (number(a, v, 0, 1000000, &o.max_per_addr) < 0)
				return 2;
		} else if (!strcmp(a, "--db")) {
			dbarg = v;
		} else if (!strcmp(a, "--log-dir")) {
			struct stat st;
			if (stat(v, &st) < 0 || !S_ISDIR(st.st_mode)) {
				fprintf(stderr, "tapis serve: --log-dir: '%s' is not a directory\n", v);
				return 2;
			}
			o.log_dir = v;
		} else if (!strcmp(a, "--cert")) {
			o.cert = v;
		} else if (!strcmp(a, "--key")) {
			o.key = v;
		} else if (!strcmp(a, "--bot-delay")) {
			int ms;
			if (number(a, v, 0, 60000, &ms) < 0)
				return 2;
			o.bot_delay_ms = ms;
		} else if (!strcmp(a, "--web")) {
			o.web_dir = v;
		} else {
			fprintf(stderr, "tapis serve: unknown option '%s'\n", a);
			return usage();
		}
	}
	if (!o.cert != !o.key) {
		fprintf(stderr, "tapis serve: --cert and --key go together\n");
		return 2;
	}
	if (dbarg) {
		snprintf(db, sizeof db, "%s", dbarg);
	} else {
		if (paths_datahome(db, sizeof db - 16, 1) < 0) {
			fprintf(stderr, "tapis serve: no place for the store: give --db FILE\n");
			return 2;
		}
		strcat(db, "/server.db");
	}
	o.db = db;
	o.words = words;
	/* The web page and the sound cues: the installed ones (DATADIR/web), or
	 * the source tree's (src/web) when run from the build tree. */
	char web[4400], sounds[4400];
	if (!o.web_dir) {
		snprintf(web, sizeof web, "%s/web/index.html", paths_datadir());
		if (access(web, R_OK) != 0)
			snprintf(web, sizeof web, "%s/src/web/index.html", paths_datadir());
		if (access(web, R_OK) == 0) {
			*strrchr(web, '/') = '\0';
			o.web_dir = web;
		}
	}
	snprintf(sounds, sizeof sounds, "%s/sounds", paths_datadir());
	o.sounds_dir = sounds;
	char err[512];
	if (server_run(&o, err, sizeof err) < 0) {
		fprintf(stderr, "tapis serve: %s\n", err);
		return 1;
	}
	return 0;
}
