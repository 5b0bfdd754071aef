#!/usr/bin/env python3
"""Prints `make bench`'s table from the tuibench JSON files scripts/bench.sh leaves in its folder.

Usage: bench_report.py --dir WORKDIR [--bulk ROSTER.log] [--journal ON.log OFF.log]

Reads WORKDIR/NAME.json for each measurement bench.sh made (roster-*, base-* when BASE_BIN was
given, less-*, and the bulk pair), and prints each figure of the issue's "Done when" list: this
build's median, the base build's (when measured), less's from the same run, the ratio to less,
and whether the target is met. --bulk: the app's log of the bulk runs, whose "bulk run
finished" lines give each run's wall time and request count. --journal: the logs of the same
run of 1,000 with the change journal on and off (alternating runs): the medians of their wall
times, and the journal's cost against the 5% target.

Each figure is the median over the runs in its file. Exits 0 either way: the figures are the
product, not a gate.
"""

import glob
import json
import os
import re
import statistics
import sys


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


class Measurement:
    """One tuibench JSON file, or several of one run each (NAME.run1.json...): their runs."""

    def __init__(self, paths):
        self.runs = []
        for path in paths:
            with open(path) as handle:
                self.runs += json.load(handle)["runs"]

    def group(self, run, key, nth=0):
        """The nth group of `key` in the run (a key pressed in two groups: 0, then 1)."""
        found = [group for group in run["keys"] if group["key"] == key]
        return found[nth] if nth < len(found) else None

    def key(self, key, field, which="median", nth=0):
        return median((self.group(r, key, nth) or {}).get(field, {}).get(which) for r in self.runs)

    def startup(self):
        return median(r["startup"]["startup_ms"] for r in self.runs)

    def idle(self):
        """CPU over the idle window from /proc/PID/stat (10 ms ticks: the harness's resolution)."""
        return median((r.get("idle") or {}).get("cpu_ms") for r in self.runs)

    def idle_precise(self):
        """The same from the threads' schedstat (ns), or None when it went below zero: a thread
        that ends in the window (libdispatch's idle workers do after a few seconds) takes its
        time with it, so this figure is only good while every thread lives."""
        values = [(r.get("idle") or {}).get("cpu_ms_precise") for r in self.runs]
        return None if any(v is None or v < 0 for v in values) else median(values)

    def idle_bytes(self):
        return median((r.get("idle") or {}).get("bytes") for r in self.runs)

    def rss(self):
        return median(r["rss"]["peak_rss_mb"] for r in self.runs)

    def load(self):
        return median(r["machine"]["other_load_pct"] for r in self.runs)


def load(folder, name):
    path = os.path.join(folder, name + ".json")
    paths = [path] if os.path.exists(path) else sorted(glob.glob(os.path.join(folder, name + ".run*.json")))
    return Measurement(paths) if paths else None


def fmt(value, spec):
    return "-" if value is None else spec.format(value)


def main():
    args = sys.argv[1:]
    if "--dir" not in args:
        raise SystemExit(__doc__)
    folder = args[args.index("--dir") + 1]
    log = args[args.index("--bulk") + 1] if "--bulk" in args else None
    journal = args[args.index("--journal") + 1:args.index("--journal") + 3] if "--journal" in args else None
    has_base = any(name.startswith("base-") for name in os.listdir(folder))

    rows = []  # (figure, unit, spec, ours, base, less, target text, met or None)

    def row(figure, unit, spec, pick, name, less_name=None, target=None):
        """target: (ours, less) -> (met, text)."""
        ours = load(folder, "roster-" + name)
        if ours is None:
            return
        base = load(folder, "base-" + name)
        less = load(folder, less_name) if less_name else None
        value = pick(ours)
        base_value = pick(base) if base else None
        less_value = pick(less) if less else None
        met, text = (None, "")
        if target and value is not None:
            met, text = target(value, less_value)
        rows.append((figure, unit, spec, value, base_value, less_value, text, met))

    def within(factor):
        return lambda v, b: (b is not None and v <= factor * b, f"<= {factor}x less ({factor * b:.2f} ms)" if b else "")

    def under(limit, unit="ms"):
        return lambda v, b: (v <= limit, f"<= {limit} {unit}")

    def below(limit, unit):
        return lambda v, b: (v < limit, f"< {limit} {unit}")

    row("j median", "ms", "{:.2f}", lambda m: m.key("j", "latency_ms"), "keys", "less-keys", within(2.5))
    row("j p99", "ms", "{:.2f}", lambda m: m.key("j", "latency_ms", "p99"), "keys", "less-keys", below(2, "ms"))
    row("PgDn median", "ms", "{:.2f}", lambda m: m.key("<PgDn>", "latency_ms"), "keys", "less-keys", within(3))
    row("PgDn p99", "ms", "{:.2f}", lambda m: m.key("<PgDn>", "latency_ms", "p99"), "keys", "less-keys")
    row("bytes per j", "B", "{:.0f}", lambda m: m.key("j", "bytes_per_key"), "keys", "less-keys")
    startups = "startup" if load(folder, "roster-startup") else "keys"
    row("startup, remote", "ms", "{:.1f}", Measurement.startup, startups, "less-keys", under(30))
    row("startup, embedded", "ms", "{:.1f}", Measurement.startup, "embedded", "less-keys", under(100))
    zero = lambda v, b: (v == 0, "0 ms (10 ms ticks)")
    row("idle CPU, 5 s, settled", "ms", "{:.1f}", Measurement.idle, "idle", "less-keys", zero)
    row("  precise (schedstat)", "ms", "{:.2f}", Measurement.idle_precise, "idle", "less-keys")
    row("  bytes written", "B", "{:.0f}", Measurement.idle_bytes, "idle", "less-keys")
    row("idle CPU, 5 s after keys", "ms", "{:.1f}", Measurement.idle, "keys", "less-keys", zero)
    row("  precise (schedstat)", "ms", "{:.2f}", Measurement.idle_precise, "keys", "less-keys")
    row("  bytes written", "B", "{:.0f}", Measurement.idle_bytes, "keys", "less-keys")
    row("idle CPU, embedded", "ms", "{:.1f}", Measurement.idle, "embedded", "less-keys", zero)
    row("peak RSS, remote", "MB", "{:.1f}", Measurement.rss, "scroll", "less-scroll", below(25, "MB"))
    for name in sorted((n[len("roster-"):-len(".json")] for n in os.listdir(folder)
                        if n.startswith("roster-memory-") and n.endswith(".json")),
                       key=lambda n: int(n.split("-")[-1])):
        users = int(name.split("-")[-1])
        row(f"peak RSS, {users:,} users", "MB", "{:.1f}", Measurement.rss, name, "less-scroll", below(25, "MB"))
    row("peak RSS, embedded", "MB", "{:.1f}", Measurement.rss, "embedded", "less-scroll", below(45, "MB"))
    row("groups: j median", "ms", "{:.2f}", lambda m: m.key("j", "latency_ms"), "groups", "less-keys", within(2.5))
    row("groups: j p99", "ms", "{:.2f}", lambda m: m.key("j", "latency_ms", "p99"), "groups", "less-keys", below(2, "ms"))
    row("groups: PgDn median", "ms", "{:.2f}", lambda m: m.key("<PgDn>", "latency_ms"), "groups", "less-keys", within(3))
    for name, label, limit in (("slow-roster", "--api roster", 250), ("slow-scim", "--api scim", 250),
                               ("slow-roster-auto", "Roster API, auto", 300), ("slow-scim-auto", "SCIM, auto", 300)):
        row(f"100 ms RTT: {label}", "ms", "{:.0f}", Measurement.startup, name, None, under(limit))
    row("line scroll: bytes/j", "B", "{:.0f}", lambda m: m.key("j", "bytes_per_key"), "line-scrolling", "less-keys")

    keys = load(folder, "roster-keys") or load(folder, "roster-slow-roster")
    less = load(folder, "less-keys")
    print(f"\nmedians of {len(keys.runs) if keys else '?'} runs each, 120x40; other load on the machine "
          f"{fmt(keys.load() if keys else None, '{:.0f}')}% (roster) / {fmt(less.load() if less else None, '{:.0f}')}% (less)\n")
    header = f"{'figure':<26} {'unit':<5} {'roster':>9} " + (f"{'base':>9} " if has_base else "") + f"{'less':>9} {'ratio':>7}   target"
    print(header)
    missed = []
    for figure, unit, spec, value, base_value, less_value, text, met in rows:
        ratio = f"{value / less_value:.1f}x" if value is not None and less_value else "-"
        verdict = "" if met is None else f"{'met' if met else 'MISSED'}: {text}"
        if met is False:
            missed.append(figure)
        line = f"{figure:<26} {unit:<5} {fmt(value, spec):>9} "
        if has_base:
            line += f"{fmt(base_value, spec):>9} "
        print(line + f"{fmt(less_value, spec):>9} {ratio:>7}   {verdict}")
    if log:
        missed += bulk_report(folder, log, less)
    if journal:
        missed += journal_report(*journal)
    print("\nevery target met" if not missed else f"\ntargets missed: {', '.join(missed)}")


# "bulk run finished: suspending, 1000 of 1000 users (...), 2000 requests in 3.210 s"
BULK_LINE = re.compile(r"bulk run (\w+): [^,]+, (\d+) of (\d+) users .*?, (\d+) requests in ([\d.]+) s")


def bulk_report(folder, log_path, less):
    """The bulk figures: each run's wall time and rates from the app's log, and j meanwhile,
    against j with no run and against less; then the figures after the run."""
    bulk, rest = load(folder, "roster-bulk"), load(folder, "roster-bulk-rest")
    if bulk is None or rest is None:
        return []
    finished = []
    with open(log_path, errors="replace") as handle:
        for line in handle:
            match = BULK_LINE.search(line)
            if match:
                state, done, total, requests, seconds = match.groups()
                finished.append((state, int(done), int(total), int(requests), float(seconds)))
    print(f"\nbulk: Space x1000 marks, S suspends them on a remote server, j pressed during the run; "
          f"{len(finished)} of {len(bulk.runs)} runs logged their end")
    if not finished:
        print("  no run ended within the idle window: see the screen dump")
        return ["bulk run"]
    wall = median(f[4] for f in finished)
    print(f"  {'wall time':<30} {wall:>9.2f} s   for {finished[0][1]:,} users, {finished[0][3]:,} requests "
          f"({median(f[1] / f[4] for f in finished if f[4] > 0):.0f} users/s)")
    less_j = less.key("j", "latency_ms") if less else None
    missed = []
    for name, m in (("during the run", bulk), ("after the marks, no run", rest)):
        j = m.key("j", "latency_ms")
        p99 = m.key("j", "latency_ms", "p99")
        ratio = f"{j / less_j:.1f}x less" if less_j else ""
        met = less_j is not None and j <= 2.5 * less_j and p99 < 2
        if not met:
            missed.append(f"bulk j {name}")
        print(f"  {'j ' + name:<30} {j:>9.2f} ms median ({ratio}), p99 {p99:.2f} ms   "
              f"{'met' if met else 'MISSED'}: <= 2.5x less, p99 < 2 ms")
    print(f"  {'Space (mark, move) median':<30} {bulk.key('<Space>', 'latency_ms'):>9.2f} ms")
    return missed + after_report(bulk, rest, less)


def after_report(bulk, rest, less):
    """The keys section's figures once the run is over, beside the same marks and keys with no
    run: j x300 (the second j group), PgDn x30, 5 s idle, peak RSS over the whole process."""
    if bulk.key("j", "latency_ms", nth=1) is None:
        return []
    # The run was over before the keys when a wait (Ctrl-Q, which roster never sees) met a
    # whole key timeout of silence (the run's progress line ends each wait while it goes) and
    # nothing but the keys drew during them.
    def over(run):
        wait, keys = bulk.group(run, "<C-q>") or {}, bulk.group(run, "j", 1) or {}
        return wait.get("responded", 0) < wait.get("count", 0) and keys.get("background_bytes", 1) == 0
    ended = sum(1 for r in bulk.runs if over(r))
    drawn = median((bulk.group(r, "j", 1) or {}).get("background_bytes") for r in bulk.runs)
    print(f"\nafter the run (j x300, PgDn x30, 5 s idle), beside the same marks and keys with no run; "
          f"the run was over before the keys in {ended} of {len(bulk.runs)} runs, "
          f"{fmt(drawn, '{:.0f}')} bytes drawn meanwhile by nothing the keys did (median)")
    less_j = less.key("j", "latency_ms") if less else None
    less_pgdn = less.key("<PgDn>", "latency_ms") if less else None
    figures = (
        ("j median", "ms", "{:.2f}", lambda m: m.key("j", "latency_ms", nth=1),
         lambda v: (less_j is not None and v <= 2.5 * less_j, "<= 2.5x less")),
        ("j p99", "ms", "{:.2f}", lambda m: m.key("j", "latency_ms", "p99", nth=1), lambda v: (v < 2, "< 2 ms")),
        ("PgDn median", "ms", "{:.2f}", lambda m: m.key("<PgDn>", "latency_ms"),
         lambda v: (less_pgdn is not None and v <= 3 * less_pgdn, "<= 3x less")),
        ("idle CPU, 5 s", "ms", "{:.1f}", Measurement.idle, lambda v: (v == 0, "0 ms (10 ms ticks)")),
        ("  precise (schedstat)", "ms", "{:.2f}", Measurement.idle_precise, None),
        ("peak RSS, remote", "MB", "{:.1f}", Measurement.rss, lambda v: (v < 25, "< 25 MB")),
    )
    print(f"  {'figure':<24} {'unit':<5} {'after run':>9} {'no run':>9}   target")
    missed = []
    for figure, unit, spec, pick, target in figures:
        value, base = pick(bulk), pick(rest)
        verdict = ""
        if target and value is not None:
            met, text = target(value)
            verdict = f"{'met' if met else 'MISSED'}: {text}"
            if not met:
                missed.append(f"after a bulk run: {figure}")
        print(f"  {figure:<24} {unit:<5} {fmt(value, spec):>9} {fmt(base, spec):>9}   {verdict}")
    if ended < len(bulk.runs):
        missed.append("after a bulk run: the run was not over before the keys (raise BULK_WAIT)")
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


if __name__ == "__main__":
    main()
