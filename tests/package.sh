#!/bin/sh
# The Debian packages, end to end: built from a copy of the tree
# (dpkg-buildpackage -us -uc -b), lintian-clean at the error and warning
# levels, installed on this machine, the server started as the package
# runs it (its unit under systemd; where systemd is not PID 1, the unit's
# ExecStart as its user, in the directories systemd would make), a game
# played against it with the installed tapis join, then removed (the store
# stays) and purged (the configuration goes; the store still stays, for the
# operator to delete).
# Slow (a whole build): CI runs it as a step of its own; tests/run.sh does
# not. Needs root (it installs packages); status 77 otherwise, and where the
# packages are installed already (it would remove them), except under CI=true.
# Usage: sh tests/package.sh [--keep]   (--keep: leave the built .debs in ./build-deb-out)
set -u
top=${TAPIS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}   # TAPIS_TOP: the tree, when this script runs from a copy
keep=0
[ "${1:-}" = --keep ] && keep=1
skip() { echo "package: $*"; [ "${CI:-}" = true ] && exit 1; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root: cannot install packages"
for t in dpkg-buildpackage lintian dh setpriv; do
	command -v $t >/dev/null 2>&1 || skip "$t missing (sh tools/deps.sh package)"
done
for p in tapis tapis-server tapis-data; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'installed'; then
		skip "$p is installed here already: this test would remove it"
	fi
done
tmp=$(mktemp -d)
pid=
state_made=0
[ -e /var/lib/tapis ] || state_made=1
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	dpkg -P tapis tapis-server tapis-data >/dev/null 2>&1
	[ "$state_made" = 1 ] && rm -rf /var/lib/tapis
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fails=0
bad() { echo "package FAILED: $*"; fails=$((fails+1)); }
t0=$(date +%s)
step() { echo "package: $* ($(($(date +%s) - t0)) s)"; }

# The tree as it stands (committed or not, nothing ignored), built apart.
mkdir "$tmp/src"
(cd "$top" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$tmp/src" ||
	{ echo "package FAILED: copying the tree"; exit 1; }
jobs=$(nproc 2>/dev/null || echo 2)
if ! (cd "$tmp/src" && DEB_BUILD_OPTIONS="parallel=$jobs nocheck" dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
	tail -n 30 "$tmp/build.log"
	echo "package FAILED: dpkg-buildpackage"
	exit 1
fi
step "built: $(cd "$tmp" && ls ./*.deb | tr '\n' ' ')"
if [ "$keep" = 1 ]; then
	mkdir -p "$top/build-deb-out" && cp "$tmp"/*.deb "$tmp"/*.changes "$top/build-deb-out/"
fi

# lintian: no error, no warning (information and pedantic tags are let be).
changes=$(ls "$tmp"/*.changes | head -n 1)
lintian --fail-on error,warning "$changes" >"$tmp/lintian" 2>&1 || { cat "$tmp/lintian"; bad "lintian"; }
grep -E '^[EW]: ' "$tmp/lintian" && bad "lintian has errors or warnings"

# What each package holds.
contents() { dpkg-deb -c "$tmp"/$1_*.deb | awk '{ print $NF }' | sed 's|^\./|/|'; }
for f in /usr/bin/tapis-server /lib/systemd/system/tapis.service /lib/systemd/system/tapis-backup.timer /usr/lib/sysusers.d/tapis.conf /etc/tapis/ \
	/usr/share/man/man8/tapis-server.8.gz /usr/share/doc/tapis-server/hosting.md.gz; do
	contents tapis-server | grep -qx "$f" || bad "tapis-server does not hold $f"
done
for f in /usr/games/tapis /usr/share/man/man6/tapis.6.gz; do
	contents tapis | grep -qx "$f" || bad "tapis does not hold $f"
done
for f in /usr/share/tapis/web/index.html /usr/share/tapis/locale/fr/LC_MESSAGES/tapis.mo; do
	contents tapis-data | grep -qx "$f" || bad "tapis-data does not hold $f"
done
contents tapis | grep -q '/bin/tapis-server$' && bad "tapis holds the server"
dpkg-deb -f "$tmp"/tapis-server_*.deb Depends | grep -qE 'espeak|openal|sndfile|speechd' && bad "tapis-server depends on a sound library"

# Installed with what they need (apt finds the libraries).
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "$tmp"/tapis-data_*.deb "$tmp"/tapis-server_*.deb "$tmp"/tapis_*.deb \
		>"$tmp/install.log" 2>&1; then
	tail -n 20 "$tmp/install.log"
	echo "package FAILED: apt-get install"
	exit 1
fi
step "installed"
getent passwd tapis >"$tmp/user" || bad "no user tapis after installation"
case "$(cut -d: -f6,7 "$tmp/user")" in
/var/lib/tapis:/usr/sbin/nologin|/var/lib/tapis:/sbin/nologin) ;;
*) bad "the user tapis: $(cat "$tmp/user")" ;;
esac
grep -q '^db = /var/lib/tapis/server.db' /etc/tapis/server.conf || bad "no /etc/tapis/server.conf"
dpkg-query --showformat='${Conffiles}' -W tapis-server | grep -q '/etc/tapis/server.conf' || bad "server.conf is not a conffile"
/usr/bin/tapis-server --version | grep -q '^tapis-server ' || bad "tapis-server --version"

# The server, as its unit runs it.
unit=/lib/systemd/system/tapis.service
port=7410
if [ -d /run/systemd/system ]; then
	# The package enabled and started it; it listens on 127.0.0.1:7410.
	i=0
	until systemctl is-active --quiet tapis || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done
	systemctl is-active --quiet tapis || { systemctl status tapis | tail -n 20; bad "tapis.service is not active"; }
	systemctl is-enabled --quiet tapis || bad "tapis.service is not enabled"
	runner=systemd
else
	# No systemd here: what the unit says, done by hand. Its directories
	# (StateDirectory=, mode 0700, the user's), its user, its umask, its
	# command with TAPIS_ARGS on a free port.
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	for d in $(sed -n 's/^StateDirectory=//p' "$unit"); do
		install -d -o tapis -g tapis -m 0700 "/var/lib/$d"
	done
	user=$(sed -n 's/^User=//p' "$unit")
	exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
	[ "$user" = tapis ] || bad "the unit's User= is '$user'"
	: >"$tmp/server.err"
	chmod 0666 "$tmp/server.err"
	TAPIS_ARGS="--port $port --bot-delay 0"
	# shellcheck disable=SC2086 # the unit's words, split as systemd does
	# setpriv execs the command itself: the signals reach the server.
	(umask 0077; cd / && exec setpriv --reuid="$user" --regid="$user" --init-groups --no-new-privs \
		env -i PATH=/usr/bin:/bin HOME=/var/lib/tapis \
		$(echo "$exec_start" | sed "s|\$TAPIS_ARGS|$TAPIS_ARGS|")) 2>>"$tmp/server.err" &
	pid=$!
	i=0
	until grep -q 'listening on' "$tmp/server.err" || [ $i -ge 200 ] || ! kill -0 "$pid" 2>/dev/null; do
		sleep 0.1; i=$((i+1))
	done
	grep -q 'listening on' "$tmp/server.err" || { sed 's/^/  | /' "$tmp/server.err"; bad "the server did not start"; }
	runner="ExecStart as $user"
fi
step "server started ($runner)"

# The game's package starts nothing and makes no user; the server's makes its user.
dpkg-deb -e "$tmp"/tapis_*.deb "$tmp/ctl-game"
[ -e "$tmp/ctl-game/postinst" ] && grep -q 'systemd\|sysusers' "$tmp/ctl-game/postinst" && bad "tapis's postinst starts or makes something"
dpkg-deb -e "$tmp"/tapis-server_*.deb "$tmp/ctl-server"
grep -q 'systemd-sysusers' "$tmp/ctl-server/postinst" || bad "tapis-server's postinst makes no user"

# A game at a table of the installed server, with the installed tapis join.
url="ws://127.0.0.1:$port"
mkdir -p "$tmp/home"
yes '' 2>/dev/null | head -n 300 | HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_STATE_HOME="$tmp/home/.state" \
	LANGUAGE= LC_ALL= LC_MESSAGES= LANG=C timeout 120 /usr/games/tapis join "$url" --name Ann --text --no-sound \
	--create bouillabaisse --rule hands=1 --start >"$tmp/out" 2>"$tmp/join.err"
st=$?
[ $st = 0 ] || { bad "tapis join: status $st"; sed 's/^/  | /' "$tmp/join.err" | head -n 5; }
for w in "La Bouillabaisse, 4 players." "Your turn." "You play the " "Game over."; do
	grep -qF "$w" "$tmp/out" || bad "the game never said '$w'"
done
step "a game played"

# Without --config, the installed program reads /etc/tapis/server.conf:
# its store is the one copied.
(cd / && setpriv --reuid=tapis --regid=tapis --init-groups env -i PATH=/usr/bin:/bin HOME=/var/lib/tapis \
	/usr/bin/tapis-server --backup /var/lib/tapis/backups/default.db) >"$tmp/default.out" 2>&1 ||
	{ cat "$tmp/default.out"; bad "tapis-server --backup without --config did not find the store of server.conf"; }
rm -f /var/lib/tapis/backups/default.db

# The daily backup, while the server runs: today's copy made, one older
# than TAPIS_BACKUP_DAYS deleted, a younger one kept.
bunit=/lib/systemd/system/tapis-backup.service
install -o tapis -g tapis -m 0600 /dev/null /var/lib/tapis/backups/server-2000-01-01.db
touch -d '30 days ago' /var/lib/tapis/backups/server-2000-01-01.db
install -o tapis -g tapis -m 0600 /dev/null /var/lib/tapis/backups/server-2000-01-02.db
touch -d '2 days ago' /var/lib/tapis/backups/server-2000-01-02.db
if [ "$runner" = systemd ]; then
	systemctl start tapis-backup.service || { journalctl -u tapis-backup -n 20 --no-pager; bad "systemctl start tapis-backup"; }
	systemctl is-enabled --quiet tapis-backup.timer || bad "tapis-backup.timer is not enabled"
else
	days=$(sed -n 's/^Environment=TAPIS_BACKUP_DAYS=//p' "$bunit")
	for key in ExecStart ExecStartPost; do
		line=$(sed -n "s/^$key=//p" "$bunit" | sed -e 's/\$\$/$/g' -e 's/%%/%/g' -e "s/\${TAPIS_BACKUP_DAYS}/$days/")
		# shellcheck disable=SC2086 # the unit's words, split as systemd does
		(umask 0077; cd / && eval "exec setpriv --reuid=tapis --regid=tapis --init-groups --no-new-privs $line") \
			>"$tmp/backup.out" 2>&1 || { cat "$tmp/backup.out"; bad "tapis-backup's $key"; }
	done
fi
[ -s "/var/lib/tapis/backups/server-$(date +%Y-%m-%d).db" ] || { ls -l /var/lib/tapis/backups; bad "no backup of today"; }
[ -e /var/lib/tapis/backups/server-2000-01-01.db ] && bad "an old backup was not pruned"
[ -e /var/lib/tapis/backups/server-2000-01-02.db ] || bad "a young backup was pruned"

# Stopped as systemd stops it (SIGTERM): every table saved, status 0.
if [ "$runner" = systemd ]; then
	systemctl stop tapis || bad "systemctl stop tapis"
	journalctl -u tapis -n 20 --no-pager | grep -q 'stopped, every table saved' || bad "the server did not stop cleanly"
else
	kill -TERM "$pid"
	wait "$pid"; st=$?
	pid=
	[ $st = 0 ] || bad "the server stopped with status $st"
	grep -q 'stopped, every table saved' "$tmp/server.err" || bad "the server did not stop cleanly"
fi
[ -s /var/lib/tapis/server.db ] || bad "no store in /var/lib/tapis"
[ "$(stat -c %U:%a /var/lib/tapis/server.db 2>/dev/null)" = tapis:600 ] || bad "the store is not the user's alone"
ls /var/lib/tapis/histories/*.jsonl >/dev/null 2>&1 || bad "no hand history in /var/lib/tapis/histories"

# Removed: the programs go, the store and the configuration stay.
dpkg -r tapis tapis-server tapis-data >"$tmp/remove.log" 2>&1 || { cat "$tmp/remove.log"; bad "dpkg -r"; }
[ -e /usr/bin/tapis-server ] && bad "tapis-server is still there after removal"
[ -s /var/lib/tapis/server.db ] || bad "removal lost the store"
[ -s /etc/tapis/server.conf ] || bad "removal took the configuration"
# Purged: the configuration goes too; the store is the operator's to delete.
dpkg -P tapis tapis-server tapis-data >"$tmp/purge.log" 2>&1 || { cat "$tmp/purge.log"; bad "dpkg -P"; }
[ -e /etc/tapis ] && bad "purging left /etc/tapis"
[ -s /var/lib/tapis/server.db ] || bad "purging deleted the store"
step "removed and purged"

[ "$fails" = 0 ] && echo "package: ok ($(($(date +%s) - t0)) s)"
[ "$fails" = 0 ]
