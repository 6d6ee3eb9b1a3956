#!/bin/sh
# The layers of src/ (docs/architecture.md): every `#include "DIR/..."` in
# src/ must point to the file's own directory or to one its layer may use.
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
	speech) echo "core games bots i18n audio" ;;
	app) echo "core games bots i18n audio speech" ;;
	net) echo "core games bots i18n audio speech app" ;;
	ui) echo "core games bots i18n audio speech app net" ;;
	main) echo "core games bots i18n audio speech app net ui" ;;
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
	case "$rel" in */*) layer=${rel%%/*} ;; *) layer=main ;; esac
	if ! may=$(uses "$layer"); then
		echo "layers: FAIL: src/$layer/ is in no layer: give it one in tools/layers.sh and docs/architecture.md"
		fails=$((fails+1))
		continue
	fi
	# "dir/name.h" and "../dir/name.h"; a bare "name.h" is the same directory
	# (or the generated config.h) and points nowhere else.
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		sed 's|^\(\.\./\)*||; s|^\./||' >"$tmp/incl"
	while IFS= read -r inc; do
		case "$inc" in */*) ;; *) continue ;; esac
		nincl=$((nincl+1))
		to=${inc%%/*}
		[ "$to" = "$layer" ] && continue
		ok=0
		for m in $may; do [ "$m" = "$to" ] && ok=1; done
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

if [ "$fails" != 0 ]; then
	echo "layers: $fails problem(s); the layers are in docs/architecture.md"
	exit 1
fi
echo "layers: ok ($nfiles files, $nincl includes naming a directory, none pointing up)"
