/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tapis join: the server's messages turned into what play and the sink
 * take (no server); then a server in a child process (a free loopback port,
 * a temporary store, bots without delay) and `tapis join --text` clients in
 * child processes, their keys from a pipe and their words in a file: a whole
 * game against bots in the server's phrasing, two players in two languages
 * at one table with chat, a server killed and started again under a client
 * that announces the loss and the return and plays on, a whole game played
 * again from an --actions file (same seed, same words), a scripted action
 * refused, and bench --net at a small size (no timing asserted). */
#include <check.h>
#include <jansson.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "net/client/bench_net.h"
#include "audio/audio.h"
#include "net/client/remote.h"
#include "net/client/resume.h"
#include "core/deckfile.h"
#include "core/termtext.h"
#include "speech/speech.h"
#include "speech/speech_backends.h"
#include "net/server/server.h"
#include "net/store/store.h"
#include "ui/join.h"
#include "testutil.h"

struct srv {
	pid_t pid;
	int port;
	char dir[64], db[128], logs[128], url[64];
};

static void ready(void *ctx, int port)
{
	int fd = *(int *)ctx;
	if (write(fd, &port, sizeof port) != sizeof port)
		_exit(1);
	close(fd);
}

/* The servers' --close-minutes, in ms (0: the default). */
static long long srv_close_ms;
/* And their keep_ms (0: the default). */
static long long srv_keep_ms;
/* The bots' pause before a move (0: none, the tests' default). */
static long long srv_bot_delay_ms;

/* Start the server on s->port (0: a free one). */
static void srv_run(struct srv *s)
{
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	fflush(NULL); /* the server ends with exit(): nothing of ours twice */
	s->pid = fork();
	ck_assert_int_ge(s->pid, 0);
	if (s->pid == 0) {
		close(fds[0]);
		struct server_options o;
		server_options_default(&o);
		o.port = s->port;
		o.db = s->db;
		o.log_dir = s->logs;
		o.grace_ms = 60000;
		o.bot_delay_ms = srv_bot_delay_ms;
		o.cheap_hash = 1;
		o.quiet = 1;
		if (srv_close_ms)
			o.close_ms = srv_close_ms;
		if (srv_keep_ms)
			o.keep_ms = srv_keep_ms;
		o.on_ready = ready;
		o.ready_ctx = &fds[1];
		char err[256];
		alarm(60); /* never outlive the test */
		/* exit, not _exit: a coverage build (make coverage) writes what
		 * the server ran. */
		exit(server_run(&o, err, sizeof err) == 0 ? 0 : 1);
	}
	close(fds[1]);
	int port = 0;
	ck_assert_int_eq(read(fds[0], &port, sizeof port), (int)sizeof port);
	close(fds[0]);
	s->port = port;
	snprintf(s->url, sizeof s->url, "ws://127.0.0.1:%d", port);
}

static void srv_start(struct srv *s)
{
	memset(s, 0, sizeof *s);
	snprintf(s->dir, sizeof s->dir, "/tmp/tapis-join-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(s->dir));
	snprintf(s->db, sizeof s->db, "%s/server.db", s->dir);
	snprintf(s->logs, sizeof s->logs, "%s/logs", s->dir);
	ck_assert_int_eq(mkdir(s->logs, 0700), 0);
	srv_run(s);
}

static void srv_stop(struct srv *s)
{
	kill(s->pid, SIGTERM);
	waitpid(s->pid, NULL, 0);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* ---- clients ---- */

struct cli {
	pid_t pid;
	int keys;          /* the write end of its standard input */
	char out[160];     /* its standard output */
};

/* Run `tapis join ARGS...` (NULL-terminated) in a child. */
static void cli_start(struct cli *c, const struct srv *s, const char *tag, const char *const *args)
{
	snprintf(c->out, sizeof c->out, "%s/%s.txt", s->dir, tag);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	fflush(NULL); /* the child exits through exit(): nothing of ours to write twice */
	c->pid = fork();
	ck_assert_int_ge(c->pid, 0);
	if (c->pid == 0) {
		close(fds[1]);
		dup2(fds[0], 0);
		close(fds[0]);
		int fd = open(c->out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 1);
		close(fd);
		const char *argv[40] = { "join", s->url };
		int n = 2;
		for (; args[n - 2] && n < 39; n++)
			argv[n] = args[n - 2];
		argv[n] = NULL;
		alarm(50);
		/* exit, not _exit: what the client ran is counted by `make coverage`. */
		exit(join_main(n, (char **)argv));
	}
	close(fds[0]);
	c->keys = fds[1];
}

/* Give the client n presses of Enter (one more choice each), then the end
 * of its input. */
static void cli_enter(struct cli *c, int n)
{
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(write(c->keys, "\n", 1), 1);
	close(c->keys);
	c->keys = -1;
}

static int cli_wait(struct cli *c)
{
	int status = 0;
	ck_assert_int_eq(waitpid(c->pid, &status, 0), c->pid);
	if (c->keys >= 0)
		close(c->keys);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *cli_text(const struct cli *c)
{
	char err[256];
	char *t = deckfile_slurp(c->out, err, sizeof err);
	ck_assert_msg(t != NULL, "%s", err);
	return t;
}

/* Wait (up to 20 s) until the client's words hold needle. */
static void cli_await(const struct cli *c, const char *needle)
{
	char *t = NULL;
	for (int i = 0; i < 2000; i++) {
		char err[256];
		free(t);
		t = deckfile_slurp(c->out, err, sizeof err);
		if (t && strstr(t, needle)) {
			free(t);
			return;
		}
		struct timespec ts = { 0, 10000000 };
		nanosleep(&ts, NULL);
	}
	ck_abort_msg("'%s' never came to %s:\n%s", needle, c->out, t ? t : "");
}

/* A whole game of La Bouillabaisse against three bots, every choice made
 * with Enter: the words are the server's, in English. */
START_TEST(test_whole_game)
{
	struct srv s;
	srv_start(&s);
	struct cli c;
	const char *args[] = { "--name", "Ann", "--text", "--create", "bouillabaisse", "--rule", "hands=1", "--start",
	                       NULL };
	cli_start(&c, &s, "ann", args);
	cli_enter(&c, 200);
	ck_assert_int_eq(cli_wait(&c), 0);
	char *t = cli_text(&c);
	ck_assert_msg(strstr(t, "La Bouillabaisse, 4 players."), "%s", t);
	ck_assert_msg(strstr(t, "Your turn."), "%s", t);
	ck_assert_msg(strstr(t, "You play the "), "%s", t);
	ck_assert_msg(strstr(t, "End of round 1."), "%s", t);
	ck_assert_msg(strstr(t, "Game over."), "%s", t);
	free(t);
	srv_stop(&s);
}
END_TEST

/* Two players, in English and in French, at one table; each hears the game
 * in their language, and the chat of the other. */
START_TEST(test_two_languages_and_chat)
{
	struct srv s;
	srv_start(&s);
	struct cli a, b;
	const char *aa[] = { "--name", "Ann", "--text", "--create", "bouillabaisse", "--players", "3", "--seats",
	                     "open,open,bot", "--rule", "hands=1", "--start", "--chat", "hello from Ann", NULL };
	cli_start(&a, &s, "ann", aa);
	cli_await(&a, "Your turn.");
	const char *bb[] = { "--name", "Bea", "--lang", "fr", "--text", "--table", "1", "--seat", "2",
	                     "--chat", "bonjour de Bea", NULL };
	cli_start(&b, &s, "bea", bb);
	cli_await(&b, "Bea : bonjour de Bea");
	cli_await(&a, "Bea: bonjour de Bea");
	cli_enter(&b, 200);
	cli_enter(&a, 200);
	ck_assert_int_eq(cli_wait(&a), 0);
	ck_assert_int_eq(cli_wait(&b), 0);
	char *ta = cli_text(&a), *tb = cli_text(&b);
	ck_assert_msg(strstr(ta, "Ann: hello from Ann"), "%s", ta);
	ck_assert_msg(strstr(ta, "Bea sits down."), "%s", ta);
	ck_assert_msg(strstr(ta, "Game over."), "%s", ta);
	ck_assert_msg(strstr(tb, "À vous."), "%s", tb);
	ck_assert_msg(strstr(tb, "Vous jouez "), "%s", tb);
	ck_assert_msg(strstr(tb, "Partie terminée."), "%s", tb);
	ck_assert_msg(!strstr(tb, "Your turn."), "%s", tb);
	free(ta);
	free(tb);
	srv_stop(&s);
}
END_TEST

/* The server killed under a client and started again from its store: the
 * client says the connection was lost, comes back by itself to its seat,
 * says so, and plays the game to its end. */
START_TEST(test_reconnect)
{
	struct srv s;
	srv_start(&s);
	struct cli c;
	const char *args[] = { "--name", "Cy", "--text", "--create", "bouillabaisse", "--rule", "hands=1", "--start",
	                       NULL };
	cli_start(&c, &s, "cy", args);
	cli_await(&c, "Your turn.");
	kill(s.pid, SIGKILL);
	waitpid(s.pid, NULL, 0);
	cli_await(&c, "Connection lost.");
	srv_run(&s); /* the same port, the same store */
	cli_await(&c, "Connection regained.");
	cli_enter(&c, 200);
	ck_assert_int_eq(cli_wait(&c), 0);
	char *t = cli_text(&c);
	ck_assert_msg(strstr(t, "You are back at table 1."), "%s", t);
	ck_assert_msg(!strstr(t, "Cy is back."), "%s", t);
	ck_assert_msg(strstr(strstr(t, "Connection regained."), "You play the "), "%s", t);
	/* Back at the table: where the game stands, under its heading. */
	ck_assert_msg(strstr(strstr(t, "Connection regained."), "While you were away:"), "%s", t);
	ck_assert_msg(strstr(t, "Game over."), "%s", t);
	free(t);
	srv_stop(&s);
}
END_TEST

/* Remove the lines that begin with prefix. */
static void strip_lines(char *t, const char *prefix)
{
	char *w = t;
	for (char *r = t; *r;) {
		char *end = strchr(r, '\n');
		size_t len = end ? (size_t)(end - r + 1) : strlen(r);
		if (strncmp(r, prefix, strlen(prefix)) != 0) {
			memmove(w, r, len);
			w += len;
		}
		r += len;
	}
	*w = '\0';
}

/* A whole game scripted: a game played with the keys at a table of a
 * given seed; the moves of the player's seat taken from the table's hand
 * history make an --actions file; the same seed and that file play the
 * same game again, told in the same words, without a key. */
START_TEST(test_actions_whole_game)
{
	struct srv s;
	srv_start(&s);
	struct cli c1, c2;
	const char *a1[] = { "--name", "Ann", "--text", "--create", "bouillabaisse", "--rule", "hands=1", "--seed", "77",
	                     "--start", NULL };
	cli_start(&c1, &s, "keys", a1);
	cli_enter(&c1, 200);
	ck_assert_int_eq(cli_wait(&c1), 0);
	char path[160], script[160];
	snprintf(path, sizeof path, "%s/1.jsonl", s.logs);
	snprintf(script, sizeof script, "%s/actions", s.dir);
	FILE *in = fopen(path, "r"), *out = fopen(script, "w");
	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	char line[4096];
	int n = 0;
	while (fgets(line, sizeof line, in)) {
		json_t *e = json_loads(line, 0, NULL);
		if (e && !strcmp(json_string_value(json_object_get(e, "type")) ? json_string_value(json_object_get(e, "type")) : "", "action") &&
		    json_integer_value(json_object_get(e, "seat")) == 0) {
			fprintf(out, "0 %s %s\n", json_string_value(json_object_get(e, "action")),
			        json_string_value(json_object_get(e, "card")));
			n++;
		}
		json_decref(e);
	}
	fclose(in);
	fclose(out);
	ck_assert_int_ge(n, 10);
	const char *a2[] = { "--name", "Bob", "--text", "--create", "bouillabaisse", "--rule", "hands=1", "--seed", "77",
	                     "--start", "--actions", script, NULL };
	cli_start(&c2, &s, "script", a2);
	cli_enter(&c2, 0);
	ck_assert_int_eq(cli_wait(&c2), 0);
	char *t1 = cli_text(&c1), *t2 = cli_text(&c2);
	ck_assert_msg(strstr(t2, "Game over."), "%s", t2);
	/* The keys' own answers ("Selected: ...") are not the game's. */
	strip_lines(t1, "Selected: ");
	strip_lines(t2, "Selected: ");
	/* Each at its own table: the sit said with its number. */
	strip_lines(t1, "You sit at table ");
	strip_lines(t2, "You sit at table ");
	/* Where they part, if they do (short: Check's messages are bounded). */
	size_t k = 0;
	while (t1[k] && t1[k] == t2[k])
		k++;
	ck_assert_msg(t1[k] == t2[k], "the scripted game differs at byte %zu: '%.80s' / '%.80s'", k, t1 + k, t2 + k);
	free(t1);
	free(t2);
	srv_stop(&s);
}
END_TEST

/* --actions: the seat's lines are sent at its turns; one the server
 * refuses ends the client with status 3. */
START_TEST(test_actions_refused)
{
	struct srv s;
	srv_start(&s);
	char path[128];
	snprintf(path, sizeof path, "%s/actions", s.dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# Ann leads\n0 raise 7\n", f);
	fclose(f);
	struct cli c;
	const char *args[] = { "--name", "Ann", "--text", "--create", "bouillabaisse", "--seats", "open,bot,bot",
	                       "--players", "3", "--start", "--actions", path, NULL };
	cli_start(&c, &s, "ann", args);
	ck_assert_int_eq(cli_wait(&c), 3);
	srv_stop(&s);
}
END_TEST

/* The server's messages as play and the sink take them: a chat line with
 * its own cue, a state with the answers, the hand and the choices. */
struct heard {
	struct view_say say[8];
	int n, updates;
};

static void heard_say(void *ctx, const struct view_say *m)
{
	struct heard *h = ctx;
	if (h->n < 8)
		h->say[h->n++] = *m;
}

static void heard_update(void *ctx, const struct view_state *vs)
{
	(void)vs;
	((struct heard *)ctx)->updates++;
}

static void feed(struct remote *r, const char *text)
{
	remote_message(r, text, strlen(text));
}

/* tapis join's copy of the lobby's list: a snapshot, then its changes
 * applied (tables made, changed, gone; people in, out); a change whose
 * number is not the next leaves the copy as it was (a snapshot is asked
 * for again); the table one sits at stays known across a page that lacks
 * it, and so does a table one is invited to. */
START_TEST(test_remote_lobby_delta)
{
	struct remote r;
	memset(&r, 0, sizeof r);
	r.sent_moves = -1;
	snprintf(r.lang, sizeof r.lang, "en");
	feed(&r, "{\"type\":\"lobby\",\"seq\":1,\"users\":[{\"name\":\"Ann\"},{\"name\":\"Bea\"}],"
	         "\"tables\":[{\"id\":1,\"game\":\"brelan\",\"players\":4},{\"id\":2,\"game\":\"brouc\",\"players\":4}]}");
	int seen = r.lobby_seen;
	feed(&r, "{\"type\":\"lobby_delta\",\"seq\":2,\"online\":2,\"tables\":[{\"id\":2,\"game\":\"brouc\",\"players\":3},"
	         "{\"id\":5,\"game\":\"bourre\",\"players\":5}],\"gone\":[1],\"in\":[{\"name\":\"Cy\"}],\"out\":[\"Ann\"]}");
	ck_assert_int_gt(r.lobby_seen, seen);
	json_t *tables = json_object_get(r.lobby, "tables"), *users = json_object_get(r.lobby, "users");
	ck_assert_int_eq(json_array_size(tables), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(remote_table(&r, 2), "players")), 3);
	ck_assert_ptr_nonnull(remote_table(&r, 5));
	ck_assert_ptr_null(remote_table(&r, 1));
	ck_assert_int_eq(json_array_size(users), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(users, 0), "name")), "Bea");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(users, 1), "name")), "Cy");
	/* One missed: nothing applied. */
	feed(&r, "{\"type\":\"lobby_delta\",\"seq\":4,\"gone\":[2]}");
	ck_assert_ptr_nonnull(remote_table(&r, 2));
	/* At table 5: a page without it keeps it. */
	feed(&r, "{\"type\":\"joined\",\"table\":5,\"seat\":1,\"info\":{\"id\":5,\"game\":\"bourre\",\"players\":5}}");
	feed(&r, "{\"type\":\"lobby\",\"seq\":7,\"users\":[],\"tables\":[{\"id\":9,\"game\":\"brelan\",\"players\":4}]}");
	ck_assert_ptr_nonnull(remote_table(&r, 9));
	ck_assert_ptr_nonnull(remote_table(&r, 5));
	/* Invited to a table on no page held: its entry comes with it. */
	feed(&r, "{\"type\":\"invited\",\"table\":77,\"from\":\"Bea\",\"text\":\"Bea invites you.\","
	         "\"info\":{\"id\":77,\"game\":\"brouc\",\"players\":4}}");
	ck_assert_int_eq(r.invited, 77);
	ck_assert_ptr_nonnull(remote_table(&r, 77));
	remote_close(&r);
}
END_TEST

/* A hostile server's strings reach the player as printable text only: no
 * escape sequence (title, clear screen, colours), no C1 control, no bidi
 * override, no invisible character, no line broken in two; invalid UTF-8
 * becomes U+FFFD. Through remote (chat, say, errors, the lobby's names)
 * and through the text speech backend. */
START_TEST(test_hostile_server_text)
{
	struct heard h;
	memset(&h, 0, sizeof h);
	struct remote r;
	memset(&r, 0, sizeof r);
	r.sink = (struct view_sink){ heard_say, heard_update, &h };
	r.sent_moves = -1;
	snprintf(r.lang, sizeof r.lang, "en");
	feed(&r, "{\"type\":\"joined\",\"table\":4,\"seat\":1,\"info\":{\"id\":4,\"game\":\"brelan\",\"players\":3}}");
	feed(&r, "{\"type\":\"chat\",\"table\":4,\"from\":\"E\\u001b]0;pwned\\u0007ve\","
	         "\"text\":\"\\u001b[2J\\u001b[31mred\\u009b1m \\u202eevil\\u2066 a\\u200bb\\u2028c\\nd\\u007f\"}");
	ck_assert_int_eq(h.n, 1);
	ck_assert_str_eq(h.say[0].text, "E]0;pwnedve: [2J[31mred1m evil ab c d");
	feed(&r, "{\"type\":\"say\",\"table\":4,\"text\":\"Bea \\u001bc\\u00ad\\ufeffraises.\"}");
	ck_assert_str_eq(h.say[1].text, "Bea craises.");
	feed(&r, "{\"type\":\"error\",\"code\":\"x\",\"message\":\"no\\u001b[H\\u001b[2J\\r\"}");
	ck_assert_str_eq(r.error, "no[H[2J ");
	ck_assert_str_eq(h.say[2].text, "no[H[2J ");
	/* Emoji, accents and other scripts come through whole. */
	feed(&r, "{\"type\":\"chat\",\"from\":\"Zo\\u00eb\",\"text\":\"\\u2764\\ufe0f \\ud83d\\udc68\\u200d\\ud83d\\udc69 \\u0416\"}");
	ck_assert_str_eq(h.say[3].text, "Zo\u00eb: \u2764\ufe0f \U0001F468\u200d\U0001F469 \u0416");
	/* The lobby's names, which menus read. */
	feed(&r, "{\"type\":\"lobby\",\"users\":[{\"name\":\"A\\u001b[8mnn\"}],\"tables\":[]}");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(r.lobby, "users"), 0), "name")),
	                 "A[8mnn");
	remote_close(&r);
	/* Invalid UTF-8 (a server need not send JSON's kind of text to a
	 * terminal): each bad byte is U+FFFD. */
	char out[64];
	termtext_clean("a\xff\xc3" "b\x1b", 5, out, sizeof out);
	ck_assert_str_eq(out, "a\ufffd\ufffdb");
	/* The text backend: whatever it is given, one printable line. */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	struct speech sp;
	memset(&sp, 0, sizeof sp);
	sp.out = f;
	speech_text_backend.say(&sp, "Ann\x1b]2;title\x07: hi\nthere\xe2\x80\xae!");
	fclose(f);
	ck_assert_str_eq(buf, "Ann]2;title: hi there!\n");
	free(buf);
}
END_TEST

/* The language goes in the server's address, whatever its form. */
START_TEST(test_url_lang)
{
	static const char *const cases[][2] = {
		{ "ws://127.0.0.1:7410", "ws://127.0.0.1:7410/?lang=fr" },
		{ "ws://127.0.0.1:7410/", "ws://127.0.0.1:7410/?lang=fr" },
		{ "wss://example.org/tapis", "wss://example.org/tapis?lang=fr" },
		{ "ws://example.org/?room=2", "ws://example.org/?room=2&lang=fr" },
		{ "ws://example.org/?lang=en", "ws://example.org/?lang=en" },
	};
	struct remote r;
	memset(&r, 0, sizeof r);
	snprintf(r.lang, sizeof r.lang, "fr");
	char url[REMOTE_URL_MAX + 16];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(r.url, sizeof r.url, "%s", cases[i][0]);
		remote_url(&r, url, sizeof url);
		ck_assert_str_eq(url, cases[i][1]);
	}
}
END_TEST

START_TEST(test_messages)
{
	struct heard h;
	memset(&h, 0, sizeof h);
	struct remote r;
	memset(&r, 0, sizeof r);
	r.sink = (struct view_sink){ heard_say, heard_update, &h };
	r.sent_moves = -1;
	snprintf(r.lang, sizeof r.lang, "en");
	feed(&r, "{\"type\":\"joined\",\"table\":4,\"seat\":1,\"info\":{\"id\":4,\"game\":\"brelan\",\"players\":3}}");
	ck_assert_int_eq(r.table, 4);
	ck_assert_int_eq(r.vs.players, 3);
	ck_assert_str_eq(r.vs.game, "brelan");
	ck_assert_int_eq(r.vs.showdowns, 1); /* F1's L: the last showdown */
	feed(&r, "{\"type\":\"chat\",\"table\":4,\"from\":\"Ann\",\"text\":\"hi\",\"cue\":\"chat\"}");
	ck_assert_int_eq(h.n, 1);
	ck_assert_int_eq(h.say[0].kind, VIEW_SAY_CHAT);
	ck_assert_int_eq(h.say[0].cue, CUE_CHAT);
	ck_assert_str_eq(h.say[0].text, "Ann: hi");
	/* Another table's words are not ours. */
	feed(&r, "{\"type\":\"say\",\"table\":5,\"seq\":3,\"text\":\"Elsewhere.\"}");
	ck_assert_int_eq(h.n, 1);
	feed(&r, "{\"type\":\"say\",\"table\":4,\"seq\":3,\"text\":\"Your turn.\",\"cue\":\"your_turn\",\"from\":1}");
	ck_assert_int_eq(h.say[1].kind, VIEW_SAY_PROMPT);
	ck_assert_int_eq(h.say[1].cue, CUE_YOUR_TURN);
	feed(&r, "{\"type\":\"state\",\"table\":4,\"seq\":3,\"seat\":1,\"state\":\"playing\",\"to_act\":1,"
	         "\"keys\":{\"C\":\"No cards on the table.\",\"H\":\"Your 2 cards.\"},"
	         "\"hand\":[{\"card\":\"QH\",\"name\":\"Queen of hearts\",\"playable\":false},"
	         "{\"card\":\"7S\",\"name\":\"Seven of spades\",\"playable\":false}],"
	         "\"choices\":[{\"action\":\"fold\",\"label\":\"Fold\",\"confirm\":true},"
	         "{\"action\":\"raise 2\",\"label\":\"Raise\",\"min\":2,\"max\":9,\"confirm_from\":5}]}");
	ck_assert_int_eq(h.updates, 1);
	ck_assert(!r.vs.discard_ahead);
	ck_assert(r.vs.my_turn);
	ck_assert_int_eq(r.vs.moves, 3);
	ck_assert_str_eq(r.vs.answer[0], "No cards on the table.");
	ck_assert_str_eq(r.vs.hand_text, "Your 2 cards.");
	ck_assert_str_eq(r.vs.prompt, "Your turn.");
	ck_assert_int_eq(r.vs.nhand, 2);
	ck_assert_str_eq(r.vs.hand[0].name, "Queen of hearts");
	ck_assert(!r.vs.can_play);
	ck_assert_int_eq(r.vs.nchoices, 2);
	ck_assert_int_eq(r.vs.choice[1].act.kind, ACT_RAISE);
	ck_assert_int_eq(r.vs.choice[1].lo, 2);
	ck_assert_int_eq(r.vs.choice[1].hi, 9);
	ck_assert_int_eq(r.vs.choice[1].act.amount_max, 9);
	/* What asks for a yes is the server's word. */
	ck_assert(view_asks(&r.vs, 0, 0));
	ck_assert(!view_asks(&r.vs, 1, 4));
	ck_assert(view_asks(&r.vs, 1, 5));
	/* The server says when a discard lies ahead. */
	feed(&r, "{\"type\":\"state\",\"table\":4,\"seq\":4,\"seat\":1,\"state\":\"playing\",\"to_act\":1,"
	         "\"discard_ahead\":true,\"hand\":[],\"choices\":[{\"action\":\"stay\",\"label\":\"Stay\"}]}");
	ck_assert(r.vs.discard_ahead);
	ck_assert_int_eq(r.vs.ntrick, 0);
	ck_assert_str_eq(r.vs.tag[2], "3");   /* no tags sent: the seats' numbers */
	/* The trick in progress by seat, the seats' tags; a seat out of the
	 * table, a card that is none, a control character are left out. */
	feed(&r, "{\"type\":\"state\",\"table\":4,\"seq\":5,\"seat\":1,\"state\":\"playing\",\"to_act\":1,"
	         "\"trick\":[{\"seat\":2,\"card\":\"QH\"},{\"seat\":0,\"card\":\"TH\"},{\"seat\":9,\"card\":\"2C\"},"
	         "{\"seat\":0,\"card\":\"ZZ\"}],\"tags\":[\"A\",\"Y\",\"C\\u001bl\"],\"hand\":[],\"choices\":[]}");
	ck_assert_int_eq(r.vs.ntrick, 2);
	ck_assert_int_eq(r.vs.trick_seat[0], 2);
	ck_assert_int_eq(r.vs.trick_card[0], card_make(RANK_QUEEN, SUIT_HEARTS));
	ck_assert_int_eq(r.vs.trick_seat[1], 0);
	ck_assert_str_eq(r.vs.tag[0], "A");
	ck_assert_str_eq(r.vs.tag[1], "Y");
	ck_assert(!strchr(r.vs.tag[2], '\x1b'));
	/* A refusal is said at once, with its cue. */
	feed(&r, "{\"type\":\"refused\",\"table\":4,\"action\":\"raise 1\",\"text\":\"Too little.\",\"cue\":\"illegal\"}");
	ck_assert_int_eq(h.say[2].kind, VIEW_SAY_REFUSAL);
	ck_assert(h.say[2].interrupt);
	ck_assert_int_eq(h.say[2].cue, CUE_ILLEGAL);
	remote_close(&r);
}
END_TEST

/* More clients than a server lets one address hold by default: the bench's
 * own server takes them all (they all come from this machine). */
START_TEST(test_bench_net)
{
	struct bench_net_result r;
	char err[256];
	ck_assert_msg(bench_net_run(server_spawn, NULL, 24, 6, 1, 0, &r, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(r.clients, 24);
	ck_assert_int_eq(r.deals, 6);
	ck_assert_int_gt(r.actions, 0);
	ck_assert_int_gt(r.server_rss_kb, 0);
	ck_assert(r.state_median_ms > 0 && r.state_median_ms <= r.state_p99_ms && r.state_p99_ms <= r.state_max_ms);
	/* Every table dealt after its start was asked, each wait counted. */
	ck_assert_int_eq(r.undealt_tables, 0);
	ck_assert(r.deal_median_ms > 0 && r.deal_median_ms <= r.deal_p99_ms && r.deal_p99_ms <= r.deal_max_ms);
	ck_assert(r.mb_lobby > 0 && r.mb_lobby < r.mb_received);
	/* Bots thinking 50 ms on average (25 at least) before each move: the
	 * moves of one table follow one another, at least that far apart. */
	ck_assert_msg(bench_net_run(server_spawn, NULL, 8, 2, 1, 50, &r, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(r.deals, 2);
	ck_assert_int_gt(r.actions, 0);
	ck_assert_msg(r.seconds >= (double)r.actions / 2 * 0.025, "%ld actions in %.2f s", r.actions, r.seconds);
	ck_assert(r.latency_median_ms > 0 && r.state_median_ms > 0);
}
END_TEST

/* The load beside the measured tables: a table of the strongest bots at
 * Bourré and a client asking hints at its turn, both heard from; the
 * measured tables unchanged; a flood over the rate limit refused. */
START_TEST(test_bench_net_load)
{
	struct bench_net_result r;
	char err[256];
	struct bench_net_load load = { 1, 10 };
	ck_assert_msg(bench_net_run_load(server_spawn, NULL, 8, 2, 1, 100, &load, &r, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(r.deals, 2);
	ck_assert_int_gt(r.actions, 0);
	ck_assert_int_gt(r.bot_moves, 0);
	ck_assert_int_gt(r.hints, 0);
	/* 10 a second at most, over the time measured (and a start's slack). */
	ck_assert_msg(r.hints <= (long)(r.seconds * 10) + 2, "%ld hints in %.2f s", r.hints, r.seconds);
	struct bench_net_load flood = { 0, BENCH_HINTS_MAX + 1 };
	ck_assert_int_lt(bench_net_run_load(server_spawn, NULL, 8, 2, 1, 0, &flood, &r, err, sizeof err), 0);
}
END_TEST

/* More deals than La Bouillabaisse's six rounds: each game is made with
 * as many as it takes; the bots answering at once keep within the rate
 * limit (no message refused, no table left waiting for its turn's timer);
 * the report has the memory, lobby and CPU figures. */
START_TEST(test_bench_net_figures)
{
	struct bench_net_result r;
	char err[256];
	ck_assert_msg(bench_net_run(server_spawn, NULL, 20, 5, 8, 0, &r, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(r.idle_tables, 0);
	ck_assert_int_eq(r.deals, 4 * 8 + 6);
	ck_assert_int_gt(r.actions, 0);
	ck_assert_int_ge(r.paced, 0);
	ck_assert(r.server_conns_kb >= r.server_base_kb && r.server_base_kb > 0);
	ck_assert(r.server_kb_per_conn > 0 && r.server_kb_per_conn < 100000);
	ck_assert(r.server_kb_per_table > -100000 && r.server_kb_per_table < 100000);
	ck_assert_msg(r.server_cpu_per_1000 > 0 && r.server_cpu_per_1000 < 1000, "%f", r.server_cpu_per_1000);
	ck_assert(r.lobby_kb_per_client > 0 && r.lobby_kb_per_client * r.clients <= r.mb_lobby * 1e3 + 0.001);
	/* A server given by its address: what is read from its /proc is
	 * unknown ("n/a"), the rest measured. */
	struct srv sv;
	srv_start(&sv);
	ck_assert_msg(bench_net_run(server_spawn, sv.url, 4, 1, 2, 0, &r, err, sizeof err) == 0, "%s", err);
	srv_stop(&sv);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(r.deals, 2);
	ck_assert(r.server_cpu_per_1000 < 0 && r.server_kb_per_conn < 0 && r.server_kb_per_table < 0);
	ck_assert(r.server_rss_kb < 0 && r.server_cpu_s < 0);
	ck_assert(r.lobby_kb_per_client > 0);
}
END_TEST

/* Several servers (`--net URL,URL`): the tables dealt out to them, the
 * figures of each adding up to the whole. */
START_TEST(test_bench_net_servers)
{
	struct srv a, b;
	srv_start(&a);
	srv_start(&b);
	char urls[600], err[256];
	snprintf(urls, sizeof urls, "%s,%s", a.url, b.url);
	struct bench_net_result r;
	ck_assert_msg(bench_net_run(server_spawn, urls, 12, 3, 1, 0, &r, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(r.nnodes, 2);
	ck_assert_str_eq(r.node[0].url, a.url);
	ck_assert_str_eq(r.node[1].url, b.url);
	/* Tables 1 and 3 on the first, table 2 on the second. */
	ck_assert_int_eq(r.node[0].clients, 8);
	ck_assert_int_eq(r.node[1].clients, 4);
	ck_assert(r.node[0].actions > 0 && r.node[1].actions > 0);
	ck_assert_int_eq(r.node[0].actions + r.node[1].actions, r.actions);
	ck_assert(r.node[0].latency_max_ms <= r.latency_max_ms && r.node[1].latency_max_ms <= r.latency_max_ms);
	ck_assert(r.node[0].mb_received > 0 && r.node[1].mb_received > 0);
	/* Run again: the names are new, the seats kept for the first run's
	 * guests do not stand in the way. */
	ck_assert_msg(bench_net_run(server_spawn, urls, 8, 2, 1, 0, &r, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(r.errors, 0);
	srv_stop(&a);
	srv_stop(&b);
	const char *bad[] = { "ws://127.0.0.1:1,", ",ws://127.0.0.1:1", "ws://127.0.0.1:1,http://x", "" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(bench_net_run(server_spawn, bad[i], 4, 1, 1, 0, &r, err, sizeof err) < 0, "%s", bad[i]);
}
END_TEST

/* ---- the lobby on a terminal ---- */

struct tty {
	pid_t pid;
	int fd;
	char out[1 << 17];
	size_t n, mark;
};

/* Wait (up to 20 s) until text is said after the mark; the mark moves past. */
static void tty_expect(struct tty *t, const char *text)
{
	for (int i = 0; i < 200; i++) {
		char *at = strstr(t->out + t->mark, text);
		if (at) {
			t->mark = (size_t)(at - t->out) + strlen(text);
			return;
		}
		struct pollfd p = { t->fd, POLLIN, 0 };
		if (poll(&p, 1, 100) > 0 && t->n + 1 < sizeof t->out) {
			ssize_t k = read(t->fd, t->out + t->n, sizeof t->out - t->n - 1);
			if (k <= 0)
				break;
			t->n += (size_t)k;
			t->out[t->n] = '\0';
		}
	}
	ck_abort_msg("never said: \"%s\"; what was said:\n%s", text, t->out + (t->n > 2000 ? t->n - 2000 : 0));
}

static void tty_key(struct tty *t, const char *keys, const char *text)
{
	size_t n = strlen(keys);
	ck_assert_int_eq(write(t->fd, keys, n), (ssize_t)n);
	tty_expect(t, text);
}

/* The key that ends `tapis join`; it must end well. */
static void tty_last_key(struct tty *t, const char *key)
{
	size_t n = strlen(key);
	ck_assert_int_eq(write(t->fd, key, n), (ssize_t)n);
	int st = 0;
	ck_assert_int_eq(waitpid(t->pid, &st, 0), t->pid);
	close(t->fd);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
}

/* `tapis join` as Zoe, in English, on a new terminal, with more arguments
 * (NULL-terminated). */
static void tty_join(struct tty *t, const struct srv *s, const char *const *more)
{
	memset(t, 0, sizeof *t);
	struct winsize ws = { 24, 200, 0, 0 };
	fflush(NULL);
	t->pid = forkpty(&t->fd, NULL, NULL, &ws);
	ck_assert_int_ge(t->pid, 0);
	if (t->pid == 0) {
		setenv("XDG_CONFIG_HOME", s->dir, 1);
		setenv("XDG_STATE_HOME", s->dir, 1);
		const char *argv[40] = { "join", s->url, "--name", "Zoe", "--text", "--lang", "en" };
		int n = 7;
		for (; more[n - 7] && n < 39; n++)
			argv[n] = more[n - 7];
		argv[n] = NULL;
		alarm(50);
		/* exit, not _exit: what the client ran is counted by `make coverage`. */
		exit(join_main(n, (char **)argv));
	}
}

/* The lobby and the table's menus with the keys of a terminal: a table
 * made through the menus, begun from F2, F1 naming Tab and F2, a chat line
 * typed with Tab (with a letter beyond ASCII), the
 * table left for the lobby, the lobby left with Escape. */
START_TEST(test_lobby_menus)
{
	struct srv s;
	/* Bots at a person's pace: the game the table's last person leaves
	 * to them is still on when the lobby lists it (bots without a pause
	 * play a whole game while the menu is said). */
	srv_bot_delay_ms = 300;
	srv_start(&s);
	srv_bot_delay_ms = 0;
	static struct tty t;
	const char *args[] = { NULL };
	tty_join(&t, &s, args);
	tty_expect(&t, "Lobby. Create a table, 1 of 4.");
	/* Tab in the lobby: a chat line, as at a table; Escape cancels it. */
	tty_key(&t, "\t", "Chat: type, Enter sends, Escape cancels.");
	tty_key(&t, "\033", "Chat cancelled.");
	tty_expect(&t, "Lobby. Create a table, 1 of 4.");
	tty_key(&t, "\r", "Which game? La Bouillabaisse");
	tty_key(&t, "\r", "How many players?");
	tty_key(&t, "\r", "Options of La Bouillabaisse.");
	tty_key(&t, "\r", "Seat 2. Bot, level 2, 3 of 4.");
	tty_key(&t, "\033[B", "Bot, level 3, 4 of 4.");
	tty_key(&t, "\r", "Seat 3");
	/* Escape goes back one menu, the choices made kept. */
	tty_key(&t, "\033", "Seat 2. Bot, level 3, 4 of 4.");
	tty_key(&t, "\033", "Options of La Bouillabaisse.");
	tty_key(&t, "\r", "Seat 2. Bot, level 3, 4 of 4.");
	tty_key(&t, "\r", "Seat 3");
	tty_key(&t, "\r", "Seat 4");
	tty_key(&t, "\r", "Who may join? Public table");
	tty_key(&t, "\r", "Table 1 is yours. F2 starts the game and sets the seats.");
	/* Before the start: what S and T will tell. */
	tty_key(&t, "S", "The game has not started: then S tells the score, T whose turn it is.");
	/* The seats as F2 lists them: a bot by its name. */
	tty_key(&t, "\033OQ", "Table. Start the game");
	tty_key(&t, "\033[B", "Seats");
	tty_key(&t, "\r", "Seat 1: ");
	tty_key(&t, "\033[B", "Seat 2: Bruno, bot, level 3, 2 of 4.");
	/* Escape leaves the menus (alone: not the start of a key's sequence). */
	ck_assert_int_eq(write(t.fd, "\033", 1), 1);
	usleep(300 * 1000);
	tty_key(&t, "\033OQ", "Table. Start the game");
	tty_key(&t, "\r", "Your 13 cards");
	/* V: the server phrases short, then full, and says so. */
	tty_key(&t, "V", "Short announcements.");
	tty_key(&t, "V", "Full announcements.");
	/* F1 at a network table names its own keys too. */
	tty_key(&t, "\033OP", "F1 again for all keys.");
	tty_key(&t, "\033OP", "Tab: at a network table: a chat line to the table.");
	tty_key(&t, "\t", "Chat: type, Enter sends, Escape cancels.");
	tty_key(&t, "H", "H");
	tty_key(&t, "i", "i");
	/* UTF-8 taken whole; Backspace erases a whole character. */
	tty_key(&t, "\xc3\xa9", "\xc3\xa9");
	tty_key(&t, "\xc3\xa0", "\xc3\xa0");
	tty_key(&t, "\x7f", "\xc3\xa0");
	tty_key(&t, "\r", "Zoe: Hi\xc3\xa9\r");
	/* Stand up and Leave act only after Y: another key keeps the seat. */
	tty_key(&t, "\033OQ", "Table. Stand up");
	tty_key(&t, "\r", "Stand up? Press Y to confirm, any other key to go back.");
	tty_key(&t, "n", "");
	tty_key(&t, "\033OQ", "Table. Stand up");
	tty_key(&t, "\033[B", "Leave the table");
	tty_key(&t, "\r", "Leave the table? Press Y to confirm");
	tty_key(&t, "y", "Lobby. Table 1: La Bouillabaisse, 4 players, playing, 1 open seat, ");
	/* Escape asks before leaving the server; Escape again stays. */
	tty_key(&t, "\033", "Leave the server? No, stay, 1 of 2.");
	tty_key(&t, "\033", "Lobby. Table 1");
	tty_key(&t, "\033", "Leave the server?");
	tty_key(&t, "\033[B", "Yes, leave the server");
	tty_last_key(&t, "\r");
	srv_stop(&s);
}
END_TEST

/* At a game's end on a terminal, a menu offers a rematch (the query keys
 * answering meanwhile, as in play): the table starts
 * again (the only person at it said yes), the seats one place on. Enter
 * plays the card selected at each turn. */
START_TEST(test_rematch_key)
{
	struct srv s;
	srv_start(&s);
	static struct tty t;
	const char *args[] = { "--create", "brouc", "--rule", "hands=1", "--seats", "open,bot,bot,bot", "--seed", "3",
	                       "--start", NULL };
	tty_join(&t, &s, args);
	tty_expect(&t, "Your 8 cards");
	/* Enter at each turn, until the offer (40 s at most). */
	size_t seen = t.mark;
	for (int i = 0; i < 400 && !strstr(t.out + t.mark, "A rematch?"); i++) {
		char *turn = strstr(t.out + seen, "Your turn.");
		if (turn) {
			seen = (size_t)(turn - t.out) + 1;
			usleep(50 * 1000);
			ck_assert_int_eq(write(t.fd, "\r", 1), 1);
		}
		struct pollfd p = { t.fd, POLLIN, 0 };
		if (poll(&p, 1, 100) > 0 && t.n + 1 < sizeof t.out) {
			ssize_t k = read(t.fd, t.out + t.n, sizeof t.out - t.n - 1);
			if (k > 0) {
				t.n += (size_t)k;
				t.out[t.n] = '\0';
			}
		}
	}
	tty_expect(&t, "A rematch? Same players, same options.");
	tty_expect(&t, "Rematch, 1 of 2.");
	/* A query key answers and leaves nothing: the menu is still there. */
	tty_key(&t, "S", "Score: you and Claire (bot) ");
	tty_key(&t, "\033[B", "Leave the table, 2 of 2.");
	tty_key(&t, "\033[A", "Rematch, 1 of 2.");
	tty_key(&t, "\r", "Your 8 cards");
	/* F2: a person's chat muted for oneself; the server says so. */
	tty_key(&t, "\033OQ", "Table. Stand up");
	tty_key(&t, "\033[B", "Leave the table");
	tty_key(&t, "\033[B", "Invite someone");
	tty_key(&t, "\033[B", "Mute someone's chat");
	tty_key(&t, "\r", "Name of the person whose chat to mute or hear again");
	tty_key(&t, "Ann\r", "You will not hear Ann's chat.");
	/* Another key after the next game would leave; an interrupt now. */
	kill(t.pid, SIGINT);
	int st = 0;
	ck_assert_int_eq(waitpid(t.pid, &st, 0), t.pid);
	close(t.fd);
	srv_stop(&s);
}
END_TEST

/* At a network table the risky choices ask for Y as at home, by the
 * server's marks: after the server comes back in the middle of a deal,
 * folding with chips put in before still asks (seed 1: a straddle of 10
 * chips, then an open of 25 to call). */
START_TEST(test_confirm_after_reconnect)
{
	struct srv s;
	srv_start(&s);
	static struct tty t;
	const char *args[] = { "--create", "bouillotte", "--seed", "1", "--start", NULL };
	tty_join(&t, &s, args);
	tty_expect(&t, "Your turn. Before seeing your cards");
	tty_key(&t, "\r", "1 of 2.");
	tty_key(&t, "\033[B", "2 of 2.");
	tty_key(&t, "\r", "You straddle");
	tty_expect(&t, "Your turn. To call");
	kill(s.pid, SIGKILL);
	waitpid(s.pid, NULL, 0);
	tty_expect(&t, "Connection lost.");
	srv_run(&s);
	tty_expect(&t, "Connection regained.");
	tty_key(&t, "\r", "1 of 4.");
	tty_key(&t, "\033[B", "2 of 4.");
	tty_key(&t, "\033[B", "3 of 4.");
	tty_key(&t, "\033[B", "Fold, 4 of 4.");
	tty_key(&t, "\r", "Fold? Press Y to confirm, any other key to go back.");
	tty_key(&t, "x", "Not done.");
	/* The all-in asks too. */
	tty_key(&t, "\033[A", "3 of 4.");
	tty_key(&t, "\r", "Press Y to confirm");
	tty_key(&t, "y", "You go all in");
	tty_key(&t, "q", "Quit?");
	tty_last_key(&t, "y");
	srv_stop(&s);
}
END_TEST

/* Ctrl-C at a network table ends tapis join with 130 and says nothing
 * of an error: no "tapis join:" line made of whatever its buffer held. */
START_TEST(test_interrupt_at_table)
{
	struct srv s;
	srv_start(&s);
	static struct tty t;
	const char *args[] = { "--create", "bouillotte", "--seed", "1", "--start", NULL };
	tty_join(&t, &s, args);
	tty_expect(&t, "Your turn. Before seeing your cards");
	kill(t.pid, SIGINT);
	int st = 0;
	ck_assert_int_eq(waitpid(t.pid, &st, 0), t.pid);
	for (;;) {
		struct pollfd p = { t.fd, POLLIN, 0 };
		if (poll(&p, 1, 200) <= 0 || t.n + 1 >= sizeof t.out)
			break;
		ssize_t k = read(t.fd, t.out + t.n, sizeof t.out - t.n - 1);
		if (k <= 0)
			break;
		t.n += (size_t)k;
		t.out[t.n] = '\0';
	}
	close(t.fd);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d", st);
	ck_assert_msg(!strstr(t.out + t.mark, "tapis join:"), "said after the interrupt:\n%s", t.out + t.mark);
	srv_stop(&s);
}
END_TEST


/* A guest's tapis join killed in the middle of a deal: started again, it
 * says hello with the token it kept ($XDG_STATE_HOME/tapis/tokens, 0600)
 * and is back at its seat, its turn asked again. */
START_TEST(test_guest_token_resume)
{
	struct srv s;
	srv_start(&s);
	static struct tty t;
	const char *args[] = { "--create", "bouillotte", "--seed", "1", "--start", NULL };
	tty_join(&t, &s, args);
	tty_expect(&t, "Your turn. Before seeing your cards");
	kill(t.pid, SIGKILL);
	waitpid(t.pid, NULL, 0);
	close(t.fd);
	char path[256];
	snprintf(path, sizeof path, "%s/tapis/tokens", s.dir);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	const char *none[] = { NULL };
	tty_join(&t, &s, none);
	tty_expect(&t, "Your turn. Before seeing your cards");
	ck_assert_msg(!strstr(t.out, "in use"), "%s", t.out);
	kill(t.pid, SIGINT);
	waitpid(t.pid, NULL, 0);
	close(t.fd);
	srv_stop(&s);
}
END_TEST

/* The token file: a line per server and name, replaced, forgotten, lines
 * of another shape dropped, a token of another shape refused. */
START_TEST(test_resume_file)
{
	char dir[] = "/tmp/tapis-resume-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[128], tok[RESUME_TOKEN_MAX], err[256];
	snprintf(path, sizeof path, "%s/tokens", dir);
	ck_assert_int_eq(resume_load(path, "ws://a:1", "Ann", tok, sizeof tok), 0);
	ck_assert_int_eq(resume_save(path, "ws://a:1", "Ann", "00ff", err, sizeof err), 0);
	ck_assert_int_eq(resume_save(path, "ws://b:1", "Ann", "abcd", err, sizeof err), 0);
	ck_assert_int_eq(resume_save(path, "ws://a:1", "Ann", "1234", err, sizeof err), 0);
	ck_assert_int_eq(resume_load(path, "ws://a:1", "Ann", tok, sizeof tok), 1);
	ck_assert_str_eq(tok, "1234");
	ck_assert_int_eq(resume_load(path, "ws://b:1", "Ann", tok, sizeof tok), 1);
	ck_assert_str_eq(tok, "abcd");
	ck_assert_int_eq(resume_load(path, "ws://a:1", "Bea", tok, sizeof tok), 0);
	ck_assert_int_lt(resume_save(path, "ws://a:1", "Ann", "12\n34", err, sizeof err), 0);
	ck_assert_int_lt(resume_save(path, "ws://a:1", "A\tnn", "1234", err, sizeof err), 0);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	ck_assert_int_eq(resume_save(path, "ws://a:1", "Ann", "", err, sizeof err), 0);
	ck_assert_int_eq(resume_load(path, "ws://a:1", "Ann", tok, sizeof tok), 0);
	for (int i = 0; i < RESUME_MAX + 10; i++) {
		char url[32];
		snprintf(url, sizeof url, "ws://h:%d", i);
		ck_assert_int_eq(resume_save(path, url, "Ann", "beef", err, sizeof err), 0);
	}
	ck_assert_int_eq(resume_load(path, "ws://h:0", "Ann", tok, sizeof tok), 0);
	ck_assert_int_eq(resume_load(path, "ws://h:73", "Ann", tok, sizeof tok), 1);
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The lobby on a terminal, alive: while the game menu is open, another
 * person's arrival, table and its start are spoken; the lobby's keys say
 * who is online and the tables; V turns the lobby's news off (Bea's chat
 * is not said then); Escape asks before leaving, N stays, Q asks again. */
START_TEST(test_live_lobby)
{
	struct srv s;
	srv_start(&s);
	static struct tty t;
	const char *none[] = { NULL };
	tty_join(&t, &s, none);
	tty_expect(&t, "Lobby. Create a table, 1 of 4.");
	tty_key(&t, "\r", "Which game?");
	struct cli a;
	const char *aa[] = { "--name", "Ann", "--text", "--create", "bouillabaisse", "--rule", "hands=1", "--start",
	                     NULL };
	cli_start(&a, &s, "ann", aa);
	tty_expect(&t, "Ann arrives.");
	tty_expect(&t, "New table 1: La Bouillabaisse, by Ann.");
	tty_expect(&t, "Table 1 begins.");
	tty_key(&t, "\033", "Lobby. Create a table, 2 of 5.");
	tty_key(&t, "O", "2 online: ");
	tty_expect(&t, "Ann");
	tty_key(&t, "T", "Table 1: La Bouillabaisse, 4 players, playing, 0 open seats. Players: Ann.");
	tty_key(&t, "\033OP", "Tab: chat in the lobby.");
	tty_key(&t, "V", "Lobby: friends and invitations only.");
	tty_key(&t, "V", "Lobby: nothing is spoken.");
	cli_enter(&a, 200);
	ck_assert_int_eq(cli_wait(&a), 0);
	struct cli b;
	const char *bb[] = { "--name", "Bea", "--text", "--create", "bouillabaisse", "--rule", "hands=1", "--start",
	                     NULL };
	cli_start(&b, &s, "bea", bb);
	cli_enter(&b, 200);
	ck_assert_int_eq(cli_wait(&b), 0);
	tty_key(&t, "T", "Table 2: La Bouillabaisse");
	tty_key(&t, "\033", "Leave the server?");
	ck_assert_msg(!strstr(t.out, "Table 1 is over.") && !strstr(t.out, "New table 2"), "%s", t.out);
	tty_key(&t, "\033", "Lobby. ");
	tty_key(&t, "V", "Lobby: everything is spoken.");
	/* Yan, in French, arrives and chats in the lobby: Zoe hears both;
	 * Yan hears Zoe go, in French. */
	static struct tty y;
	const char *yan[] = { "--name", "Yan", "--lang", "fr", NULL };
	tty_join(&y, &s, yan);
	tty_expect(&y, "Salon. ");
	tty_expect(&t, "Yan arrives.");
	tty_key(&y, "\t", "Discussion");
	tty_key(&y, "s", "s");
	tty_key(&y, "a", "a");
	tty_key(&y, "l", "l");
	tty_key(&y, "u", "u");
	tty_key(&y, "t", "t");
	write(y.fd, "\r", 1);
	tty_expect(&t, "Yan: salut");
	tty_key(&t, "q", "Leave the server?");
	tty_key(&t, "\033[B", "Yes, leave the server");
	tty_last_key(&t, "\r");
	tty_expect(&y, "Zoe s'en va.");
	tty_key(&y, "q", "Quitter le serveur ?");
	tty_key(&y, "\033[B", "2 sur 2");
	tty_last_key(&y, "\r");
	/* The setting was kept. */
	char path[256], err[256];
	snprintf(path, sizeof path, "%s/tapis/settings", s.dir);
	char *text = deckfile_slurp(path, err, sizeof err);
	ck_assert_msg(text && strstr(text, "lobby = all"), "%s", text ? text : err);
	free(text);
	srv_stop(&s);
}
END_TEST

/* A table in play that nobody is at any more is saved and closed (the
 * lobby hears it), outlives a server killed and started again, and its
 * player takes it up again from the lobby's "Resume a saved table", back
 * at their seat and their turn. */
START_TEST(test_saved_table_resumed)
{
	struct srv s;
	srv_close_ms = 1000;
	srv_start(&s);
	static struct tty t, o;
	const char *args[] = { "--create", "bouillotte", "--seed", "1", "--start", NULL };
	tty_join(&t, &s, args);
	tty_expect(&t, "Your turn. Before seeing your cards");
	const char *yan[] = { "--name", "Yan", NULL };
	tty_join(&o, &s, yan);
	tty_expect(&o, "Lobby. Table 1: Bouillotte");
	kill(t.pid, SIGKILL);
	waitpid(t.pid, NULL, 0);
	close(t.fd);
	tty_expect(&o, "Zoe leaves.");
	tty_expect(&o, "Table 1 is saved; its players may resume it.");
	tty_key(&o, "T", "No table yet.");
	tty_key(&o, "q", "Leave the server?");
	tty_key(&o, "\033[B", "Yes, leave the server");
	tty_last_key(&o, "\r");
	kill(s.pid, SIGKILL);
	waitpid(s.pid, NULL, 0);
	srv_run(&s);
	const char *none[] = { NULL };
	tty_join(&t, &s, none);
	tty_expect(&t, "Lobby. Resume a saved table, 1 of 5.");
	tty_key(&t, "\r", "Saved tables. Table 1: Bouillotte, 1 of 1.");
	tty_key(&t, "\r", "Your turn. Before seeing your cards");
	kill(t.pid, SIGINT);
	waitpid(t.pid, NULL, 0);
	close(t.fd);
	srv_close_ms = 0;
	srv_stop(&s);
}
END_TEST

/* A player away longer than the table's away time (keep_ms) from a table
 * where someone is still playing loses the seat: a bot keeps it, it opens,
 * and they may sit again (here, at once: the seat is free). */
START_TEST(test_away_seat_released)
{
	struct srv s;
	srv_keep_ms = 1500;
	srv_start(&s);
	static struct tty t;
	const char *args[] = { "--create", "bouillabaisse", "--players", "3", "--seats", "open,open,bot", "--rule",
		               "hands=1", NULL };
	tty_join(&t, &s, args);
	sleep(1); /* the table made */
	struct cli b;
	const char *bb[] = { "--name", "Bea", "--text", "--table", "1", "--seat", "2", NULL };
	cli_start(&b, &s, "bea", bb);
	tty_expect(&t, "Bea sits down.");
	kill(b.pid, SIGKILL);
	waitpid(b.pid, NULL, 0);
	close(b.keys);
	tty_key(&t, "\033OQ", "Table. Start the game");
	tty_key(&t, "\r", "Bea stands up. A bot plays the seat.");
	kill(t.pid, SIGINT);
	waitpid(t.pid, NULL, 0);
	close(t.fd);
	srv_keep_ms = 0;
	srv_stop(&s);
}
END_TEST

/* The creator frees the seat of a player gone, from F2 in play ("Remove a
 * player", as the page's "Remove NAME"): a bot keeps it and it opens. */
/* A moderator's keys: F2's Moderation mutes a person for a time with a
 * reason, then removes them from the table; each act is said back, and the
 * person hears it (the server phrases it). Its last item, Up from the
 * first. */
START_TEST(test_moderator_keys)
{
	struct srv s;
	srv_start(&s);
	struct store st;
	char err[256], pw[128];
	ck_assert_msg(store_open(&st, "sqlite", s.db, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(store_role_put(&st, "Zoe", "moderator"), 0);
	store_close(&st);
	snprintf(pw, sizeof pw, "%s/zoe-password", s.dir);
	FILE *f = fopen(pw, "w");
	ck_assert_ptr_nonnull(f);
	fputs("zoe-secret\n", f);
	fclose(f);
	static struct tty t;
	const char *args[] = { "--password-file", pw, "--create", "bouillabaisse", "--players", "3", "--seats",
		               "open,open,bot", "--rule", "hands=1", NULL };
	tty_join(&t, &s, args);
	sleep(1); /* the table made */
	struct cli b;
	const char *bb[] = { "--name", "Bea", "--lang", "fr", "--text", "--table", "1", "--seat", "2", NULL };
	cli_start(&b, &s, "bea", bb);
	tty_expect(&t, "Bea sits down.");
	/* Right after the sit, the creator's menu still starts with Start. */
	tty_key(&t, "\033OQ", "Table. Start the game, 1 of ");
	tty_key(&t, "\033[A", "Moderation");
	tty_key(&t, "\r", "Moderation. Mute their chat for a time, 1 of 4.");
	tty_key(&t, "\r", "Name of the person, then Enter.");
	tty_key(&t, "Bea\r", "For how many minutes?");
	tty_key(&t, "5\r", "The reason, said to them");
	tty_key(&t, "spam\r", "Bea is muted.");
	tty_key(&t, "\033OQ", "Table. Start the game, 1 of ");
	tty_key(&t, "\033[A", "Moderation");
	tty_key(&t, "\r", "Mute their chat for a time");
	tty_key(&t, "\033[B", "Remove them from this table, 2 of 4.");
	tty_key(&t, "\r", "Name of the person, then Enter.");
	tty_key(&t, "Bea\r", "The reason, said to them");
	tty_key(&t, "\r", "Bea is removed from table 1.");
	ck_assert_int_eq(cli_wait(&b), 0);
	char *tb = cli_text(&b);
	ck_assert_msg(strstr(tb, "spam"), "%s", tb);
	ck_assert_msg(strstr(tb, "Vous vous asseyez à la table 1, place 2."), "%s", tb);
	free(tb);
	kill(t.pid, SIGINT);
	waitpid(t.pid, NULL, 0);
	close(t.fd);
	srv_stop(&s);
}
END_TEST

START_TEST(test_creator_frees_seat)
{
	struct srv s;
	srv_start(&s);
	static struct tty t;
	const char *args[] = { "--create", "bouillabaisse", "--players", "3", "--seats", "open,open,bot", "--rule",
		               "hands=1", NULL };
	tty_join(&t, &s, args);
	sleep(1); /* the table made */
	struct cli b;
	const char *bb[] = { "--name", "Bea", "--text", "--table", "1", "--seat", "2", NULL };
	cli_start(&b, &s, "bea", bb);
	tty_expect(&t, "Bea sits down.");
	kill(b.pid, SIGKILL);
	waitpid(b.pid, NULL, 0);
	close(b.keys);
	sleep(1); /* the table's entry, with Bea's seat, reaches its members */
	tty_key(&t, "\033OQ", "Table. Start the game");
	tty_key(&t, "\r", "Your 17 cards");
	tty_key(&t, "\033OQ", "Table. Remove a player");
	tty_key(&t, "\r", "Remove a player. Remove Bea");
	tty_key(&t, "\r", "? Press Y to confirm");
	tty_key(&t, "y", "Bea stands up. A bot plays the seat.");
	kill(t.pid, SIGINT);
	waitpid(t.pid, NULL, 0);
	close(t.fd);
	srv_stop(&s);
}
END_TEST

static Suite *join_suite(void)
{
	Suite *s = suite_create("join");
	TCase *tc = tcase_create("join");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_messages);
	tcase_add_test(tc, test_url_lang);
	tcase_add_test(tc, test_hostile_server_text);
	tcase_add_test(tc, test_remote_lobby_delta);
	tcase_add_test(tc, test_whole_game);
	tcase_add_test(tc, test_lobby_menus);
	tcase_add_test(tc, test_confirm_after_reconnect);
	tcase_add_test(tc, test_interrupt_at_table);
	tcase_add_test(tc, test_rematch_key);
	tcase_add_test(tc, test_moderator_keys);
	tcase_add_test(tc, test_two_languages_and_chat);
	tcase_add_test(tc, test_reconnect);
	tcase_add_test(tc, test_actions_whole_game);
	tcase_add_test(tc, test_actions_refused);
	tcase_add_test(tc, test_bench_net);
	tcase_add_test(tc, test_bench_net_figures);
	tcase_add_test(tc, test_bench_net_load);
	tcase_add_test(tc, test_bench_net_servers);
	tcase_add_test(tc, test_resume_file);
	tcase_add_test(tc, test_guest_token_resume);
	tcase_add_test(tc, test_live_lobby);
	tcase_add_test(tc, test_saved_table_resumed);
	tcase_add_test(tc, test_away_seat_released);
	tcase_add_test(tc, test_creator_frees_seat);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	alarm(300);
	return tu_run(join_suite());
}
