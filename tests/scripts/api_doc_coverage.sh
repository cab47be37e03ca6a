#!/usr/bin/env bash
# docs/api.md against the native header: every function include/selugrad/selugrad.h declares
# (SELUGRAD_API) has a "### " entry in docs/api.md that names it, and every selugrad_* name an
# entry of the native API's section gives is declared there.
# Usage: api_doc_coverage.sh <source-dir>
set -euo pipefail
src=$1
hdr=$src/include/selugrad/selugrad.h
doc=$src/docs/api.md
# the declarations: lines "SELUGRAD_API <type> name(" (the name on the line of the macro)
declared=$(grep -o '^SELUGRAD_API [^;(]*(' "$hdr" |
  sed 's/($//; s/.*[ *]\([A-Za-z_][A-Za-z0-9_]*\)$/\1/' | sort -u)
section=$(sed -n '/^## selugrad\/selugrad.h:/,/^## selugrad\/selugrad_graph.h/p' "$doc")
listed=$(printf '%s\n' "$section" | grep '^### ' | grep -o 'selugrad_[A-Za-z0-9_]*' | sort -u)
[ -n "$declared" ] || { echo "no SELUGRAD_API declarations found in $hdr"; exit 1; }
bad=$({
  comm -23 <(echo "$declared") <(echo "$listed") | sed 's/^/declared, no entry in docs\/api.md: /'
  comm -13 <(echo "$declared") <(echo "$listed") | sed 's/^/an entry, not declared: /'
} | grep . || true)
[ -z "$bad" ] || { echo "$bad"; exit 1; }
echo "docs/api.md: all $(echo "$declared" | wc -l) functions of selugrad/selugrad.h have an entry"
