/*
 * Shared driver of the test_battery_* programs: runs one case (inputs plus the golden's expected
 * outputs) through every kernel variant of the dtype in sg_kernels[] (loudly SKIPPED when the
 * CPU lacks its ISA) and through the public, dispatched selugrad_backward, and reports the first
 * mismatches with their inputs.
 */
#ifndef SELUGRAD_TESTS_BATTERY_HARNESS_H
#define SELUGRAD_TESTS_BATTERY_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h" /* sg_dtype_list: the dtypes to loop over */
#include "kernels/kernel.h"
#include "selugrad/selugrad.h"

/* Thread counts of the large cases. */
#define BT_NTHREADS 4
extern const int bt_threads[BT_NTHREADS];

/* Compares n elements of y with expect; prints up to a few mismatches labelled by who and what.
   Returns the number of mismatches. */
size_t bt_compare(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *expect,
                  const void *y, const char *who, const char *what);

/* Every kernel of dt in the list, called directly on contiguous arrays. */
size_t bt_check_kernels(selugrad_dtype dt, size_t n, const void *g, const void *o,
                        const void *expect, const char *what);

/* selugrad_backward with the default thread count, or with each of bt_threads when large. */
size_t bt_check_dispatched(selugrad_dtype dt, size_t n, const void *g, const void *o,
                           const void *expect, const char *what, int large);

/* Both of the above. */
size_t bt_check_all(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *expect,
                    const char *what, int large);

/* Whether kernel k can run here; prints "SKIPPED <name>: CPU lacks <isa>" once per kernel if not.
 */
int bt_kernel_runs(const sg_kernel *k);

/* Elements compared so far by this program, and a one-line summary of them on stdout. */
size_t bt_compared(void);
void bt_print_summary(const char *program);

/* Deterministic generator (splitmix64). */
uint64_t bt_rand(uint64_t *state);

/* malloc that aborts the test on failure. */
void *bt_alloc(size_t bytes);

#endif /* SELUGRAD_TESTS_BATTERY_HARNESS_H */
