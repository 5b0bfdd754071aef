/*
 * The bridge to OpenLDAP's libldap (Debian's libldap-dev for the headers). The library itself
 * is not linked: libldap.c loads it at the first ldap_initialize, so a Roster that never opens
 * an LDAP directory never maps libldap, GnuTLS and their libraries (2.6 MB of a remote
 * session's memory; docs/ldap.md). Everything Swift cannot import (macros that are pointers or
 * casts) is wrapped in a static inline function of the same meaning.
 */
#ifndef ROSTER_CLDAP_SHIM_H
#define ROSTER_CLDAP_SHIM_H

#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <lber.h>
#include <ldap.h>

/* LDAP_SASL_SIMPLE is ((char *)0): a simple bind. */
static inline const char *roster_ldap_sasl_simple(void) { return LDAP_SASL_SIMPLE; }

/* LDAP_OPT_OFF is a null pointer; LDAP_OPT_ON is the address of liblber's ber_pvt_opt_on, a
 * data symbol that would link liblber at start. libldap takes any other pointer for "on". */
static char roster_ldap_opt_on_value;
static inline void *roster_ldap_opt_on(void) { return &roster_ldap_opt_on_value; }
static inline void *roster_ldap_opt_off(void) { return LDAP_OPT_OFF; }

/* Why libldap could not be loaded (ldap_initialize then returns LDAP_NOT_SUPPORTED), or NULL. */
const char *roster_ldap_load_error(void);

/* Starts loading libldap (and GnuTLS with it) on a thread of its own and returns at once: the
 * first ldap_initialize then waits only for what is left of the load. A load that fails is
 * said by that ldap_initialize, as without this. */
void roster_ldap_preload(void);

/* A paged results control of page size 0 with the server's cookie: RFC 2696's way to release an
 * unfinished paged search. ldap_create_page_control refuses a size under 1, so the value is
 * encoded in libldap.c with liblber, as ldap_create_page_control encodes it. */
int roster_ldap_page_release_control(LDAP *ld, struct berval *cookie, LDAPControl **control);

/* A TLS handshake with a deadline. libldap 2.5's synchronous handshake (StartTLS, ldaps) with a
 * network timeout set makes the socket non-blocking and, on every EAGAIN, calls the handshake again
 * at once without polling (tls2.c, ldap_int_tls_start: its poll is only on the asynchronous
 * path): it spins a core for as long as the server takes to answer, and forever on one that
 * stalls. libldap's connect callback runs on the calling thread just before the handshake's
 * first step: it makes the socket blocking (no spin) and notes it, so a deadline on another
 * thread can shut the socket down (the handshake then fails instead of waiting forever). */
typedef struct roster_tls_handshake {
    atomic_int descriptor; /* -1 until the handshake begins */
    atomic_int state;      /* 0 running, 1 finished, 2 cut by the deadline */
} roster_tls_handshake;

static int roster_tls_handshake_began(LDAP *ld, void *ssl, void *ctx, void *arg) {
    (void)ssl; (void)ctx;
    roster_tls_handshake *handshake = arg;
    int descriptor = -1;
    if (handshake == NULL || ldap_get_option(ld, LDAP_OPT_DESC, &descriptor) != LDAP_OPT_SUCCESS || descriptor < 0) return 0;
    int flags = fcntl(descriptor, F_GETFL);
    if (flags != -1) fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK);
    atomic_store(&handshake->descriptor, descriptor);
    /* The deadline passed while TCP was still connecting (ldaps): cut it now. */
    if (atomic_load(&handshake->state) == 2) shutdown(descriptor, SHUT_RDWR);
    return 0;
}

/* Watches every TLS handshake of `ld`; free() the result after ldap_unbind_ext. */
static inline roster_tls_handshake *roster_tls_handshake_watch(LDAP *ld) {
    roster_tls_handshake *handshake = calloc(1, sizeof *handshake);
    if (handshake == NULL) return NULL;
    atomic_init(&handshake->descriptor, -1);
    atomic_init(&handshake->state, 1);
    ldap_set_option(ld, LDAP_OPT_X_TLS_CONNECT_ARG, handshake);
    ldap_set_option(ld, LDAP_OPT_X_TLS_CONNECT_CB, (void *)roster_tls_handshake_began);
    return handshake;
}

/* Before a call that may shake hands. */
static inline void roster_tls_handshake_arm(roster_tls_handshake *handshake) {
    atomic_store(&handshake->descriptor, -1);
    atomic_store(&handshake->state, 0);
}

/* The deadline (any thread): shuts down the socket of a handshake still running. */
static inline void roster_tls_handshake_expire(roster_tls_handshake *handshake) {
    int running = 0;
    if (!atomic_compare_exchange_strong(&handshake->state, &running, 2)) return;
    int descriptor = atomic_load(&handshake->descriptor);
    if (descriptor >= 0) shutdown(descriptor, SHUT_RDWR);
}

/* After the call: 1 when the deadline cut it (the connection is unusable), else 0. */
static inline int roster_tls_handshake_finish(roster_tls_handshake *handshake) {
    int running = 0;
    return atomic_compare_exchange_strong(&handshake->state, &running, 1) ? 0 : 1;
}

/* Back to non-blocking after a handshake, as libldap leaves it: reads that wait return to
 * ldap_result's poll, so a slow answer can still be abandoned. */
static inline void roster_ldap_socket_nonblocking(LDAP *ld) {
    int descriptor = -1;
    if (ldap_get_option(ld, LDAP_OPT_DESC, &descriptor) != LDAP_OPT_SUCCESS || descriptor < 0) return;
    int flags = fcntl(descriptor, F_GETFL);
    if (flags != -1) fcntl(descriptor, F_SETFL, flags | O_NONBLOCK);
}

#endif
