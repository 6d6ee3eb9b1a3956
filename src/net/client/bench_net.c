/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "net/client/bench_net.h"

#include <jansson.h>
#include <libwebsockets.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/registry.h"
#include "core/err.h"
#include "core/game.h"
#include "app/log.h"
#include "core/clock.h"
#include "core/xalloc.h"
#include "net/wire/evloop.h"
#include "net/client/wslink.h"
#include "net/wire/proto.h"
#include "net/client/benchfig.h"
#include "net/wire/ws.h"

/* Table t's game: the registry's games in turn. */
static const struct game_ops *bench_game(int t)
{
	int n = 0;
	while (registry_games[n].ops)
		n++;
	return registry_games[t % n].ops;
}

/* A link asked for: its client, or NULL once given up or ended. Its
 * wsi's opaque data, so that a link given up is never touched again:
 * libwebsockets 4.1 may have freed a link it left hanging (a write to
 * it corrupted the heap), and one that comes later finds no client.
 * Freed with the bench. */
struct blink {
	struct bclient *c;
	struct blink *next;
};

/* One bot client: a connection of the bench's one libwebsockets context
 * (all of them are served by one poll, as a server serves its players). */
struct bclient {
	struct wslink k;         /* its wsi, open, closed, queues */
	struct blink *link;      /* of k.wsi */
	struct bench *b;
	int id, tindex;
	int node;                /* the server it is connected to (bench_node) */
	long table;
	int seat;
	int welcomed, joined, over;
	int acted_moves;         /* the moves of the state last acted on */
	double asked_at;       /* when its connection was asked for */
	double sent_at;        /* when the last action left, 0 none waiting */
	double state_from;     /* the same, until the first state past it came */
	char pending[ACT_STR_MAX]; /* a move chosen, to send when the thinking ends */
	lws_sorted_usec_list_t think; /* the end of the thinking (or of a wait for the rate limit) */
	unsigned rng;
	double tokens, tokens_at;   /* what the server's rate limit still lets it send, and when */
	/* Its link lost while its table played (several servers): made again
	 * to another, the same name and its guest's token. */
	char token[PROTO_TOKEN_LEN + 1]; /* of its last welcome */
	int away;                /* its link lost: until a state of its table comes on a new one */
	int link_state;          /* a state of its table came on the link it has */
	int recreate;            /* its create to send again (the server said wait) */
	int same_node;           /* the next link to the same server (it welcomed, nothing came) */
	double linked_at;        /* when its link was asked */
	double welcomed_at;      /* when its link was welcomed (away: waiting for its seat) */
	lws_sorted_usec_list_t retry; /* the next link asked, or the hello said again */
	/* A client of the load beside (bench_net_load), not measured: 0 none. */
	int extra;
	int started;             /* its table plays */
	int my_turn;             /* the hint client: its turn, the hints go */
	long seen_moves;         /* the bots' table: the moves of its last state */
	/* Its table's state as it holds it (the server tells the changes):
	 * what a bot acts on, its hand and choices kept as they came (JSON),
	 * read only at its turn. */
	struct {
		long moves;
		int to_act, my_turn;
		char word[8];
		char *hand, *choices;
	} st;
};

enum { EXTRA_BOTS = 1, EXTRA_HINTS = 2 };

struct btable {
	long id;
	int first, n;          /* its clients */
	int joined, started, over;
	int deals;             /* its game's hands= (the bench's --deals within the game's limit) */
	double last_at;        /* when one of its clients last heard from it */
	int idle_told;         /* reported idle once */
	/* Its last state heard: what a stalled table was waiting for. */
	char state[16];
	int to_act;
	long moves;
	double lost_at;        /* a client's link lost while it played, until a state comes again (0 none) */
	int resumed;           /* it came back after a loss */
	double start_at;       /* when its start was asked (0 not yet) */
	int dealt;             /* a state "playing" came after it */
};

struct bench {
	struct lws_context *ctx;
	void *loop;                     /* its loop (evloop) */
	lws_sorted_usec_list_t beat;
	int nstarted;                   /* connections asked for */
	double think_s;                 /* a bot's pause before it acts */
	struct bclient *c;
	int nc;
	struct btable *t;
	int nt;
	int deals;
	int errors;
	struct benchfig_lat lat;            /* action to event */
	struct benchfig_lat slat;           /* action to state */
	long long bytes, lobby_bytes;   /* received, and of them the lobby's lists */
	double lobby_at;                /* when a lobby's list last came */
	struct benchfig_node node[BENCH_NET_MAX_NODES];
	int nnodes;
	unsigned run;                   /* this run's mark in the clients' names */
	int playing;                    /* the tables were started */
	int idle;                       /* tables found idle more than BENCH_IDLE_S */
	long paced;                     /* moves held back for the rate limit */
	int created, joined;            /* tables made, clients seated: answers come */
	int nopen, nclosed;             /* connections open now, and closed */
	int first_pending;              /* the clients before it are open or closed */
	int retried;                    /* connections asked for again */
	unsigned beats;                 /* of on_beat */
	int own;                        /* the server is the bench's own (no URL) */
	int ending;                     /* the bench closes its links: no link made again */
	long relinks;                   /* links made again (welcomed) after one was lost */
	int resumed;                    /* tables back after a lost link */
	struct benchfig_lat resume;         /* from a table's first lost link to its first state again, ms */
	struct benchfig_lat deal;           /* from a table's start asked to its first state in play, ms */
	struct blink *links;            /* every link asked for */
	/* The load beside: clients nc to nc + nx - 1 of c. */
	int nx;
	int hints_per_s;
	int extras_started;
	long hints, bot_moves;
};

/* A table that no message came from for this long while it was being
 * played is reported with its state. */
#define BENCH_IDLE_S 10.0
/* A table dealt later than this after its start was asked: an error. */
#define BENCH_DEAL_MAX_S 5.0
/* Connections opened, tables made and players seated a few at a time:
 * at most BENCH_WINDOW asked for and not yet answered, so that thousands
 * of requests do not reach the server in one burst (each made table is a
 * change of the lobby for every client in it), and the time allowed
 * grows with their number (BENCH_SETUP_S, and BENCH_ITEM_S for each). */
#define BENCH_WINDOW 64
#define BENCH_HANG_S 15.0
#define BENCH_SETUP_S 30.0
#define BENCH_ITEM_S 0.05
/* Each client keeps under the server's rate limit (WS_RATE_PER_S
 * messages a second, bursts of WS_RATE_BURST) with a margin for the
 * clocks: a refused message would leave its table waiting for its turn's
 * timer. */
#define BENCH_RATE_PER_S (WS_RATE_PER_S * 0.9)
#define BENCH_RATE_BURST (WS_RATE_BURST - 10)
/* A link lost while its table plays, with several servers: another is
 * asked within BENCH_RELINK_S (spread, so that a lost server's clients do
 * not all knock at once), a hello refused (the name still on the lost
 * server until the others notice) said again after BENCH_HELLO_AGAIN_S,
 * and a link welcomed that brings nothing of the table in
 * BENCH_REJOIN_S made again on the same server (a seat found at the
 * next login). */
#define BENCH_RELINK_S 1.0
#define BENCH_HELLO_AGAIN_S 0.5
#define BENCH_REJOIN_S 8.0
#define BENCH_TABLES_PER_ADDR 4

static long long jint(json_t *o, const char *k, long long def)
{
	json_t *v = json_object_get(o, k);
	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

/* Take one message of the client's allowance: 0 when it may leave now,
 * else the seconds to wait for it. */
static double pace(struct bclient *c, int must)
{
	double now = clock_s();
	c->tokens += (now - c->tokens_at) * BENCH_RATE_PER_S;
	if (c->tokens > BENCH_RATE_BURST)
		c->tokens = BENCH_RATE_BURST;
	c->tokens_at = now;
	if (c->tokens >= 1 || must) {
		c->tokens -= 1;
		return 0;
	}
	return (1 - c->tokens) / BENCH_RATE_PER_S;
}

/* An error on c's side: counted overall and for its server. */
static void client_error(struct bclient *c)
{
	c->b->errors++;
	c->b->node[c->node].errors++;
}

static int send_text(struct bclient *c, const char *text)
{
	return wslink_send(&c->k, text);
}

static void send_json(struct bclient *c, json_t *o)
{
	if (strcmp(json_string_value(json_object_get(o, "type")), "action") != 0)
		pace(c, 1);   /* sitting down: counted, never held */
	char *s = proto_dump(o);
	if (!s || send_text(c, s) < 0)
		client_error(c);
	free(s);
}

static unsigned next_rand(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/* The move chosen leaves now (after the bot's thinking time). */
static void on_think(lws_sorted_usec_list_t *sul);

static void send_pending(struct bclient *c)
{
	if (!c->pending[0])
		return;
	double wait = pace(c, 0);
	if (wait > 0) {
		c->b->paced++;
		lws_sul_schedule(c->b->ctx, 0, &c->think, on_think, (lws_usec_t)(wait * LWS_US_PER_SEC) + 1);
		return;
	}
	json_t *o = json_pack("{s:s, s:I, s:s}", "type", "action", "table", (json_int_t)c->table, "action", c->pending);
	c->pending[0] = '\0';
	c->sent_at = c->state_from = clock_s();
	send_json(c, o);
}

static void on_think(lws_sorted_usec_list_t *sul)
{
	send_pending(lws_container_of(sul, struct bclient, think));
}

/* A legal move, chosen among the playable cards and the other choices. */
static void act(struct bclient *c, json_t *st)
{
	json_t *hand = json_object_get(st, "hand"), *ch = json_object_get(st, "choices");
	const char *opts[64];
	char cards[GAME_MAX_HAND][16];
	int n = 0;
	for (size_t i = 0; i < json_array_size(hand) && n < GAME_MAX_HAND; i++) {
		json_t *x = json_array_get(hand, i);
		if (json_is_true(json_object_get(x, "playable"))) {
			snprintf(cards[n], sizeof cards[n], "play %s", jstr(x, "card"));
			opts[n] = cards[n];
			n++;
		}
	}
	int ncards = n;
	for (size_t i = 0; i < json_array_size(ch) && n < 64; i++) {
		const char *a = jstr(json_array_get(ch, i), "action");
		if (strncmp(a, "play ", 5) != 0)
			opts[n++] = a;
	}
	if (!n)
		return;
	/* Cards when there are some (the game goes on); else any choice. */
	int k = ncards ? (int)(next_rand(&c->rng) % (unsigned)ncards) : (int)(next_rand(&c->rng) % (unsigned)n);
	snprintf(c->pending, sizeof c->pending, "%s", opts[k]);
	if (c->b->think_s <= 0) {
		send_pending(c);
		return;
	}
	/* People do not all think alike: from half to one and a half times
	 * the time asked, so that the tables do not keep the same pace (100
	 * tables started together and acting in step would reach the server
	 * together every time). The move leaves at that moment, on a timer of
	 * the event loop. */
	double think = c->b->think_s * (0.5 + (double)(next_rand(&c->rng) % 1001) / 1000.0);
	lws_sul_schedule(c->b->ctx, 0, &c->think, on_think, (lws_usec_t)(think * LWS_US_PER_SEC));
}

/* The first event after an action: its latency. */
static void record(struct bclient *c)
{
	if (c->sent_at <= 0)
		return;
	double ms = (clock_s() - c->sent_at) * 1000.0;
	benchfig_lat_add(&c->b->lat, ms);
	benchfig_lat_add(&c->b->node[c->node].lat, ms);
	c->sent_at = 0;
}

/* The moves of a message (-1 none), read without parsing it. */
static long moves_of(const char *text)
{
	const char *m = strstr(text, "\"moves\":");
	return m ? strtol(m + 8, NULL, 10) : -1;
}

/* A state of c's table came: if it was away, back at its seat; the
 * first of its table's clients back ends the table's loss (its time). */
static void state_came(struct bclient *c)
{
	struct bench *b = c->b;
	struct btable *t = &b->t[c->tindex];
	c->link_state = 1;
	if (!c->away)
		return;
	c->away = 0;
	c->welcomed_at = 0;
	if (t->lost_at > 0 && c->linked_at >= t->lost_at) {
		benchfig_lat_add(&b->resume, (clock_s() - t->lost_at) * 1000.0);
		t->lost_at = 0;
		if (!t->resumed++)
			b->resumed++;
	}
}

/* Where the JSON value at p ends (the comma or brace after it), in the
 * compact text the server writes; NULL when it is cut short. */
static const char *value_end(const char *p, const char *end)
{
	int depth = 0;
	while (p < end && (depth || (*p != ',' && *p != '}'))) {
		if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			depth--;
		}
		p++;
	}
	return p < end ? p : NULL;
}

static void raw_set(char **to, const char *v, size_t n)
{
	free(*to);
	*to = NULL;
	if (n == 4 && !memcmp(v, "null", 4))
		return;
	*to = xmalloc(n + 1);
	memcpy(*to, v, n);
	(*to)[n] = '\0';
}

/* A state taken in, whole or as its changes, without parsing it: each
 * member of the object, by its key (the server's keys need no escape). */
static void state_take(struct bclient *c, const char *text, size_t len)
{
	const char *p = text + 1, *end = text + len;
	if (!strstr(text, "\"changes\":true")) {
		free(c->st.hand);
		free(c->st.choices);
		memset(&c->st, 0, sizeof c->st);
		c->st.to_act = -1;
	}
	while (p < end && *p == '"') {
		const char *k = p + 1, *q = memchr(k, '"', (size_t)(end - k));
		if (!q || q + 1 >= end || q[1] != ':')
			return;
		const char *v = q + 2, *e = value_end(v, end);
		if (!e)
			return;
		size_t kn = (size_t)(q - k), vn = (size_t)(e - v);
#define IS(w) (kn == sizeof w - 1 && !memcmp(k, w, kn))
		if (IS("moves"))
			c->st.moves = strtol(v, NULL, 10);
		else if (IS("to_act"))
			c->st.to_act = (int)strtol(v, NULL, 10);
		else if (IS("my_turn"))
			c->st.my_turn = *v == 't';
		else if (IS("state") && vn >= 2 && vn - 2 < sizeof c->st.word)
			snprintf(c->st.word, sizeof c->st.word, "%.*s", (int)(vn - 2), v + 1);
		else if (IS("hand"))
			raw_set(&c->st.hand, v, vn);
		else if (IS("choices"))
			raw_set(&c->st.choices, v, vn);
#undef IS
		p = *e == ',' ? e + 1 : end;
	}
}

static void on_retry(lws_sorted_usec_list_t *sul);
static void send_create(struct bench *b, int t);

static void extra_msg(struct bclient *c, const char *text, size_t len);

static void on_msg(void *ctx, const char *text, size_t len)
{
	struct bclient *c = ctx;
	struct bench *b = c->b;
	if (c->extra) {
		extra_msg(c, text, len);
		return;
	}
	/* The lobby's list (its snapshots and changes) and its news are of no
	 * use to a bot, and the announcements only mark the time: none is
	 * parsed. All the lobby's are its bytes. */
	static const char lobby[] = "{\"type\":\"lobby\"", delta[] = "{\"type\":\"lobby_delta\"",
	                  news[] = "{\"type\":\"lobby_event\"", say[] = "{\"type\":\"say\"";
	struct benchfig_node *nd = &b->node[c->node];
	b->bytes += (long long)len;
	nd->bytes += (long long)len;
	if (!strncmp(text, lobby, sizeof lobby - 1) || !strncmp(text, delta, sizeof delta - 1) ||
	    !strncmp(text, news, sizeof news - 1)) {
		b->lobby_bytes += (long long)len;
		nd->lobby_bytes += (long long)len;
		b->lobby_at = clock_s();
		return;
	}
	b->t[c->tindex].last_at = clock_s();
	/* What the keys mean, for a person: nothing a bot reads. */
	static const char moment[] = "{\"type\":\"moment\"";
	if (!strncmp(text, moment, sizeof moment - 1))
		return;
	static const char state[] = "{\"type\":\"state\"";
	if (!strncmp(text, state, sizeof state - 1))
		state_came(c);
	if (!strncmp(text, say, sizeof say - 1)) {
		/* Only an event of the action sent counts: one told after a later
		 * move (the prompt of the turn being said after the state). */
		long m = moves_of(text);
		if (m < 0 || m > c->acted_moves)
			record(c);
		return;
	}
	/* A state is read only when it asks this bot to act or ends the game. */
	if (!strncmp(text, state, sizeof state - 1) && c->state_from > 0 && moves_of(text) > c->acted_moves) {
		double ms = (clock_s() - c->state_from) * 1000.0;
		benchfig_lat_add(&b->slat, ms);
		benchfig_lat_add(&nd->slat, ms);
		c->state_from = 0;
	}
	json_t *o;
	if (!strncmp(text, state, sizeof state - 1)) {
		state_take(c, text, len);
		if (!c->st.my_turn && strcmp(c->st.word, "over") != 0)
			return;
		o = json_pack("{s:s, s:s, s:I, s:i, s:o, s:o}", "type", "state", "state", c->st.word, "moves",
		              (json_int_t)c->st.moves, "to_act", c->st.to_act, "hand",
		              c->st.hand ? json_loads(c->st.hand, 0, NULL) : json_array(), "choices",
		              c->st.choices ? json_loads(c->st.choices, 0, NULL) : json_array());
	} else {
		o = json_loadb(text, len, 0, NULL);
	}
	const char *type = jstr(o, "type");
	if (!strcmp(type, "welcome")) {
		c->welcomed = 1;
		snprintf(c->token, sizeof c->token, "%s", jstr(o, "token"));
		if (c->away) {
			b->relinks++;
			c->welcomed_at = clock_s();
		}
	} else if (!strcmp(type, "created")) {
		if (!b->t[c->tindex].id)
			b->created++;
		b->t[c->tindex].id = (long)jint(o, "table", 0);
	} else if (!strcmp(type, "joined")) {
		c->table = (long)jint(o, "table", 0);
		c->seat = (int)jint(o, "seat", -1);
		if (!c->joined++) {
			b->t[c->tindex].joined++;
			b->joined++;
		}
	} else if (!strcmp(type, "say")) {
		record(c);
	} else if (!strcmp(type, "state")) {
		const char *st = jstr(o, "state");
		int seq = (int)jint(o, "moves", jint(o, "seq", 0));
		struct btable *t = &b->t[c->tindex];
		snprintf(t->state, sizeof t->state, "%s", st);
		t->to_act = (int)jint(o, "to_act", -1);
		t->moves = seq;
		if (t->start_at > 0 && !t->dealt && !strcmp(st, "playing")) {
			/* Its deal: the wait a player has after asking to start. */
			double ms = (clock_s() - t->start_at) * 1000.0;
			t->dealt = 1;
			benchfig_lat_add(&b->deal, ms);
			if (ms > BENCH_DEAL_MAX_S * 1000.0) {
				b->errors++;
				b->node[c->node].errors++;
			}
		}
		if (!strcmp(st, "over")) {
			if (!c->over++)
				b->t[c->tindex].over++;
		} else if (!strcmp(st, "playing") && jint(o, "to_act", -1) == c->seat && c->seat >= 0 &&
		           seq != c->acted_moves) {
			c->acted_moves = seq;
			act(c, o);
		}
	} else if (c->away && !c->welcomed && !strcmp(type, "error")) {
		/* Its hello refused (the name still held on the server lost,
		 * until the others notice): said again in a while. */
		lws_sul_schedule(b->ctx, 0, &c->retry, on_retry, (lws_usec_t)(BENCH_HELLO_AGAIN_S * LWS_US_PER_SEC));
	} else if (!strcmp(type, "error") && !strcmp(jstr(o, "code"), "wait") && !strcmp(jstr(o, "re"), "create")) {
		/* A node of a cluster waiting for its next block of table ids:
		 * asked again in a while, as a person would. */
		c->recreate = 1;
		lws_sul_schedule(b->ctx, 0, &c->retry, on_retry, (lws_usec_t)(BENCH_HELLO_AGAIN_S * LWS_US_PER_SEC));
	} else if (!strcmp(type, "error") && !strcmp(jstr(o, "code"), "reconnect")) {
		/* Its relay to another server dropped: the link closes, and is
		 * made again to the same server, as a person's would. */
		c->same_node = 1;
	} else if (!strcmp(type, "error") || !strcmp(type, "refused")) {
		client_error(c);
		fprintf(stderr, "tapis bench --net: client %d: %s\n", c->id, text);
	}
	json_decref(o);
}

/* ---- the load beside (bench_net_load) ---- */

/* K deals, within the game's own limit of its hands rule. */
static int game_deals(const struct game_ops *g, int deals)
{
	for (int i = 0; i < g->nrules; i++)
		if (!strcmp(g->rules[i].key, "hands") && g->rules[i].max > 0 && deals > g->rules[i].max)
			return g->rules[i].max;
	return deals;
}

/* The strongest bots' table, or the hint client's (seat 0 its own, bots
 * of level 2 at the others), at Bourré: as many deals as the game takes,
 * so that it lasts the whole run. */
static void extra_create(struct bench *b, int i)
{
	struct bclient *c = &b->c[b->nc + i];
	const struct game_ops *g = registry_ops("bourre");
	const char *bots = c->extra == EXTRA_BOTS ? "bot:3" : "bot:2";
	json_t *seats = json_pack("[s, s, s, s]", c->extra == EXTRA_BOTS ? "bot:3" : "open", bots, bots, bots);
	send_json(c, json_pack("{s:s, s:s, s:i, s:{s:i}, s:o}", "type", "create", "game", g->name, "players", 4, "rules",
	                       "hands", game_deals(g, BENCH_NET_MAX_COUNT), "seats", seats));
}

static void on_hint(lws_sorted_usec_list_t *sul)
{
	struct bclient *c = lws_container_of(sul, struct bclient, think);
	struct bench *b = c->b;
	if (c->k.closed || b->ending)
		return;
	if (c->my_turn && c->k.open) {
		char text[96];
		snprintf(text, sizeof text, "{\"type\":\"hint\",\"table\":%ld}", c->table);
		pace(c, 1);
		if (send_text(c, text) == 0)
			b->hints++;
	}
	lws_sul_schedule(b->ctx, 0, &c->think, on_hint, LWS_US_PER_SEC / (lws_usec_t)b->hints_per_s);
}

/* What a client of the load hears: its table made, then started by it;
 * the hint client's turn followed; the bots' moves counted. Its errors
 * are said, not counted with the measured tables'. */
static void extra_msg(struct bclient *c, const char *text, size_t len)
{
	struct bench *b = c->b;
	static const char state[] = "{\"type\":\"state\"", say[] = "{\"type\":\"say\"",
	                  lobby[] = "{\"type\":\"lobby";
	if (!strncmp(text, say, sizeof say - 1) || !strncmp(text, lobby, sizeof lobby - 1) ||
	    !strncmp(text, "{\"type\":\"moment\",", 17))
		return;
	if (!strncmp(text, state, sizeof state - 1)) {
		long m = moves_of(text);
		if (c->extra == EXTRA_BOTS && m >= 0) {
			b->bot_moves += m >= c->seen_moves ? m - c->seen_moves : m;
			c->seen_moves = m;
		}
		/* Told as changes: "my_turn" only when it changed. */
		const char *mt = strstr(text, "\"my_turn\":");
		if (mt)
			c->my_turn = !strncmp(mt + 10, "true", 4);
		if (!c->started && strstr(text, "\"state\":\"playing\"")) {
			c->started = 1;
			b->extras_started++;
			if (c->extra == EXTRA_HINTS)
				lws_sul_schedule(b->ctx, 0, &c->think, on_hint, 1);
		}
		return;
	}
	json_t *o = json_loadb(text, len, 0, NULL);
	const char *type = jstr(o, "type");
	if (!strcmp(type, "welcome")) {
		c->welcomed = 1;
	} else if (!strcmp(type, "created")) {
		c->table = (long)jint(o, "table", 0);
		send_json(c, json_pack("{s:s, s:I}", "type", "start", "table", (json_int_t)c->table));
	} else if (!strcmp(type, "error") || !strcmp(type, "refused")) {
		fprintf(stderr, "tapis bench --net: the load's client %d: %s\n", c->id, text);
		if (!c->started) /* the load never came: what was measured is not what was asked */
			client_error(c);
	}
	json_decref(o);
}

static int extras_started(const struct bench *b)
{
	return b->extras_started;
}

/* c's hello, with its guest's token once it has one (a link made again). */
static void send_hello(struct bclient *c)
{
	char hello[160 + PROTO_TOKEN_LEN];
	/* Names of this run's own: a server given by URL may still keep
	 * seats for an earlier run's guests. */
	int n = snprintf(hello, sizeof hello,
	                 "{\"type\":\"hello\",\"version\":%d,\"name\":\"bench-%x-%d\",\"lang\":\"%s\",\"state_changes\":true",
	                 PROTO_VERSION, c->b->run, c->id, c->id % 2 ? "fr" : "en");
	if (c->token[0])
		n += snprintf(hello + n, sizeof hello - (size_t)n, ",\"token\":\"%s\"", c->token);
	snprintf(hello + n, sizeof hello - (size_t)n, "}");
	if (send_text(c, hello) < 0)
		client_error(c);
}

/* c's link to its server asked (its hello waiting for it); 0 or -1. */
static int link_ask(struct bclient *c)
{
	struct benchfig_node *nd = &c->b->node[c->node];
	struct lws_client_connect_info ci;
	wslink_connect_info(&ci, c->b->ctx, nd->host, nd->port, nd->path, nd->tls);
	struct blink *bl = xcalloc(1, sizeof *bl);
	bl->c = c;
	bl->next = c->b->links;
	c->b->links = bl;
	c->link = bl;
	ci.opaque_user_data = bl;
	/* A server given on this machine's loopback: every
	 * BENCH_TABLES_PER_ADDR tables' clients from an address of their own
	 * (127.1.X.Y), as people come from many, within the lobby's cap of
	 * tables made from one address (the bench's own server has none). */
	char from[32];
	if (!c->b->own && !strncmp(nd->host, "127.", 4)) {
		int k = c->tindex / BENCH_TABLES_PER_ADDR;
		snprintf(from, sizeof from, "127.1.%d.%d", k / 250 % 250, k % 250 + 1);
		ci.iface = from;
	}
	c->linked_at = c->asked_at = clock_s();
	/* Not through pwsi: a link asked for again (connect_room) must not
	 * be cleared by the end of the one it replaces. */
	c->k.wsi = lws_client_connect_via_info(&ci);
	return c->k.wsi ? 0 : -1;
}

static int client_connect(struct bclient *c)
{
	if (link_ask(c) < 0)
		return -1;
	send_hello(c);
	return 0;
}

/* The server c goes to when its link is lost: another one, not known to
 * refuse links, the tables spread over those left. */
static int next_node(const struct bench *b, const struct bclient *c)
{
	int alive[BENCH_NET_MAX_NODES], n = 0;
	for (int k = 0; k < b->nnodes; k++)
		if (k != c->node && !b->node[k].down)
			alive[n++] = k;
	return n ? alive[c->tindex % n] : (c->node + 1) % b->nnodes;
}

/* A link may be made again: its table plays, and there is another server. */
static int relinkable(const struct bclient *c)
{
	return !c->extra && c->b->playing && !c->b->ending && c->b->nnodes > 1 && !c->over;
}

/* c's link lost while its table plays (refused: a link asked and refused,
 * its server counted down): the table's loss dated from its first client
 * that had its state, and a new link asked of another server in a while
 * (the same one after BENCH_REJOIN_S of nothing). */
static void link_lost(struct bclient *c, int refused)
{
	struct bench *b = c->b;
	struct btable *t = &b->t[c->tindex];
	if (refused)
		b->node[c->node].down = 1;
	if (c->link_state && !t->lost_at)
		t->lost_at = clock_s();
	c->away = 1;
	c->link_state = c->welcomed = 0;
	c->welcomed_at = 0;
	wslink_lost(&c->k);
	c->pending[0] = '\0';
	c->sent_at = c->state_from = 0;
	c->acted_moves = -1; /* a move lost with the link is asked again */
	lws_sul_cancel(&c->think);
	if (!c->same_node)
		c->node = next_node(b, c);
	c->same_node = 0;
	double wait = refused ? 0.05 : BENCH_RELINK_S * (double)(next_rand(&c->rng) % 1000) / 1000.0;
	lws_sul_schedule(b->ctx, 0, &c->retry, on_retry, (lws_usec_t)(wait * LWS_US_PER_SEC) + 1);
}

static void on_retry(lws_sorted_usec_list_t *sul)
{
	struct bclient *c = lws_container_of(sul, struct bclient, retry);
	if (c->k.closed || c->b->ending)
		return;
	if (c->recreate) {
		c->recreate = 0;
		send_create(c->b, c->tindex);
		return;
	}
	if (c->k.wsi) { /* its hello refused: said again */
		if (c->k.open && !c->welcomed)
			send_hello(c);
		return;
	}
	if (client_connect(c) < 0)
		link_lost(c, 1);
}

/* Clients away, welcomed, and still without their table after
 * BENCH_REJOIN_S: their link closed, made again on the same server (the
 * seat found at login, the table taken over meanwhile). */
static void watch_away(struct bench *b)
{
	double now = clock_s();
	for (int i = 0; i < b->nc; i++) {
		struct bclient *c = &b->c[i];
		if (c->away && c->k.wsi && c->welcomed_at > 0 && now - c->welcomed_at > BENCH_REJOIN_S) {
			c->welcomed_at = 0;
			c->same_node = 1;
			lws_set_timeout(c->k.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
		}
	}
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct blink *bl = lws_get_opaque_user_data(wsi);
	struct bclient *c = bl ? bl->c : NULL;
	(void)user;
	if (!c) /* a connection given up for hanging (connect_room): closed if it comes */
		return reason == LWS_CALLBACK_CLIENT_ESTABLISHED ? -1 : 0;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		if (!c->k.open)
			c->b->nopen++;
		wslink_opened(&c->k, wsi);
		break;
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
	case LWS_CALLBACK_CLIENT_CLOSED:
		bl->c = NULL; /* this link's last word */
		if (!c->k.closed && relinkable(c)) {
			link_lost(c, reason == LWS_CALLBACK_CLIENT_CONNECTION_ERROR);
			break;
		}
		if (!c->k.closed) {
			if (!c->over) /* a link lost after its game is no loss */
				client_error(c);
			c->b->nclosed++;
			c->b->nopen -= c->k.open;
		}
		c->k.closed = 1;
		c->k.open = 0;
		c->k.wsi = NULL;
		break;
	case LWS_CALLBACK_CLIENT_RECEIVE: {
		size_t n;
		if (wslink_received(&c->k, wsi, in, len, &n))
			on_msg(c, c->k.rx, n);
		break;
	}
	case LWS_CALLBACK_CLIENT_WRITEABLE:
		return wslink_writeable(&c->k, wsi);
	default:
		break;
	}
	return 0;
}

static const struct lws_protocols bench_protocols[] = {
	{ "tapis", callback, 0, 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

/* A heartbeat, so that the wait for the network ends in time to look at
 * the clock (the deadlines of run_until). */
static void on_beat(lws_sorted_usec_list_t *sul)
{
	struct bench *b = lws_container_of(sul, struct bench, beat);
	if (b->playing && ++b->beats % 50 == 0)
		watch_away(b);
	lws_sul_schedule(b->ctx, 0, &b->beat, on_beat, 10 * LWS_US_PER_MS);
}

/* Wait for what the network brings (no spinning: the server shares the
 * machine's cores). */
static void service_all(struct bench *b)
{
	evloop_service(b->ctx, b->loop);
}

/* Service until done(b) or the deadline; 0 or -1. */
static int run_until(struct bench *b, int (*done)(struct bench *), double seconds)
{
	double end = clock_s() + seconds;
	while (!done(b)) {
		if (clock_s() > end)
			return -1;
		service_all(b);
	}
	return 0;
}


/* Fewer than BENCH_WINDOW connections asked for and not yet open (or
 * failed): room for another. libwebsockets 4.1 leaves a few of thousands
 * asked for without a socket and without an error: one still waiting
 * after BENCH_HANG_S is given up (it is closed if it ever comes) and
 * asked for again. */
static int connect_room(struct bench *b)
{
	while (b->first_pending < b->nstarted && (b->c[b->first_pending].k.open || b->c[b->first_pending].k.closed))
		b->first_pending++;
	double now = clock_s();
	for (int i = b->first_pending; i < b->nstarted; i++) {
		struct bclient *c = &b->c[i];
		if (c->k.open || c->k.closed || now - c->asked_at < BENCH_HANG_S)
			continue;
		c->link->c = NULL; /* its wsi not touched: it may be gone */
		b->retried++;
		if (link_ask(c) < 0) {
			c->k.closed = 1;
			b->nclosed++;
			client_error(c);
		}
	}
	return b->nstarted - b->nopen - b->nclosed < BENCH_WINDOW;
}


static int all_open(struct bench *b)
{
	for (int i = 0; i < b->nstarted; i++)
		if (!b->c[i].k.open)
			return b->c[i].k.closed ? 1 : 0;
	return 1;
}

static int all_asked_open(struct bench *b)
{
	return connect_room(b) && all_open(b);
}

/* The lobby's lists of the sitting down have all come (none for 0.3 s):
 * play is measured, not the making of the tables. */
static int lobby_quiet(struct bench *b)
{
	return clock_s() - b->lobby_at > 0.3;
}

static int all_welcomed(struct bench *b)
{
	for (int i = 0; i < b->nc + b->nx; i++)
		if (!b->c[i].welcomed)
			return 0;
	return 1;
}

static int all_joined_creators(struct bench *b)
{
	return b->joined >= b->nt;
}

static int all_joined(struct bench *b)
{
	for (int i = 0; i < b->nt; i++)
		if (b->t[i].joined < b->t[i].n)
			return 0;
	return 1;
}

/* Every game over; a table that has said nothing for BENCH_IDLE_S is
 * reported (once) with the state it was left in. */
static int all_over(struct bench *b)
{
	int done = 1;
	double now = clock_s();
	for (int i = 0; i < b->nt; i++) {
		struct btable *t = &b->t[i];
		if (t->over >= t->n)
			continue;
		done = 0;
		if (!t->idle_told && now - t->last_at > BENCH_IDLE_S) {
			t->idle_told = 1;
			b->idle++;
			fprintf(stderr,
			        "tapis bench --net: table %ld (%s, %d players) idle for %.0f s: state '%s', %ld moves, "
			        "seat %d to act, %d of %d clients told it is over\n",
			        t->id, bench_game(i)->name, t->n, now - t->last_at, t->state[0] ? t->state : "none",
			        t->moves, t->to_act, t->over, t->n);
		}
	}
	return done;
}

/* Send the requests from *sent to n (send(b, i)) while fewer than
 * BENCH_WINDOW wait for their answer (answered(b) of them came), until
 * all are answered; 0, or -1 past the time allowed. */
static int run_paced(struct bench *b, int n, void (*send)(struct bench *b, int i), int (*answered)(const struct bench *b))
{
	double end = clock_s() + BENCH_SETUP_S + BENCH_ITEM_S * n;
	int sent = 0;
	while (answered(b) < n) {
		while (sent < n && sent - answered(b) < BENCH_WINDOW)
			send(b, sent++);
		if (clock_s() > end)
			return -1;
		service_all(b);
	}
	return 0;
}

static void send_create(struct bench *b, int t)
{
	const struct game_ops *g = bench_game(t);
	json_t *seats = json_array();
	for (int s = 0; s < b->t[t].n; s++)
		json_array_append_new(seats, json_string("open"));
	send_json(&b->c[b->t[t].first], json_pack("{s:s, s:s, s:i, s:{s:i}, s:o}", "type", "create", "game", g->name,
	                                          "players", b->t[t].n, "rules", "hands", b->t[t].deals, "seats", seats));
}

static int tables_made(const struct bench *b)
{
	return b->created;
}

/* The i-th of the clients who sit down (all but each table's creator). */
static void send_sit(struct bench *b, int i)
{
	int t = 0;
	while (i >= b->t[t].n - 1) /* few tables a call: the bench's own setup */
		i -= b->t[t++].n - 1;
	send_json(&b->c[b->t[t].first + 1 + i], json_pack("{s:s, s:I}", "type", "sit", "table", (json_int_t)b->t[t].id));
}

static int players_seated(const struct bench *b)
{
	return b->joined - b->nt; /* the creators are seated with their tables */
}

int bench_net_run(bench_net_spawn_fn spawn, const char *url, int clients, int tables, int deals, int think_ms, struct bench_net_result *res,
                  char *err, size_t errlen)
{
	return bench_net_run_load(spawn, url, clients, tables, deals, think_ms, NULL, res, err, errlen);
}

int bench_net_run_load(bench_net_spawn_fn spawn, const char *url, int clients, int tables, int deals, int think_ms,
                       const struct bench_net_load *load, struct bench_net_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof *res);
	res->server_rss_kb = res->server_base_kb = -1;
	if (clients < tables || tables < 1 || deals < 1)
		return errf(err, errlen, "at least one table, one deal, and a client for each table");
	int nx = load ? load->bot_tables + (load->hints_per_s > 0) : 0;
	if (load && (load->bot_tables < 0 || load->hints_per_s < 0 || load->hints_per_s > BENCH_HINTS_MAX))
		return errf(err, errlen, "the load beside: bots' tables 0 or more, hints 0 to %d a second", BENCH_HINTS_MAX);
	char own[64];
	pid_t pid = -1;
	if (!url) {
		int port;
		if (!spawn)
			return errf(err, errlen, "no server to start");
		if ((pid = spawn(&port, err, errlen)) < 0)
			return -1;
		snprintf(own, sizeof own, "ws://127.0.0.1:%d", port);
		url = own;
		res->server_base_kb = benchfig_rss_kb(pid);
	}
	struct bench b;
	memset(&b, 0, sizeof b);
	b.c = xcalloc((size_t)(clients + nx), sizeof *b.c);
	b.t = xcalloc((size_t)tables, sizeof *b.t);
	b.nc = clients;
	b.nx = nx;
	b.hints_per_s = load ? load->hints_per_s : 0;
	b.nt = tables;
	b.think_s = think_ms / 1000.0;
	b.own = pid > 0;
	int rc = -1;
	b.run = ((unsigned)getpid() * 2654435761u ^ (unsigned)(clock_s() * 1e6)) & 0xfffff;
	if (benchfig_parse_urls(b.node, &b.nnodes, url, err, errlen) < 0)
		goto out;
	int tls = 0;
	for (int k = 0; k < b.nnodes; k++)
		tls |= b.node[k].tls;
	lws_set_log_level(LLL_ERR, NULL);
	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = bench_protocols;
	info.options = tls ? LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT : 0;
	/* Twice the connections: libwebsockets 4.1 stopped making new ones,
	 * without an error and without a socket, at about three quarters of
	 * this limit (7,643 of 10,000 clients with clients + 64). Given as the
	 * process's open-file limit rather than as fd_limit_per_thread, with
	 * which it finds a socket's connection by looking through them all
	 * (16 % of the bench's time at 4,000 clients). */
	rlim_t fds = 2 * (rlim_t)(clients + nx) + 64;
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= fds)) {
		rl.rlim_cur = fds;
		setrlimit(RLIMIT_NOFILE, &rl);
	} else {
		info.fd_limit_per_thread = (unsigned)fds;
	}
	b.ctx = evloop_context(&info, &b.loop);
	if (!b.ctx) {
		errf(err, errlen, "cannot start libwebsockets");
		goto out;
	}
	lws_sul_schedule(b.ctx, 0, &b.beat, on_beat, 10 * LWS_US_PER_MS);
	for (int i = 0; i < tables; i++) {
		b.t[i].first = i * clients / tables;
		b.t[i].n = (i + 1) * clients / tables - b.t[i].first;
	}
	double setup_s = BENCH_SETUP_S + BENCH_ITEM_S * (clients + nx), connect_end = clock_s() + setup_s;
	for (int i = 0; i < clients + nx; i++) {
		struct bclient *c = &b.c[i];
		/* The listen queue is short: a few connections under way at a
		 * time (one that hangs holds one place, not the others). */
		if (run_until(&b, connect_room, connect_end - clock_s()) < 0) {
			errf(err, errlen, "the clients could not all connect (%d open, %d failed, %d asked, %d asked again)",
			     b.nopen, b.nclosed, b.nstarted, b.retried);
			goto out;
		}
		c->b = &b;
		c->id = i;
		c->seat = -1;
		c->acted_moves = -1;
		c->rng = 0x9e3779b9u * (unsigned)(i + 1);
		c->tokens = BENCH_RATE_BURST;
		c->tokens_at = clock_s();
		for (int t = 0; t < tables; t++)
			if (i >= b.t[t].first && i < b.t[t].first + b.t[t].n)
				c->tindex = t;
		/* A table's clients on one server, the tables dealt out in turn. */
		c->node = c->tindex % b.nnodes;
		if (i >= clients) { /* the load's: the first server, an address of their own */
			c->extra = i - clients < load->bot_tables ? EXTRA_BOTS : EXTRA_HINTS;
			c->tindex = tables + (i - clients) * BENCH_TABLES_PER_ADDR;
			c->node = 0;
		}
		struct benchfig_node *nd = &b.node[c->node];
		nd->clients++;
		if (client_connect(c) < 0) {
			errf(err, errlen, "client %d: cannot connect to %s", i, nd->url);
			goto out;
		}
		b.nstarted = i + 1;
	}
	if (run_until(&b, all_asked_open, connect_end - clock_s()) < 0 || b.errors) {
		errf(err, errlen, "the clients could not all connect (%d open, %d failed, %d asked, %d asked again)", b.nopen,
		     b.nclosed, b.nstarted, b.retried);
		goto out;
	}
	if (run_until(&b, all_welcomed, setup_s) < 0) {
		errf(err, errlen, "the clients were not all welcomed");
		goto out;
	}
	if (pid > 0)
		res->server_conns_kb = benchfig_rss_kb(pid);
	for (int t = 0; t < tables; t++) {
		const struct game_ops *g = bench_game(t);
		int n = b.t[t].n;
		if (n < g->min_players || n > g->max_players) {
			errf(err, errlen, "%s is for %d to %d players, not %d", g->name, g->min_players, g->max_players, n);
			goto out;
		}
		b.t[t].deals = game_deals(g, deals);
	}
	if (run_paced(&b, tables, send_create, tables_made) < 0) {
		errf(err, errlen, "the tables were not all made (%d of %d)", b.created, tables);
		goto out;
	}
	/* The creators' own "joined" may come after their "created". */
	if (run_until(&b, all_joined_creators, BENCH_SETUP_S) < 0 ||
	    run_paced(&b, clients - tables, send_sit, players_seated) < 0 || run_until(&b, all_joined, BENCH_SETUP_S) < 0) {
		errf(err, errlen, "the players did not all sit (%d of %d)", b.joined, clients);
		goto out;
	}
	if (nx && run_paced(&b, nx, extra_create, extras_started) < 0) {
		errf(err, errlen, "the load beside did not all start (%d of %d)", b.extras_started, nx);
		goto out;
	}
	run_until(&b, lobby_quiet, 30);
	double t1 = clock_s(), cpu0 = pid > 0 ? benchfig_cpu_s(pid) : -1;
	long hints0 = b.hints, bot_moves0 = b.bot_moves;
	for (int t = 0; t < tables; t++) {
		b.t[t].last_at = t1;
		b.t[t].start_at = clock_s();
		send_json(&b.c[b.t[t].first], json_pack("{s:s, s:I}", "type", "start", "table", (json_int_t)b.t[t].id));
	}
	b.playing = 1;
	if (run_until(&b, all_over, 60.0 * deals + 120) < 0)
		b.errors++;
	b.ending = 1;
	/* A table whose clients lost their link and never heard of it again
	 * is lost: an error. */
	for (int t = 0; t < tables; t++) {
		if (b.t[t].lost_at > 0) {
			res->lost_tables++;
			b.errors++;
		}
		if (!b.t[t].dealt) {
			res->undealt_tables++;
			b.errors++;
		}
	}
	benchfig_lat_figures(&b.deal, &res->deal_median_ms, &res->deal_p99_ms, &res->deal_max_ms);
	res->hints = b.hints - hints0;
	res->bot_moves = b.bot_moves - bot_moves0;
	res->relinks = b.relinks;
	res->resumed_tables = b.resumed;
	res->resumes = b.resume.n;
	double resume_p99;
	benchfig_lat_figures(&b.resume, &res->resume_median_ms, &resume_p99, &res->resume_max_ms);
	for (int t = 0; t < tables; t++)
		if (b.t[t].over == b.t[t].n)
			res->deals += b.t[t].deals;
	benchfig_server_result(res, pid, cpu0, b.lat.n, clients, tables);
	res->lobby_kb_per_client = (double)b.lobby_bytes / 1e3 / clients;
	res->idle_tables = b.idle;
	res->paced = b.paced;
	res->client_cpu_s = benchfig_cpu_s(getpid());
	res->mb_received = (double)b.bytes / 1e6;
	res->mb_lobby = (double)b.lobby_bytes / 1e6;
	res->seconds = clock_s() - t1;
	res->clients = clients;
	res->think_ms = think_ms;
	res->tables = tables;
	res->errors = b.errors;
	res->actions = b.lat.n;
	benchfig_lat_figures(&b.lat, &res->latency_median_ms, &res->latency_p99_ms, &res->latency_max_ms);
	benchfig_lat_figures(&b.slat, &res->state_median_ms, &res->state_p99_ms, &res->state_max_ms);
	res->nnodes = b.nnodes;
	for (int k = 0; k < b.nnodes; k++) {
		benchfig_node_result(&b.node[k], &res->node[k]);
	}
	rc = 0;
out:
	if (b.ctx) {
		for (int i = 0; i < clients + nx; i++)
			b.c[i].k.closed = 1; /* closing is not an error */
		evloop_destroy(b.ctx, b.loop);
	}
	for (int i = 0; b.c && i < clients + nx; i++) {
		wslink_free(&b.c[i].k);
		free(b.c[i].st.hand);
		free(b.c[i].st.choices);
	}
	while (b.links) {
		struct blink *next = b.links->next;
		free(b.links);
		b.links = next;
	}
	free(b.c);
	free(b.t);
	free(b.lat.v);
	free(b.slat.v);
	free(b.resume.v);
	free(b.deal.v);
	for (int k = 0; k < b.nnodes; k++) {
		free(b.node[k].lat.v);
		free(b.node[k].slat.v);
	}
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	return rc;
}
