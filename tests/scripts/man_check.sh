#!/usr/bin/env bash
# The man page of the selugrad command: formats without a groff warning, and names every
# subcommand of `selugrad --help` and every option of each `selugrad COMMAND --help`.
# Usage: man_check.sh <selugrad-binary> <man-page>
set -euo pipefail
bin=$1 page=$2
warn=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
[ -z "$warn" ] || { echo "groff warnings: $warn"; exit 1; }
cmds=$("$bin" --help | sed -n 's/^  \([a-z]*\) .*/\1/p')
[ -n "$cmds" ] || { echo "no subcommands in selugrad --help"; exit 1; }
# "COMMAND OPTION" per option of each subcommand's --help; one awk looks for each in the page, as
# troff writes it (\-\-name)
opts=$(for cmd in $cmds; do
  { "$bin" "$cmd" --help || true; } | grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u | sed "s/^/$cmd /"
done || true)
missing=$(
  for cmd in $cmds; do
    grep -q "^\.B $cmd\b" "$page" || echo "subcommand $cmd is not in the man page"
  done
  printf '%s\n' "$opts" | awk -v page="$page" '
    BEGIN { while ((getline l < page) > 0) text = text l "\n" }
    $2 != "--help" && $2 != "--key" {
      o = $2; gsub(/-/, "\\-", o); if (!index(text, o)) print $1 " " $2 " is not in the man page" }')
[ -z "$missing" ] || { echo "$missing"; exit 1; }
echo "man page: $(echo "$cmds" | wc -w) subcommands and their options, no groff warning"
