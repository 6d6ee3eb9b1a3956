#!/bin/sh
# tapis join --ca FILE: a server with a certificate of its own (made here,
# self-signed) is trusted through that file, and a whole game is played
# over wss://; without --ca it is refused, saying why in one line of
# tapis join's own, with no line of libwebsockets' log on the terminal.
build=${1:-build}
scenario="join --ca"
. "$(dirname "$0")/lib/served.sh"
if ! command -v openssl >/dev/null 2>&1; then
	echo "join --ca scenario: no openssl to make a certificate"
	[ "${CI:-}" = true ] && exit 1
	exit 77
fi
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -addext subjectAltName=DNS:localhost \
	-keyout "$dir/key.pem" -out "$dir/cert.pem" >/dev/null 2>&1 || { echo "join --ca scenario FAILED: openssl req"; exit 1; }

served_start 's/.*listening on wss:[^ ]*:\([0-9]*\).*/\1/p' --port 0 --db "$dir/server.db" --bot-delay 0 \
	--cert "$dir/cert.pem" --key "$dir/key.pem"
port=$served
if [ -z "$port" ]; then
	bad "the server did not say where it listens"; sed 's/^/  | /' "$dir/server.err"
else
	url="wss://localhost:$port"
	# Not trusted: refused, in tapis join's words alone.
	timeout 30 "$bin" join "$url" --name Ann --text --no-sound </dev/null >"$dir/out" 2>"$dir/err"; st=$?
	[ $st != 0 ] || bad "an untrusted certificate was taken"
	grep -q "^tapis join: $url" "$dir/err" || { sed 's/^/  | /' "$dir/err"; bad "the refusal does not say so"; }
	if grep -vq "^tapis join: " "$dir/err"; then
		bad "lines other than tapis join's on the terminal:"; sed 's/^/  | /' "$dir/err"
	fi
	# Trusted through --ca: a game.
	served_game "$url" --ca "$dir/cert.pem"
	st=$?
	[ $st = 0 ] || { bad "tapis join --ca: status $st"; sed 's/^/  | /' "$dir/join.err" | head -5; }
	grep -qF "Game over." "$dir/out" || bad "the game over wss:// never ended"
	[ -s "$dir/join.err" ] && { bad "tapis join --ca wrote on standard error:"; sed 's/^/  | /' "$dir/join.err" | head -5; }
fi
# A file that is not there is refused before anything.
"$bin" join wss://localhost:1 --ca "$dir/none.pem" </dev/null >/dev/null 2>"$dir/err"; st=$?
[ $st = 2 ] || bad "--ca with no such file: status $st, not 2"
grep -q -- "--ca: '$dir/none.pem'" "$dir/err" || bad "--ca with no such file is not named"
served_stop
served_end
