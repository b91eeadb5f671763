#!/usr/bin/env bash
# The engine's own load time of a real project's scenes and resources (.tscn .tres .scn
# .res), beside the crate's read/write bench of the same files (issue 50 item 2).
#
#   GODOT4_BIN=/path/to/godot4 bash crates/godot_bin_files/benches/project_engine.sh PROJECT_DIR [PASSES]
#
# PROJECT_DIR is the folder holding project.godot; PASSES defaults to 10. DEEP=1 loads
# with CACHE_MODE_IGNORE_DEEP instead of CACHE_MODE_IGNORE (project_engine.gd says what
# each reloads); ERRORS=1 lets the engine print its errors during the passes (muted by
# default: printing them would be timed). The project is copied to a temporary folder (the original is never
# touched), imported once where the engine can (an editor build: --import; an export
# template, such as the 4.4.1 headless build here, has no editor and cannot import, so
# anything that needs .godot/imported fails to load and is listed), then
# project_engine.gd loads every listed file PASSES times in one fresh process: pass 1 cold,
# the rest warm. Prints the file count and bytes, whether the OS page cache held the files
# (it does: cp has just written them), each pass's ms, the warm median, MB/s, the files
# that failed to load, and how many ERROR lines the engine printed (its log is kept only
# on request: KEEP_LOG=path).
set -euo pipefail
project=${1:?usage: GODOT4_BIN=godot4 $0 PROJECT_DIR [PASSES]}
passes=${2:-10}
godot=${GODOT4_BIN:?set GODOT4_BIN to a Godot 4 binary}
[[ -f "$project/project.godot" ]] || {
  echo "no project.godot in $project; candidates:" >&2
  find "$project" -name project.godot >&2
  exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -a "$project/." "$tmp/"
cp "$(dirname "$0")/project_engine.gd" "$tmp/project_engine_bench.gd"
log=$tmp/engine.log

echo "engine: $("$godot" --version)"
if "$godot" --help 2>&1 | grep -q -- '--import'; then
  echo "import: --import"
  "$godot" --headless --path "$tmp" --import >"$log" 2>&1 || echo "import exited $?"
else
  echo "import: none (this build has no --import, no editor: an export template)"
fi

# Page cache state of the listed files just before the run (fincore: resident pages).
mapfile -d '' listed < <(find "$tmp" \( -name '.*' -prune \) -o -type f \
  \( -name '*.tscn' -o -name '*.tres' -o -name '*.scn' -o -name '*.res' \) -print0)
if command -v fincore >/dev/null && ((${#listed[@]})); then
  fincore -n -o PAGES,SIZE -b "${listed[@]}" |
    awk '{r += $1; p += int(($2 + 4095) / 4096)} END {printf "page cache: %d of %d pages resident\n", r, p}'
fi

args=("$passes")
[[ "${DEEP:-0}" == 1 ]] && args+=(deep)
[[ "${ERRORS:-0}" == 1 ]] && args+=(errors)
"$godot" --headless --quit-after 2 --path "$tmp" -s res://project_engine_bench.gd -- "${args[@]}" >>"$log" 2>&1 ||
  echo "engine exited $?"
grep '^PE ' "$log" | sed 's/^PE //'
echo "engine ERROR lines: $(grep -c '^ERROR' "$log" || true)"
[[ -z "${KEEP_LOG:-}" ]] || cp "$log" "$KEEP_LOG"
