#!/bin/sh
# Numbers below zero are said with a word ("minus 20", "moins 20"): a bare
# "-20" is read "20" by espeak-ng. Games of bots where totals go below zero
# (L'Homme de Brou, La Bouillabaisse's last round, Bourré's debts), in both
# languages: no announcement holds a minus sign before a digit.
build=${1:-build}
bin="$(cd "$(dirname "$build/tapis")" && pwd)/tapis"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config"
fails=0
bad() { echo "numbers scenario FAILED: $*"; fails=$((fails+1)); }
for lang in en fr; do
	"$bin" play brouc --seats bot,bot,bot,bot --rule variant=homme --seed 4 --text --lang "$lang" \
		>"$dir/brouc.$lang" 2>&1 </dev/null || bad "brouc $lang: exit $?"
	"$bin" play bouillabaisse --players 5 --seats bot,bot,bot,bot,bot --seed 1 --text --lang "$lang" \
		>"$dir/bouillabaisse.$lang" 2>&1 </dev/null || bad "bouillabaisse $lang: exit $?"
	"$bin" play bourre --players 5 --seats bot,bot,bot,bot,bot --rule chips=3 --hands 40 --seed 1 \
		--text --lang "$lang" >"$dir/bourre.$lang" 2>&1 </dev/null || bad "bourre $lang: exit $?"
done
# The case that was said with a bare sign: a game of L'Homme de Brou won
# against a total below zero.
grep -q 'win the game, 430 to minus 20: 4 parties\.' "$dir/brouc.en" || bad "brouc: the game won against minus 20"
grep -q 'gagnent, 430 à moins 20 : 4 parties\.' "$dir/brouc.fr" || bad "brouc: la partie gagnée contre moins 20"
for f in "$dir"/*.en "$dir"/*.fr; do
	grep -n -- '-[0-9]' "$f" | head -3 | sed "s|^|  $(basename "$f"): |"
	grep -q -- '-[0-9]' "$f" && bad "$(basename "$f"): a number said with a bare minus sign"
done
[ "$fails" = 0 ] && echo "numbers scenario: ok"
[ "$fails" = 0 ]
