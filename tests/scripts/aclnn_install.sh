#!/usr/bin/env bash
# Installs the build into a scratch prefix and builds CANN-style host programs against it with
# nothing but `pkg-config --cflags --libs selugrad`: the C example, the C++ example, ops-nn's
# forward example, a C file that includes the operator header by its short name, and README's
# "The API in five lines" as written there (in a main that gives n and the inputs). Then runs
# them. Then a CMake project that finds the same install with find_package(selugrad) builds the
# C example against the shared and the static target and runs both. The two halves are two CTest
# tests (mode pkgconfig or find_package), each on its own install, so they run side by side.
# Usage: aclnn_install.sh pkgconfig|find_package <build-dir> <source-dir> <c-compiler>
#        <c++-compiler> [extra-flags]
set -euo pipefail
mode=$1 build=$2 src=$(cd "$3" && pwd) cc=$4 cxx=$5 extra=${6:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
pcdir=$(dirname "$(find "$tmp/prefix" -name selugrad.pc | head -1)")
libdir=$(dirname "$pcdir")
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ "$mode" = pkgconfig ]; then
  # no --define-variable: the .pc file must find its prefix by itself (cmake --install --prefix)
  flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs selugrad)
  case $flags in *"$tmp/prefix"*) ;; *) echo "pkg-config flags do not name the install prefix $tmp/prefix"; exit 1 ;; esac
  echo "pkg-config flags: $flags"
  "$cc" -std=c11 -Wall -Wextra -Werror "$src/examples/test_aclnn_selu_grad.c" -o "$tmp/c_example" $flags -lm $extra
  "$cxx" -std=c++11 -Wall -Wextra -Werror "$src/tests/cxx/aclnn_cxx_example.cpp" -o "$tmp/cxx_example" $flags $extra
  # ops-nn's forward example (its in-place twin includes the same headers; both run in the build
  # tree: tests/cmake/selu.cmake)
  "$cxx" -std=c++11 -Wall -Wextra -Werror "$src/examples/test_aclnn_selu.cpp" -o "$tmp/test_aclnn_selu" $flags $extra
  "$cc" -std=c11 -Wall -Werror "$src/tests/consumer/short.c" -o "$tmp/short" $flags $extra
  # README's snippet: its #include lines first, the rest in main after n = 3; the inputs g = 1,
  # o = -1, 0, 1 go in after its declaration line; y is printed (docs/contract.md's values)
  snippet=$(awk '/^## The API in five lines/ {on = 1; next} on && /^```c$/ {code = 1; next}
                 code && /^```$/ {exit} code' "$src/README.md")
  decl='^float g\[n\], o\[n\], y\[n\];'
  printf '%s\n' "$snippet" | grep -q "$decl" ||
    { echo "README's five-line API snippet has no line 'float g[n], o[n], y[n];'"; exit 1; }
  {
    echo '#include <stdio.h>'
    printf '%s\n' "$snippet" | grep '^#include'
    echo 'int main(void) {'
    echo 'size_t n = 3;'
    printf '%s\n' "$snippet" | grep -v '^#include' |
      sed "/$decl/a for (size_t i = 0; i < n; i++) { g[i] = 1.0f; o[i] = (float)i - 1.0f; }"
    echo 'printf("%.6f %.6f %.6f\n", (double)y[0], (double)y[1], (double)y[2]);'
    echo 'return st != SELUGRAD_OK;'
    echo '}'
  } >"$tmp/readme_api.c"
  "$cc" -std=c11 -Wall -Wextra -Werror "$tmp/readme_api.c" -o "$tmp/readme_api" $flags $extra
  "$tmp/c_example" | tail -1
  "$tmp/cxx_example" | tail -1
  "$tmp/test_aclnn_selu" | diff - "$src/tests/data/aclnn_selu_then_inplace_example.expected"
  "$tmp/short"
  readme=$("$tmp/readme_api")
  [ "$readme" = "0.758099 1.050701 1.050701" ] ||
    { echo "README's API snippet printed '$readme', expected '0.758099 1.050701 1.050701'"; exit 1; }
  echo "README's API in five lines: $readme"
  echo "install + pkg-config: OK"
  exit 0
fi
[ "$mode" = find_package ] || { echo "unknown mode '$mode' (pkgconfig or find_package)"; exit 2; }
cmake -S "$src/tests/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="-Wall -Werror $extra" \
  -DCMAKE_EXE_LINKER_FLAGS="$extra" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/shared_example" | tail -1
"$tmp/consumer/static_example" | tail -1
"$tmp/consumer/short"
ldd "$tmp/consumer/static_example" | grep -q libselugrad && { echo "static_example links libselugrad.so"; exit 1; }
echo "install + find_package: OK"
