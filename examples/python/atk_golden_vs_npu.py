#!/usr/bin/env python3
"""How often ops-nn's ATK executor golden for aclnnSeluBackward differs from the NPU's result.

    .venv/bin/python examples/python/atk_golden_vs_npu.py [--n 1048576] [--seed 0]

The executor's golden is torch.where(y > 0, dy * scale, dy * (y + scale * alpha)) with its
no-op casts, so PyTorch computes it in the tensors' dtype (fp32 constants, PyTorch's rounding)
and takes the other branch at y == +-0. The NPU's result is selugrad.atk.selu_backward, which is
the kernel's bit for bit. Inputs as ATK case files describe them (range_values): uniform in
[lo, hi], or "nd": normal with a mean drawn from [lo, hi] and a standard deviation drawn from
[lo, hi] per tensor; dy and y each drawn independently (the files give y its own range; it need
not be a SELU output). Prints a Markdown table.
"""
import argparse

import numpy as np
import torch

import selugrad
import selugrad.atk

SCALE = 1.0507009873554804934193349852946
ALPHA = 1.6732632423543772848170429916717

DISTRIBUTIONS = [
    ("uniform [-1, 1]", ("uniform", -1, 1)),
    ("uniform [-10, 10]", ("uniform", -10, 10)),
    ("uniform [-100, 100]", ("uniform", -100, 100)),
    ("uniform [-2, 0]", ("uniform", -2, 0)),
    ("uniform [0, 1]", ("uniform", 0, 1)),
    ("nd mean [-1, 1], std [0.1, 2]", ("nd", (-1, 1), (0.1, 2))),
    ("nd mean [-10, 10], std [1, 10]", ("nd", (-10, 10), (1, 10))),
    ("uniform [-1, 1], 1% of y set to ±0", ("uniform", -1, 1, 0.01)),
]


def draw(spec, n, dtype, gen, zeros=0.0):
    if spec[0] == "uniform":
        lo, hi = spec[1], spec[2]
        t = torch.rand(n, generator=gen, dtype=torch.float64) * (hi - lo) + lo
    else:
        (m0, m1), (s0, s1) = spec[1], spec[2]
        mean = m0 + (m1 - m0) * torch.rand(1, generator=gen, dtype=torch.float64).item()
        std = s0 + (s1 - s0) * torch.rand(1, generator=gen, dtype=torch.float64).item()
        t = torch.randn(n, generator=gen, dtype=torch.float64) * std + mean
    t = t.to(dtype)
    if zeros:  # exact zeros, half of them -0.0 (as padding or a ReLU in front would give)
        z = torch.rand(n, generator=gen) < zeros
        t[z] = torch.where(torch.rand(n, generator=gen)[z] < 0.5, 0.0, -0.0).to(dtype)
    return t


def executor_golden(dy, y):
    """ops-nn's ST executor golden, as written there (its casts discard their results)."""
    res_dtype = y.dtype
    dy.float()
    y.float()
    res = torch.where(y > 0, dy * SCALE, dy * (y + SCALE * ALPHA))
    res.to(res_dtype)
    return res


def np_bits(t):
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16), "bfloat16"
    return t.numpy(), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1 << 20, help="elements per case")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"selugrad {selugrad.__version__}, torch {torch.__version__}; {args.n} elements per "
          f"case, seed {args.seed}\n")
    print("| dtype | dy and y | elements differing | at y = ±0 | largest distance | "
          "golden passes the precision standard |")
    print("|---|---|---|---|---|---|")
    for dt in (torch.float16, torch.float32, torch.bfloat16):
        for k, (label, spec) in enumerate(DISTRIBUTIONS):
            gen = torch.Generator().manual_seed(args.seed * 1000 + k)
            zeros = spec[3] if spec[0] == "uniform" and len(spec) > 3 else 0.0
            dy, y = draw(spec, args.n, dt, gen), draw(spec, args.n, dt, gen, zeros)
            golden = executor_golden(dy, y)
            npu = selugrad.atk.selu_backward(dy, y)
            (a, dtn), (g, _), (o, _) = np_bits(golden), np_bits(dy), np_bits(y)
            r = selugrad.verify(a, g, o, dtype=dtn, show=0)
            zero = (y == 0).numpy()
            diff = (np_bits(golden)[0] != np_bits(npu)[0])
            at_zero = int(np.count_nonzero(diff & zero))
            ulps = "0" if r.mismatches == 0 else f"{int(r.max_ulp)} ulp{'s' if r.max_ulp != 1 else ''}"
            print(f"| {str(dt)[6:]} | {label} | {r.mismatches} ({100 * r.mismatches / r.size:.2f}%) "
                  f"| {at_zero} | {ulps} | {'yes' if r.precision_ok else 'no'} |")


if __name__ == "__main__":
    main()
