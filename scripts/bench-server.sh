#!/usr/bin/env bash
# make bench-server: seeds a release roster-server with 100,000 users and measures, in one run,
# requests/s and p99 latency with wrk at 1 and 8 connections for four calls (first page, a deep
# page, a get by id, a search), each against the HTTP floor: the server's fixed-body route of
# the same size, through the same middleware. Then RosterKit's APIClient fetching the first
# page one request at a time, against wrk at 1 connection. Figures are medians of $RUNS runs.
set -euo pipefail

BIN=${BIN:-.build/release}
USERS=${USERS:-100000}
DURATION=${DURATION:-4}
RUNS=${RUNS:-3}
TOKEN=bench-token-$$
# Request logs off: a per-request line to stderr would measure the terminal, not the server.
LOG_LEVEL=${LOG_LEVEL:-warning}

workdir=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$workdir"
}
trap cleanup EXIT

started=$(date +%s.%N)
"$BIN/roster-server" --port 0 --database "$workdir/users.sqlite" --token "$TOKEN" --seed "$USERS" \
    --benchmark-routes --log-level "$LOG_LEVEL" >"$workdir/stdout" 2>"$workdir/stderr" &
server_pid=$!
for _ in $(seq 1 600); do
    grep -q '^listening on ' "$workdir/stdout" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$workdir/stderr"; exit 1; }
    sleep 0.1
done
URL=$(sed -n 's/^listening on //p' "$workdir/stdout")
[ -n "$URL" ] || { echo "the server did not start"; cat "$workdir/stderr"; exit 1; }
ready=$(date +%s.%N)
printf 'server: %s, %d users seeded and listening after %.2f s (database %s)\n' "$URL" "$USERS" \
    "$(echo "$ready - $started" | bc)" "$(du -h "$workdir/users.sqlite" | cut -f1)"

AUTH="Authorization: Bearer $TOKEN"
fetch() { curl -sf -H "$AUTH" "$URL$1"; }
size_of() { curl -sf -o /dev/null -w '%{size_download}' -H "$AUTH" "$URL$1"; }

deep_page=$((USERS / 50 * 3 / 4))
first_id=$(fetch "/api/v1/users?page=1&per_page=50" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["items"][0]["id"])')
search_total=$(fetch "/api/v1/users?q=ivan&per_page=50" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["total"])')

names=("first page" "deep page $deep_page" "get by id" "search q=ivan ($search_total hits)")
paths=("/api/v1/users?page=1&per_page=50" "/api/v1/users?page=$deep_page&per_page=50"
       "/api/v1/users/$first_id" "/api/v1/users?q=ivan&per_page=50")

# One wrk run: prints "requests_per_second p99_milliseconds".
wrk_once() {
    local connections=$1 path=$2
    wrk -t1 -c"$connections" -d"${DURATION}s" --latency -H "$AUTH" "$URL$path" | awk '
        /Requests\/sec/ { rps = $2 }
        $1 == "99%" { v = $2; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
                      if (unit == "us") v /= 1000; else if (unit == "s") v *= 1000; p99 = v }
        END { printf "%.0f %.2f\n", rps, p99 }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# Medians of $RUNS runs: "requests_per_second p99_milliseconds".
measure() {
    local connections=$1 path=$2 runs
    runs=$(for _ in $(seq 1 "$RUNS"); do wrk_once "$connections" "$path"; done)
    echo "$(echo "$runs" | cut -d' ' -f1 | median) $(echo "$runs" | cut -d' ' -f2 | median)"
}

printf '\n%-32s %5s %7s %10s %8s %12s %10s %8s\n' "call" "conns" "bytes" "req/s" "p99 ms" "floor req/s" "floor p99" "ratio"
declare -A results
for index in "${!paths[@]}"; do
    path=${paths[$index]}
    bytes=$(size_of "$path")
    floor="/api/v1/_bench/floor?bytes=$bytes"
    [ "$(size_of "$floor")" = "$bytes" ] || { echo "floor route gave the wrong size"; exit 1; }
    for connections in 1 8; do
        read -r rps p99 <<<"$(measure "$connections" "$path")"
        read -r floor_rps floor_p99 <<<"$(measure "$connections" "$floor")"
        ratio=$(echo "scale=2; $rps / $floor_rps" | bc)
        results["$index-$connections"]="$rps $p99 $floor_rps $ratio"
        printf '%-32s %5d %7d %10d %8.2f %12d %10.2f %7.0f%%\n' "${names[$index]}" "$connections" "$bytes" \
            "$rps" "$p99" "$floor_rps" "$floor_p99" "$(echo "$ratio * 100" | bc)"
    done
done

client=$("$BIN/roster-bench" "$URL" "$TOKEN" "$DURATION")
field() { echo "$client" | sed -n "s/.*$1=\([0-9]*\).*/\1/p"; }
client_rps=$(field apiclient_socket_rps)
read -r wrk_c1 _ <<<"${results[0-1]}"
client_ratio=$(echo "scale=2; $client_rps / $wrk_c1" | bc)
percent_of_wrk() { printf '%.0f%%' "$(echo "scale=4; $1 * 100 / $wrk_c1" | bc)"; }
echo
echo "client, first page, one request at a time (wrk -c1: $wrk_c1 req/s):"
printf '  APIClient + SocketTransport:      %6d req/s = %s of wrk -c1\n' "$client_rps" "$(percent_of_wrk "$client_rps")"
printf '  APIClient + URLSessionTransport:  %6d req/s = %s\n' "$(field apiclient_urlsession_rps)" "$(percent_of_wrk "$(field apiclient_urlsession_rps)")"
printf '  bare SocketTransport:             %6d req/s = %s\n' "$(field socket_rps)" "$(percent_of_wrk "$(field socket_rps)")"
printf '  bare URLSessionTransport:         %6d req/s = %s\n' "$(field urlsession_rps)" "$(percent_of_wrk "$(field urlsession_rps)")"
printf '  decoding the page alone:          %6d per s\n' "$(field decode_per_s)"

read -r _ _ _ first_c8_ratio <<<"${results[0-8]}"
read -r _ search_p99 _ _ <<<"${results[3-1]}"
verdict() { if [ "$(echo "$1" | bc)" = 1 ]; then echo "met"; else echo "MISSED"; fi; }
echo
echo "targets:"
printf '  first page at 8 connections >= 40%% of the floor: %.0f%% (%s)\n' "$(echo "$first_c8_ratio * 100" | bc)" "$(verdict "$first_c8_ratio >= 0.40")"
printf '  search p99 <= 20 ms at 1 connection:           %.2f ms (%s)\n' "$search_p99" "$(verdict "$search_p99 <= 20")"
printf '  APIClient (SocketTransport) >= 50%% of wrk -c1:  %.0f%% (%s)\n' "$(echo "$client_ratio * 100" | bc)" "$(verdict "$client_ratio >= 0.50")"
