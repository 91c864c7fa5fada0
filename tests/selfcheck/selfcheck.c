/*
 * selfcheck.c - the incremental-state self-check over random clusters
 * (tests/selfcheck/README.md).
 *
 *   selfcheck [N]                 seeds 1..N (default 2000), TAP out
 *   selfcheck --seed S            one seed
 *   selfcheck --print --seed S    the cluster of seed S on stdout
 *   selfcheck --file F            one cluster file (e.g. a minimized one)
 *   selfcheck --fake-failure K    test mode of this driver, K = hostport
 *                                 or conflict (below)
 *   selfcheck --out DIR           where failure-<seed>.json goes
 *                                 (default build-selfcheck)
 *   selfcheck --mode M            queue or independent only (1 and 2
 *                                 threads)
 *   selfcheck --max-seconds S     stop after the seed that passes S
 *                                 seconds (the TAP lines say how far)
 *
 * Each cluster is written to a temporary file and run through kp_run()
 * (-o json) in queue and in independent mode with one thread, and every
 * eighth one also with two.  After each run kp_selfcheck_failures() must
 * be 0, and the cluster must load: a load error is a bug of the
 * generator.  A failing cluster is minimized (minimize() below) and
 * printed on stderr and into DIR/failure-<seed>.json.
 *
 * The checks themselves are in core/ (-DKP_SELFCHECK, `make selfcheck`);
 * a build without them, or a run in which nothing was checked, fails.
 *
 * --fake-failure is for testing this driver: after each run it records a
 * disagreement itself (kp_selfcheck_fail) when the cluster holds a pod
 * with a host port ("hostport"), or two pods bound to one node with the
 * same host port ("conflict").  core/ is untouched.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "gen.h"
#include "kp.h"
#include "selfcheck.h"

#define BLOCK 500
#define MAX_MINIMIZED 3
#define MINIMIZE_SECONDS 120
#define MAX_DIAG 20             /* "#   " lines for failures, in all */

struct config {
    enum kp_mode mode;
    int threads;
    int every;                  /* seeds: every n-th */
    const char *name;
    /*
     * DryRunPreemption keeps one candidate of each kind: it drops (and
     * may stop reading, kp_candidate.partial) every PDB-violating one
     * after the first
     */
    bool few;
};

static const struct config configs[] = {
    {KP_MODE_QUEUE, 1, 1, "queue", false},
    {KP_MODE_INDEPENDENT, 1, 1, "independent", false},
    {KP_MODE_QUEUE, 2, 8, "queue threads=2", false},
    {KP_MODE_INDEPENDENT, 2, 8, "independent threads=2", false},
    {KP_MODE_QUEUE, 1, 4, "queue min-candidates=1", true},
};

#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))

struct outcome {
    bool failed;
    char sig[256];              /* what must stay the same to minimize */
    char msg[1200];
    size_t checks;
};

static const char *fake;        /* --fake-failure */
static const char *only_mode;   /* --mode: queue or independent */
static const char *out_dir = "build-selfcheck";
static char tmp_path[] = "/tmp/kp-selfcheck-XXXXXX";
static int tmp_fd = -1;

/* A failure's line on stdout (tests/run shows them); MAX_DIAG at most. */
static void
diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int ndiag;

static void
diag(const char *fmt, ...)
{
    va_list ap;

    if (ndiag++ >= MAX_DIAG) {
        if (ndiag == MAX_DIAG + 1)
            printf("#   (more failures: not listed)\n");
        return;
    }
    printf("#   ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static int
store(const char *text)
{
    size_t n = strlen(text), off = 0;

    if (ftruncate(tmp_fd, 0) < 0)
        return -1;
    while (off < n) {
        ssize_t w = pwrite(tmp_fd, text + off, n - off, (off_t)off);

        if (w <= 0)
            return -1;
        off += (size_t)w;
    }
    return 0;
}

static bool
has_host_port(const cJSON *pod, int port, const char *proto)
{
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(pod, "spec");
    const cJSON *c, *p;

    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(spec,
                                                           "containers")) {
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "ports")) {
            const cJSON *hp = cJSON_GetObjectItemCaseSensitive(p,
                                                               "hostPort");
            const cJSON *pr = cJSON_GetObjectItemCaseSensitive(p,
                                                               "protocol");

            if (!cJSON_IsNumber(hp) || hp->valueint <= 0)
                continue;
            if (port == 0 || (hp->valueint == port && cJSON_IsString(pr) &&
                              strcmp(pr->valuestring, proto) == 0))
                return true;
        }
    }
    return false;
}

static const char *
node_of(const cJSON *pod)
{
    const cJSON *nn = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(pod, "spec"), "nodeName");

    return cJSON_IsString(nn) ? nn->valuestring : NULL;
}

static bool
is_pod(const cJSON *it)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(it, "kind");

    return cJSON_IsString(kind) && strcmp(kind->valuestring, "Pod") == 0;
}

/* Two pods on one node sharing a host port and protocol. */
static bool
port_conflict(const cJSON *items)
{
    const cJSON *a, *b, *c, *p;

    cJSON_ArrayForEach(a, items) {
        if (!is_pod(a) || !node_of(a))
            continue;
        c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(a, "spec"), "containers"), 0);
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "ports")) {
            const cJSON *hp = cJSON_GetObjectItemCaseSensitive(p,
                                                               "hostPort");
            const cJSON *pr = cJSON_GetObjectItemCaseSensitive(p,
                                                               "protocol");

            if (!cJSON_IsNumber(hp) || !cJSON_IsString(pr))
                continue;
            for (b = a->next; b; b = b->next)
                if (is_pod(b) && node_of(b) &&
                    strcmp(node_of(a), node_of(b)) == 0 &&
                    has_host_port(b, hp->valueint, pr->valuestring))
                    return true;
        }
    }
    return false;
}

static void
fake_check(const cJSON *cluster)
{
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(cluster, "items");
    const cJSON *it;

    if (strcmp(fake, "conflict") == 0) {
        if (port_conflict(items))
            kp_selfcheck_fail("fake conflict: two pods on one node share "
                              "a host port");
        return;
    }
    cJSON_ArrayForEach(it, items)
        if (is_pod(it) && has_host_port(it, 0, NULL)) {
            kp_selfcheck_fail("fake hostport: a pod has a host port");
            return;
        }
}

/* The load error without the file name and items[] indexes. */
static void
load_signature(const char *msg, char *sig, size_t cap)
{
    const char *p = strstr(msg, tmp_path);
    size_t n = 0;

    if (p)
        msg = p + strlen(tmp_path);
    while (*msg == ':' || *msg == ' ')
        msg++;
    n = (size_t)snprintf(sig, cap, "load: ");
    for (; *msg && n + 1 < cap; msg++) {
        if (*msg >= '0' && *msg <= '9' && n && sig[n - 1] == '[') {
            while (msg[1] >= '0' && msg[1] <= '9')
                msg++;
            sig[n++] = '#';
            continue;
        }
        sig[n++] = *msg;
    }
    sig[n] = '\0';
}

/* Run one cluster (text, and its tree for the fake) under one config. */
static void
run(const char *text, const cJSON *cluster, const struct config *cf,
    struct outcome *oc)
{
    struct kp_options o;
    struct kp_run_result r;
    struct kp_error err;
    const char *files[1] = {tmp_path};
    char threads[16];
    int rc;

    memset(oc, 0, sizeof(*oc));
    if (store(text) < 0) {
        oc->failed = true;
        snprintf(oc->sig, sizeof(oc->sig), "driver");
        snprintf(oc->msg, sizeof(oc->msg), "%s: write: %s", tmp_path,
                 strerror(errno));
        return;
    }
    snprintf(threads, sizeof(threads), "%d", cf->threads);
    setenv("KUBECTL_PREEMPT_PARALLELISM", threads, 1);
    kp_options_init(&o);
    o.files = files;
    o.nfiles = 1;
    o.output = KP_OUTPUT_JSON;
    o.mode = cf->mode;
    if (cf->few) {
        o.min_candidate_nodes_percentage = 1;
        o.min_candidate_nodes_percentage_set = true;
        o.min_candidate_nodes_absolute = 1;
        o.min_candidate_nodes_absolute_set = true;
    }
    memset(&err, 0, sizeof(err));
    kp_selfcheck_reset();
    rc = kp_run(&o, &r, &err);
    kp_run_result_release(&r);
    if (rc == 0 && fake)
        fake_check(cluster);
    oc->checks = kp_selfcheck_checks();
    if (rc < 0) {
        oc->failed = true;
        load_signature(err.msg, oc->sig, sizeof(oc->sig));
        snprintf(oc->msg, sizeof(oc->msg), "generator bug, the cluster "
                 "does not load: %.900s", err.msg);
    } else if (kp_selfcheck_failures() > 0) {
        const char *first = kp_selfcheck_first();
        size_t n = strcspn(first, ":");

        oc->failed = true;
        snprintf(oc->sig, sizeof(oc->sig), "check: %.*s", (int)n, first);
        snprintf(oc->msg, sizeof(oc->msg), "%zu disagreement(s), first: %s",
                 kp_selfcheck_failures(), first);
    }
}

static void
run_tree(const cJSON *cluster, const struct config *cf, struct outcome *oc)
{
    char *text = cJSON_PrintUnformatted(cluster);

    run(text, cluster, cf, oc);
    free(text);
}

/*
 * The removable nodes of the tree, in pre-order: every array element and
 * object member below the top level ("apiVersion", "kind" and "items"
 * stay).  Returns the k-th one, or NULL once there are fewer.
 */
static cJSON *
nth_removable(cJSON *node, int *k, cJSON **parent)
{
    cJSON *c, *hit;

    cJSON_ArrayForEach(c, node) {
        if ((*k)-- == 0) {
            *parent = node;
            return c;
        }
        if (cJSON_IsArray(c) || cJSON_IsObject(c)) {
            hit = nth_removable(c, k, parent);
            if (hit)
                return hit;
        }
    }
    return NULL;
}

struct minimize {
    const struct config *cf;
    const char *sig;
    time_t deadline;
    int tries, kept;
};

/* Whether the cluster without its k-th removable node still fails alike. */
static int
try_remove(struct minimize *m, cJSON **cluster, int k, bool items_only)
{
    cJSON *copy = cJSON_Duplicate(*cluster, 1);
    cJSON *items = cJSON_GetObjectItemCaseSensitive(copy, "items");
    cJSON *victim, *parent;
    struct outcome oc;
    int n = k;

    parent = items;
    victim = items_only ? cJSON_GetArrayItem(items, k) :
                          nth_removable(items, &n, &parent);
    if (!victim) {
        cJSON_Delete(copy);
        return -1;
    }
    cJSON_Delete(cJSON_DetachItemViaPointer(parent, victim));
    m->tries++;
    run_tree(copy, m->cf, &oc);
    if (oc.failed && strcmp(oc.sig, m->sig) == 0) {
        cJSON_Delete(*cluster);
        *cluster = copy;
        m->kept++;
        return 1;
    }
    cJSON_Delete(copy);
    return 0;
}

/*
 * Delta debugging by single deletions: first whole items, then any array
 * element or object member (a pod's affinity terms, ports, constraints,
 * conditions, labels...), each pass until nothing more can go, as long as
 * the same check (or the same load error) still fails.
 */
static void
minimize(const struct config *cf, const char *sig, cJSON **cluster)
{
    struct minimize m = {cf, sig, time(NULL) + MINIMIZE_SECONDS, 0, 0};
    int pass;

    for (pass = 0; pass < 2; pass++) {
        bool changed = true;

        while (changed && time(NULL) < m.deadline) {
            int k = 0, rc;

            changed = false;
            while (time(NULL) < m.deadline &&
                   (rc = try_remove(&m, cluster, k, pass == 0)) >= 0) {
                if (rc == 1)
                    changed = true;
                else
                    k++;
            }
        }
    }
    fprintf(stderr, "# minimized in %d runs (%d deletions kept)%s\n",
            m.tries, m.kept, time(NULL) >= m.deadline ?
            ", stopped at the time limit" : "");
}

static void
write_failure(const char *name, const char *text)
{
    char path[512];
    FILE *f;

    mkdir(out_dir, 0777);
    snprintf(path, sizeof(path), "%s/failure-%s.json", out_dir, name);
    f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fputc('\n', f) == EOF) {
        fprintf(stderr, "# %s: %s\n", path, strerror(errno));
    } else {
        fprintf(stderr, "# written to %s\n", path);
        diag("seed %s: minimized cluster in %s", name, path);
    }
    if (f)
        fclose(f);
}

/* Minimize a failing cluster and show it: stderr and a file. */
static void
report_failure(const char *name, const struct config *cf,
               const struct outcome *oc, const cJSON *cluster)
{
    cJSON *small = cJSON_Duplicate(cluster, 1);
    struct outcome last;
    char *text;

    diag("seed %s, %s: %s", name, cf->name, oc->msg);
    fprintf(stderr, "# seed %s, mode %s: %s\n# minimizing (same failure: "
            "%s)\n", name, cf->name, oc->msg, oc->sig);
    minimize(cf, oc->sig, &small);
    run_tree(small, cf, &last);
    text = cJSON_Print(small);
    fprintf(stderr, "# seed %s, mode %s, smallest cluster that shows it: "
            "%s\n%s\n", name, cf->name, last.msg, text);
    write_failure(name, text);
    free(text);
    cJSON_Delete(small);
}

struct tally {
    size_t runs, checks, failed, minimized;
};

/* Every config due for this cluster; returns false on a failure. */
static bool
check_cluster(const char *name, const cJSON *cluster, long seed,
              struct tally *t)
{
    char *text = cJSON_PrintUnformatted(cluster);
    bool ok = true;
    size_t i;

    for (i = 0; i < NCONFIGS; i++) {
        struct outcome oc;

        if (seed % configs[i].every != 0 ||
            (only_mode && strncmp(configs[i].name, only_mode,
                                  strlen(only_mode)) != 0))
            continue;
        run(text, cluster, &configs[i], &oc);
        t[i].runs++;
        t[i].checks += oc.checks;
        if (!oc.failed)
            continue;
        t[i].failed++;
        /* one minimized cluster per seed (the first mode that fails) */
        if (ok && t[i].minimized++ < MAX_MINIMIZED)
            report_failure(name, &configs[i], &oc, cluster);
        else
            diag("seed %s, %s: %s", name, configs[i].name, oc.msg);
        ok = false;
    }
    free(text);
    return ok;
}

static cJSON *
cluster_of_seed(long seed)
{
    struct sc_rng r;

    sc_rng_seed(&r, (uint64_t)seed);
    return sc_gen_cluster(&r);
}

static int tap_seq, tap_failed;

static void
tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
tap(bool ok, const char *fmt, ...)
{
    va_list ap;

    tap_seq++;
    if (!ok)
        tap_failed++;
    printf("%s %d - ", ok ? "ok" : "not ok", tap_seq);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static long max_seconds;        /* --max-seconds: 0 unlimited */

/* Seeds first..last in blocks of BLOCK, one TAP line per block and config. */
static size_t
run_seeds(long first, long last)
{
    struct tally total[NCONFIGS];
    time_t start = time(NULL);
    bool stop = false;
    long lo;
    size_t i, checks = 0;

    memset(total, 0, sizeof(total));
    for (lo = first; lo <= last && !stop; lo += BLOCK) {
        long hi = lo + BLOCK - 1 < last ? lo + BLOCK - 1 : last, s;
        struct tally t[NCONFIGS];

        memset(t, 0, sizeof(t));
        for (s = lo; s <= hi; s++) {
            cJSON *c = cluster_of_seed(s);
            char name[32];

            snprintf(name, sizeof(name), "%ld", s);
            for (i = 0; i < NCONFIGS; i++)
                t[i].minimized = total[i].minimized;
            check_cluster(name, c, s, t);
            for (i = 0; i < NCONFIGS; i++)
                total[i].minimized = t[i].minimized;
            cJSON_Delete(c);
            if (max_seconds && s < last &&
                time(NULL) - start >= max_seconds) {
                printf("# stopped at the time limit (--max-seconds %ld) "
                       "after seed %ld\n", max_seconds, s);
                hi = s;
                stop = true;
            }
        }
        for (i = 0; i < NCONFIGS; i++) {
            if (!t[i].runs)
                continue;
            printf("# checks: %zu (%zu clusters, %s)\n", t[i].checks,
                   t[i].runs, configs[i].name);
            if (t[i].failed)
                tap(false, "selfcheck seeds %ld..%ld %s (%zu of %zu "
                    "clusters fail)", lo, hi, configs[i].name, t[i].failed,
                    t[i].runs);
            else
                tap(true, "selfcheck seeds %ld..%ld %s", lo, hi,
                    configs[i].name);
            checks += t[i].checks;
        }
    }
    printf("# %ld s\n", (long)(time(NULL) - start));
    return checks;
}

static size_t
run_file(const char *path)
{
    struct tally t[NCONFIGS];
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0, i, checks = 0;
    cJSON *c;

    if (!f) {
        fprintf(stderr, "selfcheck: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    buf[n] = '\0';
    c = cJSON_Parse(buf);
    free(buf);
    if (!c) {
        fprintf(stderr, "selfcheck: %s: not JSON\n", path);
        exit(2);
    }
    memset(t, 0, sizeof(t));
    check_cluster("file", c, 0, t);
    for (i = 0; i < NCONFIGS; i++) {
        if (!t[i].runs)
            continue;
        printf("# checks: %zu (%s)\n", t[i].checks, configs[i].name);
        tap(t[i].failed == 0, "selfcheck %s %s", path, configs[i].name);
        checks += t[i].checks;
    }
    cJSON_Delete(c);
    return checks;
}

static void
usage(void)
{
    fprintf(stderr, "usage: selfcheck [N] [--seed S] [--print] [--file F] "
            "[--out DIR] [--max-seconds S]\n"
            "                 [--mode queue|independent]\n"
            "                 [--fake-failure hostport|conflict]\n");
    exit(2);
}

static long
number(const char *s)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < 1)
        usage();
    return v;
}

int
main(int argc, char **argv)
{
    long first = 1, last = 2000;
    const char *file = NULL;
    bool print = false, one = false;
    size_t checks;
    int i;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            first = last = number(argv[++i]);
            one = true;
        } else if (strcmp(argv[i], "--file") == 0 && i + 1 < argc) {
            file = argv[++i];
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out_dir = argv[++i];
        } else if (strcmp(argv[i], "--fake-failure") == 0 && i + 1 < argc) {
            fake = argv[++i];
            if (strcmp(fake, "hostport") != 0 &&
                strcmp(fake, "conflict") != 0)
                usage();
        } else if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc) {
            only_mode = argv[++i];
            if (strcmp(only_mode, "queue") != 0 &&
                strcmp(only_mode, "independent") != 0)
                usage();
        } else if (strcmp(argv[i], "--max-seconds") == 0 && i + 1 < argc) {
            max_seconds = number(argv[++i]);
        } else if (strcmp(argv[i], "--print") == 0) {
            print = true;
        } else if (argv[i][0] != '-' && !one) {
            last = number(argv[i]);
        } else {
            usage();
        }
    }
    if (print) {
        cJSON *c = cluster_of_seed(first);
        char *text = cJSON_Print(c);

        puts(text);
        free(text);
        cJSON_Delete(c);
        return 0;
    }
    tmp_fd = mkstemp(tmp_path);
    if (tmp_fd < 0) {
        perror("selfcheck: mkstemp");
        return 2;
    }
    if (fake)
        printf("# test mode: --fake-failure %s (the driver records a "
               "disagreement itself)\n", fake);
    checks = file ? run_file(file) : run_seeds(first, last);
    close(tmp_fd);
    unlink(tmp_path);
    printf("# checks: %zu in all\n", checks);
    tap(kp_selfcheck_enabled(), "selfcheck build runs the checks%s",
        kp_selfcheck_enabled() ? "" :
        " (built without -DKP_SELFCHECK: make selfcheck)");
    tap(checks > 0, "selfcheck checked something (%zu checks)", checks);
    printf("1..%d\n", tap_seq);
    return tap_failed ? 1 : 0;
}
