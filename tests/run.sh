#!/bin/sh
# Run every Check suite, then the end-to-end scenarios; print one closing
# line "N passed, N failed".
build=${1:-build}
export TAPIS_DATADIR="$(pwd)"
export TAPIS_LOCALEDIR="$(pwd)/$build/locale"
export TAPIS_BIN="$(pwd)/$build/tapis"
pass=0; fail=0
for t in "$build"/tests/check_*; do
	[ -x "$t" ] || continue
	case "$t" in *.o|*.d) continue ;; esac
	if "$t"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAILED: $t"; fi
done
if [ -x tests/scenarios/run.sh ]; then
	if sh tests/scenarios/run.sh "$build"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAILED: scenarios"; fi
fi
# Speech and cues rendered to a file by OpenAL's wave writer.
if sh tests/audio_wave.sh "$build"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAILED: audio_wave"; fi
# The web page in a real browser (skipped when node or chromium is missing,
# except under CI=true).
sh tests/web.sh "$build"; rc=$?
if [ "$rc" -eq 0 ]; then pass=$((pass+1)); elif [ "$rc" -eq 77 ]; then echo "SKIPPED: web"; else fail=$((fail+1)); echo "FAILED: web"; fi
# Every sentence in both catalogues, nothing untranslated or fuzzy.
if sh tools/po-missing.sh >/tmp/tapis-po.$$ 2>/dev/null; then pass=$((pass+1)); else fail=$((fail+1)); cat /tmp/tapis-po.$$; echo "FAILED: catalogues"; fi
rm -f /tmp/tapis-po.$$
for po in locales/*.po; do
	stats=$(msgfmt -c --statistics -o /dev/null "$po" 2>&1 | tail -n 1)
	case "$stats" in *untranslated*|*fuzzy*|*rror*) fail=$((fail+1)); echo "FAILED: $po: $stats" ;; *) pass=$((pass+1)) ;; esac
done
echo "suites: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
