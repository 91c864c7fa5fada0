/*
 * image_locality.c - mirrors pkg/scheduler/framework/plugins/
 * imagelocality/image_locality.go: PreScore (the ImageStateSummary of
 * each of the pod's images, normalizedImageName), Score (sumImageScores
 * with scaledImageScore, then calculatePriority).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "kube_version.h"
#include "score.h"
#include "strmap.h"

#define MB (1024LL * 1024)
#define MIN_THRESHOLD (23 * MB)
#define MAX_CONTAINER_THRESHOLD (1000 * MB)

/* The cluster-wide ImageStateSummary of one of the pod's images. */
struct il_image {
    const char *name;           /* normalizedImageName */
    int64_t size;               /* from the first node listing it */
    int64_t num_nodes;
    int32_t id;                 /* in the image index, -1: on no node */
};

/*
 * Every image name of the nodes, made once per cluster (nodes and their
 * status.images do not change during a run): the ImageStateSummary of
 * each name (size on the first node listing it, in node order, and how
 * many nodes list it), and each node's names as ids, so that neither
 * PreScore nor Score compares a name with every image of every node.
 */
struct il_summary {
    int64_t size, num_nodes;
    int32_t id;
    size_t last_node;           /* while building: the last node counted */
};

struct kp_image_index {
    struct kp_strmap names;     /* name -> struct il_summary */
    struct il_summary *sum;
    int32_t **node_ids;         /* per node, its distinct image ids */
    size_t *node_nids;
};

void
kp_image_index_free(struct kp_image_index *ix, size_t nnodes)
{
    size_t i;

    if (!ix)
        return;
    for (i = 0; i < nnodes; i++)
        free(ix->node_ids[i]);
    free(ix->node_ids);
    free(ix->node_nids);
    free(ix->sum);
    kp_strmap_release(&ix->names);
    free(ix);
}

static pthread_mutex_t image_index_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Made once, by whichever thread asks first (independent mode runs pods
 * on several), and kept where the label index is: a cluster made from a
 * template (the fixes' re-runs, kp_cluster_init_from) has the
 * template's nodes and shares its index (issue 31: each re-run built it
 * again, a name lookup per image of every node).
 */
static const struct kp_image_index *
image_index(const struct kp_cluster *cl)
{
    const struct kp_snapshot *snap = cl->snap;
    struct kp_caches *home = cl->caches->index_home ?
                             cl->caches->index_home : cl->caches;
    struct kp_image_index *ix;
    size_t i, j, n = 0, cap = 0;

    pthread_mutex_lock(&image_index_lock);
    if (home->images) {
        pthread_mutex_unlock(&image_index_lock);
        return home->images;
    }
    ix = kp_xcalloc(1, sizeof(*ix));
    kp_strmap_init(&ix->names);
    ix->node_ids = kp_xcalloc(snap->nnodes + 1, sizeof(*ix->node_ids));
    ix->node_nids = kp_xcalloc(snap->nnodes + 1, sizeof(*ix->node_nids));
    for (i = 0; i < snap->nnodes; i++) {
        const struct kp_node *node = snap->nodes[i];

        ix->node_ids[i] = kp_xmalloc((node->nimages + 1) * sizeof(int32_t));
        for (j = 0; j < node->nimages; j++) {
            const char *name = node->images[j].name;
            uintptr_t slot = (uintptr_t)kp_strmap_get(&ix->names, name);
            struct il_summary *s;

            if (!slot) {
                if (n == cap) {
                    cap = cap ? cap * 2 : 256;
                    ix->sum = kp_xrealloc(ix->sum, cap * sizeof(*ix->sum));
                }
                ix->sum[n].size = node->images[j].size;
                ix->sum[n].num_nodes = 0;
                ix->sum[n].id = (int32_t)n;
                ix->sum[n].last_node = SIZE_MAX;
                kp_strmap_put(&ix->names, name, (void *)(uintptr_t)(n + 1));
                slot = ++n;
            }
            s = &ix->sum[slot - 1];
            /* a node listing a name twice counts once */
            if (s->last_node != i) {
                s->last_node = i;
                s->num_nodes++;
                ix->node_ids[i][ix->node_nids[i]++] = s->id;
            }
        }
    }
    home->images = ix;
    pthread_mutex_unlock(&image_index_lock);
    return ix;
}

static bool
node_has_image(const struct kp_image_index *ix, size_t node, int32_t id)
{
    size_t i;

    for (i = 0; i < ix->node_nids[node]; i++)
        if (ix->node_ids[node][i] == id)
            return true;
    return false;
}

struct il_state {
    size_t n;
    struct il_image *images;
    const struct kp_image_index *ix;
};

/* normalizedImageName: append ":latest" when the name has no tag. */
static const char *
normalized_image_name(struct kp_arena *a, const char *name)
{
    const char *colon = strrchr(name, ':');
    const char *slash = strrchr(name, '/');
    size_t len = strlen(name);
    char *out;

    if (colon && (!slash || colon > slash))
        return name;
    out = kp_arena_alloc(a, len + sizeof(":latest"));
    memcpy(out, name, len);
    memcpy(out + len, ":latest", sizeof(":latest"));
    return out;
}

static void
image_state(const struct kp_image_index *ix, struct il_image *im)
{
    uintptr_t slot = (uintptr_t)kp_strmap_get(&ix->names, im->name);

    im->size = slot ? ix->sum[slot - 1].size : 0;
    im->num_nodes = slot ? ix->sum[slot - 1].num_nodes : 0;
    im->id = slot ? ix->sum[slot - 1].id : -1;
}

/* the release replayed (kp_kube_rules) */
static int
minor(const struct kp_score_nodes *f)
{
    return f->c->profile ? f->c->profile->kube_minor : 0;
}

/*
 * sumImageScores reads the containers' images and, from v1.36
 * (kubernetes/kubernetes#130231, KP_RULE_IMAGE_VOLUME_SCORE), the image
 * volumes' (spec.volumes[].image.reference).
 */
static bool
il_pre_score(const struct kp_score_nodes *f, void **state)
{
    const struct kp_pod *p = f->c->pod;
    struct il_state *s = kp_arena_alloc(f->c->scratch, sizeof(*s));
    size_t i;

    size_t nvol = kp_kube_rule_on(KP_RULE_IMAGE_VOLUME_SCORE, minor(f)) ?
                  p->nimage_volumes : 0;

    s->n = p->nimages + nvol;
    s->ix = s->n ? image_index(f->c->cl) : NULL;
    s->images = kp_arena_alloc(f->c->scratch,
                               (s->n + 1) * sizeof(*s->images));
    for (i = 0; i < s->n; i++) {
        const char *name = i < p->nimages ? p->images[i] :
                           p->image_volumes[i - p->nimages];

        s->images[i].name = normalized_image_name(f->c->scratch, name);
        image_state(s->ix, &s->images[i]);
    }
    *state = s;
    return true;
}

/* calculatePriority */
static int64_t
calculate_priority(int64_t sum, size_t ncontainers)
{
    int64_t max_threshold = MAX_CONTAINER_THRESHOLD * (int64_t)ncontainers;

    if (sum < MIN_THRESHOLD)
        sum = MIN_THRESHOLD;
    else if (sum > max_threshold)
        sum = max_threshold;
    return KP_MAX_NODE_SCORE * (sum - MIN_THRESHOLD) /
           (max_threshold - MIN_THRESHOLD);
}

/* sumImageScores with scaledImageScore, then calculatePriority. */
static int64_t
il_score(const struct kp_score_nodes *f, void *state, size_t idx)
{
    const struct kp_node_info *ni = kp_score_node_info(f, idx);
    const struct il_state *s = state;
    double total = (double)f->c->cl->snap->nnodes;
    int64_t sum = 0;
    size_t i;

    for (i = 0; i < s->n; i++) {
        const struct il_image *im = &s->images[i];

        if (im->id >= 0 && node_has_image(s->ix, (size_t)ni->index, im->id))
            sum += (int64_t)((double)im->size *
                             ((double)im->num_nodes / total));
    }
    /*
     * calculatePriority's image count: init and app containers; from
     * v1.37 (#138951, KP_RULE_IMAGE_VOLUME_THRESHOLD) image volumes too,
     * which 1.36 scored but did not count
     */
    return calculate_priority(sum, f->c->pod->ncontainers +
                              (kp_kube_rule_on(KP_RULE_IMAGE_VOLUME_THRESHOLD,
                                               minor(f)) ?
                               f->c->pod->nimage_volumes : 0));
}

const struct kp_score_plugin kp_score_image_locality = {
    .name = "ImageLocality",
    .weight = 1,
    .pre_score = il_pre_score,
    .score = il_score,
    .normalize = NULL,
};
