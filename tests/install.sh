#!/bin/sh
# `make install` into a fresh temporary PREFIX (DESTDIR unset), then the
# installed program, started from another directory with no TAPIS_DATADIR,
# must find its own data there: the rules, the catalogues, a played game.
# Builds in BUILD-install (same compiler and flags as the calling make), so
# the build tree under test keeps its own PREFIX.
# Usage: sh tests/install.sh [BUILD]
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
prefix="$tmp/prefix"
fails=0
bad() { echo "install FAILED: $*"; fails=$((fails+1)); }

unset DESTDIR TAPIS_DATADIR TAPIS_LOCALEDIR
# Only what the calling make was given (CC, CFLAGS...) goes on, not its
# jobserver; the sub-make runs on one core.
MAKEFLAGS=$(printf '%s' "${MAKEFLAGS:-}" | sed 's/--jobserver-[a-z]*=[^ ]*//g; s/ -j[0-9]*//g; s/^j[0-9]* *//')
export MAKEFLAGS
if ! make -C "$top" --no-print-directory BUILD="$build-install" PREFIX="$prefix" install \
		>"$tmp/make.log" 2>&1; then
	tail -n 20 "$tmp/make.log"
	echo "install FAILED: make install PREFIX=$prefix"
	exit 1
fi

# What make install promises.
for f in bin/tapis bin/tapis-server share/man/man6/tapis.6 share/doc/tapis/keys.md share/doc/tapis/LICENSE \
	share/applications/tapis.desktop share/metainfo/io.github.tapis.metainfo.xml \
	share/tapis/locale/fr/LC_MESSAGES/tapis.mo share/tapis/docs/rules/bouillabaisse.en.md \
	share/tapis/docs/rules/bouillabaisse.fr.md share/tapis/web/index.html share/tapis/web/tapis.js; do
	[ -s "$prefix/$f" ] || bad "$f not installed"
done
ls "$prefix"/share/tapis/sounds/*.wav >/dev/null 2>&1 || bad "no sound installed"
grep -qx 'Terminal=true' "$prefix/share/applications/tapis.desktop" || bad "the .desktop file does not open a terminal"
if command -v appstreamcli >/dev/null 2>&1; then
	appstreamcli validate --no-net "$prefix/share/metainfo/io.github.tapis.metainfo.xml" >"$tmp/as.log" 2>&1 ||
		{ cat "$tmp/as.log"; bad "AppStream metadata"; }
fi

# The server's systemd unit runs the installed program, and systemd takes it.
unit="$prefix/lib/systemd/system/tapis.service"
if [ -s "$unit" ]; then
	grep -q "^ExecStart=$prefix/bin/tapis-server --config $prefix/etc/tapis/server.conf " "$unit" ||
		bad "tapis.service does not run the installed tapis-server with the installed settings"
	if command -v systemd-analyze >/dev/null 2>&1; then
		systemd-analyze verify --man=no "$unit" >"$tmp/unit.log" 2>&1 || { cat "$tmp/unit.log"; bad "tapis.service: systemd-analyze verify"; }
	fi
else
	bad "lib/systemd/system/tapis.service not installed"
fi
[ -s "$prefix/share/doc/tapis/hosting.md" ] || bad "share/doc/tapis/hosting.md not installed"
for f in etc/tapis/server.conf lib/sysusers.d/tapis.conf share/man/man8/tapis-server.8; do
	[ -s "$prefix/$f" ] || bad "$f not installed"
done

# The installed program, from elsewhere, XDG files in the temporary tree.
mkdir -p "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
export XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$tmp/state"
tapis="$prefix/bin/tapis"
"$tapis" rules bouillabaisse --text >"$tmp/rules.en" 2>"$tmp/err" </dev/null || { cat "$tmp/err"; bad "tapis rules bouillabaisse --text"; }
# The rules are printed without their Markdown: compare with the build
# tree's program reading the source tree's file.
case "$build" in /*) built="$build" ;; *) built="$top/$build" ;; esac
TAPIS_DATADIR="$top" TAPIS_LOCALEDIR="$built/locale" "$built/tapis" rules bouillabaisse --text >"$tmp/want.en" 2>/dev/null </dev/null
TAPIS_DATADIR="$top" TAPIS_LOCALEDIR="$built/locale" "$built/tapis" rules bouillabaisse --text --lang fr >"$tmp/want.fr" 2>/dev/null </dev/null
grep -q "Bouillabaisse" "$tmp/want.en" || bad "the build tree's program printed no rules"
cmp -s "$tmp/rules.en" "$tmp/want.en" || bad "the rules printed are not the installed rules"
"$tapis" rules bouillabaisse --text --lang fr >"$tmp/rules.fr" 2>"$tmp/err" </dev/null || { cat "$tmp/err"; bad "tapis rules bouillabaisse --text --lang fr"; }
cmp -s "$tmp/rules.fr" "$tmp/want.fr" || bad "the French rules printed are not the installed ones"
"$tapis" play bouillabaisse --text --seats bot,bot,bot,bot --seed 1 --hands 1 >"$tmp/play.en" 2>"$tmp/err" </dev/null ||
	{ cat "$tmp/err"; bad "tapis play bouillabaisse (installed)"; }
[ -s "$tmp/play.en" ] || bad "the installed game said nothing"
# The catalogue is found: the French game is not the English one.
"$tapis" play bouillabaisse --text --lang fr --seats bot,bot,bot,bot --seed 1 --hands 1 >"$tmp/play.fr" 2>"$tmp/err" </dev/null ||
	{ cat "$tmp/err"; bad "tapis play bouillabaisse --lang fr (installed)"; }
cmp -s "$tmp/play.en" "$tmp/play.fr" && bad "--lang fr speaks English: the catalogue was not found"
# The lessons are installed and found (the input ends: the lesson stops at its first question).
"$tapis" learn bourre --lesson 1 --text --no-sound >"$tmp/learn" 2>"$tmp/err" </dev/null ||
	{ cat "$tmp/err"; bad "tapis learn bourre --lesson 1 (installed)"; }
grep -q "Staying and the draw" "$tmp/learn" || bad "the installed lesson was not found"

# The installed server finds the installed catalogues too (the settings'
# language, as tapis serve).
mkdir -p "$tmp/config/tapis"
printf 'lang = fr\n' >"$tmp/config/tapis/settings"
"$prefix/bin/tapis-server" --help >"$tmp/serve.fr" 2>"$tmp/err" </dev/null ||
	{ cat "$tmp/err"; bad "tapis-server --help (installed)"; }
grep -q "l'adresse où écouter" "$tmp/serve.fr" || bad "the installed tapis-server --help is not in French"
rm -f "$tmp/config/tapis/settings"

# And the data really comes from PREFIX: without it, the rules are not found.
mv "$prefix/share/tapis" "$prefix/share/tapis.away"
"$tapis" rules bouillabaisse --text >/dev/null 2>&1 </dev/null && bad "rules found with no installed data: read from elsewhere"
mv "$prefix/share/tapis.away" "$prefix/share/tapis"

make -C "$top" --no-print-directory BUILD="$build-install" PREFIX="$prefix" uninstall >/dev/null 2>&1 || bad "make uninstall"
left=$(find "$prefix" -type f | sed "s|^$prefix/||")
[ -z "$left" ] || bad "make uninstall left: $left"

[ "$fails" = 0 ] && echo "install: ok ($prefix, $(wc -l <"$tmp/play.en") lines played)"
[ "$fails" = 0 ]
