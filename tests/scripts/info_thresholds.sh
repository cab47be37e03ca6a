#!/usr/bin/env bash
# `selugrad info`'s thresholds against the rules docs/dispatch.md writes down, computed here from
# the L2 the same output prints: streaming stores from 1.5 x L2 of traffic per thread ("Stores
# and prefetch") on the threads a call runs on (those asked, at most the CPUs available:
# "Threads"), the host hook above 3/4 x L2 ("Host threads"). Run with SELUGRAD_NUM_THREADS.
# Usage: info_thresholds.sh <selugrad>
set -euo pipefail
out=$("$1" info)
l2=$(printf '%s\n' "$out" | sed -n 's/^caches ([^)]*): L1d [0-9]* KiB, L2 \([0-9]*\) KiB.*/\1/p')
asked=$(printf '%s\n' "$out" | sed -n 's/^threads: \([0-9]*\)$/\1/p')
cpus=$(printf '%s\n' "$out" | sed -n 's/^cpus: \([0-9]*\) available .*own pool: \([0-9]*\) .*/\1/p')
th=$(printf '%s\n' "$out" | sed -n 's/^cpus: \([0-9]*\) available .*own pool: \([0-9]*\) .*/\2/p')
[ -n "$l2" ] && [ -n "$asked" ] && [ -n "$cpus" ] && [ -n "$th" ] ||
  { echo "no L2, thread count or cpus in:"; echo "$out"; exit 1; }
# the cpus of the affinity mask, as nproc counts them (which also heeds OMP_NUM_THREADS), and
# at most those available
mask=$(printf '%s\n' "$out" | sed -n 's/^cpus: .*(affinity mask \([0-9]*\),.*/\1/p')
want_mask=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
[ "$mask" = "$want_mask" ] && [ "$cpus" -le "$mask" ] ||
  { echo "cpus $cpus, mask $mask, nproc $want_mask"; exit 1; }
# a call on the own pool runs on the threads asked, at most the cpus ("Threads")
[ "$th" -eq "$((asked < cpus ? asked : cpus))" ] ||
  { echo "threads $asked, cpus $cpus: a call on $th threads, expected the smaller"; exit 1; }
want="stores: non-temporal from $((l2 * 3 / 2)) KiB of traffic per call on 1 thread, $((l2 * 3 / 2 * th)) KiB on $th (1.5 x L2 per thread)"
printf '%s\n' "$out" | grep -qxF "$want" || { echo "expected: $want"; echo "$out"; exit 1; }
want="host hook: a call that splits goes to selugrad_set_parallel_for's hook above $((l2 * 3 / 4)) KiB of traffic (3/4 x L2) or from 16 x its kernel's part_kib; below both it runs on the calling thread"
printf '%s\n' "$out" | grep -qxF "$want" || { echo "expected: $want"; echo "$out"; exit 1; }
echo "info thresholds: L2 $l2 KiB, $asked threads asked, $cpus cpus, calls on $th: as the rules give"
