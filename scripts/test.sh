#!/usr/bin/env bash
# Builds the library, examples, tools and tests with warnings as errors, and runs the whole suite.
# Usage: scripts/test.sh [build-dir] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
scripts/deps.sh
# Ninja for a new build directory: its up-to-date check takes a fraction of a second where
# make's walk over the ~150 targets takes seconds. A directory configured before keeps its
# generator (CMake refuses to switch one).
gen=()
[ -f "$build/CMakeCache.txt" ] || ! command -v ninja >/dev/null || gen=(-G Ninja)
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DSELUGRAD_WERROR=ON "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
