#!/bin/sh
# Run every Check suite, then the end-to-end scenarios, the installed
# program, the rendered sound and the catalogues; print one closing line
# "suites: N passed, N failed". Every suite tests/check_X.c must have its
# binary, and every script is run with sh: nothing is skipped unseen.
# Usage: sh tests/run.sh [BUILD [ONLY]]: ONLY names suites (words, or
# "words,view"; `make check ONLY=words`), and only they are run.
build=${1:-build}
only=$(printf '%s' "${2:-}" | tr ',' ' ')
export TAPIS_DATADIR="$(pwd)"
export TAPIS_LOCALEDIR="$(pwd)/$build/locale"
export TAPIS_BIN="$(pwd)/$build/tapis"
pass=0; fail=0
# TAPIS_CHECK_QUICK=1: a second pass of the same tree by another compiler
# or under the sanitizers (.ci/run) leaves out what drives the program
# from outside at a person's pace and tests no C of its own beyond the
# first pass (the installed copy, the braille display); each is named
# as left out, never skipped unseen.
quick() { # name: 0 when left out of this pass
	[ "${TAPIS_CHECK_QUICK:-0}" = 1 ] || return 1
	echo "not in this pass (TAPIS_CHECK_QUICK=1): $1"
}
# Each result line says how long its suite took (from the last result),
# so that a slow suite is seen in CI's log.
t0=$(date +%s)
result() { # status, name; 77 is a script saying it could not run here
	t1=$(date +%s)
	case "$1" in
	0) pass=$((pass+1)); echo "passed: $2 ($((t1 - t0)) s)" ;;
	77) echo "SKIPPED (not counted): $2 ($((t1 - t0)) s)" ;;
	*) fail=$((fail+1)); echo "FAILED: $2 ($((t1 - t0)) s)" ;;
	esac
	t0=$(date +%s)
}
if [ -n "$only" ]; then
	for name in $only; do
		name=${name#check_}
		t="$build/tests/check_$name"
		if [ ! -f "tests/check_$name.c" ]; then result 1 "tests/check_$name.c (no such suite)"
		elif [ ! -f "$t" ]; then result 1 "$t (not built)"
		else "$t"; result $? "$t"; fi
	done
	echo "suites: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi
suites=0
for src in tests/check_*.c; do
	[ -f "$src" ] || continue
	suites=$((suites+1))
	t="$build/tests/$(basename "$src" .c)"
	if [ ! -f "$t" ]; then result 1 "$t (not built)"; continue; fi
	"$t"; result $? "$t"
done
[ "$suites" -gt 0 ] || result 1 "no Check suite in tests/"
# Every end-to-end scenario script (tests/scenarios/*.sh), run with sh.
scenarios=0
for s in tests/scenarios/*.sh; do
	[ -f "$s" ] || continue
	scenarios=$((scenarios+1))
	sh "$s" "$build"; result $? "$s"
done
[ "$scenarios" -gt 0 ] || result 1 "no scenario script in tests/scenarios/"
# Each script is a suite; a missing one is a failure, not a skip.
for s in tests/install.sh tests/unit.sh tests/audio_wave.sh tools/layers.sh tools/net-lang.sh tools/keydoc.sh; do
	if [ "$s" = tests/install.sh ] && quick "$s"; then continue; fi
	if [ -f "$s" ]; then sh "$s" "$build"; result $? "$s"; else result 1 "$s (missing)"; fi
done
# A deal of each game by braille alone on brltty's virtual display, and
# one at a server's table with tapis join
# (status 77, not counted, without brltty, except under CI=true).
quick tests/braille_vr.py ||
	{ python3 tests/braille_vr.py "$build" brouc,bouillabaisse,bourre,brelan,bouillotte join; result $? tests/braille_vr.py; }
# Every C file carries the licence line.
if [ -f tools/spdx.sh ]; then sh tools/spdx.sh --check; result $? tools/spdx.sh; else result 1 "tools/spdx.sh (missing)"; fi
# The web page in a real browser (status 77, not counted, when node or
# chromium is missing, except under CI=true).
sh tests/web.sh "$build"; result $? tests/web.sh
# The web page through Orca (tests/sr, `make check-sr`; status 77, not
# counted, when a tool is missing, except under CI=true); at a person's
# pace, so left out of the quick passes.
quick tests/sr/run.sh || { sh tests/sr/run.sh "$build"; result $? tests/sr/run.sh; }
# Every sentence in both catalogues, nothing untranslated or fuzzy.
if sh tools/po-missing.sh >/tmp/tapis-po.$$ 2>/dev/null; then result 0 catalogues; else cat /tmp/tapis-po.$$; result 1 catalogues; fi
rm -f /tmp/tapis-po.$$
pos=0
for po in locales/*.po; do
	[ -f "$po" ] || continue
	pos=$((pos+1))
	stats=$(msgfmt -c --statistics -o /dev/null "$po" 2>&1 | tail -n 1)
	case "$stats" in *untranslated*|*fuzzy*|*rror*) result 1 "$po: $stats" ;; *) result 0 "$po" ;; esac
done
[ "$pos" -gt 0 ] || result 1 "no catalogue in locales/"
echo "suites: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
