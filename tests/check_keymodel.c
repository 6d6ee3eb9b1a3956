/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The key model: the cursor's rules (app/keymap) made into lists for a
 * hand, written into a server's state (net/jstate), read by `tapis join`
 * (net/remote) and followed by the terminal's keys (ui/play). A rule
 * changed on the server's side is followed by the terminal client with
 * nothing of its own changed (the web page's side of it is the "key
 * model" part of tests/web/run.js). In process, no terminal, no server. */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "app/keymap.h"
#include "app/session.h"
#include "app/view.h"
#include "i18n/i18n.h"
#include "net/server/jstate.h"
#include "net/wire/jtext.h"
#include "net/client/remote.h"
#include "speech/speech.h"
#include "ui/play.h"
#include "ui/term.h"
#include "testutil.h"

/* Ace and king of spades, nine of hearts, seven of diamonds, two of
 * clubs: four suits, only the nine playable. */
static const char *const cards[] = { "AS", "KS", "9H", "7D", "2C" };
static const char *const names[] = { "Ace of spades", "King of spades", "Nine of hearts", "Seven of diamonds",
                                     "Two of clubs" };
#define NCARDS 5

static void hand_state(struct view_state *vs)
{
	static struct view_card hand[NCARDS];
	memset(vs, 0, sizeof *vs);
	memset(hand, 0, sizeof hand);
	vs->hand = hand;
	vs->seat = 0;
	snprintf(vs->lang, sizeof vs->lang, "en");
	vs->players = 4;
	vs->to_act = 0;
	vs->my_turn = 1;
	vs->moves = 1;
	vs->chips = -1;
	vs->nhand = NCARDS;
	for (int i = 0; i < NCARDS; i++) {
		ck_assert_int_eq(card_parse(cards[i], &vs->hand[i].card), 0);
		vs->hand[i].playable = i == 2;
		snprintf(vs->hand[i].name, sizeof vs->hand[i].name, "%s", names[i]);
	}
	vs->can_play = 1;
}

/* The rules as lists: Right and Left one card, the edges said; Up and
 * Down by suit; Home and End the suit, then the hand; the turn's start on
 * the first playable card; the amount keys. */
START_TEST(rules_as_lists)
{
	struct view_state vs;
	hand_state(&vs);
	view_cursor_make(&vs, keymap_moves, i18n_of("en"));
	const struct keymap_cursor *c = &vs.cursor;
	int edge;
	int right = keymap_move_of("ArrowRight"), left = keymap_move_of("ArrowLeft");
	int down = keymap_move_of("ArrowDown"), up = keymap_move_of("ArrowUp"), end = keymap_move_of("End");
	ck_assert_int_eq(keymap_cursor_to(c, right, 0, &edge), 1);
	ck_assert_int_eq(edge, 0);
	ck_assert_int_eq(keymap_cursor_to(c, right, 4, &edge), 4);
	ck_assert_int_eq(edge, 1);
	ck_assert_str_eq(c->said[right], "Last card.");
	ck_assert_int_eq(keymap_cursor_to(c, left, 0, &edge), 0);
	ck_assert_int_eq(edge, 1);
	ck_assert_str_eq(c->said[left], "First card.");
	ck_assert_int_eq(keymap_cursor_to(c, down, 0, &edge), 2);
	ck_assert_int_eq(keymap_cursor_to(c, down, 1, &edge), 2);
	ck_assert_int_eq(keymap_cursor_to(c, up, 1, &edge), 0);
	ck_assert_int_eq(edge, 1);
	ck_assert_int_eq(keymap_cursor_to(c, down, 4, &edge), 4);
	ck_assert_int_eq(edge, 1);
	ck_assert_int_eq(keymap_cursor_to(c, end, 0, &edge), 1);
	ck_assert_int_eq(keymap_cursor_to(c, end, 1, &edge), 4);
	ck_assert_int_eq(keymap_cursor_turn(c, 0), 2);
	ck_assert_int_eq(keymap_cursor_turn(c, 2), 2);
	/* A cursor out of the lists (a hostile server's) stays where it is. */
	ck_assert_int_eq(keymap_cursor_to(c, right, 9, &edge), 9);
	ck_assert_int_eq(keymap_cursor_amount(c, keymap_step_of("PageUp"), 5, 2, 50), 15);
	ck_assert_int_eq(keymap_cursor_amount(c, keymap_step_of("PageDown"), 5, 2, 50), 2);
	ck_assert_int_eq(keymap_cursor_amount(c, keymap_step_of("End"), 5, 2, 50), 50);
	/* Not a card to play: the turn leaves the cursor where it is. */
	vs.can_play = 0;
	view_cursor_make(&vs, keymap_moves, i18n_of("en"));
	ck_assert_int_eq(keymap_cursor_turn(&vs.cursor, 0), 0);
}
END_TEST

/* A state as a server writes it (its members that say what the keys
 * mean by net/jstate), its cursor made by the rules of moves. */
static char *state_json(const struct keymap_move moves[KEYMAP_NMOVES])
{
	struct view_state vs;
	hand_state(&vs);
	view_cursor_make(&vs, moves, i18n_of("en"));
	struct jtext j;
	jt_init(&j, 4096);
	jt_open(&j, '{');
	jt_kstr(&j, "type", "state");
	jt_kint(&j, "table", 1);
	jt_kint(&j, "moves", vs.moves);
	jt_kint(&j, "seat", 0);
	jt_kstr(&j, "state", "playing");
	jt_kint(&j, "to_act", 0);
	jt_kbool(&j, "my_turn", 1);
	jt_key(&j, "keys");
	jt_open(&j, '{');
	jt_kstr(&j, "H", "Your 5 cards.");
	jt_close(&j, '}');
	jt_key(&j, "hand");
	jt_open(&j, '[');
	for (int i = 0; i < NCARDS; i++) {
		jt_open(&j, '{');
		jt_kstr(&j, "card", cards[i]);
		jt_kstr(&j, "name", names[i]);
		jt_kbool(&j, "playable", vs.hand[i].playable);
		jt_close(&j, '}');
	}
	jt_close(&j, ']');
	jt_key(&j, "choices");
	jt_open(&j, '[');
	jt_close(&j, ']');
	jstate_meaning(&j, &vs, NULL);
	jt_close(&j, '}');
	return jt_done(&j);
}

/* The terminal's port over what the remote was told. */
static const struct view_state *port_state(void *ctx) { return &((struct remote *)ctx)->vs; }
static int port_advance(void *ctx, int idle, char *err, size_t errlen)
{
	(void)ctx, (void)idle, (void)err, (void)errlen;
	return 0;
}
static int port_awaits(void *ctx) { return ((struct remote *)ctx)->vs.my_turn; }
static int port_act(void *ctx, const struct action *a)
{
	(void)ctx, (void)a;
	return -1;
}

/* What the terminal says after each key of keys (KEY_NONE ends), told
 * the state written by moves' rules (rewritten by edit when not NULL):
 * said[k] for keys[k]. */
static void terminal_says_edited(const struct keymap_move moves[KEYMAP_NMOVES], void (*edit)(json_t *st),
                                 const int *keys, char said[][256])
{
	struct remote r;
	memset(&r, 0, sizeof r);
	r.sent_moves = -1;
	snprintf(r.lang, sizeof r.lang, "en");
	const char *joined = "{\"type\":\"joined\",\"table\":1,\"seat\":0,\"info\":{\"id\":1,\"game\":\"brouc\",\"players\":4}}";
	remote_message(&r, joined, strlen(joined));
	char *st = state_json(moves);
	if (edit) {
		json_t *o = json_loads(st, 0, NULL);
		ck_assert_ptr_nonnull(o);
		edit(o);
		free(st);
		st = json_dumps(o, JSON_COMPACT);
		json_decref(o);
	}
	remote_message(&r, st, strlen(st));
	free(st);
	ck_assert_int_eq(r.vs.nhand, NCARDS);
	struct session ses;
	memset(&ses, 0, sizeof ses);
	char err[256];
	ck_assert_int_eq(speech_open(&ses.sp, "none", "en", NULL, NULL, err, sizeof err), 0);
	struct play_port port = { .state = port_state, .advance = port_advance, .awaits = port_awaits, .act = port_act,
	                          .ctx = &r, .network = 1 };
	struct play *p = play_open(&port, &ses);
	for (int k = 0; keys[k] != KEY_NONE; k++) {
		ses.sp.echo[0] = '\0';
		play_key(p, keys[k]);
		snprintf(said[k], 256, "%s", ses.sp.echo);
	}
	play_close(p);
	speech_close(&ses.sp);
	remote_close(&r);
}

static void terminal_says(const struct keymap_move moves[KEYMAP_NMOVES], const int *keys, char said[][256])
{
	terminal_says_edited(moves, NULL, keys, said);
}

/* A hostile server's cursor: places out of the hand, not numbers, a
 * control sequence in the words, the turn's start out of the hand. */
static void hostile(json_t *st)
{
	json_t *c = json_object_get(st, "cursor"), *hand = json_object_get(c, "hand");
	json_object_set_new(json_object_get(hand, "ArrowRight"), "to", json_pack("[i,i,s,I,i]", 99, -1, "x",
	                                                                          (json_int_t)1 << 40, 2));
	json_object_set_new(json_object_get(hand, "ArrowRight"), "edge", json_pack("[i,i]", 0, 4000));
	json_object_set_new(json_object_get(hand, "ArrowRight"), "said", json_string("\x1b[2JGone."));
	json_object_set_new(c, "turn", json_pack("[i,i,i,i,i]", 77, 77, 77, 77, 77));
	json_object_set_new(json_object_get(c, "amount"), "PageUp", json_integer((json_int_t)1 << 60));
	json_object_set_new(c, "marks", json_integer(-3));
}

/* The server's rules, then one of them changed there (Right by suit, and
 * Left's edge said otherwise): the terminal follows both. */
START_TEST(terminal_follows_server)
{
	static const int keys[] = { KEY_HOME, KEY_RIGHT, KEY_RIGHT, KEY_LEFT, KEY_LEFT, KEY_LEFT, KEY_LEFT, KEY_NONE };
	char said[8][256];
	terminal_says(keymap_moves, keys, said);
	/* The turn begins on the nine (the first playable); Home: the
	 * first of its suit, itself; again, the first card of the hand. */
	ck_assert_msg(strstr(said[0], "Ace of spades"), "%s", said[0]);
	ck_assert_msg(strstr(said[1], "King of spades"), "%s", said[1]);
	ck_assert_msg(strstr(said[2], "Nine of hearts"), "%s", said[2]);
	ck_assert_msg(strstr(said[4], "Ace of spades") == said[4], "%s", said[4]);
	ck_assert_msg(strstr(said[5], "First card. Ace of spades") == said[5], "%s", said[5]);
	ck_assert_msg(strstr(said[6], "First card. Ace of spades") == said[6], "%s", said[6]);

	struct keymap_move other[KEYMAP_NMOVES];
	memcpy(other, keymap_moves, sizeof other);
	int right = keymap_move_of("ArrowRight"), left = keymap_move_of("ArrowLeft");
	other[right].span = KEYMAP_SUIT;
	other[left].edge = N_("First suit.");
	terminal_says(other, keys, said);
	ck_assert_msg(strstr(said[0], "Ace of spades"), "%s", said[0]);
	ck_assert_msg(strstr(said[1], "Nine of hearts"), "Right by suit: %s", said[1]);
	ck_assert_msg(strstr(said[2], "Seven of diamonds"), "%s", said[2]);
	ck_assert_msg(strstr(said[6], "First suit. Ace of spades") == said[6], "Left's edge: %s", said[6]);
}
END_TEST

/* Nothing a server sends moves the cursor out of the hand, and no
 * control sequence reaches the terminal. */
START_TEST(hostile_cursor)
{
	static const int keys[] = { KEY_HOME, KEY_RIGHT, KEY_END, KEY_RIGHT, ' ', KEY_NONE };
	char said[8][256];
	terminal_says_edited(keymap_moves, hostile, keys, said);
	/* The turn's start out of the hand: the cursor stays on the first card. */
	ck_assert_msg(strstr(said[0], "Ace of spades"), "%s", said[0]);
	ck_assert_msg(strstr(said[1], "Gone. Ace of spades"), "a place out of the hand: %s", said[1]);
	ck_assert_msg(strstr(said[2], "King of spades") == said[2], "%s", said[2]);
	ck_assert_msg(strstr(said[3], "King of spades") == said[3], "not a place: %s", said[3]);
	for (int k = 0; k < 5; k++)
		ck_assert_msg(!strchr(said[k], '\x1b'), "%s", said[k]);
}
END_TEST

static Suite *keymodel_suite(void)
{
	Suite *s = suite_create("keymodel");
	TCase *tc = tcase_create("keymodel");
	tcase_add_test(tc, rules_as_lists);
	tcase_add_test(tc, terminal_follows_server);
	tcase_add_test(tc, hostile_cursor);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(keymodel_suite()); }
