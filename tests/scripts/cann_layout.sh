#!/usr/bin/env bash
# CANN's install layout, used the way CANN users use CANN: `cmake --install --component cann`
# into a scratch root, then, with only that root's set_env.sh sourced,
#  1. CANN's sample CMakeLists (examples/cann) builds both ops-nn-style SeluGrad examples (the
#     older one including "aclnnop/aclnn_selu_backward.h", the arch35 one "aclnn_selu_backward.h")
#     and the arch35 SELU forward ones (aclnnSelu, aclnnInplaceSelu: "aclnnop/aclnn_selu.h"),
#     and they print the expected output;
#  2. ops-nn's g++ line builds and runs the SeluGrad ones too (the forward ones compile under it
#     exactly as in 1): -I include -I include/aclnnop and
#     -lopapi_nn -lopapi_math -lascendcl -lnnopbase, its -lacl_rt and older -lopapi variants, and
#     each library name alone (each is the one library);
#  3. a program recording CANN's library names (as one built against CANN does) loads the one
#     library once.
# Then the default install: CANN's names beside libselugrad in its libdir, the g++ line again.
# Three CTest tests, so that the two halves run side by side on one tree: `tree` installs it into
# <build-dir>/cann_tree and checks it (the fixture), `sample` does 1, `lines` 2, 3 and the rest.
# Usage: cann_layout.sh tree|sample|lines <build-dir> <source-dir> <c++-compiler> [extra-flags]
set -euo pipefail
mode=$1 build=$2 src=$(cd "$3" && pwd) cxx=$4 extra=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
old=$src/examples/cann/test_aclnn_selu_grad.cpp
arch35=$src/examples/cann/arch35/test_aclnn_selu_grad.cpp
want_old=$src/tests/data/cann_example.expected
want_arch35=$src/tests/data/cann_example_arch35.expected
fwd=$src/examples/cann/arch35/test_aclnn_selu.cpp
inplace=$src/examples/cann/arch35/test_aclnn_inplace_selu.cpp
want_fwd=$src/tests/data/aclnn_selu_example.expected
want_inplace=$src/tests/data/aclnn_inplace_selu_example.expected

root=$(cd "$build" && pwd)/cann_tree/Ascend/cann
if [ "$mode" = tree ]; then
  rm -rf "$root"
  cmake --install "$build" --component cann --prefix "$root" >/dev/null
  for f in lib64/libselugrad.so include/acl/acl.h include/aclnn/acl_meta.h \
    include/aclnn/aclnn_selu_backward.h include/aclnnop/aclnn_selu_backward.h \
    include/aclnnop/aclnn_selu.h bin/selugrad \
    set_env.sh; do
    [ -e "$root/$f" ] || fail "$f missing from the CANN tree"
  done
  for n in ascendcl acl_rt nnopbase opapi opapi_nn opapi_math; do
    so=$(readelf -d "$root/lib64/lib$n.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$so" = libselugrad.so.0 ] || fail "lib$n.so has SONAME '$so'"
  done
  echo "CANN tree: OK ($(cd "$root" && find . -type f -o -type l | wc -l) files)"
  exit 0
fi
[ -f "$root/set_env.sh" ] || fail "no CANN tree at $root (the cann_tree test installs it)"

# Everything below sees the install only through set_env.sh.
unset ASCEND_CUSTOM_PATH ASCEND_HOME_PATH ASCEND_TOOLKIT_HOME
# shellcheck disable=SC1091
source "$root/set_env.sh"
[ "$ASCEND_CUSTOM_PATH" = "$root" ] || fail "ASCEND_CUSTOM_PATH=$ASCEND_CUSTOM_PATH"
[ "$ASCEND_HOME_PATH" = "$root" ] || fail "ASCEND_HOME_PATH=$ASCEND_HOME_PATH"
case $LD_LIBRARY_PATH in "$root/lib64"*) ;; *) fail "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" ;; esac
[ "$(command -v selugrad)" = "$root/bin/selugrad" ] || fail "selugrad is not the tree's"

# Runs a program, compares its output with a file, and checks it loads the tree's library (by
# the name given, libselugrad.so.0 by default).
check_run() {
  local bin=$1 want=$2 what=$3 lib=${4:-libselugrad.so.0}
  diff <("$bin") "$want" || fail "$what: output differs"
  ldd "$bin" | grep "=> $root/lib64/$lib" >/dev/null || fail "$what: not the tree's $lib"
}

# 1. CANN's sample CMakeLists, ASCEND_CUSTOM_PATH from set_env.sh
if [ "$mode" = sample ]; then
  cmake -S "$src/examples/cann" -B "$tmp/sample" -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror $extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" >/dev/null
  cmake --build "$tmp/sample" >/dev/null
  check_run "$tmp/sample/bin/test_aclnn_selu_grad" "$want_old" "sample CMakeLists, older example"
  check_run "$tmp/sample/bin/test_aclnn_selu_grad_arch35" "$want_arch35" \
    "sample CMakeLists, arch35 example"
  check_run "$tmp/sample/bin/test_aclnn_selu_arch35" "$want_fwd" "sample CMakeLists, arch35 aclnnSelu"
  check_run "$tmp/sample/bin/test_aclnn_inplace_selu_arch35" "$want_inplace" \
    "sample CMakeLists, arch35 aclnnInplaceSelu"
  echo "CANN's sample CMakeLists: OK"
  exit 0
fi
[ "$mode" = lines ] || fail "unknown mode '$mode' (tree, sample or lines)"

# 2. ops-nn's g++ line (build.sh's eager examples) with both SeluGrad examples, its -lacl_rt and
#    older -lopapi variants. Each example is compiled once with the line's -I flags and linked with
#    each set of -l flags (what the one-line form does in two steps). The forward examples include
#    "aclnnop/aclnn_selu.h", found through -I include alone: the sample build above compiles them
#    exactly as this line would and links the same library files, so they are not built again.
inc="-I $ASCEND_HOME_PATH/include -I $ASCEND_HOME_PATH/include/aclnnop"
lib="-L $ASCEND_HOME_PATH/lib64"
for ex in old arch35; do
  eval "file=\$$ex want=\$want_$ex"
  # shellcheck disable=SC2086
  "$cxx" -c "$file" $inc -o "$tmp/$ex.o" $extra
  # shellcheck disable=SC2086
  "$cxx" "$tmp/$ex.o" $lib -lopapi_nn -lopapi_math -lascendcl -lnnopbase -o "$tmp/$ex" $extra
  check_run "$tmp/$ex" "$want" "g++ ... -lopapi_nn -lopapi_math -lascendcl -lnnopbase ($ex)"
done
for libs in "-lopapi_nn -lopapi_math -lacl_rt -lnnopbase" "-lopapi -lascendcl -lnnopbase"; do
  # shellcheck disable=SC2086
  "$cxx" "$tmp/arch35.o" $lib $libs -o "$tmp/variant" $extra
  check_run "$tmp/variant" "$want_arch35" "g++ ... $libs"
done
# Each name alone serves a whole program: every lib<name>.so is the very file libselugrad.so.0
# is (a link to it), so -l<name> alone links what -lselugrad does; one program shows it.
real=$(readlink -f "$root/lib64/libselugrad.so.0")
for n in ascendcl acl_rt nnopbase opapi opapi_nn opapi_math; do
  [ "$(readlink -f "$root/lib64/lib$n.so")" = "$real" ] || fail "lib$n.so is not libselugrad.so.0"
done
# shellcheck disable=SC2086
"$cxx" "$tmp/arch35.o" $lib -lnnopbase -o "$tmp/alone" $extra
check_run "$tmp/alone" "$want_arch35" "-lnnopbase alone"
echo "ops-nn's g++ line: OK"

# 3. CANN's names recorded in the program (stubs with CANN's SONAMEs at link time, the tree at
#    run time): one library is mapped for all of them.
mkdir "$tmp/stub"
echo 'int sg_stub;' > "$tmp/stub/stub.c"
for n in ascendcl nnopbase; do
  "$cxx" -x c -shared -fPIC -Wl,-soname,lib$n.so -o "$tmp/stub/lib$n.so" "$tmp/stub/stub.c"
done
# shellcheck disable=SC2086
"$cxx" "$tmp/old.o" -L "$tmp/stub" -Wl,--no-as-needed -lascendcl -lnnopbase \
  -L "$ASCEND_HOME_PATH/lib64" -lopapi_nn -o "$tmp/cann_names" $extra
readelf -d "$tmp/cann_names" | grep 'NEEDED.*\[libnnopbase.so\]' >/dev/null || fail "stub link"
loaded=$(LD_DEBUG=files "$tmp/cann_names" 2>&1 >/dev/null |
  grep -E 'file=lib(ascendcl|nnopbase|selugrad)[^ ]* .*generating link map' | wc -l)
[ "$loaded" -eq 1 ] || fail "CANN's names map $loaded libraries, expected one"
check_run "$tmp/cann_names" "$want_old" "a program recording CANN's names" libascendcl.so
echo "CANN's names in a program: OK (one library)"

# The default install: CANN's names beside libselugrad, the operator header in include/aclnn.
gnu=$tmp/gnu
cmake --install "$build" --prefix "$gnu" >/dev/null
libdir=$(dirname "$(find "$gnu" -name libascendcl.so | head -1)")
[ -f "$gnu/include/aclnn/aclnn_selu_backward.h" ] || fail "include/aclnn in the default install"
# The headers are the CANN tree's (compiling against the default install's include/ and
# include/aclnnop by the short name: aclnn_install.sh); the library names are linked here.
cmp -s "$gnu/include/aclnn/aclnn_selu_backward.h" "$root/include/aclnn/aclnn_selu_backward.h" ||
  fail "include/aclnn differs between the installs"
# shellcheck disable=SC2086
"$cxx" "$tmp/arch35.o" -L "$libdir" -lopapi_nn -lopapi_math -lascendcl -lnnopbase \
  -o "$tmp/gnu_arch35" $extra
diff <(LD_LIBRARY_PATH=$libdir "$tmp/gnu_arch35") "$want_arch35" || fail "default install"
echo "default install with CANN's names: OK"
