#!/usr/bin/env python3
"""Prints the benches/formats.rs results as Markdown tables, with the goals of issue 14.

Usage: report.py [RUN_DIR ...]   (each a criterion output directory; default
$CARGO_TARGET_DIR/criterion or target/criterion). With several runs, the table shows the
first run's figures and every ratio's spread (lowest-highest) over all runs.

Times are criterion's median per iteration. A ratio "vs X" is X's time over godot_bin's:
above 1, godot_bin is faster. For the copies the ratio is inverted ("x copy"): godot_bin's
time over the copy's, 1.5 meaning half as fast again as copying the packet's bytes.
"""
import json
import os
import sys

FORMATS = ["godot_bin", "postcard", "rmp_serde", "rmp_serde_named", "serde_json",
           "copy_warm", "copy_cold"]
# (column, other format, goal, whether godot_bin's time is the numerator)
RATIOS = [
    ("vs rmp_serde", "rmp_serde", 1.0, False),
    ("vs rmp named", "rmp_serde_named", 1.5, False),
    ("vs serde_json", "serde_json", 2.5, False),
    ("vs postcard", "postcard", None, False),
    ("x copy_warm", "copy_warm", 1.5, True),
    ("x copy_cold", "copy_cold", None, True),
]


def load(root):
    rows = {}
    for group in sorted(os.listdir(root)):
        gdir = os.path.join(root, group)
        if not os.path.isdir(gdir) or group == "report":
            continue
        times, size = {}, None
        for f in FORMATS:
            base = os.path.join(gdir, f, "new")
            try:
                with open(os.path.join(base, "estimates.json")) as fh:
                    est = json.load(fh)
                with open(os.path.join(base, "benchmark.json")) as fh:
                    bench = json.load(fh)
            except FileNotFoundError:
                continue
            times[f] = est["median"]["point_estimate"]  # ns per iteration
            size = (bench.get("throughput") or {}).get("Bytes", size)
        if "godot_bin" in times and size is not None:
            rows[group] = (size, times)
    return rows


def ratio(times, other, inverted):
    if other not in times:
        return None
    return times["godot_bin"] / times[other] if inverted else times[other] / times["godot_bin"]


def main():
    roots = sys.argv[1:] or [os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"),
                                          "criterion")]
    runs = [load(r) for r in roots]
    first = runs[0]
    print(f"Runs: {len(runs)}. Times: median µs per iteration (first run).\n")
    head = ["data set", "bytes"] + [f + " µs" for f in FORMATS]
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for group, (size, t) in first.items():
        cells = [f"{t[f] / 1e3:,.1f}" if f in t else "-" for f in FORMATS]
        print(f"| {group} | {size:,} | " + " | ".join(cells) + " |")
    print()
    print("godot_bin's speed against each (goal in brackets; spread over the runs after the "
          "first run's figure; ✗ marks a missed goal):\n")
    head = ["data set"] + [f"{name} [{goal}]" if goal else name for name, _, goal, _ in RATIOS]
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for group, (_, t) in first.items():
        cells = []
        for name, other, goal, inverted in RATIOS:
            r = ratio(t, other, inverted)
            if r is None:
                cells.append("-")
                continue
            all_r = [x for x in (ratio(run[group][1], other, inverted)
                                 for run in runs if group in run) if x is not None]
            cell = f"{r:.2f}"
            if len(all_r) > 1:
                cell += f" ({min(all_r):.2f}-{max(all_r):.2f})"
            # Struct goals apply to struct data, the copy goal to the mesh.
            applies = goal is not None and ((other.startswith("copy")) == group.startswith("mesh"))
            if applies and (r > goal if inverted else r < goal):
                cell += " ✗"
            cells.append(cell)
        print(f"| {group} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
