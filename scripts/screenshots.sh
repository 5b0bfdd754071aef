#!/usr/bin/env bash
# Makes the PNGs in screenshots/ from the real program in a real terminal (tmux):
# a roster-server on a temporary database, `roster` connected to it, keys sent with
# send-keys, the screen captured with colours (capture-pane -e) and drawn by ansi_to_png.py.
# The last shots are of LDAP directories: Samba's AD DC and OpenLDAP's slapd, started by
# scripts/lib/samba.sh and scripts/lib/slapd.sh (make ldap-deps installs them).
# Run through `make screenshots`, which builds the binaries and installs the fonts, pyte and Pillow.
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
SCIM_PID=""
REVIEW_PID=""
ROSTER_ARGS=""
mkdir -p "$OUT"

cleanup() {
  tmux -L "$SOCKET" kill-server 2>/dev/null || true
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  [ -n "$SCIM_PID" ] && kill -9 "$SCIM_PID" 2>/dev/null || true
  [ -n "$REVIEW_PID" ] && kill "$REVIEW_PID" 2>/dev/null || true
  [ -d "$WORK/slapd" ] && scripts/lib/slapd.sh halt "$WORK/slapd" || true
  [ -d "$WORK/samba" ] && scripts/lib/samba.sh halt "$WORK/samba" || true
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

# new_session COLS ROWS COMMAND: COMMAND in a new tmux session of that size.
new_session() {
  # A new tmux server per session: kill-server returns before the old one has let go of its
  # socket, and a client that connects meanwhile gets "server exited unexpectedly".
  tmux -L "$SOCKET" kill-server 2>/dev/null || true
  SESSIONS=$((SESSIONS + 1))
  SOCKET="roster-shots-$$-$SESSIONS"
  tmux -L "$SOCKET" -f /dev/null new-session -d -s shot -x "$1" -y "$2" "env TERM=xterm-256color LANG=C.UTF-8 $3"
}

# start_roster COLS ROWS: roster in a new tmux session of that size.
start_roster() {
  new_session "$1" "$2" "XDG_STATE_HOME=$WORK/state $BIN/roster --server $URL --token $TOKEN $ROSTER_ARGS"
}

# start_ldap_roster COLS ROWS BIND_DN PASSWORD CA: roster on the LDAP server at $URL, the bind
# password in a 0600 file named by the settings (never on a command line).
start_ldap_roster() {
  local config="$WORK/ldap-config-$((SESSIONS + 1))"
  mkdir -p -m 700 "$config/roster"
  (umask 077; printf '%s' "$4" >"$config/password")
  printf '{"bindDN": "%s", "passwordFile": "%s", "caFile": "%s"}\n' "$3" "$config/password" "$5" >"$config/roster/roster.json"
  new_session "$1" "$2" "XDG_STATE_HOME=$WORK/state XDG_CONFIG_HOME=$config $BIN/roster --server $URL"
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

# suspend_matching TEXT: search for TEXT, mark every user found (*) and suspend them (S, y).
suspend_matching() {
  keys /
  keys -l "$1"
  keys Enter
  count=$(curl -s -H "Authorization: Bearer $TOKEN" "$URL/api/v1/users?per_page=1&q=$1" | python3 -c 'import json,sys; print("{:,}".format(json.load(sys.stdin)["data"]["total"]))')
  wait_for "1 / $count "
  keys '*'
  wait_for "$count marked"
  keys S
  wait_for "Suspend "
  keys y
}

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
  if [ -n "${KEEP_CAPTURES:-}" ]; then   # the captures and their arguments, to work on the renderer
    mkdir -p "$KEEP_CAPTURES" && cp "$WORK/$name.ansi" "$KEEP_CAPTURES/"
    printf '%s\n' "$cols" "$rows" "$title" "$cursor" >"$KEEP_CAPTURES/$name.args"
  fi
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

# 1b. Filters in force: the filter line's status and role, with a search; the server filters.
keys f
wait_for "Filter:"
keys -l "status:active role:admin"
keys Enter
wait_for "role admin"
keys /
keys -l "an"
keys Enter
wait_for "“an”"
sleep 0.3
shot filters-active 120 40 "roster — filters in force (f, t, o)"
keys Escape F
wait_for "2,000 users"

# 2. Help.
keys '?'
wait_for "Keys"
shot help 120 40 "roster — help (?)"
keys Escape

# 3. The create form with the server's field error (an email that is taken).
taken=$(curl -s -H "Authorization: Bearer $TOKEN" "$URL/api/v1/users?per_page=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["items"][0]["email"])')
keys n
wait_for "New user"
keys -l "Ana Lima"
keys Tab
keys -l "$taken"
keys Enter
wait_for "already taken"
shot create-form-error 120 40 "roster — new user, email taken"
keys Escape
keys y 2>/dev/null || true

# 3b. The import preview: a Google Workspace file compared with the directory, three ways:
# new users, users it changes (before → after) and rows that change nothing; a bad row named.
curl -s -H "Authorization: Bearer $TOKEN" "$URL/api/v1/users?per_page=3&sort=name" | python3 -c '
import json, sys
users = json.load(sys.stdin)["data"]["items"]
def split(name):
    first, _, last = name.partition(" ")
    return first, last or "-"
rows = ["First Name [Required],Last Name [Required],Email Address [Required],Password [Required],Org Unit Path [Required],New Status [UPLOAD ONLY]"]
emails = [user["email"] for user in users]
names = [split(user["name"]) for user in users]
flip = "Active" if users[0]["status"] == "suspended" else "Suspended"
rows.append(f"{names[0][0]},{names[0][1]},{emails[0]},,/,{flip}")
rows.append(f"{names[1][0]},{names[1][1]}-Moreau,{emails[1]},,/,")
rows.append(f"{names[2][0]},{names[2][1]},{emails[2]},,/,")
rows += ["Amara,Okafor,amara.okafor@example.com,Secret-1!,/,", "Jonas,Becker,jonas.becker@example.com,Secret-2!,/,",
         "ليلى,عبد الله,layla.abdallah@example.com,Secret-3!,/,", "Priya,Raman,priya.raman@example,Secret-4!,/,",
         "芳,王,wang.fang@example.com,Secret-5!,/,Active", "Kenji,Watanabe,kenji.watanabe@example.com,Secret-6!,/,"]
print("\r\n".join(rows))
' >"$WORK/new-hires.csv"
start_roster 120 40
wait_for "2,000 users"
keys i
wait_for "Import from:"
keys -l "$WORK/new-hires.csv"
keys Enter
wait_for "unchanged ·"
shot import-preview 120 40 "roster — import preview (i): new, changed, unchanged"
keys Escape

# 4. The 80×24 layout: the detail pane below the list.
start_roster 80 24
wait_for "2,000 users"
keys j j
wait_for "3 / 2,000"
shot layout-80x24 80 24 "roster — 80×24"

# 4b. The groups view: the seed's demo groups, then Tab.
start_roster 120 40
wait_for "2,000 users"
keys Tab
wait_for "Members of"
keys j
sleep 0.3               # the members follow once the selection rests
wait_for "Members of Engineering"
shot groups-view 120 40 "roster — the groups view (Tab)"

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

# 7. A bulk run in progress: every user matching a search marked (*) and suspended, on a
#    server slowed to 60 ms a call so the run is caught mid-way.
start_server bulk --latency 60
start_roster 120 40
wait_for "2,000 users"
suspend_matching example.org
wait_for "left"
sleep 4                 # a few hundred in, so the bar shows
shot bulk-progress 120 40 "roster — suspending all users matching a search"

# 7b. Recent changes (U): two users suspended or reactivated one at a time, the users matching
#     a search suspended as a run, and that run undone; U lists them newest first.
rm -f "$WORK"/state/roster/journal.sqlite*
start_server journal
start_roster 120 40
wait_for "2,000 users"
wait_for "1 / 2,000"
sleep 0.5               # the detail pane follows once the selection rests
keys S
wait_for "ed Arthur"         # suspended, or reactivated: S toggles
keys j j S
wait_for "3 / 2,000"
sleep 0.5
suspend_matching example.net
wait_for " users in "       # "Suspended 250 users in 0.4 s; 124 already suspended"
keys U
wait_for "Recent changes"
keys u
wait_for "Set back"
keys y
wait_for "Esc  Back"
keys Escape
wait_for "Runs and changes"
keys j
shot recent-changes 120 40 "roster — recent changes (U): undo any change or run"

# 8. A SCIM service: PyPI's scim2-server (make scim-peer), with users as an identity provider
#    would provision them (titles, phones, enterprise attributes).
[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
SCIM_PYTHON=${SCIM_PYTHON:-.build/scim-peer/bin/python3}
TOKEN="shots-scim-token"
"$SCIM_PYTHON" scripts/scim/scim2_server_port0.py --hostname 127.0.0.1 --port 0 --bearer-token "$TOKEN" >"$WORK/scim.log" 2>&1 &
SCIM_PID=$!
for _ in $(seq 1 200); do grep -q SCIM_PORT= "$WORK/scim.log" && break; sleep 0.05; done
URL="http://127.0.0.1:$(sed -n 's/^SCIM_PORT=//p' "$WORK/scim.log")/v2"
"$PYTHON" - "$URL" "$TOKEN" <<'PY'
import json, sys, urllib.request
url, token = sys.argv[1], sys.argv[2]
people = [("Amara", "Okafor", "Engineering", "Staff Engineer"), ("Björn", "Lindqvist", "Finance", "Controller"),
          ("李", "娜", "Sales", "Account Executive"), ("Fatima", "Al-Sayed", "Legal", "Counsel"),
          ("Mateo", "García", "Engineering", "SRE"), ("Priya", "Raman", "Product", "Product Manager"),
          ("Olga", "Ivanova", "Support", "Team Lead"), ("Kenji", "Watanabe", "Engineering", "Developer"),
          ("Zoë", "Martin", "Marketing", "Designer"), ("Noah", "Cohen", "Security", "Analyst")]
operations = []
for n in range(60):
    given, family, department, title = people[n % len(people)]
    handle = f"user{n:02d}"
    operations.append({"method": "POST", "bulkId": f"b{n}", "path": "/Users", "data": {
        "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
        "userName": f"{handle}@corp.example", "displayName": f"{given} {family}" + ("" if n < 10 else f" {n}"),
        "name": {"givenName": given, "familyName": family}, "title": title, "active": n % 7 != 3,
        "emails": [{"value": f"{handle}@corp.example", "type": "work", "primary": True}],
        "phoneNumbers": [{"value": f"+1 555 01{n:02d}", "type": "work"}],
        "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"department": department, "employeeNumber": str(7000 + n)}}})
body = json.dumps({"schemas": ["urn:ietf:params:scim:api:messages:2.0:BulkRequest"], "Operations": operations}).encode()
request = urllib.request.Request(url + "/Bulk", data=body, method="POST",
    headers={"Authorization": f"Bearer {token}", "Content-Type": "application/scim+json"})
urllib.request.urlopen(request).read()
PY
ROSTER_ARGS="--api scim"
start_roster 120 40
wait_for "1 / 60"
keys j j
wait_for "3 / 60"
sleep 0.3
shot scim-list-and-detail 120 40 "roster — a SCIM 2.0 service (scim2-server)"

# 9. A save refused with 412: someone suspends the user while the form is open.
keys e
wait_for "Edit "
# The selected user: the third by display name, as roster sorts (sortBy=displayName).
id=$(curl -s -H "Authorization: Bearer $TOKEN" "$URL/Users?count=3&sortBy=displayName&sortOrder=ascending" | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["Resources"][2]["id"])')
keys C-u
keys -l "Lí Nà (Sales)"
curl -s -o /dev/null -X PATCH -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/scim+json" \
  -d '{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"active","value":false}]}' \
  "$URL/Users/$id"
keys Enter
wait_for "Someone changed"
shot scim-edit-conflict 120 40 "roster — someone changed the user (412)"
keys Escape

# 10. The connection picker (C): four profiles with their live status, the SCIM one on screen.
SCIM_URL=$URL
SCIM_TOKEN=$TOKEN
start_server picker
mkdir -p "$WORK/picker-config/roster"
cat >"$WORK/picker-config/roster/roster.json" <<JSON
{
  default: "hr-scim",
  connections: {
    "hr-scim": { server: "$SCIM_URL", api: "scim", token: "$SCIM_TOKEN", color: "red" },
    staging: { server: "$URL", token: "$TOKEN", color: "green" },
    laptop: { embedded: { database: "$WORK/laptop.sqlite" } },
    "old-ldap-gw": { server: "http://127.0.0.1:9/", connectTimeoutSeconds: 1 },
  },
}
JSON
new_session 120 40 "XDG_STATE_HOME=$WORK/picker-state XDG_DATA_HOME=$WORK/data XDG_CONFIG_HOME=$WORK/picker-config $BIN/roster"
wait_for "1 / 60"
keys C
wait_for "2,000 users"
wait_for "embedded · starts when chosen"
wait_for "✗"
keys Down
shot connection-picker 120 40 "roster — the connection picker (C)"

# 11. Active Directory: Samba's AD DC (scripts/lib/samba.sh, provisioned once per machine),
#     over StartTLS; the list and a person's detail.
URL=$(scripts/lib/samba.sh start "$WORK/samba" | sed -n 1p)
start_ldap_roster 120 40 Administrator@roster.test Admin-Secret-1 "$WORK/samba/ca.pem"
wait_for "LDAP · ldap://"
wait_for "1 / "
keys j j j j
wait_for "5 / "
sleep 0.5               # the detail pane follows once the selection rests
shot ad-list-and-detail 120 40 "roster — Active Directory (Samba AD DC)"
scripts/lib/samba.sh halt "$WORK/samba"

# 12. OpenLDAP (scripts/lib/slapd.sh, 20,000 people): every person matching a search marked and
#     suspended (ppolicy's pwdAccountLockedTime), caught mid-run.
URL=$(scripts/lib/slapd.sh start "$WORK/slapd" 20000 | sed -n 1p)
start_ldap_roster 120 40 cn=admin,dc=roster,dc=test admin-secret "$WORK/slapd/ca.pem"
wait_for "LDAP · ldap://"
wait_for "1 / "
keys '*'
wait_for "marked"
keys S
wait_for "Suspend "
keys y
wait_for "left"
sleep 2                 # a few thousand in, so the bar shows
shot ldap-bulk-progress 120 40 "roster — suspending 20,000 people in OpenLDAP (slapd)"

# 13. An access review (roster compare hr saas): two roster-servers, saas with 40 accounts hr
#     does not have, and six people suspended in hr who are still active in saas; three renamed
#     in saas. The leavers come first, their count in the header.
start_server review-hr
HR_URL=$URL
"$BIN/roster-server" --port 0 --database "$WORK/review-saas.sqlite" --token "$TOKEN" --seed 2040 >"$WORK/review-saas.log" 2>&1 &
REVIEW_PID=$!
SAAS_URL=$(server_url "$REVIEW_PID" "$WORK/review-saas.log" "$WORK/review-saas.log") || exit 1
"$PYTHON" - "$HR_URL" "$SAAS_URL" "$TOKEN" <<'PY'
import json, sys, urllib.request
hr, saas, token = sys.argv[1:4]
def call(base, method, path, body=None):
    request = urllib.request.Request(base.rstrip("/") + path, method=method, data=json.dumps(body).encode() if body else None,
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))["data"]
def draft(user, **changes):
    return {**{key: user[key] for key in ("name", "email", "role", "status")}, **changes}
for user in call(hr, "GET", "/api/v1/users?per_page=6&status=active&sort=-created_at")["items"]:
    call(hr, "PUT", "/api/v1/users/" + user["id"], draft(user, status="suspended"))
    same = call(saas, "GET", "/api/v1/users?q=" + urllib.request.quote(user["email"]))["items"][0]
    call(saas, "PUT", "/api/v1/users/" + same["id"], draft(same, status="active"))
for user in call(saas, "GET", "/api/v1/users?per_page=3&sort=name")["items"]:
    call(saas, "PUT", "/api/v1/users/" + user["id"], draft(user, name=user["name"] + " (contractor)"))
PY
mkdir -p "$WORK/review-config/roster"
cat >"$WORK/review-config/roster/roster.json" <<JSON
{ connections: { hr: { server: "$HR_URL", api: "roster", token: "$TOKEN" },
                 saas: { server: "$SAAS_URL", api: "roster", token: "$TOKEN", color: "red" } } }
JSON
new_session 120 40 "XDG_STATE_HOME=$WORK/review-state XDG_CONFIG_HOME=$WORK/review-config $BIN/roster compare hr saas"
wait_for "Leavers (1/4"
keys j j
sleep 0.5               # the detail pane follows once the selection rests
shot access-review 120 40 "roster compare hr saas — the leavers first"
