#!/usr/bin/env python3
"""How far PyTorch's CPU SELU backward is from the NPU's result, per dtype, on a random batch.

    .venv/bin/python examples/python/compare_with_torch.py [--n 1000000] [--zeros 0.01] [--seed 0]

For each dtype: x ~ N(0, 1) with a share of exact zeros (as padding or dropout leave), the
forward y = selu(x) in that dtype, an upstream gradient g ~ N(0, 1); then PyTorch's two CPU SELU
backwards: autograd's (elu_backward from the input x: exp(x) again) and elu_backward from the
output y (SeluGrad's own inputs, the formula ops-nn's golden uses), against selugrad's
SeluGrad(g, y), which is the NPU kernel's result bit for bit. Prints how many elements differ,
how many of those are at y == 0, the largest distance in ulps (over all elements and over those
with y != 0), and whether PyTorch's result passes the precision standard against the golden
from y (all elements / those with y != 0), as selugrad.verify judges them.
"""
import argparse

import torch

import selugrad


def bits16(t):
    return t.view(torch.int16).numpy()


def as_numpy(t):
    """A NumPy array of t's bits for selugrad.verify, and the dtype keyword it needs."""
    if t.dtype == torch.bfloat16:
        return bits16(t).view("uint16"), "bfloat16"
    return t.numpy(), None


ALPHA = 1.6732632423543772848170429916717
SCALE = 1.0507009873554804934193349852946


def torch_grad(x, g):
    """PyTorch's autograd gradient of F.selu at x (elu_backward from the input x)."""
    x = x.detach().clone().requires_grad_(True)
    torch.nn.functional.selu(x).backward(g)
    return x.grad


def torch_from_result(g, y):
    """PyTorch's elu_backward from the forward output y, SeluGrad's own inputs."""
    return torch.ops.aten.elu_backward(g, ALPHA, SCALE, 1.0, True, y)


def compare(label, got, g, y, zero):
    a, dt = as_numpy(got)
    gn, _ = as_numpy(g)
    yn, _ = as_numpy(y)
    r = selugrad.verify(a, gn, yn, dtype=dt, show=0)
    away = selugrad.verify(a[~zero], gn[~zero], yn[~zero], dtype=dt, show=0)
    print(f"{str(y.dtype)[6:]:9} {label:40} {r.mismatches:7} ({100 * r.mismatches / r.size:6.3f}%) "
          f"{r.mismatches - away.mismatches:7} {int(r.max_ulp):8} {int(away.max_ulp):8}   "
          f"{'pass' if r.precision_ok else 'fail'} / {'pass' if away.precision_ok else 'fail'}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="elements per dtype")
    ap.add_argument("--zeros", type=float, default=0.01, help="share of x that is exactly 0")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    gen = torch.Generator().manual_seed(args.seed)
    x32 = torch.randn(args.n, generator=gen)
    x32[torch.rand(args.n, generator=gen) < args.zeros] = 0.0
    g32 = torch.randn(args.n, generator=gen)
    print(f"selugrad {selugrad.__version__} against torch {torch.__version__} on the CPU: "
          f"{args.n} elements per dtype, x ~ N(0, 1) with {100 * args.zeros:g}% zeros, "
          f"grad ~ N(0, 1), seed {args.seed}")
    print(f"{'dtype':9} {'PyTorch SELU backward':40} {'differ':>7} {'':9} {'at y=0':>7} "
          f"{'max ulp':>8} {'y != 0':>8}   precision standard (all / y != 0)")
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        x, g = x32.to(dt), g32.to(dt)
        zero = (x == 0).numpy()
        if dt == torch.float16:  # PyTorch 1.13 has no float16 SELU on the CPU
            y = torch.nn.functional.selu(x.float()).half()
            for label, fn in (("autograd of F.selu", lambda: torch_grad(x, g)),
                              ("elu_backward(g, y)", lambda: torch_from_result(g, y))):
                try:
                    compare(label, fn(), g, y, zero)
                except RuntimeError as e:
                    print(f"{'float16':9} {label}: {str(e).splitlines()[0]}")
            compare("autograd of F.selu, float32 -> float16", torch_grad(x.float(), g.float()).half(),
                    g, y, zero)
            compare("elu_backward(g, y), float32 -> float16",
                    torch_from_result(g.float(), y.float()).half(), g, y, zero)
        else:
            y = torch.nn.functional.selu(x)
            compare("autograd of F.selu", torch_grad(x, g), g, y, zero)
            compare("elu_backward(g, y)", torch_from_result(g, y), g, y, zero)

if __name__ == "__main__":
    main()
