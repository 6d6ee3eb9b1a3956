/* A small reader of gettext .mo files (the format msgfmt writes): the
 * catalogue is read whole into memory and looked up by binary search on the
 * sorted msgids. Each language's catalogue is read once and kept: switching
 * languages (a server phrasing one event in French for one player and in
 * English for the next) points at the other one. */
#include "speech/i18n.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/paths.h"

struct catalogue {
	char *data;
	size_t size;
	uint32_t n;
	uint32_t orig, trans;   /* offsets of the two tables */
	int swap;
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
	memset(c, 0, sizeof *c);
}

void i18n_release(void)
{
	for (int i = 0; i < NLANGS; i++) {
		drop(&cats[i]);
		cat_state[i] = CAT_NONE;
	}
}

/* Check a catalogue read whole into c->data (malloc'd, c->size bytes) and
 * make it the one in force; on failure free the data and say why, naming
 * the catalogue `name`. */
static int adopt(struct catalogue *c, const char *name, char *err, unsigned long errlen)
{
	if (c->size < 28) {
		free(c->data);
		snprintf(err, errlen, "%s is not a catalogue", name);
		return -1;
	}
	uint32_t magic;
	memcpy(&magic, c->data, 4);
	if (magic == 0xde120495u)
		c->swap = 1;
	else if (magic != 0x950412deu) {
		free(c->data);
		snprintf(err, errlen, "%s is not a catalogue", name);
		return -1;
	}
	c->n = rd(c, 8);
	c->orig = rd(c, 12);
	c->trans = rd(c, 16);
	if ((uint64_t)c->orig + 8ull * c->n > c->size || (uint64_t)c->trans + 8ull * c->n > c->size) {
		free(c->data);
		snprintf(err, errlen, "%s is damaged", name);
		return -1;
	}
	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t l1 = rd(c, c->orig + 8 * i), o1 = rd(c, c->orig + 8 * i + 4);
		uint32_t l2 = rd(c, c->trans + 8 * i), o2 = rd(c, c->trans + 8 * i + 4);
		/* Each string ends with a NUL inside the file: the lookups
		 * hand out the translations as C strings. */
		if ((uint64_t)o1 + l1 >= c->size || (uint64_t)o2 + l2 >= c->size || c->data[o1 + l1] ||
		    c->data[o2 + l2]) {
			free(c->data);
			snprintf(err, errlen, "%s is damaged", name);
			return -1;
		}
	}
	drop(cur);
	*cur = *c;
	return 0;
}

static int load(const char *path, char *err, unsigned long errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "cannot read %s", path);
		return -1;
	}
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (size < 28) {
		fclose(f);
		snprintf(err, errlen, "%s is not a catalogue", path);
		return -1;
	}
	struct catalogue c = { 0 };
	c.data = malloc((size_t)size);
	c.size = (size_t)size;
	if (!c.data || fread(c.data, 1, c.size, f) != c.size) {
		fclose(f);
		free(c.data);
		snprintf(err, errlen, "cannot read %s", path);
		return -1;
	}
	fclose(f);
	return adopt(&c, path, err, errlen);
}

int i18n_load_buffer(const void *data, unsigned long size, const char *name, char *err, unsigned long errlen)
{
	struct catalogue c = { 0 };
	c.data = malloc(size ? size : 1);
	c.size = size;
	if (!c.data) {
		snprintf(err, errlen, "cannot read %s", name);
		return -1;
	}
	if (size)
		memcpy(c.data, data, size);
	if (adopt(&c, name, err, errlen) < 0)
		return -1;
	cat_state[cur - cats] = CAT_BUFFER;   /* the file is read again when asked for */
	return 0;
}

int i18n_set_lang(const char *lang, char *err, unsigned long errlen)
{
	int fr = strncmp(lang, "fr", 2) == 0;
	int i = fr ? LANG_FR : LANG_EN;
	snprintf(lang_now, sizeof lang_now, "%s", fr ? "fr" : "en");
	cur = &cats[i];
	if (cat_state[i] == CAT_FILE)
		return 0;
	if (cat_state[i] == CAT_FAILED) {
		snprintf(err, errlen, "%s", cat_err[i]);
		return -1;
	}
	char path[4200];
	snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/tapis.mo", paths_localedir(), lang_now);
	if (load(path, cat_err[i], sizeof cat_err[i]) < 0) {
		drop(cur);
		cat_state[i] = CAT_FAILED;
		snprintf(err, errlen, "%s", cat_err[i]);
		return -1;
	}
	cat_state[i] = CAT_FILE;
	return 0;
}

const char *i18n_lang(void) { return lang_now; }

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

/* Index of key (bytes up to its NUL, or the full key with its plural part)
 * in the catalogue, or -1. */
static long find(const char *key, size_t keylen)
{
	if (!cur->data)
		return -1;
	long lo = 0, hi = (long)cur->n - 1;
	while (lo <= hi) {
		long mid = (lo + hi) / 2;
		uint32_t len = rd(cur, cur->orig + 8 * (uint32_t)mid);
		const char *s = cur->data + rd(cur, cur->orig + 8 * (uint32_t)mid + 4);
		/* Compare the msgid part only (up to the first NUL). */
		size_t slen = strnlen(s, len);
		size_t m = slen < keylen ? slen : keylen;
		int c = memcmp(key, s, m);
		if (c == 0)
			c = (keylen > slen) - (keylen < slen);
		if (c == 0)
			return mid;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

static const char *translation(long i, int form)
{
	uint32_t len = rd(cur, cur->trans + 8 * (uint32_t)i);
	const char *s = cur->data + rd(cur, cur->trans + 8 * (uint32_t)i + 4);
	const char *end = s + len;
	for (int k = 0; k < form; k++) {
		const char *nul = memchr(s, '\0', (size_t)(end - s));
		if (!nul || nul + 1 >= end)
			break;
		s = nul + 1;
	}
	return *s ? s : NULL;
}

const char *i18n_get(const char *msgid)
{
	if (!*msgid)
		return msgid;
	long i = find(msgid, strlen(msgid));
	const char *t = i >= 0 ? translation(i, 0) : NULL;
	return t ? t : msgid;
}

static int plural_form(long n)
{
	return strcmp(lang_now, "fr") == 0 ? (n > 1) : (n != 1);
}

const char *i18n_nget(const char *msgid, const char *plural, long n)
{
	int form = plural_form(n);
	long i = find(msgid, strlen(msgid));
	const char *t = i >= 0 ? translation(i, form) : NULL;
	if (t)
		return t;
	return n == 1 ? msgid : plural;
}

const char *i18n_pget(const char *ctx, const char *msgid)
{
	char key[512];
	int len = snprintf(key, sizeof key, "%s\004%s", ctx, msgid);
	if (len < 0 || (size_t)len >= sizeof key)
		return msgid;
	long i = find(key, (size_t)len);
	const char *t = i >= 0 ? translation(i, 0) : NULL;
	return t ? t : msgid;
}
