#!/bin/sh
# End-to-end checks of the command-line contract (CLI.md): whole games by
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

for game in $("$bin" --help | sed -n 's/^Games: //p'); do
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
for game in $("$bin" --help | sed -n 's/^Games: //p'); do
	log="$dir/$game.en.jsonl"
	[ -s "$log" ] || { bad "$game: no log to replay"; continue; }
	expect_status 0 "$game replay" "$bin" replay "$log"
	n=$(sed -n 's/.*"players":\([0-9]*\).*/\1/p' "$log" | head -1)
	seats=bot; i=1
	while [ $i -lt "$n" ]; do seats="$seats,bot"; i=$((i+1)); done
	"$bin" play "$game" --players "$n" --seats "$seats" --text --lang fr --seed 7 --hands 2 \
		>"$dir/play.txt" 2>/dev/null </dev/null
	expect_status 0 "$game replay --text" "$bin" replay "$log" --text --lang fr
	cmp -s "$dir/out" "$dir/play.txt" || bad "$game: replay --text does not say what play said"
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
expect_status 2 "replay without a log" "$bin" replay
expect_status 2 "replay of a missing log" "$bin" replay "$dir/none.jsonl"

[ "$fails" = 0 ]
