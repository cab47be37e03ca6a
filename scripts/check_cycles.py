#!/usr/bin/env python3
"""Fails (exit 1) when the sources under a src/ tree depend on each other in a cycle, between
files or between folders.

A file's dependencies are the files it includes ("..." includes that resolve inside the tree,
relative to the including file or to the tree's root) and, given the objects built from the tree,
the files whose functions and data it uses (nm: a symbol one object leaves undefined and another
defines). foo.c and foo.h count as one file, "foo". A folder is the first directory under the
root (kernels/avx2/ belongs to kernels/). Layers then form a line: every dependency points down.

Usage: check_cycles.py SRC_DIR [--nm NM] [--objects OBJ...]
An object is matched to its source by the longest tail of its path that names a file in the tree
(CMake's layout: .../selugrad_objects.dir/src/core/api.c.o is core/api.c).
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCE_EXT = (".c", ".h", ".inc", ".cpp")


def module_of(rel):
    """core/api.c and core/api.h are the module core/api; a .inc file is its own."""
    base, ext = os.path.splitext(rel)
    return rel if ext == ".inc" else base


def include_edges(root):
    edges = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            if not name.endswith(SOURCE_EXT):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            src = module_of(rel)
            edges.setdefault(src, {})
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                for base in (dirpath, root):
                    target = os.path.normpath(os.path.join(base, inc))
                    if os.path.isfile(target):
                        trel = os.path.relpath(target, root)
                        if not trel.startswith(".."):
                            dst = module_of(trel)
                            if dst != src:
                                edges[src].setdefault(dst, "includes " + inc)
                        break
    return edges


def object_source(obj, root):
    """The source under root an object was built from: the longest tail of the object's path,
    less ".o", that names a file there (CMake: .../x.dir/src/core/api.c.o is core/api.c)."""
    parts = obj.replace(os.sep, "/").split("/")
    if parts[-1].endswith(".o"):
        parts[-1] = parts[-1][:-2]
    for i in range(len(parts)):
        rel = "/".join(parts[i:])
        if os.path.isfile(os.path.join(root, rel)):
            return rel
    sys.exit(f"check_cycles: {obj} was not built from a file under {root}")


def link_edges(objects, nm, root, edges):
    defined, undefined = {}, {}
    mods = {obj: module_of(object_source(obj, root)) for obj in objects}
    # one nm for all: "OBJECT: SYMBOL TYPE ..." per line
    out = subprocess.run([nm, "-A", "-P", "-g"] + objects, check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        obj, _, rest = line.rpartition(": ")
        parts = rest.split()
        if obj not in mods or len(parts) < 2:
            continue
        mod, sym, kind = mods[obj], parts[0], parts[1]
        if kind == "U":
            undefined.setdefault(mod, set()).add(sym)
        elif kind not in ("w", "v"):
            defined[sym] = mod
    for mod, syms in undefined.items():
        for sym in sorted(syms):
            dst = defined.get(sym)
            if dst is not None and dst != mod:
                edges.setdefault(mod, {}).setdefault(dst, "uses " + sym)
                edges.setdefault(dst, {})


def folder_of(mod):
    return mod.split("/", 1)[0] if "/" in mod else "."


def strongly_connected(nodes, succ):
    """Tarjan's algorithm, iterative; returns the components of more than one node."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(succ.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(succ.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def one_cycle(comp, succ):
    """A cycle through the first node of a strongly connected component (breadth-first)."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(succ.get(node, ())):
            if nxt == start:
                path = [node]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if nxt in members and nxt not in prev:
                prev[nxt] = node
                queue.append(nxt)
    return comp + [start]


def report(kind, edges, why):
    succ = {n: set(d) for n, d in edges.items()}
    nodes = set(succ) | {d for ds in succ.values() for d in ds}
    bad = 0
    for comp in strongly_connected(nodes, succ):
        cycle = one_cycle(comp, succ)
        print(f"cycle between {kind}: {' -> '.join(cycle)}")
        for a, b in zip(cycle, cycle[1:]):
            print(f"  {a} -> {b}: {why(a, b)}")
        bad += 1
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--objects", nargs="*", default=[])
    args = ap.parse_args()
    root = os.path.abspath(args.src)
    # CMake's $<TARGET_OBJECTS:...> reaches a test's command line as one ;-separated argument
    args.objects = [o for arg in args.objects for o in arg.split(";") if o]
    edges = include_edges(root)
    if args.objects:
        link_edges(args.objects, args.nm, root, edges)
    folders = {}
    for a, ds in edges.items():
        for b, how in ds.items():
            fa, fb = folder_of(a), folder_of(b)
            if fa != fb:
                folders.setdefault(fa, {}).setdefault(fb, f"{a} {how} ({b})")
    bad = report("files", edges, lambda a, b: edges[a][b])
    bad += report("folders", folders, lambda a, b: folders[a][b])
    if bad:
        return 1
    nfiles = len(set(edges) | {d for ds in edges.values() for d in ds})
    order, placed = [], set()
    names = set(folders) | {d for ds in folders.values() for d in ds}
    while len(placed) < len(names):  # no cycle, so some folder always has all it needs placed
        ready = sorted(f for f in names - placed if set(folders.get(f, {})) <= placed)
        order.append(ready)
        placed |= set(ready)
    layers = " <- ".join(", ".join(level) for level in order)
    print(f"no cycle among {nfiles} files ({len(args.objects)} objects); folders, lowest first:"
          f" {layers}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
