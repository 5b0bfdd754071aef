#!/usr/bin/env bash
# make bench-scim-filters: issue 31's table, before and after, in one run. For each backend
# (SQLite, a new file; PostgreSQL, a throwaway cluster) and each build (BASE_BIN, a release
# build of an older commit, when given; then BIN), seeds a roster-server with $USERS users
# (100,000 unless told; USERS=1000000 for the issue's scale), notes the seed time, provisions
# 1,000 users over SCIM and measures the SCIM filters identity providers send at 1 connection
# (scripts/lib/scim-filters.sh: median and p99 of $RUNS wrk runs of $DURATION s, beside the
# HTTP floor), then prints the builds side by side. Targets: p99 <= 20 ms for every filter but
# the `co` one (<= 50 ms); the SQLite seed <= 30 s at a million.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib/server.sh"
source "$here/lib/scim-filters.sh"

BIN=${BIN:-.build/release}
BASE_BIN=${BASE_BIN:-}
USERS=${USERS:-100000}
DURATION=${DURATION:-3}
RUNS=${RUNS:-3}
BACKENDS=${BACKENDS:-sqlite postgres}
TOKEN=bench-token-$$

workdir=$(mktemp -d)
server_pid=""
cluster=""
cleanup() {
    [ -z "$server_pid" ] || { kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
    [ -z "$cluster" ] || "$here/lib/postgres.sh" stop "$cluster"
    rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
chmod 755 "$workdir"

builds=()
[ -z "$BASE_BIN" ] || builds+=(base)
builds+=(new)
declare -A seed results

for backend in $BACKENDS; do
    for build in "${builds[@]}"; do
        bin=$BIN
        [ "$build" = new ] || bin=$BASE_BIN
        if [ "$backend" = postgres ]; then
            cluster=$workdir/postgres-$build
            database=$("$here/lib/postgres.sh" start "$cluster")
        else
            database=$workdir/users-$build.sqlite
        fi
        started=$(date +%s.%N)
        "$bin/roster-server" --port 0 --database "$database" --token "$TOKEN" --benchmark-routes --log-level warning \
            --seed "$USERS" >"$workdir/server.stdout" 2>"$workdir/server.stderr" &
        server_pid=$!
        url=$(server_url "$server_pid" "$workdir/server.stdout" "$workdir/server.stderr" 900)
        seed[$backend-$build]=$(echo "$(date +%s.%N) - $started" | bc)
        printf '=== %s, %s build (%s): %d users seeded and listening after %.1f s\n' "$backend" "$build" "$bin" "$USERS" "${seed[$backend-$build]}"
        scim_filters_prepare "$url" "$TOKEN"
        printf '  %-44s %9s %8s %8s %10s %10s\n' filter matches "p50 ms" "p99 ms" "floor p50" "floor p99"
        scim_filters_measure "$url" "$TOKEN" "$RUNS" "$DURATION"
        for index in "${!SCIM_FILTERS[@]}"; do results[$backend-$build-$index]=${SCIM_FILTER_RESULTS[$index]}; done
        kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null || true
        server_pid=""
        if [ -n "$cluster" ]; then "$here/lib/postgres.sh" stop "$cluster"; cluster=""; fi
        rm -f "$workdir"/users-*.sqlite*
    done
done

echo
printf '%d users, SCIM filters at 1 connection: median / p99 in ms (matches)\n' "$USERS"
for backend in $BACKENDS; do
    echo "$backend:"
    header=$(printf '  %-44s' filter)
    for build in "${builds[@]}"; do header+=$(printf ' | %-26s' "$build"); done
    echo "$header | target"
    for index in "${!SCIM_FILTER_LABELS[@]}"; do
        line=$(printf '  %-44s' "${SCIM_FILTER_LABELS[$index]}")
        target=20
        [[ "${SCIM_FILTER_LABELS[$index]}" == *" co "* ]] && target=50
        verdict=""
        for build in "${builds[@]}"; do
            read -r p50 p99 matches _ <<<"${results[$backend-$build-$index]}"
            if [ "$p50" = refused ]; then
                line+=$(printf ' | %-26s' refused)
                [ "$build" != new ] || verdict="MISSED"
            else
                line+=$(printf ' | %9.2f / %8.2f (%s)' "$p50" "$p99" "$matches")
                [ "$build" != new ] || verdict=$([ "$(echo "$p99 <= $target" | bc)" = 1 ] && echo met || echo MISSED)
            fi
        done
        echo "$line | p99 <= $target ms: $verdict"
    done
    line=$(printf '  %-44s' "seed, start to listening")
    for build in "${builds[@]}"; do line+=$(printf ' | %24.1f s' "${seed[$backend-$build]}"); done
    if [ "$backend" = sqlite ]; then
        echo "$line | <= 30 s at 1,000,000: $([ "$(echo "${seed[$backend-new]} <= 30" | bc)" = 1 ] && echo met || echo MISSED)"
    else
        echo "$line"
    fi
done
