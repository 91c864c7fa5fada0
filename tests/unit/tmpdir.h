/*
 * tmpdir.h - a scratch directory for a test program and the files it
 * writes there (test_api_client.c, test_kubeconfig.c).
 */
#ifndef KP_TEST_TMPDIR_H
#define KP_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>

static char tmpdir[256];

/* Create tmpdir as /tmp/PREFIX-XXXXXX: 0, or -1. */
static inline int
tmpdir_make(const char *prefix)
{
    snprintf(tmpdir, sizeof(tmpdir), "/tmp/%s-XXXXXX", prefix);
    return mkdtemp(tmpdir) ? 0 : -1;
}

/* Remove tmpdir and everything in it: 0, or -1. */
static inline int
tmpdir_remove(void)
{
    char cmd[300];

    snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Write text to path with the given mode; exit(2) if it cannot. */
static inline void
write_text(const char *path, const char *text, int mode)
{
    FILE *f = fopen(path, "w");

    if (!f) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
    chmod(path, (mode_t)mode);
}

#endif
