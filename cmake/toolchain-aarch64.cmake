# Cross build for aarch64 Linux with Debian's cross compiler (gcc-aarch64-linux-gnu); CTest runs
# the target's programs under qemu-user. Target libraries come from Debian multiarch (e.g.
# libcmocka-dev:arm64 in /usr/lib/aarch64-linux-gnu); pkg-config is pointed there.
# Usage: scripts/ci-neon.sh (docs/neon.md).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# With multiarch libc6:arm64 installed, its own loader and libc must be used together: qemu's
# -L /usr/aarch64-linux-gnu would pair the cross package's ld.so with the multiarch libc.so.6
# (found through /etc/ld.so.cache), two different glibc builds, and pthread_create then hangs.
if(EXISTS /lib/ld-linux-aarch64.so.1)
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-L;/usr/aarch64-linux-gnu")
endif()
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
