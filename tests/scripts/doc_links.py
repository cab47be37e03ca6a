#!/usr/bin/env python3
"""README.md and docs/*.md as a reader follows them: every Markdown link names a file of the tree
(and, with #anchor, one of its headings), every cited section (`contract.md, "Tiling"`,
`README, "Install as CANN"`) begins a heading of that page, and every path in the first column
of README's repository map exists.
Usage: doc_links.py <source-dir>
"""
import glob
import os
import re
import sys


def headings(path):
    with open(path, encoding="utf-8") as f:
        out, fenced = [], False
        for l in f:
            if l.startswith("```"):
                fenced = not fenced  # a shell comment in a fenced block is no heading
            elif not fenced and re.match(r"#{1,6} ", l):
                out.append(l.lstrip("#").strip())
        return out


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def main(src):
    pages = ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(src, "docs")) if f.endswith(".md"))
    bad = []
    links = cited = 0
    for page in pages:
        with open(os.path.join(src, page), encoding="utf-8") as f:
            text = f.read()
        here = os.path.dirname(page)
        for m in re.finditer(r"\]\(([^)\s]+)\)", text):
            link = m.group(1)
            if re.match(r"[a-z]+:", link):
                continue
            links += 1
            path, _, frag = link.partition("#")
            target = os.path.normpath(os.path.join(here, path)) if path else page
            if not os.path.exists(os.path.join(src, target)):
                bad.append("%s: link to %s: no such file" % (page, link))
            elif frag and frag not in {anchor(h) for h in headings(os.path.join(src, target))}:
                bad.append("%s: link to %s: no such heading" % (page, link))
        # a cited section: a page name (optionally a link to it), a comma, the heading in quotes
        flat = re.sub(r"\s+", " ", text)
        for m in re.finditer(r'\b((?:docs/)?[\w-]+\.md|README)\]?(?:\([^)]*\))?, "([^"]+)"', flat):
            name, section = m.group(1), m.group(2)
            name = "README.md" if name == "README" else name
            cands = [os.path.normpath(os.path.join(here, name)), os.path.normpath(name),
                     os.path.join("docs", os.path.basename(name))]
            found = [c for c in cands if os.path.exists(os.path.join(src, c))]
            cited += 1
            if not found:
                bad.append('%s: cites %s, "%s": no such page' % (page, name, section))
            elif not any(h.startswith(section) for h in headings(os.path.join(src, found[0]))):
                bad.append('%s: cites %s, "%s": no heading begins so' % (page, name, section))
    with open(os.path.join(src, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    rmap = readme.split("## Repository map", 1)[1].split("\n## ", 1)[0]
    paths = 0
    for row in re.findall(r"^\| (`[^|]*) \|", rmap, re.M):
        for p in re.findall(r"`([^`]+)`", row):
            paths += 1
            if not any(glob.glob(os.path.join(src, d, p)) for d in ("", "src/kernels")):
                bad.append("README.md: repository map: %s does not exist" % p)
    if bad:
        print("\n".join(bad))
        return 1
    print("docs: %d links, %d cited sections and %d repository-map paths resolve"
          % (links, cited, paths))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1])
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
