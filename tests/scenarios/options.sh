#!/bin/sh
# The options of every command come from one table (app/opts): `tapis CMD
# --help` and `-h` print that command's usage and exit 0, in the language
# of --lang or of the settings; an unknown option, a missing value or an
# abbreviated name is refused with exit status 2 and nothing is done.
build=${1:-build}
bin="$(cd "$(dirname "$build/tapis")" && pwd)/tapis"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config" LANGUAGE= LC_ALL= LC_MESSAGES= LANG=C
fails=0
bad() { echo "options scenario FAILED: $*"; fails=$((fails+1)); }
status() { # want, description, command...
	want=$1; what=$2; shift 2
	"$@" >"$dir/out" 2>"$dir/err" </dev/null
	got=$?
	[ "$got" = "$want" ] || { bad "$what: exit $got, wanted $want"; sed 's/^/  | /' "$dir/err" | head -3; }
}
for cmd in play rules keys bench replay serve join tournament; do
	for h in --help -h; do
		status 0 "$cmd $h" "$bin" $cmd $h
		grep -q "^Usage: tapis $cmd" "$dir/out" || bad "$cmd $h: no usage of $cmd"
		grep -q '^  -h, --help ' "$dir/out" || bad "$cmd $h: --help is not listed"
		[ -s "$dir/err" ] && bad "$cmd $h: something on standard error"
	done
	status 2 "$cmd unknown option" "$bin" $cmd --nosuch
	grep -q "^tapis $cmd: unknown option '--nosuch'" "$dir/err" || bad "$cmd: the unknown option is not named"
done
# Every option a command lists is one it takes (three positional arguments
# too many stop each run before it does anything).
for cmd in play rules keys replay serve join tournament bench; do
	"$bin" $cmd --help | sed -n 's/^  --\([a-z-]*\).*/\1/p' >"$dir/names"
	[ -s "$dir/names" ] || bad "$cmd: no option in its usage"
	while read -r name; do
		[ "$name" = help ] && continue
		"$bin" $cmd "--$name" 0 x y z >/dev/null 2>"$dir/err" </dev/null
		grep -q "unknown option" "$dir/err" && bad "$cmd --$name is listed but unknown"
	done <"$dir/names"
done
# In the language asked for, and in the settings' language.
status 0 "play --help --lang fr" "$bin" play --help --lang fr
grep -q '^Usage : tapis play' "$dir/out" || bad "play --help --lang fr: not in French"
grep -q 'nombre de joueurs' "$dir/out" || bad "play --help --lang fr: the options are not in French"
mkdir -p "$dir/config/tapis"
printf 'lang = fr\n' >"$dir/config/tapis/settings"
status 0 "serve --help (settings fr)" "$bin" serve --help
grep -q "l'adresse où écouter" "$dir/out" || bad "serve --help: the settings' language is not followed"
status 0 "tournament -h (settings fr)" "$bin" tournament -h
grep -q 'Usage : tapis tournament' "$dir/out" || bad "tournament -h: the settings' language is not followed"
rm -f "$dir/config/tapis/settings"
# Refusals: a missing value, an abbreviation, a value given to a flag, one
# positional argument too many; nothing is played.
status 2 "missing value" "$bin" play bourre --seed
status 2 "abbreviated option" "$bin" play bourre --seat bot,bot,bot --text
status 2 "value to a flag" "$bin" play bourre --text=yes
status 2 "two games" "$bin" play bourre brouc --text
status 2 "two logs" "$bin" replay a.jsonl b.jsonl
status 2 "bench URL without --net" "$bin" bench ws://127.0.0.1:1
status 2 "bench --clients without --net" "$bin" bench --clients 3
status 2 "serve positional" "$bin" serve extra
status 2 "serve --db and --store" "$bin" serve --db "$dir/a.db" --store "$dir/b.db"
status 2 "serve --backup of PostgreSQL" "$bin" serve --store postgresql://u@127.0.0.1:1/x --backup "$dir/b"
# A PostgreSQL store that cannot be reached: said, its password never.
status 1 "serve on no PostgreSQL" "$bin" serve --port 0 --store "postgresql://u:hidden-pw@127.0.0.1:1/x"
grep -q "hidden-pw" "$dir/err" && bad "serve --store: the password is shown"
grep -q "u:\*\*\*@127.0.0.1:1/x" "$dir/err" || bad "serve --store: the store is not named"
status 2 "join without URL" "$bin" join --name x
status 2 "tournament without levels" "$bin" tournament bourre
status 2 "tournament bad levels" "$bin" tournament bourre --levels 1,x
# Positional arguments keep their place among the options.
status 0 "game after the options" "$bin" play --players 3 --seats bot,bot,bot --hands 1 --seed 2 --text bourre
[ -s "$dir/out" ] || bad "game after the options: nothing said"
[ "$fails" = 0 ] && echo "options scenario: ok"
[ "$fails" = 0 ]
