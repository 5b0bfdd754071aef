/*
 * The bridge to OpenLDAP's libldap (Debian's libldap-dev). Everything Swift cannot import
 * (macros that are pointers or casts) is wrapped in a static inline function of the same
 * meaning.
 */
#ifndef ROSTER_CLDAP_SHIM_H
#define ROSTER_CLDAP_SHIM_H

#include <sys/time.h>
#include <lber.h>
#include <ldap.h>

/* LDAP_SASL_SIMPLE is ((char *)0): a simple bind. */
static inline const char *roster_ldap_sasl_simple(void) { return LDAP_SASL_SIMPLE; }

/* LDAP_OPT_ON / LDAP_OPT_OFF are pointer casts. */
static inline void *roster_ldap_opt_on(void) { return LDAP_OPT_ON; }
static inline void *roster_ldap_opt_off(void) { return LDAP_OPT_OFF; }

/* A paged results control of page size 0 with the server's cookie: RFC 2696's way to release an
 * unfinished paged search. ldap_create_page_control refuses a size under 1, so the value is
 * encoded here with liblber, as ldap_create_page_control encodes it. */
static inline int roster_ldap_page_release_control(LDAP *ld, struct berval *cookie, LDAPControl **control) {
    BerElement *ber = ber_alloc_t(LBER_USE_DER);
    if (ber == NULL) return LDAP_NO_MEMORY;
    struct berval value = {0, NULL};
    int code = LDAP_ENCODING_ERROR;
    if (ber_printf(ber, "{iO}", (ber_int_t)0, cookie) != -1 && ber_flatten2(ber, &value, 1) != -1) {
        code = ldap_control_create(LDAP_CONTROL_PAGEDRESULTS, 0, &value, 1, control);
        ber_memfree(value.bv_val);
    }
    ber_free(ber, 1);
    (void)ld;
    return code;
}

#endif
