#!/bin/sh
# The server's configuration file (--config FILE, net/conf): the shipped
# data/server.conf with every commented default turned on is taken as it
# is, the command line overrides it (its host can't be listened on; the
# command line's can), and a bad key or value stops the server at its
# start, status 2, with the file's line named.
build=${1:-build}
scenario=conf
. "$(dirname "$0")/lib/served.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$server" ] || { echo "conf scenario FAILED: $server is not built"; exit 1; }

# The shipped file, in this directory (its sections as they are), every default given (not those
# that need a certificate, a PostgreSQL or a Redis), and a host nobody
# here can listen on (TEST-NET-1).
mkdir -p "$dir/lib/histories"
sed -e "s|/var/lib/tapis|$dir/lib|" -e 's/^#\([a-z-]* = \)/\1/' \
	-e '/^\(cert\|key\|store\|cluster\|node-id\) = /d' -e 's/^host = .*/host = 192.0.2.1/' \
	"$top/data/server.conf" >"$dir/server.conf"
n=$(grep -c '^[a-z-]* = ' "$dir/server.conf")
[ "$n" -ge 14 ] || bad "only $n settings in the shipped file"
"$server" --config "$dir/server.conf" --port 0 >/dev/null 2>"$dir/err" </dev/null; st=$?
[ $st = 1 ] || bad "a host that cannot be listened on: status $st, not 1"
grep -q 'cannot listen on 192.0.2.1' "$dir/err" || { sed 's/^/  | /' "$dir/err"; bad "the file's host was not taken"; }

# The command line's host wins, and the file's store is where it says;
# the command line's store replaces the file's (--store or --db).
: >"$dir/server.err"
"$server" --config "$dir/server.conf" --host 127.0.0.1 --port 0 2>>"$dir/server.err" &
pid=$!
i=0
until grep -q 'listening on' "$dir/server.err" || [ $i -ge 200 ] || ! kill -0 "$pid" 2>/dev/null; do
	sleep 0.05; i=$((i+1))
done
grep -q 'listening on ws://127.0.0.1:' "$dir/server.err" || { sed 's/^/  | /' "$dir/server.err"; bad "the command line's host was not taken"; }
kill -TERM "$pid" 2>/dev/null
wait "$pid"; st=$?
pid=
[ $st = 0 ] || bad "the server stopped with status $st"
[ -s "$dir/lib/server.db" ] || bad "no store at the file's db"
"$server" --config "$dir/server.conf" --backup "$dir/copy.db" >/dev/null 2>"$dir/err" </dev/null ||
	{ sed 's/^/  | /' "$dir/err"; bad "--backup of the file's db"; }
[ -s "$dir/copy.db" ] || bad "no backup of the file's db"
"$server" --config "$dir/server.conf" --store "$dir/other.db" --backup "$dir/copy2.db" >/dev/null 2>"$dir/err" </dev/null &&
	bad "--backup of a store that is not there succeeded"
grep -q 'other.db' "$dir/err" || { sed 's/^/  | /' "$dir/err"; bad "the command line's --store did not replace the file's db"; }

# --help reads no file.
"$server" --config "$dir/none.conf" --help >/dev/null 2>"$dir/err" </dev/null || bad "--help read the file"

# A bad key, a bad value: refused at the start, the line named.
printf '# a comment\n[server]\nport = 7410\n[limits]\nmax-cons = 5\n' >"$dir/bad.conf"
"$server" --config "$dir/bad.conf" >/dev/null 2>"$dir/err" </dev/null; st=$?
[ $st = 2 ] || bad "a bad key: status $st, not 2"
grep -q "bad.conf:5: max-cons: not a setting" "$dir/err" || { sed 's/^/  | /' "$dir/err"; bad "a bad key: the line is not named"; }
printf '[tables]\n\nturn-seconds = soon\n' >"$dir/bad.conf"
"$server" --config "$dir/bad.conf" >/dev/null 2>"$dir/err" </dev/null; st=$?
[ $st = 2 ] || bad "a bad value: status $st, not 2"
grep -q "bad.conf:3: turn-seconds: 'soon' is not a number" "$dir/err" || { sed 's/^/  | /' "$dir/err"; bad "a bad value: the line is not named"; }
printf '[server]\nmax-conns = 5\n' >"$dir/bad.conf"
"$server" --config "$dir/bad.conf" >/dev/null 2>"$dir/err" </dev/null; st=$?
[ $st = 2 ] || bad "a key in another section: status $st, not 2"
grep -q "bad.conf:2: max-conns: a setting of \[limits\], not of server" "$dir/err" || { sed 's/^/  | /' "$dir/err"; bad "a key in another section: not said"; }
"$server" --config "$dir/none.conf" >/dev/null 2>"$dir/err" </dev/null; st=$?
[ $st = 2 ] || bad "a missing file: status $st, not 2"
grep -q "none.conf: No such file" "$dir/err" || bad "a missing file is not named"

[ "$fails" = 0 ] && echo "conf scenario: ok ($n settings)" && exit 0
exit 1
