#!/bin/sh
# The server's systemd unit (data/tapis.service): systemd takes it
# (systemd-analyze verify), its hardening rates "OK" or better
# (systemd-analyze security, offline), and it keeps what the server needs
# of the system: /proc/meminfo (not ProcSubset=pid: the refusal of new
# connections while memory is short reads it) and the two calls of
# @resources with which the bots' and hints' threads go below the loop
# (setpriority, sched_setscheduler), which a plain ~@resources forbids.
# Status 77 (not counted) without systemd-analyze, except under CI=true.
# Usage: sh tests/unit.sh [BUILD]
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
case "$build" in /*) ;; *) build="$top/$build" ;; esac
if ! command -v systemd-analyze >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	echo "unit: systemd-analyze or python3 missing"
	[ "${CI:-}" = true ] && exit 1
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
bad() { echo "unit FAILED: $*"; fails=$((fails+1)); }

# The unit as installed, its program the build tree's (verify wants it to be there).
[ -x "$build/tapis-server" ] || { echo "unit FAILED: $build/tapis-server not built"; exit 1; }
sed "s|/usr/bin/tapis-server|$build/tapis-server|" "$top/data/tapis.service" >"$tmp/tapis.service"
grep -q "^ExecStart=$build/tapis-server " "$tmp/tapis.service" || bad "ExecStart does not run /usr/bin/tapis-server"
systemd-analyze verify --man=no "$tmp/tapis.service" >"$tmp/verify" 2>&1 || { cat "$tmp/verify"; bad "systemd-analyze verify"; }
[ -s "$tmp/verify" ] && { cat "$tmp/verify"; bad "systemd-analyze verify has something to say"; }

if ! systemd-analyze security --offline=yes --json=short "$tmp/tapis.service" >"$tmp/sec.json" 2>"$tmp/sec.err"; then
	cat "$tmp/sec.err"
	bad "systemd-analyze security"
else
	python3 - "$tmp/sec.json" >"$tmp/sec.out" <<'PY' || { cat "$tmp/sec.out"; bad "systemd-analyze security"; }
import json, sys
checks = {c["json_field"]: c for c in json.load(open(sys.argv[1]))}
bad = 0
def no(msg):
    global bad
    print(msg)
    bad = 1
if checks.get("ProcSubset", {}).get("set"):
    no("ProcSubset=pid hides /proc/meminfo from the server")
r = checks.get("SystemCallFilter_resources")
if r is None or r.get("set"):
    no("SystemCallFilter=~@resources forbids setpriority and sched_setscheduler")
for f in ("NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateDevices", "UserOrDynamicUser",
          "SystemCallFilter_privileged", "CapabilityBoundingSet_CAP_SYS_ADMIN"):
    if f in checks and not checks[f].get("set"):
        no("%s is not set" % checks[f]["name"])
sys.exit(bad)
PY
fi
# systemd's overall figure: 1.4 today, and never above 2.0.
systemd-analyze security --offline=yes "$tmp/tapis.service" >"$tmp/sec.txt" 2>&1
level=$(sed -n 's/.*Overall exposure level for tapis.service: \([0-9.]*\).*/\1/p' "$tmp/sec.txt")
if [ -z "$level" ]; then
	tail -n 3 "$tmp/sec.txt"
	bad "systemd-analyze security gave no overall exposure"
elif ! awk -v l="$level" 'BEGIN { exit !(l <= 2.0) }'; then
	grep '✗' "$tmp/sec.txt"
	bad "exposure $level, over 2.0"
fi
# The allow list that follows the deny list gives both calls back.
last=$(grep '^SystemCallFilter=' "$tmp/tapis.service" | tail -n 1)
for call in setpriority sched_setscheduler; do
	case " ${last#SystemCallFilter=} " in *" $call "*) ;; *) bad "the last SystemCallFilter= does not allow $call" ;; esac
done
grep -q '^ProcSubset=pid' "$tmp/tapis.service" && bad "ProcSubset=pid hides /proc/meminfo"

# The daily backup: systemd takes it, and its copy runs the installed
# program on the server's settings.
sed "s|/usr/bin/tapis-server|$build/tapis-server|" "$top/data/tapis-backup.service" >"$tmp/tapis-backup.service"
cp "$top/data/tapis-backup.timer" "$tmp/"
grep -q "^ExecStart=.*$build/tapis-server --config /etc/tapis/server.conf --backup " "$tmp/tapis-backup.service" ||
	bad "tapis-backup.service does not back up the server's store"
systemd-analyze verify --man=no "$tmp/tapis-backup.service" "$tmp/tapis-backup.timer" >"$tmp/verify" 2>&1 ||
	{ cat "$tmp/verify"; bad "systemd-analyze verify tapis-backup"; }
[ -s "$tmp/verify" ] && { cat "$tmp/verify"; bad "systemd-analyze verify tapis-backup has something to say"; }

[ "$fails" = 0 ] && echo "unit: ok (exposure $level)"
[ "$fails" = 0 ]
