#!/bin/sh
# The server holds no language of its own (docs/architecture.md): every
# sentence a client receives is phrased in that client's language, given
# as a value (i18n_of, then i18n_tr, i18n_ntr, i18n_ptr; or _() P_() C_()
# in a file that defines I18N_LANG as the listener's language). So no file
# of src/net/ switches the catalogue in force (i18n_set_lang,
# i18n_load_buffer) or looks a word up in it (_() P_() C_() without
# I18N_LANG, i18n_get, i18n_nget, i18n_pget), except where the one who
# reads is the program's own user, whose language is the one in force:
# the command line of `tapis admin` (server/cmd_admin.c) and the terminal of
# `tapis join` (client/remote.c).
# Usage: sh tools/net-lang.sh   (run by make check)
set -eu
cd "$(dirname "$0")/.."

fails=0
n=0
for f in $(find src/net -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort); do
	n=$((n+1))
	case "$f" in
	src/net/server/cmd_admin.c|src/net/client/remote.c) continue ;;
	esac
	# Code only: comments and strings may name the functions.
	code=$(sed -e 's|//.*$||' "$f" | awk '
		{ line = $0; out = "" }
		{
			while (length(line) > 0) {
				if (incomment) {
					i = index(line, "*/")
					if (!i) { line = ""; break }
					line = substr(line, i + 2); incomment = 0
				} else {
					i = index(line, "/*")
					if (!i) { out = out line; line = ""; break }
					out = out substr(line, 1, i - 1); line = substr(line, i + 2); incomment = 1
				}
			}
			print FNR ":" out
		}')
	hits=$(printf '%s\n' "$code" | grep -E 'i18n_(set_lang|load_buffer|get|nget|pget)[[:space:]]*\(' || true)
	if ! grep -q '^#define I18N_LANG ' "$f"; then
		more=$(printf '%s\n' "$code" | grep -E '(^|[^A-Za-z0-9_])(_|P_|C_)[[:space:]]*\(' || true)
		hits=$(printf '%s\n%s' "$hits" "$more" | sed '/^$/d')
	fi
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits" | sed "s|^|net-lang: FAIL: $f:|; s|\$| (the language in force: give the client's as a value)|"
		fails=$((fails + $(printf '%s\n' "$hits" | wc -l)))
	fi
done
[ "$n" -gt 0 ] || { echo "net-lang: FAIL: no file under src/net/"; exit 1; }
if [ "$fails" != 0 ]; then
	echo "net-lang: $fails sentence(s) of src/net/ in the language in force"
	exit 1
fi
echo "net-lang: ok ($n files of src/net/, none phrasing in the language in force)"
