/*
 * read_file.c - a whole file, read under a cap (read_file.h).  No
 * upstream counterpart: client-go and kubectl read these files with
 * os.ReadFile, which has no bound.
 */
#include "read_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena.h"

int
kp_read_stream(FILE *f, size_t max, char **out, size_t *len)
{
    size_t n = 0, cap = 4096, got;
    char *buf = kp_xmalloc(cap);

    for (;;) {
        if (cap - n < 2) {
            /* never more than max + 2 bytes: one past the cap is enough
             * to know the file is over it */
            cap = cap > max / 2 ? max + 2 : cap * 2;
            buf = kp_xrealloc(buf, cap);
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > max || got == 0)
            break;
    }
    if (ferror(f) || n > max) {
        int e = ferror(f) ? (errno ? errno : EIO) : EFBIG;

        free(buf);
        return e;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

int
kp_read_file(const char *path, size_t max, int allow_stdin, char **out,
             size_t *len)
{
    bool is_stdin = allow_stdin && strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    struct stat st;
    int e;

    if (!f)
        return errno;
    /* fopen opens a directory for reading; fread then fails with EISDIR */
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin)
            fclose(f);
        return EISDIR;
    }
    e = kp_read_stream(f, max, out, len);
    if (!is_stdin)
        fclose(f);
    return e;
}

const char *
kp_cap_text(size_t max, char *out, size_t outlen)
{
    if (max >= ((size_t)1 << 30) && max % ((size_t)1 << 30) == 0)
        snprintf(out, outlen, "%zu GiB", max >> 30);
    else if (max >= ((size_t)1 << 20) && max % ((size_t)1 << 20) == 0)
        snprintf(out, outlen, "%zu MiB", max >> 20);
    else if (max >= 1024 && max % 1024 == 0)
        snprintf(out, outlen, "%zu KiB", max >> 10);
    else
        snprintf(out, outlen, "%zu bytes", max);
    return out;
}
