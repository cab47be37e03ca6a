"""Builds libselugrad.so with CMake and ships it inside the `selugrad` package.

The Python package reaches the C library through ctypes, so there is no extension module; the
shared library is built from this tree (only the `selugrad` target: no tools or tests) and
copied into the package directory, where `selugrad._lib` loads it by path. The wheel is marked
platform-specific because it carries that binary.

Environment: SELUGRAD_CMAKE_ARGS adds CMake arguments (e.g. -DCMAKE_C_COMPILER=clang);
CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs (default: the CPU count).
"""
import glob
import os
import re
import shlex
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(selugrad\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("CMakeLists.txt: no `project(selugrad VERSION x.y.z)` line")
    return m.group(1)


class BuildWithCMake(build_py):
    """build_py, plus the C library: configure, build the shared target, copy it in."""

    def run(self):
        super().run()
        build_dir = os.path.join(ROOT, "build-python", "cmake")
        cmake = shutil.which("cmake")
        if cmake is None:
            raise RuntimeError("selugrad: cmake is needed to build the C library "
                               "(Debian: apt-get install cmake gcc)")
        args = [cmake, "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                "-DSELUGRAD_BUILD_TESTS=OFF", "-DSELUGRAD_BUILD_TOOLS=OFF"]
        args += shlex.split(os.environ.get("SELUGRAD_CMAKE_ARGS", ""))
        subprocess.run(args, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run([cmake, "--build", build_dir, "--target", "selugrad", "-j", jobs],
                       check=True)
        found = sorted(glob.glob(os.path.join(build_dir, "**", "libselugrad.so"), recursive=True),
                       key=len)
        if not found:
            raise RuntimeError(f"selugrad: the CMake build made no libselugrad.so in {build_dir}")
        lib = found[0]  # the top-most one
        dest = os.path.join(self.build_lib, "selugrad", "libselugrad.so")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(os.path.realpath(lib), dest)  # the file, not the symlink chain


class BinaryDistribution(Distribution):
    """The package carries a shared library: a platform wheel, installed to platlib."""

    def has_ext_modules(self):
        return True


setup(version=version(), cmdclass={"build_py": BuildWithCMake}, distclass=BinaryDistribution)
