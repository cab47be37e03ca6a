#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include "sysfile.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

bool sg_sysfile_read(const char *path, char *buf, size_t size) {
    buf[0] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    size_t got = 0;
    for (;;) {
        size_t want = size - 1 - got;
        ssize_t r = read(fd, buf + got, want);
        if (r <= 0) break;
        got += (size_t)r;
        /* a short read is the end of a sysfs, cgroup or proc file: no further read to see it */
        if ((size_t)r < want || got == size - 1) break;
    }
    close(fd);
    buf[got] = '\0';
    return got > 0;
}

void sg_sysfile_line(const char *path, char *buf, size_t size) {
    sg_sysfile_read(path, buf, size);
    buf[strcspn(buf, "\n")] = '\0';
}
