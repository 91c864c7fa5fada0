/*
 * test_kube_versions.c - the version-keyed rules (core/config/
 * kube_version.c kp_kube_rules) against their documentation: every row
 * is a row of docs/versions.md's table (same release, same PR or KEP),
 * that table has no row the code lacks, and the README's --kube-version
 * list cites every row's PR.  Run from the top directory (tests/run
 * does).  Also: kp_kube_rule_on holds from a row's release on, and the
 * default (0) replays 1.37.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kube_version.h"

/* The whole file, NUL-terminated, or NULL. */
static char *
slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0, got;

    if (!f)
        return NULL;
    do {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            buf = realloc(buf, cap);
            if (!buf) {
                fclose(f);
                return NULL;
            }
        }
        got = fread(buf + n, 1, 4096, f);
        n += got;
    } while (got > 0);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* The first "#NNN" or "KEP-NNN" of a row's source, into out. */
static void
first_ref(const char *src, char *out, size_t n)
{
    const char *h = strchr(src, '#'), *k = strstr(src, "KEP-");
    const char *p = h && (!k || h < k) ? h : k;
    size_t len = 0;

    out[0] = '\0';
    if (!p)
        return;
    len = (size_t)(p == k ? 4 : 1);
    while (p[len] >= '0' && p[len] <= '9')
        len++;
    snprintf(out, n, "%.*s", (int)len, p);
}

/* Whether some line of text starts with prefix and contains ref. */
static int
line_has(const char *text, const char *prefix, const char *ref)
{
    const char *line = text;

    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[2048];

        snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
        if (strncmp(buf, prefix, strlen(prefix)) == 0 && strstr(buf, ref))
            return 1;
        line = end ? end + 1 : NULL;
    }
    return 0;
}

static void
test_kube_versions__table_matches_docs(void)
{
    char *doc = slurp("docs/versions.md");
    const char *line;
    size_t i, rows = 0;

    CHECK(doc != NULL);
    if (!doc)
        return;
    for (i = 0; i < KP_NRULES; i++) {
        char ref[32], prefix[32];

        first_ref(kp_kube_rules[i].source, ref, sizeof(ref));
        snprintf(prefix, sizeof(prefix), "| 1.%d |", kp_kube_rules[i].since);
        CHECK(ref[0] != '\0');
        if (!line_has(doc, prefix, ref)) {
            printf("#   docs/versions.md: no row '%s ... %s'\n", prefix, ref);
            CHECK(0);
        }
    }
    for (line = doc; line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (strncmp(line, "| 1.", 4) == 0)
            rows++;
    }
    CHECK_EQ_INT(rows, KP_NRULES);
    free(doc);
}

/* The README's --kube-version list cites every row's PR or KEP. */
static void
test_kube_versions__readme_cites_every_rule(void)
{
    char *readme = slurp("README.md");
    char *start, *end;
    size_t i;

    CHECK(readme != NULL);
    if (!readme)
        return;
    start = strstr(readme, "`--kube-version X.Y` (1.31 to 1.38");
    end = start ? strstr(start, "Without `--kube-version`") : NULL;
    CHECK(start != NULL && end != NULL);
    if (start && end) {
        *end = '\0';
        for (i = 0; i < KP_NRULES; i++) {
            char ref[32];

            first_ref(kp_kube_rules[i].source, ref, sizeof(ref));
            if (!strstr(start, ref)) {
                printf("#   README --kube-version list: no %s\n", ref);
                CHECK(0);
            }
        }
    }
    free(readme);
}

static void
test_kube_versions__rule_on(void)
{
    size_t i;

    for (i = 0; i < KP_NRULES; i++) {
        const struct kp_kube_rule_row *r = &kp_kube_rules[i];

        CHECK_EQ_INT(r->id, i);
        CHECK(r->since > KP_KUBE_MINOR_MIN &&
              r->since <= KP_KUBE_MINOR_MAX);
        CHECK(kp_kube_rule_on(r->id, r->since));
        CHECK(kp_kube_rule_on(r->id, KP_KUBE_MINOR_MAX));
        CHECK(!kp_kube_rule_on(r->id, r->since - 1));
        CHECK_EQ_INT(kp_kube_rule_on(r->id, 0),
                     r->since <= KP_KUBE_MINOR_DEFAULT);
        CHECK(r->what && r->what[0] && r->test && r->test[0]);
    }
    CHECK(!kp_kube_rule_on(KP_NRULES, KP_KUBE_MINOR_MAX));
}

int
main(void)
{
    RUN(test_kube_versions__table_matches_docs);
    RUN(test_kube_versions__readme_cites_every_rule);
    RUN(test_kube_versions__rule_on);
    return check_done();
}
