#!/bin/sh
# The haproxy configuration of docs/cluster.md (data/haproxy-tapis.cfg),
# its addresses changed to two `tapis serve --cluster` nodes of our own on
# loopback (a redis-server of our own): through haproxy, the page is
# served; one node killed with kill -9, haproxy's check takes it out within
# a few seconds and every connection goes to the other. Exit 77 (skipped)
# without haproxy, redis-server or curl.
build=${1:-build}
bin="$(pwd)/$build/tapis"
cfg="$(pwd)/data/haproxy-tapis.cfg"
for p in haproxy redis-server curl; do
	command -v "$p" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin" command -v "$p" >/dev/null 2>&1 ||
		{ if [ "${CI:-}" = true ]; then echo "haproxy.sh: FAIL: no $p"; exit 1; fi
		  echo "haproxy.sh: SKIPPED: no $p"; exit 77; }
done
export PATH="$PATH:/usr/sbin"
dir=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill -9 "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
fails=0
bad() { echo "scenario FAILED: $*"; fails=$((fails+1)); }
# A loopback port nobody listens on.
free_port() {
	while :; do
		p=$(( $(od -An -N2 -tu2 /dev/urandom) % 30000 + 20000 ))
		ss -ltnH 2>/dev/null | grep -q "[:.]$p " || { echo "$p"; return; }
	done
}
rport=$(free_port)
redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" >"$dir/redis.log" 2>&1 &
pids="$pids $!"
# A node: its port read from its log.
node() {
	"$bin" serve --port 0 --db "$dir/$1.db" --cluster "redis://127.0.0.1:$rport" --node-id "$1" 2>"$dir/$1.log" &
	pids="$pids $!"
	eval "pid_$1=$!"
	i=0
	while [ $i -lt 100 ]; do
		port=$(sed -n 's/.*listening on ws:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$dir/$1.log" | head -n 1)
		[ -n "$port" ] && { eval "port_$1=$port"; return 0; }
		sleep 0.1; i=$((i+1))
	done
	bad "node $1 did not start: $(head -c 300 "$dir/$1.log")"
	exit 1
}
node north
node south
# The shipped file, its listening port and servers made ours. The free
# port may be taken by someone else before haproxy binds it: then again
# on another.
start_haproxy() {
	hport=$(free_port)
	sed -e "s/maxconn 100000/maxconn 1000/" -e "s/bind :7410/bind 127.0.0.1:$hport/" \
	    -e "s/server north 10.0.0.11:7410/server north 127.0.0.1:$port_north/" \
	    -e "s/server south 10.0.0.12:7410/server south 127.0.0.1:$port_south/" \
	    -e "/server east /d" "$cfg" >"$dir/haproxy.cfg"
	haproxy -c -f "$dir/haproxy.cfg" >"$dir/check.log" 2>&1 || bad "haproxy -c: $(head -c 300 "$dir/check.log")"
	haproxy -f "$dir/haproxy.cfg" -db >"$dir/haproxy.log" 2>&1 &
	hpid=$!
}
# GET / through haproxy, n times: each must be the node's page.
through() {
	k=0
	while [ $k -lt "$1" ]; do
		curl -s -m 2 "http://127.0.0.1:$hport/" | grep -q "<title>tapis</title>" || return 1
		k=$((k+1))
	done
}
tries=0
while :; do
	start_haproxy
	i=0
	until through 1; do
		i=$((i+1)); [ $i -lt 50 ] || break
		kill -0 "$hpid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$hpid" 2>/dev/null; then pids="$pids $hpid"; break; fi
	tries=$((tries+1))
	grep -q "Address already in use" "$dir/haproxy.log" && [ $tries -lt 5 ] ||
		{ bad "haproxy did not start: $(tail -c 300 "$dir/haproxy.log")"; exit 1; }
done
through 6 || bad "the page through haproxy, both nodes up"
# north killed: within a few seconds every request goes to south.
kill -9 "$pid_north"
i=0
until through 10; do i=$((i+1)); [ $i -lt 100 ] || break; sleep 0.1; done
through 10 || bad "the page through haproxy, north killed"
grep -q "north is DOWN" "$dir/haproxy.log" || bad "haproxy did not take north out: $(tail -c 300 "$dir/haproxy.log")"
[ "$fails" -eq 0 ]
