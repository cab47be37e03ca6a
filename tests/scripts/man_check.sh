#!/usr/bin/env bash
# The man page of the selugrad command: formats without a groff warning, and names every
# subcommand of `selugrad --help` and every option of each `selugrad COMMAND --help`.
# Usage: man_check.sh <selugrad-binary> <man-page>
set -euo pipefail
bin=$1 page=$2
warn=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
[ -z "$warn" ] || { echo "groff warnings: $warn"; exit 1; }
missing=0
cmds=$("$bin" --help | sed -n 's/^  \([a-z]*\) .*/\1/p')
[ -n "$cmds" ] || { echo "no subcommands in selugrad --help"; exit 1; }
for cmd in $cmds; do
  grep -q "^\.B $cmd\b" "$page" || { echo "subcommand $cmd is not in the man page"; missing=1; }
  for opt in $("$bin" "$cmd" --help | grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u); do
    [ "$opt" = --help ] || [ "$opt" = --key ] && continue
    grep -qF -- "${opt//-/\\-}" "$page" || { echo "$cmd $opt is not in the man page"; missing=1; }
  done
done
[ "$missing" -eq 0 ] || exit 1
echo "man page: $(echo "$cmds" | wc -w) subcommands and their options, no groff warning"
