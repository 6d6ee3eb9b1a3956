/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/server/cmd_admin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/opts.h"
#include "core/err.h"
#include "core/paths.h"
#include "core/termtext.h"
#include "i18n/i18n.h"
#include "net/wire/ident.h"
#include "net/wire/proto.h"
#include "net/server/server.h"
#include "net/store/store.h"

enum {
	ADMIN_PATH_MAX = 4096,
	ADMIN_MAX_SECONDS = 10 * 366 * 86400, /* ten years */
};

struct admin_args {
	const char *db;
	const char *store;             /* a PostgreSQL URL (or a file, as db) */
	const char *dur;
	const char *reason;
};

#define A struct admin_args
static const struct opt admin_opts[] = {
	OPT_S("db", N_("FILE"), N_("the server's store (default: the one tapis serve uses)"), A, db),
	OPT_S("store", N_("URL"), N_("the store: a PostgreSQL database (postgresql://...) that servers can share, or a file as --db"),
	      A, store),
	OPT_S("for", N_("DURATION"), N_("ban: how long, e.g. 30m, 12h, 7d (s, m, h, d; no unit: minutes)"), A, dur),
	OPT_S("reason", N_("TEXT"), N_("ban: the reason told to the person"), A, reason),
	OPT_END,
};
#undef A
static const struct opt_cmd admin_cmd = {
	"tapis admin",
	"tapis admin [--db FILE | --store URL] role NAME moderator|player | ban NAME --for DURATION [--reason TEXT]"
	" | unban NAME | list | drain [NODE]",
	admin_opts,
};

int admin_duration(const char *text, long long *seconds)
{
	char *end;
	errno = 0;
	long long n = strtoll(text, &end, 10);
	if (errno || end == text || n <= 0 || text[0] == '+' || text[0] == ' ')
		return -1;
	long long unit = 60;
	if (*end) {
		if (end[1])
			return -1;
		switch (*end) {
		case 's': unit = 1; break;
		case 'm': unit = 60; break;
		case 'h': unit = 3600; break;
		case 'd': unit = 86400; break;
		default: return -1;
		}
	}
	if (n > ADMIN_MAX_SECONDS / unit)
		return -1;
	*seconds = n * unit;
	return 0;
}

static void when_text(long long t, char *out, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(out, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

static void audit(struct store *s, const char *whom, const char *what, long long until, const char *reason)
{
	struct store_audit a;
	memset(&a, 0, sizeof a);
	a.when = (long long)time(NULL);
	snprintf(a.who, sizeof a.who, "operator");
	snprintf(a.whom, sizeof a.whom, "%s", whom);
	snprintf(a.what, sizeof a.what, "%s", what);
	a.until = until;
	snprintf(a.reason, sizeof a.reason, "%s", reason);
	store_audit_add(s, &a);
}

/* What the store holds came from strangers (a moderator's words, a name
 * kept by an older server): cleaned as tapis join cleans a server's text
 * (core/termtext) before it reaches the operator's terminal, so that no
 * escape sequence clears, recolours or rewrites the lines around it. */
#define CLEAN(buf, s) char buf[TERMTEXT_SIZE(STORE_REASON_MAX)]; termtext_clean((s), strlen(s), buf, sizeof buf)

static void print_role(void *ctx, const char *name, const char *role)
{
	(void)ctx;
	CLEAN(n, name);
	CLEAN(r, role);
	printf("role %s %s\n", n, r);
}

static void print_ban(void *ctx, const struct store_ban *b)
{
	long long now = *(long long *)ctx;
	if (b->until <= now)
		return;
	char when[64];
	when_text(b->until, when, sizeof when);
	CLEAN(n, b->name);
	CLEAN(by, b->by);
	CLEAN(r, b->reason);
	printf("ban %s until %s by %s%s%s\n", n, when, by, r[0] ? ": " : "", r);
}

static void print_audit(void *ctx, const struct store_audit *a)
{
	(void)ctx;
	char when[64], until[64] = "";
	when_text(a->when, when, sizeof when);
	if (a->until) {
		memcpy(until, " until ", 8);
		when_text(a->until, until + 7, sizeof until - 7);
	}
	CLEAN(who, a->who);
	CLEAN(what, a->what);
	CLEAN(whom, a->whom);
	CLEAN(r, a->reason);
	printf("audit %s %s %s %s%s%s%s\n", when, who, what, whom, until, r[0] ? ": " : "", r);
}

/* The name as the server keeps it (trimmed, NFC); -1 with a message. */
static int name_of(const char *in, char *out, size_t len)
{
	char err[ERR_MAX];
	if (ident_check(in, out, len, NULL, err, sizeof err) < 0) {
		fprintf(stderr, "tapis admin: '%s': %s\n", in, err);
		return -1;
	}
	return 0;
}

int admin_main(int argc, char **argv)
{
	struct admin_args a = { 0 };
	const char *pos[3];
	int npos, rc = opt_parse(&admin_cmd, argc, argv, &a, pos, 3, &npos);
	if (rc == OPT_HELP) {
		rc = opt_help(&admin_cmd, NULL);
		printf("\n%s\n%s\n%s\n%s\n", _("  role NAME moderator|player   give a name the moderator's role, or take it back"),
		       _("  ban NAME --for DURATION       refuse NAME at login for that long (and put them out now)"),
		       _("  unban NAME                    end a ban"),
		       _("  list                          the roles, the bans in force, then every act of the audit"));
		printf("%s\n", _("  drain [NODE]                  the server makes no new game, lets those in play finish, then stops "
		                  "(a node of a cluster: hands its tables over and stops)"));
		return rc;
	}
	if (rc)
		return rc;
	if (!npos)
		return opt_fail(&admin_cmd, "which command? role, ban, unban, list or drain");
	const char *cmd = pos[0];
	int want = !strcmp(cmd, "role") ? 3 : !strcmp(cmd, "ban") || !strcmp(cmd, "unban") ? 2 : !strcmp(cmd, "list") ? 1 : 0;
	if (!strcmp(cmd, "drain"))
		want = npos == 2 ? 2 : 1; /* NODE is optional */
	if (!want)
		return opt_fail(&admin_cmd, "unknown command '%s' (role, ban, unban, list, drain)", cmd);
	if (npos != want)
		return opt_fail(&admin_cmd, "%s takes %d argument%s", cmd, want - 1, want == 2 ? "" : "s");
	if (!strcmp(cmd, "role") && strcmp(pos[2], "moderator") && strcmp(pos[2], "player"))
		return opt_fail(&admin_cmd, "a role is moderator or player, not '%s'", pos[2]);
	long long secs = 0;
	if (!strcmp(cmd, "ban") && !a.dur)
		return opt_fail(&admin_cmd, "ban needs --for DURATION: a number then s, m, h or d (at most ten years)");
	if (!strcmp(cmd, "ban") && admin_duration(a.dur, &secs) < 0)
		return opt_fail(&admin_cmd, "--for: '%s' is not a duration: a number then s, m, h or d (at most ten years)",
		                a.dur);
	if (strcmp(cmd, "ban") && (a.dur || a.reason))
		return opt_fail(&admin_cmd, "--for and --reason go with ban");
	if (a.reason && strlen(a.reason) > PROTO_REASON_MAX)
		return opt_fail(&admin_cmd, "--reason: at most %d bytes", PROTO_REASON_MAX);
	if (a.reason && termtext_unsafe(a.reason))
		return opt_fail(&admin_cmd, "--reason: no control or invisible character");
	char reason[PROTO_CHAT_MAX + 1] = "", err[ERR_MAX];
	if (a.reason && ident_chat(a.reason, reason, sizeof reason, NULL, err, sizeof err) < 0)
		return opt_fail(&admin_cmd, "--reason: %s", err);
	char name[PROTO_NAME_MAX * 4 + 1] = "";
	int drain = !strcmp(cmd, "drain");
	if (drain && want == 2 && (strlen(pos[1]) > SERVER_NODE_ID_MAX || !pos[1][0] ||
	                           strspn(pos[1], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:") !=
	                               strlen(pos[1])))
		return opt_fail(&admin_cmd, "drain: '%s' is not a node's id (1 to 64 letters, digits, '.', '_', '-' or ':')",
		                pos[1]);
	if (!drain && want >= 2 && name_of(pos[1], name, sizeof name) < 0)
		return 2;
	char db[ADMIN_PATH_MAX];
	if (a.db && a.store)
		return opt_fail(&admin_cmd, "give --db or --store, not both");
	if (a.store)
		a.db = a.store;
	if (a.db) {
		snprintf(db, sizeof db, "%s", a.db);
	} else {
		if (paths_datahome(db, sizeof db - 16, 0) < 0) {
			fprintf(stderr, "tapis admin: no store found: give --db FILE\n");
			return 2;
		}
		strcat(db, "/server.db");
	}
	struct store s;
	if (store_open(&s, store_is_url(db) ? "postgresql" : "sqlite", db, err, sizeof err) < 0) {
		fprintf(stderr, "tapis admin: %s\n", err);
		return 1;
	}
	long long now = (long long)time(NULL);
	rc = 0;
	if (!strcmp(cmd, "role")) {
		/* Only an account has a role: a name nobody holds yet would make
		 * whoever takes it a moderator. */
		char hash[STORE_TEXT_MAX];
		int has = store_account_get(&s, name, hash, sizeof hash);
		if (has < 0) {
			rc = 1;
		} else if (has == 0) {
			fprintf(stderr, "tapis admin: no account is named '%s': a role goes to an account\n", name);
			store_close(&s);
			return 1;
		} else if (store_role_put(&s, name, pos[2]) < 0) {
			rc = 1;
		} else {
			audit(&s, name, "role", 0, pos[2]);
			printf(!strcmp(pos[2], "moderator") ? "%s is a moderator\n" : "%s is a player\n", name);
		}
	} else if (!strcmp(cmd, "ban")) {
		struct store_ban b;
		memset(&b, 0, sizeof b);
		snprintf(b.name, sizeof b.name, "%s", name);
		b.until = now + secs;
		snprintf(b.reason, sizeof b.reason, "%.250s", reason);
		snprintf(b.by, sizeof b.by, "operator");
		if (store_ban_put(&s, &b) < 0) {
			rc = 1;
		} else {
			audit(&s, name, "ban", b.until, reason);
			char when[64];
			when_text(b.until, when, sizeof when);
			printf("%s is banned until %s\n", name, when);
		}
	} else if (!strcmp(cmd, "unban")) {
		struct store_ban b;
		int had = store_ban_get(&s, name, &b);
		if (had < 0 || store_ban_delete(&s, name) < 0) {
			rc = 1;
		} else {
			audit(&s, name, "unban", 0, "");
			printf(had && b.until > now ? "%s is no longer banned\n" : "%s was not banned\n", name);
		}
	} else if (drain) {
		/* Read by the server every few seconds (SERVER_DRAIN_POLL_MS): a
		 * server started after this time is not drained by it. */
		char key[STORE_FLAG_MAX + 1] = "drain";
		if (want == 2)
			snprintf(key, sizeof key, "drain:%s", pos[1]);
		if (store_flag_put(&s, key, now) < 0) {
			rc = 1;
		} else {
			audit(&s, want == 2 ? pos[1] : "", "drain", 0, "");
			if (want == 2)
				printf("node %s: drain asked; it hands its tables to the other nodes and stops\n", pos[1]);
			else
				printf("drain asked: the server makes no new game, lets those in play finish, then stops\n");
		}
	} else {
		if (store_role_each(&s, print_role, NULL) < 0 || store_ban_each(&s, print_ban, &now) < 0 ||
		    store_audit_each(&s, print_audit, NULL) < 0)
			rc = 1;
	}
	if (rc)
		fprintf(stderr, "tapis admin: %s: %s\n", db, s.err[0] ? s.err : "the store failed");
	store_close(&s);
	return rc;
}
