#!/usr/bin/env bash
# make order-file: writes Config/roster.order, the functions a release `roster` runs in a
# typical session, which the release link places side by side (docs/benchmarks.md, "Memory").
# A page of code the kernel maps is resident for the whole run, and it maps code 64 KB at a
# time around each first touch: the ~1.5 MB of functions a session runs, scattered through
# 40 MB of code, kept 11 MB resident. Side by side they keep about 2.
#
# How: the release `roster` (BIN) runs under valgrind's callgrind in a 120x40 pseudo-terminal
# (../shared/tools/tuibench.py), twice: against a release roster-server of 2,000 users and on
# its embedded server, each time through the keys an administrator uses (scrolling, search,
# the detail pane, the groups view, help, a form opened and left), and once more against the
# server for a bulk run of 30 users, and once on OpenLDAP's slapd with 2,000 people (StartTLS,
# the bind, the root DSE, the paged list, scripts/lib/slapd.sh) through the same keys. Every
# function callgrind
# saw run in the `roster` binary (Roster's code, its packages and, linked statically, the
# Swift runtime and Foundation) is one line of the file, by its symbol, sorted.
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release}
PYTHON=${PYTHON:-python3}
TUIBENCH=${TUIBENCH:-../shared/tools/tuibench.py}
OUT=${OUT:-Config/roster.order}
[ -f "$TUIBENCH" ] || { echo "tuibench.py not found at $TUIBENCH (set TUIBENCH=...)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is missing (make order-file installs it)" >&2; exit 1; }

workdir=$(mktemp -d /tmp/roster-order.XXXXXX)
server_pid=""
cleanup() {
    [ -z "$server_pid" ] || { kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
    scripts/lib/slapd.sh stop "$workdir/slapd" 2>/dev/null || true
    rm -rf "$workdir"
}
trap cleanup EXIT

"$BIN/roster-server" --port 0 --database "$workdir/users.sqlite" --token order-token --seed 2000 \
    --log-level warning >"$workdir/server.out" 2>"$workdir/server.err" &
server_pid=$!
URL=$(server_url "$server_pid" "$workdir/server.out" "$workdir/server.err") || exit 1

# Valgrind 3.19 (Debian 12) cannot read the toolchain's DWARF; the symbol table is all it needs.
cp "$BIN/roster" "$workdir/roster"
strip --strip-debug "$workdir/roster"

keys='j*30,<PgDn>*8,k*5,<PgUp>*2,<End>,<Home>,/,a,n,<Enter>,j*3,<Esc>,<Tab>,j*3,<Enter>,j*5,<PgDn>,<Esc>,<Tab>,?,<Esc>,e,<Esc>,n,<Esc>'
# A bulk run: marks, a suspend of them (its requests, the journal, the progress line), the
# summary; its functions follow the session's, so a client that never runs one keeps few pages.
bulk_keys='<Space>*30,S,y,<C-q>*8,j*5'
session() {  # session NAME MARKER ARGS...: one run under callgrind into NAME.callgrind
    local name=$1 marker=$2; shift 2
    local keys=${SESSION_KEYS:-$keys}
    echo "order-file: the $name session under callgrind"
    mkdir -p "$workdir/$name-state" "$workdir/$name-config"
    "$PYTHON" "$TUIBENCH" --size 120x40 --runs 1 --quiet-log --startup-timeout 180 --key-timeout-ms 10000 \
        --quiet-ms 500 --env "XDG_STATE_HOME=$workdir/$name-state" --env "XDG_CONFIG_HOME=$workdir/$name-config" \
        --env LANG=C.UTF-8 --marker "$marker" --keys "$keys" --idle 0 --quit-keys q \
        --json "$workdir/$name.json" -- \
        valgrind --tool=callgrind --demangle=no --callgrind-out-file="$workdir/$name.callgrind" \
        "$workdir/roster" "$@" >"$workdir/$name.txt" 2>&1 || { cat "$workdir/$name.txt" >&2; exit 1; }
}
session remote "1 / 2,000" --server "$URL" --token order-token
SESSION_KEYS=$bulk_keys session bulk "1 / 2,000" --server "$URL" --token order-token
mkdir -p "$workdir/embedded-config/roster"
echo "{ \"embedded\": { \"database\": \"$workdir/embedded.sqlite\" } }" >"$workdir/embedded-config/roster/roster.json"
session embedded "1 / 500"
# An LDAP directory: its test CA in the settings, the admin's DN and password from the
# environment, as make bench-ldap gives them.
ldap_url=$(scripts/lib/slapd.sh start "$workdir/slapd" 2000 | sed -n 1p)
mkdir -p "$workdir/ldap-config/roster"
printf '{ "caFile": "%s" }\n' "$workdir/slapd/ca.pem" >"$workdir/ldap-config/roster/roster.json"
ROSTER_BIND_DN="cn=admin,dc=roster,dc=test" ROSTER_PASSWORD=admin-secret session ldap "1 / 51+" --server "$ldap_url"

"$PYTHON" - "$workdir/roster" "$OUT" "$workdir/remote.callgrind" "$workdir/bulk.callgrind" "$workdir/ldap.callgrind" \
    "$workdir/embedded.callgrind" <<'EOF'
# Collects the functions that ran in the roster binary from callgrind's compressed names
# ("ob=(n) path" and "fn=(n) symbol" name an object or function the first time, "(n)" after).
# The remote session's functions come first, then those only the bulk run ran, then those
# only the LDAP session ran, then those only the embedded server ran, so that a client of a
# remote server keeps the fewest pages and one of an LDAP directory the next fewest.
import re, sys
binary, out, sessions = sys.argv[1], sys.argv[2], sys.argv[3:]
def ran(path):
    objects, functions, current, seen = {}, {}, None, set()
    for line in open(path, errors="replace"):
        match = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not match:
            continue
        kind, number, name = match.groups()
        table = objects if kind.endswith("ob") else functions
        if name:
            table[number] = name
        if kind == "ob":
            current = objects.get(number)
        elif kind == "fn" and current == binary:
            # callgrind marks the frames of a recursive call "'2"; the symbol is the part before.
            symbol = functions[number].split("'")[0]
            if not symbol.startswith("0x"):
                seen.add(symbol)
    return seen
order, placed = [], set()
for path in sessions:
    functions = sorted(ran(path) - placed)
    order += functions
    placed.update(functions)
with open(out, "w") as file:
    file.write("".join(symbol + "\n" for symbol in order))
print(f"order-file: {len(order)} functions into {out}")
EOF
