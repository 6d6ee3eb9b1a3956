/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A fixed workload for measuring what the host costs to phrase and send
 * each action (docs/performance.md, "Phrase once"): games of one game at
 * one host, every seat held by a person (their moves a level-1 bot's,
 * seeded by the move), English and French in turn, and spectators in
 * English and French; the messages are freed as sent. Run it under
 * `valgrind --tool=callgrind` and read the inclusive cost of view_events
 * and view_refresh (the phrasing and the sending), divided by the actions
 * it prints.
 *
 *   tools/phrase_drive GAME SPECTATORS GAMES
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "bots/bot.h"
#include "core/rng.h"
#include "net/server/host.h"
#include "net/store/store.h"

static unsigned long sent;
/* FNV-1a of each connection's messages, in order (the order between
 * connections is not the protocol's). */
static uint64_t digest[256];

static void on_send(void *ctx, long conn, char *text)
{
	(void)ctx;
	uint64_t *d = &digest[conn & 255];
	for (const char *p = text; *p; p++)
		*d = (*d ^ (unsigned char)*p) * 1099511628211ull;
	sent += strlen(text);
	free(text);
}

static const struct host_config cfg = { 600000, 0, NULL, 0, 600000, 0, 0, NULL, NULL, NULL };

int main(int argc, char **argv)
{
	const struct game_ops *g = registry_ops(argc > 1 ? argv[1] : "bourre");
	int watchers = argc > 2 ? atoi(argv[2]) : 0;
	int games = argc > 3 ? atoi(argv[3]) : 1;
	if (!g || watchers < 0 || watchers > HOST_MAX_MEMBERS - GAME_MAX_SEATS)
		return 2;
	long actions = 0;
	for (int game = 0; game < games; game++) {
		static struct host h;
		struct store st;
		char err[256];
		if (store_open(&st, "memory", NULL, err, sizeof err) < 0)
			return 1;
		struct rules r;
		rules_init(&r, g->rules, g->nrules);
		if (rules_index(&r, "hands") >= 0)
			rules_set(&r, "hands", "2", err, sizeof err);
		struct net_out out = { on_send, NULL };
		int players = g->default_players;
		if (host_create(&h, 1, g, players, &r, 1000 + (uint64_t)game, HOST_SEED_OPERATOR, "p0", &st, &cfg, out,
		                err, sizeof err) < 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		for (int s = 0; s < players; s++) {
			char name[16];
			snprintf(name, sizeof name, "p%d", s);
			host_set_seat(&h, s, 1, 1, NULL, err, sizeof err);
			if (host_join(&h, name, s % 2 ? "fr" : "en", s, s, 1000, err, sizeof err) < 0)
				return 1;
		}
		for (int k = 0; k < watchers; k++) {
			char name[16];
			snprintf(name, sizeof name, "w%d", k);
			if (host_join(&h, name, k % 2 ? "fr" : "en", 100 + k, -1, 1000, err, sizeof err) < 0)
				return 1;
		}
		if (host_start(&h, 1000, NULL, err, sizeof err) < 0)
			return 1;
		long long now = 1000;
		for (int i = 0; i < 100000; i++) {
			int s = table_to_act(&h.t);
			if (s < 0)
				break;
			char name[16];
			snprintf(name, sizeof name, "p%d", s);
			struct action a;
			struct rng rng;
			rng_seed(&rng, (uint64_t)table_moves(&h.t) + 1);
			bot_choose(h.g, registry_find(g->name)->bot, h.t.st, 1, &rng, &a);
			if (host_action(&h, name, &a, now) < 0)
				return 1;
			now += 10;
			actions++;
		}
		host_free(&h);
		store_close(&st);
	}
	uint64_t all = 0;
	for (int c = 0; c < 256; c++)
		all ^= (digest[c] + (uint64_t)c) * 0x9e3779b97f4a7c15ull;
	printf("actions %ld bytes %lu digest %016llx\n", actions, sent, (unsigned long long)all);
	return 0;
}
