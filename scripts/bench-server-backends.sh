#!/usr/bin/env bash
# make bench-server-backends: scripts/bench-server.sh on SQLite (a new file), then on
# PostgreSQL (a throwaway cluster, DATABASE=postgres), with the same $USERS, $DURATION and
# $RUNS; each run's own output as it comes, then one table with the two side by side: per call,
# requests/s, that as a share of the same server's HTTP floor, and p99; then /health's p99 while
# 4 connections search q=a uncached, the deep page after a create, the seed time, and the SCIM
# filters' median and p99.
set -euo pipefail
here=$(dirname "$0")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for backend in sqlite postgres; do
    echo "=== $backend"
    database=""
    [ "$backend" = sqlite ] || database=postgres
    DATABASE=$database RESULTS=$out/$backend.tsv "$here/bench-server.sh"
    echo
done

python3 - "$out/sqlite.tsv" "$out/postgres.tsv" "${USERS:-100000}" <<'PY'
import sys

def load(path):
    calls, order, other = {}, [], {}
    for line in open(path, encoding="utf-8"):
        fields = line.rstrip("\n").split("\t")
        if fields[0] == "call":
            calls[fields[1]] = fields[2:]
            order.append(fields[1])
        elif fields[0] == "scim":
            other.setdefault("scim", []).append(fields[1:])
        else:
            other[fields[0]] = fields[1:]
    return calls, order, other

sqlite, order, sqlite_other = load(sys.argv[1])
postgres, _, postgres_other = load(sys.argv[2])

def cells(row):
    if row is None:
        return ["-", "-", "-"]
    if row[1] == "refused":
        return ["refused", "", ""]
    _, rps, p99, ratio = row
    return [f"{int(rps):,}", f"{float(ratio) * 100:.0f}%", f"{float(p99):.2f}"]

print(f"{int(sys.argv[3]):,} users, side by side (req/s, as a share of the same server's floor, p99 ms)")
header = f"{'call':<44} {'conns':>5} | {'SQLite req/s':>12} {'floor':>6} {'p99':>8} | {'PG req/s':>12} {'floor':>6} {'p99':>8}"
print(header)
print("-" * len(header))
for key in order:
    mode, index, connections = key.split("-")
    label = sqlite[key][0]
    left, right = cells(sqlite[key]), cells(postgres.get(key))
    print(f"{label[:44]:<44} {connections:>5} | {left[0]:>12} {left[1]:>6} {left[2]:>8} | {right[0]:>12} {right[1]:>6} {right[2]:>8}")
health = lambda other: f"{float(other['health'][0]):.2f} ms (idle {float(other['health'][1]):.2f})"
print(f"{'/health p99 while 4 conns run q=a uncached':<50} | {health(sqlite_other):>29} | {health(postgres_other):>29}")
rewalk = lambda other: f"{float(other['rewalk'][0]):.1f} ms, {float(other['rewalk'][1]):.1f} s"
print(f"{'after a create: deep page, order walked again':<50} | {rewalk(sqlite_other):>29} | {rewalk(postgres_other):>29}")
print(f"{'seed, start to listening':<50} | {float(sqlite_other['seed'][0]):>27.1f} s | {float(postgres_other['seed'][0]):>27.1f} s")
def scim(row):
    return "refused" if row[1] == "refused" else f"{float(row[1]):.2f} / {float(row[2]):.2f} ({row[3]})"
print("SCIM filters at 1 connection, median / p99 ms (matches)")
for left, right in zip(sqlite_other.get("scim", []), postgres_other.get("scim", [])):
    print(f"{left[0][:50]:<50} | {scim(left):>29} | {scim(right):>29}")
PY
