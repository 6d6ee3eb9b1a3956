#!/bin/sh
# A player's keys piped into `tapis play`: every query key of docs/keys.md
# gets its answer at a human seat, in both languages.
build=${1:-build}
bin="$(cd "$(dirname "$build/tapis")" && pwd)/tapis"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config"
fails=0
bad() { echo "keys scenario FAILED: $*"; fails=$((fails+1)); }
play() { # output, keys, arguments...
	out=$1; keys=$2; shift 2
	printf "$keys" | "$bin" play "$@" --text --no-sound >"$out" 2>"$out.err"
	[ $? = 0 ] || bad "$*: exit status"
}
said() { # output, pattern, what
	grep -q "$2" "$1" || { bad "$3: no '$2'"; sed 's/^/  | /' "$1" | tail -5; }
}

# N: the cards each player holds; L before any trick: none yet.
play "$dir/n.en" 'N' brouc --seed 4 --lang en
said "$dir/n.en" 'Bruno 8' "N in Le Brouc"
play "$dir/n.fr" 'N' brouc --seed 4 --lang fr
said "$dir/n.fr" 'Bruno 8' "N en français"
play "$dir/l.en" 'L' brouc --seed 4 --lang en
said "$dir/l.en" 'No trick taken yet' "L before any trick"
play "$dir/l.fr" 'L' brouc --seed 4 --lang fr
said "$dir/l.fr" 'Pas encore de pli' "L en français"
# L after a showdown of Le Brelan: the hands shown, folded ones too.
play "$dir/l.brelan" '\r\rL' brelan --seed 4 --lang en --hands 3
said "$dir/l.brelan" '^Last showdown: Claire: .*Denis, folded: ' "L after a showdown"

# Space marks a card for a discard only where one is coming: never in
# La Bouillotte, in Bourre when staying.
play "$dir/space.bouillotte" '\r \r' bouillotte --seed 21 --lang en
said "$dir/space.bouillotte" '^No discard now\.$' "Space in La Bouillotte"
grep -q 'to discard' "$dir/space.bouillotte" && bad "Space in La Bouillotte marks a card"
play "$dir/space.bourre" '\r\r \r' bourre --seed 5 --lang fr --hands 1
said "$dir/space.bourre" '^Valet de pique, à écarter\. 1 carte à écarter\.$' "Espace au Bourré"
said "$dir/space.bourre" '^Vous écartez 1 carte et recevez' "Entrée après Espace au Bourré"

[ "$fails" = 0 ] && echo "keys scenario: ok"
[ "$fails" = 0 ]
