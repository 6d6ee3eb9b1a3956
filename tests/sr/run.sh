#!/bin/sh
# The web page through a real screen reader (tests/sr/run.js): Orca under
# Xvfb reading Debian's Chromium (not headless), a D-Bus session with the
# accessibility bus, speech-dispatcher with its dummy module, keys sent
# through the X server by xdotool, and what Orca spoke read from its debug
# log. Run by `make check` (tests/run.sh) and alone by `make check-sr`.
# Without a tool: a failure under CI=true, else a skip (status 77) that says
# what is missing. Everything runs in a PID namespace of its own when one
# can be made, so that every process started here ends with it and Orca
# meets no other Orca; bounded by TAPIS_SR_TIMEOUT seconds (300).
build=${1:-build}
chromium=${CHROMIUM:-/usr/bin/chromium}
skip() {
	echo "sr: cannot run the screen reader tests: $*"
	[ "${CI:-}" = true ] && exit 1
	exit 77
}
if [ "${TAPIS_SR_INSIDE:-}" != 1 ]; then
	missing=""
	for t in orca Xvfb xdotool dbus-run-session speech-dispatcher node; do
		command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
	done
	[ -x "$chromium" ] || missing="$missing chromium"
	[ -x /usr/libexec/at-spi-bus-launcher ] || [ -x /usr/lib/at-spi2-core/at-spi-bus-launcher ] ||
		missing="$missing at-spi2-core"
	[ -d tests/web/node_modules/puppeteer-core ] || missing="$missing tests/web/node_modules"
	[ -z "$missing" ] || skip "missing$missing"
	export TAPIS_SR_INSIDE=1
	limit=${TAPIS_SR_TIMEOUT:-300}
	# A namespace of our own (root, else as a user mapped to root), else none.
	for ns in "unshare --pid --fork --mount-proc" "unshare --user --map-root-user --pid --fork --mount-proc"; do
		if $ns true 2>/dev/null; then
			exec timeout -k 10 "$limit" $ns sh "$0" "$build"
		fi
	done
	if pgrep -x orca >/dev/null 2>&1; then
		skip "another Orca runs here and no namespace can be made for ours"
	fi
	exec timeout -k 10 "$limit" sh "$0" "$build"
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/tapis-sr.XXXXXX") || exit 1
trap 'kill $xvfb 2>/dev/null; [ -n "${TAPIS_SR_KEEP:-}" ] || rm -rf "$dir"' EXIT
# A free display: Xvfb picks it and writes its number.
Xvfb -displayfd 5 -screen 0 1280x1024x24 -nolisten tcp 5>"$dir/display" 2>"$dir/xvfb.log" &
xvfb=$!
for i in $(seq 100); do [ -s "$dir/display" ] && break; sleep 0.1; done
[ -s "$dir/display" ] || { cat "$dir/xvfb.log"; echo "sr: Xvfb did not start"; exit 1; }
export DISPLAY=":$(cat "$dir/display")"
mkdir -p "$dir/home" "$dir/run"
chmod 700 "$dir/run"
export HOME="$dir/home" XDG_CONFIG_HOME="$dir/home/.config" XDG_DATA_HOME="$dir/home/.local/share" \
	XDG_CACHE_HOME="$dir/home/.cache" XDG_RUNTIME_DIR="$dir/run" TAPIS_SR_DIR="$dir"
CHROMIUM="$chromium" dbus-run-session -- node tests/sr/run.js "$build"
