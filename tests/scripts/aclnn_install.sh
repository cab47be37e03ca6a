#!/usr/bin/env bash
# Installs the build into a scratch prefix and builds CANN-style host programs against it with
# nothing but `pkg-config --cflags --libs selugrad`: the C example, the C++ example, and a C file
# that includes the operator header by its short name. Then runs them.
# Usage: aclnn_install.sh <build-dir> <source-dir> <c-compiler> <c++-compiler> [extra-flags]
set -euo pipefail
build=$1 src=$2 cc=$3 cxx=$4 extra=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
pcdir=$(dirname "$(find "$tmp/prefix" -name selugrad.pc | head -1)")
# no --define-variable: the .pc file must find its prefix by itself (cmake --install --prefix)
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs selugrad)
case $flags in *"$tmp/prefix"*) ;; *) echo "pkg-config flags do not name the install prefix $tmp/prefix"; exit 1 ;; esac
echo "pkg-config flags: $flags"
"$cc" -std=c11 -Wall -Wextra -Werror "$src/examples/test_aclnn_selu_grad.c" -o "$tmp/c_example" $flags -lm $extra
"$cxx" -std=c++11 -Wall -Wextra -Werror "$src/tests/cxx/aclnn_cxx_example.cpp" -o "$tmp/cxx_example" $flags $extra
cat > "$tmp/short.c" <<'C'
#include "acl/acl.h"
#include "aclnn_selu_backward.h"
int main(void) { return aclnnSeluBackward(NULL, 0, NULL, NULL) == ACLNN_ERR_PARAM_NULLPTR ? 0 : 1; }
C
"$cc" -std=c11 -Wall -Werror "$tmp/short.c" -o "$tmp/short" $flags $extra
libdir=$(dirname "$pcdir")
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
"$tmp/c_example" | tail -1
"$tmp/cxx_example" | tail -1
"$tmp/short"
echo "install + pkg-config: OK"
