#!/usr/bin/env bash
# make bench-review (part of make bench): the access review of $USERS against $USERS on two
# release roster-servers. One server's demo seed is copied to make the second, and each copy is
# changed so every list has members (1% deleted from the source: leavers and orphans;
# 1% suspended in the source: leavers; 1% deleted from the target: unprovisioned; 1% renamed in
# the target: drift), through the API. Then, $RUNS times each:
#   compare: `roster compare hr saas --report` under /usr/bin/time: wall time and peak memory
#            of the whole command (both reads, the comparison, the report);
#   reads:   roster-bench --review: the review's two reads at once and the comparison alone,
#            beside the baseline, two CSV exports of the same directories at once, alternating.
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release}
USERS=${USERS:-100000}
RUNS=${RUNS:-3}
TOKEN=bench-review-$$
workdir=$(mktemp -d /tmp/roster-bench-review.XXXXXX)
chmod 700 "$workdir"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$workdir"
}
trap cleanup EXIT

# start NAME SEED: a roster-server on NAME.sqlite; sets url_NAME.
start() {
    local name=$1 seed=$2 pid url
    "$BIN/roster-server" --port 0 --database "$workdir/$name.sqlite" --token "$TOKEN" --seed "$seed" --log-level warning \
        >"$workdir/$name.out" 2>"$workdir/$name.err" &
    pid=$!
    pids+=("$pid")
    url=$(server_url "$pid" "$workdir/$name.out" "$workdir/$name.err") || exit 1
    printf -v "url_$name" '%s' "$url"
    printf -v "pid_$name" '%s' "$pid"
}

echo "seeding $USERS users"
start source "$USERS"
kill -TERM "$pid_source"; wait "$pid_source" 2>/dev/null || true
pids=()
sqlite3 "$workdir/source.sqlite" ".backup '$workdir/target.sqlite'"
start source 0
start target 0
# The changes go through the API: the database's triggers call roster-server's own SQL functions.
python3 - "$url_source" "$url_target" "$TOKEN" <<'PY'
import http.client, json, sys, urllib.parse
source, target, token = sys.argv[1:4]
def connect(url):
    parts = urllib.parse.urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port), parts.path.rstrip("/")
def call(server, method, path, body=None):
    connection, base = server
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    connection.request(method, base + path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = response.read()
    if response.status >= 300:
        sys.exit(f"{method} {path}: {response.status} {data[:200]}")
    return json.loads(data)["data"]
hr, saas = connect(source), connect(target)
users, page = [], 1
while True:
    items = call(hr, "GET", f"/api/v1/users?per_page=200&page={page}&sort=created_at")["items"]
    users += items
    if len(items) < 200:
        break
    page += 1
def draft(user, **changes):
    body = {key: user[key] for key in ("name", "email", "role", "status")}
    body.update(changes)
    return body
for index, user in enumerate(users):
    kind = index % 100
    if kind == 1:
        call(hr, "DELETE", "/api/v1/users/" + user["id"])                      # absent from the source
    elif kind == 2 and user["status"] == "active":
        call(hr, "PUT", "/api/v1/users/" + user["id"], draft(user, status="suspended"))  # left
    elif kind == 3:
        call(saas, "DELETE", "/api/v1/users/" + user["id"])                    # not provisioned
    elif kind == 4:
        call(saas, "PUT", "/api/v1/users/" + user["id"], draft(user, name=user["name"] + " Jr"))  # drift
print(f"changed 4% of {len(users):,} users")
PY
echo "source $url_source, target $url_target"

mkdir -p "$workdir/config" "$workdir/state"
cat >"$workdir/config/roster.json" <<JSON
{ connections: {
    hr: { server: "$url_source", api: "roster", token: "$TOKEN" },
    saas: { server: "$url_target", api: "roster", token: "$TOKEN" } } }
JSON
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "load before: $(load)"

for run in $(seq 1 "$RUNS"); do
    set +e
    XDG_STATE_HOME=$workdir/state /usr/bin/time -f "time %e s, peak %M KB" -o "$workdir/time-$run.txt" \
        "$BIN/roster" compare hr saas --config "$workdir/config/roster.json" --report "$workdir/review-$run.csv" >"$workdir/compare-$run.txt"
    code=$?
    set -e
    [ "$code" -le 1 ] || { cat "$workdir/compare-$run.txt" >&2; exit 1; }
    echo "compare run $run (exit $code): $(cat "$workdir/time-$run.txt"); $(grep -E 'compared in' "$workdir/compare-$run.txt" | sed 's/^ *//'); rows $(($(wc -l <"$workdir/review-$run.csv") - 1))"
done
grep -E '^  (Leavers|Only|Drift)' "$workdir/compare-1.txt"
"$BIN/roster-bench" --review "$url_source" "$TOKEN" "$url_target" "$TOKEN" "$RUNS" "$workdir" | tee "$workdir/reads.txt"
echo "load after: $(load)"

python3 - "$workdir" "$RUNS" <<'PY'
import re, statistics, sys
folder, runs = sys.argv[1], int(sys.argv[2])
walls, peaks = [], []
for run in range(1, runs + 1):
    text = open(f"{folder}/time-{run}.txt").read()
    walls.append(float(re.search(r"time ([\d.]+) s", text).group(1)))
    peaks.append(int(re.search(r"peak (\d+) KB", text).group(1)) / 1024)
fields = {}
for line in open(f"{folder}/reads.txt"):
    for key, value in re.findall(r"(\w+)=([\d.]+)", line):
        fields.setdefault(key, []).append(float(value))
median = statistics.median
print()
print("| measure (median of %d) | figure | target |" % runs)
print("|---|---|---|")
print("| `roster compare --report`: wall time | %.2f s | |" % median(walls))
print("| `roster compare --report`: peak memory (whole process) | %.0f MB | well under 100 MB |" % median(peaks))
print("| the comparison after the reads | %.0f ms | under 1 s |" % median(fields["compare_ms"]))
print("| the review's two reads at once | %.2f s | |" % median(fields["reads_s"]))
print("| two CSV exports of the same directories at once (baseline) | %.2f s | |" % median(fields["exports_s"]))
print("| reads / exports | %.2f | at most 1 |" % (median(fields["reads_s"]) / median(fields["exports_s"])))
PY
