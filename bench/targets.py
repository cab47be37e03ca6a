#!/usr/bin/env python3
"""The performance targets from several benchmark runs: median ratio per cell and met / not met.

Reads one or more CSVs written by `selugrad_bench --csv=FILE` (SeluGrad and the forward, any
ISA caps) and prints, for one thread count (2 unless --threads says otherwise), per op x dtype x
ISA x size the median ratio over the runs with its range, as markdown tables for
docs/PERFORMANCE.md (cells "median (min-max)", bold where the median misses its target), then each
target with its figure, marked met or not met.

The ratio a cell shows is the one its target is judged by: SeluGrad's `ratio` (to the triad
bound); the forward's `ratio` (to the scale bound) from DRAM (cold rows) and its `ratio_gov` (to
the lower of the scale bound and its in-run compute bound) in cache (hot rows).

Targets (2 threads): SeluGrad f32 and s32 >= 0.95 from 1M to 128M elements, >= 0.85 at 64K; f16
and bf16 >= 0.90 from 16M, >= 0.60 at 64K and 1M; s8 and u8 >= 0.80 from 16M, >= 0.50 at 64K and
1M; the forward >= 0.85 from 16M and >= 0.80 of its governing bound in cache (64K, 1M). Where
docs/dispatch.md's cost model (between its `<!-- scripts/cost_model.py -->` markers) lists a
target as ruled out by the port bound of the CPU the CSVs ran on, the target is 0.9 x the ratio
that bound allows. The CPU is read from the CSVs' "# cpu:" line (vendor, family, model).

Usage: bench/targets.py [--threads N] [--doc docs/dispatch.md] [--cpu LABEL] run1.csv [...]
Exit status: 0 done (whatever the targets), 2 bad arguments or unreadable input.
"""

import argparse
import csv
import os
import re
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = "<!-- scripts/cost_model.py -->"
K, M = 1 << 10, 1 << 20
DTYPES = ("f32", "f16", "bf16", "s8", "u8", "s32")
OPS = (("selugrad", "SeluGrad (`selugrad_backward`, ratio to the triad bound)"),
       ("selu", "SELU forward (`selugrad_forward`; in cache the ratio to the governing bound, "
                "ratio_gov; from DRAM to the scale bound, ratio)"))


class Bad(Exception):
    """Input the script cannot use: the message says which and why."""


def target(op, dtype, n):
    """The issue's target for a cell, or None where it sets none."""
    if op == "selugrad":
        if dtype in ("f32", "s32"):
            return 0.85 if n == 64 * K else 0.95 if M <= n <= 128 * M else None
        low, high = (0.60, 0.90) if dtype in ("f16", "bf16") else (0.50, 0.80)
    else:
        low, high = 0.80, 0.85
    return high if n >= 16 * M else low if n in (64 * K, M) else None


def size_key(n):
    """The cost model's column for n elements: 64K (in L2), 1M (L3), 16M (from 16M: DRAM)."""
    return "16M" if n >= 16 * M else "1M" if n >= M else "64K"


def size_name(n):
    for unit, name in ((1 << 30, "G"), (M, "M"), (K, "K")):
        if n >= unit and n % unit == 0:
            return "%d%s" % (n // unit, name)
    return str(n)


def cpu_label(vendor, family, model):
    """The cost model's name for a CPU (scripts/cost_model.py's CPUS), or None."""
    if vendor == "AuthenticAMD" and family == 0x1A:
        return "Zen 5"
    if vendor == "AuthenticAMD" and family == 0x19:
        return "Zen 4" if model >> 4 in (0x1, 0x6, 0x7, 0xA) else "Zen 3"
    if vendor == "GenuineIntel" and family == 6:
        return {0x8F: "Sapphire Rapids", 0x6A: "Ice Lake SP", 0x6C: "Ice Lake SP",
                0x55: "Skylake SP", 0x3C: "Haswell", 0x3F: "Haswell", 0x45: "Haswell",
                0x46: "Haswell"}.get(model)
    return None


def ruled_out(doc_path, label):
    """{(kernel, size key): ratio the port bound allows} for the CPU `label` from the cost
    model's list in docs/dispatch.md. A list entry's CPU is the label itself or the label with a
    note in brackets ("Zen 5 (Zen 4 model)")."""
    try:
        text = open(doc_path, encoding="utf-8").read()
    except OSError as e:
        raise Bad("cannot read %s: %s" % (doc_path, e.strerror))
    parts = text.split(MARKER)
    if len(parts) < 3:
        raise Bad("%s: no section between two %s markers" % (doc_path, MARKER))
    out = {}
    line_re = re.compile(r"^- (\S+) at (64K|1M|16M) \(target [0-9.]+, needs <= [0-9.]+ c/16\): (.+)$")
    entry_re = re.compile(r"^(.+) [0-9.]+ \(([0-9.]+)\)$")
    for line in parts[1].splitlines():
        if not line.startswith("- "):
            continue
        m = line_re.match(line.strip())
        if not m:  # a list whose form changed would otherwise drop its targets unseen
            raise Bad("%s: a ruled-out entry this script cannot read: %s" % (doc_path, line))
        if label is None:
            continue
        for entry in m.group(3).split(", "):
            e = entry_re.match(entry.strip())
            if not e:
                raise Bad("%s: cannot read the entry '%s' of: %s" % (doc_path, entry, line))
            cpu = e.group(1)
            if cpu == label or cpu.startswith(label + " ("):
                out[(m.group(1), m.group(2))] = (float(e.group(2)), cpu)
    return out


NEEDED = ("dtype", "n", "threads", "isa", "kernel", "cache", "ratio", "governs", "ratio_gov")


def read_csv(path):
    """(cpu line fields (brand, vendor, family, model), data rows as dicts)."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise Bad("cannot read %s: %s" % (path, e.strerror))
    cpu = None
    for line in lines:
        m = re.match(r"^# cpu: (.*); vendor (\S+), family (\d+) \(0x[0-9a-f]+\), model (\d+)", line)
        if m:
            cpu = (m.group(1), m.group(2), int(m.group(3)), int(m.group(4)))
    if cpu is None:
        raise Bad("%s: no '# cpu: ...; vendor V, family F (0x..), model M' line" % path)
    reader = csv.DictReader(line for line in lines if not line.startswith("#"))
    missing = [c for c in NEEDED if c not in (reader.fieldnames or [])]
    if missing:
        raise Bad("%s: no column %s (a CSV of an older bench?)" % (path, ", ".join(missing)))
    return cpu, list(reader)


def fmt_target(t):
    s = "%.3f" % t
    return s[:-1] if s.endswith("0") else s


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+", help="CSVs of selugrad_bench --csv (one per run)")
    ap.add_argument("--threads", type=int, default=2, help="the rows' thread count (default 2)")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "dispatch.md"),
                    help="the page with the cost model's ruled-out list (default: docs/dispatch.md)")
    ap.add_argument("--cpu", help="the cost model's CPU name (e.g. 'Zen 4'); default: from the CSVs")
    args = ap.parse_args(argv)
    try:
        return report(args)
    except Bad as e:
        print("targets.py: %s" % e, file=sys.stderr)
        return 2


def report(args):
    cells = {}  # (op, dtype, isa, n) -> {"vals": [...], "kernels": set, "governs": [...]}
    isas = []
    cpu = None
    for path in args.csv:
        this_cpu, rows = read_csv(path)
        if cpu is not None and this_cpu[1:] != cpu[1:]:
            raise Bad("%s ran on another CPU (%s) than %s (%s): give one CPU's runs" %
                      (path, this_cpu[0], args.csv[0], cpu[0]))
        cpu = this_cpu
        for r in rows:
            if r["cache"] not in ("hot", "cold"):
                continue  # --omp's rows
            try:
                if int(r["threads"]) != args.threads:
                    continue
                n = int(r["n"])
                op = "selu" if "_selu__" in r["kernel"] else "selugrad"
                judged = r["ratio_gov"] if op == "selu" and r["cache"] == "hot" else r["ratio"]
                value = float(judged)
            except ValueError:
                raise Bad("%s: a row that does not parse: %s" % (path, ",".join(r.values())))
            if r["isa"] not in isas:
                isas.append(r["isa"])
            c = cells.setdefault((op, r["dtype"], r["isa"], n),
                                 {"vals": [], "kernels": set(), "governs": []})
            c["vals"].append(value)
            c["kernels"].add(r["kernel"])
            c["governs"].append(r["governs"])
    if not cells:
        raise Bad("no rows with threads = %d in %s" % (args.threads, ", ".join(args.csv)))

    label = args.cpu or cpu_label(cpu[1], cpu[2], cpu[3])
    ports = ruled_out(args.doc, label)
    counts = sorted({len(c["vals"]) for c in cells.values()})
    runs = "%d" % counts[0] if len(counts) == 1 else "%d-%d" % (counts[0], counts[-1])
    print("CPU: %s (%s family 0x%x model 0x%x); %s; %d threads, %s run%s per cell" %
          (cpu[0], cpu[1], cpu[2], cpu[3],
           "port bounds of %s from %s" % (label, os.path.basename(args.doc)) if label
           else "no cost-model CPU known for it (--cpu): the targets as set",
           args.threads, runs, "" if runs == "1" else "s"))

    judged = []  # (op, dtype, isa, n, cell, target, how)
    for op, title in OPS:
        keys = [k for k in cells if k[0] == op]
        if not keys:
            continue
        sizes = sorted({k[3] for k in keys})
        op_isas = [i for i in isas if any(k[2] == i for k in keys)]
        print()
        print("%s, median (min-max) of the runs; bold: below its target:" % title)
        print()
        head = ["dtype"]
        for gi, isa in enumerate(op_isas):
            for si, n in enumerate(sizes):
                head.append("%s: %s" % (isa, size_name(n)) if si == 0 else size_name(n))
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for dtype in [d for d in DTYPES if any(k[1] == d for k in keys)]:
            row = [dtype]
            for isa in op_isas:
                for n in sizes:
                    c = cells.get((op, dtype, isa, n))
                    if c is None:
                        row.append("-")
                        continue
                    t, how = target(op, dtype, n), ""
                    if t is not None:
                        for kern in sorted(c["kernels"]):
                            p = ports.get((kern, size_key(n)))
                            if p and 0.9 * p[0] < t:
                                t, how = 0.9 * p[0], "0.9 x %.2f, the port bound of %s on %s" % (
                                    p[0], kern, p[1])
                    med = statistics.median(c["vals"])
                    cell = "%.2f (%.2f-%.2f)" % (med, min(c["vals"]), max(c["vals"]))
                    row.append("**%s**" % cell if t is not None and med < t else cell)
                    if t is not None:
                        judged.append((op, dtype, isa, n, c, med, t, how))
            print("| " + " | ".join(row) + " |")

    print()
    met = sum(1 for j in judged if j[5] >= j[6])
    print("Targets: %d of %d met" % (met, len(judged)))
    print()
    for op, dtype, isa, n, c, med, t, how in judged:
        gov = max(set(c["governs"]), key=lambda g: (c["governs"].count(g), g))
        print("- %s %s %s %s (%s): %.3f (%.3f-%.3f) %s %s%s, governs %s: %s" % (
            op, dtype, isa, size_name(n), "/".join(sorted(c["kernels"])), med, min(c["vals"]),
            max(c["vals"]), ">=" if med >= t else "<", fmt_target(t),
            " (%s)" % how if how else "", gov, "met" if med >= t else "NOT MET"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
