/* tapis: the command line (CLI.md), the main menu and the game loop. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/bench.h"
#include "app/bench_net.h"
#include "app/cmd_serve.h"
#include "ui/join.h"
#include "app/replay.h"
#include "app/session.h"
#include "app/table.h"
#include "bots/bot.h"
#include "core/deckfile.h"
#include "core/game.h"
#include "core/paths.h"
#include "speech/announce.h"
#include "speech/i18n.h"
#include "speech/speech.h"
#include "ui/keymap.h"
#include "ui/menu.h"
#include "ui/play.h"
#include "ui/term.h"

enum { EXIT_DONE = 0, EXIT_INTERNAL = 1, EXIT_USAGE = 2, EXIT_SCRIPT = 3 };

struct cli {
	const char *lang;
	const char *speech;      /* backend */
	int text, no_speech, no_sound;
	int players;
	int seed_given;
	uint64_t seed;
	int dealer;
	const char *seats;
	const char *deck, *actions, *log;
	const char *rule_args[64];
	int nrules;
	int hands;
};

/* The usage, in the language of the settings (or --lang, or the
 * environment's). What scripts read stays as it is: "Games:", the games'
 * names, "Rules of GAME (N players):", the options and the rule keys. */
static void usage(FILE *f)
{
	static const char *const head[] = {
		N_("Usage:"),
		N_("  tapis [OPTIONS]             the spoken main menu (options of play apply)"),
		N_("  tapis play GAME [OPTIONS]   start GAME at once"),
		N_("  tapis rules GAME            print (and, without --text, speak) the rules"),
		N_("  tapis keys [GAME]           print the keyboard shortcuts"),
		N_("  tapis bench [--json]        the performance benchmark"),
		N_("  tapis replay LOG [--text] [--lang en|fr]  check (and tell) a hand history"),
		N_("  tapis serve [OPTIONS]       host tables for players over the network"),
		N_("  tapis join URL [OPTIONS]    sit at a table of a tapis server, same keys as play"),
		N_("  tapis bench --net [URL] [--clients N] [--tables M] [--deals K] [--json]"),
		"  tapis --help | --version",
	};
	static const char *const options[] = {
		N_("Options of play:"),
		N_("  --players N         number of players"),
		N_("  --lang en|fr        language of speech and text"),
		N_("  --seed N            seed of the random generator"),
		N_("  --dealer S          first dealer's seat"),
		N_("  --seats LIST        human or bot[:LEVEL] per seat, e.g. human,bot,bot,bot"),
		N_("  --deck FILE         stacked packs"),
		N_("  --actions FILE      scripted actions"),
		N_("  --rule KEY=VALUE    a rule option (repeatable)"),
		N_("  --hands N           stop after N deals (rounds)"),
		N_("  --log FILE          hand history as JSON lines ('-': standard output)"),
		N_("  --text              every announcement as a line of text, no voice"),
		N_("  --no-speech         no speech"),
		N_("  --no-sound          no sound cues"),
		N_("  --speech BACKEND    auto (default), espeak, speechd, text or none"),
	};
	for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
		fprintf(f, "%s\n", _(head[i]));
	fprintf(f, "\nGames:");
	for (int i = 0; game_list[i]; i++)
		fprintf(f, " %s", game_list[i]->name);
	fprintf(f, "\n\n");
	for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
		fprintf(f, "%s\n", _(options[i]));
	for (int i = 0; game_list[i]; i++) {
		const struct game_ops *g = game_list[i];
		if (g->min_players == g->max_players)
			fprintf(f, "\nRules of %s (%d players):\n", g->name, g->min_players);
		else
			fprintf(f, "\nRules of %s (%d-%d players):\n", g->name, g->min_players, g->max_players);
		for (int k = 0; k < g->nrules; k++) {
			struct rules r;
			rules_init(&r, g->rules, g->nrules);
			char buf[32];
			fprintf(f, "  %-16s ", g->rules[k].key);
			/* TRANSLATORS: a rule option in --help: what it does, its default value. */
			fprintf(f, _("%1$s (default %2$s)"), g->rules[k].help ? _(g->rules[k].help) : "",
			        rules_value_str(&r, k, buf, sizeof buf));
			fputc('\n', f);
		}
	}
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* Parse the options of `play`; returns 0 or EXIT_USAGE with a message. */
static int parse_play(int argc, char **argv, int i, struct cli *c)
{
	for (; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		long n;
#define NEED() do { if (!v) { fprintf(stderr, "tapis: %s needs a value\n", a); return EXIT_USAGE; } i++; } while (0)
		if (!strcmp(a, "--text")) c->text = 1;
		else if (!strcmp(a, "--no-speech")) c->no_speech = 1;
		else if (!strcmp(a, "--no-sound")) c->no_sound = 1;
		else if (!strcmp(a, "--players")) {
			NEED();
			if (parse_int(v, 1, 64, &n)) { fprintf(stderr, "tapis: --players: '%s' is not a number of players\n", v); return EXIT_USAGE; }
			c->players = (int)n;
		} else if (!strcmp(a, "--lang")) {
			NEED();
			if (strcmp(v, "en") && strcmp(v, "fr")) { fprintf(stderr, "tapis: --lang: '%s': en or fr\n", v); return EXIT_USAGE; }
			c->lang = v;
		} else if (!strcmp(a, "--seed")) {
			NEED();
			char *end;
			errno = 0;
			unsigned long long s = strtoull(v, &end, 10);
			if (!*v || *end || errno || *v == '-') { fprintf(stderr, "tapis: --seed: '%s' is not a number\n", v); return EXIT_USAGE; }
			c->seed = s;
			c->seed_given = 1;
		} else if (!strcmp(a, "--dealer")) {
			NEED();
			if (parse_int(v, 0, 63, &n)) { fprintf(stderr, "tapis: --dealer: '%s' is not a seat\n", v); return EXIT_USAGE; }
			c->dealer = (int)n;
		} else if (!strcmp(a, "--seats")) { NEED(); c->seats = v; }
		else if (!strcmp(a, "--deck")) { NEED(); c->deck = v; }
		else if (!strcmp(a, "--actions")) { NEED(); c->actions = v; }
		else if (!strcmp(a, "--log")) { NEED(); c->log = v; }
		else if (!strcmp(a, "--speech")) {
			NEED();
			if (strcmp(v, "auto") && strcmp(v, "espeak") && strcmp(v, "speechd") && strcmp(v, "text") &&
			    strcmp(v, "none")) {
				fprintf(stderr, "tapis: --speech: '%s': auto, espeak, speechd, text or none\n", v);
				return EXIT_USAGE;
			}
			c->speech = v;
		} else if (!strcmp(a, "--rule")) {
			NEED();
			if (c->nrules >= 64) { fprintf(stderr, "tapis: too many --rule\n"); return EXIT_USAGE; }
			c->rule_args[c->nrules++] = v;
		} else if (!strcmp(a, "--hands")) {
			NEED();
			if (parse_int(v, 1, 1000000, &n)) { fprintf(stderr, "tapis: --hands: '%s' is not a number of deals\n", v); return EXIT_USAGE; }
			c->hands = (int)n;
		} else {
			fprintf(stderr, "tapis: unknown option '%s' (see tapis --help)\n", a);
			return EXIT_USAGE;
		}
#undef NEED
	}
	return 0;
}

static uint64_t fresh_seed(void)
{
	uint64_t s = 0;
	FILE *f = fopen("/dev/urandom", "rb");
	if (f) {
		if (fread(&s, sizeof s, 1, f) != 1)
			s = 0;
		fclose(f);
	}
	if (!s)
		s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return s % 1000000000000ULL;  /* short enough to read out and type */
}

/* Build the table options from the command line; EXIT_USAGE on error. */
static int make_options(const struct game_ops *g, const struct cli *c, struct table_options *o)
{
	memset(o, 0, sizeof *o);
	o->game = g;
	o->players = c->players ? c->players : g->default_players;
	if (o->players < g->min_players || o->players > g->max_players) {
		fprintf(stderr, "tapis: %s is played by %d to %d players, not %d\n", g->name, g->min_players,
		        g->max_players, o->players);
		return EXIT_USAGE;
	}
	o->dealer = c->dealer;
	if (o->dealer >= o->players) {
		fprintf(stderr, "tapis: --dealer %d: seats are 0 to %d\n", o->dealer, o->players - 1);
		return EXIT_USAGE;
	}
	o->seed = c->seed_given ? c->seed : fresh_seed();
	rules_init(&o->rules, g->rules, g->nrules);
	char err[512];
	for (int i = 0; i < c->nrules; i++)
		if (rules_set_arg(&o->rules, c->rule_args[i], err, sizeof err) < 0) {
			fprintf(stderr, "tapis: %s\n", err);
			return EXIT_USAGE;
		}
	if (c->hands) {
		char v[32];
		snprintf(v, sizeof v, "%d", c->hands);
		if (rules_set(&o->rules, "hands", v, err, sizeof err) < 0) {
			fprintf(stderr, "tapis: --hands: %s\n", err);
			return EXIT_USAGE;
		}
	}
	for (int s = 0; s < o->players; s++) {
		o->seat_kind[s] = s == 0 ? SEAT_HUMAN : SEAT_BOT;
		o->bot_level[s] = BOT_LEVEL_DEFAULT;
	}
	if (c->seats) {
		char buf[512];
		snprintf(buf, sizeof buf, "%s", c->seats);
		int s = 0;
		char *save = NULL;
		for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), s++) {
			if (s >= o->players) {
				fprintf(stderr, "tapis: --seats: more seats than the %d players\n", o->players);
				return EXIT_USAGE;
			}
			long lvl;
			if (!strcmp(tok, "human"))
				o->seat_kind[s] = SEAT_HUMAN;
			else if (!strcmp(tok, "bot"))
				o->seat_kind[s] = SEAT_BOT;
			else if (!strncmp(tok, "bot:", 4) && parse_int(tok + 4, 0, 9, &lvl) == 0) {
				o->seat_kind[s] = SEAT_BOT;
				o->bot_level[s] = (int)lvl;
			} else {
				fprintf(stderr, "tapis: --seats: '%s' is not human or bot[:LEVEL]\n", tok);
				return EXIT_USAGE;
			}
		}
		if (s != o->players) {
			fprintf(stderr, "tapis: --seats: %d seats given for %d players\n", s, o->players);
			return EXIT_USAGE;
		}
	}
	o->deck_path = c->deck;
	o->actions_path = c->actions;
	o->log_path = c->log;
	return 0;
}

static void save_path(char *buf, size_t len)
{
	char dir[4096];
	if (paths_statedir(dir, sizeof dir, 1) < 0) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%s/current.game", dir);
}

static void open_session(struct session *ses, const struct cli *c)
{
	struct session_request req = { c->lang, c->speech, c->text, c->no_speech, c->no_sound };
	session_open(ses, &req);
}

/* Play a game; *over is set to 1 when it came to its end (not quit). */
static int run_table(struct table_options *o, struct session *ses, const struct script *resume, int *over)
{
	*over = 0;
	char savep[4200];
	save_path(savep, sizeof savep);
	o->save_path = *savep ? savep : NULL;
	struct table t;
	char err[1024];
	if (table_open(&t, o, &ses->sp, ses->audio, err, sizeof err) < 0) {
		fprintf(stderr, "tapis: %s\n", err);
		return EXIT_USAGE;
	}
	term_open();
	if (resume)
		t.silent++;   /* a resumed game is replayed in silence */
	table_start(&t);
	if (resume)
		t.silent--;
	if (resume) {
		if (table_replay(&t, resume, err, sizeof err) < 0) {
			fprintf(stderr, "tapis: %s\n", err);
			term_close();
			table_close(&t);
			return EXIT_USAGE;
		}
		struct sbuf b;
		sb_clear(&b);
		sb_printf(&b, _("%s resumed."), _(o->game->title));
		if (t.talk.me >= 0) {
			card_t hand[GAME_MAX_HAND];
			int n = o->game->hand(t.st, t.talk.me, hand);
			sb_puts(&b, " ");
			ann_hand(&t.talk, hand, n, &b);
		}
		table_say(&t, b.s, SPEECH_QUEUE);
	}
	int rc = play_run(&t, ses, err, sizeof err);
	term_close();
	if (rc == EXIT_SCRIPT || rc == EXIT_INTERNAL)
		fprintf(stderr, "tapis: %s\n", err);
	*over = table_to_act(&t) < 0;
	if (*over && o->save_path)
		unlink(o->save_path);   /* a finished game needs no resuming */
	table_close(&t);
	return rc;
}

/* The language of printed text: --lang, else the settings', else the
 * environment's. */
static const char *choose_lang(const struct cli *c)
{
	struct settings set;
	char msg[256];
	settings_load(&set, msg, sizeof msg);
	const char *lang = c->lang ? c->lang : *set.lang ? set.lang : i18n_env_lang();
	char err[256];
	if (i18n_set_lang(lang, err, sizeof err) < 0 && strcmp(lang, "en") != 0)
		fprintf(stderr, "tapis: %s; messages in English\n", err);
	return i18n_lang();
}

static int cmd_play(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "tapis: play needs a game (see tapis --help)\n");
		return EXIT_USAGE;
	}
	const struct game_ops *g = game_find(argv[2]);
	if (!g) {
		fprintf(stderr, "tapis: unknown game '%s' (see tapis --help)\n", argv[2]);
		return EXIT_USAGE;
	}
	struct cli c;
	memset(&c, 0, sizeof c);
	c.dealer = -1;
	int rc = parse_play(argc, argv, 3, &c);
	if (rc)
		return rc;
	struct table_options o;
	if ((rc = make_options(g, &c, &o)))
		return rc;
	struct session ses;
	open_session(&ses, &c);
	int over;
	rc = run_table(&o, &ses, NULL, &over);
	session_close(&ses);
	return rc;
}

static int cmd_rules(int argc, char **argv)
{
	struct cli c;
	memset(&c, 0, sizeof c);
	c.dealer = -1;
	if (argc < 3) {
		fprintf(stderr, "tapis: rules needs a game\n");
		return EXIT_USAGE;
	}
	const struct game_ops *g = game_find(argv[2]);
	if (!g) {
		fprintf(stderr, "tapis: unknown game '%s'\n", argv[2]);
		return EXIT_USAGE;
	}
	int rc = parse_play(argc, argv, 3, &c);
	if (rc)
		return rc;
	if (c.text)
		c.no_sound = 1;
	struct session ses;
	open_session(&ses, &c);
	char path[4200], err[256];
	snprintf(path, sizeof path, "%s/docs/rules/%s.%s.md", paths_datadir(), g->name, i18n_lang());
	char *text = deckfile_slurp(path, err, sizeof err);
	if (!text) {
		fprintf(stderr, "tapis: %s\n", err);
		session_close(&ses);
		return EXIT_INTERNAL;
	}
	fputs(text, stdout);
	if (ses.sp.backend != &speech_text_backend && ses.sp.backend != &speech_none_backend) {
		char *plain = speech_plain_text(text);   /* the marks of Markdown are noise */
		term_open();
		speech_say(&ses.sp, plain ? plain : text, SPEECH_QUEUE);
		while (speech_busy(&ses.sp) && term_read_key(50) == KEY_NONE)
			session_pump(&ses);
		speech_stop(&ses.sp);
		term_close();
		free(plain);
	}
	session_close(&ses);
	free(text);
	return EXIT_DONE;
}

/* The other language for speech and text, kept in the settings. */
static void switch_lang(struct session *ses)
{
	const char *lang = strcmp(i18n_lang(), "fr") == 0 ? "en" : "fr";
	char err[256];
	if (i18n_set_lang(lang, err, sizeof err) < 0) {
		speech_say(&ses->sp, err, SPEECH_INTERRUPT);
		return;
	}
	speech_set_lang(&ses->sp, i18n_lang());
	snprintf(ses->set.lang, sizeof ses->set.lang, "%s", i18n_lang());
	session_save_settings(ses);
}

/* Escape at the top: leave only when the player says so. */
static int confirm_leave(struct speech *sp)
{
	const char *items[] = { _("No, stay"), _("Yes, quit tapis") };
	int k = menu_run(sp, _("Quit tapis?"), items, 2, 0);
	return k == 1 || k == MENU_QUIT;
}

/* The bare `tapis`: resume a saved game, or choose a game, the number of
 * players and the options, by voice and keys alone. After a game that
 * ended, back here; after Q, the program ends (the game is saved).
 * Escape goes back one step; at the top it asks before quitting. */
static int menu_loop(struct session *ses, struct cli *c)
{
	struct speech *sp = &ses->sp;
	speech_say(sp, _("Welcome to tapis."), SPEECH_QUEUE);
	/* A game left in progress: offer to go on with it. */
	char savep[4200];
	save_path(savep, sizeof savep);
	struct table_options saved;
	struct script actions;
	char err[512];
	if (*savep && access(savep, R_OK) == 0) {
		if (table_read_save(savep, &saved, &actions, err, sizeof err) == 0) {
			const char *items[] = { _("Resume the saved game"), _("New game") };
			struct sbuf title;
			sb_clear(&title);
			sb_printf(&title, _("A game of %s is waiting."), _(saved.game->title));
			int k = menu_run(sp, title.s, items, 2, 0);
			if (k == 0) {
				int over = 0;
				int rc = run_table(&saved, ses, &actions, &over);
				script_release(&actions);
				if (rc || !over)
					return rc;
				term_open();
			} else {
				script_release(&actions);
			}
			if (k == MENU_QUIT)
				return EXIT_DONE;
		} else {
			fprintf(stderr, "tapis: %s\n", err);
		}
	}
	const struct game_ops *g = NULL;
	int step = 0;   /* 0 the game, 1 the players, 2 the options */
	for (;;) {
		if (step == 0) {
			const char *items[18];
			int n = 0;
			for (int i = 0; game_list[i] && n < 15; i++)
				items[n++] = _(game_list[i]->title);
			/* TRANSLATORS: the item of the main menu that switches the
			 * language, named in the language in force. */
			items[n] = _("Language: English");
			items[n + 1] = _("Quit");
			int gi = menu_run(sp, _("Choose a game."), items, n + 2, 0);
			if (gi == MENU_QUIT || gi == n + 1)
				return EXIT_DONE;
			if (gi == MENU_BACK) {
				if (confirm_leave(sp))
					return EXIT_DONE;
				continue;
			}
			if (gi == n) {
				switch_lang(ses);
				continue;
			}
			g = game_list[gi];
			step = 1;
		}
		if (step == 1) {
			char labels[16][32];
			const char *pitems[16];
			int np = 0, def = 0;
			for (int p = g->min_players; p <= g->max_players && np < 16; p++) {
				snprintf(labels[np], sizeof labels[np], P_("%d player", "%d players", p), p);
				if (p == g->default_players)
					def = np;
				pitems[np] = labels[np];
				np++;
			}
			int pi = np == 1 ? 0 : menu_run(sp, _("How many players?"), pitems, np, def);
			if (pi == MENU_QUIT)
				return EXIT_DONE;
			if (pi < 0) {
				step = 0;
				continue;
			}
			c->players = g->min_players + pi;
			step = 2;
		}
		struct table_options o;
		if (make_options(g, c, &o))
			return EXIT_USAGE;
		struct sbuf title;
		sb_clear(&title);
		sb_printf(&title, _("Options of %s."), _(g->title));
		int ri = menu_rules(sp, title.s, &o.rules);
		if (ri == MENU_QUIT)
			return EXIT_DONE;
		if (ri < 0) {
			/* Back to the number of players, or to the games when it has one. */
			step = g->min_players == g->max_players ? 0 : 1;
			continue;
		}
		int over = 0;
		int rc = run_table(&o, ses, NULL, &over);
		if (rc || !over)
			return rc;
		/* The game ended: the main menu again. */
		term_open();
		step = 0;
	}
}

static int cmd_menu(int argc, char **argv)
{
	struct cli c;
	memset(&c, 0, sizeof c);
	c.dealer = -1;
	int rc = parse_play(argc, argv, 1, &c);
	if (rc)
		return rc;
	struct session ses;
	open_session(&ses, &c);
	term_open();
	rc = menu_loop(&ses, &c);
	term_close();
	session_close(&ses);
	return rc;
}

int main(int argc, char **argv)
{
	paths_init(argv[0]);
	int rc;
	if (argc < 2 || (argv[1][0] == '-' && argv[1][1] == '-' && strcmp(argv[1], "--help") &&
	                  strcmp(argv[1], "--version"))) {
		rc = cmd_menu(argc, argv);
	} else if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		struct cli c;
		memset(&c, 0, sizeof c);
		for (int i = 2; i + 1 < argc; i++)
			if (!strcmp(argv[i], "--lang"))
				c.lang = argv[i + 1];
		choose_lang(&c);
		usage(stdout);
		rc = EXIT_DONE;
	} else if (!strcmp(argv[1], "--version")) {
		printf("tapis %s\n", TAPIS_VERSION);
		rc = EXIT_DONE;
	} else if (!strcmp(argv[1], "play")) {
		rc = cmd_play(argc, argv);
	} else if (!strcmp(argv[1], "rules")) {
		rc = cmd_rules(argc, argv);
	} else if (!strcmp(argv[1], "keys")) {
		struct cli c;
		memset(&c, 0, sizeof c);
		if (argc >= 3 && argv[2][0] != '-' && !game_find(argv[2])) {
			fprintf(stderr, "tapis: unknown game '%s'\n", argv[2]);
			return EXIT_USAGE;
		}
		for (int i = 2; i < argc; i++)
			if (!strcmp(argv[i], "--lang") && i + 1 < argc)
				c.lang = argv[++i];
		choose_lang(&c);
		keymap_print(stdout);
		rc = EXIT_DONE;
	} else if (!strcmp(argv[1], "replay")) {
		rc = replay_main(argc - 1, argv + 1);
	} else if (!strcmp(argv[1], "serve")) {
		rc = serve_main(argc - 1, argv + 1);
	} else if (!strcmp(argv[1], "join")) {
		rc = join_main(argc - 1, argv + 1);
	} else if (!strcmp(argv[1], "bench") && argc >= 3 && !strcmp(argv[2], "--net")) {
		rc = bench_net_main(argc - 1, argv + 1, stdout);
	} else if (!strcmp(argv[1], "bench")) {
		int json = argc >= 3 && !strcmp(argv[2], "--json");
		rc = bench_run(json, stdout);
	} else {
		fprintf(stderr, "tapis: unknown command '%s' (see tapis --help)\n", argv[1]);
		rc = EXIT_USAGE;
	}
	i18n_release();
	return rc;
}
