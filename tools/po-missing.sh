#!/bin/sh
# Print the msgids used in src/ that a catalogue lacks (one per line, as
# xgettext writes them). Exit 1 when any is missing.
set -eu
cd "$(dirname "$0")/.."
pot=$(mktemp)
trap 'rm -f "$pot" "$pot.fr" "$pot.en"' EXIT
xgettext --from-code=UTF-8 -k_ -kN_ -kP_:1,2 -kC_:1c,2 -c'TRANSLATORS' -o "$pot" $(find src -name '*.c' | sort)
status=0
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
