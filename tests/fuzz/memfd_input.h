/*
 * memfd_input.h - for fuzz targets whose code under test reads a file by
 * name: the input goes into one memfd, reached as /proc/self/fd/N, so no
 * file is written per run.  Included by one target each (static).
 */
#ifndef KP_FUZZ_MEMFD_INPUT_H
#define KP_FUZZ_MEMFD_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int memfd = -1;
static char memfd_path[64];

/* Create the memfd (from LLVMFuzzerInitialize); aborts on failure. */
static void
memfd_open(const char *name)
{
    memfd = memfd_create(name, MFD_CLOEXEC);
    if (memfd < 0) {
        perror("memfd_create");
        abort();
    }
    snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
}

/* Replace the memfd's contents with data. */
static int
store(const uint8_t *data, size_t size)
{
    size_t off = 0;

    if (ftruncate(memfd, 0) < 0)
        return -1;
    while (off < size) {
        ssize_t n = pwrite(memfd, data + off, size - off, (off_t)off);

        if (n <= 0)
            return -1;
        off += (size_t)n;
    }
    return 0;
}

#endif
