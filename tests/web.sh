#!/bin/sh
# The browser tests (tests/web/run.js): the web page in Debian's Chromium,
# driven by puppeteer-core, checked by axe-core. They need node, the npm
# packages of tests/web (`npm ci`, done by `make check`) and chromium
# (tools/deps.sh). Without them: a failure under CI=true, else a skip
# (status 77) that says what is missing.
build=${1:-build}
chromium=${CHROMIUM:-/usr/bin/chromium}
missing=""
command -v node >/dev/null 2>&1 || missing="$missing node"
[ -x "$chromium" ] || missing="$missing chromium"
[ -d tests/web/node_modules/puppeteer-core ] && [ -d tests/web/node_modules/axe-core ] ||
	missing="$missing tests/web/node_modules"
if [ -n "$missing" ]; then
	echo "web: cannot run the browser tests, missing:$missing"
	[ "${CI:-}" = true ] && exit 1
	exit 77
fi
CHROMIUM="$chromium" node tests/web/run.js "$build"
