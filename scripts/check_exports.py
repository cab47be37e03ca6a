#!/usr/bin/env python3
"""Fails (exit 1) unless a shared library exports exactly the functions its public headers
declare with an export macro, every one of them named selugrad_*, acl* or aclnn*, and no
function in those headers is declared without the macro.

Usage: check_exports.py INCLUDE_DIR LIBRARY [--nm NM]
The library is built with hidden visibility by default; SELUGRAD_API (selugrad.h) and CANN's
ACL_FUNC_VISIBILITY / ACLNN_API (acl/, aclnn/) mark what it exports.
"""
import argparse
import os
import re
import subprocess
import sys

MACROS = ("SELUGRAD_API", "ACL_FUNC_VISIBILITY", "ACLNN_API")
PUBLIC = re.compile(r"^(selugrad_|acl)")
# a declaration: a return type and a name at the start of a line, then its parameters and ';'
DECL = re.compile(r"^([A-Za-z_][^;{}#()=]*?)\b([A-Za-z_]\w*)\s*\(([^;{}]*?)\)\s*"
                  r"(?:__attribute__\s*\(\(.*?\)\)\s*)?;", re.M | re.S)


def declared(include_dir):
    marked, unmarked = {}, []
    for dirpath, _, files in os.walk(include_dir):
        for name in sorted(files):
            if not name.endswith(".h"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
            text = re.sub(r"//[^\n]*", " ", text)
            text = re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", " ", text, flags=re.M)  # directives
            rel = os.path.relpath(path, include_dir)
            for m in DECL.finditer(text):
                head, fn = m.group(1), m.group(2)
                if re.search(r"\b(typedef|static|return)\b", head):
                    continue
                if any(re.search(rf"\b{mac}\b", head) for mac in MACROS):
                    marked[fn] = rel
                else:
                    unmarked.append(f"{rel}: {fn}")
    return marked, unmarked


def exported(library, nm):
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True, capture_output=True,
                         text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "TtDdBbRrVvWwiu":
            names.add(parts[2].split("@")[0])
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("include_dir")
    ap.add_argument("library")
    ap.add_argument("--nm", default="nm")
    args = ap.parse_args()
    marked, unmarked = declared(args.include_dir)
    names = exported(args.library, args.nm)
    bad = 0
    for d in unmarked:
        print(f"declared without an export macro: {d}")
        bad += 1
    for fn in sorted(set(marked) - names):
        print(f"declared for export but not exported: {fn} ({marked[fn]})")
        bad += 1
    for fn in sorted(names - set(marked)):
        print(f"exported but not declared in the public headers: {fn}")
        bad += 1
    for fn in sorted(n for n in names if not PUBLIC.match(n)):
        print(f"exported name outside selugrad_*, acl*, aclnn*: {fn}")
        bad += 1
    if bad:
        return 1
    print(f"{os.path.basename(args.library)} exports exactly the {len(names)} functions the "
          f"public headers declare")
    return 0


if __name__ == "__main__":
    sys.exit(main())
