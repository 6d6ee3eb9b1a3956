#!/bin/sh
# Local play never waits for ever and never fails in silence: with several
# human seats and no terminal, the end of the input ends the game as a
# confirmed Q would (status 0, game saved) whichever human seat must act,
# and so does an --actions script for several human seats that runs out; a
# settings folder that cannot be written is said once (in the player's
# language) and play goes on; an empty item of --seats is a bad command
# line (status 2, the item named).
build=${1:-build}
bin="$(cd "$(dirname "$build/tapis")" && pwd)/tapis"
dir=$(mktemp -d)
trap 'chmod -R u+w "$dir" 2>/dev/null; rm -rf "$dir"' EXIT
export XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config" LANGUAGE= LC_ALL= LC_MESSAGES= LANG=C
saves="$dir/state/tapis/saves"
fails=0
bad() { echo "local scenario FAILED: $*"; fails=$((fails+1)); }
# A game that hangs is a failure, not a test that never ends.
limit() { timeout 60 "$@"; }

# Several human seats, the input at its end: whoever must act, the game
# ends saved. (Seeds where a human seat other than the first acts first.)
for run in "bot,bot,human,human 1" "human,bot,bot,human 2" "human,human,human,human 5"; do
	set -- $run
	rm -f "$saves/brouc.save"
	limit "$bin" play brouc --seats "$1" --seed "$2" --text </dev/null >"$dir/out" 2>"$dir/err"
	st=$?
	[ $st = 0 ] || { bad "seats $1 seed $2: exit $st"; sed 's/^/  | /' "$dir/err" | head -3; }
	[ -s "$saves/brouc.save" ] || bad "seats $1 seed $2: game not saved"
	grep -q '^Game saved\.' "$dir/out" || bad "seats $1 seed $2: 'Game saved.' not said"
done

# An --actions script for several human seats that runs out: the first
# moves of a bots' game, then the seat after them (not the first human's)
# must act.
rm -f "$saves/brouc.save"
"$bin" play brouc --seats bot,bot,bot,bot --seed 4 --hands 1 --log "$dir/bots.jsonl" --text </dev/null \
	>/dev/null 2>&1 || bad "bots' game: exit $?"
rm -f "$saves/brouc.save"
grep '"type":"action"' "$dir/bots.jsonl" | head -4 |
	sed 's/.*"seat":\([0-9]\),"action":"\([a-z]*\)","card":"\([0-9A-Z]*\)".*/\1 \2 \3/' >"$dir/all.actions"
head -3 "$dir/all.actions" >"$dir/three.actions"
next=$(sed -n '4s/ .*//p' "$dir/all.actions")
[ -n "$next" ] && [ "$next" != 0 ] || bad "actions: the fourth move is seat '$next's, not another human seat's"
limit "$bin" play brouc --seats human,human,human,human --seed 4 --actions "$dir/three.actions" --text \
	</dev/null >"$dir/out" 2>"$dir/err"
st=$?
[ $st = 0 ] || { bad "actions run out: exit $st"; sed 's/^/  | /' "$dir/err" | head -3; }
[ -s "$saves/brouc.save" ] || bad "actions run out: game not saved"

# A settings folder that cannot be written: said once, play goes on. Root
# writes in any folder: it gets one under /proc, where nothing is made.
mkdir -p "$dir/ro/tapis"
printf 'lang = en\n' >"$dir/ro/tapis/settings"
chmod 555 "$dir/ro/tapis"
conf="$dir/ro"
[ "$(id -u)" = 0 ] && conf=/proc/tapis-settings-$$
rm -f "$saves/brelan.save"
for lang in en fr; do
	printf '>>>>]\r' | XDG_CONFIG_HOME="$conf" limit "$bin" play brelan --seed 3 --text --lang $lang \
		>"$dir/ro.$lang" 2>&1
	st=$?
	[ $st = 0 ] || bad "read-only settings ($lang): exit $st"
	rm -f "$saves/brelan.save"
done
n=$(grep -c "^Settings not saved in $conf/tapis/settings" "$dir/ro.en")
[ "$n" = 1 ] || { bad "read-only settings: said $n times, not once"; tail -5 "$dir/ro.en" | sed 's/^/  | /'; }
grep -q 'Rate ' "$dir/ro.en" || bad "read-only settings: the keys after it are not answered"
n=$(grep -c "^Réglages non enregistrés dans $conf/tapis/settings" "$dir/ro.fr")
[ "$n" = 1 ] || { bad "read-only settings (fr): said $n times, not once"; tail -5 "$dir/ro.fr" | sed 's/^/  | /'; }
grep -q '^lang = en$' "$dir/ro/tapis/settings" || bad "read-only settings: the file changed"

# An empty item of --seats: refused before play, the item named.
for seats in "bot,,bot,bot,bot" ",bot,bot,bot" "bot,bot,bot,"; do
	"$bin" play brouc --seats "$seats" --text </dev/null >"$dir/out" 2>"$dir/err"
	st=$?
	[ $st = 2 ] || bad "--seats $seats: exit $st, wanted 2"
	grep -q 'item [0-9] is empty' "$dir/err" || bad "--seats $seats: the empty item is not named"
	[ -s "$dir/out" ] && bad "--seats $seats: something was played"
done
"$bin" join ws://127.0.0.1:1 --create brouc --seats open,,bot,bot </dev/null >"$dir/out" 2>"$dir/err"
st=$?
[ $st = 2 ] || bad "join --seats open,,bot,bot: exit $st, wanted 2"

[ "$fails" = 0 ] || exit 1
echo "local scenarios: several human seats, scripts run out, read-only settings, empty seats: ok"
