/*
 * gen.c - the random clusters of the self-check (gen.h).
 *
 * Small clusters (2-8 nodes, 3-40 pods, 1-6 of them pending) drawn from
 * small vocabularies (three zones, four apps, three host ports), so that
 * selectors, topology domains and ports collide often: every piece of
 * state the dry run and the queue update in place is exercised
 * (InterPodAffinity and PodTopologySpread PreFilter states, NodeInfo
 * aggregates and host ports, victims, PDB budgets, nominated pods).
 * Every field written is one the loader reads and accepts (core/decode_*.c):
 * a cluster that does not load is a bug of this file.
 */
#include "gen.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MAX_NODES 8
#define MAX_PODS 40

static const char *const namespaces[] = {"default", "prod", "batch"};
static const char *const zones[] = {"zone-a", "zone-b", "zone-c"};
static const char *const apps[] = {"web", "db", "cache", "batch"};
static const char *const tiers[] = {"front", "back"};
static const char *const hashes[] = {"h1", "h2"};
static const int host_ports[] = {8080, 8081, 9090};
static const char *const host_ips[] = {"0.0.0.0", "0.0.0.0", "10.0.0.1",
                                       "10.0.0.2", NULL};
static const char *const cpus[] = {"100m", "250m", "500m", "500m", "1",
                                   "1500m"};
static const char *const mems[] = {"64Mi", "256Mi", "512Mi", "1Gi", "2Gi"};
static const int weights[] = {1, 10, 50, 100};

struct pclass {
    const char *name;
    int value;
};

static const struct pclass classes[] = {
    {"low", 100}, {"mid", 1000}, {"high", 100000}, {"high-never", 100000},
    {"critical", 1000000}
};

static const int raw_priorities[] = {0, 50, 100, 500, 1000, 5000, 100000};

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct gen {
    struct sc_rng *r;
    int nnodes;
    int npods;
    cJSON *items;
    /* running pods with a host port: for deliberate conflicts */
    int port_node[MAX_PODS];
    cJSON *port_entry[MAX_PODS];
    int nport;
};

void
sc_rng_seed(struct sc_rng *r, uint64_t seed)
{
    memset(r, 0, sizeof(*r));
    r->state = seed;
}

void
sc_rng_bytes(struct sc_rng *r, const uint8_t *data, size_t size)
{
    memset(r, 0, sizeof(*r));
    r->data = data;
    r->size = size;
}

static uint64_t
splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint32_t
next_byte(struct sc_rng *r)
{
    return r->pos < r->size ? r->data[r->pos++] : 0;
}

uint32_t
sc_rng_below(struct sc_rng *r, uint32_t n)
{
    uint32_t v;

    if (n == 0)
        return 0;
    if (!r->data)
        return (uint32_t)(splitmix64(&r->state) % n);
    v = next_byte(r);
    if (n > 256)
        v = v << 8 | next_byte(r);
    return v % n;
}

/* true with probability pct/100 */
static bool
chance(struct gen *g, uint32_t pct)
{
    return sc_rng_below(g->r, 100) < pct;
}

static const char *
pick(struct gen *g, const char *const *a, size_t n)
{
    return a[sc_rng_below(g->r, (uint32_t)n)];
}

#define PICK(g, a) pick((g), (a), N(a))

static void
add_time(cJSON *obj, const char *key, int seconds)
{
    char buf[32];

    snprintf(buf, sizeof(buf), "2026-11-24T%02d:%02d:%02dZ",
             8 + seconds / 3600 % 12, seconds / 60 % 60, seconds % 60);
    cJSON_AddStringToObject(obj, key, buf);
}

static cJSON *
add_item(struct gen *g, const char *api, const char *kind, const char *name,
         const char *ns, cJSON **md)
{
    cJSON *it = cJSON_CreateObject();

    cJSON_AddStringToObject(it, "apiVersion", api);
    cJSON_AddStringToObject(it, "kind", kind);
    *md = cJSON_AddObjectToObject(it, "metadata");
    cJSON_AddStringToObject(*md, "name", name);
    if (ns)
        cJSON_AddStringToObject(*md, "namespace", ns);
    cJSON_AddItemToArray(g->items, it);
    return it;
}

static void
gen_namespaces(struct gen *g)
{
    size_t i;

    for (i = 0; i < N(namespaces); i++) {
        cJSON *md, *labels;

        /* sometimes no Namespace object for "batch": a warning only */
        if (i == 2 && chance(g, 15))
            continue;
        add_item(g, "v1", "Namespace", namespaces[i], NULL, &md);
        labels = cJSON_AddObjectToObject(md, "labels");
        cJSON_AddStringToObject(labels, "team", i == 1 ? "a" : "b");
        if (chance(g, 70))
            cJSON_AddStringToObject(labels, "env",
                                    i == 1 ? "prod" : "dev");
    }
}

static void
gen_classes(struct gen *g)
{
    int def = chance(g, 30) ? (int)sc_rng_below(g->r, 3) : -1;
    size_t i;

    for (i = 0; i < N(classes); i++) {
        cJSON *md, *it;

        it = add_item(g, "scheduling.k8s.io/v1", "PriorityClass",
                      classes[i].name, NULL, &md);
        cJSON_AddNumberToObject(it, "value", classes[i].value);
        if ((int)i == def)
            cJSON_AddBoolToObject(it, "globalDefault", true);
        if (strcmp(classes[i].name, "high-never") == 0)
            cJSON_AddStringToObject(it, "preemptionPolicy", "Never");
        else if (chance(g, 20))
            cJSON_AddStringToObject(it, "preemptionPolicy",
                                    "PreemptLowerPriority");
    }
}

static void
gen_node_labels(struct gen *g, cJSON *md, const char *name, int i)
{
    cJSON *labels = cJSON_AddObjectToObject(md, "labels");

    if (chance(g, 90))
        cJSON_AddStringToObject(labels, "kubernetes.io/hostname", name);
    if (chance(g, 85))
        cJSON_AddStringToObject(labels, "topology.kubernetes.io/zone",
                                zones[(i + (int)sc_rng_below(g->r, 2)) %
                                      (int)N(zones)]);
    if (chance(g, 60))
        cJSON_AddStringToObject(labels, "topology.kubernetes.io/region",
                                i % 2 ? "r1" : "r2");
    if (chance(g, 40))
        cJSON_AddStringToObject(labels, "disk", "ssd");
}

static void
gen_node(struct gen *g, int i)
{
    static const char *const alloc_cpu[] = {"2", "4", "4", "8"};
    static const char *const alloc_mem[] = {"4Gi", "8Gi", "16Gi"};
    static const char *const alloc_pods[] = {"4", "8", "110", "110",
                                             "110"};
    static const char *const effects[] = {"NoSchedule", "PreferNoSchedule",
                                          "NoExecute"};
    char name[32];
    cJSON *md, *it, *spec, *alloc;

    snprintf(name, sizeof(name), "node-%d", i);
    it = add_item(g, "v1", "Node", name, NULL, &md);
    gen_node_labels(g, md, name, i);
    spec = cJSON_AddObjectToObject(it, "spec");
    if (chance(g, 10))
        cJSON_AddBoolToObject(spec, "unschedulable", true);
    if (chance(g, 20)) {
        cJSON *t = cJSON_CreateObject();

        cJSON_AddStringToObject(t, "key", "dedicated");
        cJSON_AddStringToObject(t, "value", "gpu");
        cJSON_AddStringToObject(t, "effect", PICK(g, effects));
        cJSON_AddItemToArray(cJSON_AddArrayToObject(spec, "taints"), t);
    }
    alloc = cJSON_AddObjectToObject(cJSON_AddObjectToObject(it, "status"),
                                    "allocatable");
    cJSON_AddStringToObject(alloc, "cpu", PICK(g, alloc_cpu));
    cJSON_AddStringToObject(alloc, "memory", PICK(g, alloc_mem));
    cJSON_AddStringToObject(alloc, "pods", PICK(g, alloc_pods));
}

/* matchLabels or matchExpressions over the pods' labels. */
static cJSON *
gen_selector(struct gen *g, const char *app)
{
    cJSON *sel = cJSON_CreateObject(), *e, *vals;
    uint32_t k = sc_rng_below(g->r, 10);

    if (k < 6) {
        cJSON *ml = cJSON_AddObjectToObject(sel, "matchLabels");

        cJSON_AddStringToObject(ml, "app", app ? app : PICK(g, apps));
        if (chance(g, 20))
            cJSON_AddStringToObject(ml, "tier", PICK(g, tiers));
        return sel;
    }
    if (k == 9)
        return sel;             /* {}: every pod */
    e = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(sel, "matchExpressions"), e);
    if (k < 8) {
        cJSON_AddStringToObject(e, "key", "app");
        cJSON_AddStringToObject(e, "operator", k == 6 ? "In" : "NotIn");
        vals = cJSON_AddArrayToObject(e, "values");
        cJSON_AddItemToArray(vals, cJSON_CreateString(app ? app :
                                                      PICK(g, apps)));
        cJSON_AddItemToArray(vals, cJSON_CreateString(PICK(g, apps)));
    } else {
        cJSON_AddStringToObject(e, "key", "tier");
        cJSON_AddStringToObject(e, "operator",
                                chance(g, 50) ? "Exists" : "DoesNotExist");
    }
    return sel;
}

static const char *
topology_key(struct gen *g)
{
    uint32_t k = sc_rng_below(g->r, 10);

    if (k < 5)
        return "kubernetes.io/hostname";
    return k < 9 ? "topology.kubernetes.io/zone" :
                   "topology.kubernetes.io/region";
}

static cJSON *
gen_affinity_term(struct gen *g, const char *app)
{
    cJSON *t = cJSON_CreateObject();

    cJSON_AddItemToObject(t, "labelSelector", gen_selector(g, app));
    cJSON_AddStringToObject(t, "topologyKey", topology_key(g));
    if (chance(g, 20)) {
        cJSON *ns = cJSON_AddArrayToObject(t, "namespaces");

        cJSON_AddItemToArray(ns, cJSON_CreateString(PICK(g, namespaces)));
        if (chance(g, 50))
            cJSON_AddItemToArray(ns, cJSON_CreateString(PICK(g,
                                                             namespaces)));
    }
    if (chance(g, 20)) {
        cJSON *nss = cJSON_AddObjectToObject(t, "namespaceSelector");

        if (chance(g, 60))
            cJSON_AddStringToObject(cJSON_AddObjectToObject(nss,
                                                            "matchLabels"),
                                    "team", chance(g, 50) ? "a" : "b");
    }
    return t;
}

static void
gen_terms(struct gen *g, cJSON *parent, bool weighted, const char *app)
{
    cJSON *arr = cJSON_AddArrayToObject(parent, weighted ?
        "preferredDuringSchedulingIgnoredDuringExecution" :
        "requiredDuringSchedulingIgnoredDuringExecution");
    uint32_t i, n = 1 + sc_rng_below(g->r, 2);

    for (i = 0; i < n; i++) {
        cJSON *term = gen_affinity_term(g, chance(g, 60) ? app : NULL);

        if (weighted) {
            cJSON *w = cJSON_CreateObject();

            /* few weights: equal terms of several pods (one interned
             * term's pods in a domain, term_domains.h) are common */
            cJSON_AddNumberToObject(w, "weight",
                                    weights[sc_rng_below(g->r, N(weights))]);
            cJSON_AddItemToObject(w, "podAffinityTerm", term);
            term = w;
        }
        cJSON_AddItemToArray(arr, term);
    }
}

static void
gen_node_affinity(struct gen *g, cJSON *aff)
{
    cJSON *na = cJSON_AddObjectToObject(aff, "nodeAffinity");
    cJSON *terms, *term, *e, *vals;

    terms = cJSON_AddArrayToObject(cJSON_AddObjectToObject(na,
        "requiredDuringSchedulingIgnoredDuringExecution"),
        "nodeSelectorTerms");
    term = cJSON_CreateObject();
    cJSON_AddItemToArray(terms, term);
    e = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(term, "matchExpressions"),
                         e);
    cJSON_AddStringToObject(e, "key", "topology.kubernetes.io/zone");
    cJSON_AddStringToObject(e, "operator", chance(g, 70) ? "In" : "NotIn");
    vals = cJSON_AddArrayToObject(e, "values");
    cJSON_AddItemToArray(vals, cJSON_CreateString(PICK(g, zones)));
    cJSON_AddItemToArray(vals, cJSON_CreateString(PICK(g, zones)));
}

static void
gen_affinity(struct gen *g, cJSON *spec, const char *app)
{
    cJSON *aff = cJSON_AddObjectToObject(spec, "affinity");
    cJSON *pa = NULL, *paa = NULL;

    if (chance(g, 25))
        gen_node_affinity(g, aff);
    if (chance(g, 40))
        gen_terms(g, pa = cJSON_AddObjectToObject(aff, "podAffinity"), false,
                  app);
    if (chance(g, 50))
        gen_terms(g, paa = cJSON_AddObjectToObject(aff, "podAntiAffinity"),
                  false, app);
    if (chance(g, 30))
        gen_terms(g, pa ? pa : (pa = cJSON_AddObjectToObject(aff,
                                                             "podAffinity")),
                  true, app);
    if (chance(g, 30))
        gen_terms(g, paa ? paa : cJSON_AddObjectToObject(aff,
                                                         "podAntiAffinity"),
                  true, app);
}

static void
gen_spread(struct gen *g, cJSON *spec, const char *app)
{
    static const char *const policies[] = {"Honor", "Ignore", NULL};
    cJSON *arr = cJSON_AddArrayToObject(spec, "topologySpreadConstraints");
    uint32_t i, n = 1 + sc_rng_below(g->r, 2);

    for (i = 0; i < n; i++) {
        cJSON *c = cJSON_CreateObject();
        bool hard = chance(g, 60);
        const char *nap = PICK(g, policies), *ntp = PICK(g, policies);

        cJSON_AddNumberToObject(c, "maxSkew", 1 + sc_rng_below(g->r, 2));
        cJSON_AddStringToObject(c, "topologyKey", i == 0 ?
                                "topology.kubernetes.io/zone" :
                                "kubernetes.io/hostname");
        cJSON_AddStringToObject(c, "whenUnsatisfiable", hard ?
                                "DoNotSchedule" : "ScheduleAnyway");
        if (hard && chance(g, 25))
            cJSON_AddNumberToObject(c, "minDomains",
                                    1 + sc_rng_below(g->r, 4));
        if (nap)
            cJSON_AddStringToObject(c, "nodeAffinityPolicy", nap);
        if (ntp)
            cJSON_AddStringToObject(c, "nodeTaintsPolicy", ntp);
        cJSON_AddItemToObject(c, "labelSelector",
                              gen_selector(g, chance(g, 80) ? app : NULL));
        if (chance(g, 20))
            cJSON_AddItemToArray(cJSON_AddArrayToObject(c, "matchLabelKeys"),
                                 cJSON_CreateString("pod-template-hash"));
        cJSON_AddItemToArray(arr, c);
    }
}

static cJSON *
gen_port(struct gen *g)
{
    cJSON *p = cJSON_CreateObject();
    int port = host_ports[sc_rng_below(g->r, N(host_ports))];
    const char *ip = PICK(g, host_ips);

    cJSON_AddNumberToObject(p, "containerPort", port);
    cJSON_AddNumberToObject(p, "hostPort", port);
    cJSON_AddStringToObject(p, "protocol", chance(g, 70) ? "TCP" : "UDP");
    if (ip)
        cJSON_AddStringToObject(p, "hostIP", ip);
    return p;
}

static cJSON *
gen_container(struct gen *g, int i)
{
    cJSON *c = cJSON_CreateObject(), *res, *req;
    char name[16];

    snprintf(name, sizeof(name), "c%d", i);
    cJSON_AddStringToObject(c, "name", name);
    cJSON_AddStringToObject(c, "image", "registry.example/app:1");
    res = cJSON_AddObjectToObject(c, "resources");
    req = cJSON_AddObjectToObject(res, "requests");
    cJSON_AddStringToObject(req, "cpu", PICK(g, cpus));
    if (chance(g, 80))
        cJSON_AddStringToObject(req, "memory", PICK(g, mems));
    if (chance(g, 5))
        cJSON_AddStringToObject(req, "pods", "1");
    if (chance(g, 15))
        cJSON_AddStringToObject(cJSON_AddObjectToObject(res, "limits"),
                                "cpu", "2");
    return c;
}

static void
gen_priority(struct gen *g, cJSON *spec, bool pending)
{
    uint32_t k = sc_rng_below(g->r, 20);
    const struct pclass *pc = &classes[sc_rng_below(g->r, N(classes))];

    /* pending pods: mostly above the running ones, so preemption helps */
    if (pending && chance(g, 50))
        pc = &classes[N(classes) - 1 - 2 * sc_rng_below(g->r, 2)];

    if (k < 8) {
        cJSON_AddStringToObject(spec, "priorityClassName", pc->name);
        cJSON_AddNumberToObject(spec, "priority", pc->value);
    } else if (k < 12) {
        cJSON_AddStringToObject(spec, "priorityClassName", pc->name);
    } else if (k < 17) {
        cJSON_AddNumberToObject(spec, "priority",
                                raw_priorities[sc_rng_below(
                                    g->r, N(raw_priorities))]);
    }
    if (pending && chance(g, 10))
        cJSON_AddStringToObject(spec, "preemptionPolicy", "Never");
    else if (chance(g, 5))
        cJSON_AddStringToObject(spec, "preemptionPolicy",
                                "PreemptLowerPriority");
}

static void
add_condition(cJSON *conds, const char *type, const char *status,
              const char *reason)
{
    cJSON *c = cJSON_CreateObject();

    cJSON_AddStringToObject(c, "type", type);
    cJSON_AddStringToObject(c, "status", status);
    if (reason)
        cJSON_AddStringToObject(c, "reason", reason);
    cJSON_AddItemToArray(conds, c);
}

static void
gen_running_status(struct gen *g, cJSON *md, cJSON *status, int t)
{
    cJSON *conds = cJSON_AddArrayToObject(status, "conditions");
    uint32_t ready = sc_rng_below(g->r, 10);

    cJSON_AddStringToObject(status, "phase", "Running");
    add_time(status, "startTime", t + 5);
    if (ready < 7)
        add_condition(conds, "Ready", "True", NULL);
    else if (ready < 9)
        add_condition(conds, "Ready", "False", "ContainersNotReady");
    if (chance(g, 10)) {
        add_time(md, "deletionTimestamp", t + 600);
        cJSON_AddNumberToObject(md, "deletionGracePeriodSeconds", 30);
        if (chance(g, 50))
            add_condition(conds, "DisruptionTarget", "True",
                          "PreemptionByScheduler");
    }
}

static void
gen_pending_status(struct gen *g, cJSON *status)
{
    cJSON_AddStringToObject(status, "phase", "Pending");
    if (chance(g, 35)) {
        char node[32];

        snprintf(node, sizeof(node), "node-%u",
                 sc_rng_below(g->r, (uint32_t)g->nnodes));
        cJSON_AddStringToObject(status, "nominatedNodeName", node);
    }
    if (chance(g, 50))
        add_condition(cJSON_AddArrayToObject(status, "conditions"),
                      "PodScheduled", "False", "Unschedulable");
}

static void
gen_labels(struct gen *g, cJSON *md, const char *app)
{
    cJSON *labels = cJSON_AddObjectToObject(md, "labels");

    cJSON_AddStringToObject(labels, "app", app);
    if (chance(g, 60))
        cJSON_AddStringToObject(labels, "tier", PICK(g, tiers));
    if (chance(g, 50))
        cJSON_AddStringToObject(labels, "pod-template-hash",
                                PICK(g, hashes));
}

/* The host ports of a pod; a running one may copy an earlier one's. */
static void
gen_ports(struct gen *g, cJSON *container, cJSON *spec, bool running)
{
    cJSON *ports = NULL;
    int node = -1;

    if (running && g->nport && chance(g, 10)) {
        int k = (int)sc_rng_below(g->r, (uint32_t)g->nport);

        ports = cJSON_AddArrayToObject(container, "ports");
        cJSON_AddItemToArray(ports, cJSON_Duplicate(g->port_entry[k], 1));
        node = g->port_node[k];
    } else if (chance(g, 25)) {
        ports = cJSON_AddArrayToObject(container, "ports");
        cJSON_AddItemToArray(ports, gen_port(g));
        if (chance(g, 25))
            cJSON_AddItemToArray(ports, gen_port(g));
    }
    if (!running || !ports)
        return;
    if (node >= 0) {
        char name[32];

        snprintf(name, sizeof(name), "node-%d", node);
        cJSON_ReplaceItemInObjectCaseSensitive(spec, "nodeName",
                                               cJSON_CreateString(name));
    } else {
        const cJSON *nn = cJSON_GetObjectItemCaseSensitive(spec, "nodeName");

        sscanf(nn->valuestring, "node-%d", &node);
    }
    g->port_node[g->nport] = node;
    g->port_entry[g->nport++] = cJSON_GetArrayItem(ports, 0);
}

static void
gen_pod_spec(struct gen *g, cJSON *spec, const char *app, bool running)
{
    cJSON *containers;
    uint32_t i, nc = 1 + (chance(g, 30) ? 1 : 0);

    cJSON_AddStringToObject(spec, "schedulerName", "default-scheduler");
    if (running) {
        char node[32];

        snprintf(node, sizeof(node), "node-%u",
                 sc_rng_below(g->r, (uint32_t)g->nnodes));
        cJSON_AddStringToObject(spec, "nodeName", node);
    }
    gen_priority(g, spec, !running);
    containers = cJSON_AddArrayToObject(spec, "containers");
    for (i = 0; i < nc; i++)
        cJSON_AddItemToArray(containers, gen_container(g, (int)i));
    gen_ports(g, cJSON_GetArrayItem(containers, 0), spec, running);
    if (chance(g, 20)) {
        cJSON *t = cJSON_CreateObject();

        cJSON_AddStringToObject(t, "key", "dedicated");
        if (chance(g, 50)) {
            cJSON_AddStringToObject(t, "operator", "Equal");
            cJSON_AddStringToObject(t, "value", "gpu");
        } else {
            cJSON_AddStringToObject(t, "operator", "Exists");
        }
        cJSON_AddItemToArray(cJSON_AddArrayToObject(spec, "tolerations"), t);
    }
    if (chance(g, 8))
        cJSON_AddStringToObject(cJSON_AddObjectToObject(spec,
                                                        "nodeSelector"),
                                "disk", "ssd");
    if (chance(g, running ? 25 : 45))
        gen_affinity(g, spec, app);
    if (chance(g, running ? 20 : 40))
        gen_spread(g, spec, app);
}

static void
gen_pod(struct gen *g, int i, bool running)
{
    char name[32], uid[48];
    const char *app = PICK(g, apps);
    const char *ns = namespaces[sc_rng_below(g->r, 10) < 6 ? 0 :
                                1 + sc_rng_below(g->r, 2)];
    int t = (int)sc_rng_below(g->r, 40) * 60;
    cJSON *md, *it;

    snprintf(name, sizeof(name), "%s-%d", app, i);
    snprintf(uid, sizeof(uid), "00000000-0000-0000-0000-%012d", i);
    it = add_item(g, "v1", "Pod", name, ns, &md);
    cJSON_AddStringToObject(md, "uid", uid);
    add_time(md, "creationTimestamp", t);
    gen_labels(g, md, app);
    gen_pod_spec(g, cJSON_AddObjectToObject(it, "spec"), app, running);
    if (running)
        gen_running_status(g, md, cJSON_AddObjectToObject(it, "status"), t);
    else
        gen_pending_status(g, cJSON_AddObjectToObject(it, "status"));
}

/* A PDB over an app of a namespace; disruptedPods names some of its pods. */
static void
gen_pdb(struct gen *g, int i)
{
    char name[32];
    const char *ns = sc_rng_below(g->r, 10) < 6 ? "default" :
                     PICK(g, namespaces);
    const char *app = PICK(g, apps);
    cJSON *md, *it, *spec, *status, *pod, *dp;

    snprintf(name, sizeof(name), "pdb-%d", i);
    it = add_item(g, "policy/v1", "PodDisruptionBudget", name, ns, &md);
    spec = cJSON_AddObjectToObject(it, "spec");
    if (chance(g, 50))
        cJSON_AddNumberToObject(spec, "minAvailable",
                                sc_rng_below(g->r, 3));
    else if (chance(g, 70))
        cJSON_AddNumberToObject(spec, "maxUnavailable",
                                1 + sc_rng_below(g->r, 2));
    else
        cJSON_AddStringToObject(spec, "minAvailable", "50%");
    cJSON_AddItemToObject(spec, "selector", gen_selector(g, app));
    status = cJSON_AddObjectToObject(it, "status");
    cJSON_AddNumberToObject(status, "disruptionsAllowed",
                            sc_rng_below(g->r, 3));
    if (!chance(g, 25))
        return;
    dp = cJSON_AddObjectToObject(status, "disruptedPods");
    cJSON_ArrayForEach(pod, g->items) {
        const cJSON *pmd = cJSON_GetObjectItemCaseSensitive(pod, "metadata");
        const cJSON *pns = cJSON_GetObjectItemCaseSensitive(pmd,
                                                            "namespace");
        const cJSON *pname = cJSON_GetObjectItemCaseSensitive(pmd, "name");
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(pod, "kind");

        if (strcmp(kind->valuestring, "Pod") != 0 ||
            strcmp(pns->valuestring, ns) != 0 || !chance(g, 30))
            continue;
        add_time(dp, pname->valuestring, 1800);
    }
}

/*
 * More pending replicas of the last pending pod (a scaled-up workload:
 * same spec and labels, other names): pods that ask the same on every
 * node, as SelectVictimsOnNode's victim memo keeps answers for.  Drawn
 * after everything else, so the rest of a seed's cluster is as before.
 */
static void
gen_replicas(struct gen *g)
{
    cJSON *it, *last = NULL;
    uint32_t k, n;

    cJSON_ArrayForEach(it, g->items) {
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(it, "kind");
        const cJSON *spec = cJSON_GetObjectItemCaseSensitive(it, "spec");

        if (strcmp(kind->valuestring, "Pod") == 0 &&
            !cJSON_GetObjectItemCaseSensitive(spec, "nodeName"))
            last = it;
    }
    if (!last || !chance(g, 40))
        return;
    n = 1 + sc_rng_below(g->r, 3);
    for (k = 0; k < n; k++) {
        cJSON *dup = cJSON_Duplicate(last, 1);
        cJSON *md = cJSON_GetObjectItemCaseSensitive(dup, "metadata");
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(md, "name");
        char buf[64], uid[48];

        snprintf(buf, sizeof(buf), "%s-r%u", name->valuestring, k);
        snprintf(uid, sizeof(uid), "00000000-0000-0000-0001-%012u", k);
        cJSON_ReplaceItemInObjectCaseSensitive(md, "name",
                                               cJSON_CreateString(buf));
        cJSON_ReplaceItemInObjectCaseSensitive(md, "uid",
                                               cJSON_CreateString(uid));
        cJSON_AddItemToArray(g->items, dup);
    }
}

/*
 * A pod of the shapes below, in namespace default: app label, priority
 * class, one container asking cpu; on node-NODE (Running since t + 5,
 * Ready or not) or pending (node < 0), created at t.
 */
static cJSON *
shape_pod(struct gen *g, const char *name, const char *app,
          const struct pclass *pc, const char *cpu, int node, int t,
          bool ready)
{
    char buf[48];
    cJSON *md, *it, *spec, *req, *c, *status;

    it = add_item(g, "v1", "Pod", name, "default", &md);
    snprintf(buf, sizeof(buf), "00000000-0000-0002-%s", name);
    cJSON_AddStringToObject(md, "uid", buf);
    add_time(md, "creationTimestamp", t);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(md, "labels"), "app",
                            app);
    spec = cJSON_AddObjectToObject(it, "spec");
    cJSON_AddStringToObject(spec, "schedulerName", "default-scheduler");
    cJSON_AddStringToObject(spec, "priorityClassName", pc->name);
    cJSON_AddNumberToObject(spec, "priority", pc->value);
    c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "name", "c0");
    cJSON_AddStringToObject(c, "image", "registry.example/app:1");
    req = cJSON_AddObjectToObject(cJSON_AddObjectToObject(c, "resources"),
                                  "requests");
    cJSON_AddStringToObject(req, "cpu", cpu);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(spec, "containers"), c);
    status = cJSON_AddObjectToObject(it, "status");
    if (node < 0) {
        cJSON_AddStringToObject(status, "phase", "Pending");
        return it;
    }
    snprintf(buf, sizeof(buf), "node-%d", node);
    cJSON_AddStringToObject(spec, "nodeName", buf);
    cJSON_AddStringToObject(status, "phase", "Running");
    add_time(status, "startTime", t + 5);
    add_condition(cJSON_AddArrayToObject(status, "conditions"), "Ready",
                  ready ? "True" : "False", NULL);
    return it;
}

/*
 * The shapes the victim memo's cache mutants needed (issue 24; see
 * tests/mutation): a workload "wl" whose running replicas, on several
 * nodes, share one PDB (a preemption on one node spends the budget that
 * the replicas on the others are judged by), and whose pending
 * replicas, of one signature, preempt them one after the other; and,
 * queued between two of those, a pod of the same priority nominated to
 * some node, whose nomination goes when it is placed elsewhere or found
 * unschedulable, the pods of that node unchanged.  Drawn after
 * everything else: the rest of a seed's cluster is as before.
 */
static void
gen_workload_shapes(struct gen *g)
{
    static const char *const run_cpu[] = {"500m", "1", "1500m"};
    static const char *const new_cpu[] = {"1", "1500m", "2"};
    const char *rcpu, *ncpu;
    char name[32];
    cJSON *md, *it, *spec, *sel, *status;
    uint32_t k, nrun, nnew;
    int first = (int)sc_rng_below(g->r, (uint32_t)g->nnodes);

    if (!chance(g, 35))
        return;
    rcpu = PICK(g, run_cpu);
    ncpu = PICK(g, new_cpu);
    nrun = 2 + sc_rng_below(g->r, 3);
    nnew = 2 + sc_rng_below(g->r, 2);
    for (k = 0; k < nrun; k++) {
        snprintf(name, sizeof(name), "wl-run-%u", k);
        shape_pod(g, name, "wl", &classes[0], rcpu,
                  (first + (int)k) % g->nnodes, 60 * (int)k, chance(g, 85));
    }
    it = add_item(g, "policy/v1", "PodDisruptionBudget", "pdb-wl",
                  "default", &md);
    spec = cJSON_AddObjectToObject(it, "spec");
    cJSON_AddNumberToObject(spec, "maxUnavailable", 1);
    sel = cJSON_AddObjectToObject(cJSON_AddObjectToObject(spec, "selector"),
                                  "matchLabels");
    cJSON_AddStringToObject(sel, "app", "wl");
    status = cJSON_AddObjectToObject(it, "status");
    cJSON_AddNumberToObject(status, "disruptionsAllowed",
                            sc_rng_below(g->r, 3));
    if (chance(g, 20))
        add_time(cJSON_AddObjectToObject(status, "disruptedPods"),
                 "wl-run-0", 1800);
    for (k = 0; k < nnew; k++) {
        snprintf(name, sizeof(name), "wl-%u", k);
        shape_pod(g, name, "wl", &classes[2], ncpu, -1, 2500 + 10 * (int)k,
                  false);
    }
    if (chance(g, 60)) {
        it = shape_pod(g, "wl-nominated", "other", &classes[2],
                       PICK(g, cpus), -1, 2505, false);
        snprintf(name, sizeof(name), "node-%u",
                 sc_rng_below(g->r, (uint32_t)g->nnodes));
        cJSON_AddStringToObject(cJSON_GetObjectItemCaseSensitive(it,
                                                                 "status"),
                                "nominatedNodeName", name);
    }
}

cJSON *
sc_gen_cluster(struct sc_rng *r)
{
    struct gen g;
    cJSON *list = cJSON_CreateObject();
    int i, npending, npdbs;

    memset(&g, 0, sizeof(g));
    g.r = r;
    cJSON_AddStringToObject(list, "apiVersion", "v1");
    cJSON_AddStringToObject(list, "kind", "List");
    g.items = cJSON_AddArrayToObject(list, "items");
    g.nnodes = 2 + (int)sc_rng_below(r, MAX_NODES - 1);
    g.npods = 3 + (int)sc_rng_below(r, MAX_PODS - 2);
    npending = 1 + (int)sc_rng_below(r, g.npods < 6 ? (uint32_t)g.npods : 6);
    npdbs = (int)sc_rng_below(r, 4);
    gen_namespaces(&g);
    gen_classes(&g);
    for (i = 0; i < g.nnodes; i++)
        gen_node(&g, i);
    for (i = 0; i < g.npods; i++)
        gen_pod(&g, i, i < g.npods - npending);
    for (i = 0; i < npdbs; i++)
        gen_pdb(&g, i);
    gen_replicas(&g);
    gen_workload_shapes(&g);
    return list;
}
