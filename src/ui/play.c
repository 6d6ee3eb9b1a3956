#include "ui/play.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/session.h"
#include "app/table.h"
#include "audio/audio.h"
#include "core/sbuf.h"
#include "speech/announce.h"
#include "speech/i18n.h"
#include "speech/say.h"
#include "speech/speech.h"
#include "ui/keymap.h"
#include "ui/term.h"

#define MENU_MAX 32

struct play {
	struct table *t;
	struct session *ses;
	card_t hand[GAME_MAX_HAND];
	int nhand;
	int sel;                    /* selected card, -1 none */
	card_t marked[ACT_MAX_CARDS];
	int nmarked;
	int menu_open;
	struct action items[MENU_MAX];
	int nitems, item;
	int typed;                  /* the amount chosen in the menu, 0 none */
	int typing;                 /* digits are being typed */
	int quit_pending;
	int prompted;               /* the turn prompt was said for this turn */
};

static void say(struct play *p, const char *text)
{
	table_say(p->t, text, SPEECH_INTERRUPT);
}

static int me(const struct play *p) { return p->t->talk.me; }

static void refresh_hand(struct play *p)
{
	card_t old = (p->sel >= 0 && p->sel < p->nhand) ? p->hand[p->sel] : CARD_NONE;
	p->nhand = me(p) >= 0 ? p->t->g->hand(p->t->st, me(p), p->hand) : 0;
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

static void say_selected(struct play *p)
{
	struct sbuf b;
	sb_clear(&b);
	if (p->sel < 0) {
		say(p, _("You hold no cards."));
		return;
	}
	say_card(&b, p->hand[p->sel], SAY_BARE);
	sb_capitalize(&b);
	if (card_find(p->marked, p->nmarked, p->hand[p->sel]) >= 0)
		sb_printf(&b, ", %s", _("to discard"));
	say(p, b.s);
}

static void move_suit(struct play *p, int dir)
{
	if (p->sel < 0)
		return;
	int suit = card_suit(p->hand[p->sel]);
	int i = p->sel;
	if (dir > 0) {
		while (i < p->nhand && card_suit(p->hand[i]) == suit)
			i++;
		if (i >= p->nhand)
			i = 0;
	} else {
		while (i > 0 && card_suit(p->hand[i]) == suit)
			i--;
		if (card_suit(p->hand[i]) == suit)
			i = p->nhand - 1;
		/* To the first card of that suit. */
		int s2 = card_suit(p->hand[i]);
		while (i > 0 && card_suit(p->hand[i - 1]) == s2)
			i--;
	}
	p->sel = i;
}

static int legal(struct play *p, struct action *out)
{
	return p->t->g->legal(p->t->st, out, GAME_MAX_LEGAL);
}

static int has_kind(const struct action *l, int n, int kind)
{
	for (int i = 0; i < n; i++)
		if (l[i].kind == kind)
			return 1;
	return 0;
}

static void say_item(struct play *p)
{
	struct sbuf b;
	sb_clear(&b);
	struct action a = p->items[p->item];
	ann_action(&p->t->talk, p->t->gt, table_view(p->t), &a, &b);
	sb_capitalize(&b);
	sb_printf(&b, _(", %1$d of %2$d."), p->item + 1, p->nitems);
	say(p, b.s);
}

/* Open the menu of the legal actions other than playing a card. */
static void open_menu(struct play *p)
{
	struct action l[GAME_MAX_LEGAL];
	int n = legal(p, l);
	p->nitems = 0;
	int discard_done = 0;
	for (int i = 0; i < n && p->nitems < MENU_MAX; i++) {
		if (l[i].kind == ACT_PLAY)
			continue;
		if (l[i].kind == ACT_DISCARD) {
			if (discard_done)
				continue;
			discard_done = 1;
			struct action d = act_simple(ACT_DISCARD);
			for (int k = 0; k < p->nmarked; k++)
				d.cards[d.ncards++] = p->marked[k];
			p->items[p->nitems++] = d;
			continue;
		}
		p->items[p->nitems++] = l[i];
	}
	if (!p->nitems) {
		say(p, _("Choose a card with the arrows, then press Enter."));
		return;
	}
	p->menu_open = 1;
	p->item = 0;
	p->typed = 0;
	p->typing = 0;
	say_item(p);
}

static void try_action(struct play *p, const struct action *a)
{
	struct sbuf why;
	sb_clear(&why);
	if (table_play(p->t, a, &why) < 0) {
		session_cue(p->ses, CUE_ILLEGAL);
		sb_capitalize(&why);
		say(p, why.s);
		return;
	}
	p->menu_open = 0;
	p->prompted = 0;
	if (a->kind == ACT_DISCARD)
		p->nmarked = 0;
	refresh_hand(p);
}

static void enter(struct play *p)
{
	if (table_to_act(p->t) != me(p)) {
		say(p, _("It is not your turn."));
		return;
	}
	if (p->menu_open) {
		struct action a = p->items[p->item];
		if (p->typed)
			a.amount = p->typed;
		a.amount_max = a.amount;
		try_action(p, &a);
		return;
	}
	struct action l[GAME_MAX_LEGAL];
	int n = legal(p, l);
	if (has_kind(l, n, ACT_PLAY) && p->sel >= 0) {
		struct action a = act_card(ACT_PLAY, p->hand[p->sel]);
		try_action(p, &a);
		return;
	}
	/* Only a discard to make: Enter throws the marked cards at once. */
	int only_discard = n > 0;
	for (int i = 0; i < n; i++)
		only_discard &= l[i].kind == ACT_DISCARD;
	if (only_discard) {
		struct action d = act_simple(ACT_DISCARD);
		for (int k = 0; k < p->nmarked; k++)
			d.cards[d.ncards++] = p->marked[k];
		try_action(p, &d);
		return;
	}
	open_menu(p);
}

static void menu_key(struct play *p, int key)
{
	struct action *a = &p->items[p->item];
	int range = a->amount_max > a->amount;
	int cur = p->typed ? p->typed : a->amount;
	switch (key) {
	case KEY_UP:
		p->item = (p->item + p->nitems - 1) % p->nitems;
		p->typed = 0;
		p->typing = 0;
		say_item(p);
		return;
	case KEY_DOWN:
		p->item = (p->item + 1) % p->nitems;
		p->typed = 0;
		p->typing = 0;
		say_item(p);
		return;
	case KEY_ESCAPE:
		p->menu_open = 0;
		say(p, _("Menu closed."));
		return;
	default:
		break;
	}
	if (!range)
		return;
	int lo = a->amount, hi = a->amount_max;
	int digit = key >= '0' && key <= '9';
	if (key == KEY_RIGHT) cur++;
	else if (key == KEY_LEFT) cur--;
	else if (key == KEY_PAGE_UP) cur += 10;
	else if (key == KEY_PAGE_DOWN) cur -= 10;
	else if (key == KEY_HOME) cur = lo;
	else if (key == KEY_END) cur = hi;
	else if (key == KEY_BACKSPACE) cur = p->typing ? p->typed / 10 : 0;
	else if (digit) cur = (p->typing ? p->typed * 10 : 0) + (key - '0');
	else return;
	/* Digits make a number of their own; any other key ends the typing. */
	p->typing = digit || (key == KEY_BACKSPACE && p->typing);
	if (p->typing) {
		if (cur > hi)
			cur = key - '0';
		p->typed = cur;
		if (cur < lo) {
			/* Not a legal amount yet: say the digits only. */
			char buf[32];
			snprintf(buf, sizeof buf, "%d", cur);
			say(p, buf);
			return;
		}
	} else {
		if (cur < lo) cur = lo;
		if (cur > hi) cur = hi;
		p->typed = cur;
	}
	/* The item with that amount, as the game phrases it ("raise, 10 chips, stake 11"). */
	struct action one = *a;
	one.amount = one.amount_max = cur;
	struct sbuf b;
	sb_clear(&b);
	ann_action(&p->t->talk, p->t->gt, table_view(p->t), &one, &b);
	sb_capitalize(&b);
	say(p, b.s);
}

static void mark(struct play *p)
{
	if (p->sel < 0)
		return;
	card_t c = p->hand[p->sel];
	struct sbuf b;
	sb_clear(&b);
	say_card(&b, c, SAY_BARE);
	sb_capitalize(&b);
	if (card_remove(p->marked, &p->nmarked, c) == 0) {
		sb_printf(&b, ", %s. ", _("to keep"));
	} else if (p->nmarked < ACT_MAX_CARDS) {
		p->marked[p->nmarked++] = c;
		sb_printf(&b, ", %s. ", _("to discard"));
	}
	sb_printf(&b, P_("%d card to discard.", "%d cards to discard.", p->nmarked), p->nmarked);
	say(p, b.s);
}

/* At the start of a turn, a selected card that cannot be played gives way
 * to the first one that can. */
static void select_playable(struct play *p)
{
	struct action l[GAME_MAX_LEGAL];
	int n = legal(p, l);
	if (!has_kind(l, n, ACT_PLAY) || p->sel < 0)
		return;
	struct action a = act_card(ACT_PLAY, p->hand[p->sel]);
	if (act_in_list(&a, l, n))
		return;
	for (int i = 0; i < p->nhand; i++) {
		a = act_card(ACT_PLAY, p->hand[i]);
		if (act_in_list(&a, l, n)) {
			p->sel = i;
			return;
		}
	}
}

static void prompt(struct play *p)
{
	struct sbuf b;
	sb_clear(&b);
	select_playable(p);
	if (p->t->gt && p->t->gt->prompt)
		p->t->gt->prompt(&p->t->talk, table_view(p->t), &b);
	if (!b.len)
		sb_puts(&b, _("Your turn."));
	table_say(p->t, b.s, SPEECH_QUEUE);
}

/* Handle one key; returns 1 when the player asked to quit. */
static int handle_key(struct play *p, int key)
{
	struct speech *sp = p->t->sp;
	if (key != KEY_NONE && sp && key != ';' && key != ',' && key != '.')
		speech_stop(sp);
	if (p->quit_pending) {
		p->quit_pending = 0;
		if (key == 'Y' || key == 'O')
			return 1;
		say(p, _("Quit cancelled."));
		return 0;
	}
	if (p->menu_open && (key == KEY_UP || key == KEY_DOWN || key == KEY_LEFT || key == KEY_RIGHT ||
	                     key == KEY_PAGE_UP || key == KEY_PAGE_DOWN || key == KEY_HOME ||
	                     key == KEY_END || key == KEY_ESCAPE || key == KEY_BACKSPACE ||
	                     (key >= '0' && key <= '9'))) {
		menu_key(p, key);
		return 0;
	}
	struct sbuf b;
	sb_clear(&b);
	switch (key) {
	case 'C': case 'F': case 'R': case 'S': case 'T':
	case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
		ann_query(&p->t->talk, p->t->gt, table_view(p->t), key, &b);
		sb_capitalize(&b);
		say(p, b.s);
		break;
	case 'H':
		refresh_hand(p);
		ann_hand(&p->t->talk, p->hand, p->nhand, &b);
		say(p, b.s);
		break;
	case KEY_LEFT:
	case KEY_RIGHT:
		refresh_hand(p);
		if (p->nhand)
			p->sel = (p->sel + (key == KEY_RIGHT ? 1 : p->nhand - 1)) % p->nhand;
		say_selected(p);
		break;
	case KEY_UP:
	case KEY_DOWN:
		refresh_hand(p);
		move_suit(p, key == KEY_DOWN ? 1 : -1);
		say_selected(p);
		break;
	case KEY_HOME:
	case KEY_END:
		refresh_hand(p);
		if (p->nhand)
			p->sel = key == KEY_HOME ? 0 : p->nhand - 1;
		say_selected(p);
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
		keymap_say(&b, KEYS_ALWAYS | (p->menu_open ? KEYS_MENU : 0) |
		                   (table_to_act(p->t) == me(p) ? KEYS_TURN : 0));
		say(p, b.s);
		break;
	case 'Q':
		p->quit_pending = 1;
		say(p, _("Quit? Press Y to confirm, any other key to go on."));
		break;
	case ',':
	case '.':
	case ';':
		if (sp) {
			const char *m = key == ',' ? speech_history_prev(sp)
			              : key == '.' ? speech_history_next(sp) : speech_history_last(sp);
			if (m) {
				speech_stop(sp);
				speech_say(sp, m, SPEECH_INTERRUPT | SPEECH_NO_HISTORY);
			}
		}
		break;
	case '+': case '-': case '[': case ']': case '{': case '}':
		session_key(p->ses, key);
		break;
	case KEY_ESCAPE:
		break;
	default:
		break;
	}
	return 0;
}

int play_run(struct table *t, struct session *ses, char *err, size_t errlen)
{
	struct play p;
	memset(&p, 0, sizeof p);
	p.t = t;
	p.ses = ses;
	p.sel = -1;
	refresh_hand(&p);
	int tty = term_is_tty();
	for (;;) {
		if (table_output_failed(t, err, errlen) < 0)
			return 1;   /* nothing could be written: play no further */
		session_pump(ses);
		int seat = table_to_act(t);
		if (seat < 0) {
			/* Let the last words be said before leaving. */
			while (speech_busy(&ses->sp)) {
				int key = term_read_key(20);
				if (key != KEY_NONE)
					break;
				session_pump(ses);
			}
			return 0;
		}
		if (table_auto_turn(t)) {
			if (!t->sp || speech_idle(t->sp, speech_now())) {
				int rc = table_auto_step(t, err, errlen);
				if (rc)
					return rc;
				refresh_hand(&p);
				continue;
			}
			if (!tty) {
				/* No keyboard to listen to meanwhile: wait for the speech. */
				if (term_interrupted())
					return 0;
				struct timespec ts = { 0, 5000000 };
				nanosleep(&ts, NULL);
				continue;
			}
			int key = term_read_key(10);
			if (key == KEY_INTERRUPT)
				return 0;
			if (key != KEY_NONE && key != KEY_EOF && handle_key(&p, key))
				return 0;
			continue;
		}
		if (!p.prompted) {
			p.prompted = 1;
			refresh_hand(&p);
			session_cue(ses, CUE_YOUR_TURN);
			prompt(&p);
		}
		int key = term_read_key(50);
		if (key == KEY_EOF || key == KEY_INTERRUPT)
			return 0;   /* the game is saved after every action */
		if (key != KEY_NONE && handle_key(&p, key))
			return 0;
	}
}
