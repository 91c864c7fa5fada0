/*
 * gen.c - deterministic generator of cluster snapshots shaped like
 * `kubectl get nodes,pods,pdb,priorityclasses -A -o json`: one List, 4-space
 * indentation, keys in alphabetical order (kubectl prints unstructured maps),
 * items in API-server order (nodes by name, pods by namespace/name, PDBs by
 * namespace/name, PriorityClasses by name).
 *
 *   gen small|medium|large [--shape NAME] [-o FILE]
 *   gen NODES PODS PENDING PDBS [--shape NAME] [-o FILE]
 *
 * The cluster: three node pools (general m6i.2xlarge, large m6i.4xlarge,
 * tainted gpu g5.4xlarge) over three zones; three DaemonSets on every node;
 * Deployments, StatefulSets and Jobs of four priority classes packed
 * first-fit until the nodes are about 94% full on CPU; pending pods of
 * mostly higher priority that fit nowhere without preemption (plus some
 * preemptionPolicy: Never, some too large for any node, some pinned to a
 * zone, some needing a GPU).  Pods carry what real ones carry: labels,
 * annotations, ownerReferences, managedFields (fieldsV1), probes, env,
 * projected service-account volumes, tolerations, status conditions and
 * containerStatuses.
 *
 * Shapes (--shape; bench/README.md): `default` is the cluster above, byte
 * for byte what this generator printed before shapes existed; `fits`
 * leaves a quarter of the CPU free, runs Deployments (system default
 * spreading) with some preferred pod affinity, and most pending pods fit;
 * `affinity` gives many bound and pending pods required pod anti-affinity
 * and DoNotSchedule topology spread, and adds pending replicas to running
 * workloads that have them; `nominated` gives most pending pods a
 * status.nominatedNodeName, a third with their victims already
 * terminating; `pdb` adds namespace-wide and per-instance PDBs, so most
 * pods are matched by two to four.  Node, pod and pending counts are the
 * size's in every shape.
 *
 * Same arguments, same bytes: every random choice comes from a fixed seed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------- rng */

static uint64_t
mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

struct rng {
    uint64_t s;
};

static uint64_t
rnext(struct rng *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    return mix64(r->s);
}

static int
rint_(struct rng *r, int n)            /* 0 .. n-1 */
{
    return (int)(rnext(r) % (uint64_t)n);
}

static double
runit(struct rng *r)
{
    return (double)(rnext(r) >> 11) / 9007199254740992.0;
}

static int
rpick(struct rng *r, const int *weights, int n)
{
    int i, total = 0, x;

    for (i = 0; i < n; i++)
        total += weights[i];
    x = rint_(r, total);
    for (i = 0; i < n; i++) {
        if (x < weights[i])
            return i;
        x -= weights[i];
    }
    return n - 1;
}

static void
rhex(struct rng *r, char *out, int n)
{
    static const char hx[] = "0123456789abcdef";
    int i;

    for (i = 0; i < n; i++)
        out[i] = hx[rint_(r, 16)];
    out[n] = 0;
}

static void
ruid(struct rng *r, char out[37])
{
    rhex(r, out, 36);
    out[8] = out[13] = out[18] = out[23] = '-';
    out[14] = '4';
}

/* Kubernetes' rand.SafeEncodeString alphabet */
static const char safe_alpha[] = "bcdfghjklmnpqrstvwxz2456789";

static void
rsafe(struct rng *r, char *out, int n)
{
    int i;

    for (i = 0; i < n; i++)
        out[i] = safe_alpha[rint_(r, 27)];
    out[n] = 0;
}

/* a unique 5-char suffix for the k-th pod: a bijection on 0 .. 27^5-1 */
static void
suffix5(uint64_t k, char out[6])
{
    uint64_t m = 14348907, v = (k * 2654435761ULL + 1234567) % m;
    int i;

    for (i = 0; i < 5; i++) {
        out[i] = safe_alpha[v % 27];
        v /= 27;
    }
    out[5] = 0;
}

/* ------------------------------------------------------------- writer */

static char *obuf;
static size_t olen;
static const size_t ocap = (size_t)4 << 20;
static FILE *ofile;
static uint64_t obytes;

struct level {
    int n;
};
static struct level lv[64];
static int depth = -1;
static const char spaces[] =
    "                                                                "
    "                                                                "
    "                                                                "
    "                                                                ";

static void
flush_out(void)
{
    if (olen && fwrite(obuf, 1, olen, ofile) != olen) {
        perror("gen: write");
        exit(1);
    }
    obytes += olen;
    olen = 0;
}

static inline void
put(const char *s, size_t n)
{
    if (olen + n > ocap)
        flush_out();
    memcpy(obuf + olen, s, n);
    olen += n;
}

static inline void
putch(char c)
{
    if (olen + 1 > ocap)
        flush_out();
    obuf[olen++] = c;
}

static void
puts_(const char *s)
{
    put(s, strlen(s));
}

static void
putq(const char *s)
{
    const char *p;

    putch('"');
    for (p = s; *p; p++) {
        if (*p == '"' || *p == '\\')
            putch('\\');
        putch(*p);
    }
    putch('"');
}

static void
sep(void)
{
    if (depth < 0)
        return;
    if (lv[depth].n++)
        put(",\n", 2);
    else
        putch('\n');
    put(spaces, (size_t)(depth + 1) * 4);
}

static void
key(const char *k)
{
    sep();
    if (k) {
        putq(k);
        put(": ", 2);
    }
}

static void
ob(const char *k)
{
    key(k);
    putch('{');
    lv[++depth].n = 0;
}

static void
ab(const char *k)
{
    key(k);
    putch('[');
    lv[++depth].n = 0;
}

static void
close_(char c)
{
    if (lv[depth].n) {
        putch('\n');
        put(spaces, (size_t)depth * 4);
    }
    depth--;
    putch(c);
}

static void oe(void) { close_('}'); }
static void ae(void) { close_(']'); }

static void
sv(const char *k, const char *v)
{
    key(k);
    putq(v);
}

static void
iv(const char *k, long long v)
{
    char b[32];
    int n = snprintf(b, sizeof(b), "%lld", v);

    key(k);
    put(b, (size_t)n);
}

static void
bv(const char *k, int v)
{
    key(k);
    if (v)
        put("true", 4);
    else
        put("false", 5);
}

static void
emptyobj(const char *k)
{
    ob(k);
    oe();
}

/* "f:a": {} for each name: the leaves of a fieldsV1 set */
static void
fleaves(const char *const *names)
{
    char b[128];

    for (; *names; names++) {
        snprintf(b, sizeof(b), "%s", *names);
        emptyobj(b);
    }
}

static void
dot(void)
{
    emptyobj(".");
}

/* ------------------------------------------------------------ helpers */

static const time_t T0 = 1735689600;       /* 2025-01-01T00:00:00Z */

static void
ts(char out[32], time_t t)
{
    struct tm tm;

    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void
tsv(const char *k, time_t t)
{
    char b[32];

    ts(b, t);
    sv(k, b);
}

static void
cpu_str(char *out, size_t n, long m)
{
    if (m % 1000 == 0)
        snprintf(out, n, "%ld", m / 1000);
    else
        snprintf(out, n, "%ldm", m);
}

static void
mem_str(char *out, size_t n, long mi)
{
    if (mi % 1024 == 0)
        snprintf(out, n, "%ldGi", mi / 1024);
    else
        snprintf(out, n, "%ldMi", mi);
}

static void
ip_str(char *out, size_t n, uint32_t ip)
{
    snprintf(out, n, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 255,
             (ip >> 8) & 255, ip & 255);
}

/* -------------------------------------------------------------- model */

enum { PC_BATCH_LOW, PC_BATCH, PC_PROD, PC_PROD_CRIT, PC_NODE_CRIT,
       PC_CLUSTER_CRIT, NPC };

static const struct {
    const char *name;
    long value;
    int never;
    int global_default;
    const char *desc;
} pcs[NPC] = {
    {"batch-low", 100, 1, 0,
     "Opportunistic batch work; never preempts."},
    {"batch", 1000, 0, 1, "Batch and ETL jobs (default for unlabelled pods)."},
    {"prod", 100000, 0, 0, "Production services."},
    {"prod-critical", 1000000, 0, 0, "Customer-facing, revenue-critical services."},
    {"system-node-critical", 2000001000, 0, 0,
     "Used for system critical pods that must not be moved from their "
     "current node."},
    {"system-cluster-critical", 2000000000, 0, 0,
     "Used for system critical pods that must run in the cluster, but can "
     "be moved to another node if necessary."},
};

enum { POOL_GENERAL, POOL_LARGE, POOL_GPU };

static const struct {
    const char *itype;
    long cap_cpu, alloc_cpu;            /* milli */
    long cap_mem_ki, alloc_mem_ki;
    int gpus;
    const char *nodegroup;
} pools[3] = {
    {"m6i.2xlarge", 8000, 7910, 32408392, 31391560, 0, "general"},
    {"m6i.4xlarge", 16000, 15890, 65010016, 63993184, 0, "large"},
    {"g5.4xlarge", 16000, 15890, 65010016, 63993184, 1, "gpu"},
};

static const char *const zones[3] = {"eu-west-1a", "eu-west-1b",
                                     "eu-west-1c"};

struct node {
    char name[64];
    uint32_t ip;
    int pool, zone, idx;                /* idx: position after sorting */
    long used_cpu, used_mem_mi;
    int npods;
    char uid[37], instance[20], boot[37], machine[33];
    time_t created;
    uint64_t seed;
};

enum { K_DEPLOY, K_STS, K_JOB, K_DS };

struct workload {
    int ns;
    char name[48];
    int kind, pc;
    char hash[11], uid[37], owner_uid[37];
    int ncont;                          /* 1 or 2 (sidecar) */
    long cpu_m, mem_mi;                 /* main container requests */
    long side_cpu_m, side_mem_mi;       /* sidecar requests */
    int cpu_limit;                      /* main has a cpu limit */
    int gpu;
    int affinity;       /* 0 none, 1 arch, 2 zone, 3 pref anti-aff, 4 req anti-aff,
                         * 5 preferred pod affinity (to paff_wl, same zone) */
    int zone;
    int running, pending;
    int pdb;                            /* index into pdbs or -1 */
    int port;
    const char *image_repo;
    time_t created;
    int never_node_placed;
    /* shapes other than default */
    int comp;           /* app.kubernetes.io/component: 1 + index, 0 none */
    int anti_comp;      /* required anti-affinity selects component anti_comp-1 */
    int spread;         /* DoNotSchedule spread: 1 zone, 2 hostname, 3 both */
    int paff_wl;        /* affinity 5: the workload it prefers to be near */
};

struct pod {
    char name[80];
    int wl, node, ord;
    uint64_t seed;
    time_t created;
    int nominated;      /* status.nominatedNodeName: node index + 1, 0 none */
    int terminating;    /* a victim in flight (deletionTimestamp, DisruptionTarget) */
};

struct pdbrec {
    int wl;             /* the workload it protects, or -1 (pdb shape) */
    int kind;           /* 0 minAvailable int, 1 minAvailable %, 2 maxUnav int, 3 maxUnav % */
    int val;
    int disruptions, desired;
    char uid[37];
    /* what is printed (pdb_fill; the pdb shape's own PDBs set it) */
    int ns, healthy, expected;
    char name[80], rel[64], selval[64];
    const char *selkey;
    time_t created;
};

static const char *const nsword[] = {
    "payments", "checkout", "search", "identity", "catalog", "ads",
    "analytics", "messaging", "media", "platform", "storefront", "logistics",
    "fraud", "growth", "billing", "support", "experiments", "data-pipeline",
    "recommendations", "notifications"};
#define NNSWORD ((int)(sizeof(nsword) / sizeof(nsword[0])))

static const char *const appword[] = {
    "api", "web", "cart", "indexer", "auth", "gateway", "inventory",
    "orders", "notifier", "ranker", "ingest", "etl", "report", "scheduler",
    "cache", "session", "profile", "thumbnailer", "feed", "ledger",
    "pricing", "quote", "graphql", "events", "audit", "export", "sync",
    "mailer", "resizer", "tracker"};
static const char *const roleword[] = {"svc", "worker", "consumer", "backend",
                                       "frontend", "batch", "cron", "server"};

static char (*nsnames)[40];
static int nns;
static int ns_kube_system, ns_monitoring, ns_ml;

static struct node *nodes;
static int nnodes;
static struct workload *wls;
static int nwls, capwls;
static struct pod *pods;
static int npods, cappods;
static struct pdbrec *pdbs;
static int npdbs;
static uint64_t seed0;

/* --shape: what the cluster is built to exercise (bench/README.md) */
enum { SH_DEFAULT, SH_FITS, SH_AFFINITY, SH_NOMINATED, SH_PDB, NSHAPES };
static const char *const shape_names[NSHAPES] = {"default", "fits", "affinity",
                                                 "nominated", "pdb"};
static int shape;
static const char *const compword[4] = {"web", "cache", "worker", "db"};

/* (workload, node) pairs in use: required anti-affinity on placement */
static uint64_t *pair_set;
static size_t pair_cap, pair_used;

static int
pair_seen(int wl, int node, int add)
{
    uint64_t h = (mix64(((uint64_t)(uint32_t)wl << 32) | (uint32_t)node)) | 1;
    size_t i;

    if (add && 2 * (pair_used + 1) > pair_cap) {
        uint64_t *old = pair_set;
        size_t oldcap = pair_cap, j;

        pair_cap = pair_cap ? pair_cap * 2 : 4096;
        pair_set = calloc(pair_cap, sizeof(*pair_set));
        if (!pair_set) {
            perror("gen");
            exit(1);
        }
        for (j = 0; j < oldcap; j++)
            if (old[j]) {
                for (i = old[j] & (pair_cap - 1); pair_set[i];
                     i = (i + 1) & (pair_cap - 1))
                    ;
                pair_set[i] = old[j];
            }
        free(old);
    }
    if (!pair_cap)
        return 0;
    for (i = h & (pair_cap - 1); pair_set[i]; i = (i + 1) & (pair_cap - 1))
        if (pair_set[i] == h)
            return 1;
    if (add) {
        pair_set[i] = h;
        pair_used++;
    }
    return 0;
}

static void *
xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);

    if (!p) {
        perror("gen");
        exit(1);
    }
    return p;
}

static struct workload *
new_wl(void)
{
    if (nwls == capwls) {
        capwls = capwls ? capwls * 2 : 1024;
        wls = realloc(wls, (size_t)capwls * sizeof(*wls));
        if (!wls) {
            perror("gen");
            exit(1);
        }
    }
    memset(&wls[nwls], 0, sizeof(wls[0]));
    wls[nwls].pdb = -1;
    return &wls[nwls++];
}

static struct pod *
new_pod(void)
{
    if (npods == cappods) {
        cappods = cappods ? cappods * 2 : 4096;
        pods = realloc(pods, (size_t)cappods * sizeof(*pods));
        if (!pods) {
            perror("gen");
            exit(1);
        }
    }
    memset(&pods[npods], 0, sizeof(pods[0]));
    return &pods[npods++];
}

static int
cmp_node_name(const void *a, const void *b)
{
    return strcmp(((const struct node *)a)->name,
                  ((const struct node *)b)->name);
}

static int
cmp_pod(const void *a, const void *b)
{
    const struct pod *x = a, *y = b;
    int c = strcmp(nsnames[wls[x->wl].ns], nsnames[wls[y->wl].ns]);

    return c ? c : strcmp(x->name, y->name);
}

static int
cmp_pdb(const void *a, const void *b)
{
    const struct pdbrec *x = a, *y = b;
    const struct workload *p = &wls[x->wl], *q = &wls[y->wl];
    int c = strcmp(nsnames[p->ns], nsnames[q->ns]);

    return c ? c : strcmp(p->name, q->name);
}

/* (namespace, workload name) pairs in use: open addressing, no deletes */
static uint64_t *name_set;
static size_t name_cap, name_used;

static uint64_t
name_hash(int ns, const char *name)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)ns;

    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 1099511628211ULL;
    return h | 1;                       /* 0 marks an empty slot */
}

/* true when taken; otherwise records it */
static int
wl_name_taken(int ns, const char *name)
{
    uint64_t h = name_hash(ns, name);
    size_t i;

    if (2 * (name_used + 1) > name_cap) {
        uint64_t *old = name_set;
        size_t oldcap = name_cap, j;

        name_cap = name_cap ? name_cap * 2 : 4096;
        name_set = xcalloc(name_cap, sizeof(*name_set));
        for (j = 0; j < oldcap; j++)
            if (old[j]) {
                for (i = old[j] & (name_cap - 1); name_set[i];
                     i = (i + 1) & (name_cap - 1))
                    ;
                name_set[i] = old[j];
            }
        free(old);
    }
    for (i = h & (name_cap - 1); name_set[i]; i = (i + 1) & (name_cap - 1))
        if (name_set[i] == h)
            return 1;
    name_set[i] = h;
    name_used++;
    return 0;
}

static void
name_wl(struct rng *r, struct workload *w, const char *prefix)
{
    char b[32];
    int n = 0;

    if (prefix)
        snprintf(b, sizeof(b), "%s-%s", prefix, appword[rint_(r, 30)]);
    else
        snprintf(b, sizeof(b), "%s-%s", appword[rint_(r, 30)],
                 roleword[rint_(r, 8)]);
    snprintf(w->name, sizeof(w->name), "%s", b);
    while (wl_name_taken(w->ns, w->name))
        snprintf(w->name, sizeof(w->name), "%s-%d", b, ++n + 1);
}

static void
wl_common(struct rng *r, struct workload *w)
{
    rsafe(r, w->hash, w->kind == K_DEPLOY ? 10 : w->kind == K_JOB ? 0 : 9);
    if (w->kind == K_JOB)
        w->hash[0] = 0;
    ruid(r, w->uid);
    ruid(r, w->owner_uid);
    w->port = 8000 + rint_(r, 1000);
    w->created = T0 + rint_(r, 200 * 86400);
}

/* ------------------------------------------------------------- build */

static long total_alloc_cpu;
static int unplaced;
static int reg_lo, reg_hi;      /* the regular running workloads */

/* a regular running workload of namespace ns other than self, or -1 */
static int
pick_wl_in_ns(struct rng *r, int ns, int self)
{
    int t;

    if (reg_hi <= reg_lo)
        return -1;
    for (t = 0; t < 64; t++) {
        int k = reg_lo + rint_(r, reg_hi - reg_lo);

        if (k != self && wls[k].ns == ns && wls[k].running > 0)
            return k;
    }
    return -1;
}

static struct pod *new_pod(void);
static struct workload *new_wl(void);

/* affinity shape: pending replicas of a running workload with required
 * anti-affinity or topology spread (a scale-up); 0 when none was found */
static int
add_pending_replicas(struct rng *r, int *left)
{
    int t, rep, i;

    if (reg_hi <= reg_lo)
        return 0;
    for (t = 0; t < 32; t++) {
        int k = reg_lo + rint_(r, reg_hi - reg_lo);
        struct workload *w = &wls[k];

        if (w->kind == K_JOB || (w->affinity != 4 && !w->spread))
            continue;
        rep = 1 + rint_(r, 3);
        if (rep > *left)
            rep = *left;
        for (i = 0; i < rep; i++) {
            struct pod *p = new_pod();

            p->wl = k;
            p->ord = w->running + w->pending + i;
            p->node = -1;
        }
        w->pending += rep;
        *left -= rep;
        return 1;
    }
    return 0;
}

/* fits shape: a pending Deployment that mostly fits in the free quarter;
 * some prefer to be near another workload of the namespace */
static void
add_pending_fits(struct rng *r, struct rng *r2, int *left)
{
    static const int pc_w[4] = {5, 20, 55, 20};
    static const long cpu[7] = {100, 250, 500, 750, 1000, 2000, 4000};
    static const int cpu_w[7] = {10, 20, 25, 15, 15, 10, 5};
    struct workload *w = new_wl();
    int rep = 1 + rint_(r, 12), x, i;

    if (rep > *left)
        rep = *left;
    w->ns = rint_(r, nns - 3);
    w->pc = rpick(r, pc_w, 4);
    w->kind = rint_(r, 6) == 0 ? K_STS : K_DEPLOY;
    name_wl(r, w, NULL);
    w->cpu_m = cpu[rpick(r, cpu_w, 7)];
    w->mem_mi = (long)((double)w->cpu_m * (2.0 + 2.0 * runit(r)) * 1.024);
    w->mem_mi = (w->mem_mi + 15) / 16 * 16;
    w->ncont = rint_(r, 3) == 0 ? 2 : 1;
    if (w->ncont == 2) {
        w->side_cpu_m = 50;
        w->side_mem_mi = 64;
    }
    w->cpu_limit = rint_(r, 3) != 0;
    x = rint_(r2, 100);
    if (x < 30) {
        w->paff_wl = pick_wl_in_ns(r2, w->ns, -1);
        if (w->paff_wl >= 0)
            w->affinity = 5;
    } else if (x < 40) {
        w->affinity = 3;
    } else if (x < 45) {
        w->affinity = 2;
        w->zone = rint_(r2, 3);
    }
    w->pending = rep;
    wl_common(r, w);
    w->created = T0 + 210 * 86400 + rint_(r, 3600);
    for (i = 0; i < rep; i++) {
        struct pod *p = new_pod();

        p->wl = nwls - 1;
        p->ord = i;
        p->node = -1;
    }
    *left -= rep;
}

/* what emit_pdb prints of a workload's PDB */
static void
pdb_fill(struct pdbrec *d)
{
    const struct workload *w = &wls[d->wl];

    d->ns = w->ns;
    snprintf(d->name, sizeof(d->name), "%s-pdb", w->name);
    snprintf(d->rel, sizeof(d->rel), "%s", w->name);
    d->selkey = "app.kubernetes.io/name";
    snprintf(d->selval, sizeof(d->selval), "%s", w->name);
    d->healthy = w->running;
    d->expected = w->running + w->pending;
    d->created = w->created;
}

static int
cmp_pdb_name(const void *a, const void *b)
{
    const struct pdbrec *x = a, *y = b;
    int c = strcmp(nsnames[x->ns], nsnames[y->ns]);

    return c ? c : strcmp(x->name, y->name);
}

/* pdb shape: two namespace-wide PDBs per namespace (label team: every
 * pod of its workloads; app.kubernetes.io/part-of: its Deployments) and,
 * on a third of the workloads with a PDB, a second one on
 * app.kubernetes.io/instance with maxUnavailable 0: most pods are matched
 * by two to four PDBs, some with no disruption left */
static void
add_shape_pdbs(struct rng *r)
{
    int *tot = xcalloc((size_t)nns * 4, sizeof(int));
    int i, k, nw = npdbs;

    for (i = 0; i < npods; i++) {
        const struct workload *w = &wls[pods[i].wl];

        if (w->kind == K_DS)
            continue;
        tot[w->ns * 4 + 0]++;
        tot[w->ns * 4 + 1] += pods[i].node >= 0;
        if (w->kind == K_DEPLOY) {
            tot[w->ns * 4 + 2]++;
            tot[w->ns * 4 + 3] += pods[i].node >= 0;
        }
    }
    for (k = 0; k < nns; k++) {
        struct pdbrec *d;

        if (k == ns_kube_system || k == ns_monitoring)
            continue;
        if (tot[k * 4 + 0] > 0) {
            d = &pdbs[npdbs++];
            d->wl = -1;
            d->ns = k;
            d->kind = rint_(r, 2) ? 2 : 3;      /* 1-8 pods, or 20% */
            d->val = d->kind == 2 ? 1 + rint_(r, 8) : 20;
            d->expected = tot[k * 4 + 0];
            d->healthy = tot[k * 4 + 1];
            d->desired = d->expected -
                         (d->kind == 2 ? d->val
                                       : (d->expected * 20 + 99) / 100);
            if (d->desired < 0)
                d->desired = 0;
            d->disruptions = d->healthy - d->desired;
            if (d->disruptions < 0)
                d->disruptions = 0;
            snprintf(d->name, sizeof(d->name), "%s-team-budget", nsnames[k]);
            snprintf(d->rel, sizeof(d->rel), "%s-policies", nsnames[k]);
            d->selkey = "team";
            snprintf(d->selval, sizeof(d->selval), "%s", nsnames[k]);
            d->created = T0 + rint_(r, 30 * 86400);
            ruid(r, d->uid);
        }
        if (tot[k * 4 + 2] > 0) {
            d = &pdbs[npdbs++];
            d->wl = -1;
            d->ns = k;
            d->kind = 1;
            d->val = 90;
            d->expected = tot[k * 4 + 2];
            d->healthy = tot[k * 4 + 3];
            d->desired = (d->expected * 90 + 99) / 100;
            d->disruptions = d->healthy - d->desired;
            if (d->disruptions < 0)
                d->disruptions = 0;
            snprintf(d->name, sizeof(d->name), "%s-services-budget",
                     nsnames[k]);
            snprintf(d->rel, sizeof(d->rel), "%s-policies", nsnames[k]);
            d->selkey = "app.kubernetes.io/part-of";
            snprintf(d->selval, sizeof(d->selval), "%s", nsnames[k]);
            d->created = T0 + rint_(r, 30 * 86400);
            ruid(r, d->uid);
        }
    }
    for (i = 0; i < nw; i++) {
        const struct workload *w = &wls[pdbs[i].wl];
        struct pdbrec *d;

        if (rint_(r, 3) != 0)
            continue;
        d = &pdbs[npdbs++];
        d->wl = -1;
        d->ns = w->ns;
        d->kind = 2;
        d->val = 0;
        d->expected = w->running + w->pending;
        d->healthy = w->running;
        d->desired = d->expected;
        d->disruptions = d->healthy - d->desired;
        if (d->disruptions < 0)
            d->disruptions = 0;
        snprintf(d->name, sizeof(d->name), "%s-instance-pdb", w->name);
        snprintf(d->rel, sizeof(d->rel), "%s", w->name);
        d->selkey = "app.kubernetes.io/instance";
        snprintf(d->selval, sizeof(d->selval), "%s", w->name);
        d->created = w->created + 86400;
        ruid(r, d->uid);
    }
    free(tot);
}

static int
cmp_victim(const void *a, const void *b)
{
    const struct pod *x = &pods[*(const int *)a], *y = &pods[*(const int *)b];
    long px = pcs[wls[x->wl].pc].value, py = pcs[wls[y->wl].pc].value;

    if (px != py)
        return px < py ? -1 : 1;
    return *(const int *)a - *(const int *)b;
}

/* nominated shape: pending pods carrying status.nominatedNodeName.  35%
 * preempted already: lower-priority victims on the node are terminating
 * (deletionTimestamp, DisruptionTarget PreemptionByScheduler) and would
 * free enough room; 35% are nominated to a node where they would fit
 * after preemption, victims not (yet) marked; 15% to a random node
 * (stale); 15% carry none (and the few for which no node was found in 24
 * tries). */
static void
nominate(struct rng *r)
{
    int *start = xcalloc((size_t)nnodes + 1, sizeof(int));
    int *fill = xcalloc((size_t)nnodes, sizeof(int));
    int *onnode, *cand;
    long *resv_cpu = xcalloc((size_t)nnodes, sizeof(long));
    long *resv_mem = xcalloc((size_t)nnodes, sizeof(long));
    int i, j;

    for (i = 0; i < npods; i++)
        if (pods[i].node >= 0)
            start[pods[i].node + 1]++;
    for (i = 0; i < nnodes; i++)
        start[i + 1] += start[i];
    onnode = xcalloc((size_t)start[nnodes] + 1, sizeof(int));
    cand = xcalloc((size_t)start[nnodes] + 1, sizeof(int));
    for (i = 0; i < npods; i++)
        if (pods[i].node >= 0)
            onnode[start[pods[i].node] + fill[pods[i].node]++] = i;
    for (i = 0; i < npods; i++) {
        struct pod *p = &pods[i];
        const struct workload *w = &wls[p->wl];
        long need_c = w->cpu_m + w->side_cpu_m, need_m = w->mem_mi + w->side_mem_mi;
        int x, t, done = 0;

        if (p->node >= 0)
            continue;
        x = rint_(r, 100);
        if (x >= 85)
            continue;
        if (x >= 70) {
            p->nominated = 1 + rint_(r, nnodes);
            continue;
        }
        for (t = 0; t < 24 && !done; t++) {
            int nd = rint_(r, nnodes), nc = 0;
            const struct node *n = &nodes[nd];
            long fc = pools[n->pool].alloc_cpu - n->used_cpu - resv_cpu[nd];
            long fm = pools[n->pool].alloc_mem_ki / 1024 - n->used_mem_mi -
                      resv_mem[nd];
            int nv = 0;

            if ((n->pool == POOL_GPU) != (w->gpu != 0))
                continue;
            for (j = start[nd]; j < start[nd + 1]; j++) {
                const struct pod *q = &pods[onnode[j]];

                if (!q->terminating &&
                    pcs[wls[q->wl].pc].value < pcs[w->pc].value)
                    cand[nc++] = onnode[j];
            }
            qsort(cand, (size_t)nc, sizeof(int), cmp_victim);
            while ((fc < need_c || fm < need_m) && nv < nc) {
                const struct workload *v = &wls[pods[cand[nv]].wl];

                fc += v->cpu_m + v->side_cpu_m;
                fm += v->mem_mi + v->side_mem_mi;
                nv++;
            }
            if (fc < need_c || fm < need_m)
                continue;
            p->nominated = nd + 1;
            resv_cpu[nd] += need_c;
            resv_mem[nd] += need_m;
            if (x < 35)
                for (j = 0; j < nv; j++)
                    pods[cand[j]].terminating = 1;
            done = 1;
        }
    }
    free(start);
    free(fill);
    free(onnode);
    free(cand);
    free(resv_cpu);
    free(resv_mem);
}

/* shapes: what a regular running workload carries besides the default */
static void
shape_running(struct rng *r, struct workload *w, int self)
{
    int x = rint_(r, 100), y = rint_(r, 100);

    switch (shape) {
    case SH_FITS:
        /* preferred anti-affinity (hostname) or preferred affinity to
         * another workload of the namespace (zone); Deployments and
         * StatefulSets get the system default spreading */
        w->affinity = 0;
        if (x < 20) {
            w->affinity = 3;
        } else if (x < 32) {
            w->paff_wl = pick_wl_in_ns(r, w->ns, self);
            if (w->paff_wl >= 0)
                w->affinity = 5;
        }
        break;
    case SH_AFFINITY:
        w->comp = 1 + rint_(r, 4);
        if (w->kind != K_JOB && w->running >= 2 &&
            w->running <= nnodes / 4 && x < 35)
            w->affinity = 4;            /* required, own name, hostname */
        if (y < 40)
            w->spread = 1;              /* zone, maxSkew 1 */
        else if (y < 50)
            w->spread = 2;              /* hostname, maxSkew 1 */
        else if (y < 55)
            w->spread = 3;
        break;
    default:
        break;
    }
}

static void
build(int N, int P, int Q, int B)
{
    struct rng r = {seed0};
    struct rng r2 = {seed0 ^ 0x7368617065ULL};     /* shapes' own draws */
    int i, k, ngpu, nlarge, R, target_regular, nfill;
    int *order;
    double avg_cpu;
    static const int pc_w_running[4] = {15, 45, 32, 8};
    static const double factor[7] = {0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0};
    static const int factor_w[7] = {10, 20, 20, 20, 15, 10, 5};
    static const int repl[9] = {1, 2, 3, 4, 6, 10, 16, 30, 60};
    static const int repl_w[9] = {8, 14, 16, 12, 12, 14, 12, 8, 4};
    double fmean = 0;
    int fw = 0;

    /* namespaces */
    nns = N / 10 < 4 ? 4 : N / 10;
    nsnames = xcalloc((size_t)nns + 3, sizeof(*nsnames));
    for (i = 0; i < nns; i++) {
        if (i < NNSWORD)
            snprintf(nsnames[i], 40, "%s", nsword[i]);
        else
            snprintf(nsnames[i], 40, "team-%03d", i);
    }
    ns_kube_system = nns;
    snprintf(nsnames[nns++], 40, "kube-system");
    ns_monitoring = nns;
    snprintf(nsnames[nns++], 40, "monitoring");
    ns_ml = nns;
    snprintf(nsnames[nns++], 40, "ml-training");

    /* nodes */
    nnodes = N;
    nodes = xcalloc((size_t)N, sizeof(*nodes));
    ngpu = N >= 20 ? N * 5 / 100 : 1;
    nlarge = N * 15 / 100;
    order = xcalloc((size_t)N, sizeof(int));
    for (i = 0; i < N; i++)
        order[i] = i;
    for (i = N - 1; i > 0; i--) {
        int j = rint_(&r, i + 1), t = order[i];

        order[i] = order[j];
        order[j] = t;
    }
    for (i = 0; i < N; i++) {
        struct node *n = &nodes[i];
        uint32_t low = (uint32_t)(((uint64_t)(i + 1) * 40503u + 77777u) &
                                  0xfffffu);

        n->pool = order[i] < ngpu ? POOL_GPU
                  : order[i] < ngpu + nlarge ? POOL_LARGE : POOL_GENERAL;
        n->ip = (10u << 24) | ((uint32_t)(i / 3 % 16) << 20) | low;
        n->zone = i % 3;
        snprintf(n->name, sizeof(n->name),
                 "ip-%u-%u-%u-%u.eu-west-1.compute.internal", n->ip >> 24,
                 (n->ip >> 16) & 255, (n->ip >> 8) & 255, n->ip & 255);
        ruid(&r, n->uid);
        ruid(&r, n->boot);
        rhex(&r, n->machine, 32);
        n->instance[0] = 'i';
        n->instance[1] = '-';
        rhex(&r, n->instance + 2, 17);
        n->created = T0 + rint_(&r, 120 * 86400);
        n->seed = rnext(&r);
    }
    free(order);
    qsort(nodes, (size_t)N, sizeof(*nodes), cmp_node_name);
    for (i = 0; i < N; i++)
        nodes[i].idx = i;

    /* DaemonSets: kube-proxy, aws-node (kube-system), node-exporter */
    {
        static const struct {
            const char *name;
            long cpu, mem;
            int pc;
        } ds[3] = {{"kube-proxy", 100, 128, PC_NODE_CRIT},
                   {"aws-node", 25, 64, PC_NODE_CRIT},
                   {"node-exporter", 50, 64, PC_CLUSTER_CRIT}};

        for (k = 0; k < 3; k++) {
            struct workload *w = new_wl();

            w->ns = k < 2 ? ns_kube_system : ns_monitoring;
            snprintf(w->name, sizeof(w->name), "%s", ds[k].name);
            w->kind = K_DS;
            w->pc = ds[k].pc;
            w->ncont = 1;
            w->cpu_m = ds[k].cpu;
            w->mem_mi = ds[k].mem;
            w->cpu_limit = 0;
            w->running = N;
            w->image_repo = k == 0 ? "registry.k8s.io/kube-proxy"
                            : k == 1 ? "602401143452.dkr.ecr.eu-west-1."
                                       "amazonaws.com/amazon-k8s-cni"
                                     : "quay.io/prometheus/node-exporter";
            wl_common(&r, w);
            for (i = 0; i < N; i++) {
                struct pod *p = new_pod();

                p->wl = nwls - 1;
                p->node = i;
                nodes[i].used_cpu += w->cpu_m;
                nodes[i].used_mem_mi += w->mem_mi;
                nodes[i].npods++;
            }
        }
    }

    /* GPU training jobs: one pod per GPU node, jobs of up to 4 */
    for (i = 0, k = 0; i < N; i++) {
        struct workload *w;
        struct pod *p;

        if (nodes[i].pool != POOL_GPU)
            continue;
        if (k % 4 == 0) {
            w = new_wl();
            w->ns = ns_ml;
            w->kind = K_JOB;
            w->pc = PC_BATCH;
            name_wl(&r, w, "train");
            w->ncont = 1;
            w->cpu_m = 12000;
            w->mem_mi = 48 * 1024;
            w->cpu_limit = 1;
            w->gpu = 1;
            w->image_repo = "nvcr.io/nvidia/pytorch";
            wl_common(&r, w);
        }
        w = &wls[nwls - 1];
        w->running++;
        p = new_pod();
        p->wl = nwls - 1;
        p->node = i;
        nodes[i].used_cpu += w->cpu_m;
        nodes[i].used_mem_mi += w->mem_mi;
        nodes[i].npods++;
        k++;
    }

    /* regular running workloads */
    R = P - Q - npods;
    if (R < 0) {
        fprintf(stderr, "gen: too few pods for %d nodes\n", N);
        exit(2);
    }
    for (i = 0; i < N; i++)
        if (nodes[i].pool != POOL_GPU) {
            total_alloc_cpu += pools[nodes[i].pool].alloc_cpu -
                               nodes[i].used_cpu;
        }
    for (i = 0; i < 7; i++) {
        fmean += factor[i] * factor_w[i];
        fw += factor_w[i];
    }
    fmean /= fw;
    /* one single-pod CronJob run per general/large node tops it up at the
     * end, so that every node is left with less than ~300m CPU free */
    nfill = 0;
    for (i = 0; i < N; i++)
        if (nodes[i].pool != POOL_GPU)
            nfill++;
    if (R < 3 * nfill || shape == SH_FITS)
        nfill = 0;
    target_regular = R - nfill;
    /* the fits shape leaves about a quarter of the CPU free */
    avg_cpu = (shape == SH_FITS ? 0.72 : 0.90) * (double)total_alloc_cpu /
              (target_regular ? target_regular : 1);
    {
        int placed = 0;
        int first_regular_wl = nwls;

        while (placed < target_regular) {
            struct workload *w = new_wl();
            int rep = repl[rpick(&r, repl_w, 9)];
            double f = factor[rpick(&r, factor_w, 7)] / fmean;
            long cpu;

            if (rep > target_regular - placed)
                rep = target_regular - placed;
            w->ns = rint_(&r, nns - 3);
            w->pc = rpick(&r, pc_w_running, 4);
            if (w->pc >= PC_PROD)
                w->kind = rint_(&r, 5) == 0 ? K_STS : K_DEPLOY;
            else
                w->kind = rint_(&r, 2) ? K_JOB : K_DEPLOY;
            if (shape == SH_FITS)       /* Deployments (a few StatefulSets) */
                w->kind = w->kind == K_STS ? K_STS : K_DEPLOY;
            name_wl(&r, w, NULL);
            cpu = (long)(avg_cpu * f / 10.0 + 0.5) * 10;
            if (cpu < 10)
                cpu = 10;
            w->ncont = cpu >= 200 && rint_(&r, 3) == 0 ? 2 : 1;
            if (w->ncont == 2) {
                w->side_cpu_m = 50;
                w->side_mem_mi = 64;
                cpu -= 50;
            }
            w->cpu_m = cpu;
            w->mem_mi = (long)((double)(cpu + w->side_cpu_m) *
                               (2.0 + 2.0 * runit(&r)) * 1.024) -
                        w->side_mem_mi;
            if (w->mem_mi < 32)
                w->mem_mi = 32;
            w->mem_mi = (w->mem_mi + 15) / 16 * 16;
            w->cpu_limit = rint_(&r, 3) != 0;
            w->affinity = rint_(&r, 10) < 2 ? 3 : rint_(&r, 10) == 0 ? 1 : 0;
            w->running = rep;
            w->image_repo = NULL;
            wl_common(&r, w);
            if (shape != SH_DEFAULT) {
                reg_lo = first_regular_wl;
                reg_hi = nwls - 1;
                shape_running(&r2, w, nwls - 1);
            }
            placed += rep;
        }
        reg_lo = first_regular_wl;
        reg_hi = nwls;
        /* expand, shuffle, place first-fit from a rotating cursor */
        {
            int first_pod = npods, nreg, cursor = 0;

            for (k = first_regular_wl; k < nwls; k++)
                for (i = 0; i < wls[k].running; i++) {
                    struct pod *p = new_pod();

                    p->wl = k;
                    p->ord = i;
                    p->node = -1;
                }
            nreg = npods - first_pod;
            for (i = nreg - 1; i > 0; i--) {
                int j = rint_(&r, i + 1);
                struct pod t = pods[first_pod + i];

                pods[first_pod + i] = pods[first_pod + j];
                pods[first_pod + j] = t;
            }
            for (i = first_pod; i < npods; i++) {
                struct workload *w = &wls[pods[i].wl];
                long c = w->cpu_m + w->side_cpu_m;
                long m = w->mem_mi + w->side_mem_mi;
                int tries, best = -1;

                for (tries = 0; tries < N; tries++) {
                    struct node *n = &nodes[(cursor + tries) % N];
                    const int pl = n->pool;

                    if (pl == POOL_GPU)
                        continue;
                    if (w->affinity == 4 && shape == SH_AFFINITY &&
                        pair_seen(pods[i].wl, (cursor + tries) % N, 0))
                        continue;
                    if (n->used_cpu + c <= pools[pl].alloc_cpu &&
                        n->used_mem_mi + m <= pools[pl].alloc_mem_ki / 1024 &&
                        n->npods < 110) {
                        best = (cursor + tries) % N;
                        break;
                    }
                }
                if (best < 0) {
                    /* nowhere left: keep the count, place it on the
                     * least-loaded general node (slight overcommit) */
                    long low = -1;
                    int j;

                    unplaced++;
                    for (j = 0; j < N; j++)
                        if (nodes[j].pool != POOL_GPU &&
                            !(w->affinity == 4 && shape == SH_AFFINITY &&
                              pair_seen(pods[i].wl, j, 0)) &&
                            (best < 0 || pools[nodes[j].pool].alloc_cpu -
                                                 nodes[j].used_cpu > low)) {
                            best = j;
                            low = pools[nodes[j].pool].alloc_cpu -
                                  nodes[j].used_cpu;
                        }
                    for (j = 0; j < N && best < 0; j++)
                        if (nodes[j].pool != POOL_GPU)
                            best = j;
                }
                pods[i].node = best;
                if (w->affinity == 4 && shape == SH_AFFINITY)
                    pair_seen(pods[i].wl, best, 1);
                nodes[best].used_cpu += c;
                nodes[best].used_mem_mi += m;
                nodes[best].npods++;
                cursor = (best + 1) % N;
            }
        }
        for (i = 0; i < N && nfill > 0; i++) {
            struct node *n = &nodes[i];
            struct workload *w;
            struct pod *p;
            long free_cpu, free_mem, cpu, mem;

            if (n->pool == POOL_GPU)
                continue;
            free_cpu = pools[n->pool].alloc_cpu - n->used_cpu;
            free_mem = pools[n->pool].alloc_mem_ki / 1024 - n->used_mem_mi;
            cpu = (free_cpu - 50 - rint_(&r, 250)) / 10 * 10;
            if (cpu < 20)
                cpu = 20;
            mem = cpu * 2;
            if (mem > free_mem - 512)
                mem = free_mem - 512;
            if (mem < 64)
                mem = 64;
            mem = mem / 16 * 16;
            w = new_wl();
            w->ns = rint_(&r, nns - 3);
            w->pc = rint_(&r, 3) == 0 ? PC_BATCH_LOW : PC_BATCH;
            w->kind = K_JOB;
            {
                char pre[24];

                snprintf(pre, sizeof(pre), "nightly-%u",
                         28900000u + (unsigned)rint_(&r, 100000));
                name_wl(&r, w, pre);
            }
            w->ncont = 1;
            w->cpu_m = cpu;
            w->mem_mi = mem;
            w->cpu_limit = 1;
            w->running = 1;
            wl_common(&r, w);
            p = new_pod();
            p->wl = nwls - 1;
            p->node = i;
            n->used_cpu += cpu;
            n->used_mem_mi += mem;
            n->npods++;
        }
    }

    /* pending workloads */
    {
        static const int pc_w_pending[4] = {5, 12, 58, 25};
        int left = Q, gpu_left = ngpu;

        while (left > 0) {
            struct workload *w;
            int rep, shape_;
            static const long pend_cpu[5] = {1000, 1500, 2000, 3000, 4000};
            static const int pend_cpu_w[5] = {30, 25, 25, 12, 8};

            if (shape == SH_AFFINITY && rint_(&r2, 100) < 30 &&
                add_pending_replicas(&r2, &left))
                continue;               /* a scale-up of a running one */
            if (shape == SH_FITS) {
                add_pending_fits(&r, &r2, &left);
                continue;
            }
            w = new_wl();
            rep = 1 + rint_(&r, 12);
            shape_ = rint_(&r, 100);

            if (rep > left)
                rep = left;
            w->ns = rint_(&r, nns - 3);
            w->pc = rpick(&r, pc_w_pending, 4);
            w->kind = w->pc <= PC_BATCH ? K_JOB
                      : rint_(&r, 6) == 0 ? K_STS : K_DEPLOY;
            name_wl(&r, w, NULL);
            w->cpu_m = pend_cpu[rpick(&r, pend_cpu_w, 5)];
            w->mem_mi = (long)((double)w->cpu_m * (2.0 + 2.0 * runit(&r)) *
                               1.024);
            w->mem_mi = (w->mem_mi + 15) / 16 * 16;
            w->ncont = rint_(&r, 3) == 0 ? 2 : 1;
            if (w->ncont == 2) {
                w->side_cpu_m = 50;
                w->side_mem_mi = 64;
            }
            w->cpu_limit = rint_(&r, 3) != 0;
            if (shape_ < 3) {                   /* fits no node at all */
                w->cpu_m = 64000;
                w->mem_mi = 256 * 1024;
            } else if (shape_ < 8 && gpu_left > 0 && w->pc >= PC_PROD) {
                w->gpu = 1;                     /* inference on a GPU */
                w->ns = ns_ml;
                name_wl(&r, w, "serve");
                w->cpu_m = 4000;
                w->mem_mi = 16 * 1024;
                if (rep > gpu_left)
                    rep = gpu_left;
                gpu_left -= rep;
            } else if (shape_ < 25) {
                w->affinity = 2;                /* required zone */
                w->zone = rint_(&r, 3);
            } else if (shape_ < 32) {
                w->affinity = 1;                /* required arch */
            } else if (shape_ < 37) {
                w->affinity = 4;                /* required anti-affinity */
            } else if (shape_ < 50) {
                w->affinity = 3;
            }
            w->pending = rep;
            wl_common(&r, w);
            if (shape == SH_AFFINITY && !w->gpu && w->cpu_m != 64000 &&
                w->affinity != 1 && w->affinity != 2) {
                int x = rint_(&r2, 100), y = rint_(&r2, 100);

                w->comp = 1 + rint_(&r2, 4);
                if (x < 25) {
                    w->affinity = 4;            /* own name, hostname */
                } else if (x < 50) {
                    w->affinity = 4;    /* a component of any namespace */
                    w->anti_comp = 1 + rint_(&r2, 4);
                }
                w->spread = y < 35 ? 1 : y < 45 ? 2 : y < 50 ? 3 : 0;
            }
            w->created = T0 + 210 * 86400 + rint_(&r, 3600);
            for (i = 0; i < rep; i++) {
                struct pod *p = new_pod();

                p->wl = nwls - 1;
                p->ord = i;
                p->node = -1;
            }
            left -= rep;
        }
    }

    /* pod names, seeds, times */
    for (i = 0; i < npods; i++) {
        struct pod *p = &pods[i];
        struct workload *w = &wls[p->wl];
        char s5[6];

        p->seed = mix64(seed0 ^ ((uint64_t)i * 0x9e3779b97f4a7c15ULL));
        suffix5((uint64_t)i, s5);
        if (w->kind == K_STS)
            snprintf(p->name, sizeof(p->name), "%s-%d", w->name, p->ord);
        else if (w->kind == K_DEPLOY)
            snprintf(p->name, sizeof(p->name), "%s-%s-%s", w->name, w->hash,
                     s5);
        else
            snprintf(p->name, sizeof(p->name), "%s-%s", w->name, s5);
        p->created = w->pending ? w->created + (time_t)(p->seed % 600)
                                : w->created + (time_t)(p->seed % (86400 * 5));
    }

    /* PDBs: on workloads with 2+ replicas first, then any; the pdb shape
     * has twice as many, and more (add_shape_pdbs) */
    if (shape == SH_PDB) {
        B *= 2;
        pdbs = xcalloc((size_t)B + 2 * (size_t)nns + (size_t)nwls + 1,
                       sizeof(*pdbs));
    } else {
        pdbs = xcalloc((size_t)B + 1, sizeof(*pdbs));
    }
    {
        int pass;

        for (pass = 0; pass < 2 && npdbs < B; pass++)
            for (k = 0; k < nwls && npdbs < B; k++) {
                struct workload *w = &wls[k];
                struct pdbrec *d;
                int reps = w->running + w->pending, healthy = w->running;

                if (w->kind == K_DS || w->pdb >= 0 || w->kind == K_JOB)
                    continue;
                if (pass == 0 && (reps < 2 || (mix64(seed0 + (uint64_t)k) & 1)))
                    continue;
                d = &pdbs[npdbs];
                d->wl = k;
                w->pdb = npdbs++;
                d->kind = rint_(&r, 4);
                switch (d->kind) {
                case 0:
                    d->val = reps > 1 ? reps - 1 - rint_(&r, 2) : 1;
                    if (d->val < 1)
                        d->val = 1;
                    d->desired = d->val;
                    break;
                case 1:
                    d->val = 50 + 25 * rint_(&r, 2);
                    d->desired = (reps * d->val + 99) / 100;
                    break;
                case 2:
                    d->val = 1;
                    d->desired = reps - 1;
                    break;
                default:
                    d->val = 25;
                    d->desired = reps - (reps * 25 + 99) / 100;
                    break;
                }
                if (d->desired < 0)
                    d->desired = 0;
                d->disruptions = healthy - d->desired;
                if (d->disruptions < 0)
                    d->disruptions = 0;
                ruid(&r, d->uid);
            }
        if (npdbs < B && shape != SH_PDB)
            fprintf(stderr, "gen: only %d workloads could carry a PDB\n",
                    npdbs);
    }
    for (i = 0; i < npdbs; i++)
        pdb_fill(&pdbs[i]);
    if (shape == SH_PDB) {
        add_shape_pdbs(&r2);
        qsort(pdbs, (size_t)npdbs, sizeof(*pdbs), cmp_pdb_name);
    } else {
        qsort(pdbs, (size_t)npdbs, sizeof(*pdbs), cmp_pdb);
    }
    qsort(pods, (size_t)npods, sizeof(*pods), cmp_pod);
    for (i = 1; i < npods; i++)
        if (cmp_pod(&pods[i - 1], &pods[i]) == 0) {
            fprintf(stderr, "gen: duplicate pod %s/%s\n",
                    nsnames[wls[pods[i].wl].ns], pods[i].name);
            exit(1);
        }
    if (shape == SH_NOMINATED)
        nominate(&r2);
}

/* -------------------------------------------------------------- emit */

static const char *const images[] = {
    "docker.io/library/nginx", "docker.io/library/redis",
    "docker.io/library/postgres", "docker.io/envoyproxy/envoy",
    "docker.io/fluent/fluent-bit", "quay.io/prometheus/node-exporter",
    "registry.k8s.io/kube-proxy", "registry.k8s.io/pause",
    "registry.k8s.io/coredns/coredns", "ghcr.io/open-telemetry/collector",
    "docker.io/grafana/promtail", "public.ecr.aws/eks-distro/csi-node",
    "docker.io/library/python", "docker.io/library/golang",
    "docker.io/bitnami/kafka", "docker.io/bitnami/zookeeper",
    "docker.io/library/busybox", "docker.io/istio/proxyv2",
    "quay.io/jetstack/cert-manager-controller", "docker.io/library/node",
    "nvcr.io/nvidia/pytorch", "nvcr.io/nvidia/k8s-device-plugin",
    "docker.io/library/memcached", "docker.io/library/rabbitmq",
    "docker.io/elastic/filebeat", "docker.io/library/openjdk",
    "docker.io/datadog/agent", "docker.io/library/alpine",
    "602401143452.dkr.ecr.eu-west-1.amazonaws.com/amazon-k8s-cni",
    "602401143452.dkr.ecr.eu-west-1.amazonaws.com/eks/coredns"};
#define NIMAGES ((int)(sizeof(images) / sizeof(images[0])))

static void
emit_priority_classes(void)
{
    static const int order[NPC] = {PC_BATCH, PC_BATCH_LOW, PC_PROD,
                                   PC_PROD_CRIT, PC_CLUSTER_CRIT,
                                   PC_NODE_CRIT};
    int i;

    for (i = 0; i < NPC; i++) {
        int c = order[i];
        char uid[37];
        struct rng r = {seed0 + 77 + (uint64_t)c};

        ruid(&r, uid);
        ob(NULL);
        sv("apiVersion", "scheduling.k8s.io/v1");
        sv("description", pcs[c].desc);
        if (pcs[c].global_default)
            bv("globalDefault", 1);
        sv("kind", "PriorityClass");
        ob("metadata");
        tsv("creationTimestamp", T0 - 86400 * 30);
        if (c >= PC_NODE_CRIT) {
            ab("managedFields");
            ob(NULL);
            sv("apiVersion", "scheduling.k8s.io/v1");
            sv("fieldsType", "FieldsV1");
            ob("fieldsV1");
            static const char *const f[] = {"f:description", "f:preemptionPolicy",
                                            "f:value", NULL};
            fleaves(f);
            oe();
            sv("manager", "kube-apiserver");
            sv("operation", "Update");
            tsv("time", T0 - 86400 * 30);
            oe();
            ae();
        }
        sv("name", pcs[c].name);
        {
            char rv[16];

            snprintf(rv, sizeof(rv), "%d", 60 + c);
            sv("resourceVersion", rv);
        }
        sv("uid", uid);
        oe();
        sv("preemptionPolicy", pcs[c].never ? "Never" : "PreemptLowerPriority");
        iv("value", pcs[c].value);
        oe();
    }
}

static void
emit_node(const struct node *n)
{
    struct rng r = {n->seed};
    char ip[20], b[256], cidr[32];
    const int pl = n->pool;
    int i, nimg;
    time_t hb = T0 + 212 * 86400 + (time_t)(n->seed % 3600);

    ip_str(ip, sizeof(ip), n->ip);
    snprintf(cidr, sizeof(cidr), "100.%u.%u.0/24", 64 + n->idx / 256,
             n->idx % 256);
    ob(NULL);
    sv("apiVersion", "v1");
    sv("kind", "Node");
    ob("metadata");
    ob("annotations");
    sv("alpha.kubernetes.io/provided-node-ip", ip);
    snprintf(b, sizeof(b), "{\"ebs.csi.aws.com\":\"%s\"}", n->instance);
    sv("csi.volume.kubernetes.io/nodeid", b);
    sv("node.alpha.kubernetes.io/ttl", "0");
    sv("volumes.kubernetes.io/controller-managed-attach-detach", "true");
    oe();
    tsv("creationTimestamp", n->created);
    ob("labels");
    sv("beta.kubernetes.io/arch", "amd64");
    sv("beta.kubernetes.io/instance-type", pools[pl].itype);
    sv("beta.kubernetes.io/os", "linux");
    sv("eks.amazonaws.com/capacityType", (n->seed & 3) ? "ON_DEMAND" : "SPOT");
    sv("eks.amazonaws.com/nodegroup", pools[pl].nodegroup);
    sv("eks.amazonaws.com/nodegroup-image", "ami-0c7217cdde317cfec");
    sv("failure-domain.beta.kubernetes.io/region", "eu-west-1");
    sv("failure-domain.beta.kubernetes.io/zone", zones[n->zone]);
    sv("k8s.io/cloud-provider-aws", "a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d3");
    sv("kubernetes.io/arch", "amd64");
    sv("kubernetes.io/hostname", n->name);
    sv("kubernetes.io/os", "linux");
    sv("node.kubernetes.io/instance-type", pools[pl].itype);
    if (pl == POOL_GPU)
        sv("nvidia.com/gpu.present", "true");
    sv("topology.ebs.csi.aws.com/zone", zones[n->zone]);
    sv("topology.kubernetes.io/region", "eu-west-1");
    sv("topology.kubernetes.io/zone", zones[n->zone]);
    oe();
    ab("managedFields");
    {
        ob(NULL);
        sv("apiVersion", "v1");
        sv("fieldsType", "FieldsV1");
        ob("fieldsV1");
        ob("f:metadata");
        ob("f:annotations");
        dot();
        static const char *const an[] = {
            "f:alpha.kubernetes.io/provided-node-ip",
            "f:node.alpha.kubernetes.io/ttl",
            "f:volumes.kubernetes.io/controller-managed-attach-detach", NULL};
        fleaves(an);
        oe();
        ob("f:labels");
        dot();
        static const char *const lb[] = {
            "f:beta.kubernetes.io/arch", "f:beta.kubernetes.io/os",
            "f:eks.amazonaws.com/capacityType", "f:eks.amazonaws.com/nodegroup",
            "f:eks.amazonaws.com/nodegroup-image", "f:kubernetes.io/arch",
            "f:kubernetes.io/hostname", "f:kubernetes.io/os", NULL};
        fleaves(lb);
        oe();
        oe();
        ob("f:spec");
        static const char *const sp[] = {"f:providerID", NULL};
        fleaves(sp);
        oe();
        oe();
        sv("manager", "kubelet");
        sv("operation", "Update");
        tsv("time", n->created);
        oe();

        ob(NULL);
        sv("apiVersion", "v1");
        sv("fieldsType", "FieldsV1");
        ob("fieldsV1");
        ob("f:spec");
        static const char *const sp2[] = {"f:podCIDR", NULL};
        fleaves(sp2);
        ob("f:podCIDRs");
        dot();
        snprintf(b, sizeof(b), "v:\"%s\"", cidr);
        emptyobj(b);
        oe();
        if (pl == POOL_GPU)
            emptyobj("f:taints");
        oe();
        oe();
        sv("manager", "kube-controller-manager");
        sv("operation", "Update");
        tsv("time", n->created + 30);
        oe();

        ob(NULL);
        sv("apiVersion", "v1");
        sv("fieldsType", "FieldsV1");
        ob("fieldsV1");
        ob("f:status");
        ob("f:allocatable");
        static const char *const al[] = {"f:cpu", "f:ephemeral-storage",
                                         "f:memory", "f:pods", NULL};
        fleaves(al);
        oe();
        ob("f:conditions");
        static const char *const ct[] = {"DiskPressure", "MemoryPressure",
                                         "PIDPressure", "Ready", NULL};
        for (i = 0; ct[i]; i++) {
            snprintf(b, sizeof(b), "k:{\"type\":\"%s\"}", ct[i]);
            ob(b);
            static const char *const cf[] = {"f:lastHeartbeatTime",
                                             "f:lastTransitionTime",
                                             "f:message", "f:reason",
                                             "f:status", NULL};
            fleaves(cf);
            oe();
        }
        oe();
        emptyobj("f:images");
        ob("f:nodeInfo");
        static const char *const ni[] = {"f:bootID", "f:kernelVersion",
                                         "f:systemUUID", NULL};
        fleaves(ni);
        oe();
        oe();
        oe();
        sv("manager", "kubelet");
        sv("operation", "Update");
        sv("subresource", "status");
        tsv("time", hb);
        oe();
    }
    ae();
    sv("name", n->name);
    snprintf(b, sizeof(b), "%llu", (unsigned long long)(900000000 + n->seed % 90000000));
    sv("resourceVersion", b);
    sv("uid", n->uid);
    oe();

    ob("spec");
    sv("podCIDR", cidr);
    ab("podCIDRs");
    sv(NULL, cidr);
    ae();
    snprintf(b, sizeof(b), "aws:///%s/%s", zones[n->zone], n->instance);
    sv("providerID", b);
    if (pl == POOL_GPU) {
        ab("taints");
        ob(NULL);
        sv("effect", "NoSchedule");
        sv("key", "nvidia.com/gpu");
        sv("value", "present");
        oe();
        ae();
    }
    oe();

    ob("status");
    ab("addresses");
    ob(NULL);
    sv("address", ip);
    sv("type", "InternalIP");
    oe();
    ob(NULL);
    sv("address", n->name);
    sv("type", "InternalDNS");
    oe();
    ob(NULL);
    sv("address", n->name);
    sv("type", "Hostname");
    oe();
    ae();
    for (i = 0; i < 2; i++) {
        ob(i == 0 ? "allocatable" : "capacity");
        cpu_str(b, sizeof(b), i == 0 ? pools[pl].alloc_cpu : pools[pl].cap_cpu);
        sv("cpu", b);
        sv("ephemeral-storage", i == 0 ? "95491281146" : "104845292Ki");
        sv("hugepages-1Gi", "0");
        sv("hugepages-2Mi", "0");
        snprintf(b, sizeof(b), "%ldKi",
                 i == 0 ? pools[pl].alloc_mem_ki : pools[pl].cap_mem_ki);
        sv("memory", b);
        if (pools[pl].gpus)
            sv("nvidia.com/gpu", "1");
        sv("pods", "110");
        oe();
    }
    ab("conditions");
    {
        static const struct {
            const char *type, *status, *reason, *msg;
        } c[4] = {
            {"MemoryPressure", "False", "KubeletHasSufficientMemory",
             "kubelet has sufficient memory available"},
            {"DiskPressure", "False", "KubeletHasNoDiskPressure",
             "kubelet has no disk pressure"},
            {"PIDPressure", "False", "KubeletHasSufficientPID",
             "kubelet has sufficient PID available"},
            {"Ready", "True", "KubeletReady",
             "kubelet is posting ready status"}};

        for (i = 0; i < 4; i++) {
            ob(NULL);
            tsv("lastHeartbeatTime", hb);
            tsv("lastTransitionTime", n->created + 60);
            sv("message", c[i].msg);
            sv("reason", c[i].reason);
            sv("status", c[i].status);
            sv("type", c[i].type);
            oe();
        }
    }
    ae();
    ob("daemonEndpoints");
    ob("kubeletEndpoint");
    iv("Port", 10250);
    oe();
    oe();
    ab("images");
    nimg = 18 + rint_(&r, 12);
    for (i = 0; i < nimg; i++) {
        int im = (int)(((n->seed >> 8) + (uint64_t)i * 7) % NIMAGES);
        char h[65];

        rhex(&r, h, 64);
        ob(NULL);
        ab("names");
        snprintf(b, sizeof(b), "%s@sha256:%s", images[im], h);
        sv(NULL, b);
        snprintf(b, sizeof(b), "%s:v%d.%d.%d", images[im], 1 + im % 3, i % 20,
                 im % 7);
        sv(NULL, b);
        ae();
        iv("sizeBytes", 2000000 + (long long)(rnext(&r) % 900000000));
        oe();
    }
    ae();
    ob("nodeInfo");
    sv("architecture", "amd64");
    sv("bootID", n->boot);
    sv("containerRuntimeVersion", "containerd://1.7.11");
    sv("kernelVersion", "5.10.205-195.807.amzn2.x86_64");
    sv("kubeProxyVersion", "v1.37.0-eks-5e0fdde");
    sv("kubeletVersion", "v1.37.0-eks-5e0fdde");
    sv("machineID", n->machine);
    sv("operatingSystem", "linux");
    sv("osImage", "Amazon Linux 2");
    sv("systemUUID", n->uid);
    oe();
    oe();
    oe();
}

static void
emit_resources(long cpu, long mem, int gpu, int cpu_limit, long lim_cpu,
               long lim_mem)
{
    char b[32];

    ob("resources");
    if (cpu_limit || lim_mem || gpu) {
        ob("limits");
        if (cpu_limit) {
            cpu_str(b, sizeof(b), lim_cpu);
            sv("cpu", b);
        }
        if (lim_mem) {
            mem_str(b, sizeof(b), lim_mem);
            sv("memory", b);
        }
        if (gpu)
            sv("nvidia.com/gpu", "1");
        oe();
    }
    ob("requests");
    cpu_str(b, sizeof(b), cpu);
    sv("cpu", b);
    mem_str(b, sizeof(b), mem);
    sv("memory", b);
    if (gpu)
        sv("nvidia.com/gpu", "1");
    oe();
    oe();
}

static void
emit_probe(const char *k, const char *path, int port, int delay)
{
    ob(k);
    iv("failureThreshold", 3);
    ob("httpGet");
    sv("path", path);
    iv("port", port);
    sv("scheme", "HTTP");
    oe();
    iv("initialDelaySeconds", delay);
    iv("periodSeconds", 10);
    iv("successThreshold", 1);
    iv("timeoutSeconds", 1);
    oe();
}

static void
emit_mf_container(const char *name, int has_limits, int env, int probes,
                  int has_port)
{
    char b[128];
    int i;

    snprintf(b, sizeof(b), "k:{\"name\":\"%s\"}", name);
    ob(b);
    dot();
    if (env) {
        ob("f:env");
        dot();
        for (i = 0; i < env; i++) {
            static const char *const en[] = {"POD_NAME", "POD_NAMESPACE",
                                             "LOG_LEVEL", "OTEL_ENDPOINT",
                                             "GOMAXPROCS", "SERVICE_NAME"};
            snprintf(b, sizeof(b), "k:{\"name\":\"%s\"}", en[i % 6]);
            ob(b);
            dot();
            emptyobj("f:name");
            emptyobj(i < 2 ? "f:valueFrom" : "f:value");
            oe();
        }
        oe();
    }
    static const char *const a[] = {"f:image", "f:imagePullPolicy", NULL};
    fleaves(a);
    if (probes) {
        ob("f:livenessProbe");
        dot();
        static const char *const pr[] = {"f:failureThreshold", NULL};
        fleaves(pr);
        ob("f:httpGet");
        dot();
        static const char *const hg[] = {"f:path", "f:port", "f:scheme", NULL};
        fleaves(hg);
        oe();
        static const char *const pr2[] = {"f:initialDelaySeconds",
                                          "f:periodSeconds",
                                          "f:successThreshold",
                                          "f:timeoutSeconds", NULL};
        fleaves(pr2);
        oe();
    }
    emptyobj("f:name");
    if (has_port) {
        ob("f:ports");
        dot();
        ob("k:{\"containerPort\":8080,\"protocol\":\"TCP\"}");
        dot();
        static const char *const pt[] = {"f:containerPort", "f:name",
                                         "f:protocol", NULL};
        fleaves(pt);
        oe();
        oe();
    }
    ob("f:resources");
    dot();
    if (has_limits) {
        ob("f:limits");
        dot();
        static const char *const lm[] = {"f:cpu", "f:memory", NULL};
        fleaves(lm);
        oe();
    }
    ob("f:requests");
    dot();
    static const char *const rq[] = {"f:cpu", "f:memory", NULL};
    fleaves(rq);
    oe();
    oe();
    static const char *const t[] = {"f:terminationMessagePath",
                                    "f:terminationMessagePolicy", NULL};
    fleaves(t);
    oe();
}

static void
emit_pod(const struct pod *p)
{
    const struct workload *w = &wls[p->wl];
    const struct node *n = p->node >= 0 ? &nodes[p->node] : NULL;
    struct rng r = {p->seed};
    const char *ns = nsnames[w->ns];
    char b[512], uid[37], tok[6], podip[20], hostip[20], owner[64];
    const char *owner_kind;
    int i, env = 0, probes = w->kind != K_JOB && w->kind != K_DS;
    int has_port = w->kind != K_JOB;
    time_t start = p->created + 2 + (time_t)(p->seed % 20);
    time_t ready = start + 5 + (time_t)(p->seed % 40);
    int pending = n == NULL;
    int node_slot = (int)(p->seed % 250);
    const char *labk[8], *labv[8];
    int nlab = 0;
#define LAB(k, v) (labk[nlab] = (k), labv[nlab++] = (v))

    ruid(&r, uid);
    rsafe(&r, tok, 5);
    if (n) {
        ip_str(hostip, sizeof(hostip), n->ip);
        snprintf(podip, sizeof(podip), "100.%u.%u.%d", 64 + n->idx / 256,
                 n->idx % 256, 2 + node_slot);
    }
    if (w->kind == K_DS)
        podip[0] = 0;
    switch (w->kind) {
    case K_DEPLOY:
        owner_kind = "ReplicaSet";
        snprintf(owner, sizeof(owner), "%s-%s", w->name, w->hash);
        break;
    case K_STS:
        owner_kind = "StatefulSet";
        snprintf(owner, sizeof(owner), "%s", w->name);
        break;
    case K_JOB:
        owner_kind = "Job";
        snprintf(owner, sizeof(owner), "%s", w->name);
        break;
    default:
        owner_kind = "DaemonSet";
        snprintf(owner, sizeof(owner), "%s", w->name);
        break;
    }
    if (w->kind != K_DS)
        env = 1 + (int)((p->seed >> 40) % 3);

    ob(NULL);
    sv("apiVersion", "v1");
    sv("kind", "Pod");
    ob("metadata");
    if (w->kind != K_DS) {
        ob("annotations");
        if (w->kind == K_DEPLOY || w->kind == K_STS) {
            tsv("kubectl.kubernetes.io/restartedAt", w->created + 3600);
            sv("prometheus.io/path", "/metrics");
            snprintf(b, sizeof(b), "%d", w->port + 1);
            sv("prometheus.io/port", b);
            sv("prometheus.io/scrape", "true");
        }
        if (w->kind == K_JOB)
            sv("batch.kubernetes.io/job-completion-index", "0");
        oe();
    }
    tsv("creationTimestamp", p->created);
    if (p->terminating) {
        iv("deletionGracePeriodSeconds", 30);
        tsv("deletionTimestamp", T0 + 212 * 86400 + (time_t)(p->seed % 1800));
    }
    if (w->kind != K_STS) {
        if (w->kind == K_DEPLOY)
            snprintf(b, sizeof(b), "%s-%s-", w->name, w->hash);
        else
            snprintf(b, sizeof(b), "%s-", w->name);
        sv("generateName", b);
    }
    {
        char idx[16], rev[80];

        snprintf(idx, sizeof(idx), "%d", p->ord);
        snprintf(rev, sizeof(rev), "%s-%s", w->name, w->hash);
        nlab = 0;
        if (w->comp)
            LAB("app.kubernetes.io/component", compword[w->comp - 1]);
        switch (w->kind) {
        case K_DEPLOY:
            LAB("app.kubernetes.io/instance", w->name);
            LAB("app.kubernetes.io/managed-by", "Helm");
            LAB("app.kubernetes.io/name", w->name);
            LAB("app.kubernetes.io/part-of", ns);
            LAB("pod-template-hash", w->hash);
            LAB("team", ns);
            LAB("version", "v2");
            break;
        case K_STS:
            LAB("app.kubernetes.io/instance", w->name);
            LAB("app.kubernetes.io/name", w->name);
            LAB("apps.kubernetes.io/pod-index", idx);
            LAB("controller-revision-hash", rev);
            LAB("statefulset.kubernetes.io/pod-name", p->name);
            LAB("team", ns);
            break;
        case K_JOB:
            LAB("app.kubernetes.io/name", w->name);
            LAB("batch.kubernetes.io/controller-uid", w->owner_uid);
            LAB("batch.kubernetes.io/job-name", w->name);
            LAB("controller-uid", w->owner_uid);
            LAB("job-name", w->name);
            LAB("team", ns);
            break;
        default:
            LAB("controller-revision-hash", w->hash);
            LAB("k8s-app", w->name);
            LAB("pod-template-generation", "3");
            break;
        }
        ob("labels");
        for (i = 0; i < nlab; i++)
            sv(labk[i], labv[i]);
        oe();
    }

    ab("managedFields");
    ob(NULL);
    sv("apiVersion", "v1");
    sv("fieldsType", "FieldsV1");
    ob("fieldsV1");
    ob("f:metadata");
    if (w->kind != K_DS) {
        ob("f:annotations");
        dot();
        if (w->kind == K_JOB) {
            emptyobj("f:batch.kubernetes.io/job-completion-index");
        } else {
            static const char *const an[] = {
                "f:kubectl.kubernetes.io/restartedAt", "f:prometheus.io/path",
                "f:prometheus.io/port", "f:prometheus.io/scrape", NULL};
            fleaves(an);
        }
        oe();
    }
    emptyobj("f:generateName");
    ob("f:labels");
    dot();
    for (i = 0; i < nlab; i++) {
        snprintf(b, sizeof(b), "f:%s", labk[i]);
        emptyobj(b);
    }
    oe();
    ob("f:ownerReferences");
    dot();
    snprintf(b, sizeof(b), "k:{\"uid\":\"%s\"}", w->owner_uid);
    emptyobj(b);
    oe();
    oe();
    ob("f:spec");
    if (w->affinity || w->kind == K_DS) {
        ob("f:affinity");
        dot();
        emptyobj(w->affinity == 5   ? "f:podAffinity"
                 : w->affinity >= 3 ? "f:podAntiAffinity"
                                    : "f:nodeAffinity");
        oe();
    }
    ob("f:containers");
    emit_mf_container("main", w->cpu_limit, env, probes, has_port);
    if (w->ncont == 2)
        emit_mf_container("istio-proxy", 1, 0, 0, 0);
    oe();
    static const char *const sp[] = {
        "f:dnsPolicy", "f:enableServiceLinks", "f:priorityClassName",
        "f:restartPolicy", "f:schedulerName", "f:securityContext",
        "f:serviceAccount", "f:serviceAccountName",
        "f:terminationGracePeriodSeconds", "f:tolerations", NULL};
    fleaves(sp);
    if (w->spread)
        emptyobj("f:topologySpreadConstraints");
    oe();
    oe();
    sv("manager", "kube-controller-manager");
    sv("operation", "Update");
    tsv("time", p->created);
    oe();

    ob(NULL);
    sv("apiVersion", "v1");
    sv("fieldsType", "FieldsV1");
    ob("fieldsV1");
    ob("f:status");
    ob("f:conditions");
    {
        static const char *const ct[] = {"ContainersReady", "Initialized",
                                         "PodReadyToStartContainers",
                                         "PodScheduled", "Ready", NULL};
        static const char *const cf[] = {"f:lastProbeTime",
                                         "f:lastTransitionTime", "f:message",
                                         "f:reason", "f:status", "f:type",
                                         NULL};
        static const char *const cf_ok[] = {"f:lastProbeTime",
                                            "f:lastTransitionTime",
                                            "f:status", "f:type", NULL};

        for (i = 0; ct[i]; i++) {
            if (pending && strcmp(ct[i], "PodScheduled") != 0)
                continue;
            snprintf(b, sizeof(b), "k:{\"type\":\"%s\"}", ct[i]);
            ob(b);
            dot();
            fleaves(pending ? cf : cf_ok);
            oe();
        }
    }
    oe();
    if (!pending) {
        static const char *const st[] = {"f:containerStatuses", "f:hostIP",
                                         "f:hostIPs", "f:phase", "f:podIP",
                                         NULL};
        fleaves(st);
        ob("f:podIPs");
        dot();
        snprintf(b, sizeof(b), "k:{\"ip\":\"%s\"}",
                 podip[0] ? podip : hostip);
        ob(b);
        dot();
        emptyobj("f:ip");
        oe();
        oe();
        emptyobj("f:startTime");
    }
    oe();
    oe();
    sv("manager", pending ? "kube-scheduler" : "kubelet");
    sv("operation", "Update");
    sv("subresource", "status");
    tsv("time", pending ? p->created + 1 : ready);
    oe();
    ae();

    sv("name", p->name);
    sv("namespace", ns);
    ab("ownerReferences");
    ob(NULL);
    sv("apiVersion", w->kind == K_JOB ? "batch/v1" : "apps/v1");
    bv("blockOwnerDeletion", 1);
    bv("controller", 1);
    sv("kind", owner_kind);
    sv("name", owner);
    sv("uid", w->owner_uid);
    oe();
    ae();
    snprintf(b, sizeof(b), "%llu", (unsigned long long)(800000000 + p->seed % 190000000));
    sv("resourceVersion", b);
    sv("uid", uid);
    oe();

    /* spec */
    ob("spec");
    if (w->kind == K_DS && n) {
        ob("affinity");
        ob("nodeAffinity");
        ob("requiredDuringSchedulingIgnoredDuringExecution");
        ab("nodeSelectorTerms");
        ob(NULL);
        ab("matchFields");
        ob(NULL);
        sv("key", "metadata.name");
        sv("operator", "In");
        ab("values");
        sv(NULL, n->name);
        ae();
        oe();
        ae();
        oe();
        ae();
        oe();
        oe();
        oe();
    } else if (w->affinity == 1 || w->affinity == 2) {
        ob("affinity");
        ob("nodeAffinity");
        ob("requiredDuringSchedulingIgnoredDuringExecution");
        ab("nodeSelectorTerms");
        ob(NULL);
        ab("matchExpressions");
        ob(NULL);
        sv("key", w->affinity == 1 ? "kubernetes.io/arch"
                                   : "topology.kubernetes.io/zone");
        sv("operator", "In");
        ab("values");
        sv(NULL, w->affinity == 1 ? "amd64" : zones[w->zone]);
        ae();
        oe();
        ae();
        oe();
        ae();
        oe();
        oe();
        oe();
    } else if (w->affinity == 5) {
        ob("affinity");
        ob("podAffinity");
        ab("preferredDuringSchedulingIgnoredDuringExecution");
        ob(NULL);
        ob("podAffinityTerm");
        ob("labelSelector");
        ob("matchLabels");
        sv("app.kubernetes.io/name", wls[w->paff_wl].name);
        oe();
        oe();
        sv("topologyKey", "topology.kubernetes.io/zone");
        oe();
        iv("weight", 50);
        oe();
        ae();
        oe();
        oe();
    } else if (w->affinity >= 3) {
        ob("affinity");
        ob("podAntiAffinity");
        if (w->affinity == 3) {
            ab("preferredDuringSchedulingIgnoredDuringExecution");
            ob(NULL);
            ob("podAffinityTerm");
        } else {
            ab("requiredDuringSchedulingIgnoredDuringExecution");
            ob(NULL);
        }
        ob("labelSelector");
        ob("matchLabels");
        if (w->anti_comp)
            sv("app.kubernetes.io/component", compword[w->anti_comp - 1]);
        else
            sv("app.kubernetes.io/name", w->name);
        oe();
        oe();
        if (w->anti_comp)               /* of every namespace */
            emptyobj("namespaceSelector");
        sv("topologyKey", "kubernetes.io/hostname");
        if (w->affinity == 3) {
            oe();
            iv("weight", 100);
        }
        oe();
        ae();
        oe();
        oe();
    }
    ab("containers");
    {
        static const char *const en[] = {"POD_NAME", "POD_NAMESPACE",
                                         "LOG_LEVEL", "OTEL_ENDPOINT",
                                         "GOMAXPROCS", "SERVICE_NAME"};

        ob(NULL);
        if (w->kind == K_JOB && !w->gpu) {
            ab("args");
            sv(NULL, "--input=s3://data-lake/raw/");
            sv(NULL, "--output=s3://data-lake/curated/");
            sv(NULL, "--parallelism=4");
            ae();
        }
        if (env) {
            ab("env");
            for (i = 0; i < env; i++) {
                ob(NULL);
                sv("name", en[i % 6]);
                if (i < 2) {
                    ob("valueFrom");
                    ob("fieldRef");
                    sv("apiVersion", "v1");
                    sv("fieldPath", i == 0 ? "metadata.name"
                                           : "metadata.namespace");
                    oe();
                    oe();
                } else {
                    sv("value", i == 2 ? "info"
                                : i == 3 ? "http://otel-collector.observability:4317"
                                : i == 4 ? "2" : w->name);
                }
                oe();
            }
            ae();
        }
        if (w->image_repo)
            snprintf(b, sizeof(b), "%s:v1.%d.%d", w->image_repo,
                     (int)(w->created % 30), (int)(w->created % 7));
        else
            snprintf(b, sizeof(b),
                     "123456789012.dkr.ecr.eu-west-1.amazonaws.com/%s/%s:"
                     "2025.%02d.%d", ns, w->name, 1 + (int)(w->created % 12),
                     (int)(w->created % 97));
        sv("image", b);
        sv("imagePullPolicy", "IfNotPresent");
        if (probes)
            emit_probe("livenessProbe", "/healthz", w->port, 10);
        sv("name", "main");
        if (has_port) {
            ab("ports");
            ob(NULL);
            iv("containerPort", w->kind == K_DS ? 9100 : 8080);
            if (w->kind == K_DS && strcmp(w->name, "node-exporter") == 0)
                iv("hostPort", 9100);
            sv("name", "http");
            sv("protocol", "TCP");
            oe();
            ae();
        }
        if (probes)
            emit_probe("readinessProbe", "/ready", w->port, 5);
        emit_resources(w->cpu_m, w->mem_mi, w->gpu, w->cpu_limit,
                       w->cpu_m * 2, w->kind == K_DS ? 0 : w->mem_mi);
        if (w->kind == K_DS) {
            ob("securityContext");
            bv("privileged", 1);
            oe();
        }
        sv("terminationMessagePath", "/dev/termination-log");
        sv("terminationMessagePolicy", "File");
        ab("volumeMounts");
        ob(NULL);
        sv("mountPath", "/var/run/secrets/kubernetes.io/serviceaccount");
        snprintf(b, sizeof(b), "kube-api-access-%s", tok);
        sv("name", b);
        bv("readOnly", 1);
        oe();
        ae();
        oe();
        if (w->ncont == 2) {
            ob(NULL);
            ab("args");
            sv(NULL, "proxy");
            sv(NULL, "sidecar");
            sv(NULL, "--domain");
            snprintf(b, sizeof(b), "$(POD_NAMESPACE).svc.cluster.local");
            sv(NULL, b);
            ae();
            sv("image", "docker.io/istio/proxyv2:1.20.2");
            sv("imagePullPolicy", "IfNotPresent");
            sv("name", "istio-proxy");
            emit_resources(w->side_cpu_m, w->side_mem_mi, 0, 1, 2000, 1024);
            sv("terminationMessagePath", "/dev/termination-log");
            sv("terminationMessagePolicy", "File");
            oe();
        }
    }
    ae();
    sv("dnsPolicy", w->kind == K_DS ? "ClusterFirstWithHostNet" : "ClusterFirst");
    bv("enableServiceLinks", 1);
    if (w->kind == K_DS)
        bv("hostNetwork", 1);
    if (n)
        sv("nodeName", n->name);
    sv("preemptionPolicy", pcs[w->pc].never ? "Never" : "PreemptLowerPriority");
    iv("priority", pcs[w->pc].value);
    sv("priorityClassName", pcs[w->pc].name);
    sv("restartPolicy", w->kind == K_JOB ? "Never" : "Always");
    sv("schedulerName", "default-scheduler");
    emptyobj("securityContext");
    snprintf(b, sizeof(b), "%s", w->kind == K_DS ? w->name : "default");
    sv("serviceAccount", b);
    sv("serviceAccountName", b);
    iv("terminationGracePeriodSeconds", 30);
    ab("tolerations");
    if (w->kind == K_DS) {
        ob(NULL);
        sv("operator", "Exists");
        oe();
    } else {
        if (w->gpu) {
            ob(NULL);
            sv("effect", "NoSchedule");
            sv("key", "nvidia.com/gpu");
            sv("operator", "Exists");
            oe();
        }
        for (i = 0; i < 2; i++) {
            ob(NULL);
            sv("effect", "NoExecute");
            sv("key", i == 0 ? "node.kubernetes.io/not-ready"
                             : "node.kubernetes.io/unreachable");
            sv("operator", "Exists");
            iv("tolerationSeconds", 300);
            oe();
        }
    }
    ae();
    if (w->spread) {
        ab("topologySpreadConstraints");
        for (i = 0; i < 2; i++) {
            if (!(w->spread & (1 << i)))
                continue;
            ob(NULL);
            ob("labelSelector");
            ob("matchLabels");
            sv("app.kubernetes.io/name", w->name);
            oe();
            oe();
            iv("maxSkew", 1);
            sv("topologyKey", i == 0 ? "topology.kubernetes.io/zone"
                                     : "kubernetes.io/hostname");
            sv("whenUnsatisfiable", "DoNotSchedule");
            oe();
        }
        ae();
    }
    ab("volumes");
    ob(NULL);
    snprintf(b, sizeof(b), "kube-api-access-%s", tok);
    sv("name", b);
    ob("projected");
    iv("defaultMode", 420);
    ab("sources");
    ob(NULL);
    ob("serviceAccountToken");
    iv("expirationSeconds", 3607);
    sv("path", "token");
    oe();
    oe();
    ob(NULL);
    ob("configMap");
    ab("items");
    ob(NULL);
    sv("key", "ca.crt");
    sv("path", "ca.crt");
    oe();
    ae();
    sv("name", "kube-root-ca.crt");
    oe();
    oe();
    ob(NULL);
    ob("downwardAPI");
    ab("items");
    ob(NULL);
    ob("fieldRef");
    sv("apiVersion", "v1");
    sv("fieldPath", "metadata.namespace");
    oe();
    sv("path", "namespace");
    oe();
    ae();
    oe();
    oe();
    ae();
    oe();
    oe();
    ae();
    oe();

    /* status */
    ob("status");
    ab("conditions");
    if (pending) {
        ob(NULL);
        key("lastProbeTime");
        put("null", 4);
        tsv("lastTransitionTime", p->created + 1);
        snprintf(b, sizeof(b),
                 "0/%d nodes are available: %d Insufficient cpu. preemption: "
                 "0/%d nodes are available: %d No preemption victims found "
                 "for incoming pod.",
                 nnodes, nnodes, nnodes, nnodes);
        sv("message", b);
        sv("reason", "Unschedulable");
        sv("status", "False");
        sv("type", "PodScheduled");
        oe();
    } else {
        static const char *const ct[] = {"PodReadyToStartContainers",
                                         "Initialized", "Ready",
                                         "ContainersReady", "PodScheduled"};

        for (i = 0; i < 5; i++) {
            ob(NULL);
            key("lastProbeTime");
            put("null", 4);
            tsv("lastTransitionTime", i == 2 || i == 3 ? ready
                                      : i == 4 ? p->created + 1 : start);
            sv("status", "True");
            sv("type", ct[i]);
            oe();
        }
        if (p->terminating) {
            ob(NULL);
            key("lastProbeTime");
            put("null", 4);
            tsv("lastTransitionTime", T0 + 212 * 86400 + (time_t)(p->seed % 1800));
            sv("message", "default-scheduler: preempting to accommodate a "
                          "higher priority pod");
            sv("reason", "PreemptionByScheduler");
            sv("status", "True");
            sv("type", "DisruptionTarget");
            oe();
        }
    }
    ae();
    if (!pending) {
        char h[65];

        ab("containerStatuses");
        for (i = 0; i < w->ncont; i++) {
            const int side = i == 1;

            ob(NULL);
            rhex(&r, h, 64);
            snprintf(b, sizeof(b), "containerd://%s", h);
            sv("containerID", b);
            if (side)
                sv("image", "docker.io/istio/proxyv2:1.20.2");
            else if (w->image_repo)
                snprintf(b, sizeof(b), "%s:v1.%d.%d", w->image_repo,
                         (int)(w->created % 30), (int)(w->created % 7)),
                    sv("image", b);
            else
                snprintf(b, sizeof(b),
                         "123456789012.dkr.ecr.eu-west-1.amazonaws.com/%s/%s:"
                         "2025.%02d.%d", ns, w->name,
                         1 + (int)(w->created % 12), (int)(w->created % 97)),
                    sv("image", b);
            rhex(&r, h, 64);
            snprintf(b, sizeof(b), "%s@sha256:%s",
                     side ? "docker.io/istio/proxyv2"
                          : w->image_repo ? w->image_repo
                                          : "123456789012.dkr.ecr.eu-west-1."
                                            "amazonaws.com/app",
                     h);
            sv("imageID", b);
            emptyobj("lastState");
            sv("name", side ? "istio-proxy" : "main");
            bv("ready", 1);
            iv("restartCount", (long long)((p->seed >> (8 * i)) % 7 == 0));
            bv("started", 1);
            ob("state");
            ob("running");
            tsv("startedAt", start + 1);
            oe();
            oe();
            oe();
        }
        ae();
        sv("hostIP", hostip);
        ab("hostIPs");
        ob(NULL);
        sv("ip", hostip);
        oe();
        ae();
    }
    if (p->nominated)
        sv("nominatedNodeName", nodes[p->nominated - 1].name);
    sv("phase", pending ? "Pending" : "Running");
    if (!pending) {
        sv("podIP", podip[0] ? podip : hostip);
        ab("podIPs");
        ob(NULL);
        sv("ip", podip[0] ? podip : hostip);
        oe();
        ae();
    }
    sv("qosClass", "Burstable");
    if (!pending)
        tsv("startTime", start);
    oe();
    oe();
}

static void
emit_pdb(const struct pdbrec *d)
{
    char b[128];
    const char *ns = nsnames[d->ns];

    ob(NULL);
    sv("apiVersion", "policy/v1");
    sv("kind", "PodDisruptionBudget");
    ob("metadata");
    ob("annotations");
    sv("meta.helm.sh/release-name", d->rel);
    sv("meta.helm.sh/release-namespace", ns);
    oe();
    tsv("creationTimestamp", d->created);
    iv("generation", 1);
    ob("labels");
    sv("app.kubernetes.io/managed-by", "Helm");
    sv("app.kubernetes.io/name", d->rel);
    oe();
    ab("managedFields");
    ob(NULL);
    sv("apiVersion", "policy/v1");
    sv("fieldsType", "FieldsV1");
    ob("fieldsV1");
    ob("f:spec");
    emptyobj(d->kind < 2 ? "f:minAvailable" : "f:maxUnavailable");
    ob("f:selector");
    emptyobj("f:matchLabels");
    oe();
    oe();
    oe();
    sv("manager", "helm");
    sv("operation", "Update");
    tsv("time", d->created);
    oe();
    ob(NULL);
    sv("apiVersion", "policy/v1");
    sv("fieldsType", "FieldsV1");
    ob("fieldsV1");
    ob("f:status");
    static const char *const st[] = {"f:conditions", "f:currentHealthy",
                                     "f:desiredHealthy",
                                     "f:disruptionsAllowed", "f:expectedPods",
                                     "f:observedGeneration", NULL};
    fleaves(st);
    oe();
    oe();
    sv("manager", "kube-controller-manager");
    sv("operation", "Update");
    sv("subresource", "status");
    tsv("time", d->created + 120);
    oe();
    ae();
    sv("name", d->name);
    sv("namespace", ns);
    snprintf(b, sizeof(b), "%d", 700000000 + (int)(d - pdbs));
    sv("resourceVersion", b);
    sv("uid", d->uid);
    oe();
    ob("spec");
    switch (d->kind) {
    case 0:
        iv("minAvailable", d->val);
        break;
    case 1:
        snprintf(b, sizeof(b), "%d%%", d->val);
        sv("minAvailable", b);
        break;
    case 2:
        iv("maxUnavailable", d->val);
        break;
    default:
        snprintf(b, sizeof(b), "%d%%", d->val);
        sv("maxUnavailable", b);
        break;
    }
    ob("selector");
    ob("matchLabels");
    sv(d->selkey, d->selval);
    oe();
    oe();
    oe();
    ob("status");
    ab("conditions");
    ob(NULL);
    tsv("lastTransitionTime", d->created + 120);
    sv("message", "");
    iv("observedGeneration", 1);
    sv("reason", d->disruptions > 0 ? "SufficientPods" : "InsufficientPods");
    sv("status", d->disruptions > 0 ? "True" : "False");
    sv("type", "DisruptionAllowed");
    oe();
    ae();
    iv("currentHealthy", d->healthy);
    iv("desiredHealthy", d->desired);
    iv("disruptionsAllowed", d->disruptions);
    iv("expectedPods", d->expected);
    iv("observedGeneration", 1);
    oe();
    oe();
}

/* --------------------------------------------------------------- main */

static _Noreturn void
usage(void)
{
    fputs("usage: gen small|medium|large [--shape NAME] [-o FILE]\n"
          "       gen NODES PODS PENDING PDBS [--shape NAME] [-o FILE]\n"
          "shapes: default fits affinity nominated pdb\n", stderr);
    exit(2);
}

int
main(int argc, char **argv)
{
    int N, P, Q, B, i, nargs = 0;
    const char *out = NULL, *args[4];

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc) {
            for (shape = 0; shape < NSHAPES; shape++)
                if (strcmp(argv[i + 1], shape_names[shape]) == 0)
                    break;
            if (shape == NSHAPES) {
                fprintf(stderr, "gen: unknown shape %s\n", argv[i + 1]);
                usage();
            }
            i++;
        } else if (nargs < 4)
            args[nargs++] = argv[i];
        else
            usage();
    }
    if (nargs == 1 && strcmp(args[0], "small") == 0) {
        N = 50, P = 1500, Q = 100, B = 50;
    } else if (nargs == 1 && strcmp(args[0], "medium") == 0) {
        N = 500, P = 15000, Q = 1000, B = 500;
    } else if (nargs == 1 && strcmp(args[0], "large") == 0) {
        N = 5000, P = 150000, Q = 10000, B = 5000;
    } else if (nargs == 4) {
        N = atoi(args[0]), P = atoi(args[1]), Q = atoi(args[2]);
        B = atoi(args[3]);
        if (N < 3 || P < 1 || Q < 0 || B < 0 || Q > P)
            usage();
    } else {
        usage();
    }
    seed0 = 0x6b7562656374ULL ^ ((uint64_t)N << 32) ^ (uint64_t)P ^
            ((uint64_t)Q << 20) ^ ((uint64_t)B << 44) ^
            ((uint64_t)shape * 0x9e3779b97f4a7c15ULL);
    build(N, P, Q, B);

    ofile = out ? fopen(out, "wb") : stdout;
    if (!ofile) {
        perror(out);
        return 1;
    }
    obuf = malloc(ocap);
    if (!obuf) {
        perror("gen");
        return 1;
    }
    puts_("{\n    \"apiVersion\": \"v1\",\n    \"items\": [");
    depth = 0;
    lv[0].n = 0;
    for (i = 0; i < nnodes; i++)
        emit_node(&nodes[i]);
    for (i = 0; i < npods; i++)
        emit_pod(&pods[i]);
    for (i = 0; i < npdbs; i++)
        emit_pdb(&pdbs[i]);
    emit_priority_classes();
    depth = -1;
    if (lv[0].n)
        puts_("\n    ");
    puts_("],\n    \"kind\": \"List\",\n    \"metadata\": {\n"
          "        \"resourceVersion\": \"\"\n    }\n}\n");
    flush_out();
    if (out && fclose(ofile) != 0) {
        perror(out);
        return 1;
    }
    {
        long free_cpu = 0, alloc = 0;
        int nn = 0;

        for (i = 0; i < nnodes; i++)
            if (nodes[i].pool != POOL_GPU) {
                free_cpu += pools[nodes[i].pool].alloc_cpu - nodes[i].used_cpu;
                alloc += pools[nodes[i].pool].alloc_cpu;
                nn++;
            }
        fprintf(stderr,
                "gen: %d nodes, %d pods (%d pending), %d PDBs, %d "
                "PriorityClasses, %d workloads; %.1f MB; general/large nodes "
                "%.1f%% CPU requested (avg free %ldm), %d pods overcommitted",
                nnodes, npods, Q, npdbs, NPC, nwls, (double)obytes / 1e6,
                100.0 - 100.0 * (double)free_cpu / (double)(alloc ? alloc : 1),
                nn ? free_cpu / nn : 0, unplaced);
        if (shape != SH_DEFAULT) {
            int nom = 0, term = 0;

            for (i = 0; i < npods; i++) {
                nom += pods[i].nominated != 0;
                term += pods[i].terminating;
            }
            fprintf(stderr, "; shape %s", shape_names[shape]);
            if (shape == SH_NOMINATED)
                fprintf(stderr, ", %d nominated, %d terminating victims",
                        nom, term);
        }
        fputc('\n', stderr);
    }
    return 0;
}
