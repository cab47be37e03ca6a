#!/usr/bin/env bash
# bench/targets.py's whole output on fixture CSVs, byte for byte, and its exit status 0.
# Usage: targets_output.sh <python3> <targets.py> <expected-file> <targets.py arguments...>
set -euo pipefail
py=$1 script=$2 expected=$3
shift 3
out=$("$py" -S "$script" "$@")
diff <(printf '%s\n' "$out") "$expected"
