#!/usr/bin/env bash
# One command for the speed table of issue 14: runs benches/formats.rs RUNS times (default
# 3), keeps each run's criterion output, and prints the table with every ratio's spread.
#   bash benches/run.sh [RUNS]
# The machine and its load are printed first: the ratios within a run are the result; the
# absolute times move with whatever else the machine is doing.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
target=${CARGO_TARGET_DIR:-target}
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(rustc --version)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
cargo bench -p godot_bin_benches --bench formats --no-run >/dev/null 2>&1
dirs=()
for i in $(seq 1 "$runs"); do
  echo "run $i: load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  rm -rf "$target/criterion"
  cargo bench -p godot_bin_benches --bench formats >/dev/null 2>&1
  mkdir -p "$target/bench-runs"
  rm -rf "$target/bench-runs/$i"
  cp -r "$target/criterion" "$target/bench-runs/$i"
  dirs+=("$target/bench-runs/$i")
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 benches/report.py "${dirs[@]}"
