#!/usr/bin/env bash
# make bench-writes: the write path of roster-server on SQLite, this build against another
# (BASE_BIN, a folder with a release roster-server; without it, this build alone), in one run.
# Each round starts each build's server on a new database of $USERS seeded users and PUTs
# 50 of them in turn with wrk for $DURATION s at 1 and at 2 connections (every request a
# write transaction); the rounds alternate the builds, so both see the same machine. Prints
# each figure's median over $ROUNDS rounds: writes/s and median latency.
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"

BIN=${BIN:-.build/release}
BASE_BIN=${BASE_BIN:-}
USERS=${USERS:-20000}
DURATION=${DURATION:-3}
ROUNDS=${ROUNDS:-3}
TOKEN=bench-token-$$
lua=$(cd "$(dirname "$0")" && pwd)/wrk/put-users.lua

results=$(mktemp)
trap 'rm -f "$results"' EXIT
builds=(this)
[ -z "$BASE_BIN" ] || builds=(base this)

# measure BUILD NAME: one round on a throwaway server of that build.
measure() (
    BIN=$1
    throwaway_server "$USERS" "$TOKEN"
    curl -sf -H "Authorization: Bearer $TOKEN" "$URL/api/v1/users?limit=50" |
        python3 -c 'import json, sys; print("\n".join(u["id"] for u in json.load(sys.stdin)["data"]["items"]))' >"$workdir/ids"
    for connections in 1 2; do
        IDS_FILE=$workdir/ids TOKEN=$TOKEN wrk -t1 -c"$connections" -d"${DURATION}s" --latency -s "$lua" "$URL" >"$workdir/wrk"
        grep -q "Non-2xx" "$workdir/wrk" && { echo "writes failed:" >&2; cat "$workdir/wrk" >&2; exit 1; }
        rate=$(awk '/Requests\/sec/ {print $2}' "$workdir/wrk")
        p50=$(awk '$1 == "50%" {print $2}' "$workdir/wrk")
        printf '%s\t%s\t%s\t%s\n' "$2" "$connections" "$rate" "$p50" >>"$results"
    done
)

for round in $(seq "$ROUNDS"); do
    for build in "${builds[@]}"; do
        echo "round $round: $build"
        if [ "$build" = base ]; then measure "$BASE_BIN" base; else measure "$BIN" this; fi
    done
done

python3 - "$results" "${builds[@]}" <<'PY'
import statistics, sys
rows = [line.split("\t") for line in open(sys.argv[1]).read().splitlines()]
def ms(text):
    for unit, scale in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if text.endswith(unit): return float(text[:-len(unit)]) * scale
print("\nPUT /api/v1/users/{id}, SQLite, medians of %d rounds" % (len(rows) // (2 * (len(sys.argv) - 2))))
print("%-6s %-12s %12s %14s" % ("build", "connections", "writes/s", "median ms"))
for build in sys.argv[2:]:
    for connections in ("1", "2"):
        mine = [r for r in rows if r[0] == build and r[1] == connections]
        print("%-6s %-12s %12.0f %14.2f" % (build, connections,
              statistics.median(float(r[2]) for r in mine), statistics.median(ms(r[3].strip()) for r in mine)))
PY
