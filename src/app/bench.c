/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/bench.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/registry.h"
#include "app/table.h"
#include "app/view.h"
#include "app/audio_bench.h"
#include "bots/bot.h"
#include "core/clock.h"
#include "core/err.h"
#include "core/game.h"
#include "core/xalloc.h"
#include "speech/speech.h"

enum { BENCH_NAME_MAX = 64, BENCH_MAX_ROWS = 64 };

/* The figures, one a row: name, value, unit. */
struct rows {
	struct row {
		char name[BENCH_NAME_MAX];
		double value;
		const char *unit;
	} r[BENCH_MAX_ROWS];
	int n;
};

static void add_row(struct rows *t, double value, const char *unit, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_row(struct rows *t, double value, const char *unit, const char *fmt, ...)
{
	if (t->n >= BENCH_MAX_ROWS)
		return;
	struct row *r = &t->r[t->n++];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->name, sizeof r->name, fmt, ap);
	va_end(ap);
	r->value = value;
	r->unit = unit;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double pct(double *v, int n, double p)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	int i = (int)(p * (n - 1) + 0.5);
	return v[i];
}

/* Random playouts of one game for about `budget` seconds: actions per second. */
static double playouts(const struct registry_game *e, double budget, long *games_out)
{
	const struct game_ops *g = e->ops;
	void *st = xmalloc(g->state_size);
	struct rules r;
	struct rng rng;
	rng_seed(&rng, 12345);
	long actions = 0, games = 0;
	double t0 = speech_now(), t = t0;
	do {
		rules_init(&r, g->rules, g->nrules);
		char err[ERR_MAX];
		if (rules_index(&r, "hands") >= 0)
			rules_set(&r, "hands", "3", err, sizeof err);
		struct game_setup s = { g->default_players, -1, (uint64_t)games, &r, NULL };
		memset(st, 0, g->state_size);
		if (g->init(st, &s, err, sizeof err) < 0)
			break;
		g->start(st, NULL);
		for (int k = 0; k < 200000 && g->to_act(st) >= 0; k++) {
			struct action a;
			struct refusal why;
			bot_random(g, e->bot, st, &rng, &a);
			g->apply(st, &a, NULL, &why);
			actions++;
		}
		games++;
		t = speech_now();
	} while (t - t0 < budget);
	free(st);
	*games_out = games;
	return (double)actions / (t - t0);
}

/* Random playouts of one game at its default number of players, as
 * playouts() plays them (games of 50 deals where a game has that rule),
 * for about `budget` seconds of this thread's CPU time: deals (rounds)
 * per CPU-second, the figure weighed against the yardstick. */
static double playout_deals(const struct registry_game *e, double budget)
{
	const struct game_ops *g = e->ops;
	void *st = xmalloc(g->state_size);
	struct rng rng;
	rng_seed(&rng, 12345);
	long deals = 0;
	uint64_t seed = 0;
	double t0 = clock_cpu_s(), t = t0;
	do {
		struct rules r;
		rules_init(&r, g->rules, g->nrules);
		char err[ERR_MAX];
		if (rules_index(&r, "hands") >= 0)
			rules_set(&r, "hands", "50", err, sizeof err);
		struct game_setup s = { g->default_players, -1, seed++, &r, NULL };
		memset(st, 0, g->state_size);
		if (g->init(st, &s, err, sizeof err) < 0)
			break;
		g->start(st, NULL);
		for (int k = 0; k < 200000 && g->to_act(st) >= 0; k++) {
			struct action a;
			struct refusal why;
			bot_random(g, e->bot, st, &rng, &a);
			g->apply(st, &a, NULL, &why);
		}
		deals += g->hand_number(st);
		t = clock_cpu_s();
	} while (t - t0 < budget);
	free(st);
	return t > t0 ? (double)deals / (t - t0) : 0;
}

/* The yardstick of a game (tools/yardstick.c: a plain loop of its rules
 * on masks of cards), found as tools/yardstick beside this program (a
 * build tree; it is not installed) or in TAPIS_YARDSTICK: its deals per
 * CPU-second over `seconds`, or 0 when there is none for the game. */
static double yardstick(const char *game, double seconds)
{
	char path[4096], arg[32];
	const char *env = getenv("TAPIS_YARDSTICK");
	if (env && *env) {
		snprintf(path, sizeof path, "%s", env);
	} else {
		ssize_t n = readlink("/proc/self/exe", path, sizeof path - 32);
		if (n <= 0)
			return 0;
		path[n] = 0;
		char *slash = strrchr(path, '/');
		if (!slash)
			return 0;
		strcpy(slash + 1, "tools/yardstick");
	}
	if (access(path, X_OK) != 0)
		return 0;
	snprintf(arg, sizeof arg, "%g", seconds);
	int fd[2];
	if (pipe(fd) < 0)
		return 0;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		execl(path, "yardstick", game, arg, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	char buf[128];
	size_t got = 0;
	ssize_t r;
	while (pid > 0 && got < sizeof buf - 1 && (r = read(fd[0], buf + got, sizeof buf - 1 - got)) > 0)
		got += (size_t)r;
	buf[got] = 0;
	close(fd[0]);
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	double v = 0;
	char name[64];
	if (pid <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
	    sscanf(buf, "%63s %lf", name, &v) != 2 || strcmp(name, game) != 0)
		return 0;
	return v;
}

/* Bot decision times at a level over positions of games the default bots
 * play (the search level at its default budget). */
static void bot_times(const struct registry_game *e, int level, double *median, double *p99)
{
	const struct game_ops *g = e->ops;
	enum { N = 400 };
	double v[N];
	int n = 0;
	void *st = xmalloc(g->state_size);
	struct rng rng;
	rng_seed(&rng, 777);
	for (uint64_t seed = 1; n < N && seed < 1000; seed++) {
		struct rules r;
		rules_init(&r, g->rules, g->nrules);
		char err[ERR_MAX];
		struct game_setup s = { g->default_players, -1, seed, &r, NULL };
		memset(st, 0, g->state_size);
		if (g->init(st, &s, err, sizeof err) < 0)
			break;
		g->start(st, NULL);
		for (int k = 0; k < 60 && n < N && g->to_act(st) >= 0; k++) {
			struct action a;
			struct refusal why;
			double t0 = speech_now();
			bot_choose(g, e->bot, st, level, &rng, &a);
			v[n++] = (speech_now() - t0) * 1000.0;
			if (level != BOT_LEVEL_DEFAULT)
				bot_choose(g, e->bot, st, BOT_LEVEL_DEFAULT, &rng, &a);
			g->apply(st, &a, NULL, &why);
		}
	}
	free(st);
	*median = n ? pct(v, n, 0.5) : 0;
	*p99 = n ? pct(v, n, 0.99) : 0;
}

/* A sink that takes everything and keeps nothing. */
static void drop_say(void *ctx, const struct view_say *m)
{
	(void)ctx;
	(void)m;
}

static void drop_update(void *ctx, const struct view_state *vs)
{
	(void)ctx;
	(void)vs;
}

/* The events of the last action. */
struct caught {
	struct event e[256];
	int n;
};

static void catch_event(void *ctx, const struct event *e)
{
	struct caught *c = ctx;
	if (c->n < 256)
		c->e[c->n++] = *e;
}

/* A whole game by bots at a table with 4 views (its seats, then
 * spectators; English and French in turn): after each action, the time to
 * tell its events to the 4 views again and refresh them, in milliseconds. */
static int fanout_game(const struct game_ops *g, uint64_t seed, double *t, int max)
{
	struct table_options o;
	memset(&o, 0, sizeof o);
	o.game = g;
	o.players = g->default_players;
	o.dealer = -1;
	o.seed = seed;
	rules_init(&o.rules, g->rules, g->nrules);
	char err[ERR_MAX];
	if (rules_index(&o.rules, "hands") >= 0)
		rules_set(&o.rules, "hands", "2", err, sizeof err);
	for (int s = 0; s < o.players; s++) {
		o.seat_kind[s] = SEAT_BOT;
		o.bot_level[s] = 1;
	}
	struct table tb;
	if (table_open(&tb, &o, err, sizeof err) < 0)
		return 0;
	enum { NVIEWS = 4 };
	struct view *v = xcalloc(NVIEWS, sizeof *v);
	struct caught *c = xcalloc(1, sizeof *c);
	struct view_sink sink = { drop_say, drop_update, NULL };
	int nv = 0, n = 0;
	for (int k = 0; k < NVIEWS; k++) {
		int seat = k < o.players ? k : VIEW_SPECTATOR;
		if (view_init(&v[nv], &tb, seat, k % 2 ? "fr" : "en", &sink, err, sizeof err) == 0)
			nv++;
	}
	if (nv == NVIEWS) {
		tb.tap = (struct sink){ catch_event, c };
		table_start(&tb);
		while (n < max && table_to_act(&tb) >= 0) {
			c->n = 0;
			if (table_auto_step(&tb, err, sizeof err) != 0)
				break;
			double t0 = speech_now();
			for (int k = 0; k < nv; k++)
				view_events(&v[k], c->e, c->n);
			for (int k = 0; k < nv; k++)
				view_refresh(&v[k]);
			t[n++] = (speech_now() - t0) * 1000.0;
		}
	}
	for (int k = 0; k < nv; k++)
		view_release(&v[k]);
	free(v);
	free(c);
	table_close(&tb);
	return n;
}

/* The cost of one action told to 4 views in 2 languages, over eight games
 * of each game. */
static void view_fanout(double *median, double *p99)
{
	enum { MAX = 40000 };
	double *d = xmalloc(MAX * sizeof *d);
	int nd = 0;
	for (int i = 0; registry_games[i].ops; i++)
		for (uint64_t seed = 1; seed <= 8 && nd < MAX; seed++)
			nd += fanout_game(registry_games[i].ops, seed, d + nd, MAX - nd);
	*median = nd ? pct(d, nd, 0.5) : 0;
	*p99 = nd ? pct(d, nd, 0.99) : 0;
	free(d);
}

/* Start-up: the time to run `tapis --version` (exec, load, catalogues). */
static double startup_ms(void)
{
	enum { N = 21 };
	double v[N];
	int n = 0;
	for (int i = 0; i < N; i++) {
		double t0 = speech_now();
		pid_t pid = fork();
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);
			if (fd >= 0)
				dup2(fd, STDOUT_FILENO);
			execl("/proc/self/exe", "tapis", "--version", (char *)NULL);
			_exit(127);
		}
		if (pid < 0)
			break;
		int status;
		waitpid(pid, &status, 0);
		v[n++] = (speech_now() - t0) * 1000.0;
	}
	return n ? pct(v, n, 0.5) : 0;
}

/* A Bourré table of four bots at `level`, saving to path when not NULL,
 * played for `deals` deals or until `actions` actions (0: no bound).
 * Returns the seconds it took, or -1. */
static double saved_bots(const char *path, int level, int deals, int actions)
{
	const struct game_ops *g = registry_ops("bourre");
	if (!g)
		return -1;
	struct table_options o;
	memset(&o, 0, sizeof o);
	o.game = g;
	o.players = 4;
	o.dealer = -1;
	o.seed = 4242;
	rules_init(&o.rules, g->rules, g->nrules);
	char err[ERR_MAX], v[32];
	snprintf(v, sizeof v, "%d", deals);
	if (deals && rules_set(&o.rules, "hands", v, err, sizeof err) < 0)
		return -1;
	for (int s = 0; s < o.players; s++) {
		o.seat_kind[s] = SEAT_BOT;
		o.bot_level[s] = level;
	}
	struct table *t = xmalloc(sizeof *t);
	if (table_open(t, &o, err, sizeof err) < 0) {
		free(t);
		return -1;
	}
	double t0 = speech_now();
	table_start(t);
	if (path && table_save_begin(t, path, 1) < 0) {
		table_close(t);
		free(t);
		return -1;
	}
	while (table_to_act(t) >= 0 && (!actions || t->nplayed < actions))
		if (table_auto_step(t, err, sizeof err) != 0)
			break;
	table_close(t);
	free(t);
	return speech_now() - t0;
}

/* Reading a save of n actions back and playing them again, in seconds. */
static double resume_time(const char *path, int n)
{
	if (saved_bots(path, 0, 0, n) < 0)
		return -1;
	double t0 = speech_now();
	struct table_saved *s = xmalloc(sizeof *s);
	struct table *t = xmalloc(sizeof *t);
	char err[ERR_MAX];
	double dt = -1;
	if (table_read_save(path, s, err, sizeof err) == 0) {
		if (table_open(t, &s->opt, err, sizeof err) == 0) {
			table_start(t);
			if (table_replay(t, &s->actions, err, sizeof err) == 0 && s->actions.n == n)
				dt = speech_now() - t0;
			table_close(t);
		}
		table_saved_release(s);
	}
	free(s);
	free(t);
	unlink(path);
	return dt;
}

/* A long game holds one deal's actions, not the game's: the room the table
 * keeps for them after DEALS deals of level-0 bots (the same after 100 as
 * after 100,000: docs/performance.md, "Long games"). */
static double long_game_room(int deals)
{
	const struct game_ops *g = registry_ops("bourre");
	struct table_options o;
	memset(&o, 0, sizeof o);
	o.game = g;
	o.players = 4;
	o.dealer = -1;
	o.seed = 4242;
	rules_init(&o.rules, g->rules, g->nrules);
	char err[ERR_MAX], v[32];
	snprintf(v, sizeof v, "%d", deals);
	if (rules_set(&o.rules, "hands", v, err, sizeof err) < 0)
		return -1;
	for (int s = 0; s < o.players; s++)
		o.seat_kind[s] = SEAT_BOT;
	struct table *t = xmalloc(sizeof *t);
	if (table_open(t, &o, err, sizeof err) < 0) {
		free(t);
		return -1;
	}
	table_start(t);
	int room = 0;
	while (table_to_act(t) >= 0)
		if (table_auto_step(t, err, sizeof err) != 0)
			break;
	table_kept(t, &room);
	table_close(t);
	free(t);
	return room;
}

/* Saved games: bot deals per second with and without saving, and the time
 * to resume saves of 4,000 and 16,000 actions (it grows linearly). */
static void save_figures(struct rows *t)
{
	const char *tmpdir = getenv("TMPDIR");
	char dir[4096], path[4200];
	snprintf(dir, sizeof dir, "%s/tapis-bench-XXXXXX", tmpdir && *tmpdir == '/' ? tmpdir : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "tapis bench: no saved-game figures: %s: %s\n", dir, strerror(errno));
		return;
	}
	snprintf(path, sizeof path, "%s/bourre.save", dir);
	enum { DEALS = 200 };
	double unsaved = saved_bots(NULL, BOT_LEVEL_DEFAULT, DEALS, 0);
	double saved = saved_bots(path, BOT_LEVEL_DEFAULT, DEALS, 0);
	unlink(path);
	add_row(t, unsaved > 0 ? DEALS / unsaved : 0, "deals/s", "bourre_bot_deals_unsaved");
	add_row(t, saved > 0 ? DEALS / saved : 0, "deals/s", "bourre_bot_deals_saved");
	static const int sizes[] = { 4000, 16000 };
	for (int i = 0; i < 2; i++) {
		double dt = resume_time(path, sizes[i]);
		add_row(t, dt > 0 ? dt * 1000.0 : 0, "ms", "resume_%d_actions", sizes[i]);
	}
	add_row(t, long_game_room(2000), "actions", "bourre_actions_kept_after_2000_deals");
	rmdir(dir);
}

int bench_run(int json, FILE *out)
{
	struct rows t = { .n = 0 };
	for (int i = 0; registry_games[i].ops; i++) {
		const struct registry_game *e = &registry_games[i];
		const struct game_ops *g = e->ops;
		long games;
		add_row(&t, playouts(e, 0.5, &games), "actions/s", "%s_playout_actions", g->name);
		double deals = playout_deals(e, 0.5), floor = yardstick(g->name, 0.5);
		add_row(&t, deals, "deals/cpu-s", "%s_playout_deals", g->name);
		if (floor > 0) {
			add_row(&t, floor, "deals/cpu-s", "%s_yardstick_deals", g->name);
			add_row(&t, deals > 0 ? floor / deals : 0, "x", "%s_yardstick_ratio", g->name);
		}
		double med, p99;
		bot_times(e, BOT_LEVEL_DEFAULT, &med, &p99);
		add_row(&t, med, "ms", "%s_bot_decision_median", g->name);
		add_row(&t, p99, "ms", "%s_bot_decision_p99", g->name);
		bot_times(e, BOT_LEVEL_MAX, &med, &p99);
		add_row(&t, med, "ms", "%s_bot3_decision_median", g->name);
		add_row(&t, p99, "ms", "%s_bot3_decision_p99", g->name);
	}
	double vmed, vp99;
	view_fanout(&vmed, &vp99);
	add_row(&t, vmed, "ms", "action_to_4_views_median");
	add_row(&t, vp99, "ms", "action_to_4_views_p99");
	save_figures(&t);
	add_row(&t, startup_ms(), "ms", "startup_median");
	struct audio_bench ab;
	char aerr[ERR_MAX];
	if (audio_bench_run(&ab, 200, "en", aerr, sizeof aerr) == 0) {
		add_row(&t, ab.median_ms, "ms", "key_to_speech_median");
		add_row(&t, ab.p99_ms, "ms", "key_to_speech_p99");
		add_row(&t, ab.synth_median_ms, "ms", "speech_synthesis_median");
		if (ab.have_device) {
			add_row(&t, ab.device.buffer_ms, "ms", "device_buffer");
			add_row(&t, ab.device.period_ms, "ms", "device_period");
		}
	} else {
		fprintf(stderr, "tapis bench: no speech figures: %s\n", aerr);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	add_row(&t, (double)ru.ru_maxrss / 1024.0, "MiB", "peak_memory");
	if (json) {
		fprintf(out, "{");
		for (int i = 0; i < t.n; i++)
			fprintf(out, "%s\"%s\":{\"value\":%.3f,\"unit\":\"%s\"}", i ? "," : "", t.r[i].name, t.r[i].value,
			        t.r[i].unit);
		fprintf(out, "}\n");
	} else {
		for (int i = 0; i < t.n; i++)
			fprintf(out, "%-40s %14.3f %s\n", t.r[i].name, t.r[i].value, t.r[i].unit);
	}
	return 0;
}
