/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Moderation and tables among friends, against a real server (a child
 * process on a free loopback port, with a temporary SQLite store) driven by
 * scripted clients, as check_net does: a moderator mutes, kicks and bans,
 * each act in the store's audit; a banned name is refused at login until
 * its ban ends, and a ban set by `tapis admin` while the server runs puts
 * its person out within seconds; the chat's flood control; a person's own
 * mutes; invitations to a private table; the rematch of a finished game;
 * reserved names. */
#define _GNU_SOURCE
#include <check.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "net/server/auth.h"
#include "net/client/client.h"
#include "net/server/cmd_admin.h"
#include "net/wire/ident.h"
#include "net/server/mod.h"
#include "net/server/req.h"
#include "net/wire/proto.h"
#include "net/client/remote.h"
#include "net/server/server.h"
#include "net/store/store.h"
#include "i18n/i18n.h"
#include "netutil.h"
#include "testutil.h"

/* ---- helpers (the server and its clients: tests/netutil) ---- */

#define MOD_FLOOD_LINES_T MOD_FLOOD_LINES

static int count_type_of(const struct tc *t, const char *type)
{
	int n = 0;
	for (int i = 0; i < t->n; i++)
		n += !strcmp(mtype(t->msg[i]), type);
	return n;
}

static const char *error_text(struct tc *t, const char *code)
{
	json_t *e = tc_wait(t, "error");
	ck_assert_msg(!strcmp(json_string_value(json_object_get(e, "code")), code), "%s: error %s (%s), not %s",
	              t->name, json_string_value(json_object_get(e, "code")),
	              json_string_value(json_object_get(e, "message")), code);
	return json_string_value(json_object_get(e, "message"));
}

/* The text of the next message of a type whose text holds part. */
static const char *wait_text(struct tc *t, const char *type, const char *part)
{
	for (;;) {
		json_t *j = tc_wait(t, type);
		const char *x = json_string_value(json_object_get(j, "text"));
		if (x && strstr(x, part))
			return x;
	}
}

/* Chat lines t received from a person, so far. */
static int chats_from(const struct tc *t, const char *from)
{
	int n = 0;
	for (int i = 0; i < t->n; i++)
		if (!strcmp(mtype(t->msg[i]), "chat") &&
		    !strcmp(json_string_value(json_object_get(t->msg[i], "from")), from))
			n++;
	return n;
}

/* The last state of t's table come so far (after t->table's joined). */
static void catch_up(struct tc *t)
{
	t->state = NULL;
	for (int i = t->cursor; i < t->n; i++)
		if (!strcmp(mtype(t->msg[i]), "state") && json_integer_value(json_object_get(t->msg[i], "table")) == t->table)
			t->state = t->msg[i];
	if (!t->state) {
		json_t *j = tc_wait(t, "state");
		t->state = j;
	}
}

/* `tapis admin --db DB ARGS...`: its exit status. */
static int run_admin(const char *db, const char *const *args)
{
	const char *bin = getenv("TAPIS_BIN");
	ck_assert_msg(bin != NULL, "TAPIS_BIN is not set");
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		const char *argv[16] = { bin, "admin", "--db", db };
		for (int i = 0; args[i] && i < 11; i++)
			argv[i + 4] = args[i];
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The same, its standard output (the first outlen - 1 bytes) in out. */
static int run_admin_out(const char *db, const char *const *args, char *out, size_t outlen)
{
	const char *bin = getenv("TAPIS_BIN");
	ck_assert_msg(bin != NULL, "TAPIS_BIN is not set");
	int fd[2];
	ck_assert_int_eq(pipe(fd), 0);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		const char *argv[16] = { bin, "admin", "--db", db };
		for (int i = 0; args[i] && i < 11; i++)
			argv[i + 4] = args[i];
		close(fd[0]);
		if (dup2(fd[1], 1) < 0 || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	size_t n = 0;
	ssize_t got;
	while (n + 1 < outlen && (got = read(fd[0], out + n, outlen - 1 - n)) > 0)
		n += (size_t)got;
	out[n] = '\0';
	close(fd[0]);
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* An account in the store, as registering makes it (the cheapest hash). */
static void put_account(const char *db, const char *name, const char *password)
{
	struct auth a;
	ck_assert_int_eq(auth_init(&a, AUTH_COST_CHEAP), 0);
	char hash[AUTH_HASH_MAX];
	ck_assert_int_eq(auth_hash(&a, password, hash), 0);
	auth_release(&a);
	struct store st;
	char err[256];
	ck_assert_msg(store_open(&st, "sqlite", db, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_account_put(&st, name, hash), 0);
	store_close(&st);
}

struct acts {
	int n;
	char line[32][600];
};

static void on_audit(void *ctx, const struct store_audit *a)
{
	struct acts *x = ctx;
	if (x->n < 32)
		snprintf(x->line[x->n++], sizeof x->line[0], "%s %s %s %s %d", a->who, a->what, a->whom, a->reason,
		         a->until > 0);
}

/* The audit as the store holds it now (read beside the running server). */
static void read_audit(const struct srv *s, struct acts *x)
{
	struct store st;
	char err[256];
	memset(x, 0, sizeof *x);
	ck_assert_msg(store_open(&st, "sqlite", s->db, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_audit_each(&st, on_audit, x), 0);
	store_close(&st);
}

/* ---- the tests ---- */

/* Names of the server and of its staff, in English and French, are
 * nobody's. */
START_TEST(test_reserved_names)
{
	static const char *const taken[] = { "server", "Serveur", "admin", "Administrateur", "Administratrice",
	                                     "moderator", "Modérateur", "modératrice", "Modo", "operator" };
	char out[128], err[256];
	for (size_t i = 0; i < sizeof taken / sizeof *taken; i++)
		ck_assert_msg(ident_check(taken[i], out, sizeof out, NULL, err, sizeof err) < 0, "'%s' was taken", taken[i]);
	ck_assert_int_eq(ident_check("Modeste", out, sizeof out, NULL, err, sizeof err), 0);
}
END_TEST

/* Durations of tapis admin. */
START_TEST(test_admin_durations)
{
	long long t;
	ck_assert_int_eq(admin_duration("30", &t), 0);
	ck_assert_int_eq(t, 1800);
	ck_assert_int_eq(admin_duration("2s", &t), 0);
	ck_assert_int_eq(t, 2);
	ck_assert_int_eq(admin_duration("12h", &t), 0);
	ck_assert_int_eq(t, 12 * 3600);
	ck_assert_int_eq(admin_duration("7d", &t), 0);
	ck_assert_int_eq(t, 7 * 86400);
	ck_assert_int_eq(admin_duration("0", &t), -1);
	ck_assert_int_eq(admin_duration("-3m", &t), -1);
	ck_assert_int_eq(admin_duration("3w", &t), -1);
	ck_assert_int_eq(admin_duration("3mm", &t), -1);
	ck_assert_int_eq(admin_duration("99999999d", &t), -1);
	ck_assert_int_eq(admin_duration("", &t), -1);
}
END_TEST

/* A moderator (an account given the role by tapis admin) mutes, kicks
 * from a table and from the server, and bans; each person concerned hears
 * why in their language; every act is in the audit. */
START_TEST(test_moderator_acts)
{
	struct srv s;
	srv_make(&s);
	const char *role[] = { "role", "Anne", "moderator", NULL };
	put_account(s.db, "Anne", "secret");
	ck_assert_int_eq(run_admin(s.db, role), 0);
	srv_run(&s);
	static struct tc a, b, c;
	tc_login(&a, &s, "Anne", "en", "secret");
	tc_login(&b, &s, "Bruno", "fr", NULL);
	tc_login(&c, &s, "Carla", "en", NULL);
	/* A guest named as nobody's moderator may not act; nor may anyone
	 * without the role. Each hears it in their language, the two asked
	 * in turn. */
	tc_send(&b, "{\"type\":\"mod\",\"act\":\"mute\",\"name\":\"Carla\"}");
	tc_send(&a, "{\"type\":\"mod\",\"act\":\"shout\",\"name\":\"Carla\"}");
	ck_assert_str_eq(error_text(&b, "not_moderator"), "seul un modérateur peut faire cela");
	ck_assert_str_eq(error_text(&a, "bad_message"), "'act' must be mute, unmute, kick, ban or unban");
	/* Mute: Bruno hears it in French, with the reason; his chat is refused.
	 * The moderator is told in English by the same act. */
	tc_send(&a, "{\"type\":\"mod\",\"act\":\"mute\",\"name\":\"Bruno\",\"minutes\":5,\"reason\":\"spam\"}");
	const char *t = wait_text(&b, "notice", "spam");
	ck_assert_msg(strstr(t, "modérateur") != NULL, "%s", t);
	ck_assert_str_eq(wait_text(&a, "notice", "Bruno"), "Bruno is muted.");
	tc_send(&b, "{\"type\":\"chat\",\"text\":\"je parle\"}");
	t = error_text(&b, "muted");
	ck_assert_msg(strstr(t, "spam") && strstr(t, "Vous êtes réduit au silence"), "%s", t);
	tc_send(&a, "{\"type\":\"mod\",\"act\":\"unmute\",\"name\":\"Bruno\"}");
	wait_text(&a, "notice", "Bruno");
	tc_send(&b, "{\"type\":\"chat\",\"text\":\"merci\"}");
	ck_assert_str_eq(json_string_value(json_object_get(tc_wait(&c, "chat"), "text")), "merci");
	/* Kick from a table: Carla leaves it, told why. */
	long id = tc_create(&b, "brouc", 4, "[\"open\",\"open\",\"bot\",\"bot\"]", NULL);
	tc_sit(&c, id, 1);
	tc_send(&a, "{\"type\":\"mod\",\"act\":\"kick\",\"name\":\"Carla\",\"table\":%ld,\"reason\":\"rude\"}", id);
	json_t *l = tc_wait(&c, "left");
	ck_assert_str_eq(json_string_value(json_object_get(l, "reason")), "removed");
	wait_text(&c, "notice", "rude");
	/* Kick from the server: Carla's connection ends after the reason. */
	tc_send(&a, "{\"type\":\"mod\",\"act\":\"kick\",\"name\":\"Carla\",\"reason\":\"still rude\"}");
	t = error_text(&c, "kicked");
	ck_assert_msg(strstr(t, "still rude") != NULL, "%s", t);
	/* A moderator may not act on another moderator. */
	tc_send(&a, "{\"type\":\"mod\",\"act\":\"mute\",\"name\":\"Anne\"}");
	error_text(&a, "not_moderator");
	/* Ban: Bruno is put out, told until when and why, and refused at
	 * login. */
	tc_send(&a, "{\"type\":\"mod\",\"act\":\"ban\",\"name\":\"Bruno\",\"minutes\":30,\"reason\":\"insultes\"}");
	t = error_text(&b, "banned");
	ck_assert_msg(strstr(t, "insultes") && strstr(t, "UTC") && strstr(t, "banni"), "%s", t);
	wait_text(&a, "notice", "Bruno");
	char token[40];
	snprintf(token, sizeof token, "%s", b.token);
	tc_free(&b);
	tc_hello(&b, &s, "Bruno", "fr", NULL, token);
	t = error_text(&b, "banned");
	ck_assert_msg(strstr(t, "insultes") != NULL, "%s", t);
	ck_assert_int_eq(count_type_of(&b, "welcome"), 0);
	/* The audit holds every act, by whom, on whom, with its reason. */
	struct acts x;
	read_audit(&s, &x);
	static const char *const want[] = {
		"operator role Anne moderator 0", "Anne mute Bruno spam 1", "Anne unmute Bruno  0",
		"Anne kick Carla rude 0", "Anne kick Carla still rude 0", "Anne ban Bruno insultes 1",
	};
	ck_assert_int_eq(x.n, (int)(sizeof want / sizeof *want));
	for (int i = 0; i < x.n; i++)
		ck_assert_str_eq(x.line[i], want[i]);
	/* An unban lets him in again. */
	tc_send(&a, "{\"type\":\"mod\",\"act\":\"unban\",\"name\":\"Bruno\"}");
	wait_text(&a, "notice", "Bruno");
	tc_free(&b);
	tc_hello(&b, &s, "Bruno", "fr", NULL, token);
	tc_wait(&b, "welcome");
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	srv_stop(&s);
}
END_TEST

/* A moderator cannot act on another moderator who is not connected, nor
 * on one never seen since the server started: the role is the store's. */
START_TEST(test_offline_moderator)
{
	struct srv s;
	srv_make(&s);
	const char *anne[] = { "role", "Anne", "moderator", NULL }, *zed[] = { "role", "Zed", "moderator", NULL };
	put_account(s.db, "Anne", "secret");
	put_account(s.db, "Zed", "pw");
	ck_assert_int_eq(run_admin(s.db, anne), 0);
	ck_assert_int_eq(run_admin(s.db, zed), 0);
	srv_run(&s);
	static struct tc a, z;
	tc_login(&a, &s, "Anne", "en", "secret");
	/* Zed never came. */
	static const char *const acts[] = { "ban", "mute", "kick" };
	for (int i = 0; i < 3; i++) {
		tc_send(&a, "{\"type\":\"mod\",\"act\":\"%s\",\"name\":\"Zed\",\"minutes\":5}", acts[i]);
		error_text(&a, "not_moderator");
	}
	/* Zed came and went. */
	tc_login(&z, &s, "Zed", "en", "pw");
	tc_free(&z);
	tc_send(&a, "{\"type\":\"mod\",\"act\":\"ban\",\"name\":\"Zed\"}");
	error_text(&a, "not_moderator");
	/* Zed logs in again: no ban kept. */
	tc_login(&z, &s, "Zed", "en", "pw");
	struct acts x;
	read_audit(&s, &x);
	for (int i = 0; i < x.n; i++)
		ck_assert_msg(strncmp(x.line[i], "Anne ", 5) != 0, "in the audit: %s", x.line[i]);
	tc_free(&a);
	tc_free(&z);
	srv_stop(&s);
}
END_TEST

/* tapis admin says what it did; a role goes to an account alone (a name
 * nobody holds would make whoever takes it a moderator); a wrong
 * duration is told as such. */
START_TEST(test_admin_says)
{
	char dir[] = "/tmp/tapis-admin-XXXXXX", db[64], out[512];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/server.db", dir);
	const char *zed[] = { "role", "Zed", "moderator", NULL };
	ck_assert_int_eq(run_admin_out(db, zed, out, sizeof out), 1);
	ck_assert_str_eq(out, "");
	struct store st;
	char err[256], role[32];
	ck_assert_msg(store_open(&st, "sqlite", db, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_role_get(&st, "Zed", role, sizeof role), 0);
	store_close(&st);
	put_account(db, "Zed", "pw");
	ck_assert_int_eq(run_admin_out(db, zed, out, sizeof out), 0);
	ck_assert_str_eq(out, "Zed is a moderator\n");
	const char *player[] = { "role", "Zed", "player", NULL };
	ck_assert_int_eq(run_admin_out(db, player, out, sizeof out), 0);
	ck_assert_str_eq(out, "Zed is a player\n");
	const char *unban[] = { "unban", "Zed", NULL };
	ck_assert_int_eq(run_admin_out(db, unban, out, sizeof out), 0);
	ck_assert_str_eq(out, "Zed was not banned\n");
	const char *ban[] = { "ban", "Zed", "--for", "2h", NULL };
	ck_assert_int_eq(run_admin_out(db, ban, out, sizeof out), 0);
	ck_assert_msg(!strncmp(out, "Zed is banned until ", 20), "%s", out);
	ck_assert_int_eq(run_admin_out(db, unban, out, sizeof out), 0);
	ck_assert_str_eq(out, "Zed is no longer banned\n");
	/* --for 2x is a wrong duration, not a missing one. */
	char cmd[256];
	snprintf(cmd, sizeof cmd, "'%s' admin --db '%s' ban Zed --for 2x 2>&1", getenv("TAPIS_BIN"), db);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	ck_assert_int_eq(pclose(p), 2 << 8);
	ck_assert_msg(strstr(out, "--for: '2x' is not a duration") != NULL, "%s", out);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A ban holds for every name that looks like the banned one, and a new
 * name may not look like any account's, whether their people were seen
 * since the server started or not (the store's index of looks); a
 * look-alike here when a ban comes is put out too. */
START_TEST(test_ban_evasion)
{
	struct srv s;
	srv_make(&s);
	struct store st;
	char err[256];
	ck_assert_msg(store_open(&st, "sqlite", s.db, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_account_put(&st, "Paulo", "hash-p"), 0);
	ck_assert_int_eq(store_account_put(&st, "Zed", "hash-z"), 0);
	store_close(&st);
	const char *ban[] = { "ban", "Paulo", "--for", "1h", "--reason", "spam", NULL };
	ck_assert_int_eq(run_admin(s.db, ban), 0);
	srv_run(&s);
	static struct tc t;
	static const char *const evading[] = { "paulo", "P\u00e1ulo", "Pau1o" };
	for (int i = 0; i < 3; i++)
		for (int pw = 0; pw < 2; pw++) {
			tc_hello(&t, &s, evading[i], "en", pw ? "new-secret" : NULL, NULL);
			const char *x = error_text(&t, "banned");
			ck_assert_msg(strstr(x, "spam") != NULL, "%s", x);
			ck_assert_int_eq(count_type_of(&t, "welcome"), 0);
			tc_free(&t);
		}
	static const char *const posing[] = { "ZED", "Z\u00e8d", "z-ed" };
	for (int i = 0; i < 3; i++)
		for (int pw = 0; pw < 2; pw++) {
			tc_hello(&t, &s, posing[i], "en", pw ? "new-secret" : NULL, NULL);
			const char *x = error_text(&t, "name_alike");
			ck_assert_msg(strstr(x, "Zed") != NULL, "%s", x);
			tc_free(&t);
		}
	/* None of them was made an account. */
	ck_assert_msg(store_open(&st, "sqlite", s.db, err, sizeof err) == 0, "%s", err);
	char hash[128];
	ck_assert_int_eq(store_account_get(&st, "P\u00e1ulo", hash, sizeof hash), 0);
	ck_assert_int_eq(store_account_get(&st, "ZED", hash, sizeof hash), 0);
	store_close(&st);
	/* A guest online whose name looks like one banned meanwhile. */
	static struct tc e;
	tc_login(&e, &s, "Eve", "en", NULL);
	const char *ban2[] = { "ban", "EVE", "--for", "1h", "--reason", "flood", NULL };
	ck_assert_int_eq(run_admin(s.db, ban2), 0);
	ck_assert_msg(strstr(error_text(&e, "banned"), "flood") != NULL, "Eve stayed");
	tc_free(&e);
	srv_stop(&s);
}
END_TEST

/* A ban set by the operator while the server runs puts its person out
 * within seconds; the name is refused, saying until when and why, until
 * the ban ends. */
START_TEST(test_admin_ban_ends)
{
	struct srv s;
	srv_start(&s);
	static struct tc d;
	tc_login(&d, &s, "Dora", "en", NULL);
	const char *ban[] = { "ban", "Dora", "--for", "3s", "--reason", "cool down", NULL };
	long long t0 = (long long)time(NULL);
	ck_assert_int_eq(run_admin(s.db, ban), 0);
	const char *t = error_text(&d, "banned");
	ck_assert_msg(strstr(t, "cool down") && strstr(t, "until"), "%s", t);
	tc_free(&d);
	tc_hello(&d, &s, "Dora", "en", NULL, NULL);
	t = error_text(&d, "banned");
	ck_assert_msg(strstr(t, "cool down") != NULL, "%s", t);
	tc_free(&d);
	while ((long long)time(NULL) < t0 + 4)
		usleep(100 * 1000);
	tc_login(&d, &s, "Dora", "en", NULL);
	const char *list[] = { "list", NULL };
	ck_assert_int_eq(run_admin(s.db, list), 0);
	const char *unknown[] = { "promote", "Dora", NULL };
	ck_assert_int_eq(run_admin(s.db, unknown), 2);
	tc_free(&d);
	srv_stop(&s);
}
END_TEST

/* Too many lines at once are refused ("slow down"), then the person is
 * muted for a few minutes. */
START_TEST(test_flood)
{
	struct srv s;
	srv_start(&s);
	static struct tc e, f;
	tc_login(&e, &s, "Eve", "en", NULL);
	tc_login(&f, &s, "Fanny", "en", NULL);
	for (int i = 0; i < MOD_FLOOD_LINES_T; i++)
		tc_send(&e, "{\"type\":\"chat\",\"text\":\"line %d\"}", i);
	for (int i = 0; i < MOD_FLOOD_LINES_T; i++)
		tc_wait(&f, "chat");
	tc_send(&e, "{\"type\":\"chat\",\"text\":\"one more\"}");
	ck_assert_ptr_nonnull(strstr(error_text(&e, "slow_down"), "Slow down"));
	tc_send(&e, "{\"type\":\"chat\",\"text\":\"and more\"}");
	error_text(&e, "slow_down");
	tc_send(&e, "{\"type\":\"chat\",\"text\":\"and more again\"}");
	ck_assert_ptr_nonnull(strstr(error_text(&e, "muted"), "minutes"));
	tc_send(&e, "{\"type\":\"chat\",\"text\":\"hello?\"}");
	error_text(&e, "muted");
	/* Fanny heard the first lines only. */
	netc_service(f.c, 200);
	ck_assert_int_eq(chats_from(&f, "Eve"), MOD_FLOOD_LINES_T);
	tc_free(&e);
	tc_free(&f);
	srv_stop(&s);
}
END_TEST

/* A person mutes another for themselves: in the lobby and at a table;
 * an account keeps it for its next session. */
START_TEST(test_personal_mute)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, c;
	tc_login(&a, &s, "Anne", "en", "pw");
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_login(&c, &s, "Carla", "en", NULL);
	tc_send(&a, "{\"type\":\"mute\",\"name\":\"Bruno\"}");
	wait_text(&a, "notice", "Bruno");
	tc_send(&b, "{\"type\":\"chat\",\"text\":\"from Bruno\"}");
	tc_send(&c, "{\"type\":\"chat\",\"text\":\"from Carla\"}");
	tc_wait(&c, "chat");
	tc_wait(&c, "chat");
	json_t *j = tc_wait(&a, "chat");
	ck_assert_str_eq(json_string_value(json_object_get(j, "from")), "Carla");
	netc_service(a.c, 100);
	ck_assert_int_eq(chats_from(&a, "Bruno"), 0);
	/* At a table too. */
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"open\",\"bot\"]", NULL);
	tc_sit(&b, id, 1);
	tc_sit(&c, id, 2);
	tc_send(&b, "{\"type\":\"chat\",\"table\":%ld,\"text\":\"table Bruno\"}", id);
	tc_send(&c, "{\"type\":\"chat\",\"table\":%ld,\"text\":\"table Carla\"}", id);
	do
		j = tc_wait(&a, "chat");
	while (json_integer_value(json_object_get(j, "table")) != id);
	ck_assert_str_eq(json_string_value(json_object_get(j, "text")), "table Carla");
	netc_service(a.c, 100);
	ck_assert_int_eq(chats_from(&a, "Bruno"), 0);
	/* Anne's account remembers; what she missed at the table while away
	 * leaves Bruno out too. */
	tc_free(&a);
	tc_send(&b, "{\"type\":\"chat\",\"table\":%ld,\"text\":\"away Bruno\"}", id);
	tc_send(&c, "{\"type\":\"chat\",\"table\":%ld,\"text\":\"away Carla\"}", id);
	do
		j = tc_wait(&b, "chat");
	while (strcmp(json_string_value(json_object_get(j, "text")), "away Carla") != 0);
	tc_login(&a, &s, "Anne", "en", "pw");
	json_t *missed = json_object_get(tc_wait(&a, "missed"), "says");
	int carla = 0;
	for (size_t i = 0; i < json_array_size(missed); i++) {
		const char *from = json_string_value(json_object_get(json_array_get(missed, i), "from"));
		ck_assert_msg(!from || strcmp(from, "Bruno") != 0, "Bruno's chat in what Anne missed");
		carla += from && !strcmp(from, "Carla");
	}
	ck_assert_int_eq(carla, 1);
	tc_send(&b, "{\"type\":\"chat\",\"text\":\"again Bruno\"}");
	tc_send(&c, "{\"type\":\"chat\",\"text\":\"again Carla\"}");
	j = tc_wait(&a, "chat");
	ck_assert_str_eq(json_string_value(json_object_get(j, "text")), "again Carla");
	ck_assert_int_eq(chats_from(&a, "Bruno"), 0);
	/* Heard again once unmuted. */
	tc_send(&a, "{\"type\":\"mute\",\"name\":\"Bruno\",\"on\":false}");
	wait_text(&a, "notice", "Bruno");
	tc_send(&b, "{\"type\":\"chat\",\"text\":\"at last\"}");
	j = tc_wait(&a, "chat");
	ck_assert_str_eq(json_string_value(json_object_get(j, "text")), "at last");
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	srv_stop(&s);
}
END_TEST

/* An invitation lets its person into a private table without its code;
 * they hear it in their language; the code still works. */
START_TEST(test_invitation)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, c;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	tc_login(&c, &s, "Carla", "en", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"open\",\"bot\"]",
	                    ",\"private\":true,\"password\":\"door\"");
	tc_send(&b, "{\"type\":\"sit\",\"table\":%ld}", id);
	error_text(&b, "password");
	tc_send(&a, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Nobody\"}", id);
	error_text(&a, "no_user");
	tc_send(&c, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Bruno\"}", id);
	error_text(&c, "not_member");
	tc_send(&a, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Bruno\"}", id);
	json_t *inv = tc_wait(&b, "invited");
	ck_assert_int_eq(json_integer_value(json_object_get(inv, "table")), id);
	ck_assert_str_eq(json_string_value(json_object_get(inv, "from")), "Anne");
	ck_assert_str_eq(json_string_value(json_object_get(inv, "game")), "brouc");
	const char *t = json_string_value(json_object_get(inv, "text"));
	ck_assert_msg(strstr(t, "Anne") && strstr(t, "invite"), "%s", t);
	ck_assert_msg(strstr(t, "vous") != NULL, "not French: %s", t);
	wait_text(&a, "notice", "Bruno");
	tc_send(&b, "{\"type\":\"sit\",\"table\":%ld}", id);
	json_t *jn = tc_wait(&b, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(jn, "table")), id);
	/* Not invited: the code. */
	tc_send(&c, "{\"type\":\"watch\",\"table\":%ld}", id);
	error_text(&c, "password");
	tc_send(&c, "{\"type\":\"watch\",\"table\":%ld,\"password\":\"door\"}", id);
	tc_wait(&c, "joined");
	/* Someone already there is not invited again. */
	tc_send(&a, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Bruno\"}", id);
	error_text(&a, "already");
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	srv_stop(&s);
}
END_TEST

/* An invitation is its person's: a guest invited who left, back with her
 * token, enters; someone else who took the name of another who left does
 * not, without the table's password. */
START_TEST(test_invitation_is_the_person)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, c;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_login(&c, &s, "Carla", "en", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"open\",\"bot\"]",
	                    ",\"private\":true,\"password\":\"door\"");
	tc_send(&a, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Bruno\"}", id);
	tc_wait(&b, "invited");
	wait_text(&a, "notice", "Bruno");
	tc_send(&a, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Carla\"}", id);
	tc_wait(&c, "invited");
	wait_text(&a, "notice", "Carla");
	/* Both leave, Carla keeping a seat at another table (a guest who
	 * holds none is forgotten, her name free again); she comes back
	 * with her token and enters. */
	long other = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"open\",\"bot\"]", NULL);
	tc_sit(&c, other, 1);
	char token[40];
	snprintf(token, sizeof token, "%s", c.token);
	tc_free(&b);
	tc_free(&c);
	tc_hello(&c, &s, "Carla", "en", NULL, token);
	tc_wait(&c, "welcome");
	tc_send(&c, "{\"type\":\"sit\",\"table\":%ld}", id);
	json_t *jn;
	do /* back at her seat of the other table first */
		jn = tc_wait(&c, "joined");
	while (json_integer_value(json_object_get(jn, "table")) != id);
	/* A stranger takes Bruno's name: not invited. */
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_send(&b, "{\"type\":\"sit\",\"table\":%ld}", id);
	error_text(&b, "password");
	ck_assert_int_eq(count_type_of(&b, "joined"), 0);
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	srv_stop(&s);
}
END_TEST

/* Invitations a person sends are few at a time: 40 at once (under the
 * connection's own message rate) make MOD_ASKS heard, the rest refused
 * ("slow down"); a person who muted the one inviting hears none. */
START_TEST(test_invitation_flood)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b, c;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "en", NULL);
	tc_login(&c, &s, "Carla", "en", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"open\",\"open\",\"bot\"]", NULL);
	for (int i = 0; i < 40; i++)
		tc_send(&a, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Bruno\"}", id);
	for (int i = 0; i < 40 - MOD_ASKS; i++)
		error_text(&a, "slow_down");
	/* Anne's ping answered: everything before it reached Bruno. */
	tc_send(&a, "{\"type\":\"ping\"}");
	tc_wait(&a, "pong");
	netc_service(b.c, 300);
	ck_assert_int_eq(count_type_of(&b, "invited"), MOD_ASKS);
	/* Carla muted Bruno: his invitation is not said to her. */
	tc_sit(&b, id, 1);
	tc_send(&c, "{\"type\":\"mute\",\"name\":\"Bruno\"}");
	wait_text(&c, "notice", "Bruno");
	tc_send(&b, "{\"type\":\"invite\",\"table\":%ld,\"name\":\"Carla\"}", id);
	wait_text(&b, "notice", "Carla");
	tc_send(&c, "{\"type\":\"ping\"}");
	tc_wait(&c, "pong");
	netc_service(c.c, 300);
	ck_assert_int_eq(count_type_of(&c, "invited"), 0);
	tc_free(&a);
	tc_free(&b);
	tc_free(&c);
	srv_stop(&s);
}
END_TEST

/* At a game's end its players are offered a rematch; when every one says
 * yes the table starts again: same options, the seats one place on (bots
 * with them), a new deal. */
START_TEST(test_rematch)
{
	struct srv s;
	srv_start(&s);
	static struct tc a, b;
	tc_login(&a, &s, "Anne", "en", NULL);
	tc_login(&b, &s, "Bruno", "fr", NULL);
	long id = tc_create(&a, "brouc", 4, "[\"open\",\"bot:1\",\"open\",\"bot:3\"]", ",\"rules\":{\"hands\":1}");
	a.seat = 0;
	tc_sit(&b, id, 2);
	tc_send(&a, "{\"type\":\"rematch\",\"table\":%ld}", id);
	error_text(&a, "not_over");
	tc_send(&a, "{\"type\":\"start\",\"table\":%ld}", id);
	struct tc *all[] = { &a, &b };
	play_until(all, 2, NULL, NULL);
	json_t *r = tc_wait(&a, "rematch");
	ck_assert_int_eq(json_integer_value(json_object_get(r, "table")), id);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(r, "text")), "rematch"));
	tc_wait(&b, "rematch");
	int joined_before = count_type_of(&a, "joined");
	tc_send(&a, "{\"type\":\"rematch\",\"table\":%ld}", id);
	wait_text(&b, "notice", "Anne");
	wait_text(&a, "notice", "Rematch");
	ck_assert_int_eq(count_type_of(&a, "joined"), joined_before);
	/* Asked again and again: Bruno hears it once; past MOD_ASKS at once,
	 * Anne is told to slow down. */
	for (int i = 0; i < 40; i++)
		tc_send(&a, "{\"type\":\"rematch\",\"table\":%ld}", id);
	for (int i = 0; i < 40 - (MOD_ASKS - 1); i++)
		error_text(&a, "slow_down");
	tc_send(&a, "{\"type\":\"ping\"}");
	tc_wait(&a, "pong");
	netc_service(b.c, 300);
	int heard = 0;
	for (int i = 0; i < b.n; i++) {
		const char *x = json_string_value(json_object_get(b.msg[i], "text"));
		heard += !strcmp(mtype(b.msg[i]), "notice") && x && strstr(x, "Anne");
	}
	ck_assert_int_eq(heard, 1);
	tc_send(&b, "{\"type\":\"rematch\",\"table\":%ld}", id);
	json_t *ja = tc_wait(&a, "joined"), *jb = tc_wait(&b, "joined");
	ck_assert_int_eq(json_integer_value(json_object_get(ja, "table")), id);
	ck_assert_int_eq(json_integer_value(json_object_get(ja, "seat")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(jb, "seat")), 3);
	json_t *seats = json_object_get(json_object_get(jb, "info"), "seats");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 1), "name")), "Anne");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 3), "name")), "Bruno");
	/* The bots moved with their seats, each of its level. */
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(seats, 2), "level")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(seats, 0), "level")), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(jb, "info"), "game")), "brouc");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(jb, "info"), "rules"),
	                                                   "hands")), "1");
	/* A new game, played to its end again. */
	a.seat = 1;
	b.seat = 3;
	a.over = b.over = 0;
	a.acted_seq = b.acted_seq = -1;
	catch_up(&a);
	catch_up(&b);
	ck_assert_ptr_nonnull(a.state);
	ck_assert_str_eq(json_string_value(json_object_get(a.state, "state")), "playing");
	play_until(all, 2, NULL, NULL);
	tc_free(&a);
	tc_free(&b);
	srv_stop(&s);
}
END_TEST

/* A moderator's message whose name or reason holds a control character
 * (an escape sequence for the operator's terminal) is refused as it comes;
 * one without is read. */
START_TEST(test_mod_controls_refused)
{
	static const char *const bad[] = {
		"{\"type\":\"mod\",\"act\":\"ban\",\"name\":\"Eve\\u001b[2J\"}",
		"{\"type\":\"mod\",\"act\":\"mute\",\"name\":\"Eve\",\"reason\":\"x\\u001b]0;owned\\u0007\"}",
		"{\"type\":\"mod\",\"act\":\"kick\",\"name\":\"Eve\",\"reason\":\"one\\nline\"}",
		"{\"type\":\"mod\",\"act\":\"mute\",\"name\":\"Eve\",\"reason\":\"\\u202egnorw\"}",
		"{\"type\":\"mute\",\"name\":\"Eve\\u009b31m\"}",
		"{\"type\":\"invite\",\"table\":3,\"name\":\"Eve\\u0008\\u0008\"}",
	};
	const struct i18n_lang *L = i18n_of("en");
	struct req m;
	char err[256];
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		ck_assert_msg(req_read(bad[i], strlen(bad[i]), &m, L, err, sizeof err) == -1, "read: %s", bad[i]);
		ck_assert_msg(strstr(err, "control or invisible character") != NULL, "%s", err);
	}
	const char *good = "{\"type\":\"mod\",\"act\":\"ban\",\"name\":\"Eve\",\"reason\":\"rude, again\"}";
	ck_assert_msg(req_read(good, strlen(good), &m, L, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(m.name, "Eve");
	ck_assert_str_eq(m.text, "rude, again");
}
END_TEST

/* `tapis admin list` prints what the store holds (put there by anyone who
 * reached it) without a control character: no escape reaches the
 * operator's terminal; the words are kept. */
START_TEST(test_admin_list_clean)
{
	char dir[] = "/tmp/tapis-modlist-XXXXXX", db[64], err[256];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/server.db", dir);
	struct store st;
	ck_assert_msg(store_open(&st, "sqlite", db, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_role_put(&st, "Mo\x1b[8m", "moderator"), 0);
	struct store_ban b;
	memset(&b, 0, sizeof b);
	snprintf(b.name, sizeof b.name, "Eve\x1b[2J");
	b.until = (long long)time(NULL) + 3600;
	snprintf(b.reason, sizeof b.reason, "spam\x1b]0;owned\x07\r\x1b[Kaudit fine");
	snprintf(b.by, sizeof b.by, "Mo\xc2\x9b" "1A");
	ck_assert_int_eq(store_ban_put(&st, &b), 0);
	struct store_audit a;
	memset(&a, 0, sizeof a);
	a.when = (long long)time(NULL);
	snprintf(a.who, sizeof a.who, "Mo\x1b[8m");
	snprintf(a.what, sizeof a.what, "ban");
	snprintf(a.whom, sizeof a.whom, "Eve\x1b[1A\x1b[2K");
	snprintf(a.reason, sizeof a.reason, "\xe2\x80\xae" "evil\x7f");
	ck_assert_int_eq(store_audit_add(&st, &a), 0);
	store_close(&st);
	const char *bin = getenv("TAPIS_BIN");
	ck_assert_msg(bin != NULL, "TAPIS_BIN is not set");
	char cmd[300];
	snprintf(cmd, sizeof cmd, "'%s' admin --db '%s' list", bin, db);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	char out[8192];
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	ck_assert_int_eq(pclose(p), 0);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];
		ck_assert_msg(c == '\n' || (c >= 0x20 && c != 0x7f), "byte 0x%02x at %zu in: %s", c, i, out);
		ck_assert_msg(!(c == 0xc2 && i + 1 < n && (unsigned char)out[i + 1] >= 0x80 &&
		                (unsigned char)out[i + 1] <= 0x9f), "a C1 control in: %s", out);
		ck_assert_msg(!(c == 0xe2 && i + 2 < n && (unsigned char)out[i + 1] == 0x80 &&
		                (unsigned char)out[i + 2] == 0xae), "a bidi override in: %s", out);
	}
	ck_assert_msg(strstr(out, "role Mo[8m moderator") && strstr(out, "ban Eve[2J until") &&
	              strstr(out, "audit fine") && strstr(out, "evil"), "%s", out);
	/* The operator's own reason may not carry one either. */
	const char *ban[] = { "ban", "Eve", "--for", "1h", "--reason", "x\x1b[2J", NULL };
	ck_assert_int_eq(run_admin(db, ban), 2);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* tapis join's side: notices and invitations are said, a rematch offer
 * kept for the R key until the table starts again; a ban ends the tries to
 * come back. */
struct heard {
	int n;
	struct view_say say[8];
};

static void heard_say(void *ctx, const struct view_say *m)
{
	struct heard *h = ctx;
	if (h->n < 8)
		h->say[h->n++] = *m;
}

static void feed(struct remote *r, const char *text)
{
	remote_message(r, text, strlen(text));
}

START_TEST(test_remote_messages)
{
	struct heard h;
	memset(&h, 0, sizeof h);
	struct remote r;
	memset(&r, 0, sizeof r);
	r.sink = (struct view_sink){ heard_say, NULL, &h };
	r.sent_moves = -1;
	snprintf(r.lang, sizeof r.lang, "en");
	feed(&r, "{\"type\":\"invited\",\"table\":7,\"from\":\"Ann\",\"game\":\"brouc\",\"private\":true,"
	         "\"text\":\"Ann invites you to table 7, Le Brouc.\"}");
	ck_assert_int_eq(r.invited, 7);
	ck_assert_int_eq(h.n, 1);
	ck_assert_str_eq(h.say[0].text, "Ann invites you to table 7, Le Brouc.");
	feed(&r, "{\"type\":\"joined\",\"table\":4,\"seat\":1,\"info\":{\"id\":4,\"game\":\"brouc\",\"players\":4}}");
	feed(&r, "{\"type\":\"rematch\",\"table\":4,\"text\":\"A rematch? Same players, same options.\"}");
	ck_assert_int_eq(r.rematch, 4);
	ck_assert_str_eq(h.say[1].text, "A rematch? Same players, same options.");
	feed(&r, "{\"type\":\"notice\",\"table\":4,\"text\":\"Bob wants a rematch.\"}");
	ck_assert_str_eq(h.say[2].text, "Bob wants a rematch.");
	/* The table started again: no offer left. */
	feed(&r, "{\"type\":\"joined\",\"table\":4,\"seat\":2,\"info\":{\"id\":4,\"game\":\"brouc\",\"players\":4}}");
	ck_assert_int_eq(r.rematch, 0);
	ck_assert_int_eq(r.vs.seat, 2);
	ck_assert_int_eq(r.replaced, 0);
	feed(&r, "{\"type\":\"error\",\"code\":\"banned\",\"message\":\"You are banned.\"}");
	ck_assert_int_eq(r.replaced, 1);
	remote_close(&r);
}
END_TEST

Suite *moderation_suite(void);
Suite *moderation_suite(void)
{
	Suite *s = suite_create("moderation");
	TCase *tc = tcase_create("units");
	tcase_add_test(tc, test_reserved_names);
	tcase_add_test(tc, test_admin_durations);
	tcase_add_test(tc, test_remote_messages);
	tcase_add_test(tc, test_mod_controls_refused);
	tcase_add_test(tc, test_admin_list_clean);
	suite_add_tcase(s, tc);
	tc = tcase_create("server");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_admin_says);
	tcase_add_test(tc, test_moderator_acts);
	tcase_add_test(tc, test_admin_ban_ends);
	tcase_add_test(tc, test_offline_moderator);
	tcase_add_test(tc, test_ban_evasion);
	tcase_add_test(tc, test_flood);
	tcase_add_test(tc, test_personal_mute);
	tcase_add_test(tc, test_invitation);
	tcase_add_test(tc, test_invitation_is_the_person);
	tcase_add_test(tc, test_invitation_flood);
	tcase_add_test(tc, test_rematch);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	alarm(300);
	return tu_run(moderation_suite());
}
