/*
 * diagnosis_detail.c - the specifics behind the Filter reasons that the
 * diagnosis (diagnosis.c, issue 26) only counted, and the PDBs that weigh
 * on the candidates of a preemption:
 *
 *   PodTopologySpread  per DoNotSchedule constraint the domains and their
 *                      matching pods as the plugin's PreFilter counts them
 *                      (podtopologyspread/filtering.go calPreFilterState:
 *                      nodes with every topology key, node inclusion
 *                      policies, countPodsMatchSelector), the global
 *                      minimum (minMatchNum: 0 below minDomains) and the
 *                      domains where matching + self - minimum > maxSkew,
 *                      the Filter's test; nodes without the key;
 *   InterPodAffinity   the pod's required affinity and anti-affinity terms
 *                      with the pods each matches (AffinityTerm.Matches)
 *                      and their topology domains; for "existing pods
 *                      anti-affinity", the existing pods whose required
 *                      anti-affinity term matches the pod
 *                      (interpodaffinity/filtering.go
 *                      getExistingAntiAffinityCounts);
 *   volume plugins     each claim of the pod: found or not, StorageClass
 *                      and volumeBindingMode, the bound PV, its zone and
 *                      the nodes its required node affinity admits, the
 *                      pods on nodes using the same claim; NodeVolumeLimits
 *                      the driver over its CSINode allocatable.count
 *                      (nodevolumelimits/csi.go) with the counts;
 *   NodeUnschedulable  the cordoned nodes, and that the pod does not
 *                      tolerate node.kubernetes.io/unschedulable;
 *   NodeName           the node spec.nodeName names, and whether it exists;
 *   pdbBlocks          per candidate, the PDBs its victims would violate
 *                      (default_preemption.go filterPodsWithPDBViolation:
 *                      more victims under a PDB than its disruptionsAllowed
 *                      at the pod's turn), the victims under each and the
 *                      pods it covers.
 *
 * Counts are those of the cluster at the pod's turn (queue mode: after
 * the pods before it), without the nominated pods the Filter adds on
 * each node.  Lists are capped (LIST_JSON in JSON, LIST_TEXT in words)
 * with their full count beside them, so that 2,000 hostname domains stay
 * a line.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "corev1.h"
#include "diagnosis_detail.h"
#include "plugins.h"
#include "pool.h"
#include "shortcut.h"
#include "podinfo.h"
#include "selcount.h"
#include "spread.h"
#include "strmap.h"
#include "volume.h"

#define LIST_JSON 20
#define LIST_TEXT 5

#define UNSCHEDULABLE_TAINT "node.kubernetes.io/unschedulable"

/* ---- a label selector in words: labels.Selector's String() form ---- */

static void
put_values(struct kp_buf *b, const struct kp_requirement *r)
{
    size_t i;

    for (i = 0; i < r->nvalues; i++)
        kp_buf_printf(b, "%s%s", i ? "," : "", r->values[i]);
}

static void
put_selector(struct kp_buf *b, const struct kp_selector *s)
{
    size_t i;

    if (s->is_null) {
        kp_buf_puts(b, "<none>");
        return;
    }
    if (s->nreq == 0) {
        kp_buf_puts(b, "<everything>");
        return;
    }
    for (i = 0; i < s->nreq; i++) {
        const struct kp_requirement *r = &s->reqs[i];

        kp_buf_puts(b, i ? "," : "");
        switch (r->op) {
        case KP_OP_IN:
            if (r->nvalues == 1) {
                kp_buf_printf(b, "%s=%s", r->key, r->values[0]);
                break;
            }
            kp_buf_printf(b, "%s in (", r->key);
            put_values(b, r);
            kp_buf_puts(b, ")");
            break;
        case KP_OP_NOT_IN:
            kp_buf_printf(b, "%s notin (", r->key);
            put_values(b, r);
            kp_buf_puts(b, ")");
            break;
        case KP_OP_EXISTS:
            kp_buf_puts(b, r->key);
            break;
        case KP_OP_DOES_NOT_EXIST:
            kp_buf_printf(b, "!%s", r->key);
            break;
        case KP_OP_GT:
        case KP_OP_LT:
            kp_buf_printf(b, "%s%s", r->key, r->op == KP_OP_GT ? ">" : "<");
            put_values(b, r);
            break;
        }
    }
}

/* the selector as a JSON string member value and in tx */
static void
selector_both(const struct kp_selector *s, struct kp_buf *js,
              struct kp_buf *tx)
{
    struct kp_buf t;

    kp_buf_init(&t);
    put_selector(&t, s);
    kp_buf_json_str(js, t.data);
    kp_buf_puts(tx, t.data);
    kp_buf_release(&t);
}

static void
selector_json(const struct kp_selector *s, struct kp_buf *js)
{
    struct kp_buf t;

    kp_buf_init(&t);
    put_selector(&t, s);
    kp_buf_json_str(js, t.data);
    kp_buf_release(&t);
}

/* ---- domains: a topology value and what it counts, in first-seen order */

struct domains {
    struct kp_strmap idx;       /* value -> position + 1 */
    size_t n, cap;
    const char **value;
    int64_t *count;
};

static void
domains_init(struct domains *d)
{
    memset(d, 0, sizeof(*d));
    kp_strmap_init(&d->idx);
}

static void
domains_release(struct domains *d)
{
    kp_strmap_release(&d->idx);
    free(d->value);
    free(d->count);
}

static void
domains_add(struct domains *d, const char *value, int64_t n)
{
    uintptr_t at = (uintptr_t)kp_strmap_get(&d->idx, value);

    if (at == 0) {
        if (d->n == d->cap) {
            d->cap = d->cap ? d->cap * 2 : 16;
            d->value = kp_xrealloc(d->value, d->cap * sizeof(*d->value));
            d->count = kp_xrealloc(d->count, d->cap * sizeof(*d->count));
        }
        d->value[d->n] = value;
        d->count[d->n] = 0;
        at = ++d->n;
        kp_strmap_put(&d->idx, value, (void *)at);
    }
    d->count[at - 1] += n;
}

/* "a (2), b (1), 3 more"; JSON [{"value": "a", key: 2}, ...] */
static void
domains_put(const struct domains *d, const char *key, struct kp_buf *js,
            struct kp_buf *tx)
{
    size_t i;

    kp_buf_puts(js, "[");
    for (i = 0; i < d->n && i < LIST_JSON; i++) {
        kp_buf_puts(js, i ? ", {\"value\": " : "{\"value\": ");
        kp_buf_json_str(js, d->value[i]);
        kp_buf_printf(js, ", \"%s\": %" PRId64 "}", key, d->count[i]);
    }
    kp_buf_puts(js, "]");
    for (i = 0; i < d->n && i < LIST_TEXT; i++)
        kp_buf_printf(tx, "%s%s (%" PRId64 ")", i ? ", " : "", d->value[i],
                      d->count[i]);
    if (d->n > LIST_TEXT)
        kp_buf_printf(tx, ", %zu more", d->n - LIST_TEXT);
}

/* ---- PodTopologySpread ---- */

static void
spread_one(const struct kp_cycle *c, const struct kp_spread_tsc *cons,
           size_t ncons, size_t k, struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_cluster *cl = c->cl;
    const struct kp_snapshot *snap = cl->snap;
    const struct kp_spread_tsc *t = &cons[k];
    /*
     * the pods matching per node: the kept counts PodTopologySpread's
     * PreFilter read (selcount.h; KP_NO_SELCOUNT=1 counts them here)
     */
    struct kp_selcount_entry *e = kp_selcount_spread(cl, &t->selector,
                                                     c->pod->ns);
    const char *const *col = kp_cluster_label_column(cl, t->topology_key);
    struct domains d;
    size_t i, nokey = 0, over = 0, shown = 0;
    int64_t min = INT64_MAX, self;

    domains_init(&d);
    for (i = 0; i < snap->nnodes; i++) {
        const struct kp_node *node = cl->nodes[i].node;
        const char *v = col ? col[i] :
                        kp_labels_get(&node->labels, t->topology_key);

        if (!v) {
            nokey++;
            continue;
        }
        /* calPreFilterState: a node lacking any constraint's key, none */
        if (!kp_spread_node_has_keys(node, cons, ncons) ||
            !kp_spread_match_inclusion(t, c->pod, node))
            continue;
        domains_add(&d, v, kp_selcount_node(e, &cl->nodes[i]));
    }
    for (i = 0; i < d.n; i++)
        if (d.count[i] < min)
            min = d.count[i];
    if (d.n < (size_t)t->min_domains || d.n == 0)
        min = 0;                        /* minMatchNum */
    self = kp_selector_matches(&t->selector, &c->pod->labels) ? 1 : 0;
    for (i = 0; i < d.n; i++)
        over += d.count[i] + self - min > t->max_skew;
    kp_buf_puts(js, k ? ", {\"topologyKey\": " : "{\"topologyKey\": ");
    kp_buf_json_str(js, t->topology_key);
    kp_buf_printf(js, ", \"maxSkew\": %d, \"minDomains\": %d, "
                  "\"selector\": ", (int)t->max_skew, (int)t->min_domains);
    kp_buf_printf(tx, "%stopologyKey %s, maxSkew %d, selector ",
                  k ? "\n      " : "", t->topology_key, (int)t->max_skew);
    selector_both(&t->selector, js, tx);
    kp_buf_printf(js, ", \"selfMatches\": %s, \"globalMinimum\": %" PRId64
                  ", \"domainCount\": %zu, \"domains\": [",
                  self ? "true" : "false", min, d.n);
    kp_buf_printf(tx, ": %zu domain(s), minimum %" PRId64 "; ", d.n, min);
    for (i = 0; i < d.n && i < LIST_JSON; i++) {
        kp_buf_puts(js, i ? ", {\"value\": " : "{\"value\": ");
        kp_buf_json_str(js, d.value[i]);
        kp_buf_printf(js, ", \"matchingPods\": %" PRId64 ", "
                      "\"exceedsSkew\": %s}", d.count[i],
                      d.count[i] + self - min > t->max_skew ? "true"
                                                             : "false");
    }
    kp_buf_printf(js, "], \"domainsExceedingSkew\": %zu, "
                  "\"nodesWithoutKey\": %zu}", over, nokey);
    /* the domains it would push past maxSkew first, then the others */
    kp_buf_printf(tx, "%zu would exceed maxSkew with the pod", over);
    for (i = 0; i < d.n && shown < LIST_TEXT; i++)
        if (d.count[i] + self - min > t->max_skew)
            kp_buf_printf(tx, "%s%s %" PRId64, shown++ ? ", " : " (",
                          d.value[i], d.count[i]);
    if (over > shown)
        kp_buf_printf(tx, ", %zu more", over - shown);
    if (shown)
        kp_buf_puts(tx, ")");
    shown = 0;
    for (i = 0; i < d.n && shown < LIST_TEXT; i++)
        if (d.count[i] + self - min <= t->max_skew)
            kp_buf_printf(tx, "%s%s %" PRId64, shown++ ? ", " : "; within: ",
                          d.value[i], d.count[i]);
    if (d.n - over > shown)
        kp_buf_printf(tx, ", %zu more", d.n - over - shown);
    if (nokey)
        kp_buf_printf(tx, "; %zu node(s) without the key", nokey);
    domains_release(&d);
}

void
kp_diag_spread(const struct kp_cycle *c, struct kp_buf *js,
               struct kp_buf *tx)
{
    struct kp_spread_tsc *cons;
    size_t n = 0, k;
    const char *err;

    kp_buf_puts(js, ", \"topologySpread\": [");
    if (kp_spread_get_constraints_profile(c->scratch, c->cl->snap, c->pod,
                                          true, c->profile, &cons, &n,
                                          &err) < 0)
        n = 0;
    for (k = 0; k < n; k++)
        spread_one(c, cons, n, k, js, tx);
    kp_buf_puts(js, "]");
}

/* ---- InterPodAffinity ---- */

static void
terms_detail(const struct kp_cycle *c, const struct kp_affinity_term *terms,
             size_t nterms, bool anti, struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_cluster *cl = c->cl;
    const struct kp_snapshot *snap = cl->snap;
    const struct kp_pod *p = c->pod;
    const unsigned char **sel;
    size_t k, i, usable = kp_affinity_terms_usable(terms, nterms);

    sel = kp_affinity_terms_merge_namespaces(c->scratch, snap, terms,
                                             usable);
    kp_buf_puts(js, anti ? ", \"antiAffinityTerms\": ["
                         : ", \"affinityTerms\": [");
    for (k = 0; k < usable; k++) {
        const struct kp_affinity_term *t = &terms[k];
        struct domains d;
        int64_t m = 0;

        /*
         * the pods of each node the term matches, as InterPodAffinity's
         * PreFilter counts them: through the run's per-node counts
         * (selcount.h) and the label column of the topology key
         */
        struct kp_selcount_entry *e =
            kp_selcount_term(cl, t, sel ? sel[k] : NULL, p->ns);
        const char *const *col = kp_cluster_label_column(cl, t->topology_key);

        domains_init(&d);
        for (i = 0; i < snap->nnodes; i++) {
            const struct kp_node_info *ni = &cl->nodes[i];
            int64_t cnt = ni->npods ? kp_selcount_node(e, ni) : 0;
            const char *v;

            if (cnt == 0)
                continue;
            v = col ? col[i] : kp_labels_get(&ni->node->labels,
                                             t->topology_key);
            m += cnt;
            domains_add(&d, v ? v : "<no key>", cnt);
        }
        kp_buf_printf(js, "%s{\"term\": %zu, \"topologyKey\": ",
                      k ? ", " : "", k);
        kp_buf_json_str(js, t->topology_key);
        kp_buf_puts(js, ", \"selector\": ");
        kp_buf_printf(tx, "%s%s term %zu (topologyKey %s, selector ",
                      k ? "\n      " : "",
                      anti ? "anti-affinity" : "affinity", k,
                      t->topology_key);
        selector_both(&t->selector, js, tx);
        kp_buf_printf(js, ", \"matchingPods\": %" PRId64 ", \"domains\": ",
                      m);
        kp_buf_printf(tx, "): %" PRId64 " matching pod(s)", m);
        if (m) {
            kp_buf_puts(tx, anti ? ", so not in " : " in ");
            domains_put(&d, "pods", js, tx);
        } else {
            kp_buf_puts(js, "[]");
            if (!anti)
                kp_buf_puts(tx, ", in no domain");
        }
        kp_buf_puts(js, "}");
        domains_release(&d);
    }
    kp_buf_puts(js, "]");
}

/* existing pods whose required anti-affinity matches the incoming pod */
static void
existing_anti(const struct kp_cycle *c, struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_cluster *cl = c->cl;
    const struct kp_snapshot *snap = cl->snap;
    const struct kp_pod *p = c->pod;
    const struct kp_labels *nsl = kp_pod_namespace_labels(snap, p);
    size_t i, j, k, m = 0;

    kp_buf_puts(js, ", \"existingAntiAffinity\": [");
    for (i = 0; i < snap->nnodes; i++) {
        const struct kp_node_info *ni = &cl->nodes[i];

        for (j = 0; ni->nanti && j < ni->npods; j++) {
            const struct kp_pod *q = ni->pods[j];
            size_t nt = kp_affinity_terms_usable(q->anti_affinity,
                                                 q->nanti_affinity);

            for (k = 0; k < nt; k++) {
                const struct kp_affinity_term *t = &q->anti_affinity[k];
                const char *v;

                if (!kp_existing_term_matches(t, q->ns, p, nsl))
                    continue;
                v = kp_labels_get(&ni->node->labels, t->topology_key);
                if (m < LIST_JSON) {
                    kp_buf_puts(js, m ? ", {\"pod\": " : "{\"pod\": ");
                    kp_buf_json_str(js, kp_arena_concat(c->scratch, q->ns,
                                                        "/", q->name, NULL));
                    kp_buf_puts(js, ", \"node\": ");
                    kp_buf_json_str(js, ni->node->name);
                    kp_buf_puts(js, ", \"topologyKey\": ");
                    kp_buf_json_str(js, t->topology_key);
                    kp_buf_puts(js, ", \"domain\": ");
                    kp_buf_json_str_or_null(js, v);
                    kp_buf_puts(js, ", \"selector\": ");
                    selector_json(&t->selector, js);
                    kp_buf_puts(js, "}");
                }
                if (m < LIST_TEXT) {
                    kp_buf_printf(tx, "%spod %s/%s on %s repels it "
                                  "(topologyKey %s=%s, selector ",
                                  m ? "\n      " : "", q->ns, q->name,
                                  ni->node->name, t->topology_key,
                                  v ? v : "<none>");
                    put_selector(tx, &t->selector);
                    kp_buf_puts(tx, ")");
                }
                m++;
                break;
            }
        }
    }
    kp_buf_printf(js, "], \"existingAntiAffinityPods\": %zu", m);
    if (m > LIST_TEXT)
        kp_buf_printf(tx, "\n      %zu more pod(s)", m - LIST_TEXT);
    if (m == 0)
        kp_buf_puts(tx, "no existing pod's anti-affinity matches it now");
}

void
kp_diag_pod_affinity(const struct kp_cycle *c, const char *reason,
                     struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_pod *p = c->pod;

    if (strcmp(reason, KP_REASON_POD_AFFINITY) == 0)
        terms_detail(c, p->affinity, p->naffinity, false, js, tx);
    else if (strcmp(reason, KP_REASON_POD_ANTI_AFFINITY) == 0)
        terms_detail(c, p->anti_affinity, p->nanti_affinity, true, js, tx);
    else if (strcmp(reason, KP_REASON_EXISTING_ANTI_AFFINITY) == 0)
        existing_anti(c, js, tx);
}

/* ---- the volume plugins ---- */

static const char *
pv_zone(const struct kp_pv *pv)
{
    const char *z = kp_labels_get(&pv->labels, "topology.kubernetes.io/zone");

    return z ? z : kp_labels_get(&pv->labels,
                                 "failure-domain.beta.kubernetes.io/zone");
}

/* pods on a node that use claim ns/name (not p) */
static size_t
claim_users(const struct kp_cycle *c, const char *ns, const char *name,
            struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_cluster *cl = c->cl;
    size_t i, j, k, m = 0;

    kp_buf_puts(js, ", \"usedBy\": [");
    for (i = 0; i < cl->snap->nnodes; i++) {
        const struct kp_node_info *ni = &cl->nodes[i];

        for (j = 0; j < ni->npods; j++) {
            const struct kp_pod *q = ni->pods[j];

            if (q == c->pod || strcmp(q->ns, ns) != 0)
                continue;
            for (k = 0; k < q->nvolumes; k++)
                if (kp_volume_is_claim(&q->volumes[k]) &&
                    strcmp(kp_volume_claim_name(c->scratch, q,
                                                &q->volumes[k]),
                           name) == 0)
                    break;
            if (k == q->nvolumes)
                continue;
            if (m < LIST_JSON) {
                kp_buf_puts(js, m ? ", {\"pod\": " : "{\"pod\": ");
                kp_buf_json_str(js, q->name);
                kp_buf_puts(js, ", \"node\": ");
                kp_buf_json_str(js, ni->node->name);
                kp_buf_puts(js, "}");
            }
            if (m < LIST_TEXT)
                kp_buf_printf(tx, "%s%s on %s", m ? ", " : "; used by pod ",
                              q->name, ni->node->name);
            m++;
        }
    }
    kp_buf_puts(js, "]");
    if (m > LIST_TEXT)
        kp_buf_printf(tx, ", %zu more", m - LIST_TEXT);
    return m;
}

static void
claims_detail(const struct kp_cycle *c, struct kp_buf *js, struct kp_buf *tx)
{
    static const char *const phases[] = {"Pending", "Bound", "Lost"};
    const struct kp_snapshot *snap = c->cl->snap;
    const struct kp_pod *p = c->pod;
    size_t i, j, n = 0;

    kp_buf_puts(js, ", \"claims\": [");
    for (i = 0; i < p->nvolumes; i++) {
        const struct kp_volume *v = &p->volumes[i];
        const char *name, *cls;
        const struct kp_pvc *pvc;
        const struct kp_storage_class *sc;
        const struct kp_pv *pv;

        if (!kp_volume_is_claim(v))
            continue;
        name = kp_volume_claim_name(c->scratch, p, v);
        pvc = kp_snapshot_pvc(snap, p->ns, name);
        kp_buf_puts(js, n ? ", {\"claim\": " : "{\"claim\": ");
        kp_buf_json_str(js, name);
        kp_buf_printf(tx, "%sclaim %s: ", n++ ? "\n      " : "", name);
        if (!pvc) {
            kp_buf_puts(js, ", \"found\": false}");
            kp_buf_puts(tx, "not in the snapshot");
            continue;
        }
        cls = pvc->storage_class;
        sc = cls[0] ? kp_snapshot_storage_class(snap, cls) : NULL;
        kp_buf_printf(js, ", \"found\": true, \"phase\": \"%s\", "
                      "\"storageClass\": ", phases[pvc->phase]);
        kp_buf_json_str_or_null(js, cls[0] ? cls : NULL);
        kp_buf_puts(js, ", \"volumeBindingMode\": ");
        kp_buf_json_str_or_null(js, !sc ? NULL :
                                sc->binding_mode ==
                                KP_BINDING_WAIT_FOR_FIRST_CONSUMER ?
                                "WaitForFirstConsumer" : "Immediate");
        kp_buf_printf(tx, "%s, StorageClass %s", phases[pvc->phase],
                      cls[0] ? cls : "<none>");
        if (cls[0] && !sc)
            kp_buf_puts(tx, " (not in the snapshot)");
        else if (sc)
            kp_buf_printf(tx, " (%s)", sc->binding_mode ==
                          KP_BINDING_WAIT_FOR_FIRST_CONSUMER ?
                          "WaitForFirstConsumer" : "Immediate");
        kp_buf_puts(js, ", \"volume\": ");
        kp_buf_json_str_or_null(js, pvc->volume_name);
        pv = pvc->volume_name ? kp_snapshot_pv(snap, pvc->volume_name)
                              : NULL;
        if (pvc->volume_name && !pv)
            kp_buf_printf(tx, ", bound to PV %s, which is not in the "
                          "snapshot", pvc->volume_name);
        if (pv) {
            struct kp_buf names;
            size_t m = 0;

            kp_buf_init(&names);
            kp_buf_puts(js, ", \"volumeZone\": ");
            kp_buf_json_str_or_null(js, pv_zone(pv));
            kp_buf_printf(js, ", \"volumeNodeAffinity\": %s, "
                          "\"volumeNodes\": [",
                          pv->node_affinity.is_null ? "false" : "true");
            for (j = 0; j < snap->nnodes; j++) {
                if (!kp_pv_matches_node(pv, snap->nodes[j]))
                    continue;
                if (m < LIST_JSON) {
                    kp_buf_puts(js, m ? ", " : "");
                    kp_buf_json_str(js, snap->nodes[j]->name);
                }
                if (m < LIST_TEXT)
                    kp_buf_printf(&names, "%s%s", m ? ", " : "",
                                  snap->nodes[j]->name);
                m++;
            }
            kp_buf_printf(js, "], \"nodesMatchingVolume\": %zu", m);
            kp_buf_printf(tx, ", bound to PV %s", pv->name);
            if (pv_zone(pv))
                kp_buf_printf(tx, " in zone %s", pv_zone(pv));
            if (!pv->node_affinity.is_null)
                kp_buf_printf(tx, ", whose node affinity admits %zu "
                              "node(s)%s%s%s%s", m, m ? " (" : "",
                              m ? names.data : "",
                              m > LIST_TEXT ? ", ..." : "", m ? ")" : "");
            kp_buf_release(&names);
        }
        claim_users(c, p->ns, name, js, tx);
        kp_buf_puts(js, "}");
    }
    kp_buf_puts(js, "]");
    if (n == 0)
        kp_buf_puts(tx, "no claim");
}

/* first: what goes before the first node (a new line after claims) */
static void
limits_detail(const struct kp_cycle *c, const struct kp_status *st,
              const char *first, struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_cluster *cl = c->cl;
    size_t i, m = 0;

    kp_buf_puts(js, ", \"attachLimits\": [");
    for (i = 0; i < cl->snap->nnodes; i++) {
        struct kp_csi_excess ex;

        if (!st[i].plugin || strcmp(st[i].plugin, "NodeVolumeLimits") != 0 ||
            !kp_csi_limit_excess(c, &cl->nodes[i], &ex))
            continue;
        if (m < LIST_JSON) {
            kp_buf_puts(js, m ? ", {\"node\": " : "{\"node\": ");
            kp_buf_json_str(js, cl->nodes[i].node->name);
            kp_buf_puts(js, ", \"driver\": ");
            kp_buf_json_str(js, ex.driver);
            kp_buf_printf(js, ", \"attached\": %" PRId64 ", \"adding\": %"
                          PRId64 ", \"limit\": %" PRId64 "}", ex.attached,
                          ex.adding, ex.limit);
        }
        if (m < LIST_TEXT)
            kp_buf_printf(tx, "%s%s: %s %" PRId64 " attached + %" PRId64
                          " > limit %" PRId64, m ? "; " : first,
                          cl->nodes[i].node->name, ex.driver, ex.attached,
                          ex.adding, ex.limit);
        m++;
    }
    kp_buf_puts(js, "]");
    if (m > LIST_TEXT)
        kp_buf_printf(tx, "; %zu more node(s)", m - LIST_TEXT);
}

void
kp_diag_volumes(const struct kp_cycle *c, const struct kp_status *st,
                const char *plugin, bool claims, struct kp_buf *js,
                struct kp_buf *tx)
{
    if (claims)
        claims_detail(c, js, tx);
    if (strcmp(plugin, "NodeVolumeLimits") == 0)
        limits_detail(c, st, claims ? "\n      " : "", js, tx);
}

/* ---- NodeUnschedulable, NodeName ---- */

void
kp_diag_unschedulable(const struct kp_cycle *c, const struct kp_status *st,
                      struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_snapshot *snap = c->cl->snap;
    size_t i, m = 0;

    kp_buf_puts(js, ", \"cordonedNodes\": [");
    kp_buf_puts(tx, "cordoned (spec.unschedulable): ");
    for (i = 0; i < snap->nnodes; i++) {
        if (!st[i].plugin || strcmp(st[i].plugin, "NodeUnschedulable") != 0)
            continue;
        if (m < LIST_JSON) {
            kp_buf_puts(js, m ? ", " : "");
            kp_buf_json_str(js, snap->nodes[i]->name);
        }
        if (m < LIST_TEXT)
            kp_buf_printf(tx, "%s%s", m ? ", " : "", snap->nodes[i]->name);
        m++;
    }
    if (m > LIST_TEXT)
        kp_buf_printf(tx, ", %zu more", m - LIST_TEXT);
    kp_buf_printf(js, "], \"tolerationMissing\": \"%s:NoSchedule\"",
                  UNSCHEDULABLE_TAINT);
    kp_buf_printf(tx, "; the pod does not tolerate %s:NoSchedule",
                  UNSCHEDULABLE_TAINT);
}

void
kp_diag_node_name(const struct kp_cycle *c, struct kp_buf *js,
                  struct kp_buf *tx)
{
    const char *name = c->pod->node_name;
    bool exists = name && kp_snapshot_node(c->cl->snap, name);

    kp_buf_puts(js, ", \"nodeName\": ");
    kp_buf_json_str_or_null(js, name);
    kp_buf_printf(js, ", \"nodeExists\": %s", exists ? "true" : "false");
    kp_buf_printf(tx, "spec.nodeName %s: %s", name ? name : "<none>",
                  exists ? "every other node is ruled out"
                         : "no node of that name in the snapshot");
}

/* ---- the PDBs a candidate's victims would violate ---- */

static bool
has_pdb(const struct kp_pod *q, int j)
{
    size_t k;

    for (k = 0; k < q->npdbs; k++)
        if (q->pdbs[k] == j)
            return true;
    return false;
}

/*
 * one PDB that candidate cand's victims exceed, the nth found: in JSON
 * the first LIST_JSON, in words the first LIST_TEXT (then only counted)
 */
static void
block_one(const struct kp_cycle *c, const struct kp_candidate *cand, int j,
          size_t under, size_t nth, struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_cluster *cl = c->cl;
    const struct kp_snapshot *snap = cl->snap;
    const struct kp_pdb *pdb = snap->pdbs[j];
    size_t v, m = 0, cov = cl->pdb_covered[j], viol;
    bool words = nth < LIST_TEXT;

    if (nth >= LIST_JSON)
        return;
    viol = under - (size_t)(cl->pdb_allowed[j] > 0 ? cl->pdb_allowed[j]
                                                    : 0);
    kp_buf_puts(js, nth ? ", {\"node\": " : "{\"node\": ");
    kp_buf_json_str(js, snap->nodes[cand->node]->name);
    kp_buf_puts(js, ", \"podDisruptionBudget\": ");
    kp_buf_json_str(js, kp_arena_concat(c->scratch, pdb->ns, "/", pdb->name,
                                        NULL));
    kp_buf_printf(js, ", \"disruptionsAllowed\": %d, \"coveredPods\": %zu, "
                  "\"victims\": [", (int)cl->pdb_allowed[j], cov);
    if (words)
        kp_buf_printf(tx, "\n  candidate %s: %zu victim(s) under PDB %s/%s (",
                      snap->nodes[cand->node]->name, under, pdb->ns,
                      pdb->name);
    for (v = 0; v < cand->nvictims; v++) {
        const struct kp_pod *q = cand->victims[v];

        if (!has_pdb(q, j))
            continue;
        kp_buf_puts(js, m ? ", " : "");
        kp_buf_json_str(js, q->name);
        if (words)
            kp_buf_printf(tx, "%s%s", m ? ", " : "", q->name);
        m++;
    }
    kp_buf_printf(js, "], \"violations\": %zu}", viol);
    if (words)
        kp_buf_printf(tx, "), which allows %d disruption(s) and covers %zu "
                      "pod(s): %zu violation(s)", (int)cl->pdb_allowed[j],
                      cov, viol);
}

/*
 * What the walk over candidate cand's victims reads, asked for ahead (a
 * hint): far, the pods; else (their lines asked for before) their PDB
 * lists.  A pod's dry run keeps hundreds of candidates whose victims are
 * pods scattered in memory.
 */
static void
victims_prefetch(const struct kp_candidate *cand, bool far)
{
    size_t v;

    if (cand->num_pdb_violations == 0)
        return;
    for (v = 0; v < cand->nvictims; v++)
        if (far)
            __builtin_prefetch(&cand->victims[v]->npdbs);
        else
            __builtin_prefetch(cand->victims[v]->pdbs);
}

/* one PDB that a candidate's victims exceed: what block_one writes */
struct pdb_block {
    size_t cand, under;
    int pdb;
};

/* the blocks found, in the order of the candidates and within each */
struct pdb_blocks {
    struct pdb_block *b;
    size_t n, cap;
};

/*
 * By PDB, stamped with the candidate (index + 1) they were set for: how
 * many of its victims the PDB covers, and whether a violating victim
 * before has it (counted once, at the first).  Stamps differ for every
 * candidate of a pod: one tally serves all the candidates a thread
 * walks, made (zeroed) at the first that violates a PDB.
 */
struct pdb_tally {
    uint32_t *cnt, *cnt_at, *seen_at;
};

/* candidate i's exceeded PDBs, appended to out */
static void
candidate_blocks(const struct kp_cluster *cl, const struct kp_pod_report *pr,
                 size_t i, struct pdb_tally *t, struct kp_arena *a,
                 struct pdb_blocks *out)
{
    const struct kp_candidate *cand = &pr->candidates[i];
    size_t npdbs = cl->snap->npdbs, v, k;
    uint32_t st = (uint32_t)i + 1;

    if (i + 2 < pr->ncandidates)
        victims_prefetch(&pr->candidates[i + 2], true);
    if (i + 1 < pr->ncandidates)
        victims_prefetch(&pr->candidates[i + 1], false);
    if (cand->num_pdb_violations == 0)
        return;
    if (!t->cnt) {
        t->cnt = kp_arena_alloc(a, (npdbs + 1) * sizeof(*t->cnt));
        t->cnt_at = kp_arena_alloc(a, (npdbs + 1) * sizeof(*t->cnt));
        t->seen_at = kp_arena_alloc(a, (npdbs + 1) * sizeof(*t->cnt));
    }
    for (v = 0; v < cand->nvictims; v++)
        for (k = 0; k < cand->victims[v]->npdbs; k++) {
            int j = cand->victims[v]->pdbs[k];

            if (t->cnt_at[j] != st) {
                t->cnt_at[j] = st;
                t->cnt[j] = 0;
            }
            t->cnt[j]++;
        }
    /* the PDBs of the violating victims, each once */
    for (v = 0; v < cand->nvictims; v++) {
        const struct kp_pod *q = cand->victims[v];

        if (!cand->violating[v])
            continue;
        for (k = 0; k < q->npdbs; k++) {
            int j = q->pdbs[k];

            if (t->seen_at[j] == st)
                continue;
            t->seen_at[j] = st;
            if ((int64_t)t->cnt[j] <= cl->pdb_allowed[j])
                continue;
            if (out->n == out->cap) {
                out->cap = out->cap ? out->cap * 2 : 8;
                out->b = kp_xrealloc(out->b, out->cap * sizeof(*out->b));
            }
            out->b[out->n].cand = i;
            out->b[out->n].pdb = j;
            out->b[out->n++].under = t->cnt[j];
        }
    }
}

/*
 * The candidates by chunks of BLOCKS_CHUNK on the pool's threads, each
 * thread with its tally (in its arena), each chunk with its blocks; the
 * blocks are then written in chunk order, as the walk on one thread
 * would have met them.
 */
#define BLOCKS_CHUNK 16

struct blocks_run {
    const struct kp_cluster *cl;
    const struct kp_pod_report *pr;
    struct kp_pool *pool;
    struct pdb_tally *tally;    /* by thread */
    struct pdb_blocks *chunk;   /* by chunk */
};

static bool
blocks_chunk(void *ctx, size_t k, struct kp_arena *a)
{
    struct blocks_run *r = ctx;
    size_t i, end = (k + 1) * BLOCKS_CHUNK;
    int t = kp_pool_thread_of(r->pool, a);

    if (end > r->pr->ncandidates)
        end = r->pr->ncandidates;
    for (i = k * BLOCKS_CHUNK; i < end; i++)
        candidate_blocks(r->cl, r->pr, i, &r->tally[t], a, &r->chunk[k]);
    return false;
}

size_t
kp_diag_pdb_blocks(const struct kp_cycle *c, const struct kp_pod_report *pr,
                   struct kp_buf *js, struct kp_buf *tx)
{
    const struct kp_cluster *cl = c->cl;
    size_t i, k, nth = 0, nchunks = 1;
    struct pdb_blocks one = {NULL, 0, 0}, *chunk = &one;
    struct pdb_tally tally = {NULL, NULL, NULL};
    bool any = false;

    for (i = 0; i < pr->ncandidates && !any; i++)
        any = pr->candidates[i].num_pdb_violations > 0;
    if (!any)
        return 0;
    if (c->pool && pr->ncandidates >= 2 * BLOCKS_CHUNK &&
        !kp_shortcut_off("KP_NO_DIAG_PARALLEL")) {
        struct blocks_run r;

        nchunks = (pr->ncandidates + BLOCKS_CHUNK - 1) / BLOCKS_CHUNK;
        r.cl = cl;
        r.pr = pr;
        r.pool = c->pool;
        r.tally = kp_xcalloc((size_t)kp_pool_threads(c->pool),
                             sizeof(*r.tally));
        r.chunk = chunk = kp_xcalloc(nchunks, sizeof(*chunk));
        kp_pool_run(c->pool, nchunks, 1, blocks_chunk, &r, NULL);
        free(r.tally);
    } else {
        for (i = 0; i < pr->ncandidates; i++)
            candidate_blocks(cl, pr, i, &tally, c->scratch, &one);
    }
    for (k = 0; k < nchunks; k++) {
        for (i = 0; i < chunk[k].n; i++) {
            const struct pdb_block *b = &chunk[k].b[i];

            if (nth == 0)
                kp_buf_puts(js, ", \"pdbBlocks\": [");
            block_one(c, &pr->candidates[b->cand], b->pdb, b->under, nth++,
                      js, tx);
        }
        free(chunk[k].b);
    }
    if (chunk != &one)
        free(chunk);
    if (nth)
        kp_buf_printf(js, "], \"pdbBlockCount\": %zu", nth);
    if (nth > LIST_TEXT)
        kp_buf_printf(tx, "\n  %zu more candidate PDB(s) exceeded",
                      nth - LIST_TEXT);
    return nth;
}
