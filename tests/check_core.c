/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The core modules: cards and notation, the generator, actions, rules
 * options, the deck and actions files, the hand history. */
#include <stdlib.h>
#include <string.h>

#include "core/action.h"
#include "core/card.h"
#include "core/deckfile.h"
#include "core/hashmap.h"
#include "core/history.h"
#include "app/log.h"
#include "core/num.h"
#include "core/rng.h"
#include "core/rules.h"
#include "core/script.h"
#include "testutil.h"

START_TEST(notation)
{
	card_t c;
	char buf[CARD_STR_MAX];
	ck_assert_int_eq(card_parse("QH", &c), 0);
	ck_assert_int_eq(card_rank(c), RANK_QUEEN);
	ck_assert_int_eq(card_suit(c), SUIT_HEARTS);
	ck_assert_int_eq(card_parse("10d", &c), 0);
	ck_assert_str_eq(card_str(c, buf), "TD");
	ck_assert_int_eq(card_parse("td", &c), 0);
	ck_assert_str_eq(card_str(c, buf), "TD");
	ck_assert_int_eq(card_parse("as", &c), 0);
	ck_assert_str_eq(card_str(c, buf), "AS");
	ck_assert_int_eq(card_parse("1H", &c), -1);
	ck_assert_int_eq(card_parse("QX", &c), -1);
	ck_assert_int_eq(card_parse("QHH", &c), -1);
	ck_assert_int_eq(card_parse("", &c), -1);
	ck_assert_int_eq(card_rank_parse("10"), RANK_TEN);
	ck_assert_int_eq(card_suit_parse("c"), SUIT_CLUBS);
}
END_TEST

START_TEST(packs)
{
	card_t p[CARD_MAX_PACK];
	ck_assert_int_eq(card_pack_full(p, 1), 52);
	ck_assert_int_eq(card_pack_full(p, 2), 104);
	static const int r32[] = { 14, 10, 13, 12, 11, 9, 8, 7 };
	ck_assert_int_eq(card_pack(p, r32, 8, 1), 32);
	card_t q[CARD_MAX_PACK];
	memcpy(q, p, 32);
	struct rng r;
	rng_seed(&r, 5);
	card_shuffle(q, 32, &r);
	ck_assert(card_same_multiset(p, 32, q, 32));
	q[0] = q[1];
	ck_assert(!card_same_multiset(p, 32, q, 32));
	card_t h[] = { card_make(2, 3), card_make(14, 0), card_make(10, 0), card_make(13, 1) };
	card_sort(h, 4, NULL);
	ck_assert_int_eq(h[0], card_make(14, 0));
	ck_assert_int_eq(h[1], card_make(10, 0));
	ck_assert_int_eq(h[2], card_make(13, 1));
	ck_assert_int_eq(h[3], card_make(2, 3));
	ck_assert(card_has_suit(h, 4, 0));
	ck_assert(card_has_suit(h, 4, 1));
	ck_assert(!card_has_suit(h, 4, 2));
	ck_assert(!card_has_suit(h, 3, 3));
	card_t hidden[] = { CARD_NONE, CARD_NONE };
	ck_assert(!card_has_suit(hidden, 2, card_suit(CARD_NONE)));
	ck_assert_int_eq(num_clamp(5, 0, 10), 5);
	ck_assert_int_eq(num_clamp(-3, 0, 10), 0);
	ck_assert_int_eq(num_clamp(12, 0, 10), 10);
}
END_TEST

START_TEST(generator)
{
	struct rng a, b;
	rng_seed(&a, 42);
	rng_seed(&b, 42);
	for (int i = 0; i < 100; i++)
		ck_assert(rng_next(&a) == rng_next(&b));
	int count[6] = { 0 };
	for (int i = 0; i < 60000; i++) {
		uint32_t v = rng_below(&a, 6);
		ck_assert_uint_lt(v, 6);
		count[v]++;
	}
	for (int i = 0; i < 6; i++)
		ck_assert(count[i] > 9000 && count[i] < 11000);
	ck_assert(rng_derive(1, 2) != rng_derive(1, 3));
}
END_TEST

START_TEST(actions)
{
	struct action a;
	char err[128], buf[ACT_STR_MAX];
	ck_assert_int_eq(act_parse("raise 4", &a, err, sizeof err), 0);
	ck_assert_int_eq(a.kind, ACT_RAISE);
	ck_assert_int_eq(a.amount, 4);
	ck_assert_str_eq(act_format(&a, buf, sizeof buf), "raise 4");
	ck_assert_int_eq(act_parse("discard 2C 10d", &a, err, sizeof err), 0);
	ck_assert_str_eq(act_format(&a, buf, sizeof buf), "discard 2C TD");
	ck_assert_int_eq(act_parse("discard", &a, err, sizeof err), 0);
	ck_assert_int_eq(a.ncards, 0);
	ck_assert_int_eq(act_parse("play QH", &a, err, sizeof err), 0);
	ck_assert_int_eq(act_parse("play", &a, err, sizeof err), -1);
	ck_assert_int_eq(act_parse("play QH KH", &a, err, sizeof err), -1);
	ck_assert_int_eq(act_parse("raise", &a, err, sizeof err), -1);
	ck_assert_int_eq(act_parse("raise -2", &a, err, sizeof err), -1);
	ck_assert_int_eq(act_parse("jump", &a, err, sizeof err), -1);
	ck_assert(strstr(err, "jump") != NULL);
	ck_assert_int_eq(act_parse("fold 3", &a, err, sizeof err), -1);
	struct action legal[2] = { act_simple(ACT_CALL), act_amount(ACT_RAISE, 2) };
	legal[1].amount_max = 10;
	struct action r = act_amount(ACT_RAISE, 7);
	ck_assert(act_in_list(&r, legal, 2));
	r.amount = 11;
	ck_assert(!act_in_list(&r, legal, 2));
	/* a discard entry for every set of 1 to 2 of its three cards */
	struct action sets = act_simple(ACT_DISCARD), d;
	sets.sets = 1;
	sets.ncards = 3;
	sets.cards[0] = card_make(RANK_TWO, SUIT_CLUBS);
	sets.cards[1] = card_make(RANK_KING, SUIT_HEARTS);
	sets.cards[2] = card_make(RANK_ACE, SUIT_SPADES);
	sets.amount = 1;
	sets.amount_max = 2;
	ck_assert_int_eq(act_choices(&sets), 6);
	act_choice(&sets, 0, &d);
	ck_assert_str_eq(act_format(&d, buf, sizeof buf), "discard 2C");
	act_choice(&sets, 2, &d);
	ck_assert_str_eq(act_format(&d, buf, sizeof buf), "discard AS");
	act_choice(&sets, 4, &d);
	ck_assert_str_eq(act_format(&d, buf, sizeof buf), "discard 2C AS");
	ck_assert_int_eq(d.sets, 0);
	ck_assert(act_in_list(&d, &sets, 1));
	act_choice(&sets, 5, &d);
	ck_assert_str_eq(act_format(&d, buf, sizeof buf), "discard KH AS");
	ck_assert_int_eq(act_parse("discard 2C KH AS", &d, err, sizeof err), 0);
	ck_assert(!act_in_list(&d, &sets, 1));
	ck_assert_int_eq(act_parse("discard", &d, err, sizeof err), 0);
	ck_assert(!act_in_list(&d, &sets, 1));
	sets.amount = 0;
	sets.amount_max = 3;
	ck_assert_int_eq(act_choices(&sets), 8);
	ck_assert(act_in_list(&d, &sets, 1));
	act_choice(&sets, 7, &d);
	ck_assert_int_eq(d.ncards, 3);
}
END_TEST

static const char *const YESNO[] = { "no", "yes", NULL };
static const struct rule_def DEFS[] = {
	{ .key = "cave", .type = RULE_INT, .def = 100, .min = 10, .max = 1000 },
	{ .key = "rebuy", .type = RULE_CHOICE, .def = 1, .choices = YESNO },
	{ .key = "suit", .type = RULE_SUIT, .def = RULE_RANDOM, .allow_random = 1 },
	{ .key = "limit", .type = RULE_INT, .def = 0, .min = 1, .max = 1000, .none_word = "none" },
};

START_TEST(rules_options)
{
	struct rules r;
	char err[256], buf[32];
	rules_init(&r, DEFS, 4);
	ck_assert_int_eq(rules_get(&r, "cave"), 100);
	ck_assert_int_eq(rules_set_arg(&r, "cave=50", err, sizeof err), 0);
	ck_assert_int_eq(rules_get(&r, "cave"), 50);
	ck_assert_int_eq(rules_set_arg(&r, "cave=5", err, sizeof err), -1);
	ck_assert(strstr(err, "10 to 1000") != NULL);
	ck_assert_int_eq(rules_set_arg(&r, "rebuy=no", err, sizeof err), 0);
	ck_assert_int_eq(rules_get(&r, "rebuy"), 0);
	ck_assert_int_eq(rules_set_arg(&r, "rebuy=maybe", err, sizeof err), -1);
	ck_assert_int_eq(rules_set_arg(&r, "suit=H", err, sizeof err), 0);
	ck_assert_int_eq(rules_get(&r, "suit"), SUIT_HEARTS);
	ck_assert_str_eq(rules_value_str(&r, 2, buf, sizeof buf), "H");
	ck_assert_int_eq(rules_set_arg(&r, "limit=none", err, sizeof err), 0);
	ck_assert_str_eq(rules_value_str(&r, 3, buf, sizeof buf), "none");
	ck_assert_int_eq(rules_set_arg(&r, "colour=red", err, sizeof err), -1);
	ck_assert(strstr(err, "unknown rule") != NULL);
	ck_assert_int_eq(rules_set_arg(&r, "cave", err, sizeof err), -1);
}
END_TEST

START_TEST(deck_files)
{
	static const int ranks[] = { 14, 13 };
	card_t pack[8];
	int n = card_pack(pack, ranks, 2, 1);
	struct deckstack *ds = malloc(sizeof *ds);
	char err[256];
	ck_assert_int_eq(deckfile_parse("# two packs\nAS KS AH KH\nAD KD AC KC\n--\nKC AC KD AD KH AH KS AS\n",
	                                "d", pack, n, ds, err, sizeof err), 0);
	ck_assert_int_eq(ds->npacks, 2);
	ck_assert_int_eq(ds->size[1], 8);
	ck_assert_int_eq(deckfile_parse("AS KS AH KH\nAD KD AC QC\n", "d", pack, n, ds, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "d:2") && strstr(err, "QC"), "%s", err);
	ck_assert_int_eq(deckfile_parse("AS KS AH KH AD KD AC ZZ\n", "d", pack, n, ds, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "d:1") && strstr(err, "ZZ"), "%s", err);
	ck_assert_int_eq(deckfile_parse("AS KS AH KH AD KD AC AS\n", "d", pack, n, ds, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "AS"), "%s", err);
	ck_assert_int_eq(deckfile_parse("AS KS AH\n", "d", pack, n, ds, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "missing"), "%s", err);
	free(ds);
}
END_TEST

START_TEST(action_files)
{
	struct script s;
	char err[256];
	ck_assert_int_eq(script_parse(&s, "# start\n0 play QH\n\n1 raise 3  # comment\n", "a", 4, err, sizeof err), 0);
	ck_assert_int_eq(s.n, 2);
	ck_assert_int_eq(s.lines[1].line, 4);
	ck_assert_int_eq(s.lines[1].act.amount, 3);
	ck_assert_ptr_eq(script_peek(&s), &s.lines[0]);
	script_advance(&s);
	script_advance(&s);
	ck_assert_ptr_null(script_peek(&s));
	script_release(&s);
	ck_assert_int_eq(script_parse(&s, "0 play QH\n7 pass\n", "a", 4, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "a:2"), "%s", err);
	ck_assert_int_eq(script_parse(&s, "0 dance\n", "a", 4, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "a:1") && strstr(err, "dance"), "%s", err);
	ck_assert_int_eq(script_parse(&s, "play QH\n", "a", 4, err, sizeof err), -1);
}
END_TEST

START_TEST(history_lines)
{
	struct event e;
	char buf[1024];
	ev_init(&e, EV_ACTION);
	e.seat = 2;
	e.act = act_card(ACT_PLAY, card_make(RANK_QUEEN, SUIT_HEARTS));
	hist_format(&e, 7, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"type\":\"action\",\"seq\":7,\"seat\":2,\"action\":\"play\",\"card\":\"QH\"}");
	ev_init(&e, EV_PAYMENT);
	e.from = 1;
	e.amount = 5;
	e.reason = EV_PAY_POT;
	hist_format(&e, 8, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"type\":\"payment\",\"seq\":8,\"from\":1,\"to\":null,\"amount\":5,\"reason\":\"pot\"}");
	ev_init(&e, EV_TRICK);
	e.winner = 1;
	e.ncards = 2;
	e.cards[0] = card_make(2, 0);
	e.card_seat[0] = 0;
	e.cards[1] = card_make(14, 0);
	e.card_seat[1] = 1;
	e.points = 5;
	hist_format(&e, 9, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"type\":\"trick\",\"seq\":9,\"winner\":1,\"cards\":[{\"seat\":0,\"card\":\"2S\"},"
	                      "{\"seat\":1,\"card\":\"AS\"}],\"points\":5}");
	ev_init(&e, EV_GAME_END);
	e.nvalues = 3;
	e.values[0] = 10;
	e.values[1] = 5;
	e.values[2] = 5;
	e.winners = 6;
	hist_format(&e, 10, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"type\":\"game_end\",\"seq\":10,\"standings\":[10,5,5],\"winner\":[1,2]}");
}
END_TEST

/* The word a line gives after key ("reason":"pot" -> pot) into w. */
static void word_after(const char *line, const char *key, char *w, size_t n)
{
	const char *p = strstr(line, key);
	ck_assert_msg(p != NULL, "%s in %s", key, line);
	p += strlen(key);
	size_t k = strcspn(p, "\"");
	ck_assert(k < n);
	memcpy(w, p, k);
	w[k] = '\0';
}

/* Every reason, note and choice has its own word in the hand history;
 * none has the empty word but NONE. */
START_TEST(history_words)
{
	static const struct {
		int type, count;
		const char *key;
	} kinds[] = {
		{ EV_PAYMENT, EV_PAY_COUNT, "\"reason\":\"" },
		{ EV_PHASE, EV_NOTE_COUNT, "\"note\":\"" },
		{ EV_CHOICE, EV_WHAT_COUNT, "\"what\":\"" },
	};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		char words[64][32];
		ck_assert(kinds[k].count <= 64);
		for (int v = 0; v < kinds[k].count; v++) {
			struct event e;
			char buf[1024];
			ev_init(&e, kinds[k].type);
			if (kinds[k].type == EV_PAYMENT)
				e.reason = (enum ev_reason)v;
			else if (kinds[k].type == EV_PHASE)
				e.note = (enum ev_note)v;
			else
				e.what = (enum ev_what)v;
			hist_format(&e, 1, buf, sizeof buf);
			word_after(buf, kinds[k].key, words[v], sizeof words[v]);
			ck_assert_msg((v == 0) == (words[v][0] == '\0'), "%s value %d: word '%s'", kinds[k].key, v,
			              words[v]);
			for (int u = 0; u < v; u++)
				ck_assert_msg(strcmp(words[u], words[v]) != 0, "%s: %d and %d both '%s'", kinds[k].key, u, v,
				              words[v]);
		}
	}
	struct event e;
	char buf[256];
	ev_init(&e, EV_CHOICE);
	e.what = EV_WHAT_SUIT;
	e.value = SUIT_DIAMONDS;
	hist_format(&e, 1, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"type\":\"choice\",\"seq\":1,\"what\":\"suit\",\"value\":\"D\"}");
	ev_init(&e, EV_PHASE);
	e.note = EV_NOTE_EXTRA_ROUND;
	e.seat = 0;
	hist_format(&e, 15, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"type\":\"phase\",\"seq\":15,\"note\":\"extra_round\",\"seat\":0,\"code\":0,\"value\":0}");
	ev_init(&e, EV_HAND_END);
	e.hand = 2;
	e.nvalues = 2;
	e.values[0] = 7;
	e.values[1] = 3;
	hist_format(&e, 20, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"type\":\"hand_end\",\"seq\":20,\"hand\":2,\"scores\":[7,3],\"pot\":0}");
	e.values_kind = EV_VALUES_CHIPS;
	hist_format(&e, 20, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"type\":\"hand_end\",\"seq\":20,\"hand\":2,\"chips\":[7,3],\"pot\":0}");
}
END_TEST

/* The log: every line goes to the sink set; the same line again within
 * the second is counted, and the count told with the next one written. */
struct said { char lines[8][300]; int n; };

static void keep_line(void *ctx, const char *line)
{
	struct said *s = ctx;
	if (s->n < 8)
		snprintf(s->lines[s->n++], sizeof s->lines[0], "%s", line);
}

START_TEST(log_sink)
{
	struct said s = { .n = 0 };
	log_set(keep_line, &s);
	log_say("table %d: %s", 3, "no room");
	log_say("table %d: %s", 3, "no room");
	log_say("table %d: %s", 3, "no room");
	log_say("another %s", "line");
	ck_assert_int_eq(s.n, 2);
	ck_assert_str_eq(s.lines[0], "table 3: no room");
	ck_assert_str_eq(s.lines[1], "another line");
	log_flush(0);           /* the second is not over: nothing yet */
	ck_assert_int_eq(s.n, 2);
	log_flush(1);
	ck_assert_int_eq(s.n, 3);
	ck_assert_str_eq(s.lines[2], "table 3: no room (2 more like it)");
	log_flush(1);           /* told once */
	ck_assert_int_eq(s.n, 3);
	log_set(NULL, NULL);
}
END_TEST

/* The hash table of strings: every key found at its first entry, a
 * duplicate left out, prefixes and absent keys not found, and enough
 * keys for the probes to wrap around. */
static const char *nth_key(const void *ctx, uint32_t i, size_t *len)
{
	const char *const *keys = ctx;
	*len = strlen(keys[i]);
	return keys[i];
}

START_TEST(hash_table)
{
	static char many[600][8];
	const char *keys[600];
	for (int i = 0; i < 600; i++) {
		snprintf(many[i], sizeof many[i], "k%d", i % 500);   /* 100 twice */
		keys[i] = many[i];
	}
	struct hashmap m;
	ck_assert_int_eq(hashmap_make(&m, 600, nth_key, keys), 0);
	for (int i = 0; i < 600; i++)
		ck_assert_int_eq(hashmap_find(&m, keys[i], strlen(keys[i]), nth_key, keys), i % 500);
	ck_assert_int_eq(hashmap_find(&m, "k", 1, nth_key, keys), -1);
	ck_assert_int_eq(hashmap_find(&m, "k12", 2, nth_key, keys), 1);   /* "k1" */
	ck_assert_int_eq(hashmap_find(&m, "k5000", 5, nth_key, keys), -1);
	ck_assert_int_eq(hashmap_find(&m, "", 0, nth_key, keys), -1);
	hashmap_free(&m);
	ck_assert_int_eq(hashmap_find(&m, "k1", 2, nth_key, keys), -1);
	ck_assert_int_eq(hashmap_make(&m, 0, nth_key, keys), 0);
	ck_assert_int_eq(hashmap_find(&m, "k1", 2, nth_key, keys), -1);
	hashmap_free(&m);
	ck_assert_int_eq(hashmap_make(&m, (1u << 28) + 1, nth_key, keys), -1);
}
END_TEST

/* The table kept in step with entries that come, go and move, as the
 * lobby keeps its people: the last entry takes the place of one removed.
 * Half the keys share the low 12 bits of their hash (one long run of
 * probes at every size up to 4,096 slots), so removals must move the
 * entries after them back; after every step each entry held is found at
 * its number and every key gone is not found. */
struct kept {
	char key[800][12];   /* the key of entry i */
	int n;
};

static const char *kept_key(const void *ctx, uint32_t i, size_t *len)
{
	const struct kept *k = ctx;
	*len = strlen(k->key[i]);
	return k->key[i];
}

static void kept_check(const struct hashmap *m, const struct kept *k, char (*pool)[12], int npool)
{
	ck_assert_uint_eq(m->n, (unsigned)k->n);
	for (int i = 0; i < k->n; i++)
		ck_assert_int_eq(hashmap_find(m, k->key[i], strlen(k->key[i]), kept_key, k), i);
	/* A key not held is not found: whatever is found holds that key (the
	 * keys held were all found at their numbers above). */
	for (int p = 0; p < npool; p++) {
		int i = hashmap_find(m, pool[p], strlen(pool[p]), kept_key, k);
		if (i >= 0) {
			ck_assert_int_lt(i, k->n);
			ck_assert_str_eq(k->key[i], pool[p]);
		}
	}
}

START_TEST(hash_table_kept)
{
	static char pool[800][12];
	static struct kept k;
	int npool = 0;
	/* 400 keys of one home up to 4,096 slots, the last but one (their
	 * run wraps around to the first slots), 400 of any. */
	for (int i = 0; npool < 400; i++) {
		char x[12];
		snprintf(x, sizeof x, "c%d", i);
		if ((hashmap_hash(x, strlen(x)) & 0xfff) == 0xffe)
			memcpy(pool[npool++], x, sizeof x);
	}
	for (int i = 0; npool < 800; i++)
		snprintf(pool[npool++], sizeof pool[0], "n%d", i);
	struct hashmap m;
	memset(&m, 0, sizeof m);
	ck_assert_int_eq(hashmap_find(&m, "c1", 2, kept_key, &k), -1);
	struct rng r;
	rng_seed(&r, 7);
	unsigned char held[800] = { 0 };
	for (int step = 0; step < 6000; step++) {
		int p = (int)rng_below(&r, 800);
		if (!held[p] && (k.n < 700 || step % 2)) {
			/* Comes in as the last entry. */
			memcpy(k.key[k.n], pool[p], sizeof pool[p]);
			hashmap_add(&m, (uint32_t)k.n, kept_key, &k);
			k.n++;
			held[p] = 1;
		} else if (held[p]) {
			/* Goes; the last entry takes its place. */
			int i = 0;
			while (strcmp(k.key[i], pool[p]))
				i++;
			hashmap_remove(&m, (uint32_t)i, kept_key, &k);
			int last = --k.n;
			if (i != last) {
				memcpy(k.key[i], k.key[last], sizeof k.key[i]);
				hashmap_move(&m, (uint32_t)last, (uint32_t)i, kept_key, &k);
			}
			held[p] = 0;
		}
		if (step % 50 == 0 || step > 5900)
			kept_check(&m, &k, pool, npool);
	}
	/* All gone, then one back: found alone. */
	while (k.n) {
		hashmap_remove(&m, (uint32_t)(k.n - 1), kept_key, &k);
		k.n--;
	}
	kept_check(&m, &k, pool, npool);
	memcpy(k.key[0], pool[3], sizeof pool[3]);
	hashmap_add(&m, 0, kept_key, &k);
	k.n = 1;
	kept_check(&m, &k, pool, npool);
	hashmap_free(&m);
	/* A table made at once goes on being kept in step. */
	for (int i = 0; i < 100; i++)
		memcpy(k.key[i], pool[i * 2], sizeof pool[0]);
	k.n = 100;
	ck_assert_int_eq(hashmap_make(&m, 100, kept_key, &k), 0);
	for (int i = 100; i < 300; i++) {
		memcpy(k.key[i], pool[i * 2 + 1], sizeof pool[0]);
		hashmap_add(&m, (uint32_t)i, kept_key, &k);
		k.n++;
	}
	hashmap_remove(&m, 0, kept_key, &k);
	memcpy(k.key[0], k.key[--k.n], sizeof k.key[0]);
	hashmap_move(&m, (uint32_t)k.n, 0, kept_key, &k);
	kept_check(&m, &k, pool, npool);
	hashmap_free(&m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, notation);
	tcase_add_test(tc, packs);
	tcase_add_test(tc, generator);
	tcase_add_test(tc, actions);
	tcase_add_test(tc, rules_options);
	tcase_add_test(tc, deck_files);
	tcase_add_test(tc, action_files);
	tcase_add_test(tc, history_lines);
	tcase_add_test(tc, history_words);
	tcase_add_test(tc, log_sink);
	tcase_add_test(tc, hash_table);
	tcase_add_test(tc, hash_table_kept);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
