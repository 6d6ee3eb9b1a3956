#!/bin/sh
# A whole bot game of every game under valgrind: no leak, no error.
build=${1:-build}
status=0
for game in $("$build/tapis" --help | sed -n 's/^Games: //p'); do
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
		"$build/tapis" play "$game" --players 4 --seats bot,bot,bot,bot --text --hands 1 --seed 5 >/dev/null || status=1
done
exit $status
