#!/bin/bash
# Runs each libFuzzer target of `roster-fuzz` (Sources/FuzzTargets) for FUZZ_SECONDS from its
# committed seeds (fuzz/corpus/TARGET, read only) and the corpus earlier runs grew
# (.build/fuzz-corpus/TARGET), then prints per target: executions, corpus size, coverage
# gained, crashes. A crash's input is kept in .build/fuzz-crashes/TARGET; replay it with an
# ordinary build: `.build/debug/roster-fuzz TARGET FILE`. Exits 1 when any target crashed.
# Usage: FUZZ_SECONDS=60 scripts/fuzz.sh [TARGET…]   (default: every folder of fuzz/corpus)
set -uo pipefail
# Swift's own crash backtracer is slow under ASan; libFuzzer and ASan print the stack.
export SWIFT_BACKTRACE=enable=no
# libFuzzer ends with exit(), and LeakSanitizer's check at exit would take what Swift globals
# hold (enum and string pointers carry tag bits it cannot follow) for leaks. Leaks in each
# input's own work are still checked, by libFuzzer after every input.
export ASAN_OPTIONS=${ASAN_OPTIONS:-leak_check_at_exit=0}
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/fuzz/debug/roster-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
[ -x "$BIN" ] || { echo "fuzz.sh: $BIN is not built (make fuzz builds it)"; exit 1; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls fuzz/corpus))

failed=0
summary=()
for target in "${targets[@]}"; do
    [ -d "fuzz/corpus/$target" ] || { echo "fuzz.sh: no seeds in fuzz/corpus/$target"; exit 1; }
    work=.build/fuzz-corpus/$target crashes=.build/fuzz-crashes/$target log=.build/fuzz-logs/$target.log
    mkdir -p "$work" "$crashes" .build/fuzz-logs
    before=$(ls "$crashes" | wc -l)
    echo "== $target: ${SECONDS_EACH}s"
    # Leaks are checked (libFuzzer's default with ASan); a slow input (over 10 s) is a crash too.
    nice -n 15 "$BIN" "$target" -max_total_time="$SECONDS_EACH" -print_final_stats=1 -timeout=10 \
        -rss_limit_mb=2048 -max_len=8192 -artifact_prefix="$crashes/" "$work" "fuzz/corpus/$target" >"$log" 2>&1
    status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    inited=$(grep -E '^#[0-9]+\s+INITED' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+\s+(DONE|NEW|REDUCE|pulse|INITED)' "$log" | tail -1)
    field() { sed -n "s/.* $1: \([0-9]*\).*/\1/p" <<<"$2"; }
    start_cov=$(field cov "$inited") end_cov=$(field cov "$last") start_ft=$(field ft "$inited") end_ft=$(field ft "$last")
    corpus=$(ls "$work" | wc -l) seeds=$(ls "fuzz/corpus/$target" | wc -l)
    found=$(( $(ls "$crashes" | wc -l) - before ))
    line=$(printf '%-16s executions %9s  corpus %5s (seeds %2s)  cov %5s -> %-5s ft %6s -> %-6s  crashes %s' \
        "$target" "${executions:-?}" "$corpus" "$seeds" "${start_cov:-?}" "${end_cov:-?}" "${start_ft:-?}" "${end_ft:-?}" "$found")
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        failed=1
        line+="  FAILED (exit $status; see $log)"
        grep -E 'ERROR: |fuzz check failed|Fatal error|SUMMARY' "$log" | head -5
    fi
    summary+=("$line")
done
echo
printf '%s\n' "${summary[@]}"
exit $failed
