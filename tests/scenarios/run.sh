#!/bin/sh
# End-to-end checks of the command-line contract (docs/tapis.6): whole games by
# bots in both languages, the hand history replayed, bad input refused with
# the right exit status and nothing played, piped keys at a human seat.
build=${1:-build}
bin="$build/tapis"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config"
fails=0
ok() { :; }
bad() { echo "scenario FAILED: $*"; fails=$((fails+1)); }
expect_status() { # want, description, command...
	want=$1; what=$2; shift 2
	"$@" >"$dir/out" 2>"$dir/err" </dev/null
	got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, wanted $want"; sed 's/^/  | /' "$dir/err" | head -5; }
}

# The games come from the program itself; none found is a failure (a
# missing or broken binary must not pass by playing nothing).
[ -f "$bin" ] || { echo "scenario FAILED: no program $bin"; exit 1; }
games=$("$bin" --help | sed -n 's/^Games: //p')
[ -n "$games" ] || { echo "scenario FAILED: $bin --help lists no game"; exit 1; }
played=0
for game in $games; do
	played=$((played+1))
	# A whole game by bots, text in both languages, with its hand history.
	n=$("$bin" --help | sed -n "s/^Rules of $game (\([0-9]*\)[- ].*/\1/p")
	[ "$n" -lt 3 ] && n=3
	[ "$game" = brouc ] && n=4
	seats=bot; i=1
	while [ $i -lt "$n" ]; do seats="$seats,bot"; i=$((i+1)); done
	for lang in en fr; do
		expect_status 0 "$game $lang bots" "$bin" play "$game" --players "$n" --seats "$seats" \
			--text --lang "$lang" --seed 7 --hands 2 --log "$dir/$game.$lang.jsonl"
		[ -s "$dir/out" ] || bad "$game $lang: nothing said"
		head -1 "$dir/$game.$lang.jsonl" | grep -q '"type":"game_start"' || bad "$game: no game_start"
		grep -q '"type":"game_end"\|"type":"hand_end"' "$dir/$game.$lang.jsonl" || bad "$game: no hand_end"
	done
	# Same seed, same game, whatever the language.
	cmp -s "$dir/$game.en.jsonl" "$dir/$game.fr.jsonl" || bad "$game: the log depends on the language"
	# Bad input: nothing played.
	expect_status 2 "$game unknown rule" "$bin" play "$game" --rule nosuch=1 --text
	expect_status 2 "$game bad players" "$bin" play "$game" --players 99 --text
	printf 'ZZ\n' >"$dir/bad.deck"
	expect_status 2 "$game bad deck" "$bin" play "$game" --deck "$dir/bad.deck" --text
	grep -q "bad.deck:1" "$dir/err" || bad "$game: bad deck message does not name the line"
	printf '0 dance\n' >"$dir/bad.actions"
	expect_status 2 "$game bad action word" "$bin" play "$game" --actions "$dir/bad.actions" --text
	expect_status 2 "$game missing deck" "$bin" play "$game" --deck "$dir/none" --text
done

expect_status 2 "unknown game" "$bin" play nosuch
expect_status 2 "unknown option" "$bin" play bouillabaisse --nosuch
expect_status 0 "help" "$bin" --help
expect_status 0 "version" "$bin" --version
expect_status 0 "keys" "$bin" keys
"$bin" --help | grep -q '^Games:.*bourre' && expect_status 0 "accents" "$bin" keys bourré

# A scripted action that is illegal: exit 3 naming the line.
if "$bin" --help | grep -q '^Games:.*bouillabaisse'; then
	printf '1 play 2C\n' >"$dir/wrong.actions"
	expect_status 3 "action for the wrong seat" "$bin" play bouillabaisse --players 4 --dealer 3 \
		--seats bot,bot,bot,bot --actions "$dir/wrong.actions" --text --seed 1
	grep -q "wrong.actions:1" "$dir/err" || bad "exit 3 message does not name the line"
	# Piped keys at the human seat: queries answered, then the end of input
	# ends the game as a confirmed Q would (status 0, game saved).
	rm -f "$dir/state/tapis/saves/bouillabaisse.save"
	printf 'CSTRFH\r' | "$bin" play bouillabaisse --players 3 --seed 3 --text >"$dir/keys.out" 2>&1
	[ $? = 0 ] || bad "piped keys: exit status"
	[ -s "$dir/state/tapis/saves/bouillabaisse.save" ] || bad "piped keys: game not saved"
fi

# Hand histories replayed (tapis replay): the bots' log of each game gives
# the same game again (exit 0), says what was said during play, and a
# game played with --deck too; a tampered copy does not replay (exit 3) and
# a broken one is refused (exit 2), both naming the line.
replayed=0
for game in $games; do
	replayed=$((replayed+1))
	log="$dir/$game.en.jsonl"
	[ -s "$log" ] || { bad "$game: no log to replay"; continue; }
	expect_status 0 "$game replay" "$bin" replay "$log"
	n=$(sed -n 's/.*"players":\([0-9]*\).*/\1/p' "$log" | head -1)
	seats=bot; i=1
	while [ $i -lt "$n" ]; do seats="$seats,bot"; i=$((i+1)); done
	"$bin" play "$game" --players "$n" --seats "$seats" --text --lang fr --seed 7 --hands 2 \
		>"$dir/play.txt" 2>/dev/null </dev/null
	expect_status 0 "$game replay --text" "$bin" replay "$log" --text --lang fr
	# Where play leaves a showdown's hands to L, the replay (no key there) says them.
	sed 's/^Abattage : .*/Abattage (L pour entendre les mains)./' "$dir/out" >"$dir/out.keys"
	cmp -s "$dir/out.keys" "$dir/play.txt" || bad "$game: replay --text does not say what play said"
	sed -n '/"type":"hand_start"/{s/.*"pack":\[//;s/\].*//;s/[",]/ /g;p;q;}' "$log" >"$dir/replay.deck"
	expect_status 0 "$game stacked play" "$bin" play "$game" --players "$n" --seats "$seats" --text \
		--seed 8 --hands 2 --deck "$dir/replay.deck" --log "$dir/stacked.jsonl"
	expect_status 0 "$game stacked replay" "$bin" replay "$dir/stacked.jsonl"
	sed '6d' "$log" >"$dir/tampered.jsonl"
	expect_status 3 "$game tampered log" "$bin" replay "$dir/tampered.jsonl"
	grep -q "tampered.jsonl:6:" "$dir/err" || bad "$game: the tampered line is not named"
	sed '4s/.*/{"type":/' "$log" >"$dir/broken.jsonl"
	expect_status 2 "$game broken log" "$bin" replay "$dir/broken.jsonl"
	grep -q "broken.jsonl:4:" "$dir/err" || bad "$game: the broken line is not named"
done
# Bourré on a strict table: a scripted renege (the 2 of hearts on a diamond
# lead, holding the 2 of diamonds) is played, goes into the hand history as
# a "renege" phase after its trick and a "renege" payment at the end of the
# deal, is told in both languages, and the log replays.
if "$bin" --help | grep -q '^Games:.*bourre'; then
	first="QD 2D AD 2C 2H 6D 3C 3H 7S 4C 4H 8S 5C 5H 9S"
	rest=
	for su in C D H S; do
		for r in 2 3 4 5 6 7 8 9 T J Q K A; do
			case " $first " in *" $r$su "*) ;; *) rest="$rest $r$su" ;; esac
		done
	done
	printf '%s%s\n' "$first" "$rest" >"$dir/strict.deck"
	printf '%s\n' "0 stay" "0 discard" "1 stay" "1 discard" "2 stay" "2 discard" \
		"0 play QD" "1 play 2H" "2 play AD" >"$dir/strict.actions"
	for lang in en fr; do
		expect_status 0 "bourre strict $lang" "$bin" play bourre --players 3 --dealer 2 \
			--seats bot,bot,bot --rule strict=yes --hands 1 --seed 5 --text --lang "$lang" \
			--deck "$dir/strict.deck" --actions "$dir/strict.actions" --log "$dir/strict.$lang.jsonl"
		cp "$dir/out" "$dir/strict.$lang.txt"
	done
	log="$dir/strict.en.jsonl"
	grep -q '"note":"renege","seat":1' "$log" || bad "bourre strict: no renege phase in the log"
	grep -q '"reason":"renege"' "$log" || bad "bourre strict: no renege payment in the log"
	grep -q 'Renege: [A-Z][a-z]* did not follow diamonds' "$dir/strict.en.txt" || bad "bourre strict: the renege is not told in English"
	grep -q 'Fausse renonce : [A-Z][a-zé]* n.a pas fourni à carreau' "$dir/strict.fr.txt" ||
		bad "bourre strict: the renege is not told in French"
	expect_status 0 "bourre strict replay" "$bin" replay "$log"
	expect_status 0 "bourre strict replay --text" "$bin" replay "$log" --text --lang fr
	cmp -s "$dir/out" "$dir/strict.fr.txt" || bad "bourre strict: replay --text does not say what play said"
fi

expect_status 2 "replay without a log" "$bin" replay
expect_status 2 "replay of a missing log" "$bin" replay "$dir/none.jsonl"

[ "$played" -gt 0 ] && [ "$replayed" = "$played" ] || bad "games played $played, replayed $replayed"
[ "$fails" = 0 ] && echo "scenarios: ok ($played games: $games)"
[ "$fails" = 0 ]
