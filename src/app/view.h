/* SPDX-License-Identifier: GPL-3.0-or-later */
/* view: one listener at a table. A view listens for one seat, or for a
 * spectator, in one language. It filters the table's events by visibility
 * (a seat hears the cards it may see, a spectator only what is public),
 * phrases them with the announcer (announce, talk_GAME, say, the
 * catalogues), and keeps a view_state: everything a player's keys answer
 * (C F R S T L N 1-9 H, the hand, the legal choices and their labels), so that
 * a client answers keys at once, without asking the table.
 *
 * What a view produces goes to its sink: the local speech and sound cues
 * (app/local), a network connection, or a test recorder. Local play is one
 * table, one view, one local sink; a server binds many views to
 * connections.
 *
 * Both structures handed to a sink are plain data (fixed arrays, one
 * pool of labels owned by the view), valid during the call. A sink's
 * callbacks must not act on the table nor attach or detach views: they
 * come while the table tells its views. A view phrases in its own
 * language, a value (talk.lang), and switches nothing of the process. */
#ifndef TAPIS_VIEW_H
#define TAPIS_VIEW_H

#include <stddef.h>

#include "app/keymap.h"
#include "core/action.h"
#include "core/card.h"
#include "core/event.h"
#include "core/game.h"
#include "core/sbuf.h"
#include "words/talk.h"

struct table;

#define VIEW_SPECTATOR (-1)
#define VIEW_TEXT_MAX SBUF_SIZE  /* a sentence or an answer, NUL included */
#define VIEW_NAME_MAX 64         /* a card's spoken name */
#define VIEW_LABEL_MAX 192       /* a menu item */
#define VIEW_MAX_CHOICES 32
/* The query keys, in the order of view_state.answer. */
#define VIEW_QUERY_KEYS "CFLNRST123456789"
#define VIEW_NQUERY 16
/* Most labels of amounts and discards one state holds (see view_choice). */
#define VIEW_MAX_VARIANTS 4096
/* A seat's tag: the fewest first letters of its name that tell it from
 * the others' (braille's table line), NUL included. */
#define VIEW_TAG_MAX 24
#define VIEW_TAG_CHARS 4

enum view_say_kind {
	VIEW_SAY_EVENT,    /* something happened at the table */
	VIEW_SAY_PROMPT,   /* "Your turn. ..." */
	VIEW_SAY_REFUSAL,  /* an action of this seat was refused: why */
	VIEW_SAY_SYSTEM,   /* about the game rather than the play ("Bouillotte resumed.") */
	VIEW_SAY_CHAT,     /* a player's words (servers) */
};

/* One announcement. */
struct view_say {
	int kind;        /* enum view_say_kind */
	int urgent;      /* assertive: the turn prompt and refusals */
	int interrupt;   /* cut what is being said first (refusals) */
	int cue;         /* enum cue (core/cue.h), -1 none */
	int seat;        /* where the cue comes from, -1 the centre */
	char text[VIEW_TEXT_MAX]; /* "" for a cue alone */
};

/* A card of the listener's hand. */
struct view_card {
	card_t card;
	int playable;                 /* playing it now is legal */
	char name[VIEW_NAME_MAX];     /* bare, capitalised: "Queen of hearts", "Dame de cœur" */
};

/* A legal choice other than playing a card (one menu item).
 *
 * Amounts: act.amount..act.amount_max is a range when amount_max > amount.
 * Labels of the amounts (as the game phrases the action for that amount:
 * "Raise, 10 chips, stake 11") are in view_state.variant[first + a - lo]
 * for every amount a in lo..hi: chips at a table are bounded, and a range
 * is only offered to the seat to act. When a state would need more than
 * VIEW_MAX_VARIANTS labels, nvariants is 0 and a client says the bare
 * number.
 *
 * Discards (Bourré): one item for every discard; the label of discarding
 * a set of the hand's cards is view_state.variant[first + mask], where bit
 * i of mask stands for view_state.hand[i] (nvariants = 2^nhand). */
struct view_choice {
	struct action act;            /* as the rules list it (a discard: no cards) */
	char word[ACT_STR_MAX];       /* in the words of --actions: "raise 12", "stay", "discard" */
	char label[VIEW_LABEL_MAX];   /* the item as the menu says it: "Raise, 2 to 100 chips, stake 3 to 101" */
	int lo, hi;                   /* the amounts (lo == hi: one) */
	int first, nvariants;         /* labels of amounts or discards in view_state.variant */
	/* Taking it asks the player for a yes first (view_risky): confirm,
	 * always; confirm_from, for the amounts from it up (0: none). */
	int confirm, confirm_from;
};

struct view_state {
	int seat;                     /* the listener, VIEW_SPECTATOR */
	char lang[8];                 /* "en", "fr" */
	const char *game;             /* game_ops name */
	int players;
	int clockwise;                /* order of play (where the seats sound) */
	int showdowns;                /* L says the last showdown, not the last trick */
	int to_act;                   /* seat to act, -1 when over */
	int my_turn;                  /* the table waits for this seat's player */
	int game_over;
	int moves;                    /* actions applied: changes with every action */
	/* The answers of the query keys, capitalised, in VIEW_QUERY_KEYS order.
	 * These texts are each as long as what they say (view_text_set; at
	 * most VIEW_TEXT_MAX with the NUL), owned by whoever fills the state
	 * (the view, a network client), NULL before it is first filled. */
	char *answer[VIEW_NQUERY];
	char *hand_text;              /* H: "Your 5 cards: spades: ace, king; ..." */
	char *prompt;                 /* the turn prompt when my_turn, else "" */
	int nhand;
	struct view_card *hand;       /* nhand of them, owned as the texts (view_hand_room) */
	int can_play;                 /* playing a card is legal now */
	int discard_ahead;            /* my turn leads to a discard: the discard itself, or
	                               * the choice (stay, take the turned card) it follows */
	int nchoices;                 /* the other legal choices, when my_turn */
	struct view_choice *choice;   /* nchoices of them, at most VIEW_MAX_CHOICES, owned as the texts
	                               * (view_choice_next), NULL none yet */
	int ncards[GAME_MAX_SEATS];   /* cards each seat holds */
	/* The trick in progress (game_ops.trick), face up for all: who
	 * played which card so far, in order; 0 between tricks and in a game
	 * without them. */
	int ntrick;
	int trick_seat[GAME_MAX_SEATS];
	card_t trick_card[GAME_MAX_SEATS];
	/* Each seat's tag, as the listener names the seats ("Y" for "you",
	 * "B" for Bruno, "Cl" and "Co" for Claire and Colin). */
	char tag[GAME_MAX_SEATS][VIEW_TAG_MAX];
	int chips;                    /* chips in front of this seat, -1 unknown */
	int chips_in;                 /* chips this seat put in by choice in this deal
	                               * (antes and passe not counted) */
	int verbosity;                /* enum talk_verbosity the events are phrased in */
	/* How the keys move the cursor over the hand and an amount now (the
	 * rules of app/keymap, as lists): what both clients follow. */
	struct keymap_cursor cursor;
	int nvariants;
	char (*variant)[VIEW_LABEL_MAX]; /* owned by the view, valid until the next update */
};

struct view_sink {
	void (*say)(void *ctx, const struct view_say *m);
	void (*update)(void *ctx, const struct view_state *vs);
	void *ctx;
};

struct view {
	struct table *t;
	int seat;
	char lang[8];
	struct view_sink sink;
	struct talk talk;
	void *redacted;               /* scratch: the state as this seat sees it */
	int prompted;                 /* moves when the prompt was last said, -1 never */
	int cap_variants, cap_choices, cap_hand;
	struct view_state vs;
};

/* Set up a view of seat (or VIEW_SPECTATOR) in lang and attach it to the
 * table: it hears every later action, and its sink gets the current state
 * at once (and the prompt when the seat is to act). 0, or -1 with a
 * message (no memory, the table's list of views is full). */
int view_init(struct view *v, struct table *t, int seat, const char *lang,
              const struct view_sink *sink, char *err, size_t errlen);
/* Detach from the table and free. */
void view_release(struct view *v);
/* Phrase for this view the events of one applied action (the table calls
 * it): each event it may hear becomes one view_say, cards it may not see
 * are never named. */
void view_events(struct view *v, const struct event *ev, int n);
/* Recompute the state and send it; say the prompt when the seat has just
 * come to act. The table calls it after every action. */
void view_refresh(struct view *v);
/* Hear the events of an action without phrasing them (a game replayed in
 * silence): what the query keys remember is kept. */
void view_remember(struct view *v, const struct event *ev, int n);
/* Full or short announcements from now on (enum talk_verbosity); the
 * state is sent again. */
void view_set_verbosity(struct view *v, int verbosity);
/* The same without sending the state (a view not yet sent one). */
void view_verbosity(struct view *v, int verbosity);
/* Say why an action of this seat was refused. */
void view_refusal(struct view *v, const struct refusal *r);
/* The hint key: what the strongest bot would do now for this view's seat,
 * and why, in one sentence of the view's language (said through the sink,
 * kind VIEW_SAY_SYSTEM). Nothing is played. The hint draws from its own
 * generator, derived from the seed and the moves, so the bots' later
 * choices (and a replay of the game) do not change. 0, or -1 when the seat
 * is not to act (and that is said). */
int view_hint(struct view *v);
/* The same in parts, for a search made elsewhere (a server's worker): 1
 * when the view's seat is to act; the hint's generator; say the hint found
 * (a NULL: that there is none now). */
struct rng;
struct bot_reason;
int view_hint_due(const struct view *v);
void view_hint_seed(const struct view *v, struct rng *r);
void view_hint_tell(struct view *v, const struct action *a, const struct bot_reason *why);
/* Name the seats again as the table names them now (table_set_names),
 * in the view's language; the next state's answers use them. */
void view_names(struct view *v);
/* Say a sentence to this view's listener (already in its language). */
void view_tell(struct view *v, int kind, const char *text);
/* 1 when the listener's action a is risky and is confirmed before it is
 * sent (the `confirm` setting allowing): going all-in; giving up a hand
 * with chips put in by choice (a fold, or a pass when staying is offered);
 * a bet of more than half the chips in front of one. The one rule of the
 * terminal, of `tapis join` and of the server's `confirm` fields; vs
 * holds the listener's chips and choices. */
int view_risky(const struct view_state *vs, const struct action *a);
/* 1 when taking choice i of vs, at amount (a range) asks for a yes: the
 * choice's confirm and confirm_from, as the view or a server marked them. */
int view_asks(const struct view_state *vs, int i, int amount);
/* The latest state. */
const struct view_state *view_state(const struct view *v);
/* Set a text of a state (answer, hand_text, prompt) to s, cut at a
 * character's start to VIEW_TEXT_MAX - 1 bytes: its buffer is as long as
 * s. The texts of a state each made "" where they are NULL
 * (view_texts_fill), so that readers of a state never meet a NULL. */
void view_text_set(char **dst, const char *s);
void view_texts_fill(struct view_state *vs);
/* Room for choice[nchoices], zeroed (cap: the room there is, grown a few
 * at a time), NULL when VIEW_MAX_CHOICES are there; nchoices is the
 * caller's to count. */
struct view_choice *view_choice_next(struct view_state *vs, int *cap);
/* Room for n cards in hand (cap: the room there is). */
void view_hand_room(struct view_state *vs, int *cap, int n);
/* The texts, the hand and the choices of a state freed (NULL again). */
void view_state_free(struct view_state *vs);
/* vs->cursor made anew for vs's hand, its playable cards and its choices,
 * by the rules of moves (keymap_moves; a test gives others), the words
 * in l. */
struct i18n_lang;
void view_cursor_make(struct view_state *vs, const struct keymap_move moves[KEYMAP_NMOVES], const struct i18n_lang *l);
/* After a resume or a return to a table: "While you were away:" (when
 * heading), then where the game stands, in the words of the keys C (the cards on the
 * table, or the turned card), T (whose turn, unless it is the player's:
 * the prompt follows) and S (the score). */
void view_catch_up_state(const struct view_state *vs, int heading, struct sbuf *b);
/* The same of the table now (the state worked out, no prompt sent). */
void view_catch_up(struct view *v, struct sbuf *b);
/* The tags of n seats named names[] (names without marks): out[s] the
 * fewest first characters of names[s] (at most VIEW_TAG_CHARS) that no
 * other name begins with, its first a capital. */
void view_tags(const char *const *names, int n, char out[][VIEW_TAG_MAX]);
/* The label of amount a of choice i, or NULL when none is known. */
const char *view_amount_label(const struct view_state *vs, int i, int a);
/* The label of discarding the hand's cards of mask (bit i: hand[i]), or NULL. */
const char *view_discard_label(const struct view_state *vs, int i, unsigned mask);

/* Phrase one event for a listener: the event with the cards talk->me may
 * not see blanked, told by the announcer; view: the state redacted for
 * talk->me. The one filter every listener goes through (the table's views
 * and `tapis replay`); talk remembers what L and N need. */
void view_phrase_event(struct talk *talk, const struct game_talk *gt, const void *view,
                       const struct event *e, struct sbuf *b);

#endif
