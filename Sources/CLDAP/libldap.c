/*
 * OpenLDAP's libldap, loaded at the first ldap_initialize instead of linked. Linked, it mapped
 * libldap, liblber, SASL, GnuTLS and GnuTLS's own libraries (p11-kit, nettle, gmp...) into every
 * roster at start: 2.6 MB of a session with a Roster API server's 25.8 MB, and their relocations
 * in every start. Each function Roster calls is defined here under libldap's own name and
 * forwards to the library's, so the Swift code calls libldap as declared in <ldap.h> (which
 * also checks every signature below against the library's).
 */
#include "CLDAP.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ROSTER_LDAP_FUNCTIONS(X) \
    X(ldap_initialize) X(ldap_set_option) X(ldap_get_option) X(ldap_connect) X(ldap_start_tls_s) \
    X(ldap_tls_inplace) X(ldap_sasl_bind_s) X(ldap_unbind_ext) X(ldap_abandon_ext) X(ldap_result) \
    X(ldap_msgfree) X(ldap_parse_result) X(ldap_err2string) X(ldap_memfree) X(ldap_search_ext) \
    X(ldap_get_dn_ber) X(ldap_get_attribute_ber) X(ldap_add_ext) X(ldap_modify_ext) X(ldap_delete_ext) X(ldap_rename) \
    X(ldap_passwd) X(ldap_control_create) X(ldap_control_free) X(ldap_controls_free) \
    X(ldap_control_find) X(ldap_create_page_control) X(ldap_parse_pageresponse_control) \
    X(ldap_create_sort_keylist) X(ldap_free_sort_keylist) X(ldap_create_sort_control) \
    X(ber_alloc_t) X(ber_printf) X(ber_flatten2) X(ber_free) X(ber_memfree)

static struct {
#define ROSTER_LDAP_POINTER(name) __typeof__(&name) name;
    ROSTER_LDAP_FUNCTIONS(ROSTER_LDAP_POINTER)
#undef ROSTER_LDAP_POINTER
} library;

static pthread_once_t loading = PTHREAD_ONCE_INIT;
static const char *load_error;
static char load_error_text[512];

/* Cyrus SASL's sasl_set_path(SASL_PATH_TYPE_PLUGIN, ...): <sasl/sasl.h> is in libsasl2-dev,
 * which Roster does not otherwise need. */
#define ROSTER_SASL_PATH_TYPE_PLUGIN 0

/* Roster binds with a DN and password (a simple bind), never by SASL, but libldap's first
 * ldap_initialize has Cyrus SASL load every plugin in its folder: nine libraries, Berkeley DB
 * and libcrypto among them, 2.8 to 7 ms of each LDAP start here against 0.3 ms without
 * (docs/ldap.md). A plugin folder that cannot be one (a device, not a directory) loads none.
 * libldap links libsasl2, so the call is found through libldap's handle; without it (a
 * libldap built without SASL) nothing is loaded anyway. */
static void skip_sasl_plugins(void *handle) {
    int (*set_path)(int, const char *) = (int (*)(int, const char *))dlsym(handle, "sasl_set_path");
    if (set_path != NULL) (void)set_path(ROSTER_SASL_PATH_TYPE_PLUGIN, "/dev/null");
}

static void load(void) {
    /* Debian 13 and OpenLDAP 2.6 name it libldap.so.2; Debian 12 (2.5) libldap-2.5.so.0. The
     * name of the headers Roster was built with first: a miss searches every library folder. */
#if LDAP_VENDOR_VERSION_MAJOR == 2 && LDAP_VENDOR_VERSION_MINOR <= 5
    static const char *const names[] = {"libldap-2.5.so.0", "libldap.so.2"};
#else
    static const char *const names[] = {"libldap.so.2", "libldap-2.5.so.0"};
#endif
    void *handle = NULL;
    for (size_t index = 0; index < sizeof names / sizeof *names && handle == NULL; index++) {
        handle = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(load_error_text, sizeof load_error_text, "OpenLDAP's libldap could not be loaded (%s)", why ? why : "not found");
        load_error = load_error_text;
        return;
    }
    skip_sasl_plugins(handle);
#define ROSTER_LDAP_RESOLVE(name) \
    if ((library.name = (__typeof__(&name))dlsym(handle, #name)) == NULL) { \
        snprintf(load_error_text, sizeof load_error_text, "OpenLDAP's libldap has no %s", #name); \
        load_error = load_error_text; \
        return; \
    }
    ROSTER_LDAP_FUNCTIONS(ROSTER_LDAP_RESOLVE)
#undef ROSTER_LDAP_RESOLVE
}

const char *roster_ldap_load_error(void) {
    pthread_once(&loading, load);
    return load_error;
}

static void *load_in_background(void *unused) {
    (void)unused;
    (void)roster_ldap_load_error();
    return NULL;
}

void roster_ldap_preload(void) {
    static atomic_flag started = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&started)) return;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    (void)pthread_create(&thread, &attributes, load_in_background, NULL);
    pthread_attr_destroy(&attributes);
}

/* Every call but the first goes through a handle only ldap_initialize can make, so a library
 * that did not load fails there, with a sentence; reaching another function without it is a bug. */
#define ROSTER_LDAP_CALL(name) \
    (roster_ldap_load_error() == NULL ? library.name : (abort(), library.name))

int ldap_initialize(LDAP **ld, const char *url) {
    if (roster_ldap_load_error() != NULL) return LDAP_NOT_SUPPORTED;
    return library.ldap_initialize(ld, url);
}
int ldap_set_option(LDAP *ld, int option, const void *value) { return ROSTER_LDAP_CALL(ldap_set_option)(ld, option, value); }
int ldap_get_option(LDAP *ld, int option, void *value) { return ROSTER_LDAP_CALL(ldap_get_option)(ld, option, value); }
int ldap_connect(LDAP *ld) { return ROSTER_LDAP_CALL(ldap_connect)(ld); }
int ldap_start_tls_s(LDAP *ld, LDAPControl **server, LDAPControl **client) {
    return ROSTER_LDAP_CALL(ldap_start_tls_s)(ld, server, client);
}
int ldap_tls_inplace(LDAP *ld) { return ROSTER_LDAP_CALL(ldap_tls_inplace)(ld); }
int ldap_sasl_bind_s(LDAP *ld, const char *dn, const char *mechanism, struct berval *credentials, LDAPControl **server,
                     LDAPControl **client, struct berval **serverCredentials) {
    return ROSTER_LDAP_CALL(ldap_sasl_bind_s)(ld, dn, mechanism, credentials, server, client, serverCredentials);
}
int ldap_unbind_ext(LDAP *ld, LDAPControl **server, LDAPControl **client) {
    return ROSTER_LDAP_CALL(ldap_unbind_ext)(ld, server, client);
}
int ldap_abandon_ext(LDAP *ld, int id, LDAPControl **server, LDAPControl **client) {
    return ROSTER_LDAP_CALL(ldap_abandon_ext)(ld, id, server, client);
}
int ldap_result(LDAP *ld, int id, int all, struct timeval *timeout, LDAPMessage **result) {
    return ROSTER_LDAP_CALL(ldap_result)(ld, id, all, timeout, result);
}
int ldap_msgfree(LDAPMessage *message) { return ROSTER_LDAP_CALL(ldap_msgfree)(message); }
int ldap_parse_result(LDAP *ld, LDAPMessage *result, int *code, char **matched, char **diagnostic, char ***referrals,
                      LDAPControl ***server, int freeIt) {
    return ROSTER_LDAP_CALL(ldap_parse_result)(ld, result, code, matched, diagnostic, referrals, server, freeIt);
}
char *ldap_err2string(int code) { return ROSTER_LDAP_CALL(ldap_err2string)(code); }
void ldap_memfree(void *pointer) { ROSTER_LDAP_CALL(ldap_memfree)(pointer); }
int ldap_search_ext(LDAP *ld, const char *base, int scope, const char *filter, char **attributes, int attributesOnly,
                    LDAPControl **server, LDAPControl **client, struct timeval *timeout, int sizeLimit, int *id) {
    return ROSTER_LDAP_CALL(ldap_search_ext)(ld, base, scope, filter, attributes, attributesOnly, server, client, timeout, sizeLimit, id);
}
int ldap_get_dn_ber(LDAP *ld, LDAPMessage *entry, BerElement **ber, struct berval *dn) {
    return ROSTER_LDAP_CALL(ldap_get_dn_ber)(ld, entry, ber, dn);
}
int ldap_get_attribute_ber(LDAP *ld, LDAPMessage *entry, BerElement *ber, struct berval *attribute, BerVarray *values) {
    return ROSTER_LDAP_CALL(ldap_get_attribute_ber)(ld, entry, ber, attribute, values);
}
int ldap_add_ext(LDAP *ld, const char *dn, LDAPMod **attributes, LDAPControl **server, LDAPControl **client, int *id) {
    return ROSTER_LDAP_CALL(ldap_add_ext)(ld, dn, attributes, server, client, id);
}
int ldap_modify_ext(LDAP *ld, const char *dn, LDAPMod **modifications, LDAPControl **server, LDAPControl **client, int *id) {
    return ROSTER_LDAP_CALL(ldap_modify_ext)(ld, dn, modifications, server, client, id);
}
int ldap_delete_ext(LDAP *ld, const char *dn, LDAPControl **server, LDAPControl **client, int *id) {
    return ROSTER_LDAP_CALL(ldap_delete_ext)(ld, dn, server, client, id);
}
int ldap_rename(LDAP *ld, const char *dn, const char *newRDN, const char *newSuperior, int deleteOldRDN, LDAPControl **server,
                LDAPControl **client, int *id) {
    return ROSTER_LDAP_CALL(ldap_rename)(ld, dn, newRDN, newSuperior, deleteOldRDN, server, client, id);
}
int ldap_passwd(LDAP *ld, struct berval *user, struct berval *oldPassword, struct berval *newPassword, LDAPControl **server,
                LDAPControl **client, int *id) {
    return ROSTER_LDAP_CALL(ldap_passwd)(ld, user, oldPassword, newPassword, server, client, id);
}
int ldap_control_create(const char *oid, int critical, struct berval *value, int duplicate, LDAPControl **control) {
    return ROSTER_LDAP_CALL(ldap_control_create)(oid, critical, value, duplicate, control);
}
void ldap_control_free(LDAPControl *control) { ROSTER_LDAP_CALL(ldap_control_free)(control); }
void ldap_controls_free(LDAPControl **controls) { ROSTER_LDAP_CALL(ldap_controls_free)(controls); }
LDAPControl *ldap_control_find(const char *oid, LDAPControl **controls, LDAPControl ***next) {
    return ROSTER_LDAP_CALL(ldap_control_find)(oid, controls, next);
}
int ldap_create_page_control(LDAP *ld, ber_int_t size, struct berval *cookie, int critical, LDAPControl **control) {
    return ROSTER_LDAP_CALL(ldap_create_page_control)(ld, size, cookie, critical, control);
}
int ldap_parse_pageresponse_control(LDAP *ld, LDAPControl *control, ber_int_t *count, struct berval *cookie) {
    return ROSTER_LDAP_CALL(ldap_parse_pageresponse_control)(ld, control, count, cookie);
}
int ldap_create_sort_keylist(LDAPSortKey ***keys, char *text) { return ROSTER_LDAP_CALL(ldap_create_sort_keylist)(keys, text); }
void ldap_free_sort_keylist(LDAPSortKey **keys) { ROSTER_LDAP_CALL(ldap_free_sort_keylist)(keys); }
int ldap_create_sort_control(LDAP *ld, LDAPSortKey **keys, int critical, LDAPControl **control) {
    return ROSTER_LDAP_CALL(ldap_create_sort_control)(ld, keys, critical, control);
}
void ber_free(BerElement *ber, int freeBuffer) { ROSTER_LDAP_CALL(ber_free)(ber, freeBuffer); }
void ber_memfree(void *pointer) { ROSTER_LDAP_CALL(ber_memfree)(pointer); }

int roster_ldap_page_release_control(LDAP *ld, struct berval *cookie, LDAPControl **control) {
    (void)ld;
    BerElement *ber = ROSTER_LDAP_CALL(ber_alloc_t)(LBER_USE_DER);
    if (ber == NULL) return LDAP_NO_MEMORY;
    struct berval value = {0, NULL};
    int code = LDAP_ENCODING_ERROR;
    if (library.ber_printf(ber, "{iO}", (ber_int_t)0, cookie) != -1 && library.ber_flatten2(ber, &value, 1) != -1) {
        code = library.ldap_control_create(LDAP_CONTROL_PAGEDRESULTS, 0, &value, 1, control);
        library.ber_memfree(value.bv_val);
    }
    library.ber_free(ber, 1);
    return code;
}
