#!/bin/sh
# The licence line of every C source: tapis is GPL-3.0-or-later (LICENSE),
# and each .c/.h under src/ and tests/ starts with
#   /* SPDX-License-Identifier: GPL-3.0-or-later */
#
#   sh tools/spdx.sh           add the line as the first line where it is missing
#   sh tools/spdx.sh --check   list the files without it; exit 1 if there are any
#
# A file counts as tagged when its first line is exactly that line.
set -eu
cd "$(dirname "$0")/.."
line='/* SPDX-License-Identifier: GPL-3.0-or-later */'
mode=add
case "${1:-}" in
--check) mode=check ;;
"") ;;
*) echo "usage: sh tools/spdx.sh [--check]" >&2; exit 2 ;;
esac

missing=0
files=$(find src tests -name node_modules -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print | LC_ALL=C sort)
[ -n "$files" ] || { echo "spdx: no C file under src/ or tests/" >&2; exit 1; }
for f in $files; do
	[ "$(head -n 1 "$f")" = "$line" ] && continue
	missing=$((missing + 1))
	if [ "$mode" = check ]; then
		echo "$f"
	else
		tmp="$f.spdx.$$"
		{ printf '%s\n' "$line"; cat "$f"; } >"$tmp" && mv "$tmp" "$f"
		echo "spdx: tagged $f"
	fi
done
if [ "$mode" = check ]; then
	[ "$missing" = 0 ] || { echo "spdx: $missing file(s) without the licence line (sh tools/spdx.sh adds it)" >&2; exit 1; }
	echo "spdx: every file has the licence line"
fi
