#!/usr/bin/env python3
"""Mutation check: does the suite catch a fixed list of meaningful faults?

Copies the working tree (tracked and untracked files, not ignored ones) to a scratch directory,
builds it once (Release, warnings not errors: a mutation must fail a test, not a warning), checks
that the suite passes there, then applies each mutation below alone: one exact text replacement
in one source file, an incremental build, `ctest -j2 --stop-on-failure` (the unit tests test_*
first, then the rest), and the original restored. A mutation is caught when a test fails, missed
when the whole suite passes, stale when its text is no longer found exactly once (the source
changed: update the list). A tool to run by hand, not part of CTest: each mutation rebuilds and
reruns the suite (minutes each).

Usage: scripts/mutate.py [--work DIR] [--only N[,N...]] [--list]
Exit status 0 when every mutation is caught, 1 otherwise, 2 for a broken setup.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

# (file, text, replacement, what the fault is)
MUTATIONS = [
    ("src/kernels/ref/selugrad_ref.h", "float r = o < 0.0f ? b : a;",
     "float r = o <= 0.0f ? b : a;", "scalar SeluGrad: o == 0 takes the negative branch"),
    ("src/kernels/ref/selugrad_ref.h", "return r != r ? sg_bits_f32(SG_F32_QNAN_BITS) : r;",
     "return r;", "scalar SeluGrad f32: NaN results keep their payload"),
    ("src/kernels/ref/selugrad_ref.h",
     "if (d > 0.5f || (d == 0.5f && fmodf(fl, 2.0f) != 0.0f)) fl += 1.0f;",
     "if (d >= 0.5f) fl += 1.0f;", "int8/uint8: ties round away instead of to even"),
    ("src/kernels/ref/half.h", "ax += 0xFFFu + ((ax >> 13) & 1u);", "ax += 0x1000u;",
     "fp32 -> fp16: ties away instead of to even"),
    ("src/kernels/ref/half.h", "return x + 0x7FFFu + ((x >> 16) & 1u);", "return x + 0x8000u;",
     "fp32 -> bf16: ties away instead of to even"),
    ("src/kernels/ref/selu_ref.h", "return (uint16_t)((x + 0x8000u) >> 16);",
     "return (uint16_t)((x + 0x7FFFu) >> 16);", "forward bf16: ties toward zero instead of away"),
    ("src/kernels/ref/selu_exp.h", "r = fmaf(kf, -SG_EXP_L2L, r);", "",
     "forward exp: the low part of ln 2 dropped from the reduction"),
    ("src/op/selu_grad/aclnn_selu_backward.c",
     "if (rc == ACLNN_SUCCESS) rc = sg_check_dtype_same(t);", "",
     "aclnnSeluBackward: no check that the three dtypes agree"),
    ("src/op/common/aclnn_op.c", "if (t[v]->dims[i] != t[0]->dims[i]) same = false;", "",
     "aclnn shape check: only the ranks compared"),
    ("src/common/tiling.c", "SG_UB_RESERVED = 8192", "SG_UB_RESERVED = 4096",
     "tiling: the UB reserve changed"),
    ("src/common/dtypes.inc", "SG_ACLNN_BF16_SOCS, \"bfloat16\")", "SG_ACLNN_ALL,       \"bfloat16\")",
     "dtype list: bf16 accepted on every SoC"),
    ("src/core/exec.c", "if (two) sg_gather(ob, op + at * os, os, m, es);",
     "if (two) sg_gather(ob, op + at * gs, os, m, es);",
     "strided path: o's chunk offset uses g's stride"),
    ("src/core/dispatch.c", "sg_isa_allowed(k->isa, cap) && ", "",
     "dispatch: the ISA cap ignored"),
    ("src/kernels/avx2/f32_avx2.c", "_mm256_add_ps(o, sa)", "_mm256_sub_ps(o, sa)",
     "AVX2 f32 SeluGrad: o - SA instead of o + SA"),
    ("src/kernels/avx512/f16_avx512.c", "__m512 s = _mm512_add_ps(o, sa);",
     "__m512 s = _mm512_sub_ps(o, sa);", "AVX-512 f16 SeluGrad: o - SA instead of o + SA"),
]


def run(cmd, cwd, log):
    with open(log, "w") as f:
        return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT).returncode


def first_failure(log):
    with open(log) as f:
        for line in f:
            if "***Failed" in line or "***Exception" in line or "***Timeout" in line:
                return line.split(":", 1)[1].split()[0] if ":" in line else line.strip()
    return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", default="/tmp/selugrad-mutate")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        for i, (path, _, _, what) in enumerate(MUTATIONS, 1):
            print(f"{i:2d} {path}: {what}")
        return 0
    only = {int(x) for x in args.only.split(",") if x}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src, build = os.path.join(args.work, "src"), os.path.join(args.work, "build")
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root,
                           check=True, capture_output=True).stdout.decode().split("\0")
    os.makedirs(src, exist_ok=True)
    for rel in filter(None, files):
        if not os.path.isfile(os.path.join(root, rel)):
            continue
        dst = os.path.join(src, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(os.path.join(root, rel), "rb") as f:
            data = f.read()
        if not os.path.exists(dst) or open(dst, "rb").read() != data:
            with open(dst, "wb") as f:  # unchanged files keep their time: builds stay incremental
                f.write(data)
            shutil.copymode(os.path.join(root, rel), dst)
    log = os.path.join(args.work, "log")
    os.makedirs(log, exist_ok=True)
    if run(["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release"], src,
           f"{log}/configure.txt") != 0:
        print(f"configure failed: {log}/configure.txt")
        return 2
    build_cmd = ["cmake", "--build", build, "-j2"]
    test_cmd = ["ctest", "--test-dir", build, "-j2", "--stop-on-failure", "--output-on-failure"]
    # the unit tests first (most mutations fail one of them within seconds), then the rest
    stages = [test_cmd + ["-R", "^test_"], test_cmd + ["-E", "^test_"]]

    def suite(name):
        return next((rc for k, c in enumerate(stages)
                     if (rc := run(c, src, f"{name}.{k}.txt")) != 0), 0)

    if run(build_cmd, src, f"{log}/build.txt") != 0 or suite(f"{log}/test") != 0:
        print(f"the unmutated tree does not build or pass: {log}/build.txt, {log}/test.*.txt")
        return 2
    print(f"unmutated tree: builds and passes ({build})")
    missed = stale = 0
    for i, (path, text, repl, what) in enumerate(MUTATIONS, 1):
        if only and i not in only:
            continue
        target = os.path.join(src, path)
        original = open(target).read() if os.path.exists(target) else ""
        if original.count(text) != 1:
            print(f"{i:2d} STALE   {path}: {what} (text found {original.count(text)} times)")
            stale += 1
            continue
        t0 = time.time()
        with open(target, "w") as f:
            f.write(original.replace(text, repl))
        try:
            if run(build_cmd, src, f"{log}/{i}.build.txt") != 0:
                verdict = f"caught by the build ({log}/{i}.build.txt)"
            elif suite(f"{log}/{i}.test") != 0:
                verdict = "caught by " + ", ".join(
                    first_failure(f"{log}/{i}.test.{k}.txt") for k in range(len(stages))
                    if os.path.exists(f"{log}/{i}.test.{k}.txt") and
                    first_failure(f"{log}/{i}.test.{k}.txt") != "?")
            else:
                verdict = None
        finally:
            with open(target, "w") as f:
                f.write(original)
        secs = time.time() - t0
        if verdict is None:
            missed += 1
            print(f"{i:2d} MISSED  {path}: {what} ({secs:.0f} s)", flush=True)
        else:
            print(f"{i:2d} caught  {path}: {what}: {verdict} ({secs:.0f} s)", flush=True)
    n = len(only) if only else len(MUTATIONS)
    print(f"{n - missed - stale} of {n} caught, {missed} missed, {stale} stale")
    return 0 if missed == 0 and stale == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
