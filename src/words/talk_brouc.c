/* SPDX-License-Identifier: GPL-3.0-or-later */
#define I18N_LANG t->lang
/* Le Brouc and L'Homme de Brou in words: combinations, scores after each
 * trick, the win the moment it happens, and the query keys. */
#include <stdio.h>
#include <string.h>

#include "games/brouc.h"
#include "words/announce.h"
#include "i18n/i18n.h"
#include "words/say.h"
#include "words/talk.h"

/* A team in words: "you and Claire", "Anne and Claire". */
#define TEAM_MAX 96

static int my_team(const struct talk *t)
{
	return t->me >= 0 ? brouc_team(t->me) : -1;
}

/* Games (Le Brouc) or parties (L'Homme de Brou) that win the match. */
static int match_target(const struct brouc_state *st)
{
	return st->variant == BROUC_HOMME ? st->parties_target : st->games_target;
}

/* "you and Claire" / "Anne and Claire", capitalised when cap. */
static const char *team_name(const struct talk *t, int team, int cap, char *buf, size_t len)
{
	if (team == my_team(t)) {
		const char *partner = say_name(t, (t->me + 2) % BROUC_PLAYERS);
		snprintf(buf, len, cap ? _("You and %s") : _("you and %s"), partner);
	} else {
		/* TRANSLATORS: a team, two first names. */
		snprintf(buf, len, _("%1$s and %2$s"), say_name(t, team), say_name(t, team + 2));
	}
	return buf;
}

/* "king-queen of hearts", "king-queen-jack of trumps". */
static void combo_name(const struct talk *t, struct sbuf *b, int kind, int suit, int trump)
{
	if (suit == trump)
		sb_puts(b, kind == BROUC_KQJ ? _("king-queen-jack of trumps") : _("king-queen of trumps"));
	else
		sb_printf(b, kind == BROUC_KQJ ? _("king-queen-jack of %s") : _("king-queen of %s"),
		          say_suit(t->lang, suit));
}

/* "you and Claire 12, Bruno and Denis 25" */
static void two_teams(struct sbuf *b, const struct talk *t, int v0, int v1)
{
	char n0[TEAM_MAX], n1[TEAM_MAX];
	int first = my_team(t) == 1 ? 1 : 0;
	int v[2] = { v0, v1 };
	team_name(t, first, 0, n0, sizeof n0);
	team_name(t, 1 - first, 0, n1, sizeof n1);
	if (v[0] >= 0 && v[1] >= 0) {
		/* TRANSLATORS: two teams and their numbers: "you and Claire 12, Bruno and Denis 25". */
		sb_printf(b, _("%1$s %2$d, %3$s %4$d"), n0, v[first], n1, v[1 - first]);
		return;
	}
	/* L'Homme de Brou: a deal total may go below zero, said with a word. */
	char a0[SAY_NUMBER_MAX], a1[SAY_NUMBER_MAX];
	say_number_str(t->lang, v[first], 0, a0, sizeof a0);
	say_number_str(t->lang, v[1 - first], 0, a1, sizeof a1);
	/* TRANSLATORS: two teams and their numbers, one of them negative:
	 * "you and Claire 86, Bruno and Denis minus 17". */
	sb_printf(b, _("%1$s %2$s, %3$s %4$s"), n0, a0, n1, a1);
}

/* "Games won: you and Claire 1, Bruno and Denis 0." (parties in L'Homme de Brou) */
static void wins_line(struct sbuf *b, const struct talk *t, const struct brouc_state *st, int v0, int v1)
{
	struct sbuf l;
	sb_clear(&l);
	two_teams(&l, t, v0, v1);
	if (st->variant == BROUC_HOMME)
		sb_printf(b, _("Parties won: %s."), l.s);
	else
		sb_printf(b, _("Games won: %s."), l.s);
}

/* Score in tenths as said: "30.4" / "30,4". */
static void tenths(const struct talk *t, char *buf, size_t len, int x)
{
	if (x < 0)
		say_number_str(t->lang, x / 10, 0, buf, len);
	else if (x % 10 == 0)
		snprintf(buf, len, "%d", x / 10);
	else
		/* TRANSLATORS: a number with one decimal: "30.4" (French: "30,4"). */
		snprintf(buf, len, _("%1$d.%2$d"), x / 10, x % 10);
}

/* The game by its name, then the partnerships. */
static int say_game_start(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	sb_puts(b, st->variant == BROUC_HOMME ? _("L'Homme de Brou, 4 players.") : _("Le Brouc, 4 players."));
	sb_puts(b, " ");
	if (t->me >= 0) {
		char n[TEAM_MAX];
		team_name(t, 1 - my_team(t), 0, n, sizeof n);
		sb_printf(b, _("You play with %1$s against %2$s."), say_name(t, (t->me + 2) % BROUC_PLAYERS), n);
	} else {
		sb_printf(b, _("%1$s and %2$s play against %3$s and %4$s."), say_name(t, 0), say_name(t, 2),
		          say_name(t, 1), say_name(t, 3));
	}
	return 1;
}

/* The trumps, and who holds the turned card. */
static int say_turnup(const struct talk *t, const struct event *e, struct sbuf *b)
{
	char card[SAY_CARD_MAX];
	say_card_str(t->lang, e->cards[0], SAY_THE, card, sizeof card);
	/* The turned card goes to the dealer (e->seat). */
	if (e->seat == t->me)
		sb_printf(b, _("Trumps: %1$s, turned card %2$s, in your hand."), say_suit(t->lang, card_suit(e->cards[0])),
		          card);
	else
		sb_printf(b, _("Trumps: %1$s, turned card %2$s, held by %3$s."), say_suit(t->lang, card_suit(e->cards[0])),
		          card, say_name(t, e->seat));
	return 1;
}

/* A combination scored in a trick, or declared in hand. */
static int say_declare(const struct talk *t, const struct brouc_state *st, const struct event *e, struct sbuf *b)
{
	int kind = e->code & (BROUC_KQ | BROUC_KQJ);
	int suit = card_suit(e->cards[0]);
	/* Trumps by the value (the view may already hold the next deal). */
	int base = kind == BROUC_KQJ ? 30 : 20;
	if ((e->code & BROUC_IN_TRICK) && st->variant == BROUC_HOMME)
		base *= 2;
	struct sbuf c;
	sb_clear(&c);
	combo_name(t, &c, kind, suit, e->points == 2 * base ? suit : -1);
	if (e->code & BROUC_IN_TRICK) {
		if (e->winner == my_team(t))
			sb_printf(b, _("You and %1$s score %2$s, %3$d."),
			          say_name(t, (t->me + 2) % BROUC_PLAYERS), c.s, e->points);
		else
			sb_printf(b, _("%1$s and %2$s score %3$s, %4$d."), say_name(t, e->winner),
			          say_name(t, e->winner + 2), c.s, e->points);
		if (st->variant == BROUC_HOMME) {
			sb_puts(b, " ");
			if (1 - e->winner == my_team(t))
				sb_printf(b, _("You and %1$s lose %2$d."),
				          say_name(t, (t->me + 2) % BROUC_PLAYERS), e->points);
			else
				sb_printf(b, _("%1$s and %2$s lose %3$d."), say_name(t, 1 - e->winner),
				          say_name(t, 3 - e->winner), e->points);
		}
	} else {
		char pts[SAY_NUMBER_MAX];
		snprintf(pts, sizeof pts, "%d", e->points);
		if (e->seat == t->me)
			sb_printf(b, _("You declare %1$s in hand, %2$s."), c.s, pts);
		else
			sb_printf(b, _("%1$s declares %2$s in hand, %3$s."), say_name(t, e->seat), c.s, pts);
	}
	return 1;
}

/* The points of the deal so far. */
static int say_tally(const struct talk *t, const struct event *e, struct sbuf *b)
{
	sb_puts(b, _("This deal: "));
	two_teams(b, t, e->values[2], e->values[3]);
	sb_puts(b, ".");
	return 1;
}

/* A game won, with the score (the parties in L'Homme de Brou). */
static int say_game_won(const struct talk *t, const struct brouc_state *st, const struct event *e, struct sbuf *b)
{
	int w = e->winner, ours = w == my_team(t);
	const char *p = ours ? say_name(t, (t->me + 2) % BROUC_PLAYERS) : say_name(t, w);
	const char *q = say_name(t, w + 2);
	if (st->variant == BROUC_HOMME) {
		int v = e->value;
		/* The losers' total may be below zero: said as a word. */
		char a[SAY_NUMBER_MAX], o[SAY_NUMBER_MAX];
		say_number_str(t->lang, e->values[4 + w], 0, a, sizeof a);
		say_number_str(t->lang, e->values[5 - w], 0, o, sizeof o);
		if (ours)
			sb_printf(b, P_("You and %1$s win the game, %2$s to %3$s: %4$d partie.",
			                "You and %1$s win the game, %2$s to %3$s: %4$d parties.", v),
			          p, a, o, v);
		else
			sb_printf(b, P_("%1$s and %2$s win the game, %3$s to %4$s: %5$d partie.",
			                "%1$s and %2$s win the game, %3$s to %4$s: %5$d parties.", v),
			          p, q, a, o, v);
	} else {
		char sc[SAY_NUMBER_MAX];
		tenths(t, sc, sizeof sc, 10 * e->values[w] + e->values[2 + w]);
		if (ours)
			sb_printf(b, _("You and %1$s win the game with %2$s."), p, sc);
		else
			sb_printf(b, _("%1$s and %2$s win the game with %3$s."), p, q, sc);
	}
	return 1;
}

/* Every trick to one team. */
static int say_cape(const struct talk *t, const struct brouc_state *st, const struct event *e, struct sbuf *b)
{
	int w = e->winner, ours = w == my_team(t), v = e->value;
	const char *p = ours ? say_name(t, (t->me + 2) % BROUC_PLAYERS) : say_name(t, w);
	const char *q = say_name(t, w + 2);
	if (st->variant == BROUC_HOMME) {
		if (ours)
			sb_printf(b, P_("Cape: you and %1$s take all eight tricks, %2$d more partie.",
			                "Cape: you and %1$s take all eight tricks, %2$d more parties.", v), p, v);
		else
			sb_printf(b, P_("Cape: %1$s and %2$s take all eight tricks, %3$d more partie.",
			                "Cape: %1$s and %2$s take all eight tricks, %3$d more parties.", v),
			          p, q, v);
	} else {
		if (ours)
			sb_printf(b, P_("Cape: you and %1$s take all eight tricks, %2$d more game.",
			                "Cape: you and %1$s take all eight tricks, %2$d more games.", v), p, v);
		else
			sb_printf(b, P_("Cape: %1$s and %2$s take all eight tricks, %3$d more game.",
			                "Cape: %1$s and %2$s take all eight tricks, %3$d more games.", v),
			          p, q, v);
	}
	return 1;
}

/* The moments of Le Brouc: the tally of a deal, a game won, a cape. */
static int say_phase(const struct talk *t, const struct brouc_state *st, const struct event *e, struct sbuf *b)
{
	switch (e->note) {
	case EV_NOTE_TALLY:
		return say_tally(t, e, b);
	case EV_NOTE_GAME_WON:
		return say_game_won(t, st, e, b);
	case EV_NOTE_CAPE:
		return say_cape(t, st, e, b);
	default:
		return -1;
	}
}

/* The end of a deal: the scores, or a new game after a game won. */
static int say_hand_end(const struct talk *t, const struct brouc_state *st, const struct event *e, struct sbuf *b)
{
	if (e->winner >= 0) {
		/* The game was won: the win said it all. */
		if (st->over)
			return -1;
		sb_puts(b, _("End of the deal. A new game starts, scores back to 0."));
		if (match_target(st) > 1) {
			sb_puts(b, " ");
			wins_line(b, t, st, st->wins[0], st->wins[1]);
		}
		return 1;
	}
	sb_puts(b, _("End of the deal. Scores: "));
	two_teams(b, t, e->values[0], e->values[1]);
	sb_puts(b, ".");
	return 1;
}

/* The end of the match, or of the deals it was given. */
static int say_game_end(const struct talk *t, const struct brouc_state *st, const struct event *e, struct sbuf *b)
{
	int w = e->winner, target = match_target(st);
	int reached = e->values[0] >= target || e->values[1] >= target;
	if (reached && w >= 0 && target == 1 && st->score[0] == 0 && st->score[1] == 0) {
		/* The game won was just said (scores go back to 0 after a
		 * game won, never after a deal alone); it was the whole match. */
		sb_puts(b, _("Game over."));
		return 1;
	}
	if (reached && w >= 0) {
		int ours = w == my_team(t), v = e->values[w], o = e->values[1 - w];
		const char *p = ours ? say_name(t, (t->me + 2) % BROUC_PLAYERS) : say_name(t, w);
		const char *q = say_name(t, w + 2);
		if (st->variant == BROUC_HOMME) {
			if (ours)
				sb_printf(b, P_("Match over: you and %1$s win, %2$d partie to %3$d.",
				                "Match over: you and %1$s win, %2$d parties to %3$d.", v), p, v, o);
			else
				sb_printf(b, P_("Match over: %1$s and %2$s win, %3$d partie to %4$d.",
				                "Match over: %1$s and %2$s win, %3$d parties to %4$d.", v), p, q, v, o);
		} else {
			if (ours)
				sb_printf(b, P_("Match over: you and %1$s win, %2$d game to %3$d.",
				                "Match over: you and %1$s win, %2$d games to %3$d.", v), p, v, o);
			else
				sb_printf(b, P_("Match over: %1$s and %2$s win, %3$d game to %4$d.",
				                "Match over: %1$s and %2$s win, %3$d games to %4$d.", v), p, q, v, o);
		}
		return 1;
	}
	/* The deals ran out before the match was won. */
	sb_puts(b, _("Game over."));
	sb_puts(b, " ");
	if (e->values[0] == 0 && e->values[1] == 0) {
		/* Nobody won anything yet: the score decides (just said). */
		sb_puts(b, st->variant == BROUC_HOMME ? _("No partie was won.") : _("No game was won."));
		sb_puts(b, " ");
		if (w < 0)
			sb_puts(b, _("The scores are equal: a tie."));
		else if (w == my_team(t))
			sb_printf(b, _("You and %s are ahead on the score."), say_name(t, (t->me + 2) % BROUC_PLAYERS));
		else
			sb_printf(b, _("%1$s and %2$s are ahead on the score."), say_name(t, w), say_name(t, w + 2));
		return 1;
	}
	if (w < 0)
		sb_puts(b, _("A tie."));
	else if (w == my_team(t))
		sb_printf(b, _("You and %s win."), say_name(t, (t->me + 2) % BROUC_PLAYERS));
	else
		sb_printf(b, _("%1$s and %2$s win."), say_name(t, w), say_name(t, w + 2));
	sb_puts(b, " ");
	wins_line(b, t, st, e->values[0], e->values[1]);
	return 1;
}

static int brouc_event(const struct talk *t, const void *view, const struct event *e, struct sbuf *b)
{
	const struct brouc_state *st = view;
	switch (e->type) {
	case EV_GAME_START:
		return say_game_start(t, st, b);
	case EV_TURNUP:
		return say_turnup(t, e, b);
	case EV_DECLARE:
		return say_declare(t, st, e, b);
	case EV_PHASE:
		return say_phase(t, st, e, b);
	case EV_HAND_END:
		return say_hand_end(t, st, e, b);
	case EV_GAME_END:
		return say_game_end(t, st, e, b);
	default:
		return 0;
	}
}

/* Has the dealer played the turned card yet? */
static int turnup_played(const struct brouc_state *st)
{
	for (int k = 0; k < st->tricks_done && k < BROUC_TRICKS; k++)
		for (int i = 0; i < 4; i++)
			if (st->played[k][i] == st->turnup)
				return 1;
	for (int i = 0; i < st->ntrick; i++)
		if (st->trick[i] == st->turnup)
			return 1;
	return 0;
}

static void say_trick(const struct talk *t, const struct brouc_state *st, int capital, struct sbuf *b)
{
	char card[SAY_CARD_MAX];
	for (int i = 0; i < st->ntrick; i++) {
		int s = (st->leader + i) % BROUC_PLAYERS;
		if (i)
			sb_puts(b, _("; "));
		sb_printf(b, _("%1$s: %2$s"), i || !capital ? say_name(t, s) : say_Name(t, s),
		          say_card_str(t->lang, st->trick[i], SAY_BARE, card, sizeof card));
	}
	sb_puts(b, ".");
}

static void say_turn(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	if (st->over || st->turn < 0) {
		sb_puts(b, _("The game is over."));
		return;
	}
	int s = st->turn;
	if (s == t->me)
		sb_puts(b, _("Your turn."));
	else if (t->me >= 0 && s == (t->me + 2) % BROUC_PLAYERS)
		sb_printf(b, _("%s to play, your partner."), say_name(t, s));
	else if (t->me >= 0)
		sb_printf(b, _("%s to play, an opponent."), say_name(t, s));
	else
		sb_printf(b, _("%s to play."), say_name(t, s));
}

/* What the seat to act must do: follow, or the undertrumping limit. */
static void say_duty(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	(void)t;
	if (st->ntrick == 0) {
		sb_puts(b, _("Lead any card."));
		return;
	}
	int led = card_suit(st->trick[0]);
	int s = st->turn;
	int has = 0;
	for (int i = 0; i < st->nhand[s]; i++)
		if (st->hand[s][i] && card_suit(st->hand[s][i]) == led)
			has = 1;
	if (has) {
		sb_printf(b, _("Follow %s."), say_suit(t->lang, led));
		return;
	}
	/* The undertrumping limit, only when it forbids a card of this hand
	 * (a hand of nothing but lower trumps may play them). */
	card_t hi = CARD_NONE;
	for (int i = 0; i < st->nhand[s]; i++) {
		struct refusal r;
		if (st->hand[s][i] && brouc_check(st, st->hand[s][i], &r) == BROUC_R_UNDERTRUMP)
			hi = r.card;
	}
	if (hi != CARD_NONE) {
		char card[SAY_CARD_MAX];
		sb_printf(b, _("No %1$s: any card, but no trump below %2$s."), say_suit(t->lang, led),
		          say_card_str(t->lang, hi, SAY_THE, card, sizeof card));
	} else {
		sb_printf(b, _("No %s: any card."), say_suit(t->lang, led));
	}
}

/* C: the cards of the trick and who holds it. */
static void table_trick(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	say_trick(t, st, 1, b);
	int best = (st->leader + brouc_trick_best(st)) % BROUC_PLAYERS, pts = 0;
	for (int i = 0; i < st->ntrick; i++)
		pts += brouc_points(st->trick[i]);
	sb_puts(b, " ");
	if (best == t->me)
		sb_printf(b, P_("You hold the trick, %d point.", "You hold the trick, %d points.", pts), pts);
	else if (t->me >= 0 && best == (t->me + 2) % BROUC_PLAYERS)
		sb_printf(b, P_("%1$s, your partner, holds the trick, %2$d point.",
		                "%1$s, your partner, holds the trick, %2$d points.", pts),
		          say_Name(t, best), pts);
	else if (t->me >= 0)
		sb_printf(b, P_("%1$s, an opponent, holds the trick, %2$d point.",
		                "%1$s, an opponent, holds the trick, %2$d points.", pts),
		          say_Name(t, best), pts);
	else
		sb_printf(b, P_("%1$s holds the trick, %2$d point.", "%1$s holds the trick, %2$d points.", pts),
		          say_Name(t, best), pts);
}

/* C between tricks: the last trick and who took it. */
static void table_last_trick(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	int k = st->tricks_done - 1;
	sb_puts(b, _("No cards on the table. Last trick: "));
	struct brouc_state last;
	memcpy(&last, st, sizeof last);
	last.ntrick = 4;
	memcpy(last.trick, st->played[k], 4);
	last.leader = st->played_leader[k];
	say_trick(t, &last, 0, b);   /* after "Last trick: " */
	sb_puts(b, " ");
	if (st->played_winner[k] == t->me)
		sb_puts(b, _("You took it."));
	else
		sb_printf(b, _("%s took it."), say_Name(t, st->played_winner[k]));
}

/* C before the first trick: who leads. */
static void table_empty(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	sb_puts(b, _("No cards on the table."));
	if (!st->over && st->turn >= 0) {
		sb_puts(b, " ");
		if (st->turn == t->me)
			sb_puts(b, _("You lead."));
		else
			sb_printf(b, _("%s to lead."), say_Name(t, st->turn));
	}
}

/* C: the table. */
static void query_table(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	if (st->ntrick)
		table_trick(t, st, b);
	else if (st->tricks_done)
		table_last_trick(t, st, b);
	else
		table_empty(t, st, b);
}

/* F: the suit led, the trumps and the turned card. */
static void query_suit(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	char card[SAY_CARD_MAX];
	if (st->ntrick)
		sb_printf(b, _("Led: %s. "), say_suit(t->lang, card_suit(st->trick[0])));
	else
		sb_puts(b, _("No card led. "));
	say_card_str(t->lang, st->turnup, SAY_THE, card, sizeof card);
	if (!turnup_played(st) && st->dealer == t->me)
		sb_printf(b, _("Trumps: %1$s, turned card %2$s, in your hand."), say_suit(t->lang, st->trump), card);
	else if (!turnup_played(st))
		/* TRANSLATORS: %3$s is the dealer, who holds the turned card. */
		sb_printf(b, _("Trumps: %1$s, turned card %2$s, held by %3$s."), say_suit(t->lang, st->trump), card,
		          say_name(t, st->dealer));
	else
		sb_printf(b, _("Trumps: %1$s, turned card %2$s."), say_suit(t->lang, st->trump), card);
}

/* R: the rules of the variant in play. */
static void query_rules(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	sb_printf(b, _("Trumps: %s. "), say_suit(t->lang, st->trump));
	if (st->variant == BROUC_HOMME) {
		sb_puts(b, _("King-queen 20, king-queen-jack 30, doubled in trumps: 40 and 60, in hand "
		             "when your team takes its first trick. In a trick they count double for "
		             "the team that takes it, 40 to 120, and the same is taken off the other "
		             "team. Follow suit, otherwise any card. Totals rounded to tens; "
		             "first team to 301 wins 1, 2 or 4 parties; a cape 3 more."));
		sb_printf(b, " ");
		sb_printf(b, P_("Match to %d partie.", "Match to %d parties.", st->parties_target),
		          st->parties_target);
	} else {
		sb_puts(b, _("King-queen 20, king-queen-jack 30, doubled in trumps: 40 and 60; in hand "
		             "when your team takes its first trick, or in any trick taken. Follow suit, "
		             "otherwise any card, but after a trump on a plain lead no lower trump, unless "
		             "it makes king-queen of trumps or you hold nothing else. Totals divided by 10; "
		             "more than 30 wins the game at once; a cape wins 2 more games."));
		sb_printf(b, " ");
		sb_printf(b, P_("Match to %d game.", "Match to %d games.", st->games_target), st->games_target);
	}
}

/* S: the score, the deal so far, what each team still needs, the games won. */
static void query_scores(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	struct sbuf l;
	sb_clear(&l);
	two_teams(&l, t, st->score[0], st->score[1]);
	/* TRANSLATORS: the game's score of both teams. */
	sb_printf(b, _("Score: %s."), l.s);
	sb_puts(b, " ");
	sb_puts(b, _("This deal: "));
	two_teams(b, t, st->dealpts[0], st->dealpts[1]);
	sb_puts(b, ". ");
	if (st->variant == BROUC_MODERN && !st->over) {
		/* The game is won the moment score + deal / 10 goes above 30:
		 * the deal points each team still needs, once within reach. */
		int need[2];
		for (int k = 0; k < 2; k++) {
			need[k] = 301 - 10 * st->score[k] - st->dealpts[k];
			if (need[k] < 0)
				need[k] = 0;
		}
		if (need[0] <= 150 || need[1] <= 150) {
			sb_clear(&l);
			two_teams(&l, t, need[0], need[1]);
			/* TRANSLATORS: deal points each team still needs to win the game. */
			sb_printf(b, _("Still needed to win: %s."), l.s);
			sb_puts(b, " ");
		}
	}
	wins_line(b, t, st, st->wins[0], st->wins[1]);
}

/* T: whose turn, and what the rules ask of the player whose turn it is. */
static void query_turn(const struct talk *t, const struct brouc_state *st, struct sbuf *b)
{
	say_turn(t, st, b);
	if (!st->over && st->turn >= 0 && st->turn == t->me) {
		sb_puts(b, " ");
		say_duty(t, st, b);
	}
}

/* 1 to 9: the cards of the trick by their place. */
static void query_card(const struct talk *t, const struct brouc_state *st, int key, struct sbuf *b)
{
	char card[SAY_CARD_MAX];
	int i = key - '1';
	if (st->ntrick == 0) {
		sb_printf(b, _("No card %d: the table is empty."), i + 1);
	} else if (i >= st->ntrick) {
		sb_printf(b, P_("No card %1$d on the table: %2$d card so far.",
		                "No card %1$d on the table: %2$d cards so far.", st->ntrick),
		          i + 1, st->ntrick);
	} else {
		int s = (st->leader + i) % BROUC_PLAYERS;
		sb_printf(b, _("%1$d: %2$s, %3$s."), i + 1, say_Name(t, s),
		          say_card_str(t->lang, st->trick[i], SAY_BARE, card, sizeof card));
	}
}

static void brouc_query(const struct talk *t, const void *view, int key, struct sbuf *b)
{
	const struct brouc_state *st = view;
	switch (key) {
	case TALK_COUNT:
		/* The view hides the others' cards, not how many they hold. */
		ann_cards_held(t, st->nhand, BROUC_PLAYERS, b);
		return;
	case TALK_TABLE:
		query_table(t, st, b);
		break;
	case TALK_SUIT:
		query_suit(t, st, b);
		break;
	case TALK_RULES:
		query_rules(t, st, b);
		break;
	case TALK_SCORES:
		query_scores(t, st, b);
		break;
	case TALK_TURN:
		query_turn(t, st, b);
		break;
	default:
		if (key >= '1' && key <= '9')
			query_card(t, st, key, b);
		break;
	}
}

static void brouc_refusal_text(const struct talk *t, const void *view, const struct refusal *r,
                               struct sbuf *b)
{
	(void)t;
	(void)view;
	char card[SAY_CARD_MAX];
	switch (r->code) {
	case BROUC_R_TURN:
		sb_puts(b, _("It is not your turn."));
		break;
	case BROUC_R_ACTION:
		sb_puts(b, _("Play a card."));
		break;
	case BROUC_R_NOT_IN_HAND:
		sb_printf(b, _("You do not hold %s."), say_card_str(t->lang, r->card, SAY_THE, card, sizeof card));
		break;
	case BROUC_R_FOLLOW:
		sb_printf(b, _("You must follow %s."), say_suit(t->lang, r->suit));
		break;
	case BROUC_R_UNDERTRUMP:
		sb_printf(b, _("No undertrumping: play above %s, or another suit."),
		          say_card_str(t->lang, r->card, SAY_THE, card, sizeof card));
		break;
	default:
		break;
	}
}

static void brouc_prompt(const struct talk *t, const void *view, struct sbuf *b)
{
	const struct brouc_state *st = view;
	sb_puts(b, _("Your turn."));
	sb_puts(b, " ");
	say_duty(t, st, b);
}

const struct game_talk brouc_talk = {
	.game = "brouc",
	.event = brouc_event,
	.query = brouc_query,
	.refusal = brouc_refusal_text,
	.action = NULL,
	.prompt = brouc_prompt,
};
