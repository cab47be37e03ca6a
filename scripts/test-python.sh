#!/usr/bin/env bash
# The Python package's tests, as a user installs it: Debian's packages (installed with apt-get
# when missing), a venv over the system's site-packages, the package built and installed offline
# by pip (which builds the C library with CMake), then pytest on tests/python.
# Usage: scripts/test-python.sh [venv-dir] [pytest args...]   (default venv: build-venv)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-build-venv}
shift || true
scripts/deps.sh python3-venv python3-pip python3-wheel python3-numpy python3-setuptools python3-pytest \
  python3-hypothesis python3-torch
# Debian's packages are for Debian's interpreter; another python3 may come first on PATH.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
[ -x "$venv/bin/python" ] || "$py" -m venv --system-site-packages "$venv"
venv=$(cd "$venv" && pwd)
"$venv/bin/pip" install --no-build-isolation --no-index --quiet .
# From the tests' folder, so that `import selugrad` is the installed package.
set +e
(cd tests/python && "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" .)
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "selugrad: pytest collected no tests (exit 5): the Python tests are missing" >&2
  exit 1
fi
exit "$rc"
