#!/usr/bin/env bash
# make bench: the release `roster` in a 120x40 pseudo-terminal (../shared/tools/tuibench.py)
# against a release `roster-server` seeded with 100,000 users, and in the same run `less` on a
# 100,000-line file as the baseline. Each measurement $RUNS times (medians):
#   keys:    startup to the first full list ($STARTUP_RUNS starts), j x300, PageDown x30, then 5 s idle; and 5 s idle
#            after the first screen has settled (its detail pane loaded);
#   scroll:  PageDown x300 (more than 10,000 rows), for peak memory; and roster's j x300 again
#            with "scrolling": "line", for comparison;
#   memory:  the scroll again against servers of 10,000 and 1,000,000 users ($MEMORY_USERS);
#   groups:  Tab to the groups view, Enter into a group's members, j x300 and PgDn x15 there;
#   slow:    startup to the first full list through scripts/delay_proxy.py (50 ms each way, a
#            100 ms round trip), Roster API and SCIM, each with --api named and with auto;
#   embedded: startup of the default embedded server (its 500 demo users, second start),
#            j x300 and 5 s idle once the last key's work is done;
#   bulk:    1,000 users marked and suspended on a remote server, j pressed meanwhile, then
#            (the run waited out) j x300, PgDn x30 and 5 s idle; and the same marks and keys with
#            no run, as the baseline both are compared with; and the same run of 1,000 with the
#            change journal on and off, alternating ($JOURNAL_RUNS each), for the journal's cost;
#   import:  roster-bench --import against a roster-server of 10,000 users: $IMPORT_ROWS bare
#            creates (the baseline: what the server takes), then a Google-template file of
#            $IMPORT_ROWS new users previewed and imported, then one renaming them all (updates);
#            median time, requests a second and peak memory of each, $RUNS runs.
# With BASE_BIN (a folder with another build's release `roster`), that build is measured
# beside this one in every section but bulk, in the same run: an A/B on the same machine load.
# scripts/bench_report.py prints the medians, the ratios to less and the issue's targets.
# SECTIONS picks sections (default: all of "keys memory groups slow embedded bulk").
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release}
USERS=${USERS:-100000}
RUNS=${RUNS:-3}
# Starts measured for "startup, remote": one start here varies from 20 to 40 ms (the other
# threads, the harness's own terminal emulator on the same two cores), a median of RUNS with it.
STARTUP_RUNS=${STARTUP_RUNS:-21}
SECTIONS=${SECTIONS:-keys memory groups slow embedded import bulk}
IMPORT_ROWS=${IMPORT_ROWS:-10000}
BASE_BIN=${BASE_BIN:-}
MEMORY_USERS=${MEMORY_USERS:-10000 1000000}
TUIBENCH=${TUIBENCH:-../shared/tools/tuibench.py}
GEN_LINES=${GEN_LINES:-$(dirname "$TUIBENCH")/gen_lines.py}
PYTHON=${PYTHON:-python3}
TOKEN=bench-token-$$

[ -f "$TUIBENCH" ] || { echo "tuibench.py not found at $TUIBENCH (set TUIBENCH=...)" >&2; exit 1; }
workdir=$(mktemp -d /tmp/roster-bench.XXXXXX)
server_pid=""
extra_pids=()
cleanup() {
    for pid in "${extra_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$workdir"
}
trap cleanup EXIT

"$BIN/roster-server" --port 0 --database "$workdir/users.sqlite" --token "$TOKEN" --seed "$USERS" \
    --log-level warning >"$workdir/server.out" 2>"$workdir/server.err" &
server_pid=$!
URL=$(server_url "$server_pid" "$workdir/server.out" "$workdir/server.err") || exit 1
echo "roster-server: $URL with $USERS users"

"$PYTHON" "$GEN_LINES" "$workdir/lines.txt" "$USERS" >/dev/null
total=$("$PYTHON" -c "print(f'{$USERS:,}')")   # as the list's position shows it: 100,000

roster=("$BIN/roster" --server "$URL" --token "$TOKEN")
base=("$BASE_BIN/roster" --server "$URL" --token "$TOKEN")
has() { [[ " $SECTIONS " == *" $1 "* ]]; }
roster_env=(--env "XDG_STATE_HOME=$workdir/state" --env "XDG_CONFIG_HOME=$workdir/config" --env LANG=C.UTF-8)
common=(--size 120x40 --quiet-log)

# bench NAME MARKER QUITKEYS KEYS IDLE -- COMMAND...: one tuibench measurement into NAME.json.
bench() {
    local name=$1 marker=$2 quit=$3 keys=$4 idle=$5; shift 6
    local extra=()
    [ -n "$marker" ] && extra+=(--marker "$marker")
    [ -n "${GAP_MS:-}" ] && extra+=(--gap-ms "$GAP_MS")
    [[ $name == roster* || $name == base* ]] && extra+=("${roster_env[@]}")
    echo "measuring $name ($keys, idle ${idle}s, ${BENCH_RUNS:-$RUNS} runs)"
    "$PYTHON" "$TUIBENCH" "${common[@]}" --runs "${BENCH_RUNS:-$RUNS}" "${extra[@]}" --keys "$keys" --idle "$idle" --quit-keys "$quit" \
        --json "$workdir/$name.json" -- "$@" >"$workdir/$name.txt" 2>&1 \
        || { cat "$workdir/$name.txt" >&2; exit 1; }
}

# both NAME MARKER QUITKEYS KEYS IDLE -- ARGS...: bench of this build's roster as roster-NAME
# and, with BASE_BIN, of that build's as base-NAME, with the same arguments.
both() {
    local name=$1 marker=$2 quit=$3 keys=$4 idle=$5; shift 6
    bench "roster-$name" "$marker" "$quit" "$keys" "$idle" -- "$BIN/roster" "$@"
    [ -z "$BASE_BIN" ] || bench "base-$name" "$marker" "$quit" "$keys" "$idle" -- "$BASE_BIN/roster" "$@"
}
# start_server USERS NAME: another roster-server on a database of its own; sets server_url_$NAME.
start_server() {
    local users=$1 name=$2 pid url
    "$BIN/roster-server" --port 0 --database "$workdir/$name.sqlite" --token "$TOKEN" --seed "$users" \
        --log-level warning >"$workdir/$name.out" 2>"$workdir/$name.err" &
    pid=$!
    extra_pids+=("$pid")
    url=$(server_url "$pid" "$workdir/$name.out" "$workdir/$name.err" 600) || exit 1
    printf -v "server_url_$name" '%s' "$url"
}
remote=(--server "$URL" --token "$TOKEN")

if has keys; then
    bench less-keys "" q 'j*300,<PgDn>*30' 5 -- less "$workdir/lines.txt"
    BENCH_RUNS=$STARTUP_RUNS both startup "1 / $total" q '' 0 -- "${remote[@]}"
    # Z last (bound to nothing; tuibench waits its key timeout for it): the idle after the keys
    # opens once the detail pane has loaded the user the last PgDn rests on.
    both keys "1 / $total" q 'j*300,<PgDn>*30,Z' 5 -- "${remote[@]}"
    # Idle once the first screen has settled: the detail pane follows the selection 150 ms
    # after it rests and loads the user. Z is bound to nothing, but its frame sends 7 bytes (the
    # cursor), so tuibench's window opened 20 ms after it and took in that load; Z is sent 1 s
    # after the first screen (--gap-ms), so the window opens once the start's work is done.
    GAP_MS=1000 both idle "1 / $total" q 'Z' 5 -- "${remote[@]}"
    bench less-scroll "" q '<PgDn>*300' 0 -- less "$workdir/lines.txt"
    both scroll "1 / $total" q '<PgDn>*300' 0 -- "${remote[@]}"
    # For comparison, not a target: the same j x300 with "scrolling": "line" (tig's way).
    mkdir -p "$workdir/config/roster"
    echo '{ "scrolling": "line" }' >"$workdir/config/roster/roster.json"
    bench roster-line-scrolling "1 / $total" q 'j*300' 0 -- "${roster[@]}"
    rm "$workdir/config/roster/roster.json"
fi

if has memory; then
    # Peak memory should not grow with the directory: the same 300 PageDowns at each size.
    for users in $MEMORY_USERS; do
        echo "seeding a roster-server with $users users"
        start_server "$users" "memory$users"
        url_var="server_url_memory$users"
        count=$("$PYTHON" -c "print(f'{$users:,}')")
        both "memory-$users" "1 / $count" q '<PgDn>*300' 0 -- --server "${!url_var}" --token "$TOKEN"
        kill -TERM "${extra_pids[-1]}"; wait "${extra_pids[-1]}" 2>/dev/null || true; unset 'extra_pids[-1]'
        rm -f "$workdir/memory$users.sqlite"*
    done
fi

if has groups; then
    # Tab opens the groups view (the first group's members come with it), Enter moves into them.
    # The first group (Design) has 620 members at 100,000 users: g goes back to the top so that
    # every PageDown moves (one past the end draws nothing and waits tuibench's key timeout).
    both groups "1 / $total" q '<Tab>,<Enter>,j*300,g,<PgDn>*15' 0 -- "${remote[@]}"
fi

if has slow; then
    # The first full screen through a link with a 100 ms round trip, each dialect, named and auto.
    "$PYTHON" scripts/delay_proxy.py "${URL#http://}" 50 >"$workdir/proxy.out" 2>&1 &
    extra_pids+=("$!")
    for _ in $(seq 1 100); do grep -q listening "$workdir/proxy.out" && break; sleep 0.05; done
    slow_url="http://127.0.0.1:$(sed -n 's/^listening on //p' "$workdir/proxy.out")"
    echo "delaying proxy: $slow_url (100 ms round trip) to $URL"
    both slow-roster "1 / $total" q '' 0 -- --server "$slow_url" --token "$TOKEN" --api roster
    both slow-roster-auto "1 / $total" q '' 0 -- --server "$slow_url" --token "$TOKEN" --api auto
    both slow-scim "1 / $total" q '' 0 -- --server "$slow_url/scim/v2" --token "$TOKEN" --api scim
    both slow-scim-auto "1 / $total" q '' 0 -- --server "$slow_url/scim/v2" --token "$TOKEN" --api auto
fi

if has embedded; then
    # The default embedded server: its own database with the 500 demo users, made by a first
    # start that is not measured.
    mkdir -p "$workdir/embedded-config/roster"
    echo "{ \"embedded\": { \"database\": \"$workdir/embedded.sqlite\" } }" >"$workdir/embedded-config/roster/roster.json"
    embedded_env=(--env "XDG_STATE_HOME=$workdir/state" --env "XDG_CONFIG_HOME=$workdir/embedded-config" --env LANG=C.UTF-8)
    "$PYTHON" "$TUIBENCH" --size 120x40 --runs 1 --quiet-log --marker "1 / 500" --startup-timeout 60 "${embedded_env[@]}" \
        --quit-keys q -- "$BIN/roster" >"$workdir/embedded-first.txt" 2>&1 || { cat "$workdir/embedded-first.txt" >&2; exit 1; }
    for which in roster base; do
        binary=$BIN
        if [ "$which" = base ]; then [ -n "$BASE_BIN" ] || continue; binary=$BASE_BIN; fi
        # Z (bound to nothing) after the keys, as in the keys section's idle: tuibench waits its
        # key timeout for it, so the detail pane's load after the last j (150 ms after it, in
        # this same process with the server) is done before the idle window opens.
        echo "measuring $which-embedded (startup, j*300, $RUNS runs)"
        "$PYTHON" "$TUIBENCH" "${common[@]}" --runs "$RUNS" --marker "1 / 500" --startup-timeout 60 "${embedded_env[@]}" --keys 'j*300,Z' \
            --idle 5 --quit-keys q --json "$workdir/$which-embedded.json" -- "$binary/roster" >"$workdir/$which-embedded.txt" 2>&1 \
            || { cat "$workdir/$which-embedded.txt" >&2; exit 1; }
    done
fi

if has import; then
    start_server 10000 import
    echo "measuring import ($IMPORT_ROWS rows, $RUNS runs)"
    "$BIN/roster-bench" --import "$server_url_import" "$TOKEN" "$IMPORT_ROWS" "$RUNS" | tee "$workdir/import.txt"
    kill -TERM "${extra_pids[-1]}"; wait "${extra_pids[-1]}" 2>/dev/null || true; unset 'extra_pids[-1]'
fi

report=(--dir "$workdir")
has bulk || { "$PYTHON" scripts/bench_report.py "${report[@]}"; exit 0; }

# Bulk: Space x1000 marks the first 1,000 users, S and y suspend them, and j x$BULK_JS is
# pressed while the run goes (each its own response window, so a quiet window of 15 ms keeps
# them inside the run). Then Ctrl-Q x$BULK_WAIT waits the run out without a key reaching the
# app (each key holds the run's next request for WorkRunner.keyGrace, so keys would stall it):
# the pty's line discipline takes Ctrl-Q (XON; ncurses' cbreak leaves IXON on) and roster never
# sees it. While the run goes its progress line (every 100 ms) ends each wait; once it is over
# and its message gone (3 s later), each waits the key timeout (500 ms).
# Then the keys section's j x300 and PgDn x30, and 5 s of idle: that section's figures after
# a run, measured as it measures them, against a remote roster-server of $USERS users. Each
# run has a server of its own on a fresh copy of the seeded database (every run suspends the
# same 1,000 active users), started before it and stopped after it, outside the measured
# process. The app writes the run's figures to its log, which the report reads.
BULK_JS=${BULK_JS:-60}
BULK_WAIT=${BULK_WAIT:-60}
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
for file in "$workdir"/users.sqlite*; do cp "$file" "$workdir/pristine${file#"$workdir"/users}"; done
mkdir -p "$workdir/bulk-config/roster" "$workdir/bulk-state"
# fresh_bulk_database: the seeded database, copied anew to bulk.sqlite.
fresh_bulk_database() {
    rm -f "$workdir"/bulk.sqlite*
    for file in "$workdir"/pristine.sqlite*; do cp "$file" "$workdir/bulk${file#"$workdir"/pristine}"; done
}
# bulk_bench NAME KEYS: RUNS tuibench measurements of roster, each against its own fresh
# server, into NAME.runN.json (the report reads them as one measurement).
bulk_bench() {
    local name=$1 keys=$2 run pid url
    echo "measuring $name ($keys, $RUNS runs)"
    for run in $(seq "$RUNS"); do
        fresh_bulk_database
        "$BIN/roster-server" --port 0 --database "$workdir/bulk.sqlite" --token "$TOKEN" \
            --log-level warning >"$workdir/bulk-server.out" 2>"$workdir/bulk-server.err" &
        pid=$!
        extra_pids+=("$pid")
        url=$(server_url "$pid" "$workdir/bulk-server.out" "$workdir/bulk-server.err") || exit 1
        "$PYTHON" "$TUIBENCH" --size 120x40 --runs 1 --quiet-log --marker "1 / $total" --startup-timeout 60 \
            --env "XDG_STATE_HOME=$workdir/bulk-state" --env "XDG_CONFIG_HOME=$workdir/bulk-config" --env LANG=C.UTF-8 \
            --quiet-ms 15 --key-timeout-ms 500 --keys "$keys" --idle 5 --quit-keys q --keep-samples \
            --json "$workdir/$name.run$run.json" --dump "$workdir/$name.screen" -- "$BIN/roster" --server "$url" --token "$TOKEN" \
            >"$workdir/$name.txt" 2>&1 || { cat "$workdir/$name.txt" >&2; exit 1; }
        kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; unset 'extra_pids[-1]'
    done
}
# The baseline first: the same marks and keys, no run (its log has no "bulk run" line).
after="j*300,<PgDn>*30,Z"
bulk_bench roster-bulk-rest "<Space>*1000,j*$BULK_JS,$after"
bulk_bench roster-bulk "<Space>*1000,S,y,j*$BULK_JS,<C-q>*$BULK_WAIT,$after"

# The journal A/B below runs on roster's embedded server, on a fresh copy of the seeded
# database for each run.
cat >"$workdir/bulk-roster.sh" <<EOF
#!/bin/sh
rm -f "$workdir"/bulk.sqlite*
for file in "$workdir"/pristine.sqlite*; do cp "\$file" "$workdir/bulk\${file#"$workdir"/pristine}"; done
exec "$BIN/roster"
EOF

# Journal A/B: the run of 1,000 (no keys during it) with the journal on, then off ("journal":
# false), alternating so both see the same load on the machine; each writes its own log.
JOURNAL_RUNS=${JOURNAL_RUNS:-5}
for side in on off; do
    mkdir -p "$workdir/journal-$side-config/roster" "$workdir/journal-$side-state"
    journal=$([ "$side" = on ] && echo true || echo false)
    echo "{ \"embedded\": { \"database\": \"$workdir/bulk.sqlite\", \"seedUsers\": 0 }, \"journal\": $journal }" \
        >"$workdir/journal-$side-config/roster/roster.json"
done
for run in $(seq "$JOURNAL_RUNS"); do
    for side in on off; do
        echo "measuring the journal $side (run $run of $JOURNAL_RUNS)"
        "$PYTHON" "$TUIBENCH" --size 120x40 --runs 1 --quiet-log --marker "1 / $total" --startup-timeout 60 \
            --env "XDG_STATE_HOME=$workdir/journal-$side-state" --env "XDG_CONFIG_HOME=$workdir/journal-$side-config" \
            --env LANG=C.UTF-8 --quiet-ms 15 --keys "<Space>*1000,S,y" --idle 10 --quit-keys q \
            --json "$workdir/journal-$side-$run.json" -- sh "$workdir/bulk-roster.sh" \
            >"$workdir/journal-$side-$run.txt" 2>&1 || { cat "$workdir/journal-$side-$run.txt" >&2; exit 1; }
    done
done

"$PYTHON" scripts/bench_report.py "${report[@]}" --bulk "$workdir/bulk-state/roster/roster.log" \
    --journal "$workdir/journal-on-state/roster/roster.log" "$workdir/journal-off-state/roster/roster.log"
