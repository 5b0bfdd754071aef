#!/usr/bin/env bash
# make bench-ldap (and the end of make bench): the release `roster` on OpenLDAP's slapd with
# 100,000 people (seeded offline with slapadd, scripts/lib/slapd.sh), beside the same roster on
# roster-server with 100,000 users and beside libldap alone (scripts/ldap/first_page.c), all
# in one run. Per program, $RUNS runs in a 120x40 pseudo-terminal (../shared/tools/tuibench.py),
# $FIRST_RUNS for the first screen and search the target compares, as many as libldap's own
# (single starts of roster on slapd spread from 18 to 26 ms; a median of 9 still moved by 5 ms
# between two runs in the same hour, docs/benchmarks.md):
#   search: startup to the first full list, then `/` and "user012345" typed at once; the
#           answer is the last byte of the list found (it includes the search's 200 ms
#           debounce, the same on both). On slapd the list opens in the directory's own order
#           (no sort control): slapd counts nothing it does not sort, so the position says
#           "1 / 51+"; roster-server's says "1 / 100,000";
#   sorted: the same first screen on slapd with "sort": "name" (what s asks for), "1 / 100,000";
#   scroll: PageDown x300 (12,000 rows) for peak memory, on slapd at 10,000 and at 100,000.
# The first byte (the terminal set up, before roster connects) is in each figure too: full list
# minus first byte is roster's own connect, StartTLS, bind, root DSE and first page.
# libldap alone: the first page as roster asks for it (filter, attributes, 50 entries) unsorted
# and sorted, timed warm (the search alone) and cold (connect, StartTLS, bind, search), the
# search's first page (unsorted, as roster's search keeps the list's order), and the unsorted
# page as a program started by tuibench as roster is (spawn to its line on the screen).
# The bind's password reaches roster and first_page through the environment, never an argument.
# scripts/bench_ldap_report.py prints the table and the targets.
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"
cd "$(dirname "$0")/.."

BIN=${BIN:-.build/release}
USERS=${USERS:-100000}
SMALL=${SMALL:-10000}
RUNS=${RUNS:-3}
FIRST_RUNS=${FIRST_RUNS:-21}
RAW_RUNS=${RAW_RUNS:-21}
TUIBENCH=${TUIBENCH:-../shared/tools/tuibench.py}
PYTHON=${PYTHON:-python3}
TOKEN=bench-token-$$
SEARCH=user012345
BASE="dc=roster,dc=test"
ADMIN="cn=admin,$BASE"

[ -f "$TUIBENCH" ] || { echo "tuibench.py not found at $TUIBENCH (set TUIBENCH=...)" >&2; exit 1; }
workdir=$(mktemp -d /tmp/roster-bench-ldap.XXXXXX)
chmod 700 "$workdir"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    scripts/lib/slapd.sh stop "$workdir/slapd-big" 2>/dev/null || true
    scripts/lib/slapd.sh stop "$workdir/slapd-small" 2>/dev/null || true
    rm -rf "$workdir"
}
trap cleanup EXIT

"${CC:-$(command -v cc || command -v clang)}" -O2 -Wall -o "$workdir/first_page" scripts/ldap/first_page.c -lldap -llber

started=$(date +%s)
# slapd runs at the priority roster does, as a directory on a machine of its own would: started
# under `nice` (as it once was here), its worker lost the core to roster's start in the middle of
# the TLS handshake, which libldap alone, idle while it waits, never caused (docs/benchmarks.md).
big_url=$(scripts/lib/slapd.sh start "$workdir/slapd-big" "$USERS" | sed -n 1p)
echo "slapd: $big_url with $USERS people (config and slapadd: $(( $(date +%s) - started )) s)"
small_url=$(scripts/lib/slapd.sh start "$workdir/slapd-small" "$SMALL" | sed -n 1p)
echo "slapd: $small_url with $SMALL people"

"$BIN/roster-server" --port 0 --database "$workdir/users.sqlite" --token "$TOKEN" --seed "$USERS" \
    --log-level warning >"$workdir/server.out" 2>"$workdir/server.err" &
server_pid=$!
URL=$(server_url "$server_pid" "$workdir/server.out" "$workdir/server.err") || exit 1
echo "roster-server: $URL with $USERS users"

total() { "$PYTHON" -c "print(f'{$1:,}')"; }   # as the list's position shows it: 100,000

# roster's settings for a slapd: its test CA. The bind DN and password come from the environment.
for name in big small; do
    mkdir -p "$workdir/config-$name/roster" "$workdir/state-$name"
    printf '{ "caFile": "%s" }\n' "$workdir/slapd-$name/ca.pem" >"$workdir/config-$name/roster/roster.json"
done
mkdir -p "$workdir/config-sorted/roster" "$workdir/state-sorted"
printf '{ "caFile": "%s", "sort": "name" }\n' "$workdir/slapd-big/ca.pem" >"$workdir/config-sorted/roster/roster.json"
mkdir -p "$workdir/config-server/roster" "$workdir/state-server"
echo '{}' >"$workdir/config-server/roster/roster.json"

# measure NAME SETTINGS MARKER QUIET_MS KEYS -- COMMAND...: one tuibench measurement into NAME.json
# (Esc before q: after a search, q would be typed into the search line).
measure() {
    local name=$1 settings=$2 marker=$3 quiet=$4 keys=$5 runs=${MEASURE_RUNS:-$RUNS}; shift 6
    echo "measuring $name ($keys, $runs runs)"
    ROSTER_PASSWORD=admin-secret "$PYTHON" "$TUIBENCH" --size 120x40 --runs "$runs" --quiet-log --marker "$marker" --startup-timeout 60 \
        --quiet-ms "$quiet" --startup-quiet-ms 50 --keys "$keys" --idle 0 --quit-keys "<Esc>,q" \
        --env "XDG_STATE_HOME=$workdir/state-$settings" --env "XDG_CONFIG_HOME=$workdir/config-$settings" --env LANG=C.UTF-8 \
        --env "ROSTER_BIND_DN=$ADMIN" \
        --json "$workdir/$name.json" -- "$@" >"$workdir/$name.txt" 2>&1 \
        || { cat "$workdir/$name.txt" >&2; exit 1; }
}

# libldap alone, before roster. The attributes are LDAPSchema.personAttributes for OpenLDAP.
attributes=(objectClass displayName cn givenName sn uid mail title telephoneNumber employeeNumber manager memberOf
            departmentNumber pwdAccountLockedTime createTimestamp modifyTimestamp)
people="ou=people,$BASE"
everyone="(objectClass=inetOrgPerson)"
found="(&(objectClass=inetOrgPerson)(|(displayName=*$SEARCH*)(cn=*$SEARCH*)(uid=*$SEARCH*)(mail=*$SEARCH*)))"
sort="displayName:caseIgnoreOrderingMatch"
raw() {
    local name=$1 url=$2 dir=$3 filter=$4 key=$5
    echo "measuring raw-$name (libldap, $RAW_RUNS runs)"
    LDAPTLS_CACERT="$workdir/$dir/ca.pem" LDAP_BENCH_PASSWORD=admin-secret \
        "$workdir/first_page" "$url" "$ADMIN" "$people" "$filter" 50 "$key" "$RAW_RUNS" "${attributes[@]}" >"$workdir/raw-$name.json"
}
raw sorted "$big_url" slapd-big "$everyone" "$sort"
raw unsorted "$big_url" slapd-big "$everyone" -
raw search "$big_url" slapd-big "$found" -
raw sorted-small "$small_url" slapd-small "$everyone" "$sort"
# The same unsorted page as a program, started as roster is: by tuibench in a 120x40
# pseudo-terminal, from its spawn to the read that shows the program's line, $RAW_RUNS times.
# tuibench's spawn (Python's fork and exec of the pty's child) is then in both figures: about
# 3 ms here, where a program started by Python's subprocess takes under 1 ms to run to its end.
echo "measuring raw-process (first_page as a program, $RAW_RUNS runs)"
LDAP_BENCH_PASSWORD=admin-secret "$PYTHON" "$TUIBENCH" --size 120x40 --runs "$RAW_RUNS" --quiet-log --marker cold_median_ms --startup-timeout 60 \
    --quiet-ms 50 --startup-quiet-ms 50 --idle 0 \
    --env "LDAPTLS_CACERT=$workdir/slapd-big/ca.pem" \
    --json "$workdir/raw-process.json" -- "$workdir/first_page" "$big_url" "$ADMIN" "$people" "$everyone" 50 - 1 "${attributes[@]}" \
    >"$workdir/raw-process.txt" 2>&1 || { cat "$workdir/raw-process.txt" >&2; exit 1; }
# And tuibench's spawn alone: a program that prints its line and ends (echo).
"$PYTHON" "$TUIBENCH" --size 120x40 --runs "$RAW_RUNS" --quiet-log --marker spawned --startup-timeout 60 \
    --quiet-ms 50 --startup-quiet-ms 50 --idle 0 --json "$workdir/spawn.json" -- /bin/echo spawned \
    >"$workdir/spawn.txt" 2>&1 || { cat "$workdir/spawn.txt" >&2; exit 1; }

# The search's answer comes after the 200 ms debounce: a quiet window of 400 ms keeps it in the
# key's response.
MEASURE_RUNS=$FIRST_RUNS measure ldap-search big "1 / 51+" 400 "/,$SEARCH" -- "$BIN/roster" --server "$big_url"
measure ldap-sorted sorted "1 / $(total "$USERS")" 400 "/,$SEARCH" -- "$BIN/roster" --server "$big_url"
MEASURE_RUNS=$FIRST_RUNS measure server-search server "1 / $(total "$USERS")" 400 "/,$SEARCH" -- "$BIN/roster" --server "$URL" --token "$TOKEN"
measure ldap-scroll big "1 / 51+" 50 '<PgDn>*300' -- "$BIN/roster" --server "$big_url"
measure ldap-scroll-small small "1 / 51+" 50 '<PgDn>*300' -- "$BIN/roster" --server "$small_url"
measure server-scroll server "1 / $(total "$USERS")" 50 '<PgDn>*300' -- "$BIN/roster" --server "$URL" --token "$TOKEN"

"$PYTHON" scripts/bench_ldap_report.py "$workdir" "$SEARCH" "$USERS" "$SMALL"
