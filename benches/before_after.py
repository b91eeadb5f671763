#!/usr/bin/env python3
"""The table of benches/before_after.sh, from its criterion outputs.

    before_after.py DIR                      the table of DIR/before.N.txt, DIR/after.N.txt
    before_after.py --dev-deps NEW OLD       copies NEW's [dev-dependencies] into OLD
"""
import glob
import re
import statistics
import sys

UNITS = {"ns": 1e-3, "µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}


def times(path):
    """Median µs of every godot_bin row in one criterion output."""
    out, name = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^([a-z_]+/(?:en|de)code)/godot_bin", line)
        if m:
            name = m.group(1)
        m = re.search(r"time:\s+\[\S+ \S+ ([\d.]+) (\S+) \S+ \S+\]", line)
        if m and name and "%" not in line:
            out[name] = float(m.group(1)) * UNITS[m.group(2)]
            name = None
    return out


def table(d):
    before = [times(p) for p in sorted(glob.glob(f"{d}/before.*.txt"))]
    after = [times(p) for p in sorted(glob.glob(f"{d}/after.*.txt"))]
    print("| row | before µs | after µs | after / before | each round |")
    print("|---|---:|---:|---:|---|")
    worst = 0.0
    for row in before[0]:
        b = statistics.median(r[row] for r in before if row in r)
        a = statistics.median(r[row] for r in after if row in r)
        rounds = " ".join(f"{y[row] / x[row]:.3f}" for x, y in zip(before, after) if row in x and row in y)
        worst = max(worst, a / b)
        mark = " **over 5%**" if a / b > 1.05 else ""
        print(f"| {row} | {b:,.1f} | {a:,.1f} | {a / b:.3f}{mark} | {rounds} |")
    print(f"\nrounds: {len(before)}; slowest row: {worst:.3f}x its time before")


def dev_deps(new, old):
    """Gives the old tree's Cargo.toml this tree's [dev-dependencies] (the benchmarks')."""
    section = re.compile(r"^\[dev-dependencies\]\n(?:(?!\[).*\n)*", re.M)
    deps = section.search(open(new, encoding="utf-8").read()).group(0)
    text = open(old, encoding="utf-8").read()
    text = section.sub(lambda _: deps, text, count=1)
    with open(old, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    if sys.argv[1] == "--dev-deps":
        dev_deps(sys.argv[2], sys.argv[3])
    else:
        table(sys.argv[1])
