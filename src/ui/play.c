/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/play.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/session.h"
#include "app/table.h"
#include "app/menuorder.h"
#include "app/view.h"
#include "core/sbuf.h"
#include "core/xalloc.h"
#include "i18n/i18n.h"
#include "speech/speech.h"
#include "app/keymap.h"
#include "ui/braille.h"
#include "ui/term.h"

#define MENU_MAX VIEW_MAX_CHOICES

struct play {
	const struct play_port *port;
	struct session *ses;
	card_t hand[GAME_MAX_HAND];
	int nhand;
	int sel;                    /* selected card, -1 none */
	card_t marked[ACT_MAX_CARDS];
	int nmarked;
	int menu_open;
	/* The menu, safest first: items[i] is view_state.choice[choice[i]]
	 * (a discard with the marks). */
	struct action items[MENU_MAX];
	int choice[MENU_MAX];
	int nitems, item;
	/* The amount of the item: what was last said. amount_ok 0: no legal
	 * amount was said since the digits began (Enter refuses). */
	int amount, amount_ok;
	int typing;                 /* digits are being typed */
	int typed;                  /* the number typed so far */
	int quit_pending;
	int confirm_pending;        /* a risky action waits for Y */
	struct action pending;
	int turn_seen;              /* the start of this turn was seen */
	int keys_said;              /* the last key was F1 (the short list said) */
	int moves;                  /* view_state.moves last seen */
	struct brl brl;             /* the braille display (ui/braille), or none */
};

static const struct view_state *vs(const struct play *p) { return p->port->state(p->port->ctx); }

/* An answer to a key: said at once, kept apart from the game's messages. */
static void say(struct play *p, const char *text)
{
	if (text && *text)
		speech_say(&p->ses->sp, text, SPEECH_INTERRUPT | SPEECH_ECHO);
}

static void refresh_hand(struct play *p)
{
	const struct view_state *v = vs(p);
	card_t old = (p->sel >= 0 && p->sel < p->nhand) ? p->hand[p->sel] : CARD_NONE;
	p->nhand = v->nhand;
	for (int i = 0; i < p->nhand; i++)
		p->hand[i] = v->hand[i].card;
	p->sel = -1;
	for (int i = 0; i < p->nhand && old; i++)
		if (p->hand[i] == old)
			p->sel = i;
	if (p->sel < 0 && p->nhand)
		p->sel = 0;
	/* Forget marks on cards no longer held. */
	for (int i = p->nmarked - 1; i >= 0; i--)
		if (card_find(p->hand, p->nhand, p->marked[i]) < 0)
			card_remove_at(p->marked, &p->nmarked, i);
}

/* The spoken name of a card of the hand. */
static const char *card_name(struct play *p, int i)
{
	const struct view_state *v = vs(p);
	return i >= 0 && i < v->nhand && v->hand[i].card == p->hand[i] ? v->hand[i].name : "";
}

/* A card's name inside a sentence: the view's names are capitalised to
 * stand alone ("Nine of spades", "As de pique"). */
static void put_name_inside(struct sbuf *b, const char *name)
{
	size_t at = b->len;
	sb_puts(b, name);
	if (at < b->len && b->s[at] >= 'A' && b->s[at] <= 'Z')
		b->s[at] = (char)(b->s[at] - 'A' + 'a');
}

/* The selected card, marked or not, and whether it can be played now;
 * inside: within a sentence. */
static void selected_text(struct play *p, struct sbuf *b, int inside)
{
	const struct view_state *v = vs(p);
	if (inside)
		put_name_inside(b, card_name(p, p->sel));
	else
		sb_puts(b, card_name(p, p->sel));
	if (card_find(p->marked, p->nmarked, p->hand[p->sel]) >= 0)
		sb_printf(b, ", %s", _("to discard"));
	if (v->my_turn && v->can_play && p->sel < v->nhand && !v->hand[p->sel].playable)
		sb_printf(b, ", %s", _("not playable now"));
	sb_puts(b, ".");
}

/* Say the selected card, after edge ("Last card.") when not NULL. */
static void say_selected_at(struct play *p, const char *edge)
{
	struct sbuf b;
	sb_clear(&b);
	if (p->sel < 0) {
		say(p, _("You hold no cards."));
		return;
	}
	if (edge)
		sb_printf(&b, "%s ", edge);
	selected_text(p, &b, 0);
	say(p, b.s);
}

static void say_selected(struct play *p) { say_selected_at(p, NULL); }

/* The names of the keys of the cursor, as the state names them
 * (app/keymap: the browser's names). */
static const struct {
	int key;
	const char *name;
} key_names[] = {
	{ KEY_LEFT, "ArrowLeft" }, { KEY_RIGHT, "ArrowRight" }, { KEY_UP, "ArrowUp" }, { KEY_DOWN, "ArrowDown" },
	{ KEY_PAGE_UP, "PageUp" }, { KEY_PAGE_DOWN, "PageDown" }, { KEY_HOME, "Home" }, { KEY_END, "End" },
};

static const char *key_name(int key)
{
	for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++)
		if (key_names[i].key == key)
			return key_names[i].name;
	return NULL;
}

/* A key of the hand: the cursor goes where the state's lists say
 * (view_state.cursor), and what they say at an edge is said first. */
static void move_cursor(struct play *p, int m)
{
	const struct keymap_cursor *c = &vs(p)->cursor;
	if (p->sel < 0) {
		say_selected(p);
		return;
	}
	int edge;
	p->sel = keymap_cursor_to(c, m, p->sel, &edge);
	say_selected_at(p, edge && m >= 0 && c->said[m][0] ? c->said[m] : NULL);
}

/* The hand's cards of a discard, as a mask of the hand's positions. */
static unsigned hand_mask(const struct play *p, const struct action *d)
{
	unsigned m = 0;
	for (int k = 0; k < d->ncards; k++) {
		int i = card_find(p->hand, p->nhand, d->cards[k]);
		if (i >= 0 && i < 32)
			m |= 1u << i;
	}
	return m;
}

static int item_range(const struct play *p)
{
	const struct action *a = &p->items[p->item];
	return a->amount_max > a->amount;
}

static int discard_ahead(const struct view_state *v);

/* "2 marked: eight of spades, nine of clubs." */
static void say_marked(struct play *p, struct sbuf *b)
{
	struct sbuf l;
	sb_clear(&l);
	for (int k = 0; k < p->nmarked; k++) {
		int i = card_find(p->hand, p->nhand, p->marked[k]);
		if (k)
			sb_puts(&l, ", ");
		put_name_inside(&l, card_name(p, i));
	}
	/* TRANSLATORS: the cards marked for a discard, after a menu item. */
	sb_printf(b, P_("%1$d marked: %2$s.", "%1$d marked: %2$s.", p->nmarked), p->nmarked, l.s);
}

/* Say the item, after edge ("Last choice.") when not NULL. */
static void say_item_at(struct play *p, const char *edge)
{
	const struct view_state *v = vs(p);
	struct sbuf b;
	sb_clear(&b);
	if (edge)
		sb_printf(&b, "%s ", edge);
	const struct action *a = &p->items[p->item];
	int c = p->choice[p->item];
	const char *label = a->kind == ACT_DISCARD ? view_discard_label(v, c, hand_mask(p, a))
	                  : c < v->nchoices ? v->choice[c].label : NULL;
	sb_puts(&b, label ? label : "");
	sb_printf(&b, _(", %1$d of %2$d."), p->item + 1, p->nitems);
	/* A choice a discard follows (stay, take the turned card): the cards
	 * marked so far, which the discard will throw. */
	if ((a->kind == ACT_STAY || a->kind == ACT_TAKE) && discard_ahead(v) && p->nmarked) {
		sb_puts(&b, " ");
		say_marked(p, &b);
	}
	say(p, b.s);
}

static void say_item(struct play *p) { say_item_at(p, NULL); }

static struct action marked_discard(const struct play *p)
{
	struct action d = act_simple(ACT_DISCARD);
	for (int k = 0; k < p->nmarked; k++)
		d.cards[d.ncards++] = p->marked[k];
	return d;
}

static void select_item(struct play *p, int i)
{
	p->item = i;
	p->amount = p->items[i].amount;
	p->amount_ok = 1;
	p->typing = 0;
	p->typed = 0;
}

/* Open the menu of the legal actions other than playing a card. */
static void open_menu(struct play *p)
{
	const struct view_state *v = vs(p);
	/* The order every client shows: the safest first (app/menuorder). */
	p->nitems = menuorder_sort(v, p->choice);
	for (int k = 0; k < p->nitems; k++) {
		const struct action *a = &v->choice[p->choice[k]].act;
		p->items[k] = a->kind == ACT_DISCARD ? marked_discard(p) : *a;
	}
	if (!p->nitems) {
		say(p, _("Choose a card with the arrows, then press Enter."));
		return;
	}
	p->menu_open = 1;
	select_item(p, 0);
	say_item(p);
}

static void try_action(struct play *p, const struct action *a)
{
	if (p->port->act(p->port->ctx, a) < 0)
		return;   /* why was said by the table */
	p->menu_open = 0;
	if (a->kind == ACT_DISCARD)
		p->nmarked = 0;
	refresh_hand(p);
}

/* 1 when the chosen item asks for Y first (view_risky: the one rule of
 * every table), unless the `confirm` setting is off. */
static int risky(const struct play *p, const struct action *a)
{
	return p->ses->set.confirm && view_asks(vs(p), p->choice[p->item], a->amount);
}

/* What the chosen item does, as the menu said it. */
static const char *item_words(struct play *p, const struct action *a)
{
	const struct view_state *v = vs(p);
	int c = p->choice[p->item];
	const char *label = item_range(p) ? view_amount_label(v, c, a->amount) : NULL;
	return label ? label : c < v->nchoices ? v->choice[c].label : "";
}

static void menu_enter(struct play *p)
{
	struct action a = p->items[p->item];
	if (item_range(p)) {
		if (!p->amount_ok) {
			struct sbuf b;
			sb_clear(&b);
			sb_printf(&b, _("Type an amount from %1$d to %2$d."), a.amount, a.amount_max);
			say(p, b.s);
			return;
		}
		a.amount = p->amount;
	}
	a.amount_max = a.amount;
	if (risky(p, &a)) {
		p->confirm_pending = 1;
		p->typing = 0;   /* after the answer, digits start a new number */
		p->pending = a;
		struct sbuf b;
		sb_clear(&b);
		sb_printf(&b, _("%s? Press Y to confirm, any other key to go back."), item_words(p, &a));
		say(p, b.s);
		return;
	}
	try_action(p, &a);
}

static void enter(struct play *p)
{
	const struct view_state *v = vs(p);
	if (v->seat < 0 || v->to_act != v->seat) {
		say(p, _("It is not your turn."));
		return;
	}
	if (p->menu_open) {
		menu_enter(p);
		return;
	}
	/* What Enter does now, as the state says (app/keymap). */
	if (v->cursor.enter == KEYMAP_ENTER_PLAY && p->sel >= 0) {
		struct action a = act_card(ACT_PLAY, p->hand[p->sel]);
		try_action(p, &a);
		return;
	}
	if (v->cursor.enter == KEYMAP_ENTER_DISCARD) {
		struct action d = marked_discard(p);
		try_action(p, &d);
		return;
	}
	open_menu(p);
}

/* Say the amount of the item as the game phrases it ("Raise, 10 chips,
 * stake 11"), or the bare number. */
static void say_amount(struct play *p)
{
	const char *label = view_amount_label(vs(p), p->choice[p->item], p->amount);
	char buf[32];
	if (!label) {
		snprintf(buf, sizeof buf, "%d", p->amount);
		label = buf;
	}
	say(p, label);
}

/* A digit, or Backspace, while typing an amount from lo to hi. */
static void type_digit(struct play *p, int key, int lo, int hi)
{
	char buf[160];
	if (key == KEY_BACKSPACE)
		p->typed = p->typing ? p->typed / 10 : 0;
	else
		p->typed = (p->typing ? p->typed * 10 : 0) + (key - '0');
	p->typing = p->typed > 0 || key != KEY_BACKSPACE;
	if (p->typed > hi) {
		/* Refused: the typing starts again, Enter does nothing meanwhile. */
		snprintf(buf, sizeof buf, _("%1$d is too many: from %2$d to %3$d."), p->typed, lo, hi);
		p->typing = 0;
		p->typed = 0;
		p->amount_ok = 0;
		say(p, buf);
		return;
	}
	if (p->typed < lo) {
		/* Not a legal amount yet: say the digits only. */
		p->amount_ok = 0;
		if (p->typing)
			snprintf(buf, sizeof buf, "%d", p->typed);
		else
			snprintf(buf, sizeof buf, _("Type an amount from %1$d to %2$d."), lo, hi);
		say(p, buf);
		return;
	}
	p->amount = p->typed;
	p->amount_ok = 1;
	say_amount(p);
}

static void menu_key(struct play *p, int key)
{
	switch (key) {
	case KEY_UP:
	case KEY_DOWN: {
		int to = p->item + (key == KEY_DOWN ? 1 : -1);
		if (to < 0 || to >= p->nitems) {
			/* No wrapping: the edge is said, the item again. */
			say_item_at(p, key == KEY_DOWN ? _("Last choice.") : _("First choice."));
			return;
		}
		select_item(p, to);
		say_item(p);
		return;
	}
	case KEY_ESCAPE:
		p->menu_open = 0;
		say(p, _("Menu closed."));
		return;
	default:
		break;
	}
	if (!item_range(p))
		return;
	const struct action *a = &p->items[p->item];
	int lo = a->amount, hi = a->amount_max;
	if ((key >= '0' && key <= '9') || key == KEY_BACKSPACE) {
		type_digit(p, key, lo, hi);
		return;
	}
	/* Any other key ends the typing and starts from the last legal
	 * amount, and moves it as the state's amount keys say. */
	int s = keymap_step_of(key_name(key));
	if (s < 0)
		return;
	p->typing = 0;
	p->typed = 0;
	p->amount = keymap_cursor_amount(&vs(p)->cursor, s, p->amount_ok ? p->amount : lo, lo, hi);
	p->amount_ok = 1;
	say_amount(p);
}

/* Whether the seat's turn leads to a discard (the view tells). */
static int discard_ahead(const struct view_state *v)
{
	return v->seat >= 0 && v->to_act == v->seat && v->discard_ahead;
}

static void mark(struct play *p)
{
	if (p->sel < 0)
		return;
	if (!discard_ahead(vs(p))) {
		say(p, _("No discard now."));
		return;
	}
	card_t c = p->hand[p->sel];
	struct sbuf b;
	sb_clear(&b);
	sb_puts(&b, card_name(p, p->sel));
	/* No more marks than the state allows: the card stays kept. */
	if (card_remove(p->marked, &p->nmarked, c) < 0 && p->nmarked < vs(p)->cursor.marks && p->nmarked < ACT_MAX_CARDS) {
		p->marked[p->nmarked++] = c;
		sb_printf(&b, ", %s. ", _("to discard"));
	} else {
		sb_printf(&b, ", %s. ", _("to keep"));
	}
	sb_printf(&b, P_("%d card to discard.", "%d cards to discard.", p->nmarked), p->nmarked);
	say(p, b.s);
	/* In the menu, the discard item throws the cards marked now. */
	for (int k = 0; p->menu_open && k < p->nitems; k++)
		if (p->items[k].kind == ACT_DISCARD)
			p->items[k] = marked_discard(p);
}

/* H: the hand, then the cards marked to discard. */
static void say_hand(struct play *p)
{
	struct sbuf b;
	sb_clear(&b);
	sb_puts(&b, vs(p)->hand_text);
	if (p->nmarked) {
		struct sbuf l;
		sb_clear(&l);
		for (int k = 0; k < p->nmarked; k++) {
			int i = card_find(p->hand, p->nhand, p->marked[k]);
			if (k)
				sb_puts(&l, ", ");
			put_name_inside(&l, card_name(p, i));
		}
		sb_puts(&b, " ");
		sb_printf(&b, _("Marked to discard: %s."), l.s);
	}
	say(p, b.s);
}

/* At the start of a turn, the cursor goes where the state says (a card
 * that cannot be played gives way to the first one that can). */
static void select_playable(struct play *p)
{
	const struct view_state *v = vs(p);
	if (p->sel >= 0 && v->nhand == p->nhand)
		p->sel = keymap_cursor_turn(&v->cursor, p->sel);
}

/* F1: the keys of this moment. At the table, the few that matter now
 * first; F1 again right after, all of them. */
static void say_keys(struct play *p, int again)
{
	const struct view_state *v = vs(p);
	/* Space marks whenever mark() would: the discard, or the choice
	 * (stay, take the turned card) that a discard follows. */
	int when = (discard_ahead(v) ? KEYS_IF_DISCARD : 0) | (v->showdowns ? KEYS_IF_SHOWDOWN : KEYS_IF_TRICKS);
	struct sbuf b;
	sb_clear(&b);
	if (p->menu_open) {
		keymap_say(NULL, &b, when | KEYS_MENU | (item_range(p) ? KEYS_IF_AMOUNT : 0));
	} else if (!again) {
		keymap_say_brief(NULL, &b, when | (!v->my_turn ? KEYS_BRIEF_WAIT : v->can_play ? KEYS_BRIEF_PLAY : KEYS_BRIEF_CHOOSE));
		p->keys_said = 1;
	} else {
		keymap_say(NULL, &b, when | KEYS_ALWAYS | KEYS_SPEECH | (v->my_turn ? KEYS_TURN : 0) |
		                   (p->port->network ? KEYS_IF_NET : 0) | (brl_active(&p->brl) ? KEYS_IF_BRAILLE : 0));
	}
	say(p, b.s);
}

/* ',' '.' ';': the game's messages, the start and end said. */
static void walk_history(struct play *p, int key)
{
	struct speech *sp = &p->ses->sp;
	int edge = key == ',' ? speech_history_at_start(sp) : key == '.' ? speech_history_at_end(sp) : 0;
	const char *m = key == ',' ? speech_history_prev(sp)
	              : key == '.' ? speech_history_next(sp) : speech_history_last(sp);
	speech_stop(sp);
	if (!m) {
		say(p, _("No messages yet."));
		return;
	}
	struct sbuf b;
	sb_clear(&b);
	if (edge)
		sb_printf(&b, "%s ", key == ',' ? _("Start of history.") : _("End of history."));
	sb_puts(&b, m);
	speech_say(sp, b.s, SPEECH_INTERRUPT | SPEECH_NO_HISTORY);
}

/* V: full or short announcements, kept in the settings. */
static void switch_verbosity(struct play *p)
{
	struct session *ses = p->ses;
	ses->set.verbosity = ses->set.verbosity == TALK_SHORT ? TALK_FULL : TALK_SHORT;
	if (p->port->verbosity)
		p->port->verbosity(p->port->ctx, ses->set.verbosity);
	session_save_settings(ses);
	/* At a server, the server answers (in the words of its view). */
	if (!p->port->network || !p->port->verbosity)
		say(p, ses->set.verbosity == TALK_SHORT ? _("Short announcements.") : _("Full announcements."));
}

/* Handle one key; returns 1 when the player asked to quit. */
static int handle_key(struct play *p, int key)
{
	struct speech *sp = &p->ses->sp;
	int again = p->keys_said;   /* F1 right after F1: all the keys */
	p->keys_said = 0;
	if (p->port->key && !p->quit_pending && p->port->key(p->port->ctx, key))
		return 0;
	/* The top row of an AZERTY keyboard stands for its digits. */
	int digit = keymap_digit(term_last_text());
	if (digit)
		key = digit;
	if (key != KEY_NONE && key != ';' && key != ',' && key != '.')
		speech_stop(sp);
	if (p->quit_pending) {
		p->quit_pending = 0;
		if (key == 'Y' || key == 'O')
			return 1;
		say(p, _("Quit cancelled."));
		return 0;
	}
	if (p->confirm_pending) {
		p->confirm_pending = 0;
		if (key == 'Y' || key == 'O') {
			struct action a = p->pending;
			try_action(p, &a);
		} else {
			say(p, _("Not done."));
		}
		return 0;
	}
	/* In a menu the arrows choose; digits type an amount when the item
	 * takes one, else they tell the table card by card as elsewhere. */
	if (p->menu_open && (key == KEY_UP || key == KEY_DOWN || key == KEY_LEFT || key == KEY_RIGHT ||
	                     key == KEY_PAGE_UP || key == KEY_PAGE_DOWN || key == KEY_HOME ||
	                     key == KEY_END || key == KEY_ESCAPE || key == KEY_BACKSPACE ||
	                     (key >= '0' && key <= '9' && item_range(p)))) {
		menu_key(p, key);
		return 0;
	}
	switch (key) {
	case 'C': case 'F': case 'R': case 'S': case 'T': case 'L': case 'N':
	case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': {
		const char *answer = vs(p)->answer[strchr(VIEW_QUERY_KEYS, key) - VIEW_QUERY_KEYS];
		/* A table waiting for its start has no answers yet: say what
		 * the keys will tell. */
		say(p, answer[0] ? answer : _("The game has not started: then S tells the score, T whose turn it is."));
		break;
	}
	case 'H':
		refresh_hand(p);
		say_hand(p);
		break;
	case '?':
		if (p->port->hint)
			p->port->hint(p->port->ctx);
		else
			say(p, _("No hint at this table."));
		break;
	case KEY_LEFT:
	case KEY_RIGHT:
	case KEY_UP:
	case KEY_DOWN:
	case KEY_PAGE_UP:
	case KEY_PAGE_DOWN:
	case KEY_HOME:
	case KEY_END:
		refresh_hand(p);
		move_cursor(p, keymap_move_of(key_name(key)));
		break;
	case KEY_ENTER:
		refresh_hand(p);
		enter(p);
		break;
	case ' ':
		refresh_hand(p);
		mark(p);
		break;
	case KEY_F1:
		say_keys(p, again);
		break;
	case 'Q':
	case KEY_ESCAPE:
		/* Escape outside a menu: the way out, asked first. */
		p->quit_pending = 1;
		say(p, _("Quit? Press Y to confirm, any other key to go on."));
		break;
	case ',':
	case '.':
	case ';':
		walk_history(p, key);
		break;
	case 'V':
		switch_verbosity(p);
		break;
	case '>': case '<':
		session_tune(p->ses, SESSION_RATE, key == '>' ? 1 : -1);
		break;
	case ']': case '[':
		session_tune(p->ses, SESSION_SPEECH_VOLUME, key == ']' ? 1 : -1);
		break;
	case '}': case '{':
		session_tune(p->ses, SESSION_CUE_VOLUME, key == '}' ? 1 : -1);
		break;
	case '*': case '/':
		/* Keys of a numeric pad, and free on an AZERTY keyboard (not
		 * its top row's digits). */
		session_tune(p->ses, SESSION_BRAILLE_HOLD, key == '*' ? 1 : -1);
		p->brl.hold = p->ses->set.braille_hold;
		break;
	default:
		break;
	}
	return 0;
}

/* A new action was applied: what the keys answer changed. */
static void sync(struct play *p)
{
	const struct view_state *v = vs(p);
	if (v->moves == p->moves)
		return;
	p->moves = v->moves;
	p->menu_open = 0;
	p->confirm_pending = 0;
	p->turn_seen = 0;
	refresh_hand(p);
}

/* The player quit: the game is saved after every action; say so before
 * the program ends. */
static int quit(struct play *p)
{
	struct speech *sp = &p->ses->sp;
	speech_say(sp, p->port->unsaved ? _("Lesson left.") : _("Game saved."), SPEECH_INTERRUPT | SPEECH_ECHO);
	while (speech_busy(sp) && term_read_key(20) == KEY_NONE)
		session_pump(p->ses);
	return 0;
}

/* The turn begins: after the prompt, the card under the cursor. */
static void turn_begins(struct play *p)
{
	p->turn_seen = 1;
	refresh_hand(p);
	select_playable(p);
	if (vs(p)->can_play && p->sel >= 0) {
		struct sbuf b, c;
		sb_clear(&b);
		sb_clear(&c);
		selected_text(p, &c, 1);
		sb_printf(&b, _("Selected: %s"), c.s);
		speech_say(&p->ses->sp, b.s, SPEECH_QUEUE | SPEECH_ECHO);
	}
	if (p->ses->hints && p->port->hint)
		p->port->hint(p->port->ctx);
	/* A discard turn after the marks made before it: which they are. */
	const struct view_state *v = vs(p);
	int discard_now = 0;
	for (int i = 0; i < v->nchoices; i++)
		discard_now |= v->choice[i].act.kind == ACT_DISCARD;
	if (discard_now && p->nmarked) {
		struct sbuf b;
		sb_clear(&b);
		say_marked(p, &b);
		speech_say(&p->ses->sp, b.s, SPEECH_QUEUE | SPEECH_ECHO);
	}
}

/* ---- the braille display: every sentence said is shown; the hand and
 * the menu have lines of their own, where routing keys act ---- */

static void braille_heard(void *ctx, const char *text, int flags)
{
	struct play *p = ctx;
	brl_heard(&p->brl, text, (flags & (SPEECH_INTERRUPT | SPEECH_ECHO | SPEECH_NO_HISTORY)) != 0, speech_now());
}

static void braille_hand(struct play *p)
{
	brl_show_hand(&p->brl, p->hand, p->nhand, p->sel, p->ses->sp.lang, speech_now());
}

static void braille_menu(struct play *p)
{
	const struct view_state *v = vs(p);
	char words[MENU_MAX][VIEW_LABEL_MAX];
	const char *items[MENU_MAX];
	for (int k = 0; k < p->nitems; k++) {
		int c = p->choice[k];
		/* The label up to its first comma: the choice, not its amounts. */
		snprintf(words[k], sizeof words[k], "%s", c < v->nchoices ? v->choice[c].label : "");
		words[k][strcspn(words[k], ",")] = 0;
		items[k] = words[k];
	}
	brl_show_menu(&p->brl, items, p->nitems, p->item, speech_now());
}

/* C on the display: the trick in progress in few cells (a game of
 * tricks; in the others the sentence said stays). */
static void braille_table(struct play *p)
{
	const struct view_state *v = vs(p);
	if (v->showdowns || (!v->ntrick && v->to_act < 0))
		return;
	const char *tags[GAME_MAX_SEATS];
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		tags[s] = v->tag[s];
	brl_show_table(&p->brl, tags, v->players < GAME_MAX_SEATS ? v->players : GAME_MAX_SEATS, v->trick_seat,
	               v->trick_card, v->ntrick, v->game_over ? -1 : v->to_act, p->ses->sp.lang, speech_now());
}

/* After a key: the hand line follows the cursor, the menu line its item. */
static void braille_after(struct play *p, int key, int was_hand)
{
	if (!brl_active(&p->brl))
		return;
	if (p->menu_open && (key == KEY_UP || key == KEY_DOWN || key == KEY_LEFT || key == KEY_RIGHT ||
	                     key == KEY_ENTER || key == KEY_HOME || key == KEY_END))
		braille_menu(p);
	else if (key == 'C')
		braille_table(p);
	else if (key == 'H' || (was_hand && (key == KEY_LEFT || key == KEY_RIGHT || key == KEY_UP ||
	                                     key == KEY_DOWN || key == KEY_HOME || key == KEY_END || key == ' ')))
		braille_hand(p);
}

/* A routing key over item i of the hand line (select, then play or mark)
 * or of the menu line (choose). */
static void braille_route(struct play *p, int i)
{
	speech_stop(&p->ses->sp);
	if (p->brl.kind == BRL_LINE_MENU && p->menu_open && i < p->nitems) {
		select_item(p, i);
		menu_enter(p);
		return;
	}
	if (p->brl.kind != BRL_LINE_HAND)
		return;
	refresh_hand(p);
	if (i >= p->nhand)
		return;
	if (i != p->sel) {
		p->sel = i;
		say_selected(p);
		braille_hand(p);
	} else if (discard_ahead(vs(p)) && !vs(p)->can_play) {
		mark(p);
		braille_hand(p);
	} else {
		enter(p);
		if (p->menu_open)
			braille_menu(p);
	}
}

/* The next key, from the display first, then the keyboard; a routing key
 * is handled here (KEY_NONE then). */
static int next_key(struct play *p, int ms)
{
	struct brl_key k;
	brl_tick(&p->brl, speech_now());
	if (brl_key(&p->brl, &k, speech_now())) {
		if (k.route >= 0) {
			braille_route(p, k.route);
			return KEY_NONE;
		}
		return k.key;
	}
	return term_read_key(brl_active(&p->brl) && ms > 20 ? 20 : ms);
}

/* Handle a key and keep the braille line in step. */
static int handle_key_shown(struct play *p, int key)
{
	int was_hand = p->brl.kind == BRL_LINE_HAND;
	int quit = handle_key(p, key);
	braille_after(p, key, was_hand);
	return quit;
}

static int play_loop(struct play *p, const struct play_port *port, struct session *ses, char *err, size_t errlen);

struct play *play_open(const struct play_port *port, struct session *ses)
{
	struct play *p = xcalloc(1, sizeof *p);
	p->port = port;
	p->ses = ses;
	p->sel = -1;
	p->moves = vs(p)->moves;
	refresh_hand(p);
	return p;
}

int play_key(struct play *p, int key)
{
	if (vs(p)->moves != p->moves)
		sync(p);
	if (!p->turn_seen && p->port->awaits(p->port->ctx))
		turn_begins(p);
	return handle_key(p, key);
}

void play_close(struct play *p) { free(p); }

int play_port_run(const struct play_port *port, struct session *ses, char *err, size_t errlen)
{
	struct play p;
	memset(&p, 0, sizeof p);
	p.port = port;
	p.ses = ses;
	p.sel = -1;
	p.moves = vs(&p)->moves;
	refresh_hand(&p);
	char why[256];
	if (brl_open(&p.brl, ses->set.braille, ses->set.braille_hold, why, sizeof why) < 0) {
		struct sbuf m;
		sb_clear(&m);
		sb_printf(&m, _("No braille display: %s."), why);
		speech_say(&ses->sp, m.s, SPEECH_QUEUE);
	}
	ses->sp.tap = braille_heard;
	ses->sp.tap_ctx = &p;
	/* What was said before the keys were read (the start of the game)
	 * waits on the display, in order. */
	for (int i = ses->sp.hist_count; brl_active(&p.brl) && i > 0; i--)
		brl_heard(&p.brl, ses->sp.history[(ses->sp.hist_head - i + SPEECH_HISTORY) % SPEECH_HISTORY], 0, speech_now());
	int rc = play_loop(&p, port, ses, err, errlen);
	ses->sp.tap = NULL;
	brl_close(&p.brl);
	return rc;
}

static int play_loop(struct play *p, const struct play_port *port, struct session *ses, char *err, size_t errlen)
{
	int tty = term_is_tty();
	for (;;) {
		/* Checked before every step: bot-only games never read a key. */
		if (term_interrupted())
			return term_interrupt_status();
		session_pump(ses);
		int rc = port->advance(port->ctx, speech_idle(&ses->sp, speech_now()), err, errlen);
		if (rc)
			return rc;
		/* Against the moves last seen, not those before this step: the
		 * player's own action (a key) may be the one, and the turn may
		 * come straight back (a trick taken, a lead again). */
		if (vs(p)->moves != p->moves) {
			sync(p);
			continue;
		}
		if (vs(p)->game_over) {
			/* Let the last words be said before leaving. */
			while (speech_busy(&ses->sp)) {
				int key = next_key(p, 20);
				if (key != KEY_NONE)
					break;
				session_pump(ses);
			}
			/* And the last lines read on the display: a key only lets the
			 * next come sooner. */
			while (p->brl.qcount) {
				next_key(p, 20);
				session_pump(ses);
			}
			brl_tick(&p->brl, speech_now());
			return 0;
		}
		if (!port->awaits(port->ctx)) {
			int blocked = port->blocked && port->blocked(port->ctx);
			if (!tty && !blocked) {
				/* No keyboard to listen to meanwhile: wait for the speech. */
				struct timespec ts = { 0, 5000000 };
				nanosleep(&ts, NULL);
				brl_tick(&p->brl, speech_now());
				continue;
			}
			int key = next_key(p, 10);
			if (key == KEY_INTERRUPT)
				return term_interrupt_status();
			if (key == KEY_EOF && blocked)
				return quit(p);   /* nobody left to act: as a confirmed Q */
			if (key == KEY_NONE || key == KEY_EOF)
				continue;
			/* What came while waiting for the key comes first: the key
			 * acts on the table as it is now. */
			if ((rc = port->advance(port->ctx, 0, err, errlen)))
				return rc;
			if (vs(p)->moves != p->moves)
				sync(p);
			if (handle_key_shown(p, key))
				return quit(p);
			continue;
		}
		if (!p->turn_seen)
			turn_begins(p);   /* the table said the prompt (app/view) */
		int key = next_key(p, 50);
		if (key == KEY_INTERRUPT)
			return term_interrupt_status();
		if (key == KEY_EOF)
			return quit(p);   /* as a confirmed Q */
		if (key != KEY_NONE && handle_key_shown(p, key))
			return quit(p);
	}
}

/* ---- the local port: the table in this process ---- */

struct local_port {
	struct table *t;
	struct view *v;
};

static const struct view_state *lp_state(void *ctx)
{
	struct local_port *l = ctx;
	return view_state(l->v);
}

static int lp_advance(void *ctx, int idle, char *err, size_t errlen)
{
	struct local_port *l = ctx;
	if (table_output_failed(l->t, err, errlen) < 0)
		return 1;   /* nothing could be written: play no further */
	if (idle && table_auto_turn(l->t))
		return table_auto_step(l->t, err, errlen);
	return 0;
}

static int lp_awaits(void *ctx)
{
	struct local_port *l = ctx;
	return table_awaits(l->t, l->v->seat);
}

static int lp_blocked(void *ctx)
{
	struct local_port *l = ctx;
	int seat = table_to_act(l->t);
	return seat >= 0 && seat != l->v->seat && !table_auto_turn(l->t);
}

static void lp_verbosity(void *ctx, int verbosity)
{
	struct local_port *l = ctx;
	view_set_verbosity(l->v, verbosity);
}

static void lp_hint(void *ctx)
{
	struct local_port *l = ctx;
	view_hint(l->v);
}

static int lp_act(void *ctx, const struct action *a)
{
	struct local_port *l = ctx;
	struct refusal why;
	if (table_act(l->t, l->v->seat, a, &why) < 0) {
		view_refusal(l->v, &why);
		return -1;
	}
	return 0;
}

int play_run(struct table *t, struct session *ses, char *err, size_t errlen)
{
	struct view quiet;
	struct view *v = table_local_view(t);
	if (!v) {
		/* Nothing to hear (no speech, no sound): the keys still answer. */
		if (view_init(&quiet, t, t->talk.me, i18n_lang(), NULL, err, errlen) < 0)
			return 1;
		v = &quiet;
	}
	/* The state now, and the prompt when the player is to act (a resumed
	 * game: after "resumed"). */
	view_refresh(v);
	struct local_port lp = { t, v };
	struct play_port port = { .state = lp_state, .advance = lp_advance, .awaits = lp_awaits, .act = lp_act,
	                          .verbosity = lp_verbosity, .hint = lp_hint, .ctx = &lp, .blocked = lp_blocked };
	view_set_verbosity(v, ses->set.verbosity);
	int rc = play_port_run(&port, ses, err, errlen);
	if (v == &quiet)
		view_release(&quiet);
	return rc;
}
