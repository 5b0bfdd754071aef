#!/usr/bin/env bash
# Makes the PNGs in screenshots/ from the real program in a real terminal (tmux):
# a roster-server on a temporary database, `roster` connected to it, keys sent with
# send-keys, the screen captured with colours (capture-pane -e) and drawn by ansi_to_png.py.
# Run through `make screenshots`, which builds the binaries and installs fonts and Pillow.
set -euo pipefail
source "$(dirname "$0")/lib/server.sh"
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/debug}
PYTHON=${PYTHON:-python3}
OUT=${OUT:-screenshots}
WORK=$(mktemp -d /tmp/roster-shots.XXXXXX)
SOCKET="roster-shots-$$-0"
SESSIONS=0
SERVER_PID=""
mkdir -p "$OUT"

cleanup() {
  tmux -L "$SOCKET" kill-server 2>/dev/null || true
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# start_server NAME [roster-server flags...]: a fresh server; sets URL and TOKEN.
start_server() {
  local name=$1; shift
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
  TOKEN="shots-token"
  "$BIN/roster-server" --port 0 --database "$WORK/$name.sqlite" --token "$TOKEN" --seed 2000 "$@" >"$WORK/$name.log" 2>&1 &
  SERVER_PID=$!
  URL=$(server_url "$SERVER_PID" "$WORK/$name.log" "$WORK/$name.log") || exit 1
}

# start_roster COLS ROWS: roster in a new tmux session of that size.
start_roster() {
  # A new tmux server per session: kill-server returns before the old one has let go of its
  # socket, and a client that connects meanwhile gets "server exited unexpectedly".
  tmux -L "$SOCKET" kill-server 2>/dev/null || true
  SESSIONS=$((SESSIONS + 1))
  SOCKET="roster-shots-$$-$SESSIONS"
  tmux -L "$SOCKET" -f /dev/null new-session -d -s shot -x "$1" -y "$2" \
    "env TERM=xterm-256color XDG_STATE_HOME=$WORK/state $BIN/roster --server $URL --token $TOKEN"
}

# wait_for TEXT: until the screen shows TEXT (20 s at most).
wait_for() {
  for _ in $(seq 1 400); do
    tmux -L "$SOCKET" capture-pane -p -t shot | grep -qF -- "$1" && return 0
    sleep 0.05
  done
  echo "timed out waiting for '$1'; the screen was:" >&2
  tmux -L "$SOCKET" capture-pane -p -t shot >&2
  exit 1
}

keys() { tmux -L "$SOCKET" send-keys -t shot "$@"; }

# shot NAME COLS ROWS TITLE: capture the pane and render it.
shot() {
  local name=$1 cols=$2 rows=$3 title=$4
  sleep 0.3  # let the last frame finish (the spinner ticks every 100 ms)
  tmux -L "$SOCKET" capture-pane -p -e -N -t shot >"$WORK/$name.ansi"
  local cursor
  local flag position
  read -r flag position < <(tmux -L "$SOCKET" display -p -t shot '#{cursor_flag} #{cursor_y},#{cursor_x}')
  cursor=""
  [ "$flag" = 1 ] && cursor=$position   # drawn only where the program shows it (a form field)
  "$PYTHON" scripts/ansi_to_png.py "$WORK/$name.ansi" "$OUT/$name.png" --cols "$cols" --rows "$rows" \
    --title "$title" ${cursor:+--cursor "$cursor"}
  echo "$OUT/$name.png"
}

# 1. The list with the detail pane, a few rows down.
start_server main
start_roster 120 40
wait_for "2,000 users"
keys s s s s s          # newest first: names from every script the demo data has
wait_for "created ↓"
wait_for "1 / 2,000"
keys j j j j j
wait_for "6 / 2,000"
sleep 0.3               # the detail pane follows once the selection rests
shot list-and-detail 120 40 "roster — 120×40"

# 2. Help.
keys '?'
wait_for "Keys"
shot help 120 40 "roster — help (?)"
keys Escape

# 3. The create form with the server's field error (an email that is taken).
taken=$(curl -s -H "Authorization: Bearer $TOKEN" "$URL/api/v1/users?per_page=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["items"][0]["email"])')
keys n
wait_for "New user"
tmux -L "$SOCKET" send-keys -t shot -l "Ana Lima"
keys Tab
tmux -L "$SOCKET" send-keys -t shot -l "$taken"
keys Enter
wait_for "already taken"
shot create-form-error 120 40 "roster — new user, email taken"
keys Escape
keys y 2>/dev/null || true

# 4. The 80×24 layout: the detail pane below the list.
start_roster 80 24
wait_for "2,000 users"
keys j j
wait_for "3 / 2,000"
shot layout-80x24 80 24 "roster — 80×24"

# 5. The loading spinner: a server that takes 4 s per request.
start_server slow --latency 4000
start_roster 120 40
wait_for "Loading users"
shot loading 120 40 "roster — loading"

# 6. The error dialog: a server whose first 100 calls fail with 503.
start_server failing --fail-first 100
start_roster 120 40
wait_for "Retry"
shot error-dialog 120 40 "roster — error dialog"
