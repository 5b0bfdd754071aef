#!/usr/bin/env bash
# make bench: the release `roster` in a 120x40 pseudo-terminal (../shared/tools/tuibench.py)
# against a release `roster-server` seeded with 100,000 users, and in the same run `less` on a
# 100,000-line file as the baseline. Two measurements per program, $RUNS runs each:
#   keys:   startup to the first full list, j x300, PageDown x30, then 5 s idle;
#   scroll: PageDown x300 (more than 10,000 rows), for peak memory;
#   and roster's j x300 again with "scrolling": "line", for comparison;
#   bulk:   1,000 users marked and suspended on the embedded server, j pressed meanwhile; and
#           the same marks and j with no run, as the baseline the run's j is compared with;
#   journal: the same run of 1,000 with the change journal on and off, alternating
#           ($JOURNAL_RUNS each), for the journal's cost in wall time.
# scripts/bench_report.py prints the medians, the ratios to less and the targets.
# SECTIONS=bulk runs the bulk measurements alone (SECTIONS="keys bulk" is the default).
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release}
USERS=${USERS:-100000}
RUNS=${RUNS:-3}
SECTIONS=${SECTIONS:-keys bulk}
TUIBENCH=${TUIBENCH:-../shared/tools/tuibench.py}
GEN_LINES=${GEN_LINES:-$(dirname "$TUIBENCH")/gen_lines.py}
PYTHON=${PYTHON:-python3}
TOKEN=bench-token-$$

[ -f "$TUIBENCH" ] || { echo "tuibench.py not found at $TUIBENCH (set TUIBENCH=...)" >&2; exit 1; }
workdir=$(mktemp -d /tmp/roster-bench.XXXXXX)
server_pid=""
cleanup() {
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
roster_env=(--env "XDG_STATE_HOME=$workdir/state" --env "XDG_CONFIG_HOME=$workdir/config" --env LANG=C.UTF-8)
common=(--size 120x40 --runs "$RUNS" --quiet-log)

# bench NAME MARKER QUITKEYS KEYS IDLE -- COMMAND...: one tuibench measurement into NAME.json.
bench() {
    local name=$1 marker=$2 quit=$3 keys=$4 idle=$5; shift 6
    local extra=()
    [ -n "$marker" ] && extra+=(--marker "$marker")
    [[ $name == roster* ]] && extra+=("${roster_env[@]}")
    echo "measuring $name ($keys, idle ${idle}s, $RUNS runs)"
    "$PYTHON" "$TUIBENCH" "${common[@]}" "${extra[@]}" --keys "$keys" --idle "$idle" --quit-keys "$quit" \
        --json "$workdir/$name.json" -- "$@" >"$workdir/$name.txt" 2>&1 \
        || { cat "$workdir/$name.txt" >&2; exit 1; }
}

report=()
if [[ " $SECTIONS " == *" keys "* ]]; then
    bench less-keys "" q 'j*300,<PgDn>*30' 5 -- less "$workdir/lines.txt"
    bench roster-keys "1 / $total" q 'j*300,<PgDn>*30' 5 -- "${roster[@]}"
    bench less-scroll "" q '<PgDn>*300' 0 -- less "$workdir/lines.txt"
    bench roster-scroll "1 / $total" q '<PgDn>*300' 0 -- "${roster[@]}"
    # For comparison, not a target: the same j x300 with "scrolling": "line" (tig's way).
    mkdir -p "$workdir/config/roster"
    echo '{ "scrolling": "line" }' >"$workdir/config/roster/roster.json"
    bench roster-line-scrolling "1 / $total" q 'j*300' 0 -- "${roster[@]}"
    report+=("$workdir/roster-keys.json" "$workdir/less-keys.json" "$workdir/roster-scroll.json"
             "$workdir/less-scroll.json" "$workdir/roster-line-scrolling.json")
fi
[[ " $SECTIONS " == *" bulk "* ]] || { "$PYTHON" scripts/bench_report.py "${report[@]}"; exit 0; }

# Bulk: Space x1000 marks the first 1,000 users, S and y suspend them, and j x$BULK_JS is
# pressed while the run goes (each its own response window, so a quiet window of 15 ms keeps
# them inside the run). Against roster's embedded server, on a copy of the seeded database made
# fresh for each run; the app writes the run's figures to its log, which the report reads.
BULK_JS=${BULK_JS:-60}
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
for file in "$workdir"/users.sqlite*; do cp "$file" "$workdir/pristine${file#"$workdir"/users}"; done
mkdir -p "$workdir/bulk-config/roster" "$workdir/bulk-state"
cat >"$workdir/bulk-config/roster/roster.json" <<EOF
{ "embedded": { "database": "$workdir/bulk.sqlite", "seedUsers": 0 } }
EOF
cat >"$workdir/bulk-roster.sh" <<EOF
#!/bin/sh
rm -f "$workdir"/bulk.sqlite*
for file in "$workdir"/pristine.sqlite*; do cp "\$file" "$workdir/bulk\${file#"$workdir"/pristine}"; done
exec "$BIN/roster"
EOF
# bulk_bench NAME KEYS: one tuibench measurement of roster on the embedded server into NAME.json.
bulk_bench() {
    local name=$1 keys=$2
    echo "measuring $name ($keys, $RUNS runs)"
    "$PYTHON" "$TUIBENCH" --size 120x40 --runs "$RUNS" --quiet-log --marker "1 / $total" --startup-timeout 60 \
        --env "XDG_STATE_HOME=$workdir/bulk-state" --env "XDG_CONFIG_HOME=$workdir/bulk-config" --env LANG=C.UTF-8 \
        --quiet-ms 15 --keys "$keys" --idle 20 --quit-keys q --keep-samples \
        --json "$workdir/$name.json" --dump "$workdir/$name.screen" -- sh "$workdir/bulk-roster.sh" \
        >"$workdir/$name.txt" 2>&1 || { cat "$workdir/$name.txt" >&2; exit 1; }
}
# The baseline first: the same marks and j, no run (its log has no "bulk run" line).
bulk_bench roster-bulk-rest "<Space>*1000,j*$BULK_JS"
bulk_bench roster-bulk "<Space>*1000,S,y,j*$BULK_JS"

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

"$PYTHON" scripts/bench_report.py "${report[@]}" \
    --bulk "$workdir/roster-bulk.json" "$workdir/roster-bulk-rest.json" "$workdir/bulk-state/roster/roster.log" \
    --journal "$workdir/journal-on-state/roster/roster.log" "$workdir/journal-off-state/roster/roster.log"
