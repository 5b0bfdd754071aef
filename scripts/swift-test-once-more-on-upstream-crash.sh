#!/usr/bin/env bash
# Runs a `swift test` command; if it crashed in swift-corelibs-foundation's Process.run() (the
# over-read of /proc/self/fd entries in findMaximumOpenFromProcSelfFD, fixed upstream by
# swiftlang/swift-corelibs-foundation PR 5472 but still in Swift 6.3.1: a memcpy in the frame
# just below Process.run() in the crash's backtrace), runs it once more, saying so. Any other
# failure, a test's or another crash, fails at once as it is.
set -uo pipefail
log=$(mktemp)
# The end-to-end tests' tmux servers (Tests/EndToEndTests/Support/TmuxSession.swift) are named
# roster-e2e-PID-...: a test process that crashed never stopped its own. Those whose process is
# gone are stopped after each run, so none outlives it (another run's are left alone).
stop_orphaned_tmux_servers() {
    local folder socket pid
    folder="${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)"
    for socket in "$folder"/roster-e2e-*; do
        [ -S "$socket" ] || continue
        pid=${socket##*/roster-e2e-}
        pid=${pid%%-*}
        [[ $pid =~ ^[0-9]+$ ]] && ! kill -0 "$pid" 2>/dev/null || continue
        tmux -S "$socket" kill-server 2>/dev/null || true
        rm -f "$socket"
    done
}
# Every process the tests start (slapd, PostgreSQL, the SCIM peers, roster-server, Samba's stdin
# holder, whose end ends `samba -i`) inherits this mark in its environment; the script itself
# does not carry it. A crashed test process never stopped its peers: after each attempt,
# whatever still carries the mark 5 s later is stopped (the wait lets each test process's
# PostgreSQL watcher, which polls every 0.5 s, stop its cluster and delete its folder).
run_mark="ROSTER_TEST_RUN=$$-$(date +%s%N)"
marked_processes() {
    grep -lsxzF "$run_mark" /proc/[0-9]*/environ | sed 's|^/proc/\([0-9]*\)/environ$|\1|'
}
stop_marked_processes() {
    local wait pids
    for wait in $(seq 1 50); do
        pids=$(marked_processes)
        [ -n "$pids" ] || return 0
        sleep 0.1
    done
    kill -TERM $pids 2>/dev/null || true
}
trap 'rm -f "$log"; stop_marked_processes; stop_orphaned_tmux_servers' EXIT
env "$run_mark" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] && exit 0
# The crashing thread's first frames: libc's memcpy (or memmove), then Process.run(); or the
# function itself.
if awk '/ crashed:$/ { frames = 3; memcpy = 0; next }
        frames > 0 && /^ *[0-9]+ / { frames--; if ($0 ~ /__mem(cpy|move)/) memcpy = 1;
                                     if ((memcpy && $0 ~ /Process\.run\(\)/) || $0 ~ /findMaximumOpenFromProcSelfFD/) found = 1 }
        END { exit found ? 0 : 1 }' "$log"; then
    echo "The test run crashed in Foundation's Process.run() (swift-corelibs-foundation PR 5472, an upstream bug, not a test's failure): running it once more." >&2
    stop_marked_processes
    stop_orphaned_tmux_servers
    env "$run_mark" "$@"
    exit $?
fi
exit "$status"
