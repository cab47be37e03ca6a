"""`selugrad compute --op=selu --f64` against a model of its own (standard library only).

The float64 golden of the forward (docs/cli.md, "compute"): for float32, float16 and bfloat16
inputs S * (max(0, x) + min(0, A * expm1(x))) in double with the fp32 constants A = 0x3FD62D7D
and S = 0x3F867D5F, not rounded; NaN stays NaN, -0.0 gives +0.0. For int32 and int8 the exact
integer result of docs/contract.md, "Forward per-dtype computation" (int32: -1 for x < 0, else
fp32(x) * S rounded to fp32 and truncated, saturated; int8: -1 for x < 0, else
floor(x * 269 / 256) wrapped to int8, docs/numerics.md). Raw .bin output is compared bit for
bit; a .npy output must carry '<f8' and the input's shape.

    python3 selu_f64.py DIR CLI [CLI args before the command, e.g. an emulator and the program]
"""
import math
import os
import struct
import subprocess
import sys


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


A, S = f32(0x3FD62D7D), f32(0x3F867D5F)


def model_float(x):
    if math.isnan(x):
        return math.nan
    if x > 0:  # min(0, A * (exp(x) - 1)) is 0 (Python's expm1 raises where C's gives inf)
        return S * (x + 0.0)
    t = A * math.expm1(x) if x != -math.inf else -A
    t = t if t < 0 else 0.0
    return S * (0.0 + t)


def round_f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def model_int32(x):
    if x < 0:
        return -1
    y = round_f32(round_f32(float(x)) * S)
    return min(math.trunc(y), 2 ** 31 - 1)


def model_int8(x):
    if x <= 0:
        return -1 if x < 0 else 0
    v = x * 269 // 256
    return v - 256 if v >= 128 else v


def bf16_value(bits):
    return f32(bits << 16)


F32_IN = [1.0, -1.0, 0.0, -0.0, math.inf, -math.inf, math.nan, 2.5, -2.5, -1e-10, -3e-30,
          -7.1e-5, 3.0e38, -104.0, -200.0, f32(0x00000001), f32(0x80000001), f32(0x7F7FFFFF),
          -0.6931471805599453, 88.0, -17.25, 1e-40]
F16_IN = [0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x8001, 0x7BFF,
          0xFBFF, 0xB800, 0xC500, 0x9000, 0x4B00]
BF16_IN = [0x0000, 0x8000, 0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC0, 0x0001, 0x8001, 0x7F7F,
           0xFF7F, 0xC2D0, 0xB000, 0x4120]
S32_IN = [0, 1, -1, 2, -2 ** 31, 2 ** 31 - 1, 2043858111, 2043858112, 16777217, 100, -100]
S8_IN = [0, 1, -1, 127, -128, 50, 121, 122, 2]

CASES = [
    ("f32", struct.pack(f"<{len(F32_IN)}f", *F32_IN), [round_f32(v) for v in F32_IN],
     model_float),
    ("f16", struct.pack(f"<{len(F16_IN)}H", *F16_IN),
     [struct.unpack("<e", struct.pack("<H", b))[0] for b in F16_IN], model_float),
    ("bf16", struct.pack(f"<{len(BF16_IN)}H", *BF16_IN), [bf16_value(b) for b in BF16_IN],
     model_float),
    ("s32", struct.pack(f"<{len(S32_IN)}i", *S32_IN), S32_IN, model_int32),
    ("s8", struct.pack(f"<{len(S8_IN)}b", *S8_IN), S8_IN, model_int8),
]


def same(a, b):
    return struct.pack("<d", a) == struct.pack("<d", b) or (math.isnan(a) and math.isnan(b))


def main():
    out_dir, cli = sys.argv[1], sys.argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    bad = 0
    for dt, raw, values, model in CASES:
        x = os.path.join(out_dir, f"x_{dt}.bin")
        y = os.path.join(out_dir, f"y_{dt}.bin")
        with open(x, "wb") as f:
            f.write(raw)
        r = subprocess.run(cli + ["compute", "--op=selu", f"--dtype={dt}", f"--self={x}",
                                  "-o", y, "--f64"], capture_output=True, text=True)
        want_line = (f"selugrad compute: wrote {y}: out, {dt}, shape {len(values)}, "
                     f"{len(values)} elements, as float64 ('<f8')\n")
        if r.returncode != 0 or r.stdout != want_line:
            print(f"{dt}: exit {r.returncode}\n{r.stdout}{r.stderr}")
            bad += 1
            continue
        with open(y, "rb") as f:
            got = struct.unpack(f"<{len(values)}d", f.read())
        for v, g in zip(values, got):
            w = model(v)
            if not same(float(w), g):
                print(f"{dt}: x = {v!r}: got {g!r} ({struct.pack('<d', g).hex()}), "
                      f"expected {float(w)!r} ({struct.pack('<d', float(w)).hex()})")
                bad += 1
    # .npy: the float64 header with the input's shape
    x = os.path.join(out_dir, "x_f32.bin")
    y = os.path.join(out_dir, "y.npy")
    r = subprocess.run(cli + ["compute", "--op=selu", "--dtype=f32", f"--self={x}",
                              f"--shape=2x{len(F32_IN) // 2}", "-o", y, "--f64"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"npy: exit {r.returncode}\n{r.stdout}{r.stderr}")
        bad += 1
    else:
        with open(y, "rb") as f:
            head = f.read(128)
        if b"'descr': '<f8'" not in head or f"'shape': (2,{len(F32_IN) // 2})".encode() not in head:
            print(f"npy header: {head!r}")
            bad += 1
    print("ok" if bad == 0 else f"{bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
