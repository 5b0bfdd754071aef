#!/usr/bin/env python3
"""Prints the LDAP bench's table (scripts/bench-ldap.sh) from one run's files.

Usage: bench_ldap_report.py WORKDIR SEARCH USERS SMALL

WORKDIR holds tuibench's JSON (ldap-search, ldap-sorted, server-search, ldap-scroll,
ldap-scroll-small, server-scroll; raw-process, first_page's unsorted page as a program started
by tuibench as roster is; spawn, tuibench's spawn of a program that only prints its line) and
first_page's own (raw-sorted, raw-unsorted, raw-search, raw-sorted-small). Each figure is the
median over its runs. Exits 0 either way: the figures are the product.
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


def first_byte(runs):
    return median(r["startup"]["first_byte_ms"] for r in runs)


def main():
    workdir, search, users, small = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    ldap, sorted_, server = (load(workdir, n)["runs"] for n in ("ldap-search", "ldap-sorted", "server-search"))
    scroll, scroll_small, server_scroll = (load(workdir, n)["runs"] for n in ("ldap-scroll", "ldap-scroll-small", "server-scroll"))
    raw = {n: load(workdir, f"raw-{n}") for n in ("sorted", "unsorted", "search", "sorted-small")}
    # Spawn to the line on the screen, as roster's startup is taken: the harness's own spawn is
    # in both, and shown on its own.
    process, spawn = startup(load(workdir, "raw-process")["runs"]), startup(load(workdir, "spawn")["runs"])

    first_ldap, first_sorted, first_server = startup(ldap), startup(sorted_), startup(server)
    # From the terminal set up (roster's first byte) to the full list. The first page is asked
    # at launch (prefetchUsers), so connect, StartTLS, bind, the root DSE and the search start
    # before this byte, beside the journal and the terminal; what is left is mostly the app's.
    own_ldap, own_sorted = first_ldap - first_byte(ldap), first_sorted - first_byte(sorted_)
    # The same span on roster-server: the app's own part (first frame, layout, drawing the rows)
    # with a plain HTTP request in place of LDAP's.
    own_server = first_server - first_byte(server)
    search_ldap, search_server = key_latency(ldap, search), key_latency(server, search)
    cold, warm = raw["unsorted"]["cold_median_ms"], raw["unsorted"]["warm_median_ms"]
    cold_sorted, warm_sorted = raw["sorted"]["cold_median_ms"], raw["sorted"]["warm_median_ms"]
    print(f"\nLDAP bench: {users:,} people on slapd, {users:,} users on roster-server, "
          f"{len(ldap)} runs of roster's first screen and search, {len(scroll)} of the others, "
          f"{raw['sorted']['runs']} of libldap (medians, ms, MB)\n")
    rows = [
        ("first screen, directory order: startup to the full list", f"{first_ldap:.1f}", f"{first_server:.1f}",
         f"unsorted: cold {cold:.1f} / warm {warm:.1f}"),
        ("  the same from roster's first byte (its connection began before)", f"{own_ldap:.1f}", f"{own_server:.1f}", ""),
        ("  libldap's unsorted page as a program, started as roster is", "", "", f"{process:.1f}"),
        ("  of which tuibench's spawn (a program that only prints)", "", "", f"{spawn:.1f}"),
        ("first screen sorted by name (\"sort\": \"name\", as s asks)", f"{first_sorted:.1f}", "",
         f"sorted: cold {cold_sorted:.1f} / warm {warm_sorted:.1f}"),
        ("  the same from roster's first byte", f"{own_sorted:.1f}", "", ""),
        (f"search \"{search}\": key to the list found (with the 200 ms debounce)", f"{search_ldap:.1f}", f"{search_server:.1f}",
         f"warm {raw['search']['warm_median_ms']:.1f} ({raw['search']['entries']} found, unsorted)"),
        ("peak memory, PageDown x300", f"{peak(scroll):.1f}", f"{peak(server_scroll):.1f}", ""),
        (f"peak memory, PageDown x300, slapd with {small:,}", f"{peak(scroll_small):.1f}", "", ""),
        (f"libldap first page at {small:,} (sorted, warm)", "", "", f"{raw['sorted-small']['warm_median_ms']:.1f}"),
    ]
    header = ("", "roster on slapd", "roster on roster-server", "libldap alone")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(4)]
    for row in [header] + rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)))

    ratio = own_ldap / cold if cold else float("nan")
    whole = first_ldap / process if process else float("nan")
    memory = peak(scroll) / peak(scroll_small) if peak(scroll_small) else float("nan")
    print()
    print(f"target: first screen within 2x of libldap's cold unsorted first page ({cold:.1f} ms): "
          f"from roster's first byte {ratio:.2f}x ({'met' if ratio <= 2 else 'not met'}); "
          f"from the process's start {whole:.2f}x libldap's page as a program ({process:.1f} ms; "
          f"{'met' if whole <= 2 else 'not met'})")
    print(f"sorted (s): from the first byte {own_sorted / cold_sorted:.2f}x libldap's cold sorted page; "
          f"the sort costs slapd {warm_sorted - warm:.1f} ms before the first entry")
    print(f"target: memory flat from {small:,} to {users:,}: {peak(scroll_small):.1f} -> {peak(scroll):.1f} MB, "
          f"{memory:.2f}x ({'met' if memory <= 1.2 else 'not met'}, at most 1.2x)")
    print(f"beside roster-server: first screen {first_ldap / first_server:.2f}x, search {search_ldap / search_server:.2f}x")
    # A benchmark wants a quiet machine: what else ran during roster's runs (tuibench's figure).
    others = [(r.get("machine") or {}).get("other_load_pct") for runs in (ldap, sorted_, server, scroll, scroll_small, server_scroll)
              for r in runs]
    others = [o for o in others if o is not None]
    if others:
        print(f"other load on the machine during roster's runs: median {median(others):.1f}%, at most {max(others):.1f}%")


if __name__ == "__main__":
    main()
