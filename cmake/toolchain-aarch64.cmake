# Cross build for aarch64 Linux with Debian's cross compiler (gcc-aarch64-linux-gnu). CTest runs
# the target's programs under qemu-user; -L points the emulated dynamic loader at the cross libc.
# Target libraries from Debian multiarch (e.g. libcmocka-dev:arm64) live in
# /usr/lib/aarch64-linux-gnu; pkg-config is pointed there. Usage: scripts/ci-neon.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-L;/usr/aarch64-linux-gnu")
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
