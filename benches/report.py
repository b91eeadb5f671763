#!/usr/bin/env python3
"""Prints the benches/formats.rs results as a Markdown table.

Reads criterion's estimates under $CARGO_TARGET_DIR/criterion (or target/criterion): for
every data set and direction, each format's throughput in MB/s (10^6 bytes of the godot_bin
packet per second, so the columns compare times), godot_bin's ratio to the fastest other
serde format (above 1 means godot_bin is faster) and memcpy's time over godot_bin's (1 means
as fast as memcpy, 0.5 means twice as slow).
"""
import json
import os
import sys

FORMATS = ["godot_bin", "postcard", "rmp_serde", "serde_json", "memcpy"]
OTHERS = ["postcard", "rmp_serde", "serde_json"]


def main():
    root = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "criterion")
    if len(sys.argv) > 1:
        root = sys.argv[1]
    groups = sorted(os.listdir(root))
    rows = []
    for group in groups:
        gdir = os.path.join(root, group)
        if not os.path.isdir(gdir) or group == "report":
            continue
        times = {}
        size = None
        for f in FORMATS:
            base = os.path.join(gdir, f, "new")
            try:
                with open(os.path.join(base, "estimates.json")) as fh:
                    est = json.load(fh)
                with open(os.path.join(base, "benchmark.json")) as fh:
                    bench = json.load(fh)
            except FileNotFoundError:
                continue
            # Point estimate of the mean time per iteration, in ns.
            times[f] = est["mean"]["point_estimate"]
            tp = bench.get("throughput") or {}
            size = tp.get("Bytes", size)
        if "godot_bin" not in times or size is None:
            continue
        rows.append((group, size, times))

    print("| data set | bytes | " + " | ".join(f + " MB/s" for f in FORMATS)
          + " | godot_bin / fastest other | godot_bin / serde_json | memcpy time / godot_bin time |")
    print("|---|---:|" + "---:|" * len(FORMATS) + "---:|---:|---:|")
    for group, size, times in rows:
        mbs = {f: size / times[f] * 1e3 for f in times}  # bytes/ns * 1e3 = MB/s
        others = [f for f in OTHERS if f in times]
        fastest = min(others, key=lambda f: times[f])
        cells = [f"{mbs[f]:,.0f}" if f in mbs else "-" for f in FORMATS]
        vs_other = times[fastest] / times["godot_bin"]
        vs_json = times.get("serde_json", float("nan")) / times["godot_bin"]
        vs_memcpy = times.get("memcpy", float("nan")) / times["godot_bin"]
        print(f"| {group} | {size:,} | " + " | ".join(cells)
              + f" | {vs_other:.2f}x ({fastest}) | {vs_json:.1f}x | {vs_memcpy:.2f} |")
    print()
    print("Mean time per iteration (µs):")
    for group, size, times in rows:
        print(f"  {group}: " + ", ".join(f"{f} {times[f] / 1e3:,.1f}" for f in FORMATS if f in times))


if __name__ == "__main__":
    main()
