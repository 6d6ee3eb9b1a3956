/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/cmd_serve.h"

#include <errno.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/opts.h"
#include "core/err.h"
#include "app/log.h"
#include "core/num.h"
#include "core/paths.h"
#include "net/server/conf.h"
#include "net/server/mod.h"
#include "net/server/server.h"
#include "net/store/store.h"

enum {
	SERVE_MAX_PORT = 65535,
	SERVE_MAX_TURN = 86400,        /* seconds */
	SERVE_MAX_CONNS = 1000000,
	SERVE_MAX_RATE = 10000,        /* messages a second, or at once */
	SERVE_MAX_BOT_DELAY = 60000,   /* ms */
	SERVE_MAX_CLOSE_MINUTES = 10080, /* a week */
	SERVE_PATH_MAX = 4096,         /* the store's path */
	SERVE_DIR_MAX = 4400,          /* the web page's and the sounds' directories */
};
#define SERVE_CONF "/etc/tapis/server.conf" /* the settings read without --config */

/* The command line: the server's options, and the values that become them. */
struct serve_args {
	struct server_options o;
	const char *db;
	const char *store;             /* a PostgreSQL URL, instead of db */
	const char *backup;
	const char *config;            /* read first (net/conf), then the command line */
	int turn_seconds, bot_delay, close_minutes, away_seconds, chat_seconds;
};

static int opt_log_dir(void *cfg, const char *v, char *err, size_t errlen)
{
	struct stat st;
	if (stat(v, &st) < 0 || !S_ISDIR(st.st_mode))
		return errf(err, errlen, "--log-dir: '%s' is not a directory", v);
	((struct serve_args *)cfg)->o.log_dir = v;
	return 0;
}

static int opt_registration(void *cfg, const char *v, char *err, size_t errlen)
{
	if (strcmp(v, "open") && strcmp(v, "closed"))
		return errf(err, errlen, "--registration: '%s' is not open or closed", v);
	((struct serve_args *)cfg)->o.registration_closed = !strcmp(v, "closed");
	return 0;
}

static int opt_metrics(void *cfg, const char *v, char *err, size_t errlen)
{
	static const char *const words[] = { "loopback", "open", "off" };
	for (int i = 0; i < 3; i++)
		if (!strcmp(v, words[i])) {
			((struct serve_args *)cfg)->o.metrics = i; /* SERVER_METRICS_* in order */
			return 0;
		}
	return errf(err, errlen, "--metrics: '%s' is not loopback, open or off", v);
}

static int opt_seed(void *cfg, const char *v, char *err, size_t errlen)
{
	long long n;
	if (num_parse(v, 1, INT64_MAX, &n) < 0)
		return errf(err, errlen, "--seed: '%s' is not a number from 1", v);
	((struct serve_args *)cfg)->o.seed = n;
	return 0;
}

/* 0 when the server can listen on host and port (IPv4, as the server
 * does); -1 with a message: a server listening on nothing must not start.
 * An interface's name (eth0) is left to the server to find. */
static int can_listen(const char *host, int port, char *err, size_t errlen)
{
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	char p[16];
	snprintf(p, sizeof p, "%d", port);
	int rc = getaddrinfo(host, p, &hints, &res);
	if (rc != 0) {
		if (if_nametoindex(host) != 0)
			return 0;
		return errf(err, errlen, "cannot listen on %s: %s", host, gai_strerror(rc));
	}
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1, e = 0;
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(fd, res->ai_addr, res->ai_addrlen) < 0)
		e = errno;
	if (fd >= 0)
		close(fd);
	freeaddrinfo(res);
	if (e)
		return errf(err, errlen, "cannot listen on %s port %d: %s", host, port, strerror(e));
	return 0;
}

#define A struct serve_args
static const struct opt serve_opts[] = {
	OPT_S("host", N_("ADDR"), N_("the address to listen on (default 127.0.0.1)"), A, o.host),
	OPT_I("port", N_("N"), N_("the port (default 7410; 0: any free port)"), A, o.port, 0, SERVE_MAX_PORT),
	OPT_S("db", N_("FILE"), N_("the store of accounts, tables and saved games"), A, db),
	OPT_S("store", N_("URL"), N_("the store: a PostgreSQL database (postgresql://...) that servers can share, or a file as --db"),
	      A, store),
	OPT_S("backup", N_("FILE"), N_("copy the store into FILE, even while a server uses it, then exit"), A, backup),
	OPT_C("log-dir", N_("DIR"), N_("a hand history for every table in this directory"), opt_log_dir),
	OPT_S("cert", N_("FILE"), N_("TLS certificate (with --key)"), A, o.cert),
	OPT_S("key", N_("FILE"), N_("TLS private key (with --cert)"), A, o.key),
	OPT_S("web", N_("DIR"), N_("the web page's files"), A, o.web_dir),
	OPT_I("bot-delay", N_("MS"), N_("pause before a bot's move"), A, bot_delay, 0, SERVE_MAX_BOT_DELAY),
	OPT_I("turn-seconds", N_("N"), N_("a player's time to act, then a bot plays (0: none)"), A, turn_seconds, 0,
	      SERVE_MAX_TURN),
	OPT_I("close-minutes", N_("N"), N_("a table in play that nobody is at is saved and closed after N minutes (0: never)"),
	      A, close_minutes, 0, SERVE_MAX_CLOSE_MINUTES),
	OPT_I("away-seconds", N_("N"), N_("a player who left keeps the seat this long, then a bot plays it"), A,
	      away_seconds, 0, SERVE_MAX_TURN),
	OPT_I("tables-per-addr", N_("N"), N_("tables waiting or in play made from one address (0: no limit)"), A,
	      o.tables_per_addr, 0, SERVE_MAX_CONNS),
	OPT_I("tables-max", N_("N"), N_("tables waiting or in play in all (0: no limit)"), A, o.tables_max, 0,
	      SERVE_MAX_CONNS),
	OPT_I("tables-per-person", N_("N"), N_("tables waiting or in play one person made"), A, o.tables_per_person, 1,
	      SERVE_MAX_CONNS),
	OPT_I("accounts-per-hour", N_("N"), N_("accounts made from one address in an hour"), A, o.accounts_per_hour, 1,
	      SERVE_MAX_CONNS),
	OPT_C("registration", "open|closed", N_("whether a new name with a password makes an account (closed: guests and the accounts there)"),
	      opt_registration),
	OPT_I("rate", N_("N"), N_("messages a second a connection may send"), A, o.rate_per_s, 1, SERVE_MAX_RATE),
	OPT_I("burst", N_("N"), N_("messages a connection may send at once, beyond the rate"), A, o.rate_burst, 1,
	      SERVE_MAX_RATE),
	OPT_I("chat-lines", N_("N"), N_("chat lines a person may say in chat-seconds (default 5); one more is refused"), A,
	      o.chat_lines, 1, MOD_FLOOD_LINES_MAX),
	OPT_I("chat-seconds", N_("N"), N_("the chat's window of time, in seconds (default 10)"), A, chat_seconds, 1, 3600),
	OPT_I("chat-strikes", N_("N"), N_("lines refused within that window that mute the person (default 3)"), A,
	      o.chat_strikes, 1, MOD_FLOOD_STRIKES_MAX),
	OPT_I("chat-mute-minutes", N_("N"), N_("how long a person who floods the chat is muted (default 5)"), A,
	      o.chat_mute_min, 1, 7 * 1440),
	OPT_I("max-conns", N_("N"), N_("connections at once (0: no limit)"), A, o.max_conns, 0, SERVE_MAX_CONNS),
	OPT_I("max-per-addr", N_("N"), N_("connections at once from one address (0: no limit)"), A, o.max_per_addr, 0,
	      SERVE_MAX_CONNS),
	OPT_I("max-handshakes", N_("N"), N_("connections whose handshake is under way, at once (0: no limit)"), A,
	      o.max_handshakes, 0, SERVE_MAX_CONNS),
	OPT_I("handshakes-per-prefix", N_("N"),
	      N_("of those, from one network: an IPv4 /24, an IPv6 /64 (0: no limit)"), A, o.handshakes_per_prefix, 0,
	      SERVE_MAX_CONNS),
	OPT_C("metrics", "loopback|open|off",
	      N_("who may read GET /healthz and /metrics on the server's port (default loopback: this machine only)"),
	      opt_metrics),
	OPT_S("cluster", N_("URL"), N_("join the other servers that share this Redis (redis://HOST:PORT)"), A, o.cluster),
	OPT_S("node-id", N_("NAME"), N_("this server's name in the cluster (default: host name and port)"), A, o.node_id),
	OPT_C("seed", N_("N"), N_("every table's seed, for tests (whoever knows it knows every hand)"), opt_seed),
	OPT_S("config", N_("FILE"), N_("read these settings from FILE first (KEY = VALUE lines); the command line overrides it"),
	      A, config),
	OPT_END,
};
#undef A
static const struct opt_cmd serve_cmd = { "tapis serve", "tapis serve [OPTIONS]", serve_opts };

/* What SIGHUP reads again. */
struct serve_reload {
	int argc;
	char **argv;
	const char *path;
};

/* The settings of the configuration file, by section: every option but
 * an action (backup) and the file itself. */
static const struct conf_key serve_conf_keys[] = {
	{ "host", "server" }, { "port", "server" }, { "cert", "server" }, { "key", "server" }, { "web", "server" },
	{ "db", "store" }, { "store", "store" }, { "log-dir", "store" },
	{ "turn-seconds", "tables" }, { "away-seconds", "tables" }, { "close-minutes", "tables" },
	{ "bot-delay", "tables" }, { "tables-per-addr", "tables" }, { "tables-max", "tables" }, { "seed", "tables" },
	{ "tables-per-person", "tables" },
	{ "max-conns", "limits" }, { "max-per-addr", "limits" }, { "max-handshakes", "limits" },
	{ "handshakes-per-prefix", "limits" }, { "rate", "limits" }, { "burst", "limits" },
	{ "accounts-per-hour", "limits" }, { "registration", "server" }, { "metrics", "server" },
	{ "chat-lines", "limits" }, { "chat-seconds", "limits" }, { "chat-strikes", "limits" },
	{ "chat-mute-minutes", "limits" },
	{ "cluster", "cluster" }, { "node-id", "cluster" },
	{ NULL, NULL },
};

static int serve_args_run(struct serve_args *ap, char *(*words)(const char *lang), const struct server_node_ops *node,
                          struct serve_reload *r);

/* The times given in seconds and minutes, as the server's options. */
static void args_times(struct serve_args *a)
{
	if (a->turn_seconds >= 0)
		a->o.turn_ms = a->turn_seconds * 1000LL;
	if (a->close_minutes >= 0)
		a->o.close_ms = a->close_minutes * 60000LL;
	if (a->bot_delay >= 0)
		a->o.bot_delay_ms = a->bot_delay;
	if (a->away_seconds >= 0)
		a->o.grace_ms = a->away_seconds * 1000LL;
	if (a->chat_seconds > 0)
		a->o.chat_ms = a->chat_seconds * 1000LL;
}

static void args_init(struct serve_args *a)
{
	memset(a, 0, sizeof *a);
	a->turn_seconds = a->bot_delay = a->close_minutes = a->away_seconds = -1;
	a->chat_seconds = 0;
	server_options_default(&a->o);
}

/* The same file and command line read again (SIGHUP): the settings that
 * may change while the server runs (the server applies those), and a
 * word in the log for each that would need a restart. */
static int serve_reload(void *ctx, struct server_options *o, char *err, size_t errlen)
{
	struct serve_reload *r = ctx;
	struct serve_args a;
	args_init(&a);
	struct conf conf = { 0 };
	int rc = 0;
	if (r->path && conf_load(&conf, r->path, &serve_cmd, serve_conf_keys, &a, err, errlen) < 0) {
		rc = -1;
	} else {
		int npos;
		if (opt_parse(&serve_cmd, r->argc, r->argv, &a, NULL, 0, &npos) != 0) {
			rc = errf(err, errlen, "the command line no longer reads");
		} else {
			args_times(&a);
			const struct server_options *n = &a.o;
			static const char *const fixed = "(read at start only: restart to change it)";
			if (n->port != o->port || strcmp(n->host, o->host))
				log_at(LOGL_WARNING, "reload: the address to listen on %s", fixed);
			if (!n->cert != !o->cert || (n->cert && strcmp(n->cert, o->cert)) || !n->key != !o->key ||
			    (n->key && strcmp(n->key, o->key)))
				log_at(LOGL_WARNING, "reload: the certificate's file names %s (the same files are read again)", fixed);
			if (!n->cluster != !o->cluster || (n->cluster && strcmp(n->cluster, o->cluster)))
				log_at(LOGL_WARNING, "reload: the cluster %s", fixed);
			o->rate_per_s = n->rate_per_s;
			o->rate_burst = n->rate_burst;
			o->max_conns = n->max_conns;
			o->max_per_addr = n->max_per_addr;
			o->max_handshakes = n->max_handshakes;
			o->handshakes_per_prefix = n->handshakes_per_prefix;
			o->tables_per_addr = n->tables_per_addr;
			o->tables_max = n->tables_max;
			o->tables_per_person = n->tables_per_person;
			o->accounts_per_hour = n->accounts_per_hour;
			o->registration_closed = n->registration_closed;
			o->chat_lines = n->chat_lines;
			o->chat_ms = n->chat_ms;
			o->chat_strikes = n->chat_strikes;
			o->chat_mute_min = n->chat_mute_min;
			o->metrics = n->metrics;
			o->turn_ms = n->turn_ms;
			o->close_ms = n->close_ms;
			o->bot_delay_ms = n->bot_delay_ms;
			o->grace_ms = n->grace_ms;
		}
	}
	conf_free(&conf);
	return rc;
}

int serve_main(int argc, char **argv, char *(*words)(const char *lang), const struct server_node_ops *node)
{
	struct serve_args a;
	args_init(&a);
	log_set(log_stderr, "tapis serve");
	/* The file first (--config FILE; without it the system's, when there
	 * is one and this is the installed program: a build tree's, which
	 * TAPIS_DATADIR points at its data, is left alone by it), then the
	 * command line over it. */
	const char *path = conf_arg(argc, argv, "config");
	if (!path && !getenv("TAPIS_DATADIR") && access(SERVE_CONF, F_OK) == 0)
		path = SERVE_CONF;
	/* --help reads no file: it works for anyone, whatever the file holds. */
	for (int i = 1; path && i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			path = NULL;
	struct conf conf = { 0 };
	char err[ERR_MAX];
	int rc;
	if (path && conf_load(&conf, path, &serve_cmd, serve_conf_keys, &a, err, sizeof err) < 0) {
		fprintf(stderr, "tapis serve: %s\n", err);
		rc = 2;
	} else {
		/* The store is one setting in two forms: the command line's
		 * --db or --store replaces the file's either. */
		if (conf_arg(argc, argv, "db") || conf_arg(argc, argv, "store"))
			a.db = a.store = NULL;
		int npos;
		rc = opt_parse(&serve_cmd, argc, argv, &a, NULL, 0, &npos);
		if (rc == OPT_HELP)
			rc = opt_help(&serve_cmd, NULL);
		else if (rc == 0) {
			struct serve_reload r = { argc, argv, path };
			rc = serve_args_run(&a, words, node, &r);
		}
	}
	conf_free(&conf);
	return rc;
}

static int serve_args_run(struct serve_args *ap, char *(*words)(const char *lang), const struct server_node_ops *node,
                          struct serve_reload *r)
{
	struct serve_args a = *ap;
	args_times(&a);
	struct server_options o = a.o;
	o.reload = serve_reload;
	o.reload_ctx = r;
	char db[SERVE_PATH_MAX];
	const char *dbarg = a.db;
	if (!o.cert != !o.key) {
		fprintf(stderr, "tapis serve: --cert and --key go together\n");
		return 2;
	}
	if (o.node_id && !o.cluster) {
		fprintf(stderr, "tapis serve: --node-id: only with --cluster\n");
		return 2;
	}
	if (o.cluster) {
		char err[ERR_MAX];
		if (!node)
			errf(err, sizeof err, "--cluster: this program joins no cluster");
		if (!node || node->check(o.cluster, o.node_id, err, sizeof err) < 0) {
			fprintf(stderr, "tapis serve: %s\n", err);
			return 2;
		}
	}
	int pg = a.store && store_is_url(a.store);
	if (a.store && a.db) {
		fprintf(stderr, "tapis serve: give --db or --store, not both\n");
		return 2;
	}
	if (pg && a.backup) {
		fprintf(stderr, "tapis serve: --backup copies a SQLite store; for PostgreSQL use pg_dump\n");
		return 2;
	}
	if (!pg && a.store)
		dbarg = a.store; /* a file: SQLite, as --db */
	if (pg) {
		/* PostgreSQL: the URL goes to libpq as it is (its password never
		 * shown: store_pg_redact). */
		o.store = "postgresql";
		o.db = a.store;
	} else if (dbarg && (!dbarg[0] || !strcmp(dbarg, ":memory:"))) {
		/* SQLite would keep that store in memory or a temporary file:
		 * everything lost at exit. */
		fprintf(stderr, "tapis serve: --db: give a file (an empty name keeps nothing past the end)\n");
		return 2;
	} else if (dbarg) {
		snprintf(db, sizeof db, "%s", dbarg);
		o.db = db;
	} else if (paths_datahome(db, sizeof db - 16, 1) < 0) {
		fprintf(stderr, "tapis serve: no place for the store: give --db FILE\n");
		return 2;
	} else {
		strcat(db, "/server.db");
		o.db = db;
	}
	if (a.backup) {
		/* A copy of the store, made page by page with SQLite's online
		 * backup while the server goes on (docs/hosting.md). */
		char err[ERR_MAX];
		if (!a.backup[0] || store_backup_file(db, a.backup, err, sizeof err) < 0) {
			fprintf(stderr, "tapis serve: --backup: %s\n", a.backup[0] ? err : "give a file");
			return 1;
		}
		log_at(LOGL_NOTICE, "backup: %s copied into %s", db, a.backup);
		return 0;
	}
	o.words = words;
	o.node = node;
	/* The web page and the sound cues: the installed ones (DATADIR/web), or
	 * the source tree's (src/web) when run from the build tree. */
	char web[SERVE_DIR_MAX], sounds[SERVE_DIR_MAX];
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
	char err[ERR_MAX];
	if (can_listen(o.host, o.port, err, sizeof err) < 0) {
		fprintf(stderr, "tapis serve: %s\n", err);
		return 1;
	}
	if (server_run(&o, err, sizeof err) < 0) {
		fprintf(stderr, "tapis serve: %s\n", err);
		return 1;
	}
	return 0;
}
