/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Replaying hand histories: for every game, logs written by bot games (with
 * the seed, a given dealer, stacked packs) replay to the same lines and the
 * same announcements; tampered logs are refused naming the right line, and
 * no input makes the reader crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/cmd_replay.h"
#include "app/local.h"
#include "core/file.h"
#include "app/registry.h"
#include "app/replay.h"
#include "app/table.h"
#include "bots/bot.h"
#include "core/deckfile.h"
#include "core/rng.h"
#include "i18n/i18n.h"
#include "speech/speech.h"
#include "testutil.h"

/* A temporary file name (the file is created empty). */
static void temp_path(char *buf, size_t len, const char *what)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(buf, len, "%s/tapis-replay-%s-XXXXXX", dir, what);
	int fd = mkstemp(buf);
	ck_assert_msg(fd >= 0, "cannot create %s", buf);
	close(fd);
}

struct played {
	char *log;       /* the hand history */
	char *said;      /* what a spectator heard (when asked) */
	size_t said_len;
	int actions;
};

/* A whole game by bots through the table: every seat a bot, `hands` deals
 * when the game has that rule, the log to a temporary file. */
static void play_game(const struct game_ops *g, int players, uint64_t seed, int dealer,
                      const char *deck_path, int hands, int want_speech, struct played *out)
{
	memset(out, 0, sizeof *out);
	struct table_options o;
	memset(&o, 0, sizeof o);
	o.game = g;
	o.players = players;
	o.dealer = dealer;
	o.seed = seed;
	rules_init(&o.rules, g->rules, g->nrules);
	char err[1024], v[16];
	if (rules_index(&o.rules, "hands") >= 0) {
		snprintf(v, sizeof v, "%d", hands);
		ck_assert_msg(rules_set(&o.rules, "hands", v, err, sizeof err) == 0, "%s: %s", g->name, err);
	}
	for (int s = 0; s < players; s++) {
		o.seat_kind[s] = SEAT_BOT;
		o.bot_level[s] = 1;
	}
	char logp[512];
	temp_path(logp, sizeof logp, "log");
	o.log_path = logp;
	o.deck_path = deck_path;
	struct speech sp, *spp = NULL;
	FILE *said = NULL;
	if (want_speech) {
		said = open_memstream(&out->said, &out->said_len);
		ck_assert(said != NULL);
		memset(&sp, 0, sizeof sp);
		sp.out = said;
		struct speech_settings set;
		speech_settings_default(&set);
		ck_assert(speech_open(&sp, "text", i18n_lang(), &set, NULL, err, sizeof err) == 0);
		spp = &sp;
	}
	struct table t;
	ck_assert_msg(table_open(&t, &o, err, sizeof err) == 0, "%s: %s", g->name, err);
	struct local player;
	ck_assert_msg(local_open(&player, &t, t.talk.me, spp, NULL, err, sizeof err) == 0, "%s", err);
	table_start(&t);
	long steps = 0;
	while (table_to_act(&t) >= 0 && steps < 20000) {
		ck_assert_msg(table_auto_step(&t, err, sizeof err) == 0, "%s: %s", g->name, err);
		steps++;
	}
	out->actions = (int)steps;
	local_close(&player);
	table_close(&t);
	if (spp) {
		speech_close(spp);
		fclose(said);
	}
	out->log = deckfile_slurp(logp, err, sizeof err);
	ck_assert_msg(out->log != NULL, "%s", err);
	unlink(logp);
}

static void played_release(struct played *p)
{
	free(p->log);
	free(p->said);
	memset(p, 0, sizeof *p);
}

static int count_lines(const char *text)
{
	int n = 0;
	for (const char *p = text; *p; p++)
		n += *p == '\n';
	return n;
}

/* Line k (from 1) of text into a malloc'd string. */
static char *line_of(const char *text, int k)
{
	const char *p = text;
	for (int i = 1; i < k && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	ck_assert(p && *p);
	const char *e = strchr(p, '\n');
	size_t n = e ? (size_t)(e - p) : strlen(p);
	char *s = malloc(n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* text with line k replaced by repl (NULL: removed). */
static char *replace_line(const char *text, int k, const char *repl)
{
	size_t len = strlen(text) + (repl ? strlen(repl) : 0) + 2;
	char *out = malloc(len);
	size_t n = 0;
	int line = 1;
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) + 1 : strlen(p);
		if (line == k) {
			if (repl)
				n += (size_t)sprintf(out + n, "%s\n", repl);
		} else {
			memcpy(out + n, p, l);
			n += l;
		}
		p += l;
		line++;
	}
	out[n] = '\0';
	return out;
}

/* The first line (from `from`) containing needle, or 0. */
static int find_line(const char *text, const char *needle, int from)
{
	int n = count_lines(text);
	for (int k = from; k <= n; k++) {
		char *l = line_of(text, k);
		int hit = strstr(l, needle) != NULL;
		free(l);
		if (hit)
			return k;
	}
	return 0;
}

static void player_counts(const struct game_ops *g, int *counts, int *n)
{
	*n = 0;
	int cand[3] = { g->min_players, g->default_players, g->max_players };
	for (int i = 0; i < 3; i++) {
		int dup = 0;
		for (int j = 0; j < *n; j++)
			dup |= counts[j] == cand[i];
		if (!dup)
			counts[(*n)++] = cand[i];
	}
}

/* Every game, several player counts and seeds: the log replays the same,
 * from the seed, and with every pack of the log stacked (each hand_start
 * pack is the order the game dealt from). */
START_TEST(every_game_replays)
{
	int games = 0, logs = 0;
	long lines = 0;
	for (int gi = 0; registry_games[gi].ops; gi++, games++) {
		const struct game_ops *g = registry_games[gi].ops;
		int counts[3], nc;
		player_counts(g, counts, &nc);
		for (int c = 0; c < nc; c++)
			for (uint64_t seed = 1; seed <= 2; seed++) {
				struct played p;
				play_game(g, counts[c], seed * 1000 + (uint64_t)counts[c], -1, NULL, 2, 0, &p);
				struct replay_result res;
				int rc = replay_text(p.log, g->name, REPLAY_AUTO, NULL, &res);
				ck_assert_msg(rc == REPLAY_SAME, "%s, %d players, seed %llu: %s", g->name, counts[c],
				              (unsigned long long)seed, res.msg);
				ck_assert_int_eq(res.stacked, 0);
				ck_assert_int_eq(res.dealer_given, 0);
				ck_assert_int_eq(res.actions, p.actions);
				ck_assert_int_eq(res.lines, count_lines(p.log));
				ck_assert_msg(res.hands >= 1, "%s: no hand_start", g->name);
				/* Each pack as the game emitted it is the order it dealt
				 * from: stacked, it deals the same hands. (A game may
				 * still draw from its generator during a deal, Bourré's
				 * reshuffle: then only the seed gives the rest.) */
				rc = replay_text(p.log, g->name, REPLAY_STACK, NULL, &res);
				ck_assert_msg(res.stacked >= 1 || rc == REPLAY_SAME, "%s: no pack in hand_start", g->name);
				if (rc != REPLAY_SAME) {
					ck_assert_int_eq(rc, REPLAY_DIFFERS);
					char *l = line_of(p.log, res.line);
					ck_assert_msg(!strstr(l, "\"type\":\"hand_start\"") && !strstr(l, "\"type\":\"deal\"") &&
					              !strstr(l, "\"type\":\"turnup\""),
					              "%s, %d players: the pack of hand_start is not the order of the deal: %s",
					              g->name, counts[c], res.msg);
					free(l);
					fprintf(stderr, "replay: %s, %d players: not from the packs alone: %s\n", g->name,
					        counts[c], res.msg);
				}
				rc = replay_text(p.log, g->name, REPLAY_SEED, NULL, &res);
				ck_assert_msg(rc == REPLAY_SAME, "%s: %s", g->name, res.msg);
				lines += count_lines(p.log);
				logs++;
				played_release(&p);
			}
	}
	ck_assert_int_gt(games, 0);
	fprintf(stderr, "replay: %d games, %d logs, %ld lines replayed\n", games, logs, lines);
}
END_TEST

/* A first dealer given (--dealer): not drawn from the seed. */
START_TEST(given_dealer)
{
	for (int gi = 0; registry_games[gi].ops; gi++) {
		const struct game_ops *g = registry_games[gi].ops;
		int players = g->default_players;
		for (int dealer = 0; dealer < players; dealer += players - 1 > 0 ? players - 1 : 1) {
			struct played p;
			play_game(g, players, 77, dealer, NULL, 1, 0, &p);
			struct replay_result res;
			int rc = replay_text(p.log, g->name, REPLAY_AUTO, NULL, &res);
			ck_assert_msg(rc == REPLAY_SAME, "%s dealer %d: %s", g->name, dealer, res.msg);
			played_release(&p);
		}
	}
}
END_TEST

/* A game played with --deck (the first deal or the first two stacked, the
 * rest from the seed) replays from the packs of its log. */
START_TEST(stacked_deck)
{
	for (int gi = 0; registry_games[gi].ops; gi++) {
		const struct game_ops *g = registry_games[gi].ops;
		int counts[3], nc;
		player_counts(g, counts, &nc);
		for (int pc = 0; pc < nc; pc++) {
		int players = counts[pc];
		struct rules r;
		rules_init(&r, g->rules, g->nrules);
		card_t pack[CARD_MAX_PACK];
		char err[256];
		int n = g->pack(&r, players, pack, err, sizeof err);
		ck_assert_msg(n > 0, "%s: %s", g->name, err);
		for (int npacks = 1; npacks <= 2; npacks++) {
			char deckp[512];
			temp_path(deckp, sizeof deckp, "deck");
			FILE *f = fopen(deckp, "w");
			ck_assert(f != NULL);
			struct rng rng;
			rng_seed(&rng, 4242 + (uint64_t)npacks);
			card_t first[CARD_MAX_PACK];
			for (int k = 0; k < npacks; k++) {
				card_t cards[CARD_MAX_PACK];
				memcpy(cards, pack, (size_t)n);
				card_shuffle(cards, n, &rng);
				if (k == 0)
					memcpy(first, cards, (size_t)n);
				fprintf(f, "# pack %d\n", k + 1);
				for (int i = 0; i < n; i++) {
					char s[CARD_STR_MAX];
					fprintf(f, "%s%c", card_str(cards[i], s), i % 13 == 12 ? '\n' : ' ');
				}
				fprintf(f, "\n--\n");
			}
			fclose(f);
			struct played p;
			play_game(g, players, 99, -1, deckp, 3, 0, &p);
			unlink(deckp);
			/* The first hand_start carries the stacked pack as it is. */
			int hs = find_line(p.log, "\"type\":\"hand_start\"", 1);
			ck_assert_int_gt(hs, 0);
			char *l = line_of(p.log, hs);
			char want[1024];
			size_t w = (size_t)snprintf(want, sizeof want, "\"pack\":[");
			for (int i = 0; i < n; i++) {
				char s[CARD_STR_MAX];
				w += (size_t)snprintf(want + w, sizeof want - w, "%s\"%s\"", i ? "," : "", card_str(first[i], s));
			}
			ck_assert_msg(strstr(l, want) != NULL, "%s: the first hand_start is not the stacked pack: %s",
			              g->name, l);
			free(l);
			struct replay_result res;
			int rc = replay_text(p.log, g->name, REPLAY_AUTO, NULL, &res);
			ck_assert_msg(rc == REPLAY_SAME, "%s, %d players, %d packs stacked: %s", g->name, players, npacks,
			              res.msg);
			ck_assert_int_ge(res.stacked, 1);
			if (res.stacked != npacks && res.stacked < res.hands)
				fprintf(stderr, "replay: %s, %d players: %d packs stacked, %d of the log replay it\n", g->name,
				        players, npacks, res.stacked);
			/* From the seed alone it parts at the first hand_start. */
			rc = replay_text(p.log, g->name, REPLAY_SEED, NULL, &res);
			ck_assert_int_eq(rc, REPLAY_DIFFERS);
			ck_assert_msg(res.line > 1 && res.line <= hs, "%s: parted at line %d, not by %d", g->name, res.line, hs);
			played_release(&p);
		}
		}
	}
}
END_TEST

/* The replay's words against the table's: the same lines, but where the
 * table said a key gives the hands of a showdown (shown, an L away), the
 * replay, where no key is pressed, gives them. */
static void same_but_showdowns(const char *game, const char *lang, const char *said, const char *table)
{
	const char *key = !strcmp(lang, "fr") ? "Abattage (L pour entendre les mains)." : "Showdown. L: the hands.";
	const char *told = !strcmp(lang, "fr") ? "Abattage : " : "Showdown: ";
	while (*said || *table) {
		const char *a = strchr(said, '\n'), *b = strchr(table, '\n');
		ck_assert_msg(a && b, "%s (%s): the replay does not say what the table said", game, lang);
		size_t la = (size_t)(a - said), lb = (size_t)(b - table);
		if (lb == strlen(key) && !memcmp(table, key, lb)) {
			ck_assert_msg(la > strlen(told) && !memcmp(said, told, strlen(told)), "%s (%s): %.*s", game, lang,
			              (int)la, said);
		} else {
			ck_assert_msg(la == lb && !memcmp(said, table, la), "%s (%s): '%.*s' said, '%.*s' at the table", game,
			              lang, (int)la, said, (int)lb, table);
		}
		said = a + 1;
		table = b + 1;
	}
}

/* The replay says what the table said to a spectator, word for word, in
 * both languages (a showdown's hands given, where the table leaves them
 * to a key). */
START_TEST(same_announcements)
{
	const char *langs[] = { "en", "fr" };
	for (int li = 0; li < 2; li++) {
		char err[256];
		i18n_set_lang(langs[li], err, sizeof err);
		for (int gi = 0; registry_games[gi].ops; gi++) {
			const struct game_ops *g = registry_games[gi].ops;
			struct played p;
			play_game(g, g->default_players, 5 + (uint64_t)li, -1, NULL, 1, 1, &p);
			char *said = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&said, &len);
			struct replay_result res;
			int rc = replay_text(p.log, g->name, REPLAY_AUTO, f, &res);
			fclose(f);
			ck_assert_msg(rc == REPLAY_SAME, "%s: %s", g->name, res.msg);
			ck_assert_msg(len > 0, "%s: nothing said", g->name);
			same_but_showdowns(g->name, langs[li], said, p.said);
			free(said);
			played_release(&p);
		}
	}
	char err[256];
	i18n_set_lang("en", err, sizeof err);
}
END_TEST

static void expect(const char *text, const char *what, int status, int line)
{
	struct replay_result res;
	int rc = replay_text(text, "t.jsonl", REPLAY_AUTO, NULL, &res);
	ck_assert_msg(rc == status, "%s: status %d, wanted %d (%s)", what, rc, status, res.msg);
	ck_assert_msg(res.line == line, "%s: line %d, wanted %d (%s)", what, res.line, line, res.msg);
	if (line > 0) {
		char tag[64];
		snprintf(tag, sizeof tag, "t.jsonl:%d: ", line);
		ck_assert_msg(strncmp(res.msg, tag, strlen(tag)) == 0, "%s: message '%s'", what, res.msg);
	}
}

/* Tampered logs of every game: refused, naming the line. */
START_TEST(tampered)
{
	for (int gi = 0; registry_games[gi].ops; gi++) {
		const struct game_ops *g = registry_games[gi].ops;
		struct played p;
		play_game(g, g->default_players, 31, -1, NULL, 1, 0, &p);
		int n = count_lines(p.log);
		ck_assert_int_gt(n, 6);
		char *t;
		/* Every line removed in turn (the first ones, the last ones); the
		 * last one removed leaves a log cut inside its last action, as a
		 * game killed before writing it. */
		for (int k = 2; k < n; k += (k < 12 || k > n - 4) ? 1 : n / 7 + 1) {
			t = replace_line(p.log, k, NULL);
			expect(t, "a removed line", REPLAY_DIFFERS, k);
			free(t);
		}
		t = replace_line(p.log, n, NULL);
		struct replay_result cut;
		ck_assert_msg(replay_text(t, "t.jsonl", REPLAY_AUTO, NULL, &cut) == REPLAY_SAME, "%s", cut.msg);
		ck_assert_int_eq(cut.cut, 1);
		free(t);
		/* A changed card in the first deal. */
		int d = find_line(p.log, "\"type\":\"deal\"", 1);
		ck_assert_int_gt(d, 0);
		char *l = line_of(p.log, d);
		char *c = strstr(l, "\"cards\":[\"");
		ck_assert(c != NULL);
		c += 10;
		c[0] = c[0] == 'A' ? 'K' : 'A';
		c[1] = c[1] == 'S' ? 'H' : 'S';
		t = replace_line(p.log, d, l);
		expect(t, "a changed card in a deal", REPLAY_DIFFERS, d);
		free(t);
		free(l);
		/* Two cards of the first pack swapped: a pack still, but not the
		 * one the deal came from (named at the pack or at a deal). */
		int h = find_line(p.log, "\"type\":\"hand_start\"", 1);
		l = line_of(p.log, h);
		c = strstr(l, "\"pack\":[\"");
		if (c && c[9] != c[14]) {
			c += 9;
			char t0 = c[0], t1 = c[1];
			c[0] = c[5];
			c[1] = c[6];
			c[5] = t0;
			c[6] = t1;
			t = replace_line(p.log, h, l);
			struct replay_result rs;
			ck_assert_int_eq(replay_text(t, "t.jsonl", REPLAY_AUTO, NULL, &rs), REPLAY_DIFFERS);
			ck_assert_msg(rs.line >= h && rs.line <= h + g->max_players + 2, "%s: swapped pack at %d: %s",
			              g->name, h, rs.msg);
			free(t);
		}
		free(l);
		/* A played card the seat does not hold: a card of another seat's
		 * deal. */
		int a = find_line(p.log, "\"action\":\"play\"", 1);
		if (a) {
			l = line_of(p.log, a);
			int seat = atoi(strstr(l, "\"seat\":") + 7);
			char other[32];
			snprintf(other, sizeof other, "\"seat\":%d,\"cards\":[\"", (seat + 1) % g->default_players);
			int od = find_line(p.log, other, 1);
			if (od && od < a) {
				char *ol = line_of(p.log, od);
				char card[3] = { 0 };
				memcpy(card, strstr(ol, other) + strlen(other), 2);
				char *cp = strstr(l, "\"card\":\"") + 8;
				memcpy(cp, card, 2);
				t = replace_line(p.log, a, l);
				expect(t, "a card not held", REPLAY_DIFFERS, a);
				free(t);
				free(ol);
			}
			free(l);
		}
		/* An action for the wrong seat. */
		a = find_line(p.log, "\"type\":\"action\"", 1);
		ck_assert_int_gt(a, 0);
		l = line_of(p.log, a);
		char *sp = strstr(l, "\"seat\":") + 7;
		*sp = (char)('0' + (*sp - '0' + 1) % g->default_players);
		t = replace_line(p.log, a, l);
		expect(t, "another seat", REPLAY_DIFFERS, a);
		free(t);
		free(l);
		/* A wrong seq. */
		l = line_of(p.log, 3);
		char *q = strstr(l, "\"seq\":2");
		ck_assert(q != NULL);
		q[6] = '7';
		t = replace_line(p.log, 3, l);
		expect(t, "a wrong seq", REPLAY_DIFFERS, 3);
		free(t);
		free(l);
		/* Garbage. */
		t = replace_line(p.log, 4, "{\"type\":\"deal\",\"seq\":3,");
		expect(t, "a cut line", REPLAY_INVALID, 4);
		free(t);
		t = replace_line(p.log, 5, "garbage");
		expect(t, "garbage", REPLAY_INVALID, 5);
		free(t);
		t = replace_line(p.log, 2, "[1,2,3]");
		expect(t, "an array", REPLAY_INVALID, 2);
		free(t);
		t = replace_line(p.log, a, "{\"type\":\"action\",\"seq\":1,\"seat\":0,\"action\":\"dance\"}");
		expect(t, "an unknown action", REPLAY_INVALID, a);
		free(t);
		/* A line after the end of the game. */
		size_t len = strlen(p.log);
		t = malloc(len + 64);
		snprintf(t, len + 64, "%s{\"type\":\"phase\",\"seq\":%d}\n", p.log, n);
		expect(t, "a line after the end", REPLAY_DIFFERS, n + 1);
		free(t);
		/* The first line. */
		l = line_of(p.log, 1);
		char *gname = strstr(l, g->name);
		ck_assert(gname != NULL);
		char bad[2048];
		snprintf(bad, sizeof bad, "%.*snosuch%s", (int)(gname - l), l, gname + strlen(g->name));
		t = replace_line(p.log, 1, bad);
		expect(t, "an unknown game", REPLAY_INVALID, 1);
		free(t);
		char *seed = strstr(l, "\"seed\":") + 7;
		*seed = *seed == '9' ? '1' : (char)(*seed + 1);
		t = replace_line(p.log, 1, l);
		/* Another seed: another game (a line after game_start parts),
		 * unless the packs of the log alone give the game again. */
		struct replay_result res;
		int rc = replay_text(t, "t.jsonl", REPLAY_AUTO, NULL, &res);
		ck_assert_msg(rc == REPLAY_DIFFERS || (rc == REPLAY_SAME && res.stacked > 0), "%s: %s", g->name, res.msg);
		if (rc == REPLAY_DIFFERS)
			ck_assert_int_gt(res.line, 1);
		free(t);
		free(l);
		expect(p.log, "the log itself", REPLAY_SAME, 0);
		played_release(&p);
	}
	expect("", "empty", REPLAY_INVALID, 0);
	expect("\n\n", "blank", REPLAY_INVALID, 0);
	expect("{\"type\":\"hand_start\",\"seq\":0}\n", "no game_start", REPLAY_INVALID, 1);
	expect("{\"type\":\"game_start\",\"seq\":0,\"game\":\"nosuch\",\"players\":3,\"seed\":1}\n",
	       "unknown game", REPLAY_INVALID, 1);
	expect("{\"type\":\"game_start\",\"seq\":0,\"game\":\"bouillabaisse\",\"players\":99,\"seed\":1}\n",
	       "players", REPLAY_INVALID, 1);
	expect("{\"type\":\"game_start\",\"seq\":0,\"game\":\"bouillabaisse\",\"players\":3,\"seed\":1,"
	       "\"rules\":{\"nosuch\":1}}\n",
	       "unknown rule", REPLAY_INVALID, 1);
	expect("{\"type\":\"game_start\",\"seq\":0,\"game\":\"bouillabaisse\",\"players\":3,\"seed\":-1}\n",
	       "seed", REPLAY_INVALID, 1);
	expect("{\"a\":\"\\u00e9\\ud83c\\udca1\",\"b\":[1.5e3,true,false,null]}\n", "not ours", REPLAY_INVALID, 1);
	expect("{\"a\":\"\\x\"}", "bad escape", REPLAY_INVALID, 1);
	expect("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	       "deep", REPLAY_INVALID, 1);
}
END_TEST

/* The same JSON written another way (spaces, members in another order)
 * replays the same; a log that stops between two actions (a game left with
 * Q) too. */
START_TEST(reformatted_and_partial)
{
	const struct game_ops *g = registry_games[0].ops;
	struct played p;
	play_game(g, g->default_players, 8, -1, NULL, 1, 0, &p);
	size_t len = strlen(p.log);
	char *t = malloc(2 * len + 1);
	size_t n = 0;
	for (const char *s = p.log; *s; s++) {
		t[n++] = *s;
		if (*s == ',' || *s == ':')
			t[n++] = ' ';
	}
	t[n] = '\0';
	struct replay_result res;
	ck_assert_msg(replay_text(t, "spaced", REPLAY_AUTO, NULL, &res) == REPLAY_SAME, "%s", res.msg);
	free(t);
	/* seq first, type second on every line. */
	int lines = count_lines(p.log);
	char *r = strdup(p.log);
	for (int k = 1; k <= lines; k++) {
		char *l = line_of(r, k);
		char *seq = strstr(l, ",\"seq\":");
		char *end = strchr(seq + 1, ',');
		if (!end)
			end = strchr(seq + 1, '}');
		char nl[16384];
		snprintf(nl, sizeof nl, "{%.*s,%.*s%s", (int)(end - seq - 1), seq + 1, (int)(seq - l - 1), l + 1, end);
		char *r2 = replace_line(r, k, nl);
		free(r);
		r = r2;
		free(l);
	}
	ck_assert_msg(replay_text(r, "reordered", REPLAY_AUTO, NULL, &res) == REPLAY_SAME, "%s", res.msg);
	free(r);
	/* Cut just before an action line: a game left in the middle. */
	int a = find_line(p.log, "\"type\":\"action\"", 10);
	ck_assert_int_gt(a, 0);
	char *cut = strdup(p.log);
	char *pos = cut;
	for (int k = 1; k < a; k++)
		pos = strchr(pos, '\n') + 1;
	*pos = '\0';
	ck_assert_msg(replay_text(cut, "cut", REPLAY_AUTO, NULL, &res) == REPLAY_SAME, "%s", res.msg);
	ck_assert_int_eq(res.cut, 0);
	free(cut);
	played_release(&p);
}
END_TEST

/* Keep the first k lines of a log. */
static char *first_lines(const char *log, int k)
{
	char *cut = strdup(log);
	char *pos = cut;
	for (int i = 0; i < k; i++)
		pos = strchr(pos, '\n') + 1;
	*pos = '\0';
	return cut;
}

/* A game killed in the middle of one action's events (after a hand_end,
 * before the next hand_start): cut short, the same up to there; a line
 * changed before the cut is still refused. */
START_TEST(cut_inside_an_action)
{
	const struct game_ops *g = registry_games[0].ops;
	struct played p;
	play_game(g, g->default_players, 8, -1, NULL, 3, 0, &p);
	int e = find_line(p.log, "\"type\":\"hand_end\"", 1);
	ck_assert_int_gt(e, 0);
	ck_assert_int_gt(find_line(p.log, "\"type\":\"hand_start\"", e + 1), e);
	char *cut = first_lines(p.log, e);
	struct replay_result res;
	ck_assert_msg(replay_text(cut, "killed", REPLAY_AUTO, NULL, &res) == REPLAY_SAME, "%s", res.msg);
	ck_assert_int_eq(res.cut, 1);
	/* An action line without the events that follow it. */
	int a = find_line(p.log, "\"type\":\"action\"", 10);
	while (a > 0 && find_line(p.log, "\"type\":\"action\"", a + 1) == a + 1)
		a = find_line(p.log, "\"type\":\"action\"", a + 1);
	ck_assert_int_gt(a, 0);
	char *cut2 = first_lines(p.log, a);
	ck_assert_msg(replay_text(cut2, "killed", REPLAY_AUTO, NULL, &res) == REPLAY_SAME, "%s", res.msg);
	ck_assert_int_eq(res.cut, 1);
	/* The action before the cut changed: refused. */
	char *l = line_of(cut, e);
	char *bad = replace_line(cut, e, "{\"type\":\"hand_end\",\"seq\":1}");
	ck_assert_int_eq(replay_text(bad, "killed", REPLAY_AUTO, NULL, &res), REPLAY_DIFFERS);
	free(l);
	free(bad);
	free(cut2);
	free(cut);
	played_release(&p);
}
END_TEST

/* Random damage: any status, never a crash, a line named when refused. */
START_TEST(fuzz)
{
	const struct game_ops *g = registry_games[0].ops;
	struct played p;
	play_game(g, g->min_players, 12, -1, NULL, 1, 0, &p);
	size_t len = strlen(p.log);
	struct rng rng;
	rng_seed(&rng, 2024);
	static const char alphabet[] = "{}[]\",:0123456789-.eE\\ntfu AKQJT2SHDC\x01\xc3\xff";
	int refused = 0;
	for (int i = 0; i < 300; i++) {
		char *t = strdup(p.log);
		int edits = 1 + (int)(rng_next(&rng) % 3);
		for (int k = 0; k < edits; k++) {
			size_t at = (size_t)(rng_next(&rng) % len);
			t[at] = alphabet[rng_next(&rng) % (sizeof alphabet - 1)];
			if (t[at] == '\0')
				t[at] = '?';
		}
		struct replay_result res;
		int rc = replay_text(t, "fuzz", REPLAY_AUTO, NULL, &res);
		if (rc != REPLAY_SAME) {
			refused++;
			ck_assert_msg(rc == REPLAY_INVALID || rc == REPLAY_DIFFERS, "status %d", rc);
			ck_assert_msg(res.line > 0, "no line named: %s", res.msg);
		}
		free(t);
	}
	fprintf(stderr, "replay: %d of 300 damaged logs refused\n", refused);
	ck_assert_int_gt(refused, 200);
	played_release(&p);
}
END_TEST

/* replay_file: a file, and an unreadable one. */
START_TEST(file)
{
	const struct game_ops *g = registry_games[0].ops;
	struct played p;
	play_game(g, g->default_players, 3, -1, NULL, 1, 0, &p);
	char path[512];
	temp_path(path, sizeof path, "file");
	FILE *f = fopen(path, "w");
	fputs(p.log, f);
	fclose(f);
	char err[1024] = "";
	ck_assert_msg(replay_file(path, NULL, err, sizeof err) == 0, "%s", err);
	f = fopen(path, "w");
	fputs("{\"type\":\"game_start\"\n", f);
	fclose(f);
	ck_assert_int_eq(replay_file(path, NULL, err, sizeof err), REPLAY_INVALID);
	ck_assert_msg(strstr(err, ":1: ") != NULL, "%s", err);
	unlink(path);
	ck_assert_int_eq(replay_file(path, NULL, err, sizeof err), REPLAY_INVALID);
	played_release(&p);
}
END_TEST

/* A NUL byte ends nothing: a log with one is refused, and so is a FIFO, a
 * device, or a line too long; text of the log quoted in a message has its
 * control characters escaped. */
START_TEST(hostile_files)
{
	const struct game_ops *g = registry_games[0].ops;
	struct played p;
	play_game(g, g->default_players, 3, -1, NULL, 1, 0, &p);
	size_t len = strlen(p.log);
	static const char tail[] = "\0{\"type\":\"garbage\"}\n";
	const size_t nt = sizeof tail - 1;
	char path[512], err[1024] = "";
	temp_path(path, sizeof path, "nul");
	FILE *f = fopen(path, "wb");
	fwrite(p.log, 1, len, f);
	fwrite(tail, 1, nt, f);
	fclose(f);
	ck_assert_int_eq(replay_file(path, NULL, err, sizeof err), REPLAY_INVALID);
	ck_assert_msg(strstr(err, "a NUL byte"), "%s", err);
	unlink(path);
	/* The same bytes in memory. */
	char *buf = malloc(len + nt);
	memcpy(buf, p.log, len);
	memcpy(buf + len, tail, nt);
	struct replay_result res;
	ck_assert_int_eq(replay_buffer(buf, len + nt, "nul", REPLAY_AUTO, NULL, &res), REPLAY_INVALID);
	ck_assert_int_eq(replay_buffer(buf, len, "whole", REPLAY_AUTO, NULL, &res), REPLAY_SAME);
	free(buf);
	/* A FIFO and a device are refused at once. */
	temp_path(path, sizeof path, "fifo");
	unlink(path);
	ck_assert(mkfifo(path, 0600) == 0);
	ck_assert_int_eq(replay_file(path, NULL, err, sizeof err), REPLAY_INVALID);
	ck_assert_msg(strstr(err, "not a regular file"), "%s", err);
	unlink(path);
	ck_assert_int_eq(replay_file("/dev/zero", NULL, err, sizeof err), REPLAY_INVALID);
	/* Control characters of the log never reach a message raw. */
	char *first = line_of(p.log, 1);
	char *bad = malloc(strlen(p.log) + 64);
	sprintf(bad, "%s\n{\"type\":\"action\",\"seq\":1,\"seat\":0,\"action\":\"\033[2J\\u001b]0;x\"}\n", first);
	ck_assert_int_eq(replay_text(bad, "esc", REPLAY_AUTO, NULL, &res), REPLAY_INVALID);
	for (const char *q = res.msg; *q; q++)
		ck_assert_msg((unsigned char)*q >= 0x20 && *q != 0x7f, "raw control character in: %s", res.msg);
	ck_assert_msg(strstr(res.msg, "esc:2:"), "%s", res.msg);
	sprintf(bad, "%s\n{\"type\":\"action\",\"seq\":1,\"seat\":0,\"action\":\"pass\\u001b[2J\"}\n", first);
	ck_assert_int_eq(replay_text(bad, "esc", REPLAY_AUTO, NULL, &res), REPLAY_INVALID);
	ck_assert_msg(strstr(res.msg, "\\x1b[2J"), "%s", res.msg);
	free(bad);
	/* A line longer than the limit, even of spaces, is refused. */
	size_t big = 20000;
	bad = malloc(strlen(first) + big + 8);
	size_t n = (size_t)sprintf(bad, "%s", first);
	memset(bad + n, ' ', big);
	strcpy(bad + n + big, "\n");
	ck_assert_int_eq(replay_text(bad, "long", REPLAY_AUTO, NULL, &res), REPLAY_INVALID);
	ck_assert_msg(strstr(res.msg, "long:1: a line longer than"), "%s", res.msg);
	free(bad);
	free(first);
	played_release(&p);
}
END_TEST

/* `tapis replay -` keeps its standard input in a temporary file: never
 * more than a bound, and endless zeros stop at the first (a NUL byte,
 * named by the replay). */
START_TEST(stdin_bounded)
{
	char err[1024] = "";
	FILE *zero = fopen("/dev/zero", "rb");
	ck_assert_ptr_nonnull(zero);
	FILE *f = replay_copy_stream(zero, "(standard input)", REPLAY_INPUT_MAX, err, sizeof err);
	fclose(zero);
	ck_assert_msg(f != NULL, "%s", err);
	struct file_lines in;
	file_lines_stream(&in, f, "(standard input)", REPLAY_LINE_MAX);
	struct replay_result res;
	ck_assert_int_eq(replay_lines(&in, "(standard input)", REPLAY_AUTO, NULL, &res), REPLAY_INVALID);
	ck_assert_msg(strstr(res.msg, "a NUL byte"), "%s", res.msg);
	file_lines_close(&in);
	fclose(f);
	/* Text without end: refused past the bound, with a clear message. */
	static char text[1 << 16];
	memset(text, 'x', sizeof text);
	FILE *m = fmemopen(text, sizeof text, "rb");
	ck_assert_ptr_null(replay_copy_stream(m, "(standard input)", 4096, err, sizeof err));
	fclose(m);
	ck_assert_msg(strstr(err, "(standard input): longer than"), "%s", err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("replay");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, every_game_replays);
	tcase_add_test(tc, stdin_bounded);
	tcase_add_test(tc, given_dealer);
	tcase_add_test(tc, stacked_deck);
	tcase_add_test(tc, same_announcements);
	tcase_add_test(tc, tampered);
	tcase_add_test(tc, reformatted_and_partial);
	tcase_add_test(tc, cut_inside_an_action);
	tcase_add_test(tc, fuzz);
	tcase_add_test(tc, file);
	tcase_add_test(tc, hostile_files);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
