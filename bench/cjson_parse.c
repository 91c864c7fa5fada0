/*
 * cjson_parse.c - the baseline: read FILE, cJSON_ParseWithLength the whole
 * document, cJSON_Delete it.  Prints, on one line:
 *
 *   bytes=N read_s=S parse_s=S delete_s=S maxrss_kb=K
 *
 * Times are wall time on CLOCK_MONOTONIC; maxrss is this process's peak
 * resident set (file buffer plus the whole tree).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <cjson/cJSON.h>

static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
    FILE *f;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    double t0, t1, t2, t3;
    cJSON *doc;
    struct rusage ru;

    if (argc != 2) {
        fputs("usage: cjson_parse FILE\n", stderr);
        return 2;
    }
    t0 = now();
    f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : (size_t)1 << 24;
            buf = realloc(buf, cap);
            if (!buf) {
                perror("cjson_parse");
                return 1;
            }
        }
        n = fread(buf + len, 1, cap - len, f);
        if (n == 0)
            break;
        len += n;
    }
    fclose(f);
    t1 = now();
    doc = cJSON_ParseWithLength(buf, len);
    t2 = now();
    if (!doc) {
        fprintf(stderr, "cjson_parse: parse error near byte %ld\n",
                (long)(cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() - buf : -1));
        return 1;
    }
    cJSON_Delete(doc);
    t3 = now();
    free(buf);
    getrusage(RUSAGE_SELF, &ru);
    printf("bytes=%zu read_s=%.3f parse_s=%.3f delete_s=%.3f maxrss_kb=%ld\n",
           len, t1 - t0, t2 - t1, t3 - t2, ru.ru_maxrss);
    return 0;
}
