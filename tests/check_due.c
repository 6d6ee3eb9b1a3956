/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The due heap gives its entries back earliest first (ties by id), only
 * those due, each once. A table ticked only when host_due says plays a
 * whole game, its bots and its turn timer included, in far fewer ticks
 * than a tick every 5 ms would take. */
#include <check.h>
#include <limits.h>
#include <stdlib.h>

#include "app/registry.h"
#include "net/server/due.h"
#include "net/server/host.h"
#include "net/store/store.h"
#include "testutil.h"

START_TEST(earliest_first)
{
	struct due d = { 0 };
	struct due_item x;
	ck_assert_int_eq(due_pop(&d, 1000, &x), 0);
	srand(7);
	long long sum = 0;
	for (int i = 0; i < 5000; i++) {
		long long at = rand() % 1000;
		due_push(&d, at, i % 97);
		sum += at;
	}
	ck_assert_int_eq(due_pop(&d, -1, &x), 0); /* nothing due yet */
	struct due_item last = { -1, -1 };
	int n = 0;
	while (due_pop(&d, 499, &x)) {
		ck_assert(x.at <= 499);
		ck_assert(x.at > last.at || (x.at == last.at && x.id >= last.id));
		last = x;
		sum -= x.at;
		n++;
	}
	ck_assert_int_gt(n, 0);
	ck_assert_int_lt(n, 5000);
	ck_assert_int_eq(d.n, 5000 - n);
	while (due_pop(&d, 999, &x)) {
		ck_assert(x.at >= 500);
		ck_assert(x.at > last.at || (x.at == last.at && x.id >= last.id));
		last = x;
		sum -= x.at;
		n++;
	}
	ck_assert_int_eq(n, 5000);
	ck_assert(sum == 0);
	ck_assert_int_eq(due_pop(&d, 1 << 30, &x), 0);
	due_push(&d, 3, 1);
	due_clear(&d);
	ck_assert_int_eq(due_pop(&d, 1 << 30, &x), 0);
	due_free(&d);
}
END_TEST

static void drop(void *ctx, long conn, char *text)
{
	(void)ctx;
	(void)conn;
	free(text);
}

/* Bourré, one deal: Anne and Bruno sit and never act (the turn timer
 * plays for them), bots at the other seats, a pause between bots' moves. */
START_TEST(ticked_when_due)
{
	static const struct host_config cfg = { 600000, 700, NULL, 30000, 600000, 0, 0, NULL, NULL, NULL, 0 };
	static struct host h;
	struct store st;
	char err[256];
	ck_assert_int_eq(store_open(&st, "memory", NULL, err, sizeof err), 0);
	const struct game_ops *g = registry_ops("bourre");
	ck_assert_ptr_nonnull(g);
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	ck_assert_int_eq(rules_set_arg(&r, "hands=1", err, sizeof err), 0);
	struct net_out out = { .send = drop };
	ck_assert_msg(host_create(&h, 1, g, 4, &r, 4242, HOST_SEED_OPERATOR, "Anne", &st, &cfg, out, err,
	                          sizeof err) == 0, "%s", err);
	for (int s = 0; s < 4; s++)
		ck_assert_int_eq(host_set_seat(&h, s, s < 2, 1, NULL, err, sizeof err), 0);
	long long now = 1000;
	ck_assert_msg(host_join(&h, "Anne", "en", 1, 0, now, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(host_join(&h, "Bruno", "en", 2, 1, now, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(host_start(&h, now, NULL, err, sizeof err) == 0, "%s", err);
	int ticks = 0, idle = 0;
	while (h.state == HOST_PLAYING && ticks < 100000) {
		h.state_seen = h.state; /* as the lobby does */
		long long due = host_due(&h, now);
		ck_assert_msg(due != LLONG_MAX, "a game in play with nothing due");
		if (due > now) {
			int moves = table_moves(&h.t);
			host_tick(&h, due - 1); /* nothing before its time */
			ck_assert_int_eq(table_moves(&h.t), moves);
			now = due;
		}
		if (!host_tick(&h, now))
			idle++;
		ticks++;
	}
	ck_assert_int_eq(h.state, HOST_OVER);
	int moves = table_moves(&h.t);
	ck_assert_int_gt(moves, 8);
	/* The turn timer played for Anne and Bruno: 30 s for each move. */
	ck_assert(now > 1000 + 2LL * 30000);
	/* A tick every 5 ms would have been (now - 1000) / 5. */
	ck_assert_int_lt(ticks, 4 * moves + 16);
	ck_assert_int_lt(idle, 3 * moves + 16);
	host_free(&h);
	store_close(&st);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("due");
	TCase *tc = tcase_create("due");
	tcase_add_test(tc, earliest_first);
	tcase_add_test(tc, ticked_when_due);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
