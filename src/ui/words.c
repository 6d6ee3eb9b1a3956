/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui/words.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "app/registry.h"
#include "core/game.h"
#include "core/rules.h"
#include "i18n/i18n.h"
#include "app/keymap.h"
#include "ui/rulewords.h"

/* The page's own words: a name the script uses, and its msgid. */
static const struct {
	const char *name, *msgid;
} page_words[] = {
	{ "login", N_("Log in") },
	{ "name", N_("Name") },
	{ "password", N_("Password") },
	{ "password_help", N_("Optional. With a password the name becomes an account kept by the server.") },
	{ "language", N_("Language") },
	{ "lobby", N_("Lobby") },
	{ "tables", N_("Tables") },
	{ "no_tables", N_("No table yet.") },
	{ "find_table", N_("Find a table (game or name)") },
	{ "tables_prev", N_("Previous tables") },
	{ "tables_next", N_("More tables") },
	{ "tables_page", N_("Page %1$d of %2$d, %3$d tables.") },
	{ "online", N_("Who is here") },
	{ "guest", N_("guest") },
	{ "sit", N_("Sit down") },
	{ "watch", N_("Watch") },
	{ "create", N_("Create a table") },
	{ "game", N_("Which game?") },
	{ "players", N_("How many players?") },
	{ "options", N_("Options") },
	{ "seats", N_("Seats") },
	{ "seat_n", N_("Seat %d") },
	{ "seat_open", N_("Open to a player") },
	{ "bot_1", N_("Bot, level 1") },
	{ "bot_2", N_("Bot, level 2") },
	{ "bot_3", N_("Bot, level 3") },
	{ "who", N_("Who may join?") },
	{ "public", N_("Public table") },
	{ "private", N_("Private table, with a password") },
	{ "table_password", N_("Password of the table") },
	{ "table_over", N_("Table %1$ld: %2$s, %3$d players, over.") },
	{ "private_mark", N_("Private.") },
	{ "seat_player", N_("Seat %1$d: %2$s.") },
	{ "seat_free", N_("Seat %d: open.") },
	{ "seat_bot", N_("Seat %1$d: a bot of level %2$d.") },
	{ "seat_bot_named", N_("Seat %1$d: %2$s, bot, level %3$d.") },
	{ "table_n", N_("Table %ld") },
	{ "start", N_("Start the game") },
	{ "seat_kind", N_("Who plays seat %d") },
	{ "set_seat", N_("Change seat %d") },
	{ "kick", N_("Remove %s from the table") },
	{ "stand", N_("Stand up") },
	{ "leave", N_("Leave the table") },
	{ "rematch", N_("Rematch") },
	{ "invite", N_("Invite someone") },
	{ "invite_name", N_("Name of the person to invite") },
	{ "mute_person", N_("Mute %s") },
	{ "mod_mute", N_("Moderator: mute %s") },
	{ "mod_kick", N_("Moderator: remove %s from the server") },
	{ "mod_ban", N_("Moderator: ban %s") },
	{ "mod_reason", N_("The reason, said to them (may be empty)") },
	{ "the_table", N_("The table. F1 says its keys.") },
	{ "announcements", N_("Announcements") },
	{ "choices", N_("Your choices") },
	{ "chat", N_("Chat") },
	{ "chat_line", N_("Message") },
	{ "send", N_("Send") },
	{ "lobby_chat", N_("Chat in the lobby") },
	{ "keys", N_("Keys") },
	{ "keys_intro", N_("The table takes the keys of the terminal game once it has the focus. The lobby, the forms and the chat are ordinary page elements.") },
	{ "keys_browser", N_("Where the browser keeps a key: Tab leaves the table for the chat; Escape closes the action menu.") },
	{ "keys_azerty", KEYMAP_AZERTY },
	{ "keys_again", N_("F1 again for all keys.") },
	{ "sound", N_("Sound and speech") },
	{ "voice", N_("Built-in voice, for playing without a screen reader") },
	{ "cues", N_("Sound cues") },
	{ "rate", N_("Speech rate") },
	{ "speech_volume", N_("Speech volume") },
	{ "cue_volume", N_("Sound volume") },
	{ "large", N_("Large print") },
	{ "short", N_("Short announcements (V)") },
	{ "lobby_talk", N_("Spoken in the lobby") },
	{ "lobby_all", N_("Everything") },
	{ "lobby_friends", N_("Friends and invitations") },
	{ "lobby_none", N_("Nothing") },
	{ "saved_tables", N_("Saved tables") },
	{ "resume", N_("Resume") },
	{ "saved_line", N_("Table %1$ld: %2$s, with %3$s.") },
	{ "your_turn", N_("Your turn.") },
	{ "not_your_turn", N_("It is not your turn.") },
	{ "no_cards", N_("You hold no cards.") },
	{ "choose_card", N_("Choose a card with the arrows, then press Enter.") },
	{ "menu_closed", N_("Menu closed.") },
	{ "of", N_(", %1$d of %2$d.") },
	{ "to_discard", N_("to discard") },
	{ "to_keep", N_("to keep") },
	{ "no_discard", N_("No discard now.") },
	{ "quit", N_("Quit? Press Y to confirm, any other key to go on.") },
	{ "quit_cancelled", N_("Quit cancelled.") },
	{ "lost", N_("Connection lost. Trying again.") },
	{ "back", N_("Connected again.") },
	{ "key_value", N_("%1$s: %2$s. ") },
	{ "not_playable", N_("not playable now") },
	{ "first_choice", N_("First choice.") },
	{ "last_choice", N_("Last choice.") },
	{ "type_amount", N_("Type an amount from %1$d to %2$d.") },
	{ "too_many", N_("%1$d is too many: from %2$d to %3$d.") },
	{ "confirm_q", N_("%s? Press Y to confirm, any other key to go back.") },
	{ "not_done", N_("Not done.") },
	{ "marked_list", N_("Marked to discard: %s.") },
	{ "no_messages", N_("No messages yet.") },
	{ "history_start", N_("Start of history.") },
	{ "history_end", N_("End of history.") },
	{ "chat_from", N_("%1$s: %2$s") },
	{ "yes", N_("Yes") },
	{ "no", N_("No") },
	{ "hand", N_("Your hand") },
	{ "playable", N_("playable") },
	{ "queries", N_("Ask the table") },
	{ "key_button", N_("%1$s: %2$s") },
	{ "amount", N_("Amount") },
	{ "table_gone", N_("Table %ld is gone.") },
	{ "sr_help", N_("With a screen reader") },
	{ "sr_orca", N_("Orca: the table takes its keys by itself (focus mode). If a key is read as a heading or a table, press Orca+A to give the keys to the page. Orca+A again, or Escape twice, goes back to reading the page.") },
	{ "sr_nvda", N_("NVDA: the table switches to focus mode by itself; if the keys do not answer, press NVDA+Space. NVDA+Space again goes back to browse mode.") },
	{ "sr_jaws", N_("JAWS: press Enter on the table to give it the keys (forms mode); if they do not answer, Insert+Z turns the virtual cursor off. Numpad Plus, or Insert+Z again, comes back.") },
	{ "sr_voiceover", N_("VoiceOver on a Mac: interact with the table (VO+Shift+Down) and the keys are its own; VO+Shift+Up leaves it. On an iPhone, swipe to your hand and the buttons, double-tap to play.") },
	{ "sr_talkback", N_("TalkBack: swipe right through your hand, the choices and \"Table now\", double-tap to play; explore \"Table now\" by touch for the turn, the cards on the table and the scores.") },
	{ "sr_back", N_("To come back to the table from anywhere: Escape in a chat line, or the heading Table (H with NVDA or JAWS in browse mode). A reload brings you back to your seat.") },
	{ "sr_touch", N_("VoiceOver and TalkBack: swipe to walk your hand, card by card, then double-tap to play; the choices, the amount and the questions to the table are buttons below it.") },
	{ "to_hand", N_("Your hand") },
	{ "to_table", N_("The table's keys") },
	{ "table_now", N_("Table now") },
	{ "history_prev", N_("Previous message") },
	{ "history_next", N_("Next message") },
	{ "history_last", N_("Last message") },
	{ "vibrate", N_("Vibrate on your turn (phones)") },
	{ "title_turn", N_("Your turn: %s") },
	{ "not_begun", N_("The game has not begun.") },
	{ "saved_alone", N_("Table %1$ld: %2$s, alone.") },
	{ "kick_q", N_("Remove %s from the table? Y to confirm.") },
	{ "sr_echo", N_("Turn off typed-character echo in your screen reader if every key of the table is spoken twice.") },
};

/* Words with a number: the form for one (NAME_1) and for many (NAME_n);
 * the page chooses by the language's rule (French: 0 and 1 take the
 * singular). The msgids are those that ui/play and ui/join say with P_()
 * (marked there for the catalogues). */
static const struct {
	const char *name, *one, *many;
} plural_words[] = {
	{ "n_discard", "%d card to discard.", "%d cards to discard." },
	{ "table_waiting", "Table %1$ld: %2$s, %3$d players, waiting, %4$d open seat.",
	  "Table %1$ld: %2$s, %3$d players, waiting, %4$d open seats." },
	{ "table_playing", "Table %1$ld: %2$s, %3$d players, playing, %4$d open seat.",
	  "Table %1$ld: %2$s, %3$d players, playing, %4$d open seats." },
};

static json_t *rule_json(const struct game_ops *g, int i)
{
	const struct rule_def *d = &g->rules[i];
	struct rules r;
	rules_init(&r, g->rules, g->nrules);
	char buf[96];
	json_t *o = json_pack("{s:s, s:s, s:s}", "key", d->key, "label", rulewords_name(d), "default",
	                      rules_value_str(&r, i, buf, sizeof buf));
	if (!o)
		return NULL;
	if (d->help)
		json_object_set_new(o, "help", json_string(_(d->help)));
	int values[64 + 3];
	int n = rulewords_values(d, values, (int)(sizeof values / sizeof values[0]));
	json_t *list = json_array();
	/* A number: its range; the words that stand for special values are
	 * listed as values. A short range is listed whole. */
	int whole = d->type == RULE_INT && (long)d->max - d->min < 20;
	if (d->type == RULE_INT) {
		json_object_set_new(o, "min", json_integer(d->min));
		json_object_set_new(o, "max", json_integer(d->max));
		if (d->none_word && d->min > 0)
			values[n++] = RULE_NONE;
		if (whole)
			for (int v = d->min; v <= d->max; v++)
				values[n++] = v;
	}
	for (int k = 0; k < n; k++) {
		r.value[i] = values[k];
		char vb[96], lb[96];
		const char *word = rules_value_str(&r, i, vb, sizeof vb);
		const char *label = rulewords_label(&r, i, lb, sizeof lb);
		json_array_append_new(list, json_pack("{s:s, s:s}", "value", word, "label", label));
	}
	json_object_set_new(o, "values", list);
	json_object_set_new(o, "any", json_boolean(d->type == RULE_INT && !whole));
	return o;
}

static json_t *games_json(void)
{
	json_t *a = json_array();
	for (int i = 0; registry_games[i].ops; i++) {
		const struct game_ops *g = registry_games[i].ops;
		json_t *rules = json_array();
		for (int k = 0; k < g->nrules; k++)
			json_array_append_new(rules, rule_json(g, k));
		json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:i, s:i, s:b, s:o}", "name", g->name, "title",
		                                   _(g->title), "min", g->min_players, "max", g->max_players,
		                                   "default", g->default_players, "clockwise", g->clockwise,
		                                   "rules", rules));
	}
	return a;
}

/* The keys of the page: those of the terminal's keymap but the ones only a
 * terminal has (the chat line on Tab, the menu on F2, the braille
 * display's hold), each as the page
 * says it (Q leaves the table here). A query key (and H, the hint, F1) has
 * `query`, the key the page's toolbar sends. */
static json_t *page_keys(void)
{
	json_t *keys = json_array();
	for (int i = 0; keymap[i].keys; i++) {
		if (keymap[i].when & (KEYS_IF_NET | KEYS_IF_BRAILLE))
			continue;
		json_t *k = json_pack("{s:s, s:s, s:s, s:i}", "keys", _(keymap[i].keys), "spoken",
		                      _(keymap[i].spoken ? keymap[i].spoken : keymap[i].keys), "what",
		                      _(keymap_what(&keymap[i], KEYS_IF_PAGE)), "when", keymap[i].when);
		if (keymap_query(&keymap[i]))
			json_object_set_new(k, "query", json_string(keymap[i].keys));
		json_array_append_new(keys, k);
	}
	return keys;
}

char *words_json(const char *lang)
{
	char saved[8], err[256];
	snprintf(saved, sizeof saved, "%s", i18n_lang());
	if (!lang || strcmp(lang, "fr") != 0)
		lang = "en";
	i18n_set_lang(lang, err, sizeof err);
	json_t *words = json_object();
	for (size_t i = 0; i < sizeof page_words / sizeof page_words[0]; i++)
		json_object_set_new(words, page_words[i].name, json_string(_(page_words[i].msgid)));
	for (size_t i = 0; i < sizeof plural_words / sizeof plural_words[0]; i++) {
		char name[48];
		snprintf(name, sizeof name, "%s_1", plural_words[i].name);
		json_object_set_new(words, name, json_string(P_(plural_words[i].one, plural_words[i].many, 1)));
		snprintf(name, sizeof name, "%s_n", plural_words[i].name);
		json_object_set_new(words, name, json_string(P_(plural_words[i].one, plural_words[i].many, 5)));
	}
	json_t *keys = page_keys();
	json_t *o = json_pack("{s:s, s:i, s:o, s:o, s:o}", "lang", lang, "version", 1, "words", words, "keys", keys,
	                      "games", games_json());
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (strcmp(saved, i18n_lang()) != 0)
		i18n_set_lang(saved, err, sizeof err);
	return text;
}
