#!/usr/bin/env bash
# Fuzz smoke: builds every libFuzzer target (clang, ASan+UBSan) and runs each for SECONDS.
# Usage: scripts/fuzz.sh [seconds-per-target]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
scripts/deps.sh clang
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSELUGRAD_FUZZ=ON \
  -DSELUGRAD_SANITIZE=address,undefined -DSELUGRAD_WERROR=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)"
for f in build-fuzz/tests/fuzz_*; do
  [ -x "$f" ] || continue
  corpus=$(mktemp -d)
  echo "== $(basename "$f") for ${secs}s"
  (cd "$corpus" && "$OLDPWD/$f" -max_total_time="$secs" -print_final_stats=1 "$corpus" 2>&1 | tail -4)
  rm -rf "$corpus"
done
