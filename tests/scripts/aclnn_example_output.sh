#!/usr/bin/env bash
# The aclnn example's whole output, byte for byte, and its exit status 0.
# Usage: aclnn_example_output.sh <example-binary> <expected-file>
set -euo pipefail
out=$("$1")
diff <(printf '%s\n' "$out") "$2"
