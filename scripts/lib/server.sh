# Sourced by the scripts that start a roster-server of their own.

# This folder, absolute: check-api.sh changes directory before its server is stopped.
server_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# server_url PID STDOUT STDERR [SECONDS]: waits for roster-server PID to print its
# "listening on URL" line to the file STDOUT and prints the URL. When the server dies first or
# SECONDS (default 180: seeding 100,000 users takes about a minute) pass, shows the file
# STDERR and fails.
server_url() {
    local pid=$1 out=$2 err=$3 seconds=${4:-180} url
    for _ in $(seq 1 $((seconds * 20))); do
        url=$(sed -n 's/^listening on //p' "$out" 2>/dev/null | head -1)
        if [ -n "$url" ]; then echo "$url"; return 0; fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    echo "roster-server did not start:" >&2
    cat "$err" >&2
    return 1
}

# throwaway_server SEED TOKEN [OPTION…]: starts "$BIN/roster-server" on port 0 with SEED demo users in a
# new database under a new temporary directory, for a script that checks it: a SQLite file, or
# with DATABASE=postgres a database in a throwaway PostgreSQL cluster (scripts/lib/postgres.sh)
# in that directory; any further options go to roster-server. Sets `workdir` (the server's stdout and stderr are there), `server_pid`,
# `database` (what --database was given) and `URL`; when the script exits, the server and the
# cluster are stopped and the directory removed.
throwaway_server() {
    workdir=$(mktemp -d)
    server_pid=""
    cluster=""
    trap stop_throwaway_server EXIT
    database=$workdir/users.sqlite
    if [ "${DATABASE:-sqlite}" = postgres ]; then
        cluster=$workdir/postgres
        # The cluster runs as the postgres user, which must reach its folder inside this one.
        chmod 755 "$workdir"
        database=$("$server_lib_dir/postgres.sh" start "$cluster")
    fi
    "$BIN/roster-server" --port 0 --database "$database" --token "$2" --seed "$1" \
        --log-level warning "${@:3}" >"$workdir/stdout" 2>"$workdir/stderr" &
    server_pid=$!
    URL=$(server_url "$server_pid" "$workdir/stdout" "$workdir/stderr")
}

stop_throwaway_server() {
    if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    [ -z "$cluster" ] || "$server_lib_dir/postgres.sh" stop "$cluster"
    rm -rf "$workdir"
}
