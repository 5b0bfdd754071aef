#!/usr/bin/env python3
"""Prints the LDAP bench's table (scripts/bench-ldap.sh) from one run's files.

Usage: bench_ldap_report.py WORKDIR SEARCH USERS SMALL

WORKDIR holds tuibench's JSON (ldap-search, server-search, ldap-scroll, ldap-scroll-small,
server-scroll) and first_page's (raw-sorted, raw-unsorted, raw-search, raw-sorted-small). Each
figure is the median over its runs. Exits 0 either way: the figures are the product.
"""

import json
import statistics
import sys


def load(workdir, name):
    with open(f"{workdir}/{name}.json") as handle:
        return json.load(handle)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def startup(runs):
    return median(r["startup"]["startup_ms"] for r in runs)


def key_latency(runs, key):
    def group(run):
        for entry in run["keys"]:
            if entry["key"] == key:
                return entry["latency_ms"]["median"]
        raise SystemExit(f"no key group {key} in a run")
    return median(group(r) for r in runs)


def peak(runs):
    return median(r["rss"]["peak_rss_mb"] for r in runs)


def main():
    workdir, search, users, small = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    ldap, server = load(workdir, "ldap-search")["runs"], load(workdir, "server-search")["runs"]
    scroll, scroll_small, server_scroll = (load(workdir, n)["runs"] for n in ("ldap-scroll", "ldap-scroll-small", "server-scroll"))
    raw = {n: load(workdir, f"raw-{n}") for n in ("sorted", "unsorted", "search", "sorted-small")}

    first_ldap, first_server = startup(ldap), startup(server)
    search_ldap, search_server = key_latency(ldap, search), key_latency(server, search)
    cold = raw["sorted"]["cold_median_ms"]
    print(f"\nLDAP bench: {users:,} people on slapd, {users:,} users on roster-server, "
          f"{len(ldap)} runs of roster, {raw['sorted']['runs']} of libldap (medians, ms, MB)\n")
    rows = [
        ("first screen: startup to the full list", f"{first_ldap:.1f}", f"{first_server:.1f}",
         f"cold {cold:.1f} / warm {raw['sorted']['warm_median_ms']:.1f} (sorted), "
         f"warm {raw['unsorted']['warm_median_ms']:.1f} (unsorted)"),
        (f"search \"{search}\": key to the list found (with the 200 ms debounce)", f"{search_ldap:.1f}", f"{search_server:.1f}",
         f"warm {raw['search']['warm_median_ms']:.1f} ({raw['search']['entries']} found)"),
        ("peak memory, PageDown x300", f"{peak(scroll):.1f}", f"{peak(server_scroll):.1f}", ""),
        (f"peak memory, PageDown x300, slapd with {small:,}", f"{peak(scroll_small):.1f}", "", ""),
        (f"libldap first page at {small:,} (sorted, warm)", "", "", f"{raw['sorted-small']['warm_median_ms']:.1f}"),
    ]
    widths = [max(len(r[i]) for r in rows + [("", "roster on slapd", "roster on roster-server", "libldap alone")]) for i in range(4)]
    header = ("", "roster on slapd", "roster on roster-server", "libldap alone")
    for row in [header] + rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)))

    ratio = first_ldap / cold if cold else float("nan")
    memory = peak(scroll) / peak(scroll_small) if peak(scroll_small) else float("nan")
    print()
    print(f"target: first screen within 2x of libldap's cold first page: {ratio:.2f}x "
          f"({'met' if ratio <= 2 else 'not met'})")
    print(f"target: memory flat from {small:,} to {users:,}: {peak(scroll_small):.1f} -> {peak(scroll):.1f} MB, "
          f"{memory:.2f}x ({'met' if memory <= 1.2 else 'not met'}, at most 1.2x)")
    print(f"beside roster-server: first screen {first_ldap / first_server:.2f}x, search {search_ldap / search_server:.2f}x")


if __name__ == "__main__":
    main()
