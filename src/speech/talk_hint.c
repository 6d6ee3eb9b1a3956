/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "speech/talk_hint.h"

#include <string.h>

#include "i18n/i18n.h"
#include "speech/say.h"

/* The action as an order: "Play the king of spades", "Raise: put in 8 chips". */
static void order(const struct talk *t, const struct action *a, const struct bot_reason *why, struct sbuf *b)
{
	int brelan = t->game && !strcmp(t->game->name, "brelan");
	int bourre = t->game && !strcmp(t->game->name, "bourre");
	struct sbuf x;
	sb_clear(&x);
	switch (a->kind) {
	case ACT_PLAY:
		say_card(&x, a->cards[0], SAY_THE);
		sb_printf(b, _("Play %s"), x.s);
		return;
	case ACT_DISCARD:
		if (a->ncards == 0) {
			sb_puts(b, _("Keep all your cards"));
			return;
		}
		say_cards(&x, a->cards, a->ncards, SAY_THE);
		sb_printf(b, _("Discard %s"), x.s);
		return;
	case ACT_STAY:
		sb_puts(b, _("Stay in"));
		return;
	case ACT_PASS:
		sb_puts(b, why->code == BOT_WHY_CHECK ? _("Stand") : _("Pass"));
		return;
	case ACT_TAKE:
		sb_puts(b, bourre ? _("Take the turned card") : _("Add a cave"));
		return;
	case ACT_LEAVE:
		sb_puts(b, _("Leave the turned card"));
		return;
	case ACT_DECLINE:
		sb_puts(b, why->code == BOT_WHY_NO_CAVE ? _("Add no cave") : _("Decline"));
		return;
	case ACT_STRADDLE:
		say_chips(&x, a->amount);
		sb_printf(b, brelan ? _("Make the carre for %s") : _("Straddle for %s"), x.s);
		return;
	case ACT_BUYBACK:
		say_chips(&x, a->amount);
		sb_printf(b, _("Buy back for %s"), x.s);
		return;
	case ACT_OPEN:
		say_chips(&x, a->amount);
		sb_printf(b, _("Open for %s"), x.s);
		return;
	case ACT_CALL:
		if (a->amount <= 0) {
			sb_puts(b, _("Stay in for nothing"));
			return;
		}
		say_chips(&x, a->amount);
		sb_printf(b, _("Call for %s"), x.s);
		return;
	case ACT_RAISE:
		say_chips(&x, a->amount);
		sb_printf(b, brelan ? _("Raise the stake: put in %s") : _("Raise: put in %s"), x.s);
		return;
	case ACT_FOLD:
		sb_puts(b, _("Fold"));
		return;
	case ACT_ALLIN:
		say_chips(&x, a->amount);
		sb_printf(b, _("Go all in with %s"), x.s);
		return;
	default:
		sb_puts(b, _("Do as the bot would"));
		return;
	}
}

/* The reason as a clause: "you take the trick". */
static void because(const struct bot_reason *why, struct sbuf *b)
{
	struct sbuf x;
	sb_clear(&x);
	int code = why->code;
	int needs_chance = code == BOT_WHY_BET || code == BOT_WHY_BLUFF || code == BOT_WHY_CALL ||
	                   code == BOT_WHY_FOLD || code == BOT_WHY_CHECK || code == BOT_WHY_WEAK;
	int needs_price = code == BOT_WHY_CALL || code == BOT_WHY_FOLD;
	int needs_card = code == BOT_WHY_BEATS || code == BOT_WHY_UNDER;
	if ((needs_chance && why->chance < 0) || (needs_price && why->price < 0) ||
	    (needs_card && why->card == CARD_NONE))
		code = BOT_WHY_BEST;
	if (needs_card && code != BOT_WHY_BEST)
		say_card(&x, why->card, SAY_THE);
	switch (code) {
	case BOT_WHY_ONLY:
		sb_puts(b, _("it is your only choice"));
		break;
	case BOT_WHY_SEARCH:
		sb_puts(b, _("it does best when the rest of the deal is simulated"));
		break;
	case BOT_WHY_MASTER:
		sb_puts(b, _("no higher card of that suit is still out"));
		break;
	case BOT_WHY_HIGHER_OUT:
		sb_puts(b, _("higher cards of that suit are still out, so another player should take the trick"));
		break;
	case BOT_WHY_TAKES:
		sb_puts(b, _("you take the trick"));
		break;
	case BOT_WHY_BEATS:
		sb_printf(b, _("you beat %s, the best card so far"), x.s);
		break;
	case BOT_WHY_UNDER:
		sb_printf(b, _("you stay under %s"), x.s);
		break;
	case BOT_WHY_KEEP:
		sb_puts(b, _("you keep your better cards for later"));
		break;
	case BOT_WHY_SHED:
		sb_puts(b, _("you cannot follow, and this card could cost you points later"));
		break;
	case BOT_WHY_LEAST:
		sb_puts(b, _("you cannot win the trick, so you give your least useful card"));
		break;
	case BOT_WHY_BET:
		sb_printf(b, _("with a %d%% chance of winning, the hand is worth a bet"), why->chance);
		break;
	case BOT_WHY_BLUFF:
		sb_printf(b, _("the hand is weak, a %d%% chance, but a bet may make the others fold"), why->chance);
		break;
	case BOT_WHY_CALL:
		sb_printf(b, _("your %1$d%% chance of winning is more than the price, %2$d%% of the pot"), why->chance,
		          why->price);
		break;
	case BOT_WHY_FOLD:
		sb_printf(b, _("your %1$d%% chance of winning is less than the price, %2$d%% of the pot"), why->chance,
		          why->price);
		break;
	case BOT_WHY_CHECK:
		sb_printf(b, _("it costs nothing, and you have a %d%% chance of winning"), why->chance);
		break;
	case BOT_WHY_WEAK:
		sb_printf(b, _("your chance of winning is only %d%%"), why->chance);
		break;
	case BOT_WHY_STRADDLE:
		sb_puts(b, _("for one pot, you will speak last"));
		break;
	case BOT_WHY_NO_STRADDLE:
		sb_puts(b, _("a blind stake is not worth it"));
		break;
	case BOT_WHY_CAVE:
		sb_puts(b, _("your chips are running low"));
		break;
	case BOT_WHY_NO_CAVE:
		sb_puts(b, _("you have enough chips in front of you"));
		break;
	case BOT_WHY_STAY:
		sb_puts(b, _("simulated deals favour staying in"));
		break;
	case BOT_WHY_PASS:
		sb_puts(b, _("simulated deals show that staying in would cost you chips"));
		break;
	case BOT_WHY_DRAW:
		sb_puts(b, _("of the discards tried in simulated deals, this one does best"));
		break;
	default:
		sb_puts(b, _("it is what the strongest bot would do"));
		break;
	}
}

void talk_hint(const struct talk *t, const struct action *a, const struct bot_reason *why, struct sbuf *b)
{
	struct sbuf what, reason;
	sb_clear(&what);
	sb_clear(&reason);
	order(t, a, why, &what);
	because(why, &reason);
	/* TRANSLATORS: the hint: an order, then why ("Play the king of spades: you take the trick.") */
	sb_printf(b, _("%1$s: %2$s."), what.s, reason.s);
}
