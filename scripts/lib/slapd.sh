#!/usr/bin/env bash
# A throwaway OpenLDAP server from Debian's slapd package, for tests and benches: a generated
# cn=config (mdb, the ppolicy, memberof and sssvlv overlays, a self-signed certificate for
# StartTLS and ldaps), seeded offline with slapadd, on 127.0.0.1 and a free port. Never the
# packaged slapd service.
#
#   slapd.sh start DIR [PEOPLE]   config + seed (scripts/ldap/seed.py) in DIR (created); prints
#                                 the ldap:// URL, then the ldaps:// URL
#   slapd.sh resume DIR           starts the server of DIR again on its ports (after `halt`)
#   slapd.sh halt DIR             stops the server, keeps DIR
#   slapd.sh stop DIR             stops the server and deletes DIR
#
# The admin is cn=admin,dc=roster,dc=test with the password "admin-secret"; the CA certificate
# is DIR/ca.pem.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/daemon.sh"

BASE="dc=roster,dc=test"
ADMIN="cn=admin,$BASE"
ADMIN_PASSWORD="admin-secret"
SCRIPTS=$(cd "$(dirname "$0")/.." && pwd)

certificate() {
    local dir=$1
    openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=Roster test CA" \
        -keyout "$dir/ca.key" -out "$dir/ca.pem" >/dev/null 2>&1
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$dir/server.key" -out "$dir/server.csr" >/dev/null 2>&1
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$dir/san.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 30 \
        -extfile "$dir/san.ext" -out "$dir/server.pem" >/dev/null 2>&1
}

config_ldif() {
    local dir=$1 hash
    hash=$(slappasswd -s "$ADMIN_PASSWORD")
    cat <<LDIF
dn: cn=config
objectClass: olcGlobal
cn: config
olcPidFile: $dir/slapd.pid
olcTLSCACertificateFile: $dir/ca.pem
olcTLSCertificateFile: $dir/server.pem
olcTLSCertificateKeyFile: $dir/server.key
olcSizeLimit: unlimited

dn: cn=module{0},cn=config
objectClass: olcModuleList
cn: module{0}
olcModulePath: /usr/lib/ldap
olcModuleLoad: back_mdb
olcModuleLoad: ppolicy
olcModuleLoad: memberof
olcModuleLoad: sssvlv

dn: cn=schema,cn=config
objectClass: olcSchemaConfig
cn: schema

include: file:///etc/ldap/schema/core.ldif
include: file:///etc/ldap/schema/cosine.ldif
include: file:///etc/ldap/schema/inetorgperson.ldif
include: file:///etc/ldap/schema/nis.ldif

dn: olcDatabase={-1}frontend,cn=config
objectClass: olcDatabaseConfig
objectClass: olcFrontendConfig
olcDatabase: {-1}frontend

dn: olcDatabase={0}config,cn=config
objectClass: olcDatabaseConfig
olcDatabase: {0}config
olcAccess: {0}to * by * none

dn: olcDatabase={1}mdb,cn=config
objectClass: olcDatabaseConfig
objectClass: olcMdbConfig
olcDatabase: {1}mdb
olcSuffix: $BASE
olcRootDN: $ADMIN
olcRootPW: $hash
olcDbDirectory: $dir/data
olcDbMaxSize: 1073741824
olcDbNoSync: TRUE
olcDbIndex: objectClass eq
olcDbIndex: uid,mail,cn,displayName eq,sub
olcDbIndex: member,memberOf eq
olcLimits: * size.prtotal=unlimited size.pr=unlimited size.unchecked=unlimited
olcAccess: {0}to attrs=userPassword by self write by anonymous auth by * none
olcAccess: {1}to * by self read by users read by anonymous none

dn: olcOverlay={0}memberof,olcDatabase={1}mdb,cn=config
objectClass: olcOverlayConfig
objectClass: olcMemberOf
olcOverlay: {0}memberof
olcMemberOfRefInt: TRUE
olcMemberOfGroupOC: groupOfNames
olcMemberOfMemberAD: member
olcMemberOfMemberOfAD: memberOf

dn: olcOverlay={1}ppolicy,olcDatabase={1}mdb,cn=config
objectClass: olcOverlayConfig
objectClass: olcPPolicyConfig
olcOverlay: {1}ppolicy
olcPPolicyDefault: cn=default,ou=policies,$BASE
olcPPolicyUseLockout: FALSE

dn: olcOverlay={2}sssvlv,olcDatabase={1}mdb,cn=config
objectClass: olcOverlayConfig
objectClass: olcSssVlvConfig
olcOverlay: {2}sssvlv
olcSssVlvMax: 64
olcSssVlvMaxKeys: 3
olcSssVlvMaxPerConn: 8
LDIF
}

# running PID: the process lives and is not a zombie (one that exited waits for this shell).
running() {
    local state
    state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ]
}

# Starts slapd of DIR on the ports in DIR/ports, waiting until it answers.
launch() {
    local dir=$1 port tls_port
    read -r port tls_port <"$dir/ports"
    close_inherited_descriptors
    # In the foreground (-d 0) behind `&`, so its pid is known before it answers: a slapd that
    # daemonized itself wrote its pid only once up, and one too slow for the wait below (a loaded
    # machine) was left running when `halt` found no pid to stop.
    slapd -d 0 -F "$dir/config" -h "ldap://127.0.0.1:$port/ ldaps://127.0.0.1:$tls_port/" </dev/null >"$dir/slapd.log" 2>&1 &
    echo $! >"$dir/slapd.pid"
    disown -a
    for _ in $(seq 1 300); do
        running "$(cat "$dir/slapd.pid")" || return 1
        ldapsearch -x -H "ldap://127.0.0.1:$port" -s base -b "" namingContexts >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    return 1
}

start() {
    local dir=$1 people=${2:-300} port tls_port
    mkdir -p "$dir/config" "$dir/data"
    chmod 700 "$dir"
    certificate "$dir"
    config_ldif "$dir" >"$dir/config.ldif"
    slapadd -n 0 -F "$dir/config" -l "$dir/config.ldif" >"$dir/slapadd.log" 2>&1 || { cat "$dir/slapadd.log" >&2; exit 1; }
    python3 "$SCRIPTS/ldap/seed.py" "$BASE" "$people" >"$dir/seed.ldif"
    slapadd -q -n 1 -F "$dir/config" -l "$dir/seed.ldif" >>"$dir/slapadd.log" 2>&1 || { cat "$dir/slapadd.log" >&2; exit 1; }
    for _ in 1 2 3 4 5 6 7 8; do
        port=$((20000 + RANDOM % 40000)); tls_port=$((port + 1))
        port_is_free "$port" && port_is_free "$tls_port" || continue
        echo "$port $tls_port" >"$dir/ports"
        if launch "$dir"; then
            echo "ldap://127.0.0.1:$port"
            echo "ldaps://127.0.0.1:$tls_port"
            return 0
        fi
        halt "$dir"
    done
    cat "$dir/slapd.log" >&2
    exit 1
}

halt() {
    local dir=$1 pid
    [ -f "$dir/slapd.pid" ] || return 0
    pid=$(cat "$dir/slapd.pid")
    # SIGKILL: a graceful stop waits for clients to hang up, and LMDB needs no shutdown to stay whole.
    kill -9 "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        running "$pid" || break
        sleep 0.02
    done
    rm -f "$dir/slapd.pid"
}

case "${1:-}" in
    start) start "$2" "${3:-300}" ;;
    resume) launch "$2" || { cat "$2/slapd.log" >&2; exit 1; } ;;
    halt) halt "$2" ;;
    stop) halt "$2"; rm -rf "$2" ;;
    *) echo "usage: slapd.sh start|resume|halt|stop DIR [PEOPLE]" >&2; exit 2 ;;
esac
