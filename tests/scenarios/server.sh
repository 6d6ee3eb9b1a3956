#!/bin/sh
# tapis-server: `tapis serve` for a machine without sound. Its binary needs
# no sound, speech or X11 library (ldd names none of them), no object of
# net/ reaches one through others, it answers the
# same command line as `tapis serve` (--help, a bad option), and it serves
# a table: `tapis join` creates one, starts it and plays a whole game of La
# Bouillabaisse against its bots, then the server stops on SIGTERM with
# every table saved.
build=${1:-build}
scenario=server
. "$(dirname "$0")/lib/served.sh"

[ -x "$server" ] || { echo "server scenario FAILED: $server is not built"; exit 1; }

# No library of sound, speech or the X11 display (PulseAudio and ALSA come
# with OpenAL; X11 and xcb with them).
ldd "$server" >"$dir/ldd" 2>&1 || bad "ldd $server: status $?"
grep -q 'libc\.so' "$dir/ldd" || bad "ldd lists no libc: it read nothing"
if grep -iE 'espeak|openal|sndfile|speechd|pulse|asound|libX11|xcb' "$dir/ldd" >"$dir/sound"; then
	bad "tapis-server links a sound or display library:"; sed 's/^/  | /' "$dir/sound"
fi
# The main binary does link them (where they are installed): the test
# above could find them.
if ldd "$bin" | grep -qiE 'espeak|openal'; then :; else
	bad "ldd of tapis lists no espeak-ng nor OpenAL: the check above would see nothing"
fi

# No object of net/ reaches the speaker, even through others (tapis join's
# client and tapis bench --net included, which tapis-server does not
# link): from each, following the symbols it uses to the objects that
# define them, none is reached that calls espeak-ng, OpenAL, libsndfile or
# speech-dispatcher.
objs=$(ls "$build"/src/*/*.o 2>/dev/null)
if [ -z "$objs" ]; then
	bad "no object in $build/src"
else
	nm -A $objs 2>/dev/null | awk '
		{ f = $1; sub(/:.*/, "", f) }
		NF == 3 && $2 ~ /^[TDBRC]$/ { def[$3] = f }
		$(NF-1) == "U" { use[f] = use[f] " " $NF
			if ($NF ~ /^(espeak_|alc?[A-Z]|sf_|spd_)/) sound[f] = 1 }
		END {
			for (f in sound) nsound++
			if (!nsound) { print "nothing calls a sound library: the check sees nothing"; exit }
			for (start in use) {
				if (start !~ /\/src\/net\//) continue
				delete seen; n = 0; queue[++n] = start; seen[start] = ""
				for (i = 1; i <= n; i++) {
					f = queue[i]
					if (f in sound) {
						path = f; for (g = f; seen[g] != ""; g = seen[g]) path = seen[g] " -> " path
						print path; break
					}
					k = split(use[f], u, " ")
					for (j = 1; j <= k; j++) {
						g = def[u[j]]
						if (g != "" && !(g in seen)) { seen[g] = f; queue[++n] = g }
					}
				}
			}
		}' >"$dir/reach"
	if [ -s "$dir/reach" ]; then
		bad "net/ reaches the speaker:"; sed 's/^/  | /' "$dir/reach"
	fi
fi

# The command line of `tapis serve`.
"$server" --help >"$dir/help" 2>&1 || bad "--help: status $?"
"$bin" serve --help >"$dir/help.serve" 2>&1
cmp -s "$dir/help" "$dir/help.serve" || bad "--help differs from tapis serve --help"
"$server" --no-such-option >/dev/null 2>"$dir/err"; st=$?
[ $st = 2 ] || bad "a bad option: status $st, not 2"
"$server" --version | grep -q '^tapis-server ' || bad "--version"
# The settings' language, as tapis serve.
mkdir -p "$dir/config/tapis"
printf 'lang = fr\n' >"$dir/config/tapis/settings"
"$server" --help 2>&1 | grep -q "l'adresse où écouter" || bad "--help: the settings' language is not followed"
rm -f "$dir/config/tapis/settings"

# A game served: the server on a free port, a client at a new table.
served_start 's/.*listening on \(ws:[^ ]*\).*/\1/p' --port 0 --db "$dir/server.db" --bot-delay 0
url=$served
if [ -z "$url" ]; then
	bad "the server did not say where it listens"; sed 's/^/  | /' "$dir/server.err"
else
	served_game "$url"
	st=$?
	[ $st = 0 ] || { bad "tapis join: status $st"; sed 's/^/  | /' "$dir/join.err" | head -5; }
	for w in "La Bouillabaisse, 4 players." "Your turn." "You play the " "Game over."; do
		grep -qF "$w" "$dir/out" || bad "the game never said '$w'"
	done
fi
served_stop || bad "the server stopped with status $?"
grep -q 'stopped, every table saved' "$dir/server.err" || bad "the server did not stop cleanly"
served_end
