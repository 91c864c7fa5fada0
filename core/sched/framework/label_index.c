/*
 * label_index.c - see label_index.h (when it stops holding: never while
 * the cluster lives; pods' labels do not change during a run).
 */
#include "label_index.h"

#include "hash.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* one (key, value) or, value NULL, one key; its n pods in pods[] */
struct ix_slot {
    uint64_t hash;
    const char *key;            /* NULL: a free slot */
    const char *value;
    uint32_t *pods;             /* in its key's block */
    uint32_t n, filled;
};

/*
 * A key is indexed (its slot, value NULL, present) the first time a
 * selector asks for it: one pass over the snapshot's pods reading that
 * key alone (kp_labels_get), its lists in one block of their own, never
 * moved, so a list handed out stays valid while other keys are added.
 */
struct kp_label_index {
    const struct kp_snapshot *snap;
    struct ix_slot *slots;
    size_t cap, used;           /* cap a power of two */
    void **blocks;              /* what it owns: lists, copies of keys */
    size_t nblocks, capblocks;
};

/* kp_label_index_get and the keys indexed on first use */
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

static void
grow(struct kp_label_index *ix)
{
    size_t cap = ix->cap * 2, i, j;
    struct ix_slot *s = kp_xcalloc(cap, sizeof(*s));

    for (i = 0; i < ix->cap; i++) {
        if (!ix->slots[i].key)
            continue;
        for (j = ix->slots[i].hash & (cap - 1); s[j].key; j = (j + 1) &
             (cap - 1))
            ;
        s[j] = ix->slots[i];
    }
    free(ix->slots);
    ix->slots = s;
    ix->cap = cap;
}

/* (key, value)'s slot, made (no pods yet) when there is none */
static struct ix_slot *
slot_of(struct kp_label_index *ix, uint64_t hk, const char *key,
        const char *value)
{
    uint64_t h = slot_hash_from(hk, value);
    struct ix_slot *s;

    if ((ix->used + 1) * 2 > ix->cap)
        grow(ix);
    s = find(ix, h, key, value);
    if (!s->key) {
        s->hash = h;
        s->key = key;
        s->value = value;
        ix->used++;
    }
    return s;
}

/* p is freed with the index */
static void
own(struct kp_label_index *ix, void *p)
{
    if (ix->nblocks == ix->capblocks) {
        ix->capblocks = ix->capblocks ? ix->capblocks * 2 : 16;
        ix->blocks = kp_xrealloc(ix->blocks,
                                 ix->capblocks * sizeof(*ix->blocks));
    }
    ix->blocks[ix->nblocks++] = p;
}

/*
 * Index key, whose value on pod i is vals[i * stride] (the one
 * kp_labels_get finds, so a pod is listed once per key) and whose
 * pointer in the pods' labels is kkey (NULL: no pod has it), the pods in
 * snapshot order, so each list ascends.  The slots keep the key and
 * values of the pods' labels (the snapshot's, which outlive the
 * cluster).
 */
static void
index_key(struct kp_label_index *ix, const char *key, const char *kkey,
          const char *const *vals, size_t stride)
{
    const struct kp_snapshot *snap = ix->snap;
    uint64_t hk = key_hash(key);
    struct ix_slot *ks;
    uint32_t *block, at;
    size_t i;

    if (!kkey) {
        /* no pod has it: an empty list, under a copy of the key */
        size_t len = strlen(key) + 1;
        char *copy = kp_xmalloc(len);

        memcpy(copy, key, len);
        kkey = copy;
        own(ix, copy);
    }
    slot_of(ix, hk, kkey, NULL);
    for (i = 0; i < snap->npods; i++)
        if (vals[i * stride])
            slot_of(ix, hk, kkey, vals[i * stride])->n++;
    /* the key's slot again: making slots may have moved them */
    ks = find(ix, slot_hash_from(hk, NULL), kkey, NULL);
    for (i = 0; i < snap->npods; i++)
        ks->n += vals[i * stride] != NULL;
    if (ks->n == 0)
        return;
    block = kp_xmalloc((size_t)ks->n * 2 * sizeof(*block));
    own(ix, block);
    ks->pods = block;
    at = ks->n;
    for (i = 0; i < snap->npods; i++) {
        const char *v = vals[i * stride];
        struct ix_slot *vs;

        if (!v)
            continue;
        ks->pods[ks->filled++] = (uint32_t)i;
        vs = find(ix, slot_hash_from(hk, v), kkey, v);
        if (!vs->pods) {
            vs->pods = block + at;
            at += vs->n;
        }
        vs->pods[vs->filled++] = (uint32_t)i;
    }
}

static bool
indexed(const struct kp_label_index *ix, const char *key)
{
    return find(ix, slot_hash_from(key_hash(key), NULL), key, NULL)->key;
}

/*
 * Index those of the nk keys not indexed yet, in one pass over the
 * pods' labels for all of them (a selector's requirements name several:
 * a workload's matchLabels has up to 7 in the bench's shapes).
 */
static void
index_keys(struct kp_label_index *ix, const char **keys, size_t nk)
{
    const struct kp_snapshot *snap = ix->snap;
    const char **kkey, **vals;
    size_t i, j, k, m = 0;

    for (k = 0; k < nk; k++) {
        bool seen = indexed(ix, keys[k]);

        for (j = 0; j < m && !seen; j++)
            seen = strcmp(keys[j], keys[k]) == 0;
        if (!seen)
            keys[m++] = keys[k];
    }
    if (m == 0)
        return;
    kkey = kp_xcalloc(m, sizeof(*kkey));
    vals = kp_xcalloc(snap->npods * m + 1, sizeof(*vals));
    for (i = 0; i < snap->npods; i++) {
        const struct kp_labels *l = &snap->pods[i]->labels;

        for (j = 0; j < l->n; j++) {
            const char *lk = l->items[j].key;

            for (k = 0; k < m; k++) {
                /* the first label of the key, as kp_labels_get */
                if (vals[i * m + k] ||
                    (lk != keys[k] && strcmp(lk, keys[k]) != 0))
                    continue;
                vals[i * m + k] = l->items[j].value;
                if (!kkey[k])
                    kkey[k] = lk;
            }
        }
    }
    for (k = 0; k < m; k++)
        index_key(ix, keys[k], kkey[k], vals + k, m);
    free(kkey);
    free(vals);
}

struct kp_label_index *
kp_label_index_get(const struct kp_cluster *cl)
{
    struct kp_caches *home = cl->caches->index_home ?
                             cl->caches->index_home : cl->caches;
    struct kp_label_index *ix;

    pthread_mutex_lock(&index_lock);
    if (!home->label_index) {
        ix = kp_xcalloc(1, sizeof(*ix));
        ix->snap = cl->snap;
        ix->cap = 64;
        ix->slots = kp_xcalloc(ix->cap, sizeof(*ix->slots));
        home->label_index = ix;
    }
    ix = home->label_index;
    pthread_mutex_unlock(&index_lock);
    return ix;
}

const uint32_t *
kp_label_index_pods(struct kp_label_index *ix, const char *key,
                    const char *value, size_t *n)
{
    uint64_t hk = key_hash(key);
    const struct ix_slot *s;
    const uint32_t *pods;

    /* independent mode asks from several threads at once */
    pthread_mutex_lock(&index_lock);
    if (!indexed(ix, key))
        index_keys(ix, &key, 1);
    s = find(ix, slot_hash_from(hk, value), key, value);
    *n = s->key ? s->n : 0;
    pods = s->key ? s->pods : NULL;
    pthread_mutex_unlock(&index_lock);
    return pods;
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
kp_label_index_narrowest(struct kp_label_index *ix,
                         const struct kp_selector *sel, size_t *total)
{
    const struct kp_requirement *best = NULL;
    const char **keys;
    size_t i, j, n, sum, nk = 0;

    *total = 0;
    if (sel->is_null || sel->invalid || sel->nreq == 0)
        return NULL;
    /* the keys it names, indexed together */
    keys = kp_xmalloc(sel->nreq * sizeof(*keys));
    for (i = 0; i < sel->nreq; i++)
        if (sel->reqs[i].op == KP_OP_EXISTS || sel->reqs[i].op == KP_OP_IN)
            keys[nk++] = sel->reqs[i].key;
    pthread_mutex_lock(&index_lock);
    index_keys(ix, keys, nk);
    pthread_mutex_unlock(&index_lock);
    free(keys);
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
    size_t i;

    if (!ix)
        return;
    for (i = 0; i < ix->nblocks; i++)
        free(ix->blocks[i]);
    free(ix->blocks);
    free(ix->slots);
    free(ix);
}
