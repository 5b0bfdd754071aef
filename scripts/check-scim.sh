#!/usr/bin/env bash
# make check-scim: starts roster-server on a throwaway database and port, over HTTPS, with a scim-scoped token
# (a SQLite file; DATABASE=postgres, `make check-scim DATABASE=postgres`, a throwaway PostgreSQL cluster),
# runs two independent SCIM conformance checkers from PyPI against its /scim/v2 endpoint, and
# stops the server. Both must report no failure:
#   scim2-tester (through `scim2 … test`): every check it has; it exits 1 on anything that is
#     not SUCCESS, skips included.
#   scim-sanity (`probe … --i-accept-side-effects`): every probe, in strict mode. It skips its
#     Agent and AgenticApplication probes (a draft extension's resource types, which
#     roster-server does not serve); a skip is not a failure there.
# One scim-sanity probe is expected to fail, by design: its group probe adds a member id that
# does not exist, and roster-server keeps membership integrity (400 invalidValue, never a
# dangling member; docs/api.md, "Membership integrity"). This script passes when that is the only
# failure, and says so; any other failure, or that one passing, fails it.
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"

BIN=${BIN:-.build/debug}
VENV=${VENV:-.build/scim-check}
TOKEN=check-scim-token-$$
KNOWN_FAILURE="PATCH /Groups/{id} add member"

# The checkers reach the server as an identity provider would: over HTTPS, with a certificate
# from a throwaway authority made here (trusted through SSL_CERT_FILE, which both checkers'
# Python TLS reads), and with a named token that has the scim scope only.
tls_dir=$(mktemp -d)
openssl_quiet() { openssl "$@" 2>/dev/null; }
openssl_quiet req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
    -keyout "$tls_dir/ca.key" -out "$tls_dir/ca.pem" -subj "/CN=check-scim CA"
openssl_quiet req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$tls_dir/server.key" -out "$tls_dir/server.csr" -subj "/CN=localhost"
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$tls_dir/server.ext"
openssl_quiet x509 -req -in "$tls_dir/server.csr" -CA "$tls_dir/ca.pem" -CAkey "$tls_dir/ca.key" -CAcreateserial \
    -days 1 -extfile "$tls_dir/server.ext" -out "$tls_dir/server.pem"
chmod 600 "$tls_dir/server.key"

throwaway_server 20 "$TOKEN" --tls-cert "$tls_dir/server.pem" --tls-key "$tls_dir/server.key"
trap 'stop_throwaway_server; rm -rf "$tls_dir"' EXIT
TOKEN=$("$BIN/roster-server" token create identity-provider --scope scim --database "$database" | sed -n 's/^token: //p')
[ -n "$TOKEN" ] || { echo "roster-server token create gave no token"; exit 1; }
export SSL_CERT_FILE=$tls_dir/ca.pem
URL=$URL/scim/v2
echo "roster-server SCIM endpoint at $URL, on ${DATABASE:-sqlite}, with a scim-scoped token"
status=0

echo
echo "== scim2-tester $("$VENV/bin/python3" -c 'import importlib.metadata as m; print(m.version("scim2-tester"))') (scim2 --url URL test)"
tester_status=0
SCIM_CLI_HEADERS="Authorization: Bearer $TOKEN" "$VENV/bin/scim2" --url "$URL" test >"$workdir/tester.txt" 2>&1 || tester_status=$?
# Only what did not succeed, with its reason lines.
awk '/^[A-Z]+ / { show = ($1 != "SUCCESS") } show' "$workdir/tester.txt" | head -60
tester_summary=$(awk '$1 ~ /^(SUCCESS|ERROR|SKIPPED|CRITICAL|WARNING)$/ { n[$1]++ } END { s = ""; for (k in n) s = s (s ? ", " : "") n[k] " " k; print s }' "$workdir/tester.txt")
echo "scim2-tester: ${tester_summary:-no results} (exit $tester_status)"
[ "$tester_status" = 0 ] || status=1

echo
echo "== scim-sanity $("$VENV/bin/python3" -c 'import importlib.metadata as m; print(m.version("scim-sanity"))') (probe URL --i-accept-side-effects)"
"$VENV/bin/scim-sanity" probe "$URL" --token "$TOKEN" --i-accept-side-effects --json-output >"$workdir/sanity.json" 2>"$workdir/sanity.stderr" || true
KNOWN_FAILURE="$KNOWN_FAILURE" "$VENV/bin/python3" - "$workdir/sanity.json" <<'PY' || status=1
import json, os, sys
try:
    report = json.load(open(sys.argv[1]))
except Exception as error:
    print(f"scim-sanity gave no report: {error}")
    sys.exit(1)
summary = report["summary"]
bad = [r for r in report["results"] if r["status"] in ("fail", "error", "FAIL", "ERROR")]
for r in report["results"]:
    if r["status"] not in ("pass", "PASS"):
        print(f'  {r["status"].upper():5} {r["name"]}: {r.get("message", "")}')
print("scim-sanity: {total} probes, {passed} passed, {failed} failed, {warnings} warnings, {skipped} skipped, {errors} errors".format(**summary))
known = os.environ["KNOWN_FAILURE"]
unexpected = [r for r in bad if r["name"] != known]
if unexpected:
    print(f"scim-sanity: {len(unexpected)} unexpected failure(s)")
    sys.exit(1)
if [r["name"] for r in bad] == [known]:
    print(f'scim-sanity: the one failure is the known one, "{known}": the probe adds a member id that does not exist,')
    print("  and roster-server answers 400 invalidValue by design (membership integrity, docs/api.md). Passing.")
    sys.exit(0)
print(f'scim-sanity: "{known}" did not fail as expected: look at what the server answered.')
sys.exit(1)
PY

if grep -q ' error ' "$workdir/stderr"; then
    echo "the server logged errors:"; grep ' error ' "$workdir/stderr" | head -20
    status=1
fi
echo
if [ "$status" = 0 ]; then echo "check-scim: passed"; else echo "check-scim: FAILED"; fi
exit $status
