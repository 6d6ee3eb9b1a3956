#!/bin/sh
# A whole bot game of every game under valgrind: any memory error or a
# definite or indirect leak fails (valgrind exits 9), and so does finding no
# game to play or a game that exits with an error of its own.
# Usage: sh tests/valgrind.sh [BUILD]
build=${1:-build}
bin="$build/tapis"
command -v valgrind >/dev/null 2>&1 || { echo "valgrind: FAIL: no valgrind (apt-get install valgrind)"; exit 1; }
[ -f "$bin" ] || { echo "valgrind: FAIL: no program $bin"; exit 1; }
games=$("$bin" --help | sed -n 's/^Games: //p')
[ -n "$games" ] || { echo "valgrind: FAIL: $bin --help lists no game"; exit 1; }
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export TAPIS_DATADIR="${TAPIS_DATADIR:-$top}" TAPIS_LOCALEDIR="${TAPIS_LOCALEDIR:-$top/$build/locale}"
export XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state"
status=0; n=0
for game in $games; do
	n=$((n+1))
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9 --log-file="$tmp/$game.vg" \
		"$bin" play "$game" --players 4 --seats bot,bot,bot,bot --text --hands 1 --seed 5 \
		>"$tmp/$game.out" 2>"$tmp/$game.err" </dev/null
	rc=$?
	if [ "$rc" != 0 ] || [ -s "$tmp/$game.vg" ] || [ ! -s "$tmp/$game.out" ]; then
		echo "valgrind: FAIL: $game (exit $rc)"
		cat "$tmp/$game.vg" "$tmp/$game.err" | head -n 40
		status=1
	else
		echo "valgrind: $game ok ($(wc -l <"$tmp/$game.out") lines)"
	fi
done
echo "valgrind: $n games"
exit $status
