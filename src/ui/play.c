#include "ui/play.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/session.h"
#include "app/table.h"
#include "app/view.h"
#include "core/sbuf.h"
#include "speech/i18n.h"
#include "speech/speech.h"
#include "ui/keymap.h"
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
	struct action items[MENU_MAX]; /* view_state.choice[i], a discard with the marks */
	int nitems, item;
	int typed;                  /* the amount chosen in the menu, 0 none */
	int typing;                 /* digits are being typed */
	int quit_pending;
	int turn_seen;              /* the start of this turn was seen */
	int moves;                  /* view_state.moves last seen */
};

static const struct view_state *vs(const struct play *p) { return p->port->state(p->port->ctx); }

static void say(struct play *p, const char *text)
{
	if (text && *text)
		speech_say(&p->ses->sp, text, SPEECH_INTERRUPT);
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

static void say_selected(struct play *p)
{
	struct sbuf b;
	sb_clear(&b);
	if (p->sel < 0) {
		say(p, _("You hold no cards."));
		return;
	}
	sb_puts(&b, card_name(p, p->sel));
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

static void say_item(struct play *p)
{
	const struct view_state *v = vs(p);
	struct sbuf b;
	sb_clear(&b);
	const struct action *a = &p->items[p->item];
	const char *label = a->kind == ACT_DISCARD ? view_discard_label(v, p->item, hand_mask(p, a))
	                  : p->item < v->nchoices ? v->choice[p->item].label : NULL;
	sb_puts(&b, label ? label : "");
	sb_printf(&b, _(", %1$d of %2$d."), p->item + 1, p->nitems);
	say(p, b.s);
}

static struct action marked_discard(const struct play *p)
{
	struct action d = act_simple(ACT_DISCARD);
	for (int k = 0; k < p->nmarked; k++)
		d.cards[d.ncards++] = p->marked[k];
	return d;
}

/* Open the menu of the legal actions other than playing a card. */
static void open_menu(struct play *p)
{
	const struct view_state *v = vs(p);
	p->nitems = 0;
	for (int i = 0; i < v->nchoices && p->nitems < MENU_MAX; i++)
		p->items[p->nitems++] = v->choice[i].act.kind == ACT_DISCARD ? marked_discard(p) : v->choice[i].act;
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
	if (p->port->act(p->port->ctx, a) < 0)
		return;   /* why was said by the table */
	p->menu_open = 0;
	if (a->kind == ACT_DISCARD)
		p->nmarked = 0;
	refresh_hand(p);
}

static void enter(struct play *p)
{
	const struct view_state *v = vs(p);
	if (v->seat < 0 || v->to_act != v->seat) {
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
	if (v->can_play && p->sel >= 0) {
		struct action a = act_card(ACT_PLAY, p->hand[p->sel]);
		try_action(p, &a);
		return;
	}
	/* Only a discard to make: Enter throws the marked cards at once. */
	if (!v->can_play && v->nchoices == 1 && v->choice[0].act.kind == ACT_DISCARD) {
		struct action d = marked_discard(p);
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
	const char *label = view_amount_label(vs(p), p->item, cur);
	char buf[32];
	if (!label) {
		snprintf(buf, sizeof buf, "%d", cur);
		label = buf;
	}
	say(p, label);
}

static void mark(struct play *p)
{
	if (p->sel < 0)
		return;
	card_t c = p->hand[p->sel];
	struct sbuf b;
	sb_clear(&b);
	sb_puts(&b, card_name(p, p->sel));
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
	const struct view_state *v = vs(p);
	if (!v->can_play || p->sel < 0 || v->nhand != p->nhand)
		return;
	if (v->hand[p->sel].playable)
		return;
	for (int i = 0; i < v->nhand; i++)
		if (v->hand[i].playable) {
			p->sel = i;
			return;
		}
}

/* Handle one key; returns 1 when the player asked to quit. */
static int handle_key(struct play *p, int key)
{
	struct speech *sp = &p->ses->sp;
	if (p->port->key && !p->quit_pending && p->port->key(p->port->ctx, key))
		return 0;
	if (key != KEY_NONE && key != ';' && key != ',' && key != '.')
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
		say(p, vs(p)->answer[strchr(VIEW_QUERY_KEYS, key) - VIEW_QUERY_KEYS]);
		break;
	case 'H':
		refresh_hand(p);
		say(p, vs(p)->hand_text);
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
		                   (vs(p)->seat >= 0 && vs(p)->to_act == vs(p)->seat ? KEYS_TURN : 0));
		say(p, b.s);
		break;
	case 'Q':
		p->quit_pending = 1;
		say(p, _("Quit? Press Y to confirm, any other key to go on."));
		break;
	case ',':
	case '.':
	case ';':
	{
		const char *m = key == ',' ? speech_history_prev(sp)
		              : key == '.' ? speech_history_next(sp) : speech_history_last(sp);
		if (m) {
			speech_stop(sp);
			speech_say(sp, m, SPEECH_INTERRUPT | SPEECH_NO_HISTORY);
		}
		break;
	}
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

/* A new action was applied: what the keys answer changed. */
static void sync(struct play *p)
{
	const struct view_state *v = vs(p);
	if (v->moves == p->moves)
		return;
	p->moves = v->moves;
	p->menu_open = 0;
	p->turn_seen = 0;
	refresh_hand(p);
}

int play_port_run(const struct play_port *port, struct session *ses, char *err, size_t errlen)
{
	struct play p;
	memset(&p, 0, sizeof p);
	p.port = port;
	p.ses = ses;
	p.sel = -1;
	p.moves = vs(&p)->moves;
	refresh_hand(&p);
	int tty = term_is_tty();
	for (;;) {
		session_pump(ses);
		int moves = vs(&p)->moves;
		int rc = port->advance(port->ctx, speech_idle(&ses->sp, speech_now()), err, errlen);
		if (rc)
			return rc;
		if (vs(&p)->moves != moves) {
			sync(&p);
			continue;
		}
		if (vs(&p)->game_over) {
			/* Let the last words be said before leaving. */
			while (speech_busy(&ses->sp)) {
				int key = term_read_key(20);
				if (key != KEY_NONE)
					break;
				session_pump(ses);
			}
			return 0;
		}
		if (!port->awaits(port->ctx)) {
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
		if (!p.turn_seen) {
			/* The table said the prompt (app/view); the keys follow it. */
			p.turn_seen = 1;
			refresh_hand(&p);
			select_playable(&p);
		}
		int key = term_read_key(50);
		if (key == KEY_EOF || key == KEY_INTERRUPT)
			return 0;   /* the game is saved after every action */
		if (key != KEY_NONE && handle_key(&p, key))
			return 0;
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
	if (idle && table_auto_turn(l->t))
		return table_auto_step(l->t, err, errlen);
	return 0;
}

static int lp_awaits(void *ctx)
{
	struct local_port *l = ctx;
	return table_awaits(l->t, l->v->seat);
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
	struct play_port port = { lp_state, lp_advance, lp_awaits, lp_act, &lp, NULL };
	int rc = play_port_run(&port, ses, err, errlen);
	if (v == &quiet)
		view_release(&quiet);
	return rc;
}
