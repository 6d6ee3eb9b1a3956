#!/bin/sh
# docs/keys.md's tables of keys, made from src/app/keymap.c (the keys and
# the cursor's rules) by tools/keydoc.c, between the lines
# `<!-- keymap LANG -->` and `<!-- keymap end -->` of each language.
# Usage: sh tools/keydoc.sh [BUILD]           fail when docs/keys.md is not
#                                            what they make (make check)
#        sh tools/keydoc.sh --write [BUILD]   write them anew (make keys-doc)
set -eu
cd "$(dirname "$0")/.."
check=1
if [ "${1:-}" = --write ]; then check=0; shift; fi
build=${1:-build}
tool=$build/tools/keydoc
[ -x "$tool" ] || { echo "keydoc: $tool is not built (make tests)"; exit 1; }
export TAPIS_LOCALEDIR="${TAPIS_LOCALEDIR:-$(pwd)/$build/locale}"
doc=docs/keys.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
for lang in en fr; do
	"$tool" "$lang" >"$tmp/$lang"
	grep -qx "<!-- keymap $lang -->" "$doc" || { echo "keydoc: FAIL: no '<!-- keymap $lang -->' line in $doc"; exit 1; }
done
# Each block between its markers replaced by what the tool made.
awk -v dir="$tmp" '
	/^<!-- keymap (en|fr) -->$/ { print; lang = $3; while ((getline l < (dir "/" lang)) > 0) print l; skip = 1; next }
	/^<!-- keymap end -->$/ { skip = 0 }
	!skip { print }
' "$doc" >"$tmp/keys.md"
if [ "$check" = 1 ]; then
	if ! cmp -s "$doc" "$tmp/keys.md"; then
		echo "keydoc: FAIL: $doc is not what src/app/keymap.c makes: run make keys-doc"
		diff -u "$doc" "$tmp/keys.md" | head -40
		exit 1
	fi
	echo "keydoc: $doc's tables are those of src/app/keymap.c"
	exit 0
fi
cp "$tmp/keys.md" "$doc"
