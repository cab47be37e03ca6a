#!/usr/bin/env python3
"""Speed of the Python package, A/B in one process: the NumPy call against the bare C call, and
selugrad against PyTorch's CPU elu_backward (SeluGrad's formula from the result) on the same
number of threads.

    build-venv/bin/python bench/python_speed.py [--rounds 7] [--threads 1,2]

Each row runs the contenders in alternating blocks of calls (rounds), prints each one's median
time per call (median over rounds) and the median and range of the per-round time ratios (first
over second: below 1 means the first is faster). Outputs are preallocated for every contender
(out=), except in the row marked "new array".
"""
import argparse
import ctypes
import statistics
import time

import numpy as np

import selugrad

ALPHA = 1.6732632423543772848170429916717
SCALE = 1.0507009873554804934193349852946


def per_call(fns, reps, rounds):
    """Per round: each fn `reps` times in a row (the order alternating between rounds), its
    median seconds per call. Returns the medians over rounds and the median of the per-round
    ratios fns[0] / fns[1] (a ratio within one round sees one machine state)."""
    res = [[] for _ in fns]
    ratios = []
    for r in range(rounds):
        order = range(len(fns)) if r % 2 == 0 else reversed(range(len(fns)))
        this = [0.0] * len(fns)
        for i in order:
            times = []
            for _ in range(reps):
                t0 = time.perf_counter()
                fns[i]()
                times.append(time.perf_counter() - t0)
            this[i] = statistics.median(times)
            res[i].append(this[i])
        ratios.append(this[0] / this[1])
    return [statistics.median(x) for x in res], statistics.median(ratios), min(ratios), max(ratios)


def reps_for(n):
    return max(5, min(2000, int(2e8 // max(n, 1) // 12)))


def row(label, n, names, fns, rounds):
    t, ratio, lo, hi = per_call(fns, reps_for(n), rounds)
    gbs = [12 * n / x / 1e9 for x in t]  # f32: read g and o, write y
    cells = "  ".join(f"{nm} {x * 1e6:8.2f} us ({g:5.1f} GB/s)" for nm, x, g in zip(names, t, gbs))
    print(f"{label:34} {cells}  ratio {ratio:.3f} ({lo:.3f}-{hi:.3f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    print(f"selugrad {selugrad.__version__}, kernel {selugrad.kernel_name('f32')}, numpy "
          f"{np.__version__}; median of {args.rounds} rounds, each the median per call")
    raw = selugrad._lib.backward  # the C function itself, through ctypes

    try:
        import torch
        import selugrad.torch as sgt
    except ImportError:
        torch = None
    for threads in [int(t) for t in args.threads.split(",")]:
        selugrad.set_num_threads(threads)
        if torch is not None:
            torch.set_num_threads(threads)
        print(f"-- {threads} thread{'s' if threads > 1 else ''} "
              f"(selugrad {selugrad.get_num_threads()}"
              f"{', torch ' + str(torch.get_num_threads()) if torch is not None else ''})")
        for n in (16, 1 << 20):
            g, o = rng.normal(size=(2, n)).astype(np.float32)
            y = np.empty_like(g)
            c_args = (0, ctypes.c_size_t(n), ctypes.c_void_p(g.ctypes.data),
                      ctypes.c_void_p(o.ctypes.data), ctypes.c_void_p(y.ctypes.data))
            label = "16" if n == 16 else "1M"
            row(f"f32 {label}: NumPy out= / C call", n, ["numpy", "C"],
                [lambda: selugrad.selu_backward(g, o, out=y), lambda: raw(*c_args)], args.rounds)
            row(f"f32 {label}: NumPy new array / C call", n, ["numpy", "C"],
                [lambda: selugrad.selu_backward(g, o), lambda: raw(*c_args)], args.rounds)
        if torch is None:
            print("torch is not installed: no PyTorch rows")
            continue
        for n, label in ((1 << 16, "64K"), (1 << 24, "16M")):
            tg = torch.randn(n)
            ty = torch.nn.functional.selu(torch.randn(n))
            out_s, out_t = torch.empty(n), torch.empty(n)
            gn, yn, on = tg.numpy(), ty.numpy(), out_s.numpy()
            eb = torch.ops.aten.elu_backward.grad_input
            torch_fn = lambda: eb(tg, ALPHA, SCALE, 1.0, True, ty, grad_input=out_t)  # noqa: E731
            row(f"f32 {label}: selugrad.torch / torch", n, ["selugrad", "torch"],
                [lambda: sgt.selu_backward(tg, ty, out=out_s), torch_fn], args.rounds)
            row(f"f32 {label}: selugrad NumPy / torch", n, ["selugrad", "torch"],
                [lambda: selugrad.selu_backward(gn, yn, out=on), torch_fn], args.rounds)
    selugrad.set_num_threads(0)


if __name__ == "__main__":
    main()
