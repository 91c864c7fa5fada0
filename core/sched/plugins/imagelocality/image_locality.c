/*
 * image_locality.c - mirrors pkg/scheduler/framework/plugins/
 * imagelocality/image_locality.go: PreScore (the ImageStateSummary of
 * each of the pod's images, normalizedImageName), Score (sumImageScores
 * with scaledImageScore, then calculatePriority).
 */
#include <string.h>

#include "score.h"

#define MB (1024LL * 1024)
#define MIN_THRESHOLD (23 * MB)
#define MAX_CONTAINER_THRESHOLD (1000 * MB)

/* The cluster-wide ImageStateSummary of one of the pod's images. */
struct il_image {
    const char *name;           /* normalizedImageName */
    int64_t size;               /* from the first node listing it */
    int64_t num_nodes;
};

struct il_state {
    size_t n;
    struct il_image *images;
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

/* The node's status.images entry named name, or NULL. */
static const struct kp_image *
node_image(const struct kp_node *node, const char *name)
{
    size_t i;

    for (i = 0; i < node->nimages; i++)
        if (strcmp(node->images[i].name, name) == 0)
            return &node->images[i];
    return NULL;
}

static void
image_state(const struct kp_cluster *cl, struct il_image *im)
{
    size_t i;

    im->size = 0;
    im->num_nodes = 0;
    for (i = 0; i < cl->snap->nnodes; i++) {
        const struct kp_image *img = node_image(cl->snap->nodes[i], im->name);

        if (!img)
            continue;
        if (im->num_nodes++ == 0)
            im->size = img->size;
    }
}

static bool
il_pre_score(const struct kp_score_nodes *f, void **state)
{
    const struct kp_pod *p = f->c->pod;
    struct il_state *s = kp_arena_alloc(f->c->scratch, sizeof(*s));
    size_t i;

    s->n = p->nimages;
    s->images = kp_arena_alloc(f->c->scratch,
                               (p->nimages + 1) * sizeof(*s->images));
    for (i = 0; i < p->nimages; i++) {
        s->images[i].name = normalized_image_name(f->c->scratch,
                                                  p->images[i]);
        image_state(f->c->cl, &s->images[i]);
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

        if (node_image(ni->node, im->name))
            sum += (int64_t)((double)im->size *
                             ((double)im->num_nodes / total));
    }
    return calculate_priority(sum, f->c->pod->ncontainers);
}

const struct kp_score_plugin kp_score_image_locality = {
    .name = "ImageLocality",
    .weight = 1,
    .pre_score = il_pre_score,
    .score = il_score,
    .normalize = NULL,
};
