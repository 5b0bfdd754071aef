# Sourced by the benches that time calls with wrk.

# wrk_once BASE_URL CONNECTIONS PATH: one wrk run of $DURATION s with the header $AUTH; prints
# "requests_per_second p99_milliseconds".
wrk_once() {
    local base=$1 connections=$2 path=$3
    wrk -t1 -c"$connections" -d"${DURATION}s" --latency -H "$AUTH" "$base$path" | awk '
        /Requests\/sec/ { rps = $2 }
        $1 == "99%" { v = $2; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
                      if (unit == "us") v /= 1000; else if (unit == "s") v *= 1000; p99 = v }
        END { printf "%.0f %.2f\n", rps, p99 }'
}

# median: the median of the numbers on standard input, one a line.
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
