#!/usr/bin/env bash
# The Debian package, as a user meets it: `cpack -G DEB` in the build tree, its contents
# (dpkg-deb -c), `dpkg -i`, then programs built against the installed package alone (the C
# example with pkg-config, the arch35 example with ops-nn's g++ line and no -I/-L of ours beyond
# /usr/include/aclnnop, a find_package project on the shared and the static library), the
# installed `selugrad` and `man selugrad`, then `dpkg -r` and a check that no file is left, then
# `dpkg -P`, so that no record is left either.
# Needs root (CI runs it); refuses to run when a selugrad package is already installed.
# Usage: scripts/deb_check.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
build=$(cd "${1:-build}" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "dpkg -i / -r need root"
if dpkg-query -W -f='${Status}' selugrad 2>/dev/null | grep "ok installed" >/dev/null; then
  fail "a selugrad package is already installed; remove it first (dpkg -r selugrad)"
fi
# cpack's DEB generator runs dpkg-shlibdeps (dpkg-dev) and file on the binaries
scripts/deps.sh dpkg-dev file

rm -f "$build"/selugrad_*.deb
(cd "$build" && cpack -G DEB > cpack.log 2>&1) || { cat "$build/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$build"/selugrad_*.deb)
echo "package: $(basename "$deb") ($(stat -c %s "$deb") bytes)"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$build/deb-contents.txt"
libdir=$(dirname "$(grep '/libselugrad\.so\.[0-9]*\.[0-9]*\.[0-9]*$' "$build/deb-contents.txt")")
for f in "$libdir"/libselugrad.so "$libdir"/libselugrad.a "$libdir"/libascendcl.so \
  "$libdir"/libacl_rt.so "$libdir"/libnnopbase.so "$libdir"/libopapi.so "$libdir"/libopapi_nn.so \
  "$libdir"/libopapi_math.so "$libdir"/pkgconfig/selugrad.pc \
  "$libdir"/cmake/selugrad/selugradConfig.cmake /usr/include/acl/acl.h \
  /usr/include/aclnn/acl_meta.h /usr/include/aclnn/aclnn_selu_backward.h \
  /usr/include/aclnnop/aclnn_selu_backward.h /usr/include/selugrad/selugrad.h /usr/bin/selugrad \
  /usr/share/man/man1/selugrad.1.gz; do
  grep -qx "$f" "$build/deb-contents.txt" || fail "$f is not in the package"
done
depends=$(dpkg-deb -f "$deb" Depends)
for d in libc6 libstdc++6 libcjson1; do
  case $depends in *"$d"*) ;; *) fail "Depends lacks $d: $depends" ;; esac
done
echo "contents: OK ($(wc -l < "$build/deb-contents.txt") entries; Depends: $depends)"

tmp=$(mktemp -d)
installed=0
cleanup() {
  [ "$installed" -eq 1 ] && dpkg -P selugrad >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
dpkg -i "$deb" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "dpkg -i"; }
installed=1
grep -i "warning" "$tmp/install.log" && fail "dpkg -i warned"
echo "dpkg -i: OK"

# Consumers see only the installed package: no build tree, no LD_LIBRARY_PATH.
unset LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH
cc -std=c11 -Wall -Wextra -Werror "$src/examples/test_aclnn_selu_grad.c" -o "$tmp/c_example" \
  $(pkg-config --cflags --libs selugrad) -lm
diff <("$tmp/c_example") "$src/tests/data/aclnn_example.expected" || fail "C example output"
g++ "$src/examples/cann/arch35/test_aclnn_selu_grad.cpp" -I /usr/include/aclnnop \
  -lopapi_nn -lopapi_math -lascendcl -lnnopbase -o "$tmp/arch35"
diff <("$tmp/arch35") "$src/tests/data/cann_example_arch35.expected" || fail "arch35 output"
cmake -S "$src/tests/consumer" -B "$tmp/consumer" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
for e in shared_example static_example; do
  diff <("$tmp/consumer/$e") "$src/tests/data/aclnn_example.expected" || fail "$e output"
done
"$tmp/consumer/short" || fail "short.c (the operator header by its short name)"
echo "consumers (pkg-config, ops-nn's g++ line, find_package shared and static): OK"
[ "$(command -v selugrad)" = /usr/bin/selugrad ] || fail "selugrad is not /usr/bin/selugrad"
selugrad info | head -1
[ "$(man -w selugrad)" = /usr/share/man/man1/selugrad.1.gz ] || fail "man -w selugrad"
MANPAGER=cat MANWIDTH=80 man selugrad 2>/dev/null | grep "^SELUGRAD(1)" >/dev/null ||
  fail "man selugrad does not render"
echo "selugrad and man selugrad: OK"

dpkg -r selugrad > "$tmp/remove.log" 2>&1 || { cat "$tmp/remove.log"; fail "dpkg -r"; }
installed=0
grep -i "warning" "$tmp/remove.log" && fail "dpkg -r warned"
left=0
while read -r f; do
  case $f in */) continue ;; esac
  if [ -e "$f" ] || [ -L "$f" ]; then echo "left after dpkg -r: $f"; left=1; fi
done < "$build/deb-contents.txt"
for d in /usr/include/acl /usr/include/aclnn /usr/include/aclnnop /usr/include/selugrad \
  "$libdir/cmake/selugrad"; do
  [ -e "$d" ] && { echo "left after dpkg -r: $d/"; left=1; }
done
[ "$left" -eq 0 ] || fail "dpkg -r left files"
dpkg-query -W -f='${Status}' selugrad 2>/dev/null | grep "ok installed" >/dev/null &&
  fail "still installed"
echo "dpkg -r: OK (nothing left)"
# dpkg -r keeps the package's record (and its postrm) as config-files; purging drops the record,
# so the machine's package database is as it was before.
dpkg -P selugrad > "$tmp/purge.log" 2>&1 || { cat "$tmp/purge.log"; fail "dpkg -P"; }
status=$(dpkg-query -W -f='${Status}' selugrad 2>/dev/null || true)
case $status in "" | *not-installed) ;; *) fail "after dpkg -P the status is '$status'" ;; esac
echo "dpkg -P: OK (no record left)"
