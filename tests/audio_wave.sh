#!/bin/sh
# End to end: cues and speech rendered by OpenAL Soft's wave writer into a
# WAV file (no sound card), then `sox FILE -n stat` must find sound in it.
# Plays through `tapis play bouillabaisse --seats bot,bot,bot,bot --hands 1
# --seed 1` when that game is there, else through `check_audio --wave`.
# Usage: sh tests/audio_wave.sh [BUILD]
set -eu
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
command -v sox >/dev/null 2>&1 || { echo "audio_wave: SKIP: no sox"; exit 0; }
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

how=""
if [ -x "$top/$build/tapis" ] && "$top/$build/tapis" play bouillabaisse --seats bot,bot,bot,bot \
	--hands 1 --seed 1 --speech espeak >"$tmp/play.out" 2>&1 </dev/null && [ -s "$wav" ]; then
	how="tapis play bouillabaisse"
else
	rm -f "$wav"
	"$top/$build/tests/check_audio" --wave
	how="check_audio --wave"
fi
[ -s "$wav" ] || { echo "audio_wave: FAIL: OpenAL wrote no $wav ($how)"; exit 1; }
stat=$(sox "$wav" -n stat 2>&1)
len=$(echo "$stat" | awk '/^Length/ {print $3}')
rms=$(echo "$stat" | awk '/^RMS +amplitude/ {print $3}')
peak=$(echo "$stat" | awk '/^Maximum amplitude/ {print $3}')
ok=$(awk -v l="$len" -v r="$rms" -v p="$peak" 'BEGIN { print (l > 1.0 && r > 0.005 && p > 0.05) ? 1 : 0 }')
echo "audio_wave: $how: ${len}s, RMS $rms, peak $peak"
[ "$ok" = 1 ] || { echo "audio_wave: FAIL: no sound in the rendered file"; echo "$stat"; exit 1; }
echo "audio_wave: ok"
