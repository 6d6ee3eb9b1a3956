# tapis: a plain Makefile. `make`, `make run`, `make check`, `make check-web`, `make bench`,
# `make asan`, `make coverage`, `make fuzz` (FUZZ_SECONDS), `make install`
# (PREFIX, DESTDIR).

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc
PKGS     = espeak-ng openal sndfile libwebsockets jansson sqlite3 libsodium
SPEECHD := $(shell pkg-config --exists speech-dispatcher 2>/dev/null && echo speech-dispatcher)

WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wformat=2 -Wno-format-nonliteral
CFLAGS  ?= -O2 -g
CPPFLAGS += -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc \
           -DTAPIS_VERSION='"$(VERSION)"' -DTAPIS_DATADIR='"$(PREFIX)/share/tapis"'
VERSION := 0.1.0

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) $(SPEECHD) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) $(SPEECHD) 2>/dev/null)
ifneq ($(SPEECHD),)
CPPFLAGS += -DHAVE_SPEECHD
endif
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

ALL_CFLAGS = $(WARN) $(CFLAGS) $(PKG_CFLAGS)
LDLIBS    += $(PKG_LIBS) -lm -lpthread

SRCS      := $(sort $(wildcard src/*/*.c src/*.c))
LIB_SRCS  := $(filter-out src/main.c,$(SRCS))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ  := $(BUILD)/src/main.o
TEST_SRCS := $(sort $(wildcard tests/check_*.c))
TEST_BINS := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
PO        := $(wildcard locales/*.po)
MO        := $(PO:locales/%.po=$(BUILD)/locale/%/LC_MESSAGES/tapis.mo)
BIN       := $(BUILD)/tapis

.PHONY: all run check check-web web-deps web-shots test tests deps bench asan coverage install uninstall clean pot valgrind fuzz fuzz-bins

all: $(BIN) $(MO)

# Install the Debian packages the build and the tests need, when missing and
# when we may (root, or sudo without a password).
deps:
	@sh tools/deps.sh

# The packages are installed first, then a fresh make finds them (pkg-config
# is read when make starts).
run: deps
	@$(MAKE) --no-print-directory all
	$(BIN) $(ARGS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libtapis.a: $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(MAIN_OBJ) $(BUILD)/libtapis.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/locale/%/LC_MESSAGES/tapis.mo: locales/%.po
	@mkdir -p $(dir $@)
	msgfmt -c --statistics -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(ALL_CFLAGS) $(CHECK_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/check_%: $(BUILD)/tests/check_%.o $(BUILD)/tests/testutil.o $(BUILD)/libtapis.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)
# The keys test drives tapis on a pseudo-terminal (forkpty).
$(BUILD)/tests/check_keys: LDLIBS += -lutil

# Every test suite, then the end-to-end scenarios; the tests find the
# catalogues and data through TAPIS_DATADIR.
check: deps web-deps
	@$(MAKE) --no-print-directory all tests
	@sh tests/run.sh $(BUILD)

# The browser tests of the web page alone (tests/web: Chromium driven by
# puppeteer-core, axe-core); their npm packages come from package-lock.json.
check-web: deps web-deps
	@$(MAKE) --no-print-directory all
	@TAPIS_DATADIR=$(CURDIR) TAPIS_LOCALEDIR=$(CURDIR)/$(BUILD)/locale TAPIS_WEB_SHOTS=$(TAPIS_WEB_SHOTS) \
	  sh tests/web.sh $(BUILD)

# The same, taking the screenshots of docs/ (web-lobby.png, web-table.png,
# web-table-large.png) anew.
web-shots:
	@$(MAKE) --no-print-directory TAPIS_WEB_SHOTS=docs check-web

web-deps:
	@if command -v npm >/dev/null 2>&1 && { [ ! -f tests/web/node_modules/.package-lock.json ] || \
	    [ tests/web/package-lock.json -nt tests/web/node_modules/.package-lock.json ]; }; then \
	  echo "npm ci in tests/web"; cd tests/web && npm ci --no-audit --no-fund --loglevel=error; fi

tests: $(TEST_BINS)

test: check

# The fuzz targets (tests/fuzz/fuzz_NAME.c) and their helpers. `make check`
# links them all (with the compiler of the build) into check_fuzz_corpus,
# which replays the seed corpus; `make fuzz` builds one libFuzzer binary a
# target with clang and runs each FUZZ_SECONDS on its corpus.
FUZZ_SRCS    := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES   := $(FUZZ_SRCS:tests/fuzz/fuzz_%.c=%)
FUZZ_HELPERS := $(BUILD)/tests/fuzz/common.o $(BUILD)/tests/fuzz/game_pick.o
FUZZ_OBJS    := $(FUZZ_SRCS:tests/%.c=$(BUILD)/tests/%.o) $(FUZZ_HELPERS) $(BUILD)/tests/fuzz/targets.o
FUZZ_SECONDS ?= 30
FUZZ_BUILD   ?= build-fuzz
FUZZ_FLAGS    = -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=undefined -DTAPIS_LIBFUZZER

$(BUILD)/tests/check_fuzz_corpus: $(BUILD)/tests/check_fuzz_corpus.o $(BUILD)/tests/testutil.o $(FUZZ_OBJS) $(BUILD)/libtapis.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

$(BUILD)/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_HELPERS) $(BUILD)/libtapis.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer,address,undefined $(LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-bins: $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

# Every target for FUZZ_SECONDS (FUZZ_NAMES="replay game" for some only),
# starting from its seed corpus; new inputs go to $(FUZZ_BUILD)/corpus/NAME,
# crashes to $(FUZZ_BUILD)/crashes/. Needs clang with libFuzzer.
fuzz:
	@command -v clang >/dev/null 2>&1 || { echo "tapis: make fuzz needs clang with libFuzzer (Debian: apt-get install clang)" >&2; exit 1; }
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang CFLAGS='$(FUZZ_FLAGS)' fuzz-bins
	@fail=0; for t in $(FUZZ_NAMES); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/crashes; \
	  dict=; [ -f tests/fuzz/$$t.dict ] && dict=-dict=tests/fuzz/$$t.dict; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  TAPIS_LOCALEDIR=$(BUILD)/locale $(FUZZ_BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/crashes/$$t- $$dict \
	    $(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t 2>$(FUZZ_BUILD)/$$t.log \
	    || { fail=1; echo "fuzz: $$t FAILED (see $(FUZZ_BUILD)/$$t.log)"; tail -n 30 $(FUZZ_BUILD)/$$t.log; }; \
	  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' $(FUZZ_BUILD)/$$t.log | tr '\n' ' '; echo; \
	done; exit $$fail

bench: deps
	@$(MAKE) --no-print-directory all
	$(BIN) bench
	$(BIN) bench --net --clients 40 --tables 10 --deals 2

asan:
	$(MAKE) BUILD=build-asan CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined' \
	        LDFLAGS='-fsanitize=address,undefined' check

coverage:
	$(MAKE) BUILD=build-cov CFLAGS='-O0 -g --coverage' LDFLAGS='--coverage' check

valgrind: all
	sh tests/valgrind.sh $(BUILD)

pot:
	xgettext --from-code=UTF-8 -k_ -kN_ -kP_:1,2 -kC_:1c,2 -c'TRANSLATORS' --package-name=tapis \
	         -o locales/tapis.pot $(SRCS)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/tapis/sounds $(DESTDIR)$(PREFIX)/share/man/man6
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/tapis
	install -m 644 sounds/*.wav $(DESTDIR)$(PREFIX)/share/tapis/sounds/
	for m in $(MO); do l=$${m#$(BUILD)/locale/}; install -d $(DESTDIR)$(PREFIX)/share/tapis/locale/$$(dirname $$l); \
	  install -m 644 $$m $(DESTDIR)$(PREFIX)/share/tapis/locale/$$l; done
	install -d $(DESTDIR)$(PREFIX)/share/tapis/web
	install -m 644 src/web/*.html src/web/*.css src/web/*.js $(DESTDIR)$(PREFIX)/share/tapis/web/
	install -d $(DESTDIR)$(PREFIX)/share/tapis/docs/rules
	install -m 644 docs/rules/*.md $(DESTDIR)$(PREFIX)/share/tapis/docs/rules/
	install -m 644 docs/tapis.6 $(DESTDIR)$(PREFIX)/share/man/man6/

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/tapis $(DESTDIR)$(PREFIX)/share/tapis $(DESTDIR)$(PREFIX)/share/man/man6/tapis.6

clean:
	rm -rf build build-asan build-cov build-fuzz

.SECONDARY:
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
