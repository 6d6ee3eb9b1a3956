/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A small reader of gettext .mo files (the format msgfmt writes): the
 * catalogue is read whole into memory and looked up in a hash table of its
 * msgids, made when it is read (a server phrases thousands of sentences a
 * second; the file's own table is optional, so it is not relied on). Each language's catalogue is read once and kept: switching
 * languages (a server phrasing one event in French for one player and in
 * English for the next) points at the other one. */
#include "i18n/i18n.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/file.h"
#include "core/hashmap.h"
#include "core/paths.h"
#include "core/xalloc.h"

struct catalogue {
	char *data;
	size_t size;
	uint32_t n;
	uint32_t orig, trans;   /* offsets of the two tables */
	int swap;
	unsigned char *refused; /* per entry: 1 when its translation is not used */
	uint32_t nrefused;
	struct hashmap byid;    /* the entries by msgid */
	struct memo *memo;      /* the last msgids found, by their address */
};

/* A msgid found at an address: the next lookup of the same address
 * compares its text with the entry's msgid (a buffer may hold another text
 * by then) instead of measuring, hashing and probing. */
enum { MEMO_BITS = 10 };
struct memo {
	const char *key;        /* the address looked up */
	const char *msgid;      /* the entry's msgid, len bytes */
	uint32_t entry;
	uint32_t len;
};

/* The catalogues by language (speech layer state): how each was got, and
 * the one in force. */
enum { LANG_EN, LANG_FR, NLANGS };
enum { CAT_NONE, CAT_FILE, CAT_FAILED, CAT_BUFFER };
static struct catalogue cats[NLANGS];
static int cat_state[NLANGS];
static char cat_err[NLANGS][4300]; /* why a file could not be read (it names the path) */
static struct catalogue *cur = &cats[LANG_EN];
static char lang_now[8] = "en";

static uint32_t rd(const struct catalogue *c, uint32_t off)
{
	uint32_t v;
	memcpy(&v, c->data + off, 4);
	if (c->swap)
		v = (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
	return v;
}

static void drop(struct catalogue *c)
{
	free(c->data);
	free(c->refused);
	hashmap_free(&c->byid);
	free(c->memo);
	memset(c, 0, sizeof *c);
}

void i18n_release(void)
{
	for (int i = 0; i < NLANGS; i++) {
		drop(&cats[i]);
		cat_state[i] = CAT_NONE;
	}
}

/* ---- the printf directives of a message ----
 * Every message is a printf format somewhere, so a translation must ask for
 * the very arguments its msgid is given: the same type at each position.
 * It may leave out trailing ones (a plural form "one card" for "%d cards"),
 * never skip one in the middle, never add one. */

enum { FMT_MAX_ARGS = 16 };
enum fmt_type { FT_NONE, FT_INT, FT_LONG, FT_LLONG, FT_SIZE, FT_INTMAX, FT_PTRDIFF, FT_DOUBLE,
                FT_LDOUBLE, FT_STR, FT_PTR };

struct fmt {
	int nargs;                      /* highest position used */
	unsigned char type[FMT_MAX_ARGS + 1];  /* by position from 1; FT_NONE unused */
};

static int fmt_use(struct fmt *f, int pos, int type)
{
	if (pos < 1 || pos > FMT_MAX_ARGS)
		return -1;
	if (f->type[pos] != FT_NONE && f->type[pos] != type)
		return -1;
	f->type[pos] = (unsigned char)type;
	if (pos > f->nargs)
		f->nargs = pos;
	return 0;
}

/* Digits then '$': the position, else 0 (p unchanged). */
static int fmt_position(const char **p)
{
	const char *q = *p;
	int n = 0;
	while (*q >= '0' && *q <= '9' && n < 1000)
		n = n * 10 + (*q++ - '0');
	if (q == *p || *q != '$')
		return 0;
	*p = q + 1;
	return n;
}

/* The directives of s (len bytes, or up to a NUL): 0, or -1 when s is not
 * a format tapis could print safely. */
static int fmt_parse(const char *s, size_t len, struct fmt *f)
{
	memset(f, 0, sizeof *f);
	const char *end = s + strnlen(s, len);
	int next = 1, numbered = -1;
	for (const char *p = s; p < end; p++) {
		if (*p != '%')
			continue;
		if (++p >= end)
			return -1;
		if (*p == '%')
			continue;
		int pos = fmt_position(&p);
		if (numbered < 0)
			numbered = pos > 0;
		else if (numbered != (pos > 0))
			return -1;
		while (p < end && strchr("-+ #0'", *p))
			p++;
		/* Width and precision: digits, or '*' (an int argument). */
		for (int part = 0; part < 2; part++) {
			if (part == 1) {
				if (p >= end || *p != '.')
					break;
				p++;
			}
			if (p < end && *p == '*') {
				p++;
				int wpos = numbered ? fmt_position(&p) : next++;
				if (wpos <= 0 || fmt_use(f, wpos, FT_INT) < 0)
					return -1;
			} else {
				while (p < end && *p >= '0' && *p <= '9')
					p++;
			}
		}
		int len_mod = 0; /* 'H' hh, 'h', 'l', 'q' ll, 'z', 'j', 't', 'L' */
		if (p + 1 < end && p[0] == 'h' && p[1] == 'h') {
			len_mod = 'H';
			p += 2;
		} else if (p + 1 < end && p[0] == 'l' && p[1] == 'l') {
			len_mod = 'q';
			p += 2;
		} else if (p < end && strchr("hlzjtL", *p)) {
			len_mod = *p++;
		}
		if (p >= end)
			return -1;
		int type;
		switch (*p) {
		case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'c':
			if (*p == 'c' && len_mod)
				return -1;
			type = len_mod == 'l' ? FT_LONG : len_mod == 'q' ? FT_LLONG : len_mod == 'z' ? FT_SIZE
			     : len_mod == 'j' ? FT_INTMAX : len_mod == 't' ? FT_PTRDIFF : len_mod == 'L' ? -1 : FT_INT;
			break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
			type = len_mod == 'L' ? FT_LDOUBLE : (len_mod == 0 || len_mod == 'l') ? FT_DOUBLE : -1;
			break;
		case 's':
			type = len_mod ? -1 : FT_STR;
			break;
		case 'p':
			type = len_mod ? -1 : FT_PTR;
			break;
		default:   /* %n, %m and anything unknown */
			return -1;
		}
		if (type < 0)
			return -1;
		if (pos == 0)
			pos = next++;
		if (fmt_use(f, pos, type) < 0)
			return -1;
	}
	/* Numbered directives must name every position up to the last. */
	for (int i = 1; i <= f->nargs; i++)
		if (f->type[i] == FT_NONE)
			return -1;
	return 0;
}

/* 1 when the translation t asks for no more than the msgid gives. */
static int fmt_fits(const struct fmt *want, const struct fmt *t)
{
	if (t->nargs > want->nargs)
		return 0;
	for (int i = 1; i <= t->nargs; i++)
		if (t->type[i] != want->type[i])
			return 0;
	return 1;
}

/* Entry i of c: 1 when every form of its translation fits its msgid (and
 * the plural msgid, whichever asks for more). */
static int entry_fits(const struct catalogue *c, uint32_t i)
{
	uint32_t l1 = rd(c, c->orig + 8 * i), o1 = rd(c, c->orig + 8 * i + 4);
	uint32_t l2 = rd(c, c->trans + 8 * i), o2 = rd(c, c->trans + 8 * i + 4);
	const char *id = c->data + o1, *idend = id + l1;
	const char *eot = memchr(id, '\004', l1);
	if (eot)
		id = eot + 1;   /* after the context */
	struct fmt want, f;
	int idok = fmt_parse(id, (size_t)(idend - id), &want) == 0;
	const char *plural = memchr(id, '\0', (size_t)(idend - id));
	if (plural && plural + 1 < idend) {
		plural++;
		if (fmt_parse(plural, (size_t)(idend - plural), &f) < 0)
			idok = 0;
		else if (f.nargs > want.nargs)
			want = f;
	}
	if (!idok)
		memset(&want, 0, sizeof want);  /* not a format: no directive allowed */
	const char *t = c->data + o2, *tend = t + l2;
	while (t < tend) {
		size_t n = strnlen(t, (size_t)(tend - t));
		if (fmt_parse(t, n, &f) < 0 || !fmt_fits(&want, &f))
			return 0;
		t += n + 1;
	}
	return 1;
}

/* The msgid part of entry i (up to its first NUL: a plural msgid follows
 * it), and its length. */
static const char *msgid_of(const struct catalogue *c, uint32_t i, size_t *len)
{
	const char *s = c->data + rd(c, c->orig + 8 * i + 4);
	*len = strnlen(s, rd(c, c->orig + 8 * i));
	return s;
}

static const char *msgid_key(const void *ctx, uint32_t i, size_t *len)
{
	return msgid_of(ctx, i, len);
}

/* Make the hash table of c's msgids; 0, or -1 when c has too many. A msgid
 * found twice keeps its first entry, as the binary search of a sorted
 * file would find one of them. */
static int index_msgids(struct catalogue *c)
{
	if (hashmap_make(&c->byid, c->n, msgid_key, c) < 0)
		return -1;
	c->memo = xcalloc((size_t)1 << MEMO_BITS, sizeof *c->memo);
	return 0;
}

/* Check a catalogue read whole into c->data (malloc'd, c->size bytes) and
 * make it the one in force; on failure free the data and say why, naming
 * the catalogue `name`. */
static int adopt(struct catalogue *into, struct catalogue *c, const char *name, char *err, unsigned long errlen)
{
	if (c->size < 28) {
		free(c->data);
		return errf(err, errlen, "%s is not a catalogue", name);
	}
	uint32_t magic;
	memcpy(&magic, c->data, 4);
	if (magic == 0xde120495u)
		c->swap = 1;
	else if (magic != 0x950412deu) {
		free(c->data);
		return errf(err, errlen, "%s is not a catalogue", name);
	}
	c->n = rd(c, 8);
	c->orig = rd(c, 12);
	c->trans = rd(c, 16);
	if ((uint64_t)c->orig + 8ull * c->n > c->size || (uint64_t)c->trans + 8ull * c->n > c->size) {
		free(c->data);
		return errf(err, errlen, "%s is damaged", name);
	}
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t l1 = rd(c, c->orig + 8 * i), o1 = rd(c, c->orig + 8 * i + 4);
		uint32_t l2 = rd(c, c->trans + 8 * i), o2 = rd(c, c->trans + 8 * i + 4);
		/* Each string ends with a NUL inside the file: the lookups
		 * hand out the translations as C strings. */
		if ((uint64_t)o1 + l1 >= c->size || (uint64_t)o2 + l2 >= c->size || c->data[o1 + l1] ||
		    c->data[o2 + l2]) {
			free(c->data);
			return errf(err, errlen, "%s is damaged", name);
		}
	}
	/* A translation whose directives do not fit its msgid is never used:
	 * the English is said instead. */
	c->refused = xcalloc(c->n ? c->n : 1, 1);
	for (uint32_t i = 0; i < c->n; i++)
		if (!entry_fits(c, i)) {
			c->refused[i] = 1;
			c->nrefused++;
		}
	if (index_msgids(c) < 0) {
		free(c->data);
		free(c->refused);
		return errf(err, errlen, "%s has too many entries", name);
	}
	drop(into);
	*into = *c;
	return 0;
}

static int load(struct catalogue *into, const char *path, char *err, unsigned long errlen)
{
	struct catalogue c = { 0 };
	c.data = file_read_data(path, &c.size, err, errlen);
	if (!c.data)
		return -1;
	return adopt(into, &c, path, err, errlen);
}

unsigned long i18n_refused(void)
{
	return cur->nrefused;
}

int i18n_load_buffer(const void *data, unsigned long size, const char *name, char *err, unsigned long errlen)
{
	struct catalogue c = { 0 };
	c.data = xmalloc(size ? size : 1);
	c.size = size;
	if (size)
		memcpy(c.data, data, size);
	if (adopt(cur, &c, name, err, errlen) < 0)
		return -1;
	cat_state[cur - cats] = CAT_BUFFER;   /* the file is read again when asked for */
	return 0;
}

/* Read the catalogue of language i the first time it is asked for (a
 * failure is kept, its message in cat_err). 0 or -1. */
static int ensure(int i)
{
	if (cat_state[i] == CAT_FILE || cat_state[i] == CAT_BUFFER)
		return 0;
	if (cat_state[i] == CAT_FAILED)
		return -1;
	char path[PATHS_MAX];
	snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/tapis.mo", paths_localedir(), i == LANG_FR ? "fr" : "en");
	if (load(&cats[i], path, cat_err[i], sizeof cat_err[i]) < 0) {
		drop(&cats[i]);
		cat_state[i] = CAT_FAILED;
		return -1;
	}
	cat_state[i] = CAT_FILE;
	return 0;
}

static int lang_index(const char *lang)
{
	return lang && strncmp(lang, "fr", 2) == 0 ? LANG_FR : LANG_EN;
}

int i18n_set_lang(const char *lang, char *err, unsigned long errlen)
{
	int i = lang_index(lang);
	snprintf(lang_now, sizeof lang_now, "%s", i == LANG_FR ? "fr" : "en");
	cur = &cats[i];
	if (cat_state[i] == CAT_BUFFER)
		cat_state[i] = CAT_NONE; /* the file is read again */
	if (ensure(i) < 0)
		return errf(err, errlen, "%s", cat_err[i]);
	return 0;
}

/* The languages as values: a handle names one. */
struct i18n_lang {
	int i;
};
static const struct i18n_lang langs[NLANGS] = { { LANG_EN }, { LANG_FR } };

const struct i18n_lang *i18n_of(const char *lang)
{
	int i = lang_index(lang);
	ensure(i); /* unreadable: the English msgids are said */
	return &langs[i];
}

const char *i18n_code(const struct i18n_lang *l)
{
	return l ? (l->i == LANG_FR ? "fr" : "en") : lang_now;
}

const char *i18n_lang(void) { return lang_now; }

int i18n_lang_known(const char *lang)
{
	static const char *const known[NLANGS] = { [LANG_EN] = "en", [LANG_FR] = "fr" };
	for (int i = 0; lang && i < NLANGS; i++)
		if (strcmp(lang, known[i]) == 0)
			return 1;
	return 0;
}

const char *i18n_env_lang(void)
{
	const char *vars[] = { "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG" };
	for (int i = 0; i < 4; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return strncmp(v, "fr", 2) == 0 ? "fr" : "en";
	}
	return "en";
}

/* Index of key (keylen bytes, none of them a NUL) among the msgids of the
 * catalogue, or -1. */
static long find(const struct catalogue *c, const char *key, size_t keylen)
{
	if (!c->data || !c->byid.slot)
		return -1;
	return hashmap_find(&c->byid, key, keylen, msgid_key, c);
}

static const char *translation(const struct catalogue *c, long i, int form)
{
	if (c->refused[i])
		return NULL;
	uint32_t len = rd(c, c->trans + 8 * (uint32_t)i);
	const char *s = c->data + rd(c, c->trans + 8 * (uint32_t)i + 4);
	const char *end = s + len;
	for (int k = 0; k < form; k++) {
		const char *nul = memchr(s, '\0', (size_t)(end - s));
		if (!nul || nul + 1 >= end)
			break;
		s = nul + 1;
	}
	return *s ? s : NULL;
}

/* find() of a msgid (a C string), through the memo of its address. */
static long find_msgid(const struct catalogue *c, const char *msgid)
{
	if (!c->data || !c->byid.slot)
		return -1;
	struct memo *m = &c->memo[((uint64_t)(uintptr_t)msgid * 0x9e3779b97f4a7c15ull) >> (64 - MEMO_BITS)];
	/* The same text: equal up to the msgid's length, and ending there. */
	if (m->key == msgid && !strncmp(msgid, m->msgid, m->len) && msgid[m->len] == '\0')
		return (long)m->entry;
	size_t len = strlen(msgid);
	long i = find(c, msgid, len);
	if (i >= 0) {
		m->key = msgid;
		m->msgid = c->data + rd(c, c->orig + 8 * (uint32_t)i + 4);
		m->entry = (uint32_t)i;
		m->len = (uint32_t)len;
	}
	return i;
}

static const char *get(const struct catalogue *c, const char *msgid)
{
	if (!*msgid)
		return msgid;
	long i = find_msgid(c, msgid);
	const char *t = i >= 0 ? translation(c, i, 0) : NULL;
	return t ? t : msgid;
}

static const char *nget(const struct catalogue *c, int fr, const char *msgid, const char *plural, long n)
{
	int form = fr ? (n > 1) : (n != 1);
	long i = find_msgid(c, msgid);
	const char *t = i >= 0 ? translation(c, i, form) : NULL;
	if (t)
		return t;
	return n == 1 ? msgid : plural;
}

static const char *pget(const struct catalogue *c, const char *ctx, const char *msgid)
{
	/* The key is the context, EOT, the msgid (made without printf: the
	 * keys are looked up for every state a server sends). */
	char key[512];
	size_t nc = strlen(ctx), nm = strlen(msgid);
	if (nc + 1 + nm >= sizeof key)
		return msgid;
	memcpy(key, ctx, nc);
	key[nc] = '\004';
	memcpy(key + nc + 1, msgid, nm);
	long i = find(c, key, nc + 1 + nm);
	const char *t = i >= 0 ? translation(c, i, 0) : NULL;
	return t ? t : msgid;
}

const char *i18n_get(const char *msgid)
{
	return get(cur, msgid);
}

const char *i18n_nget(const char *msgid, const char *plural, long n)
{
	return nget(cur, strcmp(lang_now, "fr") == 0, msgid, plural, n);
}

const char *i18n_pget(const char *ctx, const char *msgid)
{
	return pget(cur, ctx, msgid);
}

const char *i18n_tr(const struct i18n_lang *l, const char *msgid)
{
	return l ? get(&cats[l->i], msgid) : i18n_get(msgid);
}

const char *i18n_ntr(const struct i18n_lang *l, const char *msgid, const char *plural, long n)
{
	return l ? nget(&cats[l->i], l->i == LANG_FR, msgid, plural, n) : i18n_nget(msgid, plural, n);
}

const char *i18n_ptr(const struct i18n_lang *l, const char *ctx, const char *msgid)
{
	return l ? pget(&cats[l->i], ctx, msgid) : i18n_pget(ctx, msgid);
}

int i18n_is_fr(const struct i18n_lang *l)
{
	return l ? l->i == LANG_FR : strcmp(lang_now, "fr") == 0;
}
