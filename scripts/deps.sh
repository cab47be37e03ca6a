#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, only those missing. Safe to re-run.
# Extra arguments are more packages: `scripts/deps.sh llvm-19` adds what scripts/cost_model.py
# runs (llvm-mca-19, llvm-objdump-19); the test suite does not need it (cost_model_smoke skips).
set -euo pipefail
pkgs=(cmake gcc g++ make ninja-build pkg-config libcmocka-dev libcjson-dev gnuplot-nox python3 man-db "$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "selugrad: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
