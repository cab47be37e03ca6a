/*
 * Reading the small one-value files of sysfs, procfs and the cgroup file system, where each
 * system call may be a hypervisor round trip: one open, as few reads as the file needs.
 */
#ifndef SELUGRAD_CORE_SYSFILE_H
#define SELUGRAD_CORE_SYSFILE_H

#include <stdbool.h>
#include <stddef.h>

/* The whole file at path (at most size - 1 bytes) as a string in buf; false, with buf "", where
   it cannot be opened or is empty. A short read is taken as its end (as those files give). */
bool sg_sysfile_read(const char *path, char *buf, size_t size);

/* The file's first line, without its newline, in buf; "" where it cannot be read. */
void sg_sysfile_line(const char *path, char *buf, size_t size);

#endif /* SELUGRAD_CORE_SYSFILE_H */
