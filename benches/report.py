#!/usr/bin/env python3
"""Prints the benches/formats.rs results as a Markdown table.

Reads criterion's estimates under $CARGO_TARGET_DIR/criterion (or target/criterion, or the
directory given as the first argument). For every data set and direction: each format's
throughput in MB/s (10^6 bytes of the godot_bin packet per second, so the columns compare
times), godot_bin's speed relative to the fastest of the other formats (above 1: godot_bin
is faster), to serde_json, and to memcpy of the same bytes (1: as fast as memcpy, 0.5:
twice as slow), then godot_bin against the engine's own C++ var_to_bytes / bytes_to_var
times quoted in issue 6.
"""
import json
import os
import sys

FORMATS = ["godot_bin", "postcard", "rmp_serde", "rmp_serde_named", "serde_json", "memcpy"]
OTHERS = ["postcard", "rmp_serde", "rmp_serde_named", "serde_json"]

# Godot 4.4.1's var_to_bytes / bytes_to_var on Dictionaries holding the same data, best of
# 20, in µs (issue 6). The engine's packets are Variants, ours derived Rust structs.
ENGINE_US = {
    "mesh_encode": 1800, "mesh_decode": 2100,
    "game_encode": 2900, "game_decode": 2500,
    "log_encode": 14000, "log_decode": 24000,
}


def load(root):
    rows = []
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
            times[f] = est["mean"]["point_estimate"]  # ns per iteration
            size = (bench.get("throughput") or {}).get("Bytes", size)
        if "godot_bin" in times and size is not None:
            rows.append((group, size, times))
    return rows


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get("CARGO_TARGET_DIR", "target"), "criterion")
    rows = load(root)
    head = ["data set", "bytes"] + [f + " MB/s" for f in FORMATS] + [
        "godot_bin vs fastest other", "vs serde_json", "vs memcpy"]
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for group, size, t in rows:
        mbs = {f: size / t[f] * 1e3 for f in t}  # bytes/ns * 1e3 = MB/s
        others = [f for f in OTHERS if f in t]
        fastest = min(others, key=lambda f: t[f])
        cells = [f"{mbs[f]:,.0f}" if f in mbs else "-" for f in FORMATS]
        vs_json = t.get("serde_json", float("nan")) / t["godot_bin"]
        vs_memcpy = t.get("memcpy", float("nan")) / t["godot_bin"]
        print(f"| {group} | {size:,} | " + " | ".join(cells)
              + f" | {t[fastest] / t['godot_bin']:.2f}x ({fastest})"
              + f" | {vs_json:.2f}x | {vs_memcpy:.2f} |")
    print()
    print("Mean time per iteration (µs):")
    for group, _, t in rows:
        print(f"- {group}: " + ", ".join(f"{f} {t[f] / 1e3:,.1f}" for f in FORMATS if f in t))
    print()
    print("godot_bin against the engine's C++ (Godot 4.4.1, issue 6's figures):")
    for group, _, t in rows:
        if group in ENGINE_US:
            us = t["godot_bin"] / 1e3
            print(f"- {group}: engine {ENGINE_US[group]:,} µs, godot_bin {us:,.1f} µs,"
                  f" {ENGINE_US[group] / us:.1f}x faster")


if __name__ == "__main__":
    main()
