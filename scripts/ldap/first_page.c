/* The bench's raw figure (scripts/bench-ldap.sh): libldap alone, the first page of a paged
 * search as Roster's list asks for it (the same filter, attributes, page size and sort), timed
 * from the request to the last entry. RUNS times: connect, StartTLS, bind, search, close;
 * "warm" is the search alone, "cold" the whole (what a program starting does). Prints JSON:
 * the entries of the page and the medians in milliseconds.
 *
 *   first_page URL BIND_DN BASE FILTER PAGE_SIZE SORT_KEY RUNS ATTRIBUTE...
 *
 * The password comes from the environment (LDAP_BENCH_PASSWORD), never the command line; the
 * CA from LDAPTLS_CACERT. SORT_KEY "-" asks for no sort.
 */
#define LDAP_DEPRECATED 0
#include <ldap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void fail(const char *what, int code) {
    fprintf(stderr, "first_page: %s: %s\n", what, ldap_err2string(code));
    exit(1);
}

/* The first page of a paged (and sorted) search, `size` entries; returns the entries read and
 * leaves the next cookie in `next`. */
static int page(LDAP *ld, const char *base, const char *filter, char **attributes, int size,
                LDAPSortKey **sort, struct berval **next) {
    LDAPControl *controls[3] = {NULL, NULL, NULL};
    static char nothing[1] = {0};
    struct berval first = {0, nothing};
    int code = ldap_create_page_control(ld, size, &first, 0, &controls[0]);
    if (code != LDAP_SUCCESS) fail("page control", code);
    if (sort && (code = ldap_create_sort_control(ld, sort, 0, &controls[1])) != LDAP_SUCCESS) fail("sort control", code);
    LDAPMessage *result = NULL;
    code = ldap_search_ext_s(ld, base, LDAP_SCOPE_SUBTREE, filter, attributes, 0, controls, NULL, NULL, 0, &result);
    if (code != LDAP_SUCCESS) fail("search", code);
    int entries = 0;
    for (LDAPMessage *entry = ldap_first_entry(ld, result); entry; entry = ldap_next_entry(ld, entry)) {
        BerElement *ber = NULL;
        for (char *name = ldap_first_attribute(ld, entry, &ber); name; name = ldap_next_attribute(ld, entry, ber)) {
            struct berval **values = ldap_get_values_len(ld, entry, name);
            ldap_value_free_len(values);
            ldap_memfree(name);
        }
        ber_free(ber, 0);
        entries++;
    }
    LDAPControl **returned = NULL;
    int errcode = 0;
    code = ldap_parse_result(ld, result, &errcode, NULL, NULL, NULL, &returned, 1);
    if (code != LDAP_SUCCESS) fail("result", code);
    if (errcode != LDAP_SUCCESS) fail("search result", errcode);
    *next = NULL;
    LDAPControl *paged = ldap_control_find(LDAP_CONTROL_PAGEDRESULTS, returned, NULL);
    if (paged) {
        ber_int_t estimate = 0;
        struct berval found = {0, NULL};
        if (ldap_parse_pageresponse_control(ld, paged, &estimate, &found) == LDAP_SUCCESS && found.bv_len > 0)
            *next = ber_bvdup(&found);
        ber_memfree(found.bv_val);
    }
    ldap_controls_free(returned);
    ldap_control_free(controls[0]);
    if (controls[1]) ldap_control_free(controls[1]);
    return entries;
}

/* Connects, does StartTLS on ldap:// and binds. */
static LDAP *connect_and_bind(const char *url, const char *bind_dn, const char *password) {
    LDAP *ld = NULL;
    int code = ldap_initialize(&ld, url);
    if (code != LDAP_SUCCESS) fail("initialize", code);
    int version = LDAP_VERSION3;
    ldap_set_option(ld, LDAP_OPT_PROTOCOL_VERSION, &version);
    ldap_set_option(ld, LDAP_OPT_REFERRALS, LDAP_OPT_OFF);
    if (strncmp(url, "ldap://", 7) == 0 && (code = ldap_start_tls_s(ld, NULL, NULL)) != LDAP_SUCCESS) fail("StartTLS", code);
    struct berval secret = {strlen(password), (char *)password};
    if ((code = ldap_sasl_bind_s(ld, bind_dn, LDAP_SASL_SIMPLE, &secret, NULL, NULL, NULL)) != LDAP_SUCCESS) fail("bind", code);
    return ld;
}

int main(int argc, char **argv) {
    if (argc < 9) {
        fprintf(stderr, "usage: first_page URL BIND_DN BASE FILTER PAGE_SIZE SORT_KEY RUNS ATTRIBUTE...\n");
        return 2;
    }
    const char *url = argv[1], *bind_dn = argv[2], *base = argv[3], *filter = argv[4];
    int size = atoi(argv[5]), runs = atoi(argv[7]);
    const char *password = getenv("LDAP_BENCH_PASSWORD");
    if (!password) { fprintf(stderr, "first_page: set LDAP_BENCH_PASSWORD\n"); return 2; }
    if (runs < 1 || size < 1) { fprintf(stderr, "first_page: RUNS and PAGE_SIZE must be at least 1\n"); return 2; }
    char **attributes = argv + 8;

    LDAPSortKey **sort = NULL;
    int code;
    if (strcmp(argv[6], "-") != 0 && (code = ldap_create_sort_keylist(&sort, argv[6])) != LDAP_SUCCESS) fail("sort key", code);

    /* Each run on a new connection, closed after the page: the search alone ("warm") and
     * connect, StartTLS, bind and search ("cold"). No release of the rest: slapd's sort
     * overlay was seen to answer "busy" to searches after a release of a 100,000-entry sort
     * made in quick succession, and a closed connection frees it anyway. */
    double *warm = calloc(runs, sizeof(double)), *cold = calloc(runs, sizeof(double));
    int entries = 0;
    for (int run = 0; run < runs; run++) {
        double start = now_ms();
        LDAP *ld = connect_and_bind(url, bind_dn, password);
        double searching = now_ms();
        struct berval *next = NULL;
        entries = page(ld, base, filter, attributes, size, sort, &next);
        double end = now_ms();
        warm[run] = end - searching;
        cold[run] = end - start;
        if (next) ber_bvfree(next);
        ldap_unbind_ext_s(ld, NULL, NULL);
    }
    qsort(warm, runs, sizeof(double), compare);
    qsort(cold, runs, sizeof(double), compare);
    printf("{\"entries\": %d, \"runs\": %d, \"warm_median_ms\": %.3f, \"warm_best_ms\": %.3f, \"cold_median_ms\": %.3f}\n",
           entries, runs, warm[runs / 2], warm[0], cold[runs / 2]);
    if (sort) ldap_free_sort_keylist(sort);
    free(warm);
    free(cold);
    return 0;
}
