#!/usr/bin/env bash
# The selugrad command's list of options that take a value (cli_value_keys, tools/selugrad/args.c)
# against the keys its subcommands read with sg_argv_opt: the same set, so that a last argument
# "--key" with no value is called unknown exactly when no subcommand has that option.
# Usage: cli_value_keys.sh <source-dir>
set -euo pipefail
dir=$1/tools/selugrad
read_keys=$(grep -ho 'sg_argv_opt(argc, argv, &i, "[^"]*"' "$dir"/*.c | sed 's/.*"\([^"]*\)"$/\1/' | sort -u)
listed=$(sed -n '/^static const char \*const cli_value_keys\[\]/,/};/p' "$dir/args.c" |
  grep -o '"--[A-Za-z0-9-]*"' | tr -d '"' | sort -u)
[ -n "$read_keys" ] && [ -n "$listed" ] || { echo "no keys found"; exit 1; }
bad=$({
  comm -23 <(echo "$read_keys") <(echo "$listed") | sed 's/^/read by a subcommand, not in cli_value_keys: /'
  comm -13 <(echo "$read_keys") <(echo "$listed") | sed 's/^/in cli_value_keys, read by no subcommand: /'
} | grep . || true)
[ -z "$bad" ] || { echo "$bad"; exit 1; }
echo "cli_value_keys: the $(echo "$listed" | wc -l) options the subcommands read with a value"
