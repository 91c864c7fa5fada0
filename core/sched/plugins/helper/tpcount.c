/*
 * tpcount.c - see tpcount.h.  The counter maps of
 * pkg/scheduler/framework/plugins/interpodaffinity/filtering.go
 * (topologyToMatchedTermCount) and podtopologyspread/filtering.go
 * (TpValueToMatchNum).
 */
#include "tpcount.h"
#include "hash.h"
#include "selfcheck.h"
#include "shortcut.h"

#include <stdio.h>
#include <string.h>

static uint64_t
hash_pair(const char *key, const char *value)
{
    return kp_label_hash(key, value);
}

/* a hash given by the caller is the pair's (the self-check build) */
static void
check_hash(uint64_t h, const char *key, const char *value)
{
#ifdef KP_SELFCHECK
    if (h != hash_pair(key, value))
        kp_selfcheck_fail("topology pair (%s=%s): hash %llx given, the "
                          "pair's is %llx", key, value,
                          (unsigned long long)h,
                          (unsigned long long)hash_pair(key, value));
#else
    (void)h;
    (void)key;
    (void)value;
#endif
}

uint64_t
kp_tpcount_kept_hash(uint64_t kept, const char *key, const char *value)
{
    static atomic_int off = -1;

    if (kp_shortcut_off_once(&off, "KP_NO_LABEL_HASH"))
        return hash_pair(key, value);
    check_hash(kept, key, value);
    return kept;
}

uint64_t
kp_tpcount_label_hash(const struct kp_label *l)
{
    return kp_tpcount_kept_hash(l->h, l->key, l->value);
}

const char *
kp_tpcount_node_pair(const char *const *col, const uint64_t *colh,
                     size_t index, const struct kp_labels *labels,
                     const char *key, uint64_t *h)
{
    const struct kp_label *l;

    if (col) {
        const char *v = col[index];

        if (v)
            *h = kp_tpcount_kept_hash(colh[index], key, v);
        return v;
    }
    l = kp_labels_find(labels, key);
    if (!l)
        return NULL;
    *h = kp_tpcount_label_hash(l);
    return l->value;
}

/* the slot's pair is (key, value), whose hash_pair is h */
static bool
same(const struct kp_tpcount_slot *s, uint64_t h, const char *key,
     const char *value)
{
    return s->h == h && (s->key == key || strcmp(s->key, key) == 0) &&
           (s->value == value || strcmp(s->value, value) == 0);
}

void
kp_tpcount_init(struct kp_tpcount *m)
{
    memset(m, 0, sizeof(*m));
}

/*
 * The own slot of (key, value), whose hash_pair is h, or the empty slot
 * it would take.
 */
static struct kp_tpcount_slot *
find_h(const struct kp_tpcount *m, uint64_t h, const char *key,
       const char *value)
{
    size_t j;

    if (m->cap == 0)
        return NULL;
    j = h & (m->cap - 1);
    while (m->slots[j].key) {
        if (same(&m->slots[j], h, key, value))
            return &m->slots[j];
        j = (j + 1) & (m->cap - 1);
    }
    return &m->slots[j];
}

static struct kp_tpcount_slot *
find(const struct kp_tpcount *m, const char *key, const char *value)
{
    return find_h(m, hash_pair(key, value), key, value);
}

/* twice the slots, each entry moved to the slot of its kept hash */
static void
grow(struct kp_arena *a, struct kp_tpcount *m)
{
    struct kp_tpcount_slot *old = m->slots;
    size_t cap = m->cap, i, j;

    m->cap = cap ? cap * 2 : 16;
    m->slots = kp_arena_alloc(a, m->cap * sizeof(*m->slots));
    for (i = 0; i < cap; i++) {
        if (!old[i].key)
            continue;
        for (j = old[i].h & (m->cap - 1); m->slots[j].key;
             j = (j + 1) & (m->cap - 1))
            ;
        m->slots[j] = old[i];
    }
}

int64_t
kp_tpcount_get(const struct kp_tpcount *m, const char *key,
               const char *value)
{
    return kp_tpcount_get_hashed(m, key, value, hash_pair(key, value));
}

int64_t
kp_tpcount_get_hashed(const struct kp_tpcount *m, const char *key,
                      const char *value, uint64_t h)
{
    int64_t n = 0;

    check_hash(h, key, value);

    for (; m; m = m->base) {
        const struct kp_tpcount_slot *s = find_h(m, h, key, value);

        if (s && s->key)
            n += s->n;
    }
    return n;
}

bool
kp_tpcount_has(const struct kp_tpcount *m, const char *key,
               const char *value)
{
    uint64_t h = hash_pair(key, value);

    for (; m; m = m->base) {
        const struct kp_tpcount_slot *s = find_h(m, h, key, value);

        if (s && s->key)
            return true;
    }
    return false;
}

static bool
key_listed(const struct kp_tpcount *m, const char *key)
{
    size_t i;

    for (i = 0; i < m->nkeys; i++)
        if (m->keys[i] == key || strcmp(m->keys[i], key) == 0)
            return true;
    return false;
}

/* key has an entry now: list it (or stop listing past KP_TPCOUNT_KEYS) */
static void
note_key(struct kp_tpcount *m, const char *key)
{
    if (m->nkeys > KP_TPCOUNT_KEYS || key_listed(m, key))
        return;
    if (m->nkeys < KP_TPCOUNT_KEYS)
        m->keys[m->nkeys] = key;
    m->nkeys++;
}

void
kp_tpcount_add(struct kp_arena *a, struct kp_tpcount *m, const char *key,
               const char *value, int64_t delta)
{
    kp_tpcount_add_hashed(a, m, key, value, hash_pair(key, value), delta);
}

uint64_t
kp_tpcount_hash(const char *key, const char *value)
{
    return hash_pair(key, value);
}

void
kp_tpcount_add_hashed(struct kp_arena *a, struct kp_tpcount *m,
                      const char *key, const char *value, uint64_t h,
                      int64_t delta)
{
    const struct kp_tpcount *b;
    bool present = false;
    int64_t old = 0;
    struct kp_tpcount_slot *s;

    check_hash(h, key, value);
    /* one hash for every layer: present anywhere, old the sum */
    if ((m->nslots + 1) * 2 > m->cap)
        grow(a, m);
    s = find_h(m, h, key, value);
    if (s->key) {
        present = true;
        old = s->n;
    }
    for (b = m->base; b; b = b->base) {
        const struct kp_tpcount_slot *t = find_h(b, h, key, value);

        if (t && t->key) {
            present = true;
            old += t->n;
        }
    }
    if (!s->key) {
        s->key = key;
        s->value = value;
        s->h = h;
        s->n = 0;
        m->nslots++;
        note_key(m, key);
    }
    s->n += delta;
    if (!present)
        m->used++;
    if (old != 0 && old + delta == 0)
        m->nonzero--;
    else if (old == 0 && old + delta != 0)
        m->nonzero++;
}

struct kp_tpcount_slot *
kp_tpcount_entry(const struct kp_tpcount *m, const char *key,
                 const char *value)
{
    struct kp_tpcount_slot *s = find(m, key, value);

    return s && s->key ? s : NULL;
}

void
kp_tpcount_add_entry(struct kp_tpcount *m, struct kp_tpcount_slot *e,
                     int64_t delta)
{
    int64_t old = e->n;

    e->n += delta;
    if (old != 0 && old + delta == 0)
        m->nonzero--;
    else if (old == 0 && old + delta != 0)
        m->nonzero++;
}

void
kp_tpcount_clone(struct kp_tpcount *dst, const struct kp_tpcount *src)
{
    kp_tpcount_init(dst);
    dst->base = src;
    dst->used = src->used;
    dst->nonzero = src->nonzero;
    dst->nkeys = src->nkeys;
    memcpy(dst->keys, src->keys, sizeof(dst->keys));
}

void
kp_tpcount_each(const struct kp_tpcount *m,
                void (*fn)(void *arg, const char *value, uint64_t h,
                           int64_t n),
                void *arg)
{
    size_t i;

    for (i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            fn(arg, m->slots[i].value, m->slots[i].h, m->slots[i].n);
}

int64_t
kp_tpcount_sum_labels(const struct kp_tpcount *m,
                      const struct kp_labels *node_labels)
{
    int64_t sum = 0;
    size_t i;

    if (m->nonzero == 0)
        return 0;
    for (i = 0; i < node_labels->n; i++) {
        const struct kp_label *l = &node_labels->items[i];

        sum += kp_tpcount_get_hashed(m, l->key, l->value,
                                     kp_tpcount_label_hash(l));
    }
    return sum;
}

bool
kp_tpcount_any_label(const struct kp_tpcount *m,
                     const struct kp_labels *node_labels)
{
    size_t i;

    if (m->nonzero == 0)
        return false;
    /*
     * A label whose key no entry has has no count: with the keys listed,
     * only the node's labels of those keys (one each: a map's keys are
     * unique) are looked up, found mostly by the interned key's address.
     */
    if (m->nkeys <= KP_TPCOUNT_KEYS) {
        for (i = 0; i < m->nkeys; i++) {
            const struct kp_label *l = kp_labels_find(node_labels,
                                                      m->keys[i]);

            if (l && kp_tpcount_get_hashed(m, l->key, l->value,
                                           kp_tpcount_label_hash(l)) > 0)
                return true;
        }
        return false;
    }
    for (i = 0; i < node_labels->n; i++) {
        const struct kp_label *l = &node_labels->items[i];

        if (kp_tpcount_get_hashed(m, l->key, l->value,
                                  kp_tpcount_label_hash(l)) > 0)
            return true;
    }
    return false;
}

void
kp_tpcount_each_pair(const struct kp_tpcount *m,
                     void (*fn)(void *arg, const char *key,
                                const char *value),
                     void *arg)
{
    size_t i;

    for (; m; m = m->base)
        for (i = 0; i < m->cap; i++)
            if (m->slots[i].key)
                fn(arg, m->slots[i].key, m->slots[i].value);
}

struct same_ctx {
    const struct kp_tpcount *a, *b;
    bool domains, ok;
    char *why;
    size_t whylen;
};

static void
same_pair(void *arg, const char *key, const char *value)
{
    struct same_ctx *x = arg;
    int64_t na = kp_tpcount_get(x->a, key, value);
    int64_t nb = kp_tpcount_get(x->b, key, value);
    bool ha = kp_tpcount_has(x->a, key, value);
    bool hb = kp_tpcount_has(x->b, key, value);

    if (!x->ok)
        return;
    /* the key lists (kp_tpcount_any_label) hold every key of an entry */
    if ((ha && x->a->nkeys <= KP_TPCOUNT_KEYS && !key_listed(x->a, key)) ||
        (hb && x->b->nkeys <= KP_TPCOUNT_KEYS && !key_listed(x->b, key))) {
        x->ok = false;
        snprintf(x->why, x->whylen, "(%s=%s): key %s not listed", key, value,
                 key);
        return;
    }
    if (na != nb || (x->domains && ha != hb)) {
        x->ok = false;
        snprintf(x->why, x->whylen, "(%s=%s): %s%lld, want %s%lld", key,
                 value, ha ? "" : "absent ", (long long)na,
                 hb ? "" : "absent ", (long long)nb);
    }
}

bool
kp_tpcount_same(const struct kp_tpcount *a, const struct kp_tpcount *b,
                bool domains, char *why, size_t whylen)
{
    struct same_ctx x = {a, b, domains, true, why, whylen};

    kp_tpcount_each_pair(a, same_pair, &x);
    kp_tpcount_each_pair(b, same_pair, &x);
    if (x.ok && a->nonzero != b->nonzero) {
        x.ok = false;
        snprintf(why, whylen, "%zu nonzero entries, want %zu", a->nonzero,
                 b->nonzero);
    }
    if (x.ok && domains && a->used != b->used) {
        x.ok = false;
        snprintf(why, whylen, "%zu domains, want %zu", a->used, b->used);
    }
    return x.ok;
}
