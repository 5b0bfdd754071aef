#!/usr/bin/env bash
# make check-api: starts roster-server on a throwaway database with some demo users and a named
# token with the admin scope, runs schemathesis (every check it has) against the server's own /openapi.json, and
# stops the server. Exits with schemathesis's status.
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"

BIN=${BIN:-.build/debug}
# schemathesis from this virtual environment when it has one (make installs it there).
VENV=${VENV:-.build/api-check}
[ ! -x "$VENV/bin/schemathesis" ] || PATH="$(cd "$VENV/bin" && pwd):$PATH"
TOKEN=check-api-token-$$
MAX_EXAMPLES=${MAX_EXAMPLES:-100}

throwaway_server 200 "$TOKEN"
echo "roster-server at $URL"
# Through a named token with the admin scope (and read and write: every operation of the
# document), looked up in the database as a deployment's would be, not the bootstrap token.
TOKEN=$("$BIN/roster-server" token create schemathesis --scope read,write,admin --database "$database" | sed -n 's/^token: //p')
[ -n "$TOKEN" ] || { echo "roster-server token create gave no token"; exit 1; }

status=0
# The one rule of the contract JSON Schema cannot state is handled in the hooks (see there).
scripts_dir="$(cd "$(dirname "$0")" && pwd)"
export SCHEMATHESIS_HOOKS="$scripts_dir/schemathesis_hooks.py"
# schemathesis keeps a cache in the working directory: keep it out of the repository.
cd "$workdir"
# Per-operation settings (the one expected 422 of a schema-valid body) are in the config file.
schemathesis --config-file "$scripts_dir/schemathesis.toml" run "$URL/openapi.json" --header "Authorization: Bearer $TOKEN" --checks all \
    --max-examples "$MAX_EXAMPLES" --no-color || status=$?
if grep -q ' error ' "$workdir/stderr"; then
    echo "the server logged errors:"; grep ' error ' "$workdir/stderr" | head -20
    status=1
fi
exit $status
