#!/usr/bin/env bash
# docs/aclnn.md, "Coverage", against the library: every acl*/aclnn* function the shared library
# exports is listed in the table, every function the table lists is exported, and no function
# of the "Not implemented" paragraph is. Types (the headers' typedef names) are not functions.
# Usage: acl_coverage_doc.sh <libselugrad.so> <source-dir>
set -euo pipefail
lib=$1 src=$2
doc=$src/docs/aclnn.md
exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" {print $3}' | grep '^acl' | sort -u)
types=$(grep -ho 'typedef [^;]*\b\(acl[A-Za-z0-9_]*\);' "$src"/include/acl*/*.h |
  sed 's/.*\b\(acl[A-Za-z0-9_]*\);/\1/'; grep -ho '} *\(acl[A-Za-z0-9_]*\);' \
  "$src"/include/acl*/*.h | sed 's/} *//; s/;//')
section=$(sed -n '/^## Coverage/,/^## /p' "$doc")
table=$(printf '%s\n' "$section" | grep '^| `acl' | cut -d'|' -f3)
missing=$(printf '%s\n' "$section" | sed -n '/^Not implemented/,/^$/p')
names() { grep -o '`acl[A-Za-z0-9_]*`' | tr -d '`' | sort -u; }
listed=$(printf '%s\n' "$table" | names | grep -vxF "$types" || true)
absent=$(printf '%s\n' "$missing" | names | grep -vxF "$types" || true)
# comm on the sorted lists (one process each, not a grep per name)
bad=$({
  comm -23 <(echo "$exported") <(echo "$listed") | sed 's/^/exported, not in the table: /'
  comm -13 <(echo "$exported") <(echo "$listed") | sed 's/^/in the table, not exported: /'
  comm -12 <(echo "$exported") <(echo "$absent") | sed 's/^/exported but listed as missing: /'
} | grep . || true)
[ -z "$bad" ] || { echo "$bad"; exit 1; }
echo "docs/aclnn.md Coverage: $(echo "$exported" | wc -l) functions exported and listed;" \
  "$(echo "$absent" | wc -w) named as not implemented, none exported"
