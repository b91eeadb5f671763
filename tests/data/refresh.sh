#!/usr/bin/env bash
# Re-copies the engine-made test data from the team's shared folder into tests/data/ (the
# golden packets) and crates/godot_bin_files/tests/data/ (the save files), and says what
# changed. The shared folder is ${GODOT_BIN_SHARED:-../shared}, relative to the
# repository's root (the folder beside the checkout).
#
#   tests/data/refresh.sh            report the differences, then copy
#   tests/data/refresh.sh --check    only report; exit 1 if anything differs
set -euo pipefail
cd "$(dirname "$0")/../.."

shared=${GODOT_BIN_SHARED:-../shared}
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
if [ ! -d "$shared/golden" ]; then
  echo "no $shared/golden: set GODOT_BIN_SHARED to the shared folder" >&2
  exit 2
fi

# source directory in the shared folder -> directory here
pairs=(
  "$shared/golden:tests/data/golden"
  "$shared/golden/files/godot3:crates/godot_bin_files/tests/data/files/godot3"
  "$shared/golden/files/godot4:crates/godot_bin_files/tests/data/files/godot4"
)

differ=0
for pair in "${pairs[@]}"; do
  from=${pair%%:*}
  to=${pair#*:}
  # Only the files directly in each folder: golden/ holds the .tsv files, files/* the rest.
  while IFS= read -r -d '' src; do
    name=${src##*/}
    if [ ! -e "$to/$name" ]; then
      echo "new:       $to/$name"
      differ=1
    elif ! cmp -s "$src" "$to/$name"; then
      echo "changed:   $to/$name"
      differ=1
    fi
  done < <(find "$from" -maxdepth 1 -type f -print0 | sort -z)
  if [ -d "$to" ]; then
    while IFS= read -r -d '' here; do
      name=${here##*/}
      case "$name" in README.md | refresh.sh) continue ;; esac
      if [ ! -e "$from/$name" ]; then
        echo "only here: $to/$name (left in place)"
        differ=1
      fi
    done < <(find "$to" -maxdepth 1 -type f -print0 | sort -z)
  fi
done

if [ "$differ" = 0 ]; then
  echo "the engine data here matches $shared"
  exit 0
fi
if [ "$check" = 1 ]; then
  exit 1
fi
for pair in "${pairs[@]}"; do
  from=${pair%%:*}
  to=${pair#*:}
  mkdir -p "$to"
  find "$from" -maxdepth 1 -type f -exec cp {} "$to/" \;
  chmod -R u+w "$to"
done
echo "copied; review with git status / git diff --stat, and update tests/data/README.md"
