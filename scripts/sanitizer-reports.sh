#!/usr/bin/env bash
# After `make test-tsan` or `make test-asan`: prints every sanitizer report written to DIR (the
# test process's and those of the programs the tests started, roster and roster-server, which
# the tests do not read) and fails if there is one. Usage: sanitizer-reports.sh DIR
set -uo pipefail
dir=$1
shopt -s nullglob
reports=("$dir"/*)
[ ${#reports[@]} -eq 0 ] && { echo "No sanitizer report in $dir."; exit 0; }
for report in "${reports[@]}"; do echo "== $report"; cat "$report"; done
echo "${#reports[@]} sanitizer report file(s) in $dir (above)." >&2
exit 1
