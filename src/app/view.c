/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every word in the view's language, a value (v->talk.lang). */
#define I18N_LANG v->talk.lang
#include "app/view.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/table.h"
#include "bots/bot.h"
#include "core/cue.h"
#include "core/err.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "words/announce.h"
#include "words/french.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "words/talk_hint.h"

/* Copy text into dst (len bytes), cut if need be at a character's start. */
static void copy(const struct view *v, char *dst, size_t len, const char *text)
{
	/* French titles after "de" and "à" contract here, where every text of
	 * a view is made, so that a network client hears what a local player
	 * hears. */
	char fr[VIEW_TEXT_MAX];
	if (i18n_is_fr(v->talk.lang) && strlen(text) < sizeof fr)
		text = french_contract(text, fr, sizeof fr);
	if (strpbrk(text, "\x0e\x0f")) {
		/* The marks around a person's name (SAY_KEEP_OPEN, SAY_KEEP_CLOSE). */
		say_unmark(text, dst, len);
		return;
	}
	size_t n = strlen(text);
	if (n >= len) {
		n = utf8_start(text, len - 1);
	}
	memcpy(dst, text, n);
	dst[n] = '\0';
}

/* A text of the state copied as copy() does, into a buffer as long as it. */
static void copy_text(const struct view *v, char **dst, const char *text)
{
	char buf[VIEW_TEXT_MAX];
	copy(v, buf, sizeof buf, text);
	view_text_set(dst, buf);
}

void view_text_set(char **dst, const char *s)
{
	size_t n = strlen(s);
	if (n >= VIEW_TEXT_MAX)
		n = utf8_start(s, VIEW_TEXT_MAX - 1);
	if (*dst && strncmp(*dst, s, n) == 0 && (*dst)[n] == '\0')
		return;
	*dst = xrealloc(*dst, n + 1);
	memcpy(*dst, s, n);
	(*dst)[n] = '\0';
}

void view_texts_fill(struct view_state *vs)
{
	for (int k = 0; k < VIEW_NQUERY; k++)
		if (!vs->answer[k])
			view_text_set(&vs->answer[k], "");
	if (!vs->hand_text)
		view_text_set(&vs->hand_text, "");
	if (!vs->prompt)
		view_text_set(&vs->prompt, "");
}

struct view_choice *view_choice_next(struct view_state *vs, int *cap)
{
	if (vs->nchoices >= VIEW_MAX_CHOICES)
		return NULL;
	if (vs->nchoices >= *cap) {
		/* A few more: a turn's choices are a handful. */
		int c = vs->nchoices + 4 < VIEW_MAX_CHOICES ? vs->nchoices + 4 : VIEW_MAX_CHOICES;
		vs->choice = xrealloc(vs->choice, (size_t)c * sizeof *vs->choice);
		*cap = c;
	}
	struct view_choice *c = &vs->choice[vs->nchoices];
	memset(c, 0, sizeof *c);
	return c;
}

void view_hand_room(struct view_state *vs, int *cap, int n)
{
	if (n <= *cap)
		return;
	vs->hand = xrealloc(vs->hand, (size_t)n * sizeof *vs->hand);
	*cap = n;
}

void view_state_free(struct view_state *vs)
{
	free(vs->hand);
	vs->hand = NULL;
	vs->nhand = 0;
	free(vs->choice);
	vs->choice = NULL;
	vs->nchoices = 0;
	for (int k = 0; k < VIEW_NQUERY; k++) {
		free(vs->answer[k]);
		vs->answer[k] = NULL;
	}
	free(vs->hand_text);
	free(vs->prompt);
	vs->hand_text = vs->prompt = NULL;
}

/* ---- events ---- */

void view_phrase_event(struct talk *talk, const struct game_talk *gt, const void *view,
                       const struct event *e, struct sbuf *b)
{
	/* The order of the pack at a deal is for the hand history only; the
	 * cards of an event the listener may not see are blanked, their number
	 * kept ("Anne discards 2 cards"). */
	if (e->type != EV_HAND_START && ev_visible_to(e, talk->me)) {
		ann_event(talk, gt, view, e, b);
		return;
	}
	struct event f = *e;
	memset(f.cards, 0, sizeof f.cards);
	memset(f.cards2, 0, sizeof f.cards2);
	memset(f.act.cards, 0, sizeof f.act.cards);
	ann_event(talk, gt, view, &f, b);
}

static void redact(struct view *v)
{
	const struct game_ops *g = v->t->g;
	memcpy(v->redacted, v->t->st, g->state_size);
	g->redact(v->redacted, v->seat);
}

static void send(struct view *v, const struct view_say *m)
{
	if (v->sink.say)
		v->sink.say(v->sink.ctx, m);
}

static void say_init(struct view_say *m, int kind)
{
	memset(m, 0, offsetof(struct view_say, text));
	m->kind = kind;
	m->cue = -1;
	m->seat = -1;
	m->text[0] = '\0';
}

void view_remember(struct view *v, const struct event *ev, int n)
{
	for (int i = 0; i < n; i++) {
		ann_remember(&v->talk, &ev[i]);
	}
}

void view_verbosity(struct view *v, int verbosity)
{
	v->talk.verbosity = verbosity == TALK_SHORT ? TALK_SHORT : TALK_FULL;
	v->vs.verbosity = v->talk.verbosity;
}

void view_set_verbosity(struct view *v, int verbosity)
{
	view_verbosity(v, verbosity);
	if (v->sink.update)
		v->sink.update(v->sink.ctx, &v->vs);
}

void view_events(struct view *v, const struct event *ev, int n)
{
	if (n <= 0)
		return;
	redact(v);
	struct sbuf b;
	struct view_say m;
	for (int i = 0; i < n; i++) {
		const struct event *e = &ev[i];
		say_init(&m, VIEW_SAY_EVENT);
		int seat = -1;
		enum cue cue = cue_event(e, v->seat, &seat);
		if (cue != CUE_COUNT) {
			m.cue = (int)cue;
			m.seat = seat;
		}
		view_phrase_event(&v->talk, v->t->gt, v->redacted, e, &b);
		/* The antes paid before it, a message of their own. */
		char *rest = b.len ? strstr(b.s, ANN_BREAK) : NULL;
		if (rest) {
			struct view_say dues;
			say_init(&dues, VIEW_SAY_EVENT);
			*rest = '\0';
			copy(v, dues.text, sizeof dues.text, b.s);
			send(v, &dues);
			rest += strlen(ANN_BREAK);
		}
		const char *text = rest ? rest : b.s;
		if (b.len && *text)
			copy(v, m.text, sizeof m.text, text);
		if (m.cue >= 0 || m.text[0])
			send(v, &m);
	}
}

/* ---- the state ---- */

static void put(const struct view *v, char *dst, size_t len, struct sbuf *b)
{
	sb_capitalize(b);
	copy(v, dst, len, b->s);
}

/* Room for k more labels in the pool, or -1 beyond its bound. */
static int reserve(struct view *v, int k)
{
	struct view_state *vs = &v->vs;
	if (k <= 0 || vs->nvariants + k > VIEW_MAX_VARIANTS)
		return -1;
	xgrow((void **)&vs->variant, &v->cap_variants, vs->nvariants + k, sizeof *vs->variant);
	int first = vs->nvariants;
	vs->nvariants += k;
	return first;
}

static void label(struct view *v, const struct action *a, char *dst)
{
	struct sbuf b;
	sb_clear(&b);
	ann_action(&v->talk, v->t->gt, v->redacted, a, &b);
	put(v, dst, VIEW_LABEL_MAX, &b);
}

/* The labels of every amount of a range, or of every discard of the hand. */
static void variants(struct view *v, struct view_choice *c)
{
	struct view_state *vs = &v->vs;
	c->first = c->nvariants = 0;
	if (c->act.kind == ACT_DISCARD) {
		if (vs->nhand > 12)
			return;
		int k = 1 << vs->nhand;
		int first = reserve(v, k);
		if (first < 0)
			return;
		for (int mask = 0; mask < k; mask++) {
			struct action d = act_simple(ACT_DISCARD);
			for (int i = 0; i < vs->nhand; i++)
				if (((mask >> i) & 1) && d.ncards < ACT_MAX_CARDS)
					d.cards[d.ncards++] = vs->hand[i].card;
			label(v, &d, vs->variant[first + mask]);
		}
		c->first = first;
		c->nvariants = k;
		return;
	}
	if (c->hi <= c->lo)
		return;
	int first = reserve(v, c->hi - c->lo + 1);
	if (first < 0)
		return;
	for (int a = c->lo; a <= c->hi; a++) {
		struct action one = c->act;
		one.amount = one.amount_max = a;
		label(v, &one, vs->variant[first + a - c->lo]);
	}
	c->first = first;
	c->nvariants = c->hi - c->lo + 1;
}

/* Whether the list holds an all-in of exactly these chips: a call that
 * puts in every chip the player has is the same move, said once. */
static int allin_of(const struct action *l, int n, int chips)
{
	for (int i = 0; i < n; i++)
		if (l[i].kind == ACT_ALLIN && l[i].amount == chips)
			return 1;
	return 0;
}

/* Watches a trial run for the end of the deal. */
static void trial_emit(void *ctx, const struct event *e)
{
	if (e->type == EV_HAND_END)
		*(int *)ctx = 1;
}

/* Staying in the deal: stay, take the turned card (a take of chips is a
 * cave). */
static int stays_in(const struct action *a)
{
	return a->kind == ACT_STAY || (a->kind == ACT_TAKE && a->amount == 0);
}

/* The action a trial run takes among l: one that stays in, else the first. */
static const struct action *trial_pick(const struct action *l, int n)
{
	for (int i = 0; i < n; i++)
		if (stays_in(&l[i]))
			return &l[i];
	return n > 0 ? &l[0] : NULL;
}

/* Whether the seat to act, given its legal actions l, has a discard
 * ahead: one of l, or reached by staying in (stay, take the turned card)
 * before the cards are played or the deal ends. Told by the rules
 * themselves, on a scratch copy of the state played on from here. */
static int discard_ahead(struct view *v, const struct action *l, int n)
{
	const struct game_ops *g = v->t->g;
	for (int i = 0; i < n; i++)
		if (l[i].kind == ACT_DISCARD)
			return 1;
	const struct action *a = trial_pick(l, n);
	if (!a || !stays_in(a))
		return 0;
	void *st = xmalloc(g->state_size);
	memcpy(st, v->t->st, g->state_size);
	int ended = 0, found = 0;
	struct sink quiet = { trial_emit, &ended };
	struct refusal why;
	struct action m[GAME_MAX_LEGAL];
	for (int step = 0; step < 4 * GAME_MAX_SEATS && !ended; step++) {
		if (g->apply(st, a, &quiet, &why) < 0 || ended || g->to_act(st) < 0)
			break;
		int k = g->legal(st, m, GAME_MAX_LEGAL);
		int play = 0;
		for (int i = 0; i < k; i++) {
			found |= m[i].kind == ACT_DISCARD;
			play |= m[i].kind == ACT_PLAY;
		}
		if (found || play || !(a = trial_pick(m, k)))
			break;
	}
	free(st);
	return found;
}

static void choices(struct view *v, const struct action *l, int n)
{
	struct view_state *vs = &v->vs;
	int discard_done = 0;
	for (int i = 0; i < n && vs->nchoices < VIEW_MAX_CHOICES; i++) {
		if (l[i].kind == ACT_PLAY)
			continue;
		if (l[i].kind == ACT_CALL && l[i].amount > 0 && allin_of(l, n, l[i].amount))
			continue;
		struct view_choice *c = view_choice_next(vs, &v->cap_choices);
		c->act = l[i];
		if (l[i].kind == ACT_DISCARD) {
			/* One item: the cards are the player's marks. */
			if (discard_done)
				continue;
			discard_done = 1;
			c->act = act_simple(ACT_DISCARD);
		}
		vs->nchoices++;
		c->lo = c->act.amount;
		c->hi = c->act.amount_max > c->act.amount ? c->act.amount_max : c->act.amount;
		struct action w = c->act;
		w.amount_max = w.amount;
		act_format(&w, c->word, sizeof c->word);
		label(v, &c->act, c->label);
		variants(v, c);
	}
}

int view_risky(const struct view_state *vs, const struct action *a)
{
	if (a->kind == ACT_ALLIN)
		return 1;
	int stay = 0;
	for (int i = 0; i < vs->nchoices; i++)
		stay |= vs->choice[i].act.kind == ACT_STAY;
	if (vs->chips_in > 0 && (a->kind == ACT_FOLD || (a->kind == ACT_PASS && stay)))
		return 1;
	int bet = a->kind == ACT_OPEN || a->kind == ACT_RAISE || a->kind == ACT_STRADDLE || a->kind == ACT_BUYBACK;
	return bet && vs->chips > 0 && a->amount * 2 > vs->chips;
}

/* Mark the choices that ask for a yes: a single action when it is risky,
 * a range from its first risky amount. An amount is risky from more than
 * half one's chips up (view_risky), so that amount is tried after the
 * least, not every amount of the range. */
static void risks(struct view_state *vs)
{
	for (int i = 0; i < vs->nchoices; i++) {
		struct view_choice *c = &vs->choice[i];
		c->confirm = c->confirm_from = 0;
		struct action a = c->act;
		int from = c->lo;
		a.amount = a.amount_max = from;
		if (!view_risky(vs, &a) && vs->chips > 0 && vs->chips / 2 + 1 > from) {
			from = vs->chips / 2 + 1;
			a.amount = a.amount_max = from;
		}
		if (from <= c->hi && view_risky(vs, &a)) {
			if (c->hi > c->lo)
				c->confirm_from = from;
			else
				c->confirm = 1;
		}
	}
}

int view_asks(const struct view_state *vs, int i, int amount)
{
	if (i < 0 || i >= vs->nchoices)
		return 0;
	const struct view_choice *c = &vs->choice[i];
	return c->confirm || (c->confirm_from > 0 && amount >= c->confirm_from);
}

static void compute(struct view *v)
{
	struct table *t = v->t;
	const struct game_ops *g = t->g;
	struct view_state *vs = &v->vs;
	redact(v);
	vs->seat = v->seat;
	snprintf(vs->lang, sizeof vs->lang, "%s", v->lang);
	vs->game = g->name;
	vs->players = t->opt.players;
	vs->clockwise = g->clockwise;
	vs->showdowns = t->gt && t->gt->showdowns;
	vs->to_act = table_to_act(t);
	vs->game_over = vs->to_act < 0;
	vs->my_turn = v->seat >= 0 && table_awaits(t, v->seat);
	vs->moves = t->moves;
	/* The chips are public: asked of the game, whenever the view came. */
	vs->chips = -1;
	vs->chips_in = 0;
	if (g->chips && v->seat >= 0)
		g->chips(t->st, v->seat, &vs->chips, &vs->chips_in);
	vs->verbosity = v->talk.verbosity;
	struct sbuf b;
	for (int k = 0; k < VIEW_NQUERY; k++) {
		ann_query(&v->talk, t->gt, v->redacted, VIEW_QUERY_KEYS[k], &b);
		sb_capitalize(&b);
		copy_text(v, &vs->answer[k], b.s);
	}
	card_t cards[GAME_MAX_HAND];
	/* The hand of the last state: a card's name (and the hand's sentence,
	 * when the hand is the same) depend on the cards and the language
	 * only, and most actions leave a hand as it was. */
	struct view_card was[GAME_MAX_HAND];
	int nwas = vs->nhand;
	if (nwas)
		memcpy(was, vs->hand, (size_t)nwas * sizeof was[0]);
	vs->nhand = v->seat >= 0 ? g->hand(v->redacted, v->seat, cards) : 0;
	view_hand_room(vs, &v->cap_hand, vs->nhand);
	for (int s = 0; s < GAME_MAX_SEATS; s++) {
		card_t any[GAME_MAX_HAND]; /* counts only: how many each holds is public */
		vs->ncards[s] = s < vs->players ? g->hand(t->st, s, any) : 0;
	}
	vs->ntrick = g->trick ? g->trick(v->redacted, vs->trick_seat, vs->trick_card) : 0;
	const char *names[GAME_MAX_SEATS];
	char plain[GAME_MAX_SEATS][TALK_NAME_MAX];
	for (int s = 0; s < vs->players && s < GAME_MAX_SEATS; s++)
		names[s] = say_unmark(say_name(&v->talk, s), plain[s], sizeof plain[s]);
	view_tags(names, vs->players < GAME_MAX_SEATS ? vs->players : GAME_MAX_SEATS, vs->tag);
	int same = vs->nhand > 0 && vs->nhand == nwas;
	for (int i = 0; same && i < nwas; i++)
		same = was[i].card == cards[i];
	if (!same) {
		sb_clear(&b);
		ann_hand(&v->talk, cards, vs->nhand, &b);
		copy_text(v, &vs->hand_text, b.s);
	}
	struct action l[GAME_MAX_LEGAL];
	int n = vs->to_act >= 0 && vs->to_act == v->seat ? g->legal(t->st, l, GAME_MAX_LEGAL) : 0;
	vs->can_play = 0;
	for (int i = 0; i < vs->nhand; i++) {
		struct view_card *c = &vs->hand[i];
		c->card = cards[i];
		struct action a = act_card(ACT_PLAY, cards[i]);
		c->playable = n > 0 && act_in_list(&a, l, n);
		vs->can_play |= c->playable;
		int k = 0;
		while (k < nwas && was[k].card != cards[i])
			k++;
		if (k < nwas) {
			memcpy(c->name, was[k].name, sizeof c->name);
			continue;
		}
		sb_clear(&b);
		say_card(v->talk.lang, &b, cards[i], SAY_BARE);
		put(v, c->name, sizeof c->name, &b);
	}
	for (int i = 0; i < n; i++)
		vs->can_play |= l[i].kind == ACT_PLAY;
	vs->nchoices = 0;
	vs->nvariants = 0;
	vs->discard_ahead = n > 0 && discard_ahead(v, l, n);
	choices(v, l, n);
	/* What a turn needed goes with it: a table keeps a state for every
	 * kind of listener, and only the seat to act has choices. */
	if (!vs->nchoices && v->cap_choices) {
		free(vs->choice);
		vs->choice = NULL;
		v->cap_choices = 0;
	}
	if (!vs->nvariants && v->cap_variants) {
		free(vs->variant);
		vs->variant = NULL;
		v->cap_variants = 0;
	}
	risks(vs);
	view_cursor_make(vs, keymap_moves, v->talk.lang);
	if (!vs->my_turn) {
		view_text_set(&vs->prompt, "");
	} else {
		sb_clear(&b);
		if (t->gt && t->gt->prompt)
			t->gt->prompt(&v->talk, v->redacted, &b);
		if (!b.len)
			sb_puts(&b, _("Your turn."));
		copy_text(v, &vs->prompt, b.s);
	}
}

void view_refresh(struct view *v)
{
	compute(v);
	if (v->sink.update)
		v->sink.update(v->sink.ctx, &v->vs);
	if (v->vs.my_turn && v->prompted != v->vs.moves) {
		v->prompted = v->vs.moves;
		struct view_say m;
		say_init(&m, VIEW_SAY_PROMPT);
		m.urgent = 1;
		m.cue = CUE_YOUR_TURN;
		copy(v, m.text, sizeof m.text, v->vs.prompt);
		send(v, &m);
	}
}

void view_refusal(struct view *v, const struct refusal *r)
{
	struct sbuf b;
	sb_clear(&b);
	if (r->code == TABLE_NOT_YOUR_TURN) {
		sb_puts(&b, _("It is not your turn."));
	} else {
		redact(v);
		ann_refusal(&v->talk, v->t->gt, v->redacted, r, &b);
	}
	struct view_say m;
	say_init(&m, VIEW_SAY_REFUSAL);
	m.urgent = 1;
	m.interrupt = 1;
	m.cue = CUE_ILLEGAL;
	put(v, m.text, sizeof m.text, &b);
	send(v, &m);
}

/* Say a hint, or that there is none now (a NULL). */
static void hint_say(struct view *v, const struct action *a, const struct bot_reason *why)
{
	struct sbuf b;
	sb_clear(&b);
	if (!a) {
		sb_puts(&b, _("No hint now: it is not your turn."));
	} else {
		struct talk tk = v->talk;
		talk_hint(&tk, v->t->gt, a, why, &b);
	}
	struct view_say m;
	say_init(&m, VIEW_SAY_SYSTEM);
	m.interrupt = 1;
	put(v, m.text, sizeof m.text, &b);
	send(v, &m);
}

int view_hint_due(const struct view *v)
{
	const struct table *t = v->t;
	return t && v->seat >= 0 && table_to_act(t) == v->seat;
}

void view_hint_seed(const struct view *v, struct rng *r)
{
	rng_seed(r, rng_derive(v->t->opt.seed ^ 0x68696e74u, (uint64_t)v->t->moves));
}

void view_hint_tell(struct view *v, const struct action *a, const struct bot_reason *why)
{
	hint_say(v, a, why);
}

int view_hint(struct view *v)
{
	struct table *t = v->t;
	if (!view_hint_due(v)) {
		hint_say(v, NULL, NULL);
		return -1;
	}
	struct rng hr;
	view_hint_seed(v, &hr);
	struct action a;
	struct bot_reason why;
	bot_hint(t->g, t->bot, t->st, BOT_BUDGET_DEFAULT, &hr, &a, &why);
	hint_say(v, &a, &why);
	return 0;
}

void view_names(struct view *v)
{
	const char *person[GAME_MAX_SEATS];
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		person[s] = v->t->person[s];
	say_set_names(&v->talk, v->t->named ? person : NULL, v->t->opt.players);
}

void view_tell(struct view *v, int kind, const char *text)
{
	struct view_say m;
	say_init(&m, kind);
	copy(v, m.text, sizeof m.text, text);
	send(v, &m);
}

const struct view_state *view_state(const struct view *v) { return &v->vs; }

void view_cursor_make(struct view_state *vs, const struct keymap_move moves[KEYMAP_NMOVES], const struct i18n_lang *l)
{
	card_t cards[GAME_MAX_HAND];
	int playable[GAME_MAX_HAND];
	int n = vs->nhand < GAME_MAX_HAND ? vs->nhand : GAME_MAX_HAND;
	for (int i = 0; i < n; i++) {
		cards[i] = vs->hand[i].card;
		playable[i] = vs->can_play && vs->hand[i].playable;
	}
	keymap_cursor_make(&vs->cursor, moves, cards, playable, n, l);
	vs->cursor.enter = keymap_enter(vs->can_play, vs->nchoices, vs->nchoices == 1 && vs->choice[0].act.kind == ACT_DISCARD);
}

/* The bytes of the first k characters of s (all of s when shorter). */
static size_t head_bytes(const char *s, int k)
{
	size_t i = 0;
	while (s[i] && k > 0) {
		i++;
		while (s[i] && utf8_cont((unsigned char)s[i]))
			i++;
		k--;
	}
	return i;
}

/* 1 when a and b begin with the same k characters (ASCII letters of
 * either case alike). */
static int same_head(const char *a, const char *b, int k)
{
	size_t na = head_bytes(a, k), nb = head_bytes(b, k);
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		int x = (unsigned char)a[i], y = (unsigned char)b[i];
		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
		if (x != y)
			return 0;
	}
	return 1;
}

void view_tags(const char *const *names, int n, char out[][VIEW_TAG_MAX])
{
	for (int s = 0; s < n; s++) {
		int k = 1, clash = 1;
		for (; k <= VIEW_TAG_CHARS && clash; k += clash) {
			clash = 0;
			for (int o = 0; o < n && !clash; o++)
				clash = o != s && same_head(names[s], names[o], k);
		}
		if (k > VIEW_TAG_CHARS)
			k = VIEW_TAG_CHARS;
		size_t len = head_bytes(names[s], k);
		if (len + 4 > VIEW_TAG_MAX)
			len = utf8_start(names[s], VIEW_TAG_MAX - 4);
		memcpy(out[s], names[s], len);
		out[s][len] = 0;
		if (out[s][0] >= 'a' && out[s][0] <= 'z')
			out[s][0] = (char)(out[s][0] - 'a' + 'A');
		/* The same name twice (two people of one name): the seat's number. */
		if (clash || !len)
			snprintf(out[s] + len, VIEW_TAG_MAX - len, "%d", s + 1);
	}
}

const char *view_amount_label(const struct view_state *vs, int i, int a)
{
	if (i < 0 || i >= vs->nchoices)
		return NULL;
	const struct view_choice *c = &vs->choice[i];
	if (c->act.kind == ACT_DISCARD || a < c->lo || a > c->hi)
		return NULL;
	if (c->lo == c->hi)
		return c->label;
	if (!c->nvariants)
		return NULL;
	return vs->variant[c->first + a - c->lo];
}

const char *view_discard_label(const struct view_state *vs, int i, unsigned mask)
{
	if (i < 0 || i >= vs->nchoices)
		return NULL;
	const struct view_choice *c = &vs->choice[i];
	if (c->act.kind != ACT_DISCARD || mask >= (unsigned)c->nvariants)
		return NULL;
	return vs->variant[c->first + (int)mask];
}

/* ---- life ---- */

/* The table is closed: its views hear no more (view_release then has no
 * table to leave). */
static void view_gone(struct view *v)
{
	v->t = NULL;
}

static const struct table_ear view_ear = { view_events, view_remember, view_refresh, view_names, view_gone };

int view_init(struct view *v, struct table *t, int seat, const char *lang,
              const struct view_sink *sink, char *err, size_t errlen)
{
	/* A table in play: its game, a seat count the game allows and room for
	 * the redacted copy. */
	assert(v && t && t->g);
	assert(t->opt.players >= 1 && t->opt.players <= GAME_MAX_SEATS);
	assert(t->g->state_size >= sizeof(struct game_head));
	memset(v, 0, sizeof *v);
	v->t = t;
	v->seat = seat >= 0 && seat < t->opt.players ? seat : VIEW_SPECTATOR;
	snprintf(v->lang, sizeof v->lang, "%s", strncmp(lang ? lang : "", "fr", 2) == 0 ? "fr" : "en");
	if (sink)
		v->sink = *sink;
	v->talk.game = t->g;
	v->talk.players = t->opt.players;
	v->talk.me = v->seat;
	v->talk.lang = i18n_of(v->lang);
	/* What the table showed before this listener came (L); the cards were
	 * dealt to every seat at once. */
	v->talk.heard = t->talk.heard;
	v->talk.heard.ndues = 0;
	v->talk.heard.dealt = v->seat >= 0 && t->dealt;
	view_names(v);
	v->prompted = -1;
	view_texts_fill(&v->vs);
	v->redacted = xcalloc(1, t->g->state_size);
	if (table_attach(t, v, &view_ear) < 0) {
		errf(err, errlen, "too many listeners at this table");
		free(v->redacted);
		v->redacted = NULL;
		view_state_free(&v->vs);
		return -1;
	}
	/* The listener is a seat of the table or a spectator, in a language
	 * that has a catalogue. */
	assert(v->seat == VIEW_SPECTATOR || (v->seat >= 0 && v->seat < v->talk.players));
	assert(v->talk.lang);
	return 0;
}

void view_release(struct view *v)
{
	if (v->t)
		table_detach(v->t, v);
	free(v->redacted);
	free(v->vs.variant);
	view_state_free(&v->vs);
	memset(v, 0, sizeof *v);
}

void view_catch_up_state(const struct view_state *vs, int heading, struct sbuf *b)
{
	/* TRANSLATORS: heads what was missed and where the game stands, after
	 * a resume or a return to a table. */
	if (heading)
		sb_puts(b, i18n_tr(i18n_of(vs->lang), N_("While you were away:")));
	/* Whose turn: the prompt says it right after, when it is ours. */
	for (const char *k = vs->my_turn ? "CS" : "CTS"; *k; k++) {
		const char *a = vs->answer[strchr(VIEW_QUERY_KEYS, *k) - VIEW_QUERY_KEYS];
		if (*a)
			sb_printf(b, "%s%s", b->len ? " " : "", a);
	}
}

void view_catch_up(struct view *v, struct sbuf *b)
{
	compute(v);
	view_catch_up_state(&v->vs, 1, b);
}
