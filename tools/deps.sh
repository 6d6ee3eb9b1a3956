#!/bin/sh
# Install the Debian packages tapis needs to build, run and test, when some
# are missing. Needs root or password-less sudo to install; otherwise says
# what to install and stops.
# Usage: sh tools/deps.sh [tests] [ci] [coverage] [valgrind] [package]: what the game
# needs to build and run, plus what the tests need (Check, sox, Chromium and
# npm for the browser tests, Orca, at-spi2-core, speech-dispatcher, Xvfb,
# xdotool and D-Bus for the screen reader's, PostgreSQL for the store's, Redis, haproxy and
# curl for the cluster's, brltty and python3 for the braille display's,
# systemd's systemd-analyze for the unit's), the tools of CI
# (the tests' packages, clang, valgrind, gcovr, appstream, and what builds and
# checks the Debian packages), of `make coverage` (gcovr), of `make valgrind`,
# or of the Debian packages (dpkg-buildpackage, debhelper, lintian:
# tests/package.sh).
# The tests' own packages. The browser tests need node and npm (any node
# from 18 on): Debian's npm brings Debian's node when neither is there.
tests="check sox chromium postgresql redis-server haproxy curl brltty python3 orca at-spi2-core speech-dispatcher xvfb xdotool dbus systemd"
command -v npm >/dev/null 2>&1 || tests="$tests npm"
pkg="dpkg-dev debhelper lintian devscripts"
extra=""
for want in "$@"; do
	case "$want" in
	tests) extra="$extra $tests" ;;
	ci) extra="$extra $tests clang valgrind gcovr appstream $pkg" ;;
	coverage) extra="$extra gcovr" ;;
	valgrind) extra="$extra valgrind" ;;
	package) extra="$extra $pkg" ;;
	*) echo "usage: sh tools/deps.sh [tests] [ci] [coverage] [valgrind] [package]" >&2; exit 2 ;;
	esac
done

set -eu
pkgs="build-essential pkg-config gettext libespeak-ng-dev espeak-ng-data libopenal-dev libopenal1 libsndfile1-dev libspeechd-dev libwebsockets-dev libev-dev libjansson-dev libsqlite3-dev libpq-dev libsodium-dev libicu-dev libhiredis-dev libbrlapi-dev libinih-dev libsystemd-dev libssl-dev"
missing=""
for p in $pkgs $extra; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "tapis: installing the missing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	echo "tapis: run as root, or install them yourself: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing
