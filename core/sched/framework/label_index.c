/*
 * label_index.c - see label_index.h (when it stops holding: never while
 * the cluster lives; pods' labels do not change during a run).
 */
#include "label_index.h"

#include "hash.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* one (key, value) or, value NULL, one key; its pods are pods[start..] */
struct ix_slot {
    uint64_t hash;
    const char *key;            /* NULL: a free slot */
    const char *value;
    uint32_t start, n;
};

struct kp_label_index {
    struct ix_slot *slots;
    size_t cap;                 /* a power of two */
    uint32_t *pods;
};

static pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;

/* hk: the key's own hash (key_hash) */
static uint64_t
slot_hash_from(uint64_t hk, const char *value)
{
    return value ? kp_hash_str(kp_hash_byte(hk, 'v'), value) :
                   kp_hash_byte(hk, 'k');
}

static uint64_t
key_hash(const char *key)
{
    return kp_hash_byte(kp_hash_str(KP_HASH_SEED, key), 0);
}

static bool
slot_is(const struct ix_slot *s, uint64_t h, const char *key,
        const char *value)
{
    if (s->hash != h || !s->key)
        return false;
    if (s->key != key && strcmp(s->key, key) != 0)
        return false;
    if (!value || !s->value)
        return !value && !s->value;
    return s->value == value || strcmp(s->value, value) == 0;
}

/*
 * the slot of (key, value), h its hash: found, or the free one where it
 * would go
 */
static struct ix_slot *
find(const struct kp_label_index *ix, uint64_t h, const char *key,
     const char *value)
{
    size_t j;

    for (j = h & (ix->cap - 1); ix->slots[j].key; j = (j + 1) & (ix->cap - 1))
        if (slot_is(&ix->slots[j], h, key, value))
            break;
    return &ix->slots[j];
}

/*
 * Whether label i of l is the one kp_labels_get finds for its key (the
 * first of that key): a pod is listed once per key.
 */
static bool
first_of_key(const struct kp_labels *l, size_t i)
{
    size_t k;

    for (k = 0; k < i; k++)
        if (strcmp(l->items[k].key, l->items[i].key) == 0)
            return false;
    return true;
}

/*
 * pass 0 counts each slot's pods (making the slots), pass 1 lists them:
 * pods in snapshot order, so each list ascends
 */
static void
add_pods(struct kp_label_index *ix, const struct kp_snapshot *snap, int pass)
{
    size_t i, j, v;

    for (i = 0; i < snap->npods; i++) {
        const struct kp_labels *l = &snap->pods[i]->labels;

        for (j = 0; j < l->n; j++) {
            uint64_t hk;

            if (!first_of_key(l, j))
                continue;
            hk = key_hash(l->items[j].key);
            for (v = 0; v < 2; v++) {
                const char *value = v ? l->items[j].value : NULL;
                uint64_t h = slot_hash_from(hk, value);
                struct ix_slot *s = find(ix, h, l->items[j].key, value);

                if (pass == 0) {
                    if (!s->key) {
                        s->hash = h;
                        s->key = l->items[j].key;
                        s->value = value;
                    }
                    s->n++;
                } else {
                    ix->pods[s->start + s->n++] = (uint32_t)i;
                }
            }
        }
    }
}

static struct kp_label_index *
build(const struct kp_snapshot *snap)
{
    struct kp_label_index *ix = kp_xcalloc(1, sizeof(*ix));
    size_t i, nlabels = 0;
    uint32_t at = 0;

    for (i = 0; i < snap->npods; i++)
        nlabels += snap->pods[i]->labels.n;
    /* at most two slots a label, at most half full */
    for (ix->cap = 64; ix->cap < 4 * nlabels; ix->cap *= 2)
        ;
    ix->slots = kp_xcalloc(ix->cap, sizeof(*ix->slots));
    add_pods(ix, snap, 0);
    for (i = 0; i < ix->cap; i++) {
        ix->slots[i].start = at;
        at += ix->slots[i].n;
        ix->slots[i].n = 0;
    }
    ix->pods = kp_xmalloc(((size_t)at + 1) * sizeof(*ix->pods));
    add_pods(ix, snap, 1);
    return ix;
}

const struct kp_label_index *
kp_label_index_get(const struct kp_cluster *cl)
{
    struct kp_caches *home = cl->caches->index_home ?
                             cl->caches->index_home : cl->caches;
    const struct kp_label_index *ix;

    pthread_mutex_lock(&index_lock);
    if (!home->label_index)
        home->label_index = build(cl->snap);
    ix = home->label_index;
    pthread_mutex_unlock(&index_lock);
    return ix;
}

const uint32_t *
kp_label_index_pods(const struct kp_label_index *ix, const char *key,
                    const char *value, size_t *n)
{
    const struct ix_slot *s = find(ix, slot_hash_from(key_hash(key), value),
                                   key, value);

    *n = s->key ? s->n : 0;
    return s->key ? &ix->pods[s->start] : NULL;
}

/* whether value i of r repeats an earlier one (its pods counted once) */
bool
kp_label_index_value_repeats(const struct kp_requirement *r, size_t i)
{
    size_t k;

    for (k = 0; k < i; k++)
        if (strcmp(r->values[k], r->values[i]) == 0)
            return true;
    return false;
}

const struct kp_requirement *
kp_label_index_narrowest(const struct kp_label_index *ix,
                         const struct kp_selector *sel, size_t *total)
{
    const struct kp_requirement *best = NULL;
    size_t i, j, n, sum;

    *total = 0;
    if (sel->is_null || sel->invalid)
        return NULL;
    for (i = 0; i < sel->nreq; i++) {
        const struct kp_requirement *r = &sel->reqs[i];

        if (r->op == KP_OP_EXISTS) {
            kp_label_index_pods(ix, r->key, NULL, &sum);
        } else if (r->op == KP_OP_IN) {
            sum = 0;
            for (j = 0; j < r->nvalues; j++) {
                if (kp_label_index_value_repeats(r, j))
                    continue;
                kp_label_index_pods(ix, r->key, r->values[j], &n);
                sum += n;
            }
        } else {
            continue;
        }
        if (!best || sum < *total) {
            best = r;
            *total = sum;
        }
    }
    return best;
}

void
kp_label_index_free(struct kp_label_index *ix)
{
    if (!ix)
        return;
    free(ix->slots);
    free(ix->pods);
    free(ix);
}
