#!/bin/sh
# tapis tournament from the command line (CLI.md "tournament"): the JSON
# object and the text report, the same figures for the same seed, each
# game's unit, and every bad option refused with status 2 and a message.
build=${1:-build}
bin="$build/tapis"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
bad() { echo "scenario FAILED: $*"; fails=$((fails+1)); }
# want, description, arguments of tapis tournament: the exit status.
run() {
	want=$1; what=$2; shift 2
	timeout -k 5 60 "$bin" tournament "$@" >"$dir/out" 2>"$dir/err" </dev/null
	got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, wanted $want"; sed 's/^/  | /' "$dir/err" | head -5; }
}
# The output holds this (fixed string).
has() { grep -qF -- "$2" "$dir/out" || bad "$1: no '$2' in: $(head -c 400 "$dir/out")"; }
# The message on standard error starts so and gives the usage.
refused() {
	what=$1; shift
	run 2 "$what" "$@"
	grep -q '^tapis tournament: ' "$dir/err" || bad "$what: no message: $(head -c 300 "$dir/err")"
	[ -s "$dir/out" ] && bad "$what: something on standard output"
}

# One JSON object with every key; the figures are the seed's.
run 0 "json" brelan --levels 1,0 --deals 4 --seed 3 --json
for k in '"game":"brelan"' '"a":1' '"b":0' '"deals":4' '"mean":' '"ci95_low":' '"ci95_high":' '"better":' \
         '"ms_per_decision_a":' '"ms_per_decision_b":'; do
	has "json" "$k"
done
[ "$(wc -l <"$dir/out")" = 1 ] || bad "json: not one line"
sed 's/,"ms_per.*//' "$dir/out" >"$dir/first"
run 0 "json again" brelan --levels 1,0 --deals 4 --seed 3 --json
sed 's/,"ms_per.*//' "$dir/out" | cmp -s - "$dir/first" || bad "json: another result for the same seed"
run 0 "json, levels swapped" brelan --levels 0,1 --deals 4 --seed 3 --json
has "json, levels swapped" '"a":0'

# The text report, in each game's unit.
run 0 "text" brelan --levels 1,0 --deals 2 --seed 3 --players 3
has "text" "brelan, 3 players: level 1 (A) against level 0 (B), 2 deals, each played twice with the seats swapped"
has "text" "A minus B, chips a deal: "
has "text" "better: "
has "text" "ms per decision: A "
run 0 "lower wins" bouillabaisse --levels 1,0 --deals 2 --seed 3
has "lower wins" "A minus B, points a deal (lower is better): "
run 0 "teams" brouc --levels 1,0 --deals 2 --seed 3 --budget 5 --rule hands=1
has "teams" "A minus B, deals won per thousand a deal: "

# Refusals.
refused "no game"
refused "option first" --levels 1,0
refused "unknown game" whist --levels 1,0
refused "no levels" brelan --deals 2
refused "one level" brelan --levels 1
refused "level not a number" brelan --levels 1,x
refused "level too high" brelan --levels 10,1
refused "players too few" brelan --levels 1,0 --players 1
refused "players not a number" brelan --levels 1,0 --players four
refused "one deal" brelan --levels 1,0 --deals 1
refused "no budget" brelan --levels 1,0 --budget 0
refused "seed not a number" brelan --levels 1,0 --seed x
refused "unknown option" brelan --levels 1,0 --fast yes
refused "a value missing" brelan --levels
refused "unknown rule" brelan --levels 1,0 --deals 2 --rule nosuch=1
refused "players the game refuses" brouc --levels 1,0 --deals 2 --players 3

[ "$fails" = 0 ]
