#!/bin/sh
# Saved games end to end: one save per game, never replaced behind the
# player's back; resumed from anywhere (the stacked packs are in the save);
# a save that is damaged, of another format, cut short or that does not
# replay is refused and left byte for byte as it was; a game that cannot be
# saved says so once and goes on; SIGINT, SIGTERM and SIGHUP end a game of
# bots at once with 128 + the signal, its save resumable.
build=${1:-build}
bin="$(cd "$(dirname "$build/tapis")" && pwd)/tapis"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config"
saves="$dir/state/tapis/saves"
fails=0
bad() { echo "saves scenario FAILED: $*"; fails=$((fails+1)); }
bots="--players 4 --seats bot,bot,bot,bot --text --no-sound"

# CRC-32 of a file (gzip's trailer holds it, little-endian).
crc32() { gzip -c <"$1" | tail -c 8 | od -An -tu1 | awk '{ printf "%08x\n", $1 + $2 * 256 + $3 * 65536 + $4 * 16777216 }'; }
# Rewrite every checksum of a save (after an edit made on purpose).
resign() { # in out
	: >"$dir/acc"; : >"$2"; inhdr=1
	while IFS= read -r line; do
		if [ $inhdr = 1 ]; then
			case "$line" in
			"header "*) printf 'header %s\n' "$(crc32 "$dir/acc")" >>"$2"; inhdr=0 ;;
			*) printf '%s\n' "$line" >>"$dir/acc"; printf '%s\n' "$line" >>"$2" ;;
			esac
		else
			rec=${line% *}
			printf '%s' "$rec" >>"$dir/acc"
			printf '%s %s\n' "$rec" "$(crc32 "$dir/acc")" >>"$2"
		fi
	done <"$1"
}
# The menu of the bare tapis with keys from a file; status in $st.
menu() { # keys, output file
	printf "$1" >"$dir/keys"
	"$bin" --text --no-sound <"$dir/keys" >"$2" 2>"$2.err"; st=$?
}
# A refused save: exit 2, a message, the file unchanged.
refused() { # what, expected words in the message
	cp "$saves/bourre.save" "$dir/before"
	menu '\033[B\r' "$dir/refused.out"
	[ "$st" = 2 ] || bad "$1: exit $st, wanted 2"
	grep -q "$2" "$dir/refused.out.err" || { bad "$1: no '$2' in the message"; sed 's/^/  | /' "$dir/refused.out.err"; }
	grep -q "cannot be resumed" "$dir/refused.out" || bad "$1: the player is not told"
	cmp -s "$dir/before" "$saves/bourre.save" || bad "$1: the save was changed"
}
# Start a game of bots, stop it with a signal; it must end within a second
# with 128 + the signal. Then resume it and stop it again (SIGTERM).
signal_case() { # signal name, number
	rm -f "$saves/bourre.save"
	"$bin" play bourre $bots --seed 9 --log "$dir/sig.jsonl" </dev/null >"$dir/sig.out" 2>"$dir/sig.err" &
	pid=$!
	sleep 0.5
	kill -"$1" "$pid"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done
	if kill -0 "$pid" 2>/dev/null; then
		bad "SIG$1: a game of bots still runs 3 seconds later"
		kill -9 "$pid"
	fi
	wait "$pid"; got=$?
	[ "$got" = $((128 + $2)) ] || bad "SIG$1: exit $got, wanted $((128 + $2))"
	[ "$(tail -c 2 "$dir/sig.jsonl" | od -An -c | tr -d ' ')" = '}\n' ] || bad "SIG$1: the hand history is not closed on a whole line"
	[ -s "$saves/bourre.save" ] || { bad "SIG$1: no save"; return; }
	printf '\033[B\r' >"$dir/keys"
	"$bin" --text --no-sound <"$dir/keys" >"$dir/sig2.out" 2>&1 &
	pid=$!
	sleep 0.5
	kill -TERM "$pid"
	wait "$pid"; got=$?
	[ "$got" = 143 ] || bad "SIG$1: the resumed game ended with $got, wanted 143"
	grep -q "Bourré resumed" "$dir/sig2.out" || { bad "SIG$1: the save does not resume"; sed 's/^/  | /' "$dir/sig2.out" | head -5; }
}

# Two games of different kinds: both saves are kept, the menu offers both.
printf 'H' | "$bin" play bourre --players 4 --seed 5 --text >"$dir/bourre1.out" 2>&1 || bad "bourre: exit $?"
printf 'H' | "$bin" play bouillabaisse --players 3 --seed 3 --text >/dev/null 2>&1 || bad "bouillabaisse: exit $?"
[ -s "$saves/bourre.save" ] || bad "the save of Bourré is gone"
[ -s "$saves/bouillabaisse.save" ] || bad "the save of La Bouillabaisse is missing"
menu '' "$dir/menu.out"
grep -q "Saved games. Resume La Bouillabaisse, 1 of 3" "$dir/menu.out" || bad "the menu does not offer both saves"

# A new game of a kind that has a save, with no terminal to ask: the save is
# kept byte for byte and the new game is played unsaved.
cp "$saves/bourre.save" "$dir/kept"
printf 'H' | "$bin" play bourre --players 4 --seed 6 --text >/dev/null 2>"$dir/kept.err" || bad "second bourre: exit $?"
cmp -s "$dir/kept" "$saves/bourre.save" || bad "play bourre replaced the save of Bourré"
grep -q "kept" "$dir/kept.err" || bad "play bourre does not say the save is kept"

# On a terminal (script(1) gives one), play asks first: going back keeps
# the save, replacing starts the new game's save, resuming goes on with it.
if command -v script >/dev/null 2>&1; then
	on_tty() { # keys, output, seed
		(sleep 1; printf "$1"; sleep 1; printf 'q'; sleep 0.3; printf 'y'; sleep 1) |
			timeout 20 script -qec "'$bin' play bourre --players 4 --seed $3 --text --no-sound" /dev/null >"$2" 2>&1
	}
	on_tty '\033[B\033[B\r' "$dir/tty1.out" 11
	grep -q "A game of Bourré is saved. Resume it, 1 of 3" "$dir/tty1.out" || bad "terminal: play does not ask"
	cmp -s "$dir/kept" "$saves/bourre.save" || bad "terminal: going back changed the save"
	on_tty '\r' "$dir/tty2.out" 12
	grep -q "Bourré resumed" "$dir/tty2.out" || bad "terminal: resume it"
	grep -q '^seed 5$' "$saves/bourre.save" || bad "terminal: resuming changed the game"
	cp "$saves/bourre.save" "$dir/kept"
	on_tty '\033[B\r' "$dir/tty3.out" 13
	grep -q '^seed 13$' "$saves/bourre.save" || bad "terminal: replace it"
	cp "$dir/kept" "$saves/bourre.save"
fi

# Resumed from the menu: the save goes on from where it was.
menu '\033[B\r' "$dir/resume.out"
[ "$st" = 0 ] || bad "resume: exit $st"
grep -q "Bourré resumed" "$dir/resume.out" || bad "resume: not resumed"
cmp -s -n "$(wc -c <"$dir/kept")" "$dir/kept" "$saves/bourre.save" || bad "resume rewrote the save"

# Stacked packs: the save holds the cards, so the game resumes from another
# directory after the deck file is gone.
mkdir -p "$dir/a" "$dir/b"
rm -f "$saves/bourre.save"
"$bin" play bourre $bots --seed 7 --hands 1 --log "$dir/deal.jsonl" >/dev/null 2>&1
sed -n '/"type":"hand_start"/{s/.*"pack":\[//;s/\].*//;s/[",]/ /g;p;q;}' "$dir/deal.jsonl" >"$dir/a/my.deck"
(cd "$dir/a" && printf 'H' | "$bin" play bourre --players 4 --seed 8 --deck my.deck --text >"$dir/deck1.out" 2>&1) ||
	bad "--deck game: exit $?"
grep -q '^pack ' "$saves/bourre.save" || bad "the save does not hold the stacked pack"
rm "$dir/a/my.deck"
(cd "$dir/b" && printf '\033[B\r' | "$bin" --text --no-sound >"$dir/deck2.out" 2>&1) || bad "resume elsewhere: exit $?"
grep -q "Bourré resumed" "$dir/deck2.out" || { bad "resume from another directory"; sed 's/^/  | /' "$dir/deck2.out" | head -5; }
hand1=$(sed -n 's/.*\(Your [0-9]* cards:.*\)/\1/p' "$dir/deck1.out" | head -1)
grep -qF "$hand1" "$dir/deck2.out" || bad "resume from another directory: not the stacked hand"

# Signals: every kind of game stops promptly, the save resumes.
signal_case INT 2
signal_case HUP 1
signal_case TERM 15
cp "$saves/bourre.save" "$dir/good.save"
lines=$(wc -l <"$dir/good.save")
[ "$lines" -gt 40 ] || bad "the interrupted game saved only $lines lines"

# A last line torn by a crash: the game resumes from the line before.
cp "$dir/good.save" "$saves/bourre.save"
printf 'action 1 pl' >>"$saves/bourre.save"
printf '\033[B\r' >"$dir/keys"
"$bin" --text --no-sound <"$dir/keys" >"$dir/torn.out" 2>&1 &
pid=$!; sleep 0.5; kill -INT "$pid"; wait "$pid"; got=$?
[ "$got" = 130 ] || bad "torn save: exit $got"
grep -q "Bourré resumed" "$dir/torn.out" || bad "torn save: not resumed"
grep -q "cut short" "$dir/torn.out" || bad "torn save: not said"
grep -q 'pl$' "$saves/bourre.save" && bad "torn save: the torn line is still there"

# Refused, each left as it was: cut in its header, another format, a line
# that does not match its checksum, an action that does not replay.
head -c 60 "$dir/good.save" >"$saves/bourre.save"
refused "save cut in its header" "cut short"
sed '1s/.*/tapis-save 3/' "$dir/good.save" >"$saves/bourre.save"
refused "unknown format" "format 3"
printf 'tapis-save 1\ngame bourre\nplayers 4\nseed 1\n' >"$saves/bourre.save"
refused "format 1" "format 1"
sed '30s/^action \([0-9]\) [a-z]*/action \1 xyzzy/' "$dir/good.save" >"$saves/bourre.save"
refused "damaged line" "checksum"
sed '30s/^action \([0-9]\) .* \([0-9a-f]*\)$/action \1 play AS \2/' "$dir/good.save" >"$dir/edited"
resign "$dir/edited" "$saves/bourre.save"
refused "an action that does not replay" ":30: '.* does not apply"

# A save whose game had ended (a crash between the last action written and
# the removal of the save): resuming says how the game ended, exits 0 and
# removes the save. The save is the header of a game of bots and every
# action of that game, from its hand history.
rm -f "$saves/bourre.save"
"$bin" play bourre $bots --seed 9 --hands 1 --log "$dir/ended.jsonl" </dev/null >"$dir/ended.play" 2>&1 ||
	bad "ended game: the game of bots exits $?"
printf 'Q' | "$bin" play bourre --players 4 --text --no-sound --seed 9 --hands 1 >/dev/null 2>&1
{
	sed -n '/^header /q; s/^seats .*/seats bot,bot,bot,bot/; p' "$saves/bourre.save"
	echo "header 0"
	grep '"type":"action"' "$dir/ended.jsonl" |
		sed 's/^{"type":"action","seq":[0-9]*,"seat":\([0-9]\),"action":"\([a-z]*\)"/action \1 \2/
		     s/,"amount":0}$//; s/,"amount":\([0-9]*\)}$/ \1/; s/,"card":"\([0-9A-Z]*\)"}$/ \1/
		     s/,"cards":\[\(.*\)\]}$/ \1/; s/[",]/ /g; s/  */ /g; s/ *}$//; s/ *$/ 0/'
} >"$dir/ended.raw"
resign "$dir/ended.raw" "$saves/bourre.save"
menu '\033[B\r' "$dir/ended.out"
[ "$st" = 0 ] || { bad "ended game: exit $st"; sed 's/^/  | /' "$dir/ended.out.err"; }
grep -q "had already ended" "$dir/ended.out" || { bad "ended game: not said"; sed 's/^/  | /' "$dir/ended.out" | tail -5; }
grep -q "^Game over" "$dir/ended.out" || bad "ended game: the result is not said"
[ -e "$saves/bourre.save" ] && bad "ended game: the save is left"

# No place to save: said once, the game goes on to its end.
env -u HOME -u XDG_STATE_HOME "$bin" play bourre $bots --seed 2 --hands 2 --log "$dir/nohome.jsonl" \
	</dev/null >"$dir/nohome.out" 2>&1 || bad "no home: exit $?"
[ "$(grep -c 'Game not saved: no home directory.' "$dir/nohome.out")" = 1 ] || bad "no home: not said once"
grep -q '"type":"game_end"' "$dir/nohome.jsonl" || bad "no home: the game did not go on"
# A relative XDG_STATE_HOME is ignored (the XDG specification): HOME's is used.
(cd "$dir/b" && printf 'H' | HOME="$dir/home" XDG_STATE_HOME=relative "$bin" play brelan --text >/dev/null 2>&1)
[ -e "$dir/b/relative" ] && bad "a relative XDG_STATE_HOME was used"
[ -s "$dir/home/.local/state/tapis/saves/brelan.save" ] || bad "relative XDG_STATE_HOME: not saved under HOME"
# A folder that cannot be made.
XDG_STATE_HOME=/dev/null/state "$bin" play bourre $bots --seed 2 --hands 2 --log "$dir/ro.jsonl" \
	</dev/null >"$dir/ro.out" 2>&1 || bad "unwritable: exit $?"
[ "$(grep -c 'Game not saved in /dev/null/state' "$dir/ro.out")" = 1 ] || bad "unwritable folder: not said once"
grep -q '"type":"game_end"' "$dir/ro.jsonl" || bad "unwritable folder: the game did not go on"
# A full disk (a file size limit fails writes the same way).
rm -f "$saves/bourre.save"
(ulimit -f 4; "$bin" play bourre $bots --seed 2 --hands 40 </dev/null 2>&1; echo $? >"$dir/full.rc") | cat >"$dir/full.out"
[ "$(cat "$dir/full.rc")" = 0 ] || bad "full disk: exit $(cat "$dir/full.rc")"
[ "$(grep -c 'Game no longer saved in' "$dir/full.out")" = 1 ] || bad "full disk: not said once"
[ "$(wc -l <"$dir/full.out")" -gt 400 ] || bad "full disk: the game did not go on"
[ -e "$saves/bourre.save" ] && bad "full disk: the save of a finished game is left"

[ "$fails" = 0 ]
