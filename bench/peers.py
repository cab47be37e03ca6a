#!/usr/bin/env python3
"""SeluGrad against its peers on this CPU, in one run: selugrad_backward (ctypes over
libselugrad.so), PyTorch's CPU elu_backward with SELU's constants (is_result=True: from the
forward output, as SeluGrad) and oneDNN's eltwise backward (eltwise_elu_use_dst_for_bwd, the
nearest primitive: oneDNN has no SELU; same traffic, one multiply less; bench/peer_onednn.c,
compiled here). A peer that is missing (no torch module, no oneDNN header or library, no C
compiler) is skipped with a message.

Each size is timed in rounds; every round takes the median of several calls of each peer at
each thread count (1 and --threads), the peers alternating, so a slow spell of a shared machine
falls on all of them. The figure of each is the median over rounds, in GB/s = 3 n 4 / time
(float32). "best peer" is the fastest peer at any of those thread counts; the ratio is
selugrad's GB/s at --threads over it.

    python3 bench/peers.py --lib build/libselugrad.so --sizes 1M,16M,128M --threads 2

(Debian: python3-torch, python3-numpy, libdnnl-dev; run the system python3 that has them.)
Exit status: 0 done, 1 run-time failure (numpy or the library missing, a call that failed),
2 bad arguments.
"""
import argparse
import ctypes
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ALPHA = 1.6732632423543772
SCALE = 1.0507009873554805


MAX_SIZE = 1 << 34  # elements, as selugrad_bench's --size


def size_arg(s):
    """One size: a whole number of elements with an optional K/M/G suffix, 1 to 16G."""
    mul = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1:].upper(), 1)
    digits = s[:-1] if mul > 1 else s
    if not digits.isdigit() or not 1 <= int(digits) * mul <= MAX_SIZE:
        raise argparse.ArgumentTypeError(
            "bad size %r (whole numbers from 1 to 16G, K/M/G suffixes)" % s)
    return int(digits) * mul


def sizes_arg(s):
    return [size_arg(x) for x in s.split(",")]


def int_arg(lo, hi):
    def parse(s):
        if not s.isdigit() or not lo <= int(s) <= hi:
            raise argparse.ArgumentTypeError("bad value %r (a whole number from %d to %d)"
                                             % (s, lo, hi))
        return int(s)
    return parse


def cpu_line():
    """Where the run is: the CPU's model, vendor and family from /proc/cpuinfo, the CPUs this
    process may use."""
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = line.partition(":")
                info.setdefault(k.strip(), v.strip())
    except OSError:
        pass
    model = info.get("model name") or info.get("Model") or "unknown"
    vendor = info.get("vendor_id") or info.get("CPU implementer") or "unknown"
    family = info.get("cpu family") or info.get("CPU architecture") or "unknown"
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count()
    return "# cpu: %s; vendor %s, family %s; cpus available %s" % (model, vendor, family, cpus)


def find_lib(given):
    here = os.path.dirname(os.path.abspath(__file__))
    for p in [given] if given else [os.path.join(here, "..", "build", "libselugrad.so")]:
        if p and os.path.exists(p):
            return os.path.abspath(p)
    return None


def median_time(fn, budget=0.25, least=3, most=200):
    fn()  # warm-up, and the first touch of the output
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-7)
    reps = max(least, min(most, int(budget / one)))
    ts = []
    for _ in range(reps):
        a = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - a)
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", help="libselugrad.so (default: build/libselugrad.so)")
    ap.add_argument("--sizes", type=sizes_arg, default="1M,16M,128M",
                    help="elements, 1 to 16G each, K/M/G suffixes")
    ap.add_argument("--threads", type=int_arg(1, 1024), default=2, help="1 to 1024")
    ap.add_argument("--rounds", type=int_arg(1, 1000), default=5, help="1 to 1000")
    args = ap.parse_args()
    if args.lib is not None and not os.path.isfile(args.lib):
        ap.error("argument --lib: no such file: %r" % args.lib)
    sizes = args.sizes
    counts = sorted({1, args.threads})
    print(cpu_line())

    try:
        import numpy as np
    except ImportError:
        print("peers: numpy is missing (Debian: python3-numpy); nothing to run")
        return 1
    lib_path = find_lib(args.lib)
    if lib_path is None:
        print("peers: libselugrad.so not found (build it, or give --lib)")
        return 1
    try:
        lib = ctypes.CDLL(lib_path)
        lib.selugrad_backward.argtypes = [ctypes.c_int, ctypes.c_size_t] + [ctypes.c_void_p] * 3
        lib.selugrad_backward.restype = ctypes.c_int
        lib.selugrad_set_num_threads.argtypes = [ctypes.c_int]
        lib.selugrad_set_num_threads.restype = ctypes.c_int
        lib.selugrad_version.restype = ctypes.c_char_p
        lib.selugrad_last_error.restype = ctypes.c_char_p
    except (OSError, AttributeError) as e:
        print("peers: %s is not a usable libselugrad: %s" % (lib_path, e), file=sys.stderr)
        return 2 if args.lib else 1

    def sg_check(what, status):
        if status != 0:
            raise PeerError("%s failed: %s" % (what, lib.selugrad_last_error().decode()))

    torch = None
    try:
        import torch as torch_mod
        torch = torch_mod
    except (ImportError, OSError) as e:
        print("# peers: PyTorch skipped: no usable torch module in %s (%s; Debian: python3-torch)"
              % (sys.executable, e))
    tmp = tempfile.mkdtemp(prefix="sg_peers_")
    try:
        return run(args, sizes, counts, np, lib, lib_path, sg_check, torch, tmp)
    except PeerError as e:
        print("peers: %s" % e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


class PeerError(Exception):
    pass


def run(args, sizes, counts, np, lib, lib_path, sg_check, torch, tmp):
    onednn = None
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peer_onednn.c")
    cc = shutil.which(os.environ.get("CC", "cc"))
    if not os.path.exists("/usr/include/oneapi/dnnl/dnnl.h"):
        print("# peers: oneDNN skipped: no /usr/include/oneapi/dnnl/dnnl.h (Debian: libdnnl-dev)")
    elif cc is None:
        print("# peers: oneDNN skipped: no C compiler")
    else:
        exe = os.path.join(tmp, "peer_onednn")
        r = subprocess.run([cc, "-O2", src, "-o", exe, "-ldnnl"], capture_output=True, text=True)
        if r.returncode == 0:
            onednn = exe
        else:
            lines = r.stderr.strip().splitlines() or ["exit status %d" % r.returncode]
            print("# peers: oneDNN skipped: %s failed: %s" % (cc, lines[-1]))

    print("# peers: selugrad %s (%s); torch %s; oneDNN %s; threads %s; rounds %d"
          % (lib.selugrad_version().decode(), lib_path,
             torch.__version__ if torch else "skipped", "yes" if onednn else "skipped",
             ",".join(map(str, counts)), args.rounds))
    print("%-6s %-22s %8s %10s" % ("n", "peer", "threads", "gbps"))
    rc = 0
    for n in sizes:
        rng = np.random.default_rng(1)
        g = rng.uniform(-2, 2, n).astype(np.float32)
        o = rng.uniform(-1.7, 3, n).astype(np.float32)
        y = np.empty(n, np.float32)
        ty = np.empty(n, np.float32)
        gbytes = 3.0 * n * 4 / 1e9
        results = {}

        def add(name, t, sec):
            results.setdefault((name, t), []).append(gbytes / sec)

        peers = []
        for t in counts:
            def sg(t=t):
                sg_check("selugrad_set_num_threads(%d)" % t, lib.selugrad_set_num_threads(t))
                f = lambda: lib.selugrad_backward(0, n, g.ctypes.data, o.ctypes.data,
                                                  y.ctypes.data)
                sg_check("selugrad_backward(n=%d)" % n, f())
                return median_time(f)
            peers.append(("selugrad", t, sg))
            if torch is not None:
                tg, to, tout = torch.from_numpy(g), torch.from_numpy(o), torch.from_numpy(ty)

                def tc(t=t, tg=tg, to=to, tout=tout):
                    torch.set_num_threads(t)
                    f = lambda: torch.ops.aten.elu_backward.grad_input(
                        tg, ALPHA, SCALE, 1.0, True, to, grad_input=tout)
                    return median_time(f)
                peers.append(("torch elu_backward", t, tc))
            if onednn is not None:
                def dn(t=t):
                    env = dict(os.environ, OMP_NUM_THREADS=str(t))
                    reps = max(5, min(200, int(2e8 // n)))
                    out = subprocess.run([onednn, str(n), str(reps)], env=env,
                                         capture_output=True, text=True)
                    if out.returncode != 0:
                        raise PeerError("oneDNN's peer (n=%d, %d threads) failed: %s"
                                        % (n, t, out.stderr.strip()))
                    return float(out.stdout.split()[1])
                peers.append(("oneDNN eltwise bwd", t, dn))
        for _ in range(args.rounds):
            for name, t, fn in peers:
                add(name, t, fn())
        best_peer, best = None, 0.0
        for (name, t), v in results.items():
            m = statistics.median(v)
            print("%-6s %-22s %8d %10.2f" % (human(n), name, t, m))
            if name != "selugrad" and m > best:
                best_peer, best = "%s/%dt" % (name, t), m
        ours = statistics.median(results[("selugrad", args.threads)])
        if best_peer:
            print("%-6s selugrad/%dt over the best peer (%s): %.2f"
                  % (human(n), args.threads, best_peer, ours / best))
        else:
            print("%-6s no peer ran" % human(n))
    return rc


def human(n):
    for s, m in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n % m == 0:
            return "%d%s" % (n // m, s)
    return str(n)


if __name__ == "__main__":
    sys.exit(main())
