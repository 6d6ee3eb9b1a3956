/* SPDX-License-Identifier: GPL-3.0-or-later */
#define I18N_LANG t->lang
#include "words/talk_hint.h"

#include <string.h>

#include "games/vying.h"
#include "i18n/i18n.h"
#include "words/say.h"

/* The action as the action menu says it, capitalized: "Call, 4 chips",
 * "Call, for nothing", "Raise, 8 chips", "Stay"; a card to play or a
 * discard as an order: "Play the king of spades". */
static void order(const struct talk *t, const struct game_talk *gt, const struct action *a,
                  const struct bot_reason *why, struct sbuf *b)
{
	struct sbuf x, m;
	sb_clear(&x);
	sb_clear(&m);
	if (gt && gt->order && gt->order(t, a, why, &m)) {
		sb_capitalize(&m);
		sb_puts(b, m.s);
		return;
	}
	switch (a->kind) {
	case ACT_PLAY:
		say_card(t->lang, &x, a->cards[0], SAY_THE);
		sb_printf(b, _("Play %s"), x.s);
		return;
	case ACT_DISCARD:
		if (a->ncards == 0) {
			sb_puts(b, _("Keep all your cards"));
			return;
		}
		say_cards(t->lang, &x, a->cards, a->ncards, SAY_THE);
		sb_printf(b, _("Discard %s"), x.s);
		return;
	/* Every move as an order, the French in the imperative (« Couchez-
	 * vous », « Passez », « Tenez pour 4 jetons », « Renviez de 8 jetons »)
	 * or a noun (« Contrecarre pour 10 jetons »), not the menu's
	 * infinitives. */
	case ACT_STAY:
		sb_puts(&m, C_("hint", "stay"));
		break;
	case ACT_PASS:
		sb_puts(&m, why->code == BOT_WHY_CHECK ? C_("hint", "stand") : C_("hint", "pass"));
		break;
	case ACT_TAKE:
		say_chips(t->lang, &x, a->amount);
		sb_printf(&m, C_("hint", "add a waiting cave, %s"), x.s);
		break;
	case ACT_DECLINE:
		if (why->code == BOT_WHY_NO_CAVE)
			sb_puts(&m, C_("hint", "no cave"));
		else if (why->straddle >= VY_SURCARRE)
			sb_puts(&m, C_("hint", "no buy-back"));
		else
			sb_puts(&m, C_("hint", "no straddle"));
		break;
	case ACT_STRADDLE:
		say_chips(t->lang, &x, a->amount);
		sb_printf(&m, C_("hint", "straddle for %s"), x.s);
		break;
	case ACT_BUYBACK:
		say_chips(t->lang, &x, a->amount);
		sb_printf(&m, C_("hint", "%1$s for %2$s"), C_("bet", "buy back"), x.s);
		break;
	case ACT_OPEN:
		say_chips(t->lang, &x, a->amount);
		sb_printf(&m, C_("hint", "open, %s"), x.s);
		break;
	case ACT_CALL:
		if (a->amount <= 0) {
			sb_puts(&m, C_("hint", "call, for nothing"));
		} else {
			say_chips(t->lang, &x, a->amount);
			sb_printf(&m, C_("hint", "call, %s"), x.s);
		}
		break;
	case ACT_RAISE:
		say_chips(t->lang, &x, a->amount);
		sb_printf(&m, C_("hint", "raise, %s"), x.s);
		break;
	case ACT_FOLD:
		sb_puts(&m, C_("hint", "fold"));
		break;
	case ACT_ALLIN:
		say_chips(t->lang, &x, a->amount);
		sb_printf(&m, C_("hint", "all in, %s"), x.s);
		break;
	default:
		sb_puts(b, _("Do as the bot would"));
		return;
	}
	sb_capitalize(&m);
	sb_puts(b, m.s);
}

/* The reason as a clause: "you take the trick". */
static void because(const struct talk *t, const struct bot_reason *why, struct sbuf *b)
{
	struct sbuf x;
	sb_clear(&x);
	int code = why->code;
	int needs_price = code == BOT_WHY_CALL || code == BOT_WHY_FOLD || code == BOT_WHY_FOLD_BEHIND ||
	                  code == BOT_WHY_FOLD_DEAL || code == BOT_WHY_CALL_LOW;
	int needs_chance = needs_price || code == BOT_WHY_BET || code == BOT_WHY_BLUFF || code == BOT_WHY_CHECK ||
	                   code == BOT_WHY_WEAK;
	int needs_card = code == BOT_WHY_BEATS || code == BOT_WHY_UNDER || code == BOT_WHY_TRUMPS;
	if ((needs_chance && why->chance < 0) || (needs_price && why->price < 0) ||
	    (needs_card && why->card == CARD_NONE))
		code = BOT_WHY_BEST;
	if ((code == BOT_WHY_TAKE_TRUMP || code == BOT_WHY_LEAVE_TRUMP) && why->card == CARD_NONE)
		code = BOT_WHY_BEST;
	if ((needs_card || code == BOT_WHY_TAKE_TRUMP || code == BOT_WHY_LEAVE_TRUMP) && code != BOT_WHY_BEST)
		say_card(t->lang, &x, why->card, SAY_THE);
	struct sbuf cards, pot;
	sb_clear(&cards);
	sb_clear(&pot);
	if (why->ncards > 0)
		say_cards(t->lang, &cards, why->cards, why->ncards, SAY_THE);
	say_chips(t->lang, &pot, why->amount);
	switch (code) {
	case BOT_WHY_ONLY:
		sb_puts(b, _("it is your only choice"));
		break;
	case BOT_WHY_MASTER:
		sb_puts(b, _("no higher card of that suit is still out"));
		break;
	case BOT_WHY_MASTER_RUFF:
		sb_puts(b, _("no higher card of that suit is still out, though a trump could take it"));
		break;
	case BOT_WHY_DRAW_OUT:
		sb_puts(b, _("higher cards of that suit are still out, and this one may draw them"));
		break;
	case BOT_WHY_DRAW_TRUMPS:
		sb_puts(b, _("higher trumps are still out, and this one may draw them"));
		break;
	case BOT_WHY_LEAD_TAKES:
		sb_puts(b, _("no higher card of that suit is out: you take this trick"));
		break;
	case BOT_WHY_TAKE_TRUMP:
		sb_printf(b, _("%s is a trump, and your hand is stronger with it"), x.s);
		break;
	case BOT_WHY_LEAVE_TRUMP:
		sb_printf(b, _("%s adds less to your hand than the card you would discard for it"), x.s);
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
	case BOT_WHY_TRUMPS:
		sb_printf(b, _("you trump %s, the best card so far"), x.s);
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
	case BOT_WHY_FOLD_BEHIND:
		sb_printf(b,
		          P_("your %1$d%% chance of winning covers the price, %2$d%% of the pot, but %3$d player still to "
		             "speak may raise",
		             "your %1$d%% chance of winning covers the price, %2$d%% of the pot, but %3$d players still to "
		             "speak may raise",
		             why->behind),
		          why->chance, why->price, why->behind);
		break;
	case BOT_WHY_FOLD_DEAL:
		sb_printf(b,
		          _("your %1$d%% chance of winning covers the price, %2$d%% of the pot, but not what the rest of "
		            "the deal may cost"),
		          why->chance, why->price);
		break;
	case BOT_WHY_CALL_LOW:
		sb_printf(b,
		          _("your %1$d%% chance of winning is no more than the price, %2$d%% of the pot, but the others "
		            "may pay more later"),
		          why->chance, why->price);
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
		if (why->ncards > 0)
			sb_printf(b, P_("%s can take a trick", "%s can take tricks", why->ncards), cards.s);
		else
			sb_printf(b, _("the pot, %s, is worth the risk"), pot.s);
		break;
	case BOT_WHY_PASS:
		if (why->ncards > 0)
			sb_printf(b, _("with only %1$s, going bourré would cost you the pot, %2$s"), cards.s, pot.s);
		else
			sb_printf(b, _("with no trump and no ace, going bourré would cost you the pot, %s"), pot.s);
		break;
	case BOT_WHY_DRAW:
		if (why->ncards > 0)
			sb_printf(b, _("you keep %s"), cards.s);
		else
			sb_puts(b, _("none of your cards is worth keeping"));
		break;
	default:
		sb_puts(b, _("it is what the strongest bot would do"));
		break;
	}
}

void talk_hint(const struct talk *t, const struct game_talk *gt, const struct action *a,
               const struct bot_reason *why, struct sbuf *b)
{
	struct sbuf what, reason;
	sb_clear(&what);
	sb_clear(&reason);
	order(t, gt, a, why, &what);
	because(t, why, &reason);
	/* TRANSLATORS: the hint: an order, then why ("Play the king of spades: you take the trick.") */
	sb_printf(b, _("%1$s: %2$s."), what.s, reason.s);
}
