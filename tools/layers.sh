#!/bin/sh
# The layers of src/ (docs/architecture.md): every `#include "DIR/..."` in
# src/ must point to the file's own directory or to one its layer may use;
# net/ and the phrasing, words/ (say, announce, talk_*, french), reach no
# speaker (neither audio/ nor the voice, speech/: the speech queue and its
# backends); and no two modules of one directory include
# each other, directly or through others (a module is NAME.c with NAME.h).
# src/net/ is rooms by role, each a folder with a floor of its own
# (net/wire at the bottom; net/store, net/server and net/cluster above it in
# that order; net/client beside them, on net/wire alone): a room includes
# its own headers and those of the rooms below it, and net/wire reaches no
# game (games/, bots/, core/game.h, and of app/ only app/log.h). A layer
# above net/ may use every room.
# Fails on any other include: there is no list of exceptions.
# Usage: sh tools/layers.sh   (run by make check)
set -eu
cd "$(dirname "$0")/.."

# Who may use whom. A directory not in this table fails the check until it
# is given a place here and in docs/architecture.md. "main" is src/*.c.
uses() {
	case "$1" in
	core) echo "" ;;
	games) echo "core" ;;
	bots) echo "core games" ;;
	i18n) echo "core" ;;
	audio) echo "core i18n" ;;
	words) echo "core games bots i18n" ;;
	speech) echo "core i18n audio words" ;;
	app) echo "core games bots i18n audio words speech" ;;
	net/wire) echo "core i18n app" ;;
	net/store) echo "core games bots i18n app net/wire" ;;
	net/server) echo "core games bots i18n words app net/wire net/store" ;;
	net/cluster) echo "core games bots i18n words app net/wire net/store net/server" ;;
	net/client) echo "core games bots i18n words app net/wire" ;;
	ui) echo "core games bots i18n audio words speech app net" ;;
	main) echo "core games bots i18n audio words speech app net ui" ;;
	*) return 1 ;;
	esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

files=$(find src -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort)
[ -n "$files" ] || { echo "layers: FAIL: no source file under src/"; exit 1; }
fails=0
nfiles=0; nincl=0
for f in $files; do
	nfiles=$((nfiles+1))
	rel=${f#src/}
	case "$rel" in net/*/*) layer=${rel%/*} ;; */*) layer=${rel%%/*} ;; *) layer=main ;; esac
	case "$rel" in net/*/*/*) echo "layers: FAIL: $f: a room of src/net/ holds no folder"; fails=$((fails+1)); continue ;; esac
	if ! may=$(uses "$layer"); then
		echo "layers: FAIL: src/$layer/ is in no layer: give it one in tools/layers.sh and docs/architecture.md"
		fails=$((fails+1))
		continue
	fi
	# "dir/name.h" and "../dir/name.h"; a bare "name.h" is the same directory
	# (or the generated config.h) and points nowhere else.
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		sed 's|^\(\.\./\)*||; s|^\./||' >"$tmp/incl"
	mod=${rel##*/}; mod=${mod%.*}
	while IFS= read -r inc; do
		case "$inc" in
		*/*) ;;
		config.h) continue ;;
		*) [ "$layer" != main ] && echo "$layer $mod ${inc%.h}" >>"$tmp/edges"; continue ;;
		esac
		nincl=$((nincl+1))
		to=${inc%%/*}
		case "$inc" in net/*/*) to=${inc%/*} ;; net/*)
			echo "layers: FAIL: $f includes $inc: src/net/ holds rooms only (net/ROOM/NAME.h)"
			fails=$((fails+1)); continue ;;
		esac
		# The speaker: what a server is built without (tapis-server), and
		# what the phrasing (words/) needs none of.
		case "$layer:$inc" in
		net/wire:app/log.h) ;;
		net/wire:games/*|net/wire:bots/*|net/wire:core/game.h|net/wire:app/*)
			echo "layers: FAIL: $f includes $inc: net/wire knows nothing of games"
			fails=$((fails+1))
			continue ;;
		net/*:audio/*|net/*:speech/*|words:audio/*|words:speech/*)
			echo "layers: FAIL: $f includes $inc: $layer/ reaches no speaker (audio/, speech/)"
			fails=$((fails+1))
			continue ;;
		esac
		if [ "$to" = "$layer" ]; then
			[ "$layer" != main ] && { n=${inc#"$layer"/}; echo "$layer $mod ${n%.h}" >>"$tmp/edges"; }
			continue
		fi
		ok=0
		for m in $may; do
			[ "$m" = "$to" ] && ok=1
			case "$m:$to" in net:net/*) ok=1 ;; esac
		done
		[ "$ok" = 1 ] && continue
		if uses "$to" >/dev/null; then
			echo "layers: FAIL: $f includes $inc: $layer may use only: ${may:-nothing}"
		else
			echo "layers: FAIL: $f includes $inc: src/$to/ is in no layer"
		fi
		fails=$((fails+1))
	done <"$tmp/incl"
done
[ "$nincl" -gt 0 ] || { echo "layers: FAIL: no include between directories found: the check reads nothing"; exit 1; }

# Circles between the modules of one directory. A module is NAME.c with
# NAME.h; a header without a .c of its own (audio_impl.h, talk.h) holds
# only declarations, and a module including it uses what it includes. An
# edge "dir from to" for every include of a header of the same directory
# (a file including its own header is none); a depth-first walk reports
# circles (at least one in each knot of modules).
touch "$tmp/edges"
for f in $files; do
	case "$f" in src/*/*.c) d=${f#src/}; echo "${d%/*} $(basename "$f" .c)" ;; esac
done >"$tmp/hasc"
circles=$(awk '
	FNR == NR { hasc[$1 SUBSEP $2] = 1; next }
	$2 != $3 { k = $1 SUBSEP $2; if (!((k, $3) in seen)) { seen[k, $3] = 1; out[k] = out[k] " " $3 } }
	# The modules m reaches at once: through headers without a .c.
	function reach(d, m, acc, visiting,    i, n, t, to) {
		n = split(out[d SUBSEP m], t, " ")
		for (i = 1; i <= n; i++) {
			to = t[i]
			if ((d SUBSEP to) in hasc) { if (index(acc, " " to " ") == 0) acc = acc to " " }
			else if (index(visiting, " " to " ") == 0) acc = reach(d, to, acc, visiting to " ")
		}
		return acc
	}
	function walk(d, m,    i, j, n, nx, k, path) {
		k = d SUBSEP m
		state[k] = 1; stack[++depth] = m
		n = split(edges[k], nx, " ")
		for (i = 1; i <= n; i++) {
			if (nx[i] == m) continue
			if (state[d SUBSEP nx[i]] == 1) {
				path = nx[i]
				for (j = depth; j >= 1 && stack[j] != nx[i]; j--) path = stack[j] " -> " path
				print "src/" d "/: " nx[i] " -> " path
			} else if (!state[d SUBSEP nx[i]])
				walk(d, nx[i])
		}
		depth--; state[k] = 2
	}
	END {
		for (k in hasc) { split(k, p, SUBSEP); edges[k] = reach(p[1], p[2], " ", " " p[2] " ") }
		for (k in hasc) { split(k, p, SUBSEP); if (!state[k]) walk(p[1], p[2]) }
	}
' "$tmp/hasc" "$tmp/edges" | LC_ALL=C sort -u)
nedges=$(awk '$2 != $3' "$tmp/edges" | sort -u | wc -l)
[ "$nedges" -gt 0 ] || { echo "layers: FAIL: no include between modules of one directory found: the circle check reads nothing"; exit 1; }
if [ -n "$circles" ]; then
	printf '%s\n' "$circles" | sed 's/^/layers: FAIL: a circle of includes in /'
	fails=$((fails + $(printf '%s\n' "$circles" | wc -l)))
fi

if [ "$fails" != 0 ]; then
	echo "layers: $fails problem(s); the layers are in docs/architecture.md"
	exit 1
fi
echo "layers: ok ($nfiles files, $nincl includes naming a directory, none pointing up; $nedges between modules of one directory, no circle)"
