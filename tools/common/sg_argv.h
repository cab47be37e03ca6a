/*
 * Command-line pieces shared by the selugrad command (tools/selugrad/) and the benchmark
 * (bench/): options written "--key=VALUE" or "--key VALUE", the first pass over the arguments
 * that finds --help and a last option without its value, the dtype names, and the memory a
 * command may take before it runs.
 */
#ifndef SELUGRAD_TOOLS_COMMON_SG_ARGV_H
#define SELUGRAD_TOOLS_COMMON_SG_ARGV_H

#include "selugrad/selugrad.h"

/* Whether argv[*i] is the option key, as "--key=VALUE" or as "--key VALUE" (then *i moves on to
   VALUE, whatever it looks like); *value is VALUE, or "" for a last argument "--key" with
   nothing after it. */
int sg_argv_opt(int argc, char **argv, int *i, const char *key, const char **value);

typedef enum sg_argv_first {
    SG_ARGV_GO = 0,       /* neither: parse the options */
    SG_ARGV_HELP = 1,     /* --help or -h, not as an option's value */
    SG_ARGV_NO_VALUE = 2, /* argv[*at], the last argument, is an option that needs a value */
    SG_ARGV_UNKNOWN = 3,  /* argv[*at], the last argument, looks like one but is not in keys */
} sg_argv_first;

/* The first pass: every bare long option ("--key", no '=') takes the next argument as its value
   except those in flags; so do the short options in short_values (e.g. "-o"). A last argument
   that would take a value is SG_ARGV_NO_VALUE when it is in keys (the options that take one),
   else SG_ARGV_UNKNOWN. The lists end with NULL; NULL is an empty list. */
sg_argv_first sg_argv_first_pass(int argc, char **argv, const char *const *flags,
                                 const char *const *short_values, const char *const *keys, int *at);

/* Parses a dtype's short name or an alias ("f32", "fp32", "float32", "float", "half", ...: the
   list in src/common/dtypes.inc); 0 on success, -1 otherwise. */
int sg_argv_dtype(const char *s, selugrad_dtype *dt);

/* The bytes of memory available for new allocations without swapping: MemAvailable of
   /proc/meminfo (free memory and the caches the kernel can drop), else the physical memory;
   0 when neither is known. The commands refuse sizes beyond it before they allocate: beyond it
   each allocation succeeds and the system kills the process partway. */
double sg_argv_available_memory(void);

#endif /* SELUGRAD_TOOLS_COMMON_SG_ARGV_H */
