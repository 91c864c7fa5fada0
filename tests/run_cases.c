/*
 * run_cases.c - runs every tests/cases/<area>/<row>.json through kp_run()
 * and compares the report with the case's "expect" (a subset match: every
 * key given must be equal; arrays must have the same length).  A case with
 * "pending" names a feature not built yet and is reported as skipped.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../cmd/options.h"
#include "kp.h"

static int seq, failed;

static char *
slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    char *buf;

    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

static int
subset(const cJSON *want, const cJSON *got, char *path, size_t cap)
{
    size_t len = strlen(path);
    const cJSON *w;
    int i = 0;

    if (cJSON_IsObject(want)) {
        if (!cJSON_IsObject(got))
            return -1;
        cJSON_ArrayForEach(w, want) {
            snprintf(path + len, cap - len, ".%s", w->string);
            if (subset(w, cJSON_GetObjectItemCaseSensitive(got, w->string),
                       path, cap) < 0)
                return -1;
        }
    } else if (cJSON_IsArray(want)) {
        if (!cJSON_IsArray(got) ||
            cJSON_GetArraySize(want) != cJSON_GetArraySize(got)) {
            snprintf(path + len, cap - len, " (array length)");
            return -1;
        }
        cJSON_ArrayForEach(w, want) {
            snprintf(path + len, cap - len, "[%d]", i);
            if (subset(w, cJSON_GetArrayItem(got, i), path, cap) < 0)
                return -1;
            i++;
        }
    } else if (!got || !cJSON_Compare(want, got, 1)) {
        return -1;
    }
    path[len] = '\0';
    return 0;
}

static void
report(bool ok, const char *file, const char *why, const char *detail)
{
    seq++;
    if (!ok)
        failed++;
    printf("%s %d - %s%s%s\n", ok ? "ok" : "not ok", seq, file,
           why ? " " : "", why ? why : "");
    if (!ok && detail)
        printf("#   %s\n", detail);
}

static int
write_tmp(const cJSON *snapshot, char *path)
{
    char *text = cJSON_PrintUnformatted(snapshot);
    int fd = mkstemp(path);
    size_t n = text ? strlen(text) : 0;
    int rc = 0;

    if (fd < 0 || !text || write(fd, text, n) != (ssize_t)n)
        rc = -1;
    if (fd >= 0)
        close(fd);
    free(text);
    return rc;
}

static void
check_result(const char *file, const cJSON *c, int rc,
             const struct kp_run_result *r, const struct kp_error *err)
{
    const cJSON *expect_err = cJSON_GetObjectItemCaseSensitive(c,
                                                               "expectError");
    const cJSON *expect = cJSON_GetObjectItemCaseSensitive(c, "expect");
    char path[512] = "";
    char detail[4096];
    cJSON *got;

    if (cJSON_IsString(expect_err)) {
        bool ok = rc < 0 && strstr(err->msg, expect_err->valuestring);

        snprintf(detail, sizeof(detail), "expected error containing '%s', "
                 "got %s", expect_err->valuestring,
                 rc < 0 ? err->msg : "success");
        report(ok, file, NULL, detail);
        return;
    }
    if (rc < 0) {
        report(false, file, NULL, err->msg);
        return;
    }
    got = cJSON_Parse(r->out.data ? r->out.data : "");
    if (subset(expect, got, path, sizeof(path)) < 0) {
        const cJSON *pods = cJSON_GetObjectItemCaseSensitive(got, "pods");
        char *g = cJSON_PrintUnformatted(pods);

        snprintf(detail, sizeof(detail), "mismatch at %s; got pods: %.3000s",
                 path, g ? g : "(invalid JSON)");
        free(g);
        report(false, file, NULL, detail);
    } else {
        report(true, file, NULL, NULL);
    }
    cJSON_Delete(got);
}

static void
run_case(const char *file)
{
    char *text = slurp(file);
    cJSON *c = text ? cJSON_Parse(text) : NULL;
    const cJSON *args, *a, *pending;
    char tmp[] = "/tmp/kp-case-XXXXXX";
    char *argv[64];
    int argc = 0, rc;
    struct kp_options o;
    struct kp_run_result r;
    struct kp_error err = {0, ""};
    struct kp_buf help;

    free(text);
    if (!c) {
        report(false, file, NULL, "case file is not valid JSON");
        return;
    }
    pending = cJSON_GetObjectItemCaseSensitive(c, "pending");
    if (cJSON_IsString(pending)) {
        char why[256];

        snprintf(why, sizeof(why), "# SKIP %s", pending->valuestring);
        report(true, file, why, NULL);
        cJSON_Delete(c);
        return;
    }
    if (write_tmp(cJSON_GetObjectItemCaseSensitive(c, "snapshot"), tmp) < 0) {
        report(false, file, NULL, "cannot write the snapshot");
        cJSON_Delete(c);
        return;
    }
    argv[argc++] = "kubectl-preempt";
    argv[argc++] = "-f";
    argv[argc++] = tmp;
    argv[argc++] = "-o";
    argv[argc++] = "json";
    args = cJSON_GetObjectItemCaseSensitive(c, "args");
    cJSON_ArrayForEach(a, args)
        if (cJSON_IsString(a) && argc < 63)
            argv[argc++] = a->valuestring;
    argv[argc] = NULL;
    kp_options_init(&o);
    kp_buf_init(&help);
    rc = kp_options_parse(&o, argc, argv, &help, &err);
    kp_buf_release(&help);
    memset(&r, 0, sizeof(r));
    if (rc == 0)
        rc = kp_run(&o, &r, &err);
    else
        rc = -1;
    check_result(file, c, rc, &r, &err);
    kp_run_result_release(&r);
    kp_options_release(&o);
    unlink(tmp);
    cJSON_Delete(c);
}

static int
cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
walk(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, i;

    if (!d)
        return;
    while ((e = readdir(d))) {
        size_t sz;

        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof(char *));
        sz = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(sz);
        snprintf(names[n], sz, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof(char *), cmp);
    for (i = 0; i < n; i++) {
        size_t l = strlen(names[i]);

        if (l > 5 && strcmp(names[i] + l - 5, ".json") == 0)
            run_case(names[i]);
        else
            walk(names[i]);
        free(names[i]);
    }
    free(names);
}

int
main(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++)
        walk(argv[i]);
    printf("# %d cases, %d failed\n", seq, failed);
    return failed ? 1 : 0;
}
