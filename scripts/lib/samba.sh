#!/usr/bin/env bash
# A throwaway Samba Active Directory domain controller from Debian's samba package, for tests:
# provisioned and seeded once into a template folder (about 15 s, and as long again to seed),
# then copied for each server, which answers LDAP on 389 (StartTLS) and 636 (ldaps) of a
# loopback address of its own (127.0.0.X), with a certificate from a test CA. Only the ldap
# service runs.
#
#   samba.sh start DIR     copy the template into DIR, start; prints the ldap:// and ldaps:// URLs
#   samba.sh halt DIR      stops the server, keeps DIR
#   samba.sh resume DIR    starts it again on its address
#   samba.sh stop DIR      stops it and deletes DIR
#
# The administrator is Administrator@roster.test with the password in ADMIN_PASSWORD below;
# the CA certificate is DIR/ca.pem. TEMPLATE (default: /tmp/roster-samba-template-UID-HASH) is
# made when missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/daemon.sh"

ADMIN_PASSWORD="Admin-Secret-1"
SCRIPTS=$(cd "$(dirname "$0")/.." && pwd)
# Named by what makes it, so a changed seed or script provisions a new one.
TEMPLATE=${TEMPLATE:-/tmp/roster-samba-template-$(id -u)-$(cat "$0" "$SCRIPTS/ldap/seed.py" "$SCRIPTS/ldap/seed_ad.py" | md5sum | cut -c1-8)}

provision() {
    local lock="$TEMPLATE.lock"
    exec 8>"$lock"
    flock 8
    if [ ! -f "$TEMPLATE/ready" ]; then
        rm -rf "$TEMPLATE"
        mkdir -p "$TEMPLATE"
        chmod 700 "$TEMPLATE"
        nice -n 15 samba-tool domain provision --realm=ROSTER.TEST --domain=ROSTER --server-role=dc --dns-backend=NONE \
            --adminpass="$ADMIN_PASSWORD" --targetdir="$TEMPLATE/prov" --option="interfaces=lo" \
            --option="bind interfaces only=yes" >"$TEMPLATE/provision.log" 2>&1 || { cat "$TEMPLATE/provision.log" >&2; exit 1; }
        # Three bad passwords lock an account (for the unlock tests); the default never locks.
        nice -n 15 samba-tool domain passwordsettings set --account-lockout-threshold=3 \
            -H "$TEMPLATE/prov/private/sam.ldb" -s "$TEMPLATE/prov/etc/smb.conf" >>"$TEMPLATE/provision.log" 2>&1 \
            || { cat "$TEMPLATE/provision.log" >&2; exit 1; }
        # The people and groups, added over LDAP once (a copy of the template, started, seeded,
        # stopped, and its database kept as the template's).
        local seeding="$TEMPLATE.seeding" address
        rm -rf "$seeding"
        configure "$seeding"
        launch "$seeding" || exit 1
        address=$(cat "$seeding/address")
        python3 "$SCRIPTS/ldap/seed_ad.py" "DC=roster,DC=test" "${PEOPLE:-120}" >"$seeding/seed.ldif"
        LDAPTLS_CACERT="$seeding/ca.pem" ldapadd -ZZ -x -H "ldap://$address" -D "Administrator@roster.test" -w "$ADMIN_PASSWORD" \
            -f "$seeding/seed.ldif" >"$seeding/seed.log" 2>&1 || { cat "$seeding/seed.log" >&2; halt "$seeding"; exit 1; }
        halt "$seeding"
        rm -rf "$TEMPLATE/prov"
        cp -a "$seeding/prov" "$TEMPLATE/prov"
        rm -rf "$seeding"
        touch "$TEMPLATE/ready"
    fi
    exec 8>&-
}

certificate() {
    local dir=$1 address=$2
    openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=Roster test CA" \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" >/dev/null 2>&1
    openssl req -newkey rsa:2048 -nodes -subj "/CN=$address" -keyout "$dir/server.key" -out "$dir/server.csr" >/dev/null 2>&1
    printf 'subjectAltName=IP:%s,DNS:localhost\n' "$address" >"$dir/san.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 30 \
        -extfile "$dir/san.ext" -out "$dir/server.pem" >/dev/null 2>&1
    chmod 600 "$dir/server.key"
}

launch() {
    local dir=$1 address
    address=$(cat "$dir/address")
    close_inherited_descriptors
    rm -f "$dir/stdin"
    mkfifo "$dir/stdin"
    # samba -i stops when its standard input ends: a sleeper holds the pipe open until `halt`.
    nohup samba -i -M single -s "$dir/prov/etc/smb.conf" <"$dir/stdin" >"$dir/samba.out" 2>&1 &
    echo $! >"$dir/samba.pid"
    nohup sleep 86400 >"$dir/stdin" 2>/dev/null &
    echo $! >"$dir/holder.pid"
    disown -a
    for _ in $(seq 1 300); do
        # Ready once StartTLS answers, not only plain LDAP: right after a restart the DC has
        # answered a plain search before its TLS was up, and a client's StartTLS then failed.
        LDAPTLS_CACERT="$dir/ca.pem" ldapsearch -ZZ -x -H "ldap://$address" -s base -b "" defaultNamingContext \
            >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    cat "$dir/samba.out" >&2
    return 1
}

# DIR gets a copy of the template's database on an address of its own, with its own certificate.
configure() {
    local dir=$1 address source
    mkdir -p "$dir"
    chmod 700 "$dir"
    cp -a "$TEMPLATE/prov" "$dir/prov"
    # The configuration names the folder it was made in: the template's, or a seeding copy's.
    source=$(sed -n 's|^\tprivate dir = \(.*\)/private$|\1|p' "$dir/prov/etc/smb.conf")
    for _ in $(seq 1 20); do
        address="127.0.0.$((2 + RANDOM % 250))"
        port_is_free 389 "$address" && port_is_free 636 "$address" && break
    done
    echo "$address" >"$dir/address"
    certificate "$dir" "$address"
    sed -i -e "s|$source|$dir/prov|g" \
        -e "s|\tinterfaces = .*|\tinterfaces = $address/8|" \
        -e "s|\tlog file = .*|\tlog file = $dir/samba.log|" \
        -e "/\tpid directory = /d" -e "/\ttls [a-z]* = /d" \
        -e "s|\tserver services = .*|\tserver services = ldap\n\tpid directory = $dir/run\n\ttls enabled = yes\n\ttls keyfile = $dir/server.key\n\ttls certfile = $dir/server.pem\n\ttls cafile = $dir/ca.pem|" \
        "$dir/prov/etc/smb.conf"
    mkdir -p "$dir/run"
}

start() {
    local dir=$1 address
    provision
    configure "$dir"
    launch "$dir" || exit 1
    address=$(cat "$dir/address")
    echo "ldap://$address"
    echo "ldaps://$address"
}

halt() {
    local dir=$1 pid
    for file in holder.pid samba.pid; do
        [ -f "$dir/$file" ] || continue
        pid=$(cat "$dir/$file")
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$dir/$file"
    done
    # The ldap service may run in a child of samba: wait until the address is free.
    for _ in $(seq 1 100); do
        port_is_free 389 "$(cat "$dir/address")" && return 0
        sleep 0.05
    done
}

case "${1:-}" in
    start) start "$2" ;;
    resume) launch "$2" || exit 1 ;;
    halt) halt "$2" ;;
    stop) halt "$2"; rm -rf "$2" ;;
    provision) provision ;;
    *) echo "usage: samba.sh start|resume|halt|stop DIR" >&2; exit 2 ;;
esac
