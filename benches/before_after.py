#!/usr/bin/env python3
"""The table of benches/before_after.sh, from its criterion outputs.

    before_after.py DIR                      the table of DIR/before.N.txt, DIR/after.N.txt
    before_after.py --counts OLD_EXE NEW_EXE instructions per call of every godot_bin row
"""
import glob
import os
import re
import statistics
import subprocess
import sys

# Calls per row in the two counted runs: their difference is what is divided, so the data
# set's construction, the same in both, cancels out.
CALLS = (10, 30)

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


def instructions(exe, group, calls, fmt="godot_bin"):
    """Instructions valgrind counts in `exe` calling `group`'s `fmt` function `calls`
    times (the largest process: criterion also starts a short child)."""
    env = dict(os.environ, GODOT_BIN_BENCH_COUNT=f"{group}:{calls}", GODOT_BIN_BENCH_FORMAT=fmt)
    run = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", exe],
        env=env, capture_output=True, text=True, check=True,
    )
    refs = [int(m.replace(",", "")) for m in re.findall(r"I\s+refs:\s+([\d,]+)", run.stderr)]
    return max(refs)


def counts(old, new):
    """Instructions per call of every godot_bin row, before and after: deterministic, so
    one run of each says what a wall-clock ratio on a noisy machine cannot."""
    listing = subprocess.run([new, "--list"], capture_output=True, text=True, check=True).stdout
    groups = [m for m in re.findall(r"^(\S+)/godot_bin: benchmark$", listing, re.M)]
    print(f"instructions per call (valgrind, {CALLS[1]} calls less {CALLS[0]})\n")
    print("| row | before | after | after / before |")
    print("|---|---:|---:|---:|")
    worst = 0.0
    for g in groups:
        per = [(instructions(exe, g, CALLS[1]) - instructions(exe, g, CALLS[0])) / (CALLS[1] - CALLS[0]) for exe in (old, new)]
        worst = max(worst, per[1] / per[0])
        mark = " **over 3%**" if per[1] / per[0] > 1.03 else ""
        print(f"| {g} | {per[0]:,.0f} | {per[1]:,.0f} | {per[1] / per[0]:.3f}{mark} |", flush=True)
    print(f"\nhighest: {worst:.3f}x the instructions before")


def versus(exe, fmt):
    """Instructions per call of godot_bin and of `fmt` on every group both have."""
    listing = subprocess.run([exe, "--list"], capture_output=True, text=True, check=True).stdout
    mine = set(re.findall(r"^(\S+)/godot_bin: benchmark$", listing, re.M))
    theirs = re.findall(rf"^(\S+)/{re.escape(fmt)}: benchmark$", listing, re.M)
    print(f"instructions per call (valgrind, {CALLS[1]} calls less {CALLS[0]})\n")
    print(f"| row | godot_bin | {fmt} | godot_bin / {fmt} |")
    print("|---|---:|---:|---:|")
    for g in [g for g in theirs if g in mine]:
        per = [(instructions(exe, g, CALLS[1], f) - instructions(exe, g, CALLS[0], f)) / (CALLS[1] - CALLS[0]) for f in ("godot_bin", fmt)]
        print(f"| {g} | {per[0]:,.0f} | {per[1]:,.0f} | {per[0] / per[1]:.3f} |", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--counts":
        counts(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "--versus":
        versus(sys.argv[2], sys.argv[3])
    else:
        table(sys.argv[1])
