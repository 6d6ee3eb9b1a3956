/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "app/tournament.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/opts.h"
#include "app/registry.h"
#include "bots/bot.h"
#include "core/clock.h"
#include "core/err.h"
#include "core/num.h"
#include "core/rules.h"
#include "core/xalloc.h"


/* The scores of the last deal's end (team games: who won the deal). */
struct deal_end {
	int seen;
	int nvalues;
	int values[GAME_MAX_SEATS];
};

static void catch_end(void *ctx, const struct event *e)
{
	struct deal_end *d = ctx;
	if (e->type != EV_HAND_END)
		return;
	d->seen = 1;
	d->nvalues = e->nvalues < GAME_MAX_SEATS ? e->nvalues : GAME_MAX_SEATS;
	memcpy(d->values, e->values, sizeof(int) * (size_t)d->nvalues);
}

/* A game whose deals (rounds) are a set number by default, as La
 * Bouillabaisse's six rounds each with its own aim, is played whole: one
 * round alone would measure only the first aim. The others play one deal. */
static int game_ends_itself(const struct game_ops *g)
{
	for (int i = 0; i < g->nrules; i++)
		if (!strcmp(g->rules[i].key, "hands"))
			return g->rules[i].def > 0;
	return 0;
}

struct stats {
	double ms[2];
	long n[2];
};

/* One play of a deal: A at the seats with (seat % 2 == a_parity); returns
 * A's average seat result minus B's (see tournament.h). */
static int play_once(const struct tournament_spec *sp, void *st, int players, uint64_t gseed,
                     int a_parity, struct stats *stats, double *out, char *err, size_t errlen)
{
	const struct game_ops *g = sp->game;
	const struct registry_game *e = registry_find(g->name);
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	for (int i = 0; sp->rule_args && sp->rule_args[i]; i++)
		if (rules_set_arg(&r, sp->rule_args[i], err, errlen) < 0)
			return -1;
	if (!game_ends_itself(g) && rules_set_arg(&r, "hands=1", err, errlen) < 0)
		return -1;
	struct game_setup setup = { players, -1, gseed, &r, NULL };
	memset(st, 0, g->state_size);
	if (g->init(st, &setup, err, errlen) < 0)
		return -1;
	struct deal_end end = { 0 };
	struct sink sink = { catch_end, &end };
	int before[GAME_MAX_SEATS] = { 0 }, after[GAME_MAX_SEATS] = { 0 };
	int ns = g->standings(st, before);
	g->start(st, &sink);
	struct rng brng;
	rng_seed(&brng, rng_derive(gseed, 0xb075));
	int seat;
	long guard = 0;
	while ((seat = g->to_act(st)) >= 0) {
		int is_a = (seat % 2) == a_parity;
		struct action a;
		double t0 = clock_ms();
		bot_choose_budget(g, e ? e->bot : NULL, st, is_a ? sp->level_a : sp->level_b,
		                  sp->budget > 0 ? sp->budget : BOT_BUDGET_DEFAULT, &brng, &a);
		stats->ms[is_a ? 0 : 1] += clock_ms() - t0;
		stats->n[is_a ? 0 : 1]++;
		struct refusal why;
		if (g->apply(st, &a, &sink, &why) < 0 || ++guard > 1000000)
			return errf(err, errlen, "%s: a bot's action was refused (seed %llu)", g->name,
			            (unsigned long long)gseed);
	}
	g->standings(st, after);
	double sum[2] = { 0, 0 };
	int cnt[2] = { 0, 0 };
	if (g->teams) {
		/* The deal is won by the team with more points at its end. */
		if (!end.seen || end.nvalues < 2)
			return errf(err, errlen, "%s: no end of deal", g->name);
		int ta = a_parity % g->teams;
		int va = end.values[ta], vb = end.values[1 - ta];
		*out = va > vb ? 1000.0 : va < vb ? -1000.0 : 0.0;
		return 0;
	}
	for (int s = 0; s < players && s < ns; s++) {
		int k = (s % 2) == a_parity ? 0 : 1;
		sum[k] += after[s] - before[s];
		cnt[k]++;
	}
	*out = sum[0] / cnt[0] - sum[1] / cnt[1];
	return 0;
}

int tournament_run(const struct tournament_spec *sp, struct tournament_result *res, char *err,
                   size_t errlen)
{
	const struct game_ops *g = sp->game;
	int players = sp->players > 0 ? sp->players : g->default_players;
	if (players < g->min_players || players > g->max_players || players < 2) {
		if (g->min_players == g->max_players)
			return errf(err, errlen, "%s is for %d players", g->name, g->min_players);
		return errf(err, errlen, "%s is for %d to %d players", g->name, g->min_players, g->max_players);
	}
	if (sp->deals < 2)
		return errf(err, errlen, "at least 2 deals");
	void *st = xmalloc(g->state_size);
	struct stats stats = { { 0, 0 }, { 0, 0 } };
	double sum = 0, sum2 = 0;
	for (int k = 0; k < sp->deals; k++) {
		uint64_t gseed = rng_derive(sp->seed, (uint64_t)k);
		double d1, d2;
		if (play_once(sp, st, players, gseed, 0, &stats, &d1, err, errlen) < 0 ||
		    play_once(sp, st, players, gseed, 1, &stats, &d2, err, errlen) < 0) {
			free(st);
			return -1;
		}
		double d = (d1 + d2) / 2.0;
		sum += d;
		sum2 += d * d;
	}
	free(st);
	int n = sp->deals;
	double mean = sum / n;
	double var = (sum2 - n * mean * mean) / (n - 1);
	double half = 1.96 * sqrt(var > 0 ? var / n : 0);
	res->deals = n;
	res->mean = mean;
	res->ci_low = mean - half;
	res->ci_high = mean + half;
	res->decisions_a = stats.n[0];
	res->decisions_b = stats.n[1];
	res->ms_a = stats.n[0] ? stats.ms[0] / (double)stats.n[0] : 0;
	res->ms_b = stats.n[1] ? stats.ms[1] / (double)stats.n[1] : 0;
	/* A is better when its result is above B's, or below it where lower wins. */
	int sign = g->lower_wins ? -1 : 1;
	if (sign * res->ci_low > 0 && sign * res->ci_high > 0)
		res->better = 'a';
	else if (sign * res->ci_low < 0 && sign * res->ci_high < 0)
		res->better = 'b';
	else
		res->better = 'u';
	return 0;
}

static const char *unit_of(const struct game_ops *g)
{
	if (g->teams)
		return "deals won per thousand";
	return g->lower_wins ? "points" : "chips";
}

enum {
	TOURNAMENT_MAX_DEALS = 100000000,
	TOURNAMENT_MAX_BUDGET = 10000,   /* ms */
	TOURNAMENT_MAX_LEVEL = 9,        /* a level above the strongest plays as the strongest */
};

/* The command line: the spec, the rules it names, and --json. */
struct tournament_args {
	struct tournament_spec sp;
	struct opt_list rules;
	int json;
};

static int opt_levels(void *cfg, const char *v, char *err, size_t errlen)
{
	struct tournament_args *t = cfg;
	long long la, lb;
	const char *comma = strchr(v, ',');
	char a[16];
	if (!comma || (size_t)(comma - v) >= sizeof a)
		return errf(err, errlen, "--levels: '%s' is not A,B", v);
	memcpy(a, v, (size_t)(comma - v));
	a[comma - v] = '\0';
	if (num_parse(a, 0, TOURNAMENT_MAX_LEVEL, &la) < 0 || num_parse(comma + 1, 0, TOURNAMENT_MAX_LEVEL, &lb) < 0)
		return errf(err, errlen, "--levels: '%s' is not A,B (0 to %d)", v, TOURNAMENT_MAX_LEVEL);
	t->sp.level_a = (int)la;
	t->sp.level_b = (int)lb;
	return 0;
}

static int opt_seed(void *cfg, const char *v, char *err, size_t errlen)
{
	if (num_parse_u64(v, UINT64_MAX, &((struct tournament_args *)cfg)->sp.seed) < 0)
		return errf(err, errlen, "--seed: '%s' is not a number", v);
	return 0;
}

#define T struct tournament_args
static const struct opt tournament_opts[] = {
	OPT_C("levels", "A,B", N_("the two bot levels that play (0 to 9)"), opt_levels),
	OPT_I("players", N_("N"), N_("number of players"), T, sp.players, 2, GAME_MAX_SEATS),
	OPT_I("deals", N_("N"), N_("deals played, each twice (default 2000)"), T, sp.deals, 2, TOURNAMENT_MAX_DEALS),
	OPT_I("budget", N_("MS"), N_("the search budget of a bot's decision"), T, sp.budget, 1, TOURNAMENT_MAX_BUDGET),
	OPT_C("seed", N_("N"), N_("seed of the random generator (default 1)"), opt_seed),
	OPT_L("rule", N_("KEY=VALUE"), N_("a rule option (repeatable)"), T, rules),
	OPT_F("json", N_("one JSON object instead of the text"), T, json),
	OPT_END,
};
#undef T
static const struct opt_cmd tournament_cmd = { "tapis tournament", "tapis tournament GAME --levels A,B [OPTIONS]",
	                                       tournament_opts };

int tournament_main(int argc, char **argv)
{
	struct tournament_args t = { .sp = { .deals = 2000, .seed = 1, .level_a = -1 } };
	const char *game;
	int npos, rc = opt_parse(&tournament_cmd, argc, argv, &t, &game, 1, &npos);
	if (rc == OPT_HELP)
		return opt_help(&tournament_cmd, NULL);
	if (rc)
		return rc;
	if (!npos)
		return opt_fail(&tournament_cmd, "which game?");
	if (!(t.sp.game = registry_ops(game)))
		return opt_fail(&tournament_cmd, "unknown game '%s'", game);
	if (t.sp.level_a < 0)
		return opt_fail(&tournament_cmd, "--levels A,B is needed");
	t.sp.rule_args = t.rules.v;
	struct tournament_result r;
	char err[ERR_MAX];
	if (tournament_run(&t.sp, &r, err, sizeof err) < 0) {
		fprintf(stderr, "tapis tournament: %s\n", err);
		return 2;
	}
	const char *better = r.better == 'a' ? "a" : r.better == 'b' ? "b" : "unsure";
	if (t.json) {
		printf("{\"game\":\"%s\",\"a\":%d,\"b\":%d,\"deals\":%d,\"mean\":%.4f,\"ci95_low\":%.4f,"
		       "\"ci95_high\":%.4f,\"better\":\"%s\",\"ms_per_decision_a\":%.4f,"
		       "\"ms_per_decision_b\":%.4f}\n",
		       t.sp.game->name, t.sp.level_a, t.sp.level_b, r.deals, r.mean, r.ci_low, r.ci_high, better,
		       r.ms_a, r.ms_b);
		return 0;
	}
	int players = t.sp.players > 0 ? t.sp.players : t.sp.game->default_players;
	printf("%s, %d players: level %d (A) against level %d (B), %d deals, each played twice with the "
	       "seats swapped\n",
	       t.sp.game->name, players, t.sp.level_a, t.sp.level_b, r.deals);
	printf("A minus B, %s a deal%s: %+.3f (95%% CI %+.3f to %+.3f)\n", unit_of(t.sp.game),
	       t.sp.game->lower_wins ? " (lower is better)" : "", r.mean, r.ci_low, r.ci_high);
	printf("better: %s\n", r.better == 'a' ? "A" : r.better == 'b' ? "B" : "unsure");
	printf("ms per decision: A %.3f (%ld decisions), B %.3f (%ld decisions)\n", r.ms_a, r.decisions_a,
	       r.ms_b, r.decisions_b);
	return 0;
}
