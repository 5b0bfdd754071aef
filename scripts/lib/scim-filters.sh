# Sourced by the benches: the SCIM filters identity providers send before they write (issue
# 31's table), measured with wrk at 1 connection against a seeded roster-server (SCIM lists are
# never cached), each beside the HTTP floor of a body of the same size.
#
# scim_filters_prepare URL TOKEN [USERS]: provisions $SCIM_FILTER_USERS (1,000) users over SCIM
# POST as an identity provider would (a work email containing "ivan", a home one, an externalId,
# a displayName), so that every filter finds someone, and sets SCIM_FILTERS (the filters, with
# values from that directory: a seeded user's email, a provisioned user's home email and
# externalId, the time before the provisioning) and SCIM_FILTER_LABELS.
# scim_filters_measure URL TOKEN RUNS DURATION: for each filter prints and sets in
# SCIM_FILTER_RESULTS[i] "p50_ms p99_ms matches floor_p50_ms floor_p99_ms" (medians of RUNS runs
# of wrk -c1 -dDURATIONs), or "refused" with the answer when the server refuses the filter. A
# filter slower than 100 ms (the unindexed ones before issue 31 took seconds) is timed by 5
# requests one after another instead: their median, and their slowest as the "p99".

SCIM_FILTER_USERS=${SCIM_FILTER_USERS:-1000}

scim_filters_prepare() {
    local url=$1 token=$2 seeded_email since
    seeded_email=$(curl -sf -H "Authorization: Bearer $token" "$url/api/v1/users?page=1&per_page=1" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["items"][0]["email"])')
    since=$(python3 -c 'import datetime; print((datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ"))')
    sleep 1
    python3 - "$url" "$token" "$SCIM_FILTER_USERS" <<'PY'
import http.client, json, sys, urllib.parse
url, token, count = urllib.parse.urlparse(sys.argv[1]), sys.argv[2], int(sys.argv[3])
connection = http.client.HTTPConnection(url.hostname, url.port)
for index in range(count):
    body = json.dumps({
        "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
        "userName": f"idp.user{index}@corp.example", "externalId": f"okta-{index:06d}",
        "displayName": f"Provisioned Ivanova {index}", "active": True,
        "emails": [{"value": f"Ivan.Provisioned{index}@Corp.Example", "type": "work", "primary": True},
                   {"value": f"home{index}@mail.example", "type": "home"}],
    })
    connection.request("POST", "/scim/v2/Users", body, {
        "Authorization": f"Bearer {token}", "Content-Type": "application/scim+json"})
    answer = connection.getresponse()
    answer.read()
    if answer.status != 201:
        sys.exit(f"SCIM POST answered {answer.status}")
PY
    local middle=$((SCIM_FILTER_USERS / 2))
    SCIM_FILTERS=(
        "userName eq \"$seeded_email\""
        "emails.value eq \"$seeded_email\""
        "emails[value eq \"home$middle@mail.example\"]"
        'emails[type eq "work" and value co "ivan"]'
        "externalId eq \"okta-$(printf '%06d' "$middle")\""
        "meta.lastModified gt \"$since\""
        'userName sw "a" and active eq true'
    )
    SCIM_FILTER_LABELS=(
        'userName eq "..."'
        'emails.value eq "..."'
        'emails[value eq "..."]'
        'emails[type eq "work" and value co "ivan"]'
        'externalId eq "..."'
        'meta.lastModified gt "..."'
        'userName sw "a" and active eq true'
    )
}

# One wrk run at 1 connection: prints "p50_ms p99_ms".
scim_filters_wrk() {
    wrk -t1 -c1 -d"$4s" --timeout 30s --latency -H "Authorization: Bearer $2" "$1$3" | awk '
        function ms(v,   unit) { unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
                                 if (unit == "us") v /= 1000; else if (unit == "s") v *= 1000; else if (unit == "m") v *= 60000; return v }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        END { printf "%.2f %.2f\n", p50, p99 }'
}

# One request's time in ms, with curl.
scim_filters_curl_ms() {
    curl -sf -o /dev/null --max-time 120 -w '%{time_total}' -H "Authorization: Bearer $2" "$1$3" | awk '{ printf "%.2f\n", $1 * 1000 }'
}

scim_filters_median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

scim_filters_measure() {
    local url=$1 token=$2 runs=$3 duration=$4 index path body matches bytes runs_out floor_out probe slow p50 p99 floor_p50 floor_p99
    SCIM_FILTER_RESULTS=()
    for index in "${!SCIM_FILTERS[@]}"; do
        path="/scim/v2/Users?count=50&filter=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "${SCIM_FILTERS[$index]}")"
        # The first answer also warms the server's caches; a refusal (a 503 past the query
        # budget, say) is reported rather than timed.
        if ! body=$(curl -sf --max-time 120 -H "Authorization: Bearer $token" "$url$path"); then
            SCIM_FILTER_RESULTS[index]="refused $(curl -s --max-time 120 -H "Authorization: Bearer $token" "$url$path" | head -c 160)"
            printf '  %-44s refused\n' "${SCIM_FILTER_LABELS[$index]}"
            continue
        fi
        matches=$(echo "$body" | python3 -c 'import json,sys; print(json.load(sys.stdin)["totalResults"])')
        bytes=${#body}
        probe=$(for _ in 1 2 3; do scim_filters_curl_ms "$url" "$token" "$path"; done | scim_filters_median)
        if [ "$(echo "$probe > 100" | bc)" = 1 ]; then
            slow=$(for _ in 1 2 3 4 5; do scim_filters_curl_ms "$url" "$token" "$path"; done)
            runs_out="$(echo "$slow" | scim_filters_median) $(echo "$slow" | sort -n | tail -1)"
        else
            runs_out=$(for _ in $(seq 1 "$runs"); do scim_filters_wrk "$url" "$token" "$path" "$duration"; done)
        fi
        floor_out=$(for _ in $(seq 1 "$runs"); do scim_filters_wrk "$url" "$token" "/api/v1/_bench/floor?bytes=$bytes" "$duration"; done)
        SCIM_FILTER_RESULTS[index]="$(echo "$runs_out" | cut -d' ' -f1 | scim_filters_median) $(echo "$runs_out" | cut -d' ' -f2 | scim_filters_median) $matches $(echo "$floor_out" | cut -d' ' -f1 | scim_filters_median) $(echo "$floor_out" | cut -d' ' -f2 | scim_filters_median)"
        read -r p50 p99 _ floor_p50 floor_p99 <<<"${SCIM_FILTER_RESULTS[$index]}"
        printf '  %-44s %9s %8.2f %8.2f %10.2f %10.2f\n' "${SCIM_FILTER_LABELS[$index]}" "$matches" "$p50" "$p99" "$floor_p50" "$floor_p99"
    done
}
