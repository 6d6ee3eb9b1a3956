#!/bin/sh
# Print the msgids used in src/ that a catalogue lacks (one per line, as
# xgettext writes them), and whether locales/tapis.pot is out of date.
# Exit 1 when either is wrong.
set -eu
cd "$(dirname "$0")/.."
pot=$(mktemp)
trap 'rm -f "$pot" "$pot.fr" "$pot.en" "$pot.a" "$pot.b"' EXIT
sh tools/pot.sh "$pot"
status=0
# The template as `make pot` writes it; where the strings are in the files
# and when it was made do not count.
strip() { grep -v -e '^#:' -e '^"POT-Creation-Date:' "$1" || true; }
strip "$pot" >"$pot.a"
strip locales/tapis.pot >"$pot.b" 2>/dev/null || true
if ! cmp -s "$pot.a" "$pot.b"; then
	echo "locales/tapis.pot is out of date: run make pot"
	status=1
fi
for lang in fr en; do
	# Entries of the template that the catalogue does not translate.
	msgmerge -q --no-fuzzy-matching -o "$pot.$lang" "locales/$lang.po" "$pot"
	missing=$(msgattrib --untranslated --no-obsolete "$pot.$lang" | grep '^msgid ' | grep -v '^msgid ""$' || true)
	if [ -n "$missing" ]; then
		echo "locales/$lang.po lacks:"
		echo "$missing"
		status=1
	fi
done
exit $status
