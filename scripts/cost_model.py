#!/usr/bin/env python3
"""The cost model per CPU: for every x86-64 kernel of selugrad.inc and selu.inc, the
micro-operations per 16 elements of its steady loop and the port bound they imply on each CPU
llvm-mca knows, beside the cycles per 16 elements measured in L1 on this machine, and the
bandwidth each bound allows against what the targets need.

The loop is the one the library runs: bench/loop_trace.c (selugrad_loop_trace) single-steps the
kernel as built (the release build's per-ISA flags, -ffp-contract=off) on the benchmark's values
in L1 and prints the addresses of the instructions of its steady iterations in execution order;
this script disassembles them (llvm-objdump) and gives that sequence to llvm-mca for each -mcpu.
A kernel whose ISA this CPU lacks cannot run here: its loop is cut from the disassembly instead
(of the innermost backward jumps' bodies without streaming stores, the one that stores the most
bytes, every instruction in it counted as run; elements from the bytes it stores), marked
"static". Measured cycles come from selugrad_isa_rates.

Usage: scripts/cost_model.py [--build DIR] [--ghz F] [--l2-gbps B] [--l3-gbps B] [--dram-gbps B]
                             [--cpus LIST] [--kernels REGEX] [--no-measure] [--long] [--no-build]
(scripts/deps.sh llvm-19 installs the LLVM tools; --help says what each option does.)
Prints Markdown tables; --write-doc docs/dispatch.md puts them into its "Cost model" section. Exit status 0; 77 when llvm-mca-19 or
llvm-objdump-19 is missing, or the build lacks the two programs (not x86-64 Linux); 1 on error.
"""
import argparse
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# -mcpu name -> (label, ISA levels its kernels can use)
CPUS = [
    ("znver5", "Zen 5 (Zen 4 model)", ("scalar", "avx2", "avx512")),  # llvm-19 schedules znver5 as znver4
    ("znver4", "Zen 4", ("scalar", "avx2", "avx512")),
    ("znver3", "Zen 3", ("scalar", "avx2")),
    ("sapphirerapids", "Sapphire Rapids", ("scalar", "avx2", "avx512", "avx512fp16")),
    ("icelake-server", "Ice Lake SP", ("scalar", "avx2", "avx512")),
    ("skylake-avx512", "Skylake SP", ("scalar", "avx2", "avx512")),
    ("haswell", "Haswell", ("scalar", "avx2")),
]

SIZES = {"f32": 4, "f16": 2, "bf16": 2, "s8": 1, "u8": 1, "s32": 4}

# Targets (ratio to the in-run bound, 2 threads). The forward's in-cache target is a share of its
# own compute bound (the port bound of this table), which no port bound can rule out.
TARGETS_GRAD_SIZES = {  # 64K, 1M, from 16M
    "f32": (0.85, 0.95, 0.95),
    "s32": (0.85, 0.95, 0.95),
    "f16": (0.60, 0.60, 0.90),
    "bf16": (0.60, 0.60, 0.90),
    "s8": (0.50, 0.50, 0.80),
    "u8": (0.50, 0.50, 0.80),
}
TARGET_SELU_DRAM = 0.85


def die(msg, code=1):
    print("cost_model.py: " + msg, file=sys.stderr)
    sys.exit(code)


def kernels():
    """(name, tag, op, isa) for every x86-64 entry of the two lists, in list order."""
    out = []
    for inc, macro, op in (("selugrad.inc", "SG_KERNEL", "selugrad"), ("selu.inc", "SG_SELU_KERNEL", "selu")):
        neon = False
        with open(os.path.join(ROOT, "src", "kernels", inc)) as f:
            for line in f:
                if line.startswith("#if"):
                    neon = "SG_BUILD_NEON" in line
                elif line.startswith("#endif"):
                    neon = False
                m = re.match(r"\s*" + macro + r"\(\s*(\w+),\s*\w+,\s*(\w+),\s*SG_ISA_(\w+)", line)
                if m and not neon:
                    tag, variant, isa = m.group(1), m.group(2), m.group(3).lower()
                    out.append(("%s_%s__%s" % (tag, op, variant), tag, op, isa))
    return out


def run(cmd, check=True):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and p.returncode != 0:
        die("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p


def disasm(objdump, module, lo, hi):
    """{address: (mnemonic, operands)} of module's code in [lo, hi)."""
    p = run([objdump, "-d", "--no-show-raw-insn", "--start-address=%#x" % lo, "--stop-address=%#x" % hi, module])
    ins = {}
    for line in p.stdout.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            ops = re.sub(r"\s*<[^>]*>$", "", m.group(3)).strip()
            ins[int(m.group(1), 16)] = (m.group(2), ops)
    return ins


def asm_text(seq):
    """llvm-mca input for the instruction sequence: jumps aimed at the loop's top, nops left out."""
    lines = [".Lsg_loop:"]
    for mn, ops in seq:
        if mn.startswith("nop") or mn in ("cs", "data16"):
            continue
        if mn.startswith("j") or mn.startswith("call"):
            mn = {"jmpq": "jmp", "callq": "call"}.get(mn, mn)  # a PLT's indirect jump, as a direct one
            ops = ".Lsg_loop"
        lines.append("\t%s\t%s" % (mn, ops))
    return "\n".join(lines) + "\n"


def store_bytes(mn, ops):
    """Bytes a plain full-width vector or scalar store writes (0 for anything else)."""
    if not ops.endswith(")"):  # the destination (last, AT&T) is not memory, or the store is masked
        return 0
    if not mn.startswith(("vmov", "mov")) or mn.startswith(("vmovnt", "movnt")):
        return 0
    src = ops.split(",")[0]
    for reg, b in (("%zmm", 64), ("%ymm", 32), ("%xmm", 16)):
        if src.startswith(reg):
            return b
    return 0


def static_loop(objdump, nm, module, name, out_size):
    """The loop of a kernel that cannot run here, cut from its disassembly."""
    sym = run([nm, "-S", "--defined-only", module]).stdout
    m = re.search(r"^([0-9a-f]+) ([0-9a-f]+) [tT] sg_%s$" % re.escape(name), sym, re.M)
    if not m:
        return None
    lo, size = int(m.group(1), 16), int(m.group(2), 16)
    ins = disasm(objdump, module, lo, lo + size)
    addrs = sorted(ins)
    loops = []
    for a in addrs:
        mn, ops = ins[a]
        t = re.match(r"(0x[0-9a-f]+)$", ops)
        if mn.startswith("j") and t and lo <= int(t.group(1), 16) < a:
            loops.append((int(t.group(1), 16), a))
    best = None
    for t, j in loops:
        if any(t < t2 and j2 <= j and (t2, j2) != (t, j) for t2, j2 in loops):
            continue  # not innermost
        body = [ins[a] for a in addrs if t <= a <= j]
        if any(mn.startswith(("vmovnt", "movnt")) for mn, _ in body):
            continue
        stored = sum(store_bytes(mn, ops) for mn, ops in body)
        if stored and (best is None or stored > best[2] or (stored == best[2] and len(body) < len(best[0]))):
            best = (body, stored // out_size, stored)
    return best[:2] if best else None


def mca(binary, cpu, text):
    """(uops, block reciprocal throughput, cycles, bottleneck) per pass over text."""
    iters = 200
    p = subprocess.run([binary, "-mcpu=" + cpu, "-iterations=%d" % iters, "-instruction-info=0"],
                       input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        die("llvm-mca -mcpu=%s: %s" % (cpu, p.stderr.strip()[:400]))
    out = p.stdout

    def num(key):
        return float(re.search(r"^%s:\s+([0-9.]+)" % key, out, re.M).group(1))

    uops, cycles = num("Total uOps") / iters, num("Total Cycles") / iters
    width, rthr = num("Dispatch Width"), num("Block RThroughput")
    names = dict(re.findall(r"^\[(\d+)\]\s+-\s+(\S+)", out, re.M))
    sec = out.split("Resource pressure per iteration:")[1].splitlines()
    cols, vals = sec[1].split(), sec[2].split()
    pressure = {}
    for c, v in zip(cols, vals):
        k = c.strip("[]")
        if v != "-":
            pressure[names.get(k, k)] = float(v)
    top = max(pressure.values()) if pressure else 0.0
    if uops / width >= top:
        neck = "dispatch"  # more uops than the front end issues in the port bound's cycles
    else:
        busiest = sorted(k for k, v in pressure.items() if v >= top - 1e-9)
        neck = "/".join(busiest[:3]) + (" ..." if len(busiest) > 3 else "")
    return uops, rthr, cycles, neck


def measured(isa_rates):
    """{kernel: cycles per 16 elements in L1} from selugrad_isa_rates (the exponential alone as
    exp__avx2, exp__avx512)."""
    p = run([isa_rates])
    got = {}
    for line in p.stdout.splitlines():
        m = re.match(r"(\w+__\w+)\s+([0-9.]+)", line)
        if m:
            got[m.group(1)] = float(m.group(2))
        m = re.match(r"exp (avx2|avx512) \(\d+ lanes\)\s+([0-9.]+)", line)
        if m:
            got["exp__" + m.group(1)] = float(m.group(2))
    return got


def this_cpu():
    """(model name, the -mcpu of CPUS this machine is, or None)."""
    info = open("/proc/cpuinfo").read() if os.path.exists("/proc/cpuinfo") else ""

    def field(k):
        m = re.search(r"^%s\s*:\s*(.*)$" % k, info, re.M)
        return m.group(1).strip() if m else ""

    model, vendor = field("model name"), field("vendor_id")
    fam = int(field("cpu family") or 0)
    mod = int(field("model") or 0)
    mcpu = None
    if vendor == "AuthenticAMD" and fam == 26:
        mcpu = "znver5"
    elif vendor == "AuthenticAMD" and fam == 25:
        mcpu = "znver4" if mod >= 0x10 else "znver3"
    return model or "unknown", mcpu


def short(resource):
    """Zn4FP1 -> FP1, SPRPort05 -> p05, HWPort1 -> p1."""
    return re.sub(r"^(Zn\d|SPR|ICX|SKX|HW)(Port)?", lambda m: "p" if m.group(2) else "", resource)


def need_c16(bpe, ghz, target, gbps_per_core):
    """Cycles per 16 elements one core may spend to move target x gbps_per_core."""
    return 16 * bpe * ghz / (target * gbps_per_core)


MARK = "<!-- scripts/cost_model.py -->"


def report(args):
    """Prints the tables; returns the exit status."""

    mcabin, objdump, nm = (shutil.which(t + "-19") for t in ("llvm-mca", "llvm-objdump", "llvm-nm"))
    if not (mcabin and objdump and nm):
        print("cost_model.py: llvm-mca-19, llvm-objdump-19 and llvm-nm-19 are needed (Debian: llvm-19)",
              file=sys.stderr)
        return 77
    build_cmd = ["cmake", "--build", args.build, "--target", "selugrad_loop_trace", "selugrad_isa_rates"]
    trace = os.path.join(args.build, "bench", "selugrad_loop_trace")
    if (not os.path.exists(trace) if args.no_build else run(build_cmd, check=False).returncode != 0):
        print("cost_model.py: cannot build selugrad_loop_trace in %s (configure it first; x86-64 Linux only)"
              % args.build, file=sys.stderr)
        return 77
    trace = os.path.join(args.build, "bench", "selugrad_loop_trace")
    cpus = [c for c in CPUS if c[0] in args.cpus.split(",")]
    meas = {} if args.no_measure else measured(os.path.join(args.build, "bench", "selugrad_isa_rates"))
    model, here = this_cpu()

    rows = []  # (name, tag, op, isa, per_iter, how, {mcpu: (uops16, bound16, cycles16, neck)})
    for name, tag, op, isa in kernels() + [("exp__avx512", "f32", "exp", "avx512"), ("exp__avx2", "f32", "exp", "avx2")]:
        if not re.search(args.kernels, name):
            continue
        p = run([trace, name], check=False)
        how = "traced"
        if p.returncode == 0:
            lines = p.stdout.splitlines()
            per_iter = int(lines[0].split()[1])
            elements = per_iter * int(lines[1].split()[1])
            modules, addrs = {}, []
            for line in lines[2:]:
                f = line.split(" ", 2)
                if f[0] == "module":
                    modules[f[1]] = f[2]
                else:
                    addrs.append((f[0], int(f[1], 16)))
            ins = {}
            for mi, path in modules.items():
                mine = [a for m, a in addrs if m == mi]
                ins[mi] = disasm(objdump, path, min(mine), max(mine) + 16)
                if any(a not in ins[mi] for a in mine) and shutil.which("objdump"):
                    # llvm-objdump skips code outside the symbols of a stripped library (libm's
                    # fmaf); GNU objdump does not
                    ins[mi] = disasm("objdump", path, min(mine), max(mine) + 16)
            seq = [ins[m][a] for m, a in addrs]
        elif p.returncode == 3 and op != "exp":
            got = static_loop(objdump, nm, trace, name, SIZES[tag])
            if got is None:
                print("cost_model.py: no loop found in %s" % name, file=sys.stderr)
                continue
            seq, elements = got
            per_iter = elements
            how = "static"
        elif p.returncode == 3:
            continue
        else:
            die("selugrad_loop_trace %s: %s" % (name, p.stderr.strip()))
        text = asm_text(seq)
        per_cpu = {}
        for cpu, label, isas in cpus:
            if isa in isas:
                uops, rthr, cycles, neck = mca(mcabin, cpu, text)
                f = 16.0 / elements
                per_cpu[cpu] = (uops * f, rthr * f, cycles * f, neck)
        rows.append((name, tag, op, isa, per_iter, how, per_cpu))

    def bpe(op, tag):
        return SIZES[tag] * (3 if op == "selugrad" else 2)

    def bound(name, cpu, per_cpu):
        """The port bound used to rule targets out: on this machine's own CPU, the lower of the
        model's and the measured cycles (a model can be wrong; a measurement is not a bound
        below what the kernel can do)."""
        b = per_cpu[cpu][1]
        if cpu == here and name in meas:
            b = min(b, meas[name])
        return b

    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
    print("Figures from %s (llvm-mca CPU: %s), load average %s at the end of the run%s." % (
        model, here or "none of the list", load,
        "" if args.no_measure else "; \"measured here\" from selugrad_isa_rates on it"))
    print()
    if args.long:
        print("| kernel | CPU | elem/iter | uops/16 | port bound c/16 | mca c/16 | bottleneck | measured c/16 "
              "| GB/s/core at bound |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name, tag, op, isa, per_iter, how, per_cpu in rows:
            for cpu, label, _ in cpus:
                if cpu not in per_cpu:
                    continue
                u16, b16, c16, neck = per_cpu[cpu]
                m16 = "%.2f" % meas[name] if cpu == here and name in meas else ""
                print("| %s%s | %s | %d | %.1f | %.2f | %.2f | %s | %s | %.0f |"
                      % (name, " (static)" if how == "static" else "", label, per_iter, u16, b16, c16, neck,
                         m16, args.ghz * 16 * bpe(op, tag) / b16))
        print()
    hdr = ["kernel", "elem/iter", "measured here"] + [label for _, label, _ in cpus]
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for name, tag, op, isa, per_iter, how, per_cpu in rows:
        cells = [name + (" (static)" if how == "static" else ""), str(per_iter),
                 "%.2f" % meas[name] if name in meas else "-"]
        for cpu, _, _ in cpus:
            if cpu in per_cpu:
                u16, b16, _, neck = per_cpu[cpu]
                cells.append("%.2f (%.0f) %s" % (b16, u16, "/".join(short(r) for r in neck.split("/"))))
            else:
                cells.append("-")
        print("| " + " | ".join(cells) + " |")
    print()

    # What the targets need, per (op, dtype)
    print("| op, dtype | bytes/elem | 64K: target, need c/16 | 1M: target, need c/16 | from 16M: target, need c/16 |")
    print("|---|---|---|---|---|")
    needs = {}
    for op in ("selugrad", "selu"):
        for tag in ("f32", "f16", "bf16", "s8", "u8", "s32"):
            if op == "selu" and tag == "u8":
                continue
            b = bpe(op, tag)
            if op == "selugrad":
                t64, t1m, tdram = TARGETS_GRAD_SIZES[tag]
            else:
                t64 = t1m = None
                tdram = TARGET_SELU_DRAM
            n = {}
            for key, t, gbps in (("64K", t64, args.l2_gbps), ("1M", t1m, args.l3_gbps),
                                 ("16M", tdram, args.dram_gbps / 2)):
                if t is not None:
                    n[key] = (t, need_c16(b, args.ghz, t, gbps))
            needs[(op, tag)] = n
            cells = ["%.2f, %.1f" % n[k] if k in n else "compute bound" for k in ("64K", "1M", "16M")]
            print("| %s %s | %d | %s |" % (op, tag, b, " | ".join(cells)))
    print()

    ruled = []
    for name, tag, op, isa, per_iter, how, per_cpu in rows:
        if isa == "scalar" or op == "exp":
            continue
        for key, (t, c_need) in sorted(needs[(op, tag)].items(), key=lambda kv: ("64K", "1M", "16M").index(kv[0])):
            over = []
            for cpu, label, _ in cpus:
                if cpu in per_cpu:
                    b16 = bound(name, cpu, per_cpu)
                    if b16 > c_need:
                        over.append("%s %.1f (%.2f)" % (label, b16, t * c_need / b16))
            if over:
                ruled.append("%s at %s (target %.2f, needs <= %.1f c/16): %s"
                             % (name, key, t, c_need, ", ".join(over)))
    if ruled:
        print("Ruled out by the port bound (c/16, and in brackets the ratio to the bound that it allows):")
        print()
        for r in ruled:
            print("- " + r)
    else:
        print("No target is ruled out by a port bound.")
    return 0



def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="a configured build directory (release)")
    ap.add_argument("--ghz", type=float, default=3.5, help="the clock the bandwidths are stated at")
    ap.add_argument("--l2-gbps", type=float, default=190.0,
                    help="in-cache bound at 64K, GB/s per core (the 1-thread triad in L2)")
    ap.add_argument("--l3-gbps", type=float, default=125.0,
                    help="in-cache bound at 1M, GB/s per core (the triad in L3)")
    ap.add_argument("--dram-gbps", type=float, default=40.0, help="DRAM bound (16M up), GB/s for 2 cores")
    ap.add_argument("--cpus", default=",".join(c[0] for c in CPUS), help="llvm-mca -mcpu names")
    ap.add_argument("--kernels", default=".", help="regular expression on kernel names")
    ap.add_argument("--no-measure", action="store_true", help="leave out selugrad_isa_rates")
    ap.add_argument("--long", action="store_true", help="one row per kernel and CPU, with llvm-mca's cycles")
    ap.add_argument("--no-build", action="store_true", help="use the programs as built (CTest)")
    ap.add_argument("--write-doc", metavar="FILE",
                    help="put the tables into FILE (docs/dispatch.md) between its two %s lines" % MARK)
    args = ap.parse_args()
    if not args.write_doc:
        return report(args)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = report(args)
    if rc != 0:
        return rc
    with open(args.write_doc) as f:
        parts = f.read().split(MARK + "\n")
    if len(parts) != 3:
        die("%s needs exactly two lines %s" % (args.write_doc, MARK))
    with open(args.write_doc, "w") as f:
        f.write(parts[0] + MARK + "\n" + buf.getvalue() + MARK + "\n" + parts[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
