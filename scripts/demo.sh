#!/usr/bin/env bash
# Builds the library and runs the main demo: the canonical CANN aclnnSeluBackward host program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target test_aclnn_selu_grad >/dev/null
build/examples/test_aclnn_selu_grad
