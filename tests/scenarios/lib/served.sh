# Sourced by the scenarios that start tapis-server (not a scenario of its
# own: run.sh runs tests/scenarios/*.sh alone). Before sourcing, set
# scenario (its name in the messages) and build (the build directory).
#
# It sets server and bin (the two programs, as absolute paths), dir (a
# directory of the scenario's, removed at the end with the server still
# running killed), the XDG directories inside it and the C locale, fails
# and bad() (a failure counted and said).
server="$(cd "$(dirname "$build/tapis")" && pwd)/tapis-server"
bin="$(cd "$(dirname "$build/tapis")" && pwd)/tapis"
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
export XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config" XDG_DATA_HOME="$dir/data" \
	LANGUAGE= LC_ALL= LC_MESSAGES= LANG=C
fails=0
bad() { echo "$scenario scenario FAILED: $*"; fails=$((fails+1)); }

# served_start SED ARGS...: tapis-server started with ARGS (pid), its
# standard error in $dir/server.err; served is what the sed expression
# SED finds in it once the server says where it listens (empty when it
# never does, in 10 s, or stops first).
served_start() {
	sedexp=$1
	shift
	: >"$dir/server.err"
	"$server" "$@" 2>>"$dir/server.err" &
	pid=$!
	served=
	i=0
	while [ $i -lt 200 ]; do
		served=$(sed -n "$sedexp" "$dir/server.err" | head -n 1)
		[ -n "$served" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
		i=$((i+1))
	done
}

# served_game URL ARGS...: tapis join, with ARGS, makes a table of La
# Bouillabaisse at URL, starts it and plays a whole game against its bots
# (Enter to every question): what it says in $dir/out, its standard error
# in $dir/join.err; its status.
served_game() {
	url=$1
	shift
	yes '' 2>/dev/null | head -n 300 | timeout 60 "$bin" join "$url" "$@" --name Ann --text --no-sound \
		--create bouillabaisse --rule hands=1 --start >"$dir/out" 2>"$dir/join.err"
}

# served_stop: the server stopped by SIGTERM; its status.
served_stop() {
	st=0
	if [ -n "$pid" ]; then
		kill -TERM "$pid" 2>/dev/null
		wait "$pid"; st=$?
		pid=
	fi
	return $st
}

# served_end: the scenario's verdict, and its exit.
served_end() {
	[ "$fails" = 0 ] && echo "$scenario scenario: ok" && exit 0
	exit 1
}
