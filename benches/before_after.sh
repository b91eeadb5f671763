#!/usr/bin/env bash
# godot_bin's own speed, this tree against an earlier commit, with today's benchmarks:
# every godot_bin row of benches/formats.rs, the two trees run in turn ROUNDS times
# (default 3), each pinned to one core (BENCH_CORE, default 1), so that the machine's drift
# falls on both alike.
#   bash benches/before_after.sh [REV] [ROUNDS]
# REV defaults to 4470d3c, the tree before the packet layer (issue 11's "before"). The
# earlier tree gets a worktree under target/, with this tree's benches/ package (and
# Cargo.lock, so both build the same dependencies) copied in as this-benches/, where it
# builds as a package of its own over that tree's godot_bin. Prints each row's median time before and after,
# their ratio and the ratio of each round.
#   COUNT=1 bash benches/before_after.sh [REV]
# instead counts the instructions of one call of each row in both trees under valgrind
# (benches/formats.rs's GODOT_BIN_BENCH_COUNT): slower, but the same on a busy machine.
#   python3 benches/before_after.py --versus EXE cbor4ii
# counts godot_bin and another format (GODOT_BIN_BENCH_FORMAT) row by row in one bench binary.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-4470d3c}
rounds=${2:-3}
target=${CARGO_TARGET_DIR:-target}
here=$(pwd)
old="$here/$target/before-$rev"
if [ ! -d "$old" ]; then
  git worktree add --detach "$old" "$rev" >/dev/null
fi
# Beside the earlier tree's own benches/ (its manifest may name them), as a package of its
# own over that tree's godot_bin (`path = ".."`), with a workspace of its own.
pkg="$old/this-benches"
rm -rf "$pkg"
cp -r benches "$pkg"
cp Cargo.lock "$pkg/Cargo.lock"
printf '\n[workspace]\n' >>"$pkg/Cargo.toml"
out="$here/$target/before-after"
rm -rf "$out"
mkdir -p "$out"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(rustc --version)"
echo "before: $rev   after: $(git rev-parse --short HEAD) (+ uncommitted: $(git status --porcelain | wc -l) files)"
build() { "$@" >"$out/build.log" 2>&1 || { tail -n 20 "$out/build.log"; exit 1; }; }
# The bench binary the last build made (for COUNT=1).
exe() { sed -n 's/.*Executable .*formats.rs (\(.*\))$/\1/p' "$out/build.log" | tail -n 1; }
(cd "$pkg" && export CARGO_TARGET_DIR="$old/target" && build cargo bench --bench formats --no-run)
old_exe=$(exe)
case "$old_exe" in /*) ;; *) old_exe="$pkg/$old_exe" ;; esac
build cargo bench -p godot_bin_benches --bench formats --no-run
if [ "${COUNT:-0}" = 1 ]; then
  python3 benches/before_after.py --counts "$old_exe" "$(exe)"
  exit 0
fi
pin=""
if command -v taskset >/dev/null && [ "$(nproc)" -gt 1 ]; then pin="taskset -c ${BENCH_CORE:-1}"; fi
for i in $(seq 1 "$rounds"); do
  echo "round $i: load average $(cut -d' ' -f1-3 /proc/loadavg)"
  (cd "$pkg" && CARGO_TARGET_DIR="$old/target" $pin cargo bench --bench formats -- '/godot_bin$' >"$out/before.$i.txt" 2>&1)
  $pin cargo bench -p godot_bin_benches --bench formats -- '/godot_bin$' >"$out/after.$i.txt" 2>&1
done
echo
python3 benches/before_after.py "$out"
