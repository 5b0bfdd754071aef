#!/usr/bin/env python3
"""Prints `make bench`'s table from tuibench JSON files: roster against less, measured in one run.

Usage: bench_report.py ROSTER_KEYS.json LESS_KEYS.json ROSTER_SCROLL.json LESS_SCROLL.json [ROSTER_LINE.json]
                       [--bulk ROSTER_BULK.json ROSTER_BULK_REST.json ROSTER.log] [--journal ON.log OFF.log]
       bench_report.py --bulk ROSTER_BULK.json ROSTER_BULK_REST.json ROSTER.log [--journal ON.log OFF.log]

--bulk: tuibench's JSON of the bulk measurement (Space x1000, S, y, j during the run), of the
same keys with no run (the baseline, measured in the same run of the script), and the app's
log, whose "bulk run finished" lines give each run's wall time and request count.

--journal: the logs of the same run of 1,000 with the change journal on and off (alternating
runs): the medians of their wall times, and the journal's cost against the 5% target.

ROSTER_LINE.json, when given, is roster's j x300 with "scrolling": "line": printed for
comparison, with no target.

Each figure is the median over the runs in its file; the ratio is roster / less. A target line
says whether roster meets it. Exits 0 either way: the figures are the product, not a gate.
"""

import json
import re
import statistics
import sys


def runs(path):
    with open(path) as handle:
        return json.load(handle)["runs"]


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def key_group(run, name):
    for group in run["keys"]:
        if group["key"] == name:
            return group
    raise SystemExit(f"no key group {name} in a run")


def figures(keys_path, scroll_path):
    keyed, scrolled = runs(keys_path), runs(scroll_path)
    return {
        "startup": median(r["startup"]["startup_ms"] for r in keyed),
        "j median": median(key_group(r, "j")["latency_ms"]["median"] for r in keyed),
        "j p99": median(key_group(r, "j")["latency_ms"]["p99"] for r in keyed),
        "PgDn median": median(key_group(r, "<PgDn>")["latency_ms"]["median"] for r in keyed),
        "PgDn p99": median(key_group(r, "<PgDn>")["latency_ms"]["p99"] for r in keyed),
        "bytes per j": median(key_group(r, "j")["bytes_per_key"]["median"] for r in keyed),
        "idle CPU": median(r["idle"]["cpu_ms_precise"] for r in keyed),
        "peak memory": median(r["rss"]["peak_rss_mb"] for r in scrolled),
        "runs": len(keyed),
        "other load": median(r["machine"]["other_load_pct"] for r in keyed + scrolled),
    }


# name, unit, format, target (roster value, less value) -> (met, description)
ROWS = [
    ("startup", "ms", "{:.1f}", lambda r, b: (r <= 250, "<= 250 ms to the first full list")),
    ("j median", "ms", "{:.2f}", lambda r, b: (r <= 1, "<= 1 ms")),
    ("j p99", "ms", "{:.2f}", lambda r, b: (r <= 5, "<= 5 ms")),
    ("PgDn median", "ms", "{:.2f}", lambda r, b: (r <= 3, "<= 3 ms")),
    ("PgDn p99", "ms", "{:.2f}", None),
    ("bytes per j", "B", "{:.0f}", lambda r, b: (r <= 2 * b, f"<= 2x less ({2 * b:.0f} B)")),
    ("idle CPU", "ms/5 s", "{:.2f}", lambda r, b: (r <= 10, "<= 10 ms over 5 s")),
    ("peak memory", "MB", "{:.1f}", lambda r, b: (r <= 40, "<= 40 MB after 10,000 rows")),
]


# "bulk run finished: suspending, 1000 of 1000 users (...), 2000 requests in 3.210 s"
BULK_LINE = re.compile(r"bulk run (\w+): [^,]+, (\d+) of (\d+) users .*?, (\d+) requests in ([\d.]+) s")


def bulk_report(bulk_path, rest_path, log_path):
    """The bulk figures: each run's wall time and rates from the app's log, and j meanwhile,
    against j with no run."""
    bulk = runs(bulk_path)
    rest = [key_group(r, "j") for r in runs(rest_path)]
    finished = []
    with open(log_path, errors="replace") as handle:
        for line in handle:
            match = BULK_LINE.search(line)
            if match:
                state, done, total, requests, seconds = match.groups()
                finished.append((state, int(done), int(total), int(requests), float(seconds)))
    print(f"\nbulk: Space x1000 marks, S suspends them on the embedded server, j pressed during the run; "
          f"{len(finished)} of {len(bulk)} runs logged their end")
    if not finished:
        print("  no run ended within the idle window: see the screen dump")
        return ["bulk run"]
    wall = median(f[4] for f in finished)
    users_rate = median(f[1] / f[4] for f in finished if f[4] > 0)
    requests_rate = median(f[3] / f[4] for f in finished if f[4] > 0)
    print(f"  {'wall time':<28} {wall:>9.2f} s   for {finished[0][1]:,} users, {finished[0][3]:,} requests "
          f"(a read and a write each: marks hold the list's copies)")
    print(f"  {'users per second':<28} {users_rate:>9.0f}")
    print(f"  {'requests per second':<28} {requests_rate:>9.0f}")
    groups = [key_group(r, "j") for r in bulk]
    j_median = median(g["latency_ms"]["median"] for g in groups)
    j_p99 = median(g["latency_ms"]["p99"] for g in groups)
    first_burst = {"median": median(g["first_burst_ms"]["median"] for g in groups),
                   "p99": median(g["first_burst_ms"]["p99"] for g in groups)}
    # Each j's window is its latency plus the 15 ms of quiet that ends it.
    j_span = median(sum(g["latencies_ms"] or []) / 1e3 + g["count"] * 0.015 for g in groups)
    space = median(key_group(r, "<Space>")["latency_ms"]["median"] for r in bulk)
    missed = []
    for name, which, value, limit in (("j median, during the run", "median", j_median, 1),
                                      ("j p99, during the run", "p99", j_p99, 5)):
        met = value <= limit
        if not met:
            missed.append(name)
        baseline = median(g["latency_ms"][which] for g in rest)
        print(f"  {name:<28} {value:>9.2f} ms  {'met' if met else 'MISSED'}: <= {limit} ms"
              f" (first burst {first_burst[which]:.2f} ms; with no run {baseline:.2f} ms)")
    frames = median(g["bytes_per_key"]["median"] for g in groups)
    frames_rest = median(g["bytes_per_key"]["median"] for g in rest)
    print(f"  {'bytes per j, during the run':<28} {frames:>9.0f} B   (with no run {frames_rest:.0f} B)")
    inside = "inside it" if j_span < wall else "NOT all inside it"
    print(f"  {'the j keys took':<28} {j_span:>9.2f} s   of the run's {wall:.2f} s: {inside}")
    print(f"  {'Space (mark, move) median':<28} {space:>9.2f} ms")
    return missed


def bulk_wall_times(log_path):
    """The wall time of each bulk run that finished, from the app's log."""
    times = []
    with open(log_path, errors="replace") as handle:
        for line in handle:
            match = BULK_LINE.search(line)
            if match and match.group(1) == "finished":
                times.append(float(match.group(5)))
    return times


def journal_report(on_path, off_path):
    """The change journal's cost: the same run of 1,000 with the journal on and off,
    alternating in one bench; the target is at most 5% more wall time."""
    on, off = bulk_wall_times(on_path), bulk_wall_times(off_path)
    print(f"\njournal: the bulk run of 1,000 with the change journal on and off, alternating "
          f"({len(on)} and {len(off)} runs logged)")
    if not on or not off:
        print("  a side logged no finished run: see the screen dumps")
        return ["journal cost"]
    ratio = median(on) / median(off)
    met = ratio <= 1.05
    print(f"  {'wall time, journal on':<28} {median(on):>9.3f} s   (each: {', '.join(f'{t:.3f}' for t in on)})")
    print(f"  {'wall time, journal off':<28} {median(off):>9.3f} s   (each: {', '.join(f'{t:.3f}' for t in off)})")
    print(f"  {'journal cost (medians)':<28} {100 * (ratio - 1):>+8.1f} %   {'met' if met else 'MISSED'}: <= +5%")
    return [] if met else ["journal cost"]


def main():
    journal_args = None
    if "--journal" in sys.argv:
        index = sys.argv.index("--journal")
        journal_args = sys.argv[index + 1:index + 3]
        del sys.argv[index:index + 3]
        if len(journal_args) != 2:
            raise SystemExit(__doc__)
    bulk_args = None
    if "--bulk" in sys.argv:
        index = sys.argv.index("--bulk")
        bulk_args = sys.argv[index + 1:index + 4]
        del sys.argv[index:index + 4]
        if len(bulk_args) != 3:
            raise SystemExit(__doc__)
    if bulk_args and len(sys.argv) == 1:
        missed = bulk_report(*bulk_args) + (journal_report(*journal_args) if journal_args else [])
        print("\nevery target met" if not missed else f"\ntargets missed: {', '.join(missed)}")
        return
    if len(sys.argv) not in (5, 6):
        raise SystemExit(__doc__)
    roster = figures(sys.argv[1], sys.argv[3])
    less = figures(sys.argv[2], sys.argv[4])
    print(f"\nmedians of {roster['runs']} runs each, 120x40; other load on the machine "
          f"{roster['other load']:.0f}% (roster) / {less['other load']:.0f}% (less)\n")
    print(f"{'figure':<14} {'unit':<7} {'roster':>9} {'less':>9} {'ratio':>8}   target")
    missed = []
    for name, unit, fmt, target in ROWS:
        r, b = roster[name], less[name]
        ratio = f"{r / b:.1f}x" if b else "-"
        verdict = ""
        if target:
            met, description = target(r, b)
            verdict = f"{'met' if met else 'MISSED'}: {description}"
            if not met:
                missed.append(name)
        print(f"{name:<14} {unit:<7} {fmt.format(r):>9} {fmt.format(b):>9} {ratio:>8}   {verdict}")
    if len(sys.argv) == 6:
        line = runs(sys.argv[5])
        line_bytes = median(key_group(r, "j")["bytes_per_key"]["median"] for r in line)
        line_median = median(key_group(r, "j")["latency_ms"]["median"] for r in line)
        print(f"{'j, line scroll':<14} {'B':<7} {line_bytes:>9.0f} {less['bytes per j']:>9.0f} "
              f"{line_bytes / less['bytes per j']:>7.1f}x   for comparison: \"scrolling\": \"line\" "
              f"(j median {line_median:.2f} ms)")
    if bulk_args:
        missed += bulk_report(*bulk_args)
    if journal_args:
        missed += journal_report(*journal_args)
    print("\nevery target met" if not missed else f"\ntargets missed: {', '.join(missed)}")


if __name__ == "__main__":
    main()
