/*
 * test_fix_add_node.c - the "add a node like N" fix (fix_add_node.c)
 * re-runs on the run's own snapshot (issue 31): N's copy and the copy's
 * DaemonSet pod appended, the snapshot marked and finished again and
 * analysed, then put back (snapshot_save.h) without reading the files
 * again.  What the main report reads afterwards must be as it was: the
 * counts, the name indexes, every struct, the pods by node; and the fix
 * must be the one the reloading path (KP_NO_FIX_RELOAD_SKIP=1) finds.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fix_add_node.h"
#include "fixes.h"
#include "helpers.h"
#include "whatif.h"

#define DS_OWNER                                                           \
    ",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":"         \
    "\"DaemonSet\",\"name\":\"agent\",\"uid\":\"u1\",\"controller\":true}]"

/*
 * No node has 3 CPUs free for want (priority 5, below every bound pod):
 * a copy of n1 has 4, less its DaemonSet pod's 1: want fits on it.
 */
static const char *cluster = LIST(
    NODE("n1", "4", "10") "," NODE("n2", "4", "10") ","
    POD("d", "big-1", "1000", "2", "n1", ",\"labels\":{\"app\":\"big\"}")
    "," POD("d", "big-2", "1000", "3", "n2", ",\"labels\":{\"app\":\"big\"}")
    "," POD("kube-system", "agent-n1", "2000", "1", "n1", DS_OWNER) ","
    "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"namespace\":\"d\","
    "\"name\":\"big\"},\"spec\":{\"minAvailable\":1,\"selector\":"
    "{\"matchLabels\":{\"app\":\"big\"}}},\"status\":"
    "{\"disruptionsAllowed\":1,\"currentHealthy\":2}},"
    "{\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"low\"},"
    "\"value\":5},"
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"d\",\"name\":\"want\","
    "\"creationTimestamp\":\"2026-01-02T00:00:00Z\"},\"spec\":{"
    "\"priorityClassName\":\"low\",\"containers\":[{\"name\":\"c\","
    "\"resources\":{\"requests\":{\"cpu\":\"3\"}}}]},"
    "\"status\":{\"phase\":\"Pending\"}}");

static int nloads;

/* the reloading path's loader: the same cluster read again, N added */
static int
load_again(struct kp_snapshot *s, const struct kp_options *o,
           struct kp_whatif *w, struct kp_error *err)
{
    nloads++;
    if (kp_snapshot_load_buffer(s, cluster, strlen(cluster), "test.json",
                                err) < 0)
        return -1;
    return kp_whatif_apply(w, s, o, err);
}

/* What the main report reads of the snapshot, copied. */
struct state {
    size_t npods, nnodes, npdbs, npcs, nwarnings, nres;
    struct kp_pod **pod_ptrs, *pods;
    struct kp_node **node_ptrs, *nodes;
    struct kp_pdb pdb0;
    const struct kp_pod ***node_pods, **n1_pods;
    size_t *node_npods, n1_npods;
    const struct kp_priority_class *default_class;
};

static void
take(struct state *t, const struct kp_snapshot *s)
{
    size_t i;

    t->npods = s->npods;
    t->nnodes = s->nnodes;
    t->npdbs = s->npdbs;
    t->npcs = s->npcs;
    t->nwarnings = s->nwarnings;
    t->nres = s->nres;
    t->pod_ptrs = malloc(s->npods * sizeof(*t->pod_ptrs));
    t->pods = malloc(s->npods * sizeof(*t->pods));
    for (i = 0; i < s->npods; i++) {
        t->pod_ptrs[i] = s->pods[i];
        memcpy(&t->pods[i], s->pods[i], sizeof(*t->pods));
    }
    t->node_ptrs = malloc(s->nnodes * sizeof(*t->node_ptrs));
    t->nodes = malloc(s->nnodes * sizeof(*t->nodes));
    for (i = 0; i < s->nnodes; i++) {
        t->node_ptrs[i] = s->nodes[i];
        memcpy(&t->nodes[i], s->nodes[i], sizeof(*t->nodes));
    }
    memcpy(&t->pdb0, s->pdbs[0], sizeof(t->pdb0));
    t->node_pods = s->node_pods;
    t->node_npods = s->node_npods;
    t->n1_pods = s->node_pods[0];
    t->n1_npods = s->node_npods[0];
    t->default_class = s->default_class;
}

static void
check_same(const struct state *t, const struct kp_snapshot *s)
{
    size_t i;

    CHECK_EQ_INT(s->npods, t->npods);
    CHECK_EQ_INT(s->nnodes, t->nnodes);
    CHECK_EQ_INT(s->npdbs, t->npdbs);
    CHECK_EQ_INT(s->npcs, t->npcs);
    CHECK_EQ_INT(s->nwarnings, t->nwarnings);
    CHECK_EQ_INT(s->nres, t->nres);
    for (i = 0; i < t->npods && i < s->npods; i++) {
        CHECK(s->pods[i] == t->pod_ptrs[i]);
        CHECK(memcmp(s->pods[i], &t->pods[i], sizeof(*t->pods)) == 0);
        CHECK(kp_snapshot_pod(s, t->pods[i].ns, t->pods[i].name) ==
              t->pod_ptrs[i]);
    }
    for (i = 0; i < t->nnodes && i < s->nnodes; i++) {
        CHECK(s->nodes[i] == t->node_ptrs[i]);
        CHECK(memcmp(s->nodes[i], &t->nodes[i], sizeof(*t->nodes)) == 0);
        CHECK(kp_snapshot_node(s, t->nodes[i].name) == t->node_ptrs[i]);
    }
    CHECK(memcmp(s->pdbs[0], &t->pdb0, sizeof(t->pdb0)) == 0);
    /* the copy and its DaemonSet pod are gone, names included */
    CHECK(kp_snapshot_node(s, "n1-copy-1") == NULL);
    CHECK(kp_snapshot_pod(s, "kube-system", "agent-n1-n1-copy-1") == NULL);
    CHECK(s->node_pods == t->node_pods);
    CHECK(s->node_npods == t->node_npods);
    CHECK(s->node_pods[0] == t->n1_pods);
    CHECK_EQ_INT(s->node_npods[0], t->n1_npods);
    CHECK(s->default_class == t->default_class);
    CHECK(s->finished);
}

static void
drop(struct state *t)
{
    free(t->pod_ptrs);
    free(t->pods);
    free(t->node_ptrs);
    free(t->nodes);
}

/* the run as run.c makes it up to the fix: its want's fixes JSON */
static char *
fixes_of_want(bool reload, bool check_restored)
{
    static const char *files[] = {"test.json"};
    struct kp_snapshot s;
    struct kp_report rep;
    struct kp_options o;
    struct state before;
    const struct kp_pod_report *pr;
    char *json = NULL;

    if (reload)
        setenv("KP_NO_FIX_RELOAD_SKIP", "1", 1);
    else
        unsetenv("KP_NO_FIX_RELOAD_SKIP");
    memset(&rep, 0, sizeof(rep));
    if (load_snapshot(&s, cluster) < 0 ||
        analyze(&s, &rep, KP_MODE_QUEUE) < 0)
        goto out;
    kp_options_init(&o);
    o.output = KP_OUTPUT_JSON;
    o.files = files;
    o.nfiles = 1;
    kp_suggest_fixes(&s, &o, &rep);
    take(&before, &s);
    nloads = 0;
    kp_fix_add_node(&s, &o, &rep, load_again);
    CHECK_EQ_INT(nloads, reload ? 1 : 0);
    if (check_restored)
        check_same(&before, &s);
    drop(&before);
    pr = report_for(&rep, "want");
    CHECK(pr != NULL);
    CHECK(pr && pr->result == KP_RESULT_UNSCHEDULABLE);
    if (pr && pr->fixes_json)
        json = strdup(pr->fixes_json);
out:
    kp_report_release(&rep);
    kp_snapshot_release(&s);
    unsetenv("KP_NO_FIX_RELOAD_SKIP");
    return json;
}

static void
test_fix_add_node__in_place_puts_the_snapshot_back(void)
{
    char *json = fixes_of_want(false, true);

    CHECK(json && strstr(json, "{\"change\": \"addNode\", \"like\": "
                         "\"n1\", \"result\": \"Fits\", \"node\": "
                         "\"n1-copy-1\"}") != NULL);
    free(json);
}

static void
test_fix_add_node__in_place_finds_what_reloading_finds(void)
{
    char *in_place = fixes_of_want(false, false);
    char *reloaded = fixes_of_want(true, false);

    CHECK(in_place && strstr(in_place, "addNode") != NULL);
    CHECK_EQ_STR(in_place, reloaded);
    free(in_place);
    free(reloaded);
}

int
main(void)
{
    RUN(test_fix_add_node__in_place_puts_the_snapshot_back);
    RUN(test_fix_add_node__in_place_finds_what_reloading_finds);
    return check_done();
}
