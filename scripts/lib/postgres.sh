#!/usr/bin/env bash
# A throwaway PostgreSQL cluster from Debian's postgresql package, for tests and benches:
# trust authentication, 127.0.0.1 on a free port, its socket and data in one folder.
#
#   postgres.sh start DIR [durable]  initdb + pg_ctl start in DIR (created); prints the cluster's URL.
#                                 `durable`: synchronous_commit on, so a commit it acknowledged
#                                 survives a crash of the database (not of the machine: fsync off)
#   postgres.sh stop DIR          stops the cluster and deletes DIR
#   postgres.sh restart DIR       restarts it as after a crash (immediate mode: no checkpoint,
#                                 every connection cut), same port; returns once it accepts again
#   postgres.sh watch PID DIR     waits for process PID to end, then stops the cluster (run detached)
#   postgres.sh createdb URL NAME / dropdb URL NAME
#   postgres.sh bin               the folder of initdb and pg_ctl
#
# Run as root, the cluster's programs run as the unprivileged postgres user (initdb refuses root).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/daemon.sh"

bin_dir() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$found" ] && [ -x "$found/initdb" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
    echo "$found"
}

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
    local dir=$1 bin port synchronous_commit=off
    [ "${2:-}" = durable ] && synchronous_commit=on
    close_inherited_descriptors
    bin=$(bin_dir)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # A port that another program takes between the check and the start fails the start: draw again.
    for _ in 1 2 3 4 5 6 7 8; do
        port=$((20000 + RANDOM % 40000))
        port_is_free "$port" || continue
        # fsync off: a test cluster's data does not need to survive a crash of the machine.
        # synchronous_commit off (unless durable) loses the last commits when the database
        # itself crashes: faster, and only the tests that restart it need them kept.
        # pg_ctl's complaint about a port taken meanwhile goes to a log, not to our output: the
        # tests read the whole output (stdout and stderr) as the URL, and a line of it before
        # the URL sent every test of the process to the default socket.
        if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=$synchronous_commit -c full_page_writes=off -c max_connections=400" \
            start >/dev/null 2>>"$dir/pg_ctl.log"; then
            echo "postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
            return 0
        fi
    done
    cat "$dir/pg_ctl.log" "$dir/server.log" >&2
    exit 1
}

stop() {
    local dir=$1
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}

restart() {
    local dir=$1
    close_inherited_descriptors
    as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m immediate -w -t 30 restart >/dev/null \
        || { tail -n 20 "$dir/server.log" >&2; exit 1; }
}

watch() {
    local pid=$1 dir=$2
    while kill -0 "$pid" 2>/dev/null; do sleep 0.5; done
    stop "$dir"
}

# psql on the cluster's maintenance database; NAME is a plain identifier chosen by the caller.
psql_on() {
    local url=$1 sql=$2
    "$(bin_dir)/psql" "${url%%\?*}" -v ON_ERROR_STOP=1 -q -c "$sql" >/dev/null
}

case "${1:-}" in
    start) start "$2" "${3:-}" ;;
    stop) stop "$2" ;;
    restart) restart "$2" ;;
    watch) watch "$2" "$3" ;;
    createdb) psql_on "$2" "CREATE DATABASE \"$3\"${4:+ TEMPLATE \"$4\"}" ;;
    dropdb) psql_on "$2" "DROP DATABASE IF EXISTS \"$3\" WITH (FORCE)" ;;
    bin) bin_dir ;;
    *) echo "usage: $0 start DIR [durable] | stop DIR | restart DIR | watch PID DIR | createdb URL NAME [TEMPLATE] | dropdb URL NAME | bin" >&2; exit 2 ;;
esac
