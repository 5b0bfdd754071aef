#!/usr/bin/env python3
"""Prints `make bench`'s table from tuibench JSON files: roster against less, measured in one run.

Usage: bench_report.py ROSTER_KEYS.json LESS_KEYS.json ROSTER_SCROLL.json LESS_SCROLL.json [ROSTER_LINE.json]

ROSTER_LINE.json, when given, is roster's j x300 with "scrolling": "line": printed for
comparison, with no target.

Each figure is the median over the runs in its file; the ratio is roster / less. A target line
says whether roster meets it. Exits 0 either way: the figures are the product, not a gate.
"""

import json
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


def main():
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
    print("\nevery target met" if not missed else f"\ntargets missed: {', '.join(missed)}")


if __name__ == "__main__":
    main()
