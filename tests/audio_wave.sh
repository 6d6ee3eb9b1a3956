#!/bin/sh
# End to end: cues and speech rendered by OpenAL Soft's wave writer into a
# WAV file (no sound card), then `sox FILE -n stat` must find sound in it.
# Plays the start of a game of La Bouillabaisse with the espeak backend.
# Usage: sh tests/audio_wave.sh [BUILD]; exit 0 sound found, 77 no sox, else failed
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
# Without sox nothing is measured: a failure in CI, a skip (exit 77, which
# tests/run.sh does not count as passed) elsewhere.
if ! command -v sox >/dev/null 2>&1; then
	if [ "${CI:-}" = true ]; then
		echo "audio_wave: FAIL: no sox (CI=true; tools/deps.sh installs it)"
		exit 1
	fi
	echo "audio_wave: SKIP: no sox; install it with: apt-get install sox (or sh tools/deps.sh)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
wav="$tmp/out.wav"
cat > "$tmp/alsoft.conf" <<CONF
[general]
drivers = wave
[wave]
file = $wav
CONF
export ALSOFT_CONF="$tmp/alsoft.conf" ALSOFT_DRIVERS=wave
export TAPIS_DATADIR="${TAPIS_DATADIR:-$top}"
export TAPIS_LOCALEDIR="${TAPIS_LOCALEDIR:-$top/$build/locale}"

# A short game: a bot leads, then the end of input at the human seat ends
# it; speech at the fastest rate keeps the real-time wave writer quick.
mkdir -p "$tmp/config/tapis" "$tmp/state"
printf 'rate = 600\npause = 0\n' >"$tmp/config/tapis/settings"
how="tapis play bouillabaisse"
XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state" "$top/$build/tapis" play bouillabaisse \
	--players 3 --seats bot,bot,human --dealer 0 --seed 1 --speech espeak >"$tmp/play.out" 2>&1 </dev/null ||
	{ echo "audio_wave: FAIL: tapis exited with an error"; cat "$tmp/play.out"; exit 1; }
[ -s "$wav" ] || { echo "audio_wave: FAIL: OpenAL wrote no $wav ($how)"; exit 1; }
stat=$(sox "$wav" -n stat 2>&1)
len=$(echo "$stat" | awk '/^Length/ {print $3}')
rms=$(echo "$stat" | awk '/^RMS +amplitude/ {print $3}')
peak=$(echo "$stat" | awk '/^Maximum amplitude/ {print $3}')
ok=$(awk -v l="$len" -v r="$rms" -v p="$peak" 'BEGIN { print (l > 0.5 && r > 0.005 && p > 0.05) ? 1 : 0 }')
echo "audio_wave: $how: ${len}s, RMS $rms, peak $peak"
[ "$ok" = 1 ] || { echo "audio_wave: FAIL: no sound in the rendered file"; echo "$stat"; exit 1; }
echo "audio_wave: ok"
