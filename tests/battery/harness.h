/*
 * Shared driver of the test_battery_* programs: runs one case (inputs plus the golden's expected
 * outputs) through every kernel variant of the dtype in sg_kernels[] (loudly SKIPPED when the
 * CPU lacks its ISA) and through the public, dispatched selugrad_backward under every ISA cap
 * this CPU runs and several thread counts, and reports the first mismatches with their inputs.
 */
#ifndef SELUGRAD_TESTS_BATTERY_HARNESS_H
#define SELUGRAD_TESTS_BATTERY_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "common/dtype.h" /* sg_dtype_list: the dtypes to loop over */
#include "kernels/kernel.h"
#include "selugrad/selugrad.h"

/* Thread counts the dispatched calls run with. */
#define BT_NTHREADS 4
extern const int bt_threads[BT_NTHREADS];

/* One dispatch setting: an ISA cap (selugrad_set_max_isa) and a thread count
   (selugrad_set_num_threads), applied by bt_setting_next. */
typedef struct bt_setting {
    int step, large;
    selugrad_isa cap_before; /* the cap in force before the first setting */
    char label[48];          /* e.g. "cap avx2, 3 threads", for mismatch reports */
} bt_setting;

/* The settings a case's dispatched calls run under, to walk with
   for (bt_setting s = bt_settings(large); bt_setting_next(&s);) { ... }
   A large case: every ISA cap this CPU runs (bt_caps) with each of bt_threads; a small one: each
   cap with the default thread count, and each of bt_threads under the cap in force before. After
   the last, bt_setting_next restores that cap and the default thread count and returns 0. */
bt_setting bt_settings(int large);
int bt_setting_next(bt_setting *s);

/* The ISA caps the dispatched calls run under: each level of this CPU's family that it runs
   (scalar first), and how many. The first call prints them, and "SKIPPED cap <level>: this CPU
   lacks it" for each level that has kernels in this build but does not run here. */
size_t bt_caps(const selugrad_isa **caps);

/* Compares n elements of y with expect; prints up to a few mismatches labelled by who and what.
   Returns the number of mismatches. */
size_t bt_compare(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *expect,
                  const void *y, const char *who, const char *what);

/* Every kernel of dt in the list, called directly on contiguous arrays. */
size_t bt_check_kernels(selugrad_dtype dt, size_t n, const void *g, const void *o,
                        const void *expect, const char *what);

/* selugrad_backward under every setting of bt_settings(large). */
size_t bt_check_dispatched(selugrad_dtype dt, size_t n, const void *g, const void *o,
                           const void *expect, const char *what, int large);

/* Both of the above. */
size_t bt_check_all(selugrad_dtype dt, size_t n, const void *g, const void *o, const void *expect,
                    const char *what, int large);

/* Whether kernel k can run here; prints "SKIPPED <name>: CPU lacks <isa>" once per kernel if not.
 */
int bt_kernel_runs(const sg_kernel *k);

/* Elements compared so far by this program, and a summary of them on stdout: one line, and one
   more naming the ISA levels whose kernels or cap were skipped because this CPU lacks them. */
size_t bt_compared(void);
void bt_print_summary(const char *program);

/* A program's optional argument --isa=LEVEL: test only the kernels of that level and dispatch
   under that cap. Returns 0 (go on), 2 for a bad argument, or 77 (CTest's SKIP_RETURN_CODE) after
   printing "SKIPPED: LEVEL not on this CPU" when this CPU lacks the level. */
int bt_parse_args(int argc, char **argv);

/* Deterministic generator (splitmix64). */
uint64_t bt_rand(uint64_t *state);

/* malloc that aborts the test on failure. */
void *bt_alloc(size_t bytes);

#endif /* SELUGRAD_TESTS_BATTERY_HARNESS_H */
