/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The hint key: at every decision of bot-played games of every game, the
 * strongest bot's hint is a legal action with a reason, and the sentence is
 * there in English and in French. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/registry.h"
#include "bots/bot.h"
#include "games/bourre.h"
#include "games/vying.h"
#include "i18n/i18n.h"
#include "words/talk_hint.h"
#include "testutil.h"

struct tally {
	long decisions;
	long by_code[64];
};

/* The game's talk, whose orders the hint uses. */
static const struct game_talk *talk_of(const struct talk *t)
{
	const struct registry_game *e = registry_find(t->game->name);
	ck_assert_ptr_nonnull(e);
	return e->talk;
}

static void set_lang(const char *l)
{
	char err[256];
	ck_assert_msg(i18n_set_lang(l, err, sizeof err) == 0, "%s", err);
}

/* Bourré: a plain-suit card led while a trump is out, not in a completed
 * trick nor in the leader's hand (a player out of the suit may trump it). */
static int ruff_possible(const void *vst, int seat, card_t c)
{
	const struct bourre_state *st = vst;
	if (card_suit(c) == st->trump)
		return 0;
	for (int r = RANK_TWO; r <= RANK_ACE; r++) {
		card_t y = card_make(r, st->trump);
		if (card_find(st->hand[seat], st->nhand[seat], y) < 0 && card_find(st->gone, st->ngone, y) < 0 &&
		    !(st->turnup_place == BR_TU_TABLE && st->turnup == y))
			return 1;
	}
	return 0;
}

/* A reason states only the comparison its own figures, as said (whole
 * percents), bear out: no "43% ... less than the price, 35%". */
static void figures_bear_out(const char *game, const struct bot_reason *why)
{
	switch (why->code) {
	case BOT_WHY_FOLD:
		ck_assert_msg(why->chance < why->price, "%s: fold, %d%% said less than %d%%", game, why->chance, why->price);
		break;
	case BOT_WHY_CALL:
		ck_assert_msg(why->chance > why->price, "%s: call, %d%% said more than %d%%", game, why->chance, why->price);
		break;
	case BOT_WHY_CALL_LOW:
		ck_assert_msg(why->chance <= why->price, "%s: call, %d%% said no more than %d%%", game, why->chance,
		              why->price);
		break;
	case BOT_WHY_FOLD_BEHIND:
		ck_assert_msg(why->behind > 0, "%s: a fold said by nobody behind", game);
		/* fall through */
	case BOT_WHY_FOLD_DEAL:
		ck_assert_msg(why->chance >= why->price && why->price >= 0, "%s: fold, %d%% said to cover %d%%", game,
		              why->chance, why->price);
		break;
	default:
		break;
	}
}

/* Play `games` games of `hands` deals with bots at level 2; at every
 * decision ask for the hint (small budget: quick and deterministic). */
static void walk(const char *game, int players, const char *const *rules, int games, uint64_t seed,
                 struct tally *ty)
{
	const struct game_ops *g = registry_ops(game);
	ck_assert_ptr_nonnull(g);
	void *st = malloc(g->state_size);
	for (int k = 0; k < games; k++) {
		struct rules r;
		char err[256];
		rules_init(&r, g->rules, g->nrules);
		for (int i = 0; rules && rules[i]; i++)
			ck_assert_msg(rules_set_arg(&r, rules[i], err, sizeof err) == 0, "%s", err);
		struct game_setup setup = { players, -1, rng_derive(seed, (uint64_t)k), &r, NULL };
		memset(st, 0, g->state_size);
		ck_assert_msg(g->init(st, &setup, err, sizeof err) == 0, "%s", err);
		g->start(st, NULL);
		struct rng rng;
		rng_seed(&rng, rng_derive(seed, 1000 + (uint64_t)k));
		int seat;
		while ((seat = g->to_act(st)) >= 0) {
			struct action hint;
			struct bot_reason why;
			bot_hint(g, tu_bot(g), st, 2, &rng, &hint, &why);
			struct action legal[GAME_MAX_LEGAL];
			int n = g->legal(st, legal, GAME_MAX_LEGAL);
			char txt[ACT_STR_MAX];
			ck_assert_msg(act_in_list(&hint, legal, n), "%s: the hint %s is not legal", game,
			              act_format(&hint, txt, sizeof txt));
			ck_assert(why.code >= 0 && why.code < 64);
			/* No reason a player cannot check: never "simulated". */
			ck_assert_int_ne(why.code, BOT_WHY_SEARCH);
			if (why.code == BOT_WHY_MASTER && !strcmp(game, "bourre"))
				ck_assert_msg(!ruff_possible(st, seat, hint.cards[0]), "bourre: a lead said safe from a ruff");
			figures_bear_out(game, &why);
			ty->by_code[why.code]++;
			ty->decisions++;
			struct talk t = { .game = g, .me = seat, .players = players };
			for (int li = 0; li < 2; li++) {
				set_lang(li ? "fr" : "en");
				struct sbuf b;
				sb_clear(&b);
				talk_hint(&t, talk_of(&t), &hint, &why, &b);
				ck_assert_msg(b.len > 10, "%s: an empty hint", game);
				ck_assert_msg(strstr(b.s, li ? " : " : ": ") != NULL, "%s: no reason in '%s'", game, b.s);
				ck_assert_msg(b.s[b.len - 1] == '.', "%s: '%s'", game, b.s);
				ck_assert_msg(strstr(b.s, "simul") == NULL && strstr(b.s, "Stay in for") == NULL &&
				              strstr(b.s, "Tenez sans") == NULL, "%s: '%s'", game, b.s);
				/* The French moves as orders, never the menu's infinitives. */
				static const char *const infinitives[] = { "Tenir", "Ouvrir", "Renvier", "Relancer", "Se coucher",
				                                           "Passer", "Rester", "Prendre", "Laisser", "Va-tout",
				                                           "Ajouter", "Pas de " };
				for (size_t w = 0; li && w < sizeof infinitives / sizeof *infinitives; w++)
					ck_assert_msg(strncmp(b.s, infinitives[w], strlen(infinitives[w])) != 0, "%s: '%s'", game, b.s);
				if (ty->decisions <= 3)
					printf("%s hint (%s): %s\n", game, li ? "fr" : "en", b.s);
			}
			struct action a;
			bot_choose(g, tu_bot(g), st, 2, &rng, &a);
			struct refusal refused;
			ck_assert(g->apply(st, &a, NULL, &refused) == 0);
		}
	}
	free(st);
	set_lang("en");
}

static long count(const struct tally *ty, const int *codes)
{
	long n = 0;
	for (int i = 0; codes[i] >= 0; i++)
		n += ty->by_code[codes[i]];
	return n;
}

static const int TRICK_CODES[] = { BOT_WHY_MASTER, BOT_WHY_HIGHER_OUT, BOT_WHY_TAKES,    BOT_WHY_BEATS,
                                   BOT_WHY_UNDER,  BOT_WHY_KEEP,       BOT_WHY_SHED,     BOT_WHY_LEAST,
                                   BOT_WHY_DRAW_OUT, BOT_WHY_LEAD_TAKES, BOT_WHY_TRUMPS, BOT_WHY_MASTER_RUFF,
                                   BOT_WHY_DRAW_TRUMPS, -1 };
static const int BET_CODES[] = { BOT_WHY_BET, BOT_WHY_CALL, BOT_WHY_FOLD, BOT_WHY_CHECK, BOT_WHY_WEAK, -1 };
static const int BOURRE_CODES[] = { BOT_WHY_STAY,  BOT_WHY_PASS, BOT_WHY_DRAW,        BOT_WHY_MASTER,
                                    BOT_WHY_TAKES, BOT_WHY_BEATS, BOT_WHY_KEEP,       BOT_WHY_LEAST,
                                    BOT_WHY_UNDER, BOT_WHY_MASTER_RUFF, BOT_WHY_DRAW_OUT, BOT_WHY_TRUMPS,
                                    BOT_WHY_DRAW_TRUMPS, -1 };

/* Most hints say more than "the bot would do it". */
static void check_reasons(const char *game, const struct tally *ty, const int *codes)
{
	long specific = count(ty, codes);
	printf("%s: %ld decisions, %ld with a game reason, %ld searched, %ld only choice, %ld plain\n", game,
	       ty->decisions, specific, ty->by_code[BOT_WHY_SEARCH], ty->by_code[BOT_WHY_ONLY],
	       ty->by_code[BOT_WHY_BEST]);
	ck_assert_int_gt(ty->decisions, 20);
	ck_assert_int_gt(specific * 3, ty->decisions);
	ck_assert_int_lt(ty->by_code[BOT_WHY_BEST] * 10, ty->decisions);
}

START_TEST(hint_bouillotte)
{
	struct tally ty = { 0 };
	walk("bouillotte", 4, (const char *const[]){ "hands=8", NULL }, 2, 11, &ty);
	check_reasons("bouillotte", &ty, BET_CODES);
}
END_TEST

START_TEST(hint_brelan)
{
	struct tally ty = { 0 };
	walk("brelan", 4, (const char *const[]){ "hands=8", "carre=yes", NULL }, 2, 12, &ty);
	walk("brelan", 3, (const char *const[]){ "hands=4", "recave=between", "cave=20", NULL }, 2, 13, &ty);
	check_reasons("brelan", &ty, BET_CODES);
}
END_TEST

START_TEST(hint_bourre)
{
	struct tally ty = { 0 };
	walk("bourre", 5, (const char *const[]){ "hands=3", NULL }, 2, 14, &ty);
	walk("bourre", 3, (const char *const[]){ "hands=3", "trump=dealer", NULL }, 2, 17, &ty);
	check_reasons("bourre", &ty, BOURRE_CODES);
	/* Every decision of the walk has a reason of its own. */
	ck_assert_int_eq(ty.by_code[BOT_WHY_BEST], 0);
	ck_assert_int_gt(ty.by_code[BOT_WHY_STAY] + ty.by_code[BOT_WHY_PASS], 0);
	ck_assert_int_gt(count(&ty, TRICK_CODES), 0);
}
END_TEST

START_TEST(hint_brouc)
{
	struct tally ty = { 0 };
	walk("brouc", 4, (const char *const[]){ "hands=2", NULL }, 1, 15, &ty);
	check_reasons("brouc", &ty, TRICK_CODES);
}
END_TEST

START_TEST(hint_bouillabaisse)
{
	struct tally ty = { 0 };
	walk("bouillabaisse", 4, (const char *const[]){ "hands=6", NULL }, 1, 16, &ty);
	check_reasons("bouillabaisse", &ty, TRICK_CODES);
}
END_TEST

/* Over 10,000 hinted decisions in every game, no reason says a
 * comparison its figures contradict (walk checks each). */
START_TEST(reasons_bear_out)
{
	static const struct {
		const char *game;
		int players;
		const char *rule;
	} games[] = { { "bouillotte", 4, "hands=8" }, { "brelan", 4, "hands=8" }, { "bourre", 5, "hands=3" },
		      { "brouc", 4, "hands=2" },      { "bouillabaisse", 4, "hands=6" } };
	struct tally ty = { 0 };
	const char *rules[] = { games[_i].rule, NULL };
	for (uint64_t seed = 100; ty.decisions < 10000; seed++)
		walk(games[_i].game, games[_i].players, rules, 1, seed, &ty);
	printf("%s: %ld decisions, reasons checked; folds and calls: %ld %ld %ld %ld %ld\n", games[_i].game,
	       ty.decisions, ty.by_code[BOT_WHY_FOLD], ty.by_code[BOT_WHY_FOLD_BEHIND], ty.by_code[BOT_WHY_FOLD_DEAL],
	       ty.by_code[BOT_WHY_CALL], ty.by_code[BOT_WHY_CALL_LOW]);
	ck_assert_int_ge(ty.decisions, 10000);
}
END_TEST

/* A trick reason names a card of the trick, never a hidden one. */
START_TEST(trick_reasons)
{
	struct bot_reason why;
	struct bot_trick t = { 2, 4, card_make(RANK_QUEEN, 0), 0, 1 };
	bot_trick_reason(&t, card_make(RANK_KING, 0), 1, 1, 0, &why);
	ck_assert_int_eq(why.code, BOT_WHY_BEATS);
	ck_assert_int_eq(why.card, card_make(RANK_QUEEN, 0));
	/* beaten by a card of another suit: a trump */
	bot_trick_reason(&t, card_make(RANK_TWO, 1), 1, 1, 1, &why);
	ck_assert_int_eq(why.code, BOT_WHY_TRUMPS);
	ck_assert_int_eq(why.card, card_make(RANK_QUEEN, 0));
	t.ntrick = 3;
	bot_trick_reason(&t, card_make(RANK_KING, 0), 1, 1, 0, &why);
	ck_assert_int_eq(why.code, BOT_WHY_TAKES);
	t.avoid = 1;
	bot_trick_reason(&t, card_make(RANK_JACK, 0), 0, 3, 1, &why);
	ck_assert_int_eq(why.code, BOT_WHY_UNDER);
	t.holds_led = 0;
	bot_trick_reason(&t, card_make(RANK_ACE, 1), 0, 0, 0, &why);
	ck_assert_int_eq(why.code, BOT_WHY_SHED);
	struct bot_trick lead = { 0, 4, CARD_NONE, 0, 0 };
	bot_trick_reason(&lead, card_make(RANK_ACE, 2), 0, 0, 0, &why);
	ck_assert_int_eq(why.code, BOT_WHY_MASTER);
	lead.avoid = 1;
	bot_trick_reason(&lead, card_make(RANK_TWO, 2), 0, 5, 1, &why);
	ck_assert_int_eq(why.code, BOT_WHY_HIGHER_OUT);
}
END_TEST

/* The sentence, word for word, in both languages. */
START_TEST(sentences)
{
	const struct game_ops *g = registry_ops("brouc");
	struct talk t = { .game = g, .me = 0, .players = 4 };
	struct action a = act_card(ACT_PLAY, card_make(RANK_KING, SUIT_SPADES));
	struct bot_reason why = { .code = BOT_WHY_TAKES, .card = CARD_NONE, .chance = -1, .price = -1 };
	struct sbuf b;
	set_lang("en");
	sb_clear(&b);
	talk_hint(&t, talk_of(&t), &a, &why, &b);
	ck_assert_str_eq(b.s, "Play the king of spades: you take the trick.");
	set_lang("fr");
	sb_clear(&b);
	talk_hint(&t, talk_of(&t), &a, &why, &b);
	ck_assert_str_eq(b.s, "Jouez le roi de pique : vous remportez le pli.");
	const struct game_ops *bo = registry_ops("bouillotte");
	struct talk tb = { .game = bo, .me = 1, .players = 4 };
	struct action call = act_simple(ACT_CALL);
	call.amount = call.amount_max = 4;
	struct bot_reason c = { .code = BOT_WHY_CALL, .card = CARD_NONE, .chance = 41, .price = 25 };
	sb_clear(&b);
	talk_hint(&tb, talk_of(&tb), &call, &c, &b);
	ck_assert_str_eq(b.s, "Tenez pour 4 jetons : vous avez 41 % de chances de gagner, et tenir ne coûte que 25 % du pot.");
	set_lang("en");
	sb_clear(&b);
	talk_hint(&tb, talk_of(&tb), &call, &c, &b);
	ck_assert_str_eq(b.s, "Call, 4 chips: your 41% chance of winning is more than the price, 25% of the pot.");
}
END_TEST

/* Every order in the action menu's own words, with a reason the player
 * can check: the call for nothing, the raise as the menu says it, Bourré's
 * stay and pass with the cards and the pot, the discard with the cards
 * kept, a lead that a trump could take. */
START_TEST(menu_words_and_reasons)
{
	static const char *const want[][9] = {
		{ "Call, for nothing: it costs nothing, and you have a 30% chance of winning.",
		  "Raise, 8 chips: with a 62% chance of winning, the hand is worth a bet.",
		  "Stay: the king of spades and the ace of hearts can take tricks.",
		  "Pass: with only the two of spades, going bourré would cost you the pot, 14 chips.",
		  "Discard the two of clubs: you keep the ace of spades.",
		  "Play the ace of hearts: no higher card of that suit is still out, though a trump could take it.",
		  "Raise, 8 chips: with a 62% chance of winning, the hand is worth a bet.",
		  "Contrecarre, 8 chips: for one pot, you will speak last.",
		  "No straddle: a blind stake is not worth it." },
		{ "Tenez, sans rien ajouter : cela ne coûte rien, et vous avez 30 % de chances de gagner.",
		  "Renviez de 8 jetons : avec 62 % de chances de gagner, votre main mérite qu'on mise.",
		  "Restez : le roi de pique et l'as de cœur peuvent faire des plis.",
		  "Passez : avec seulement le deux de pique, vous risquez d'être bourré, et il vous en coûterait le pot (14 jetons).",
		  "Écartez le deux de trèfle : vous gardez l'as de pique.",
		  "Jouez l'as de cœur : il ne reste aucune carte plus forte dans cette couleur, mais un atout pourrait la prendre.",
		  "Renviez de 8 jetons : avec 62 % de chances de gagner, votre main mérite qu'on mise.",
		  "Contrecarre pour 8 jetons : pour le prix du pot, vous parlerez en dernier.", "Ne vous carrez pas : une mise à l'aveugle ne vaut pas le coup ici." },
	};
	set_lang(_i ? "fr" : "en");
	struct talk bo = { .game = registry_ops("bouillotte"), .me = 0, .players = 4 };
	struct talk br = { .game = registry_ops("brelan"), .me = 0, .players = 4 };
	struct talk bu = { .game = registry_ops("bourre"), .me = 0, .players = 4 };
	struct sbuf b;
	struct action call = act_simple(ACT_CALL);
	struct bot_reason check = { .code = BOT_WHY_CHECK, .card = CARD_NONE, .chance = 30, .price = -1 };
	sb_clear(&b);
	talk_hint(&bo, talk_of(&bo), &call, &check, &b);
	ck_assert_str_eq(b.s, want[_i][0]);
	struct action raise = act_amount(ACT_RAISE, 8);
	struct bot_reason bet = { .code = BOT_WHY_BET, .card = CARD_NONE, .chance = 62, .price = -1 };
	sb_clear(&b);
	talk_hint(&bo, talk_of(&bo), &raise, &bet, &b);
	ck_assert_str_eq(b.s, want[_i][1]);
	sb_clear(&b);
	talk_hint(&br, talk_of(&br), &raise, &bet, &b);
	ck_assert_str_eq(b.s, want[_i][6]);
	struct bot_reason stay = { .code = BOT_WHY_STAY, .card = CARD_NONE, .chance = -1, .price = -1, .ncards = 2,
	                           .cards = { card_make(RANK_KING, SUIT_SPADES), card_make(RANK_ACE, SUIT_HEARTS) },
	                           .amount = 14 };
	struct action a = act_simple(ACT_STAY);
	sb_clear(&b);
	talk_hint(&bu, talk_of(&bu), &a, &stay, &b);
	ck_assert_str_eq(b.s, want[_i][2]);
	struct bot_reason pass = { .code = BOT_WHY_PASS, .card = CARD_NONE, .chance = -1, .price = -1, .ncards = 1,
	                           .cards = { card_make(RANK_TWO, SUIT_SPADES) }, .amount = 14 };
	a = act_simple(ACT_PASS);
	sb_clear(&b);
	talk_hint(&bu, talk_of(&bu), &a, &pass, &b);
	ck_assert_str_eq(b.s, want[_i][3]);
	struct bot_reason draw = { .code = BOT_WHY_DRAW, .card = CARD_NONE, .chance = -1, .price = -1, .ncards = 1,
	                           .cards = { card_make(RANK_ACE, SUIT_SPADES) } };
	a = act_simple(ACT_DISCARD);
	a.cards[a.ncards++] = card_make(RANK_TWO, SUIT_CLUBS);
	sb_clear(&b);
	talk_hint(&bu, talk_of(&bu), &a, &draw, &b);
	ck_assert_str_eq(b.s, want[_i][4]);
	struct bot_reason ruff = { .code = BOT_WHY_MASTER_RUFF, .card = card_make(RANK_ACE, SUIT_HEARTS), .chance = -1,
	                           .price = -1 };
	a = act_card(ACT_PLAY, card_make(RANK_ACE, SUIT_HEARTS));
	sb_clear(&b);
	talk_hint(&bu, talk_of(&bu), &a, &ruff, &b);
	ck_assert_str_eq(b.s, want[_i][5]);
	/* The carre's levels as the menu names them. */
	struct action carre = act_amount(ACT_STRADDLE, 8);
	struct bot_reason contre = { .code = BOT_WHY_STRADDLE, .card = CARD_NONE, .chance = -1, .price = -1,
	                             .straddle = VY_CONTRECARRE };
	sb_clear(&b);
	talk_hint(&br, talk_of(&br), &carre, &contre, &b);
	ck_assert_str_eq(b.s, want[_i][7]);
	struct action no = act_simple(ACT_DECLINE);
	struct bot_reason blind = { .code = BOT_WHY_NO_STRADDLE, .card = CARD_NONE, .chance = -1, .price = -1,
	                            .straddle = VY_CARRE_1 };
	sb_clear(&b);
	talk_hint(&bo, talk_of(&bo), &no, &blind, &b);
	ck_assert_str_eq(b.s, want[_i][8]);
	/* Le Brelan's own words for its carres come from its talk: a carre
	 * declined, a buy-back (a surcarre), where Bouillotte buys back. */
	static const char *const carres[][3] = {
		{ "No carre: a blind stake is not worth it.", "Surcarre, 8 chips: for one pot, you will speak last.",
		  "Buy back, 8 chips: for one pot, you will speak last." },
		{ "Ne vous carrez pas : une mise à l'aveugle ne vaut pas le coup ici.",
		  "Surcarre pour 8 jetons : pour le prix du pot, vous parlerez en dernier.",
		  "Surcarre pour 8 jetons : pour le prix du pot, vous parlerez en dernier." },
	};
	sb_clear(&b);
	talk_hint(&br, talk_of(&br), &no, &blind, &b);
	ck_assert_str_eq(b.s, carres[_i][0]);
	struct action back = act_amount(ACT_BUYBACK, 8);
	struct bot_reason sur = contre;
	sur.straddle = VY_SURCARRE;
	sb_clear(&b);
	talk_hint(&br, talk_of(&br), &back, &sur, &b);
	ck_assert_str_eq(b.s, carres[_i][1]);
	struct bot_reason plain = contre;
	plain.straddle = 0;
	sb_clear(&b);
	talk_hint(&bo, talk_of(&bo), &back, &plain, &b);
	ck_assert_str_eq(b.s, carres[_i][2]);
	/* A trump led to draw higher trumps: said of trumps, not of "that suit". */
	static const char *const trumps[] = {
		"Play the ten of diamonds: higher trumps are still out, and this one may draw them.",
		"Jouez le dix de carreau : il reste des atouts plus forts, et celui-ci peut les faire tomber.",
	};
	struct bot_reason draw_trumps = { .code = BOT_WHY_DRAW_TRUMPS, .card = card_make(RANK_TEN, SUIT_DIAMONDS),
	                                  .chance = -1, .price = -1 };
	a = act_card(ACT_PLAY, card_make(RANK_TEN, SUIT_DIAMONDS));
	sb_clear(&b);
	talk_hint(&bu, talk_of(&bu), &a, &draw_trumps, &b);
	ck_assert_str_eq(b.s, trumps[_i]);
	/* The game's own words come from its talk: Bourré's dealer takes the
	 * turned card where Bouillotte's player adds a cave, and a pass is
	 * never "stand" in Bourré. */
	static const char *const own[][3] = { { "Take the turned card: ", "Pass: ", "Stand: " },
		                              { "Prenez la carte retournée : ", "Passez : ", "Restez : " } };
	struct bot_reason turned = { .code = BOT_WHY_TAKE_TRUMP, .card = card_make(RANK_ACE, SUIT_HEARTS), .chance = -1,
	                             .price = -1 };
	a = act_simple(ACT_TAKE);
	sb_clear(&b);
	talk_hint(&bu, talk_of(&bu), &a, &turned, &b);
	ck_assert_msg(strncmp(b.s, own[_i][0], strlen(own[_i][0])) == 0, "%s", b.s);
	a = act_simple(ACT_PASS);
	sb_clear(&b);
	talk_hint(&bu, talk_of(&bu), &a, &check, &b);
	ck_assert_msg(strncmp(b.s, own[_i][1], strlen(own[_i][1])) == 0, "%s", b.s);
	sb_clear(&b);
	talk_hint(&bo, talk_of(&bo), &a, &check, &b);
	ck_assert_msg(strncmp(b.s, own[_i][2], strlen(own[_i][2])) == 0, "%s", b.s);
	a = act_amount(ACT_TAKE, 20);
	sb_clear(&b);
	talk_hint(&bo, talk_of(&bo), &a, &check, &b);
	ck_assert_msg(strstr(b.s, "cave") != NULL, "%s", b.s);
	set_lang("en");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("hint");
	TCase *tc = tcase_create("hint");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, trick_reasons);
	tcase_add_test(tc, sentences);
	tcase_add_loop_test(tc, menu_words_and_reasons, 0, 2);
	tcase_add_loop_test(tc, reasons_bear_out, 0, 5);
	tcase_add_test(tc, hint_bouillotte);
	tcase_add_test(tc, hint_brelan);
	tcase_add_test(tc, hint_bourre);
	tcase_add_test(tc, hint_brouc);
	tcase_add_test(tc, hint_bouillabaisse);
	suite_add_tcase(s, tc);
	return s;
}

int main(void) { return tu_run(suite()); }
