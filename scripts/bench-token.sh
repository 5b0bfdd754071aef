#!/usr/bin/env bash
# make bench-token (and the end of make bench-server): what the token check costs the hot path.
# The cached first page (GET /api/v1/users?page=1&per_page=50) at 8 connections, with wrk, on:
#
#   A  BASE_BIN's roster-server (a release build of a commit from before named tokens and the
#      audit log, e.g. 471fd24), with its one token: today's figure before the change;
#   B  this build with a named token from the database (`roster-server token create`): the
#      token looked up by its hash, kept 250 ms (TokenAuthority);
#   C  this build with the bootstrap token (compared in memory), for reference.
#
# Each round measures A, B and C in turn (starting with the next one each round), $DURATION s
# each after a warm-up, so all see the same machine; the figures are medians of $ROUNDS rounds, and B must be at least 95% of A. Without
# BASE_BIN, B against C only.
#
# The users are seeded once, by the older build when there is one, and each server gets its own
# copy, so both answer the same bytes (a newer seed puts users in demo groups): a SQLite file
# each, or with DATABASE=postgres (or a postgres:// URL of a cluster) a database each.
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"
source "$(dirname "$0")/lib/wrk.sh"

BIN=${BIN:-.build/release}
BASE_BIN=${BASE_BIN:-}
USERS=${USERS:-100000}
DURATION=${DURATION:-4}
ROUNDS=${ROUNDS:-9}
DATABASE=${DATABASE:-}
TOKEN=bench-token-$$
FIRST_PAGE="/api/v1/users?page=1&per_page=50"
scripts=$(cd "$(dirname "$0")" && pwd)

token_workdir=$(mktemp -d)
token_pids=()
token_cluster=""
token_cleanup() {
    for pid in "${token_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    [ -z "$token_cluster" ] || "$scripts/lib/postgres.sh" stop "$token_cluster"
    rm -rf "$token_workdir"
}
trap token_cleanup EXIT
trap 'exit 130' INT TERM

# A database for one build: NAME under the cluster of $DATABASE when it is PostgreSQL, else a file.
cluster_url=""
if [ "$DATABASE" = postgres ]; then
    token_cluster=$token_workdir/postgres
    chmod 755 "$token_workdir"
    cluster_url=$("$scripts/lib/postgres.sh" start "$token_cluster")
elif [[ "$DATABASE" == postgres://* ]]; then
    cluster_url=$DATABASE
fi
# database NAME [TEMPLATE]: the --database of a new database NAME (a copy of TEMPLATE's, when given).
database() {
    if [ -n "$cluster_url" ]; then
        "$scripts/lib/postgres.sh" createdb "$cluster_url" "$1_$$" ${2:+"$2_$$"}
        echo "${cluster_url/\/postgres\?//$1_$$?}"
    else
        [ -z "${2:-}" ] || cp "$token_workdir/$2.sqlite" "$token_workdir/$1.sqlite"
        echo "$token_workdir/$1.sqlite"
    fi
}

# start BINARY DATABASE VARIABLE [OPTION…]: a release server; sets VARIABLE to its URL.
start() {
    local name=$3
    "$1/roster-server" --port 0 --database "$2" --token "$TOKEN" --log-level warning "${@:4}" \
        >"$token_workdir/$name.stdout" 2>"$token_workdir/$name.stderr" &
    token_pids+=("$!")
    printf -v "$name" '%s' "$(server_url "$!" "$token_workdir/$name.stdout" "$token_workdir/$name.stderr" 600)"
}

# stop_last: stops the server started last (SIGTERM: SQLite's file is whole when it exits).
stop_last() {
    local pid=${token_pids[-1]}
    kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
    unset 'token_pids[-1]'
}

seed_bin=${BASE_BIN:-$BIN}
start "$seed_bin" "$(database seeded)" SEEDED --seed "$USERS"
stop_last
THIS_DATABASE=$(database this seeded)
start "$BIN" "$THIS_DATABASE" THIS_URL
named=$("$BIN/roster-server" token create "bench-reader-$$" --scope read --database "$THIS_DATABASE" | sed -n 's/^token: //p')
[ -n "$named" ] || { echo "roster-server token create printed no token"; exit 1; }

labels=("B this build, named token" "C this build, bootstrap token")
urls=("$THIS_URL" "$THIS_URL")
secrets=("$named" "$TOKEN")
if [ -n "$BASE_BIN" ]; then
    base_commit=$(git -C "$BASE_BIN/../.." rev-parse --short HEAD 2>/dev/null || echo "?")
    start "$BASE_BIN" "$(database base seeded)" BASE_URL
    labels=("A base build ($base_commit), its token" "${labels[@]}")
    urls=("$BASE_URL" "${urls[@]}")
    secrets=("$TOKEN" "${secrets[@]}")
fi

# Both builds must answer the same page, or the comparison means nothing.
size_of() { curl -sf -o /dev/null -w '%{size_download}' -H "Authorization: Bearer $2" "$1$FIRST_PAGE"; }
for index in "${!urls[@]}"; do
    bytes=$(size_of "${urls[$index]}" "${secrets[$index]}") || { echo "${labels[$index]}: the first page is refused"; exit 1; }
    [ "$bytes" = "$(size_of "${urls[0]}" "${secrets[0]}")" ] || { echo "${labels[$index]}: a first page of another size ($bytes bytes)"; exit 1; }
done

declare -a rates
count=${#urls[@]}
for round in $(seq 1 "$ROUNDS"); do
    # Each round starts with the next build, so none is always measured first or last.
    for step in $(seq 0 $((count - 1))); do
        index=$(((round + step) % count))
        # A short warm-up: the connections and the cache entry are made before timing.
        AUTH="Authorization: Bearer ${secrets[$index]}" DURATION=1 wrk_once "${urls[$index]}" 8 "$FIRST_PAGE" >/dev/null
        rate=$(AUTH="Authorization: Bearer ${secrets[$index]}" wrk_once "${urls[$index]}" 8 "$FIRST_PAGE" | cut -d' ' -f1)
        rates[$index]="${rates[$index]:-} $rate"
    done
done

echo
echo "token check, cached first page at 8 connections ($USERS users, rounds interleaved, medians of $ROUNDS):"
declare -a medians
for index in "${!urls[@]}"; do
    medians[$index]=$(echo "${rates[$index]}" | tr ' ' '\n' | sed '/^$/d' | median)
    printf '  %-40s %7d req/s   (rounds:%s)\n' "${labels[$index]}" "${medians[$index]}" "${rates[$index]}"
done
# paired_ratio I J: the median over the rounds of round r's I / round r's J. Measured seconds
# apart, the two of a round share the machine's load of the moment, which on a shared machine
# moves the medians of each more than the token check does.
paired_ratio() {
    paste -d' ' <(echo "${rates[$1]}" | tr ' ' '\n' | sed '/^$/d') <(echo "${rates[$2]}" | tr ' ' '\n' | sed '/^$/d') |
        awk '{ printf "%.4f\n", $1 / $2 }' | median
}
if [ -n "$BASE_BIN" ]; then
    ratio=$(paired_ratio 1 0)
    verdict=$([ "$(echo "$ratio >= 0.95" | bc)" = 1 ] && echo met || echo MISSED)
    printf '  ratio of the medians B / A: %.1f%%; C / A: %.1f%%\n' "$(echo "scale=4; ${medians[1]} * 100 / ${medians[0]}" | bc)" \
        "$(echo "scale=4; ${medians[2]} * 100 / ${medians[0]}" | bc)"
    printf '  named token (B) >= 95%% of the build before tokens (A), median of the rounds'"'"' B/A: %.1f%% (%s)\n' \
        "$(echo "$ratio * 100" | bc)" "$verdict"
else
    printf '  named token (B) against the bootstrap token (C), median of the rounds'"'"' B/C: %.1f%% (give BASE_BIN for the figure against the build before tokens)\n' \
        "$(echo "$(paired_ratio 0 1) * 100" | bc)"
fi
