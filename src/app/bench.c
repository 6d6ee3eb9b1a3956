#include "app/bench.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/table.h"
#include "app/view.h"
#include "audio/audio_bench.h"
#include "bots/bot.h"
#include "core/game.h"
#include "speech/speech.h"

struct row {
	char name[64];
	double value;
	const char *unit;
};

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
static double playouts(const struct game_ops *g, double budget, long *games_out)
{
	void *st = malloc(g->state_size);
	struct rules r;
	struct rng rng;
	rng_seed(&rng, 12345);
	long actions = 0, games = 0;
	double t0 = speech_now(), t = t0;
	do {
		rules_init(&r, g->rules, g->nrules);
		char err[128];
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
			bot_random(g, st, &rng, &a);
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

/* Bot decision times at the default level over positions of random games. */
static void bot_times(const struct game_ops *g, double *median, double *p99)
{
	enum { N = 400 };
	double v[N];
	int n = 0;
	void *st = malloc(g->state_size);
	struct rng rng;
	rng_seed(&rng, 777);
	for (uint64_t seed = 1; n < N && seed < 1000; seed++) {
		struct rules r;
		rules_init(&r, g->rules, g->nrules);
		char err[128];
		struct game_setup s = { g->default_players, -1, seed, &r, NULL };
		memset(st, 0, g->state_size);
		if (g->init(st, &s, err, sizeof err) < 0)
			break;
		g->start(st, NULL);
		for (int k = 0; k < 60 && n < N && g->to_act(st) >= 0; k++) {
			struct action a;
			struct refusal why;
			double t0 = speech_now();
			bot_choose(g, st, BOT_LEVEL_DEFAULT, &rng, &a);
			v[n++] = (speech_now() - t0) * 1000.0;
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
	char err[256];
	if (rules_index(&o.rules, "hands") >= 0)
		rules_set(&o.rules, "hands", "2", err, sizeof err);
	for (int s = 0; s < o.players; s++) {
		o.seat_kind[s] = SEAT_BOT;
		o.bot_level[s] = 1;
	}
	struct table tb;
	if (table_open(&tb, &o, NULL, NULL, err, sizeof err) < 0)
		return 0;
	enum { NVIEWS = 4 };
	struct view *v = calloc(NVIEWS, sizeof *v);
	struct caught *c = calloc(1, sizeof *c);
	struct view_sink sink = { drop_say, drop_update, NULL };
	int nv = 0, n = 0;
	for (int k = 0; v && c && k < NVIEWS; k++) {
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
	double *d = malloc(MAX * sizeof *d);
	int nd = 0;
	for (int i = 0; d && game_list[i]; i++)
		for (uint64_t seed = 1; seed <= 8 && nd < MAX; seed++)
			nd += fanout_game(game_list[i], seed, d + nd, MAX - nd);
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

int bench_run(int json, FILE *out)
{
	struct row rows[64];
	int n = 0;
	double start = speech_now();
	for (int i = 0; game_list[i] && n < 60; i++) {
		const struct game_ops *g = game_list[i];
		long games;
		double aps = playouts(g, 0.5, &games);
		snprintf(rows[n].name, sizeof rows[n].name, "%s_playout_actions", g->name);
		rows[n].value = aps;
		rows[n++].unit = "actions/s";
		double med, p99;
		bot_times(g, &med, &p99);
		snprintf(rows[n].name, sizeof rows[n].name, "%s_bot_decision_median", g->name);
		rows[n].value = med;
		rows[n++].unit = "ms";
		snprintf(rows[n].name, sizeof rows[n].name, "%s_bot_decision_p99", g->name);
		rows[n].value = p99;
		rows[n++].unit = "ms";
	}
	(void)start;
	double vmed, vp99;
	view_fanout(&vmed, &vp99);
	snprintf(rows[n].name, sizeof rows[n].name, "action_to_4_views_median");
	rows[n].value = vmed;
	rows[n++].unit = "ms";
	snprintf(rows[n].name, sizeof rows[n].name, "action_to_4_views_p99");
	rows[n].value = vp99;
	rows[n++].unit = "ms";
	snprintf(rows[n].name, sizeof rows[n].name, "startup_median");
	rows[n].value = startup_ms();
	rows[n++].unit = "ms";
	struct audio_bench ab;
	char aerr[256];
	int have_audio = audio_bench_run(&ab, 200, "en", aerr, sizeof aerr) == 0;
	if (have_audio) {
		snprintf(rows[n].name, sizeof rows[n].name, "key_to_speech_median");
		rows[n].value = ab.median_ms;
		rows[n++].unit = "ms";
		snprintf(rows[n].name, sizeof rows[n].name, "key_to_speech_p99");
		rows[n].value = ab.p99_ms;
		rows[n++].unit = "ms";
		snprintf(rows[n].name, sizeof rows[n].name, "speech_synthesis_median");
		rows[n].value = ab.synth_median_ms;
		rows[n++].unit = "ms";
		if (ab.have_device) {
			snprintf(rows[n].name, sizeof rows[n].name, "device_buffer");
			rows[n].value = ab.device.buffer_ms;
			rows[n++].unit = "ms";
			snprintf(rows[n].name, sizeof rows[n].name, "device_period");
			rows[n].value = ab.device.period_ms;
			rows[n++].unit = "ms";
		}
	} else {
		fprintf(stderr, "tapis bench: no speech figures: %s\n", aerr);
	}
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	snprintf(rows[n].name, sizeof rows[n].name, "peak_memory");
	rows[n].value = (double)ru.ru_maxrss / 1024.0;
	rows[n++].unit = "MiB";
	if (json) {
		fprintf(out, "{");
		for (int i = 0; i < n; i++)
			fprintf(out, "%s\"%s\":{\"value\":%.3f,\"unit\":\"%s\"}", i ? "," : "", rows[i].name, rows[i].value,
			        rows[i].unit);
		fprintf(out, "}\n");
	} else {
		for (int i = 0; i < n; i++)
			fprintf(out, "%-40s %14.3f %s\n", rows[i].name, rows[i].value, rows[i].unit);
	}
	return 0;
}
