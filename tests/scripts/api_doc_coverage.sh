#!/usr/bin/env bash
# docs/api.md against the native headers: every function include/selugrad/selugrad.h and
# selugrad_graph.h declare (SELUGRAD_API) has a "### " entry in that header's section of
# docs/api.md that names it, and every selugrad_* name an entry there gives is declared.
# Usage: api_doc_coverage.sh <source-dir>
set -euo pipefail
src=$1
doc=$src/docs/api.md
# the declarations: lines "SELUGRAD_API <type> name(" (the name on the line of the macro)
decls() {
  grep -o '^SELUGRAD_API [^;(]*(' "$1" | sed 's/($//; s/.*[ *]\([A-Za-z_][A-Za-z0-9_]*\)$/\1/' |
    sort -u
}
# the entries of a section, from its "## " heading to the next one
entries() {
  awk -v h="$1" 'index($0, "## " h ":") == 1 {on = 1; next} /^## / {on = 0} on && /^### /' "$doc" |
    grep -o 'selugrad_[A-Za-z0-9_]*' | sort -u || true
}
bad="" total=0
for h in selugrad/selugrad.h selugrad/selugrad_graph.h; do
  declared=$(decls "$src/include/$h")
  listed=$(entries "$h")
  [ -n "$declared" ] || { echo "no SELUGRAD_API declarations found in $h"; exit 1; }
  total=$((total + $(echo "$declared" | wc -l)))
  bad+=$({
    comm -23 <(echo "$declared") <(echo "$listed") | sed "s|^|$h: declared, no entry in docs/api.md: |"
    comm -13 <(echo "$declared") <(echo "$listed") | sed "s|^|$h: an entry, not declared there: |"
  } | grep . || true)
  [ -z "$bad" ] || bad+=$'\n'
done
bad=$(printf '%s' "$bad" | grep . || true)
[ -z "$bad" ] || { echo "$bad"; exit 1; }
echo "docs/api.md: all $total functions of selugrad/selugrad.h and selugrad_graph.h have an entry"
