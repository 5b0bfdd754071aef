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

#endif
