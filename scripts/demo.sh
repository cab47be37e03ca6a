#!/usr/bin/env bash
# Builds the library and runs the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target native_demo >/dev/null
build/examples/native_demo
