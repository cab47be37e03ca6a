#!/usr/bin/env bash
# CI job for the aarch64 NEON kernels: a cross build with Debian's aarch64 cross
# compiler, warnings as errors, then the test suite under qemu-user (docs/neon.md). It passes with
# or without SELUGRAD_MAX_ISA set: the variant tests (test_kernel_variants, the battery) call every
# kernel of the list directly, NEON included, and their dispatch cases expect whatever the cap
# allows.
# Usage: scripts/ci-neon.sh [build-dir] [extra cmake args...]
#   SELUGRAD_NEON_TESTS=REGEX runs only the tests whose names match (ctest -R); default: all.
#   SELUGRAD_NEON_EXCLUDE=REGEX leaves out the tests whose names match (ctest -E); set it empty to
#   run everything. Default: the thread-count repeats (*_threads_N: qemu on an x86 host keeps x86's
#   stronger memory order, so they add nothing to the native runs but minutes of emulation),
#   install tests (they run host-built programs directly), the exports_/layers_ checks (host
#   tools over the objects; the native build runs them) and test_pool_fork (qemu-user 7.2 aborts
#   a child that starts threads after a fork of a process with threads: "cpu_exec: assertion
#   failed: (cpu == current_cpu)"; the pool's fork handling is the same C on every architecture).
# The examples, CLI and benchmark are left out by default (host tools; the CLI needs libcjson
# for the target): pass -DSELUGRAD_BUILD_TOOLS=ON to build them too.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-aarch64}
shift || true
start=$(date +%s)

# Target libraries (cmocka) come from Debian multiarch: register arm64 once; deps.sh then
# updates the lists because libcmocka-dev:arm64 is missing.
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "ci-neon: adding the arm64 dpkg architecture (for libcmocka-dev:arm64)" >&2
  $SUDO dpkg --add-architecture arm64
fi
export DEBIAN_FRONTEND=noninteractive
scripts/deps.sh gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user \
  libcmocka-dev:arm64 libstdc++6:arm64

echo "== aarch64 cross build (gcc $(aarch64-linux-gnu-gcc -dumpversion), -Werror)"
cmake -S . -B "$build" -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
  -DCMAKE_BUILD_TYPE=Release -DSELUGRAD_WERROR=ON -DSELUGRAD_BUILD_TOOLS=OFF "$@" >/dev/null
cmake --build "$build" -j2

echo "== tests under $(qemu-aarch64 --version | head -n1)${SELUGRAD_MAX_ISA:+, SELUGRAD_MAX_ISA=$SELUGRAD_MAX_ISA}"
exclude=${SELUGRAD_NEON_EXCLUDE-'_threads_[0-9]+$|install|^exports_|^layers_|^test_pool_fork$'}
ctest --test-dir "$build" --output-on-failure -j2 --timeout 300 \
  ${SELUGRAD_NEON_TESTS:+-R "$SELUGRAD_NEON_TESTS"} ${exclude:+-E "$exclude"}
echo "ci-neon: done in $(($(date +%s) - start)) s"
