#!/bin/sh
# Files and outputs from the command line: writes that fail stop the game
# with a message and a non-zero status; devices, FIFOs, NUL bytes and long
# lines are refused at once; numbers and arguments are strict; a file's
# control characters never reach the terminal; a hostile catalogue falls
# back to the English.
build=${1:-build}
bin="$build/tapis"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config"
fails=0
bad() { echo "scenario FAILED: $*"; fails=$((fails+1)); }
# want, description, command...: the exit status, within 20 seconds.
expect_status() {
	want=$1; what=$2; shift 2
	timeout -k 5 20 "$@" >"$dir/out" 2>"$dir/err" </dev/null
	got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, wanted $want"; sed 's/^/  | /' "$dir/err" | head -5; }
}
# The message on standard error says this.
expect_err() { grep -q -- "$2" "$dir/err" || { bad "$1: no '$2' in: $(head -c 300 "$dir/err")"; }; }
bots="--players 4 --seats bot,bot,bot,bot --seed 5 --text"

# Writes that fail.
if [ -w /dev/full ]; then
	expect_status 1 "log to a full disk" "$bin" play bourre $bots --hands 2 --log /dev/full
	expect_err "log to a full disk" "the hand history could not be written"
	# Standard output full: no endless game (no --hands), a message, status 1.
	timeout -k 5 20 "$bin" play bouillotte $bots >/dev/full 2>"$dir/err" </dev/null
	got=$?
	[ "$got" = 1 ] || bad "text to a full standard output: exit $got, wanted 1"
	expect_err "text to a full standard output" "could not be written to standard output"
	"$bin" --help >/dev/full 2>"$dir/err"
	[ $? = 1 ] || bad "--help to a full standard output: exit status"
	expect_err "--help to a full standard output" "standard output"
fi

# The hand history is on disk line by line: a game killed in the middle
# leaves a log that replays up to its last action.
mkfifo "$dir/keys"
("$bin" play bourre --players 4 --seats human,bot,bot,bot --seed 9 --text --log "$dir/killed.jsonl" \
	<"$dir/keys" >/dev/null 2>&1 &
 echo $! >"$dir/pid"; exec 3>"$dir/keys"; sleep 2; kill -9 "$(cat "$dir/pid")"; exec 3>&-) 2>/dev/null
wait 2>/dev/null
grep -q '"type":"deal"' "$dir/killed.jsonl" || bad "killed game: the log holds no deal"
expect_status 0 "killed game's log replays" "$bin" replay "$dir/killed.jsonl"

# Not regular files: refused at once, for every reader.
mkfifo "$dir/fifo"
expect_status 2 "deck /dev/zero" "$bin" play bourre $bots --deck /dev/zero
expect_err "deck /dev/zero" "not a regular file"
expect_status 2 "deck FIFO" "$bin" play bourre $bots --deck "$dir/fifo"
expect_status 2 "actions FIFO" "$bin" play bourre $bots --actions "$dir/fifo"
expect_err "actions FIFO" "not a regular file"
expect_status 2 "replay FIFO" "$bin" replay "$dir/fifo"
expect_status 2 "replay /dev/zero" "$bin" replay /dev/zero
truncate -s 17M "$dir/huge" 2>/dev/null && {
	expect_status 2 "huge deck" "$bin" play bourre $bots --deck "$dir/huge"
	expect_err "huge deck" "larger than 16 MiB"
	expect_status 2 "huge log" "$bin" replay "$dir/huge"
}
# A hand history past 16 MiB (6,500 deals of level-0 bots) is read a line
# at a time, from a file and from standard input.
timeout -k 5 60 "$bin" play bourre --players 4 --seats bot:0,bot:0,bot:0,bot:0 --seed 3 --hands 6500 \
	--speech none --no-sound --log "$dir/long.jsonl" >/dev/null 2>&1 </dev/null
[ "$(wc -c <"$dir/long.jsonl")" -gt 16777216 ] || bad "long log: not past 16 MiB"
expect_status 0 "long log" "$bin" replay "$dir/long.jsonl"
timeout -k 5 60 "$bin" replay - <"$dir/long.jsonl" >"$dir/out" 2>"$dir/err" &&
	grep -q "6500 deals" "$dir/out" || bad "long log from standard input: $(head -c 300 "$dir/err")"
cat "$dir/long.jsonl" | timeout -k 5 60 "$bin" replay - >"$dir/out" 2>"$dir/err" &&
	grep -q "6500 deals" "$dir/out" || bad "long log through a pipe: $(head -c 300 "$dir/err")"
rm -f "$dir/long.jsonl"

# A NUL byte ends nothing.
"$bin" play bourre $bots --hands 1 --log "$dir/good.jsonl" >/dev/null 2>&1 </dev/null
expect_status 0 "good log" "$bin" replay "$dir/good.jsonl"
{ cat "$dir/good.jsonl"; printf '\000{"type":"garbage"}\n'; } >"$dir/nul.jsonl"
expect_status 2 "log with a NUL byte" "$bin" replay "$dir/nul.jsonl"
expect_err "log with a NUL byte" "a NUL byte"
printf '0 pass\n\0001 dance\n' >"$dir/nul.actions"
expect_status 2 "actions with a NUL byte" "$bin" play bourre $bots --actions "$dir/nul.actions"

# Long lines are refused, not cut.
{ printf '0 pass'; printf '%600s' ''; printf ' garbage\n'; } >"$dir/long.actions"
expect_status 2 "long actions line" "$bin" play bourre $bots --actions "$dir/long.actions"
expect_err "long actions line" "long.actions:1: a line longer than"

# Numbers are strict; commands take no stray arguments.
expect_status 2 "seed with a space" "$bin" play bourre $bots --seed ' -5'
expect_status 2 "seed with a plus" "$bin" play bourre $bots --seed +5
expect_status 2 "seed too large" "$bin" play bourre $bots --seed 9223372036854775808
expect_status 2 "players with a space" "$bin" play bourre --players ' 4' --text
expect_status 2 "rule with a space" "$bin" play bourre $bots --rule 'hands= 2'
expect_status 2 "hands with a plus" "$bin" play bourre $bots --hands +2
expect_status 2 "keys extra" "$bin" keys bourre extra
expect_status 2 "keys two games" "$bin" keys bourre brouc
expect_status 0 "keys --lang" "$bin" keys bourre --lang fr
expect_status 0 "keys --lang first" "$bin" keys --lang fr bourre
expect_status 2 "keys --lang twice" "$bin" keys --lang fr --lang en
expect_status 2 "bench extra" "$bin" bench --json extra
expect_status 2 "bench unknown" "$bin" bench --nosuch
expect_status 2 "help extra" "$bin" --help extra
expect_status 2 "version extra" "$bin" --version extra

# Control characters of a file are escaped in messages.
printf '7S \033[2J\033]0;owned\007\n' >"$dir/esc.deck"
expect_status 2 "deck with escapes" "$bin" play bourre $bots --deck "$dir/esc.deck"
expect_err "deck with escapes" '\\x1b\[2J'
if tr -d '\n' <"$dir/err" | LC_ALL=C grep -q '[[:cntrl:]]'; then bad "deck with escapes: raw control characters in the message"; fi
printf '0 pl\033[2Jay AS\n' >"$dir/esc.actions"
expect_status 2 "actions with escapes" "$bin" play bourre $bots --actions "$dir/esc.actions"
if tr -d '\n' <"$dir/err" | LC_ALL=C grep -q '[[:cntrl:]]'; then bad "actions with escapes: raw control characters in the message"; fi
head -1 "$dir/good.jsonl" >"$dir/esc.jsonl"
printf '{"type":"action","seq":1,"seat":0,"action":"\033[2J"}\n' >>"$dir/esc.jsonl"
expect_status 2 "log with escapes" "$bin" replay "$dir/esc.jsonl"
if tr -d '\n' <"$dir/err" | LC_ALL=C grep -q '[[:cntrl:]]'; then bad "log with escapes: raw control characters in the message"; fi

# A hostile French catalogue: every translation asks for more arguments than
# its message gives (and %n). The game is told in English, and nothing
# crashes.
if command -v msgfmt >/dev/null 2>&1 && [ -f locales/fr.po ]; then
	mkdir -p "$dir/locale/fr/LC_MESSAGES"
	sed '/^msgstr/s/%[0-9$]*[sd]/%s%s%s%s%s%s%s%s%n/g' locales/fr.po >"$dir/hostile.po"
	if msgfmt -o "$dir/locale/fr/LC_MESSAGES/tapis.mo" "$dir/hostile.po" 2>/dev/null; then
		expect_status 0 "hostile catalogue" env TAPIS_LOCALEDIR="$dir/locale" "$bin" play bourre $bots --hands 1 --lang fr
		grep -q "chips\|jetons" "$dir/out" || bad "hostile catalogue: nothing said"
	else
		bad "hostile catalogue: msgfmt refused the test catalogue"
	fi
fi

[ "$fails" = 0 ]
