/*
 * toleration_index.c - see toleration_index.h.
 *
 * Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go) is true
 * when the toleration's effect is empty or the taint's, its key is
 * empty or the taint's, and its operator is Exists, or Equal (or empty)
 * with the taint's value; any other operator tolerates nothing (Lt/Gt
 * are alpha and off by default: KP_TOL_OTHER).  So a taint (k, v, e) is
 * tolerated by some toleration exactly when the set holds one of the
 * eight (operator, key, value, effect) entries
 *
 *     (Exists, K, -, E) and (Equal, K, v, E)  for K in {"", k}, E in {"", e}
 *
 * which is what kp_tol_index_tolerates looks up.
 */
#include "toleration_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "shortcut.h"

struct tol_slot {
    const struct kp_toleration *t;      /* NULL: empty */
    uint64_t h;
};

struct kp_tol_index {
    size_t mask;                        /* slots - 1, a power of two - 1 */
    struct tol_slot *slot;
};

static uint64_t
entry_hash(enum kp_toleration_op op, const char *key, const char *value,
           const char *effect)
{
    uint64_t h = kp_hash_byte(KP_HASH_SEED, (unsigned char)op);

    h = kp_hash_byte(kp_hash_str(h, key), 0);
    if (op == KP_TOL_EQUAL)
        h = kp_hash_str(h, value);
    h = kp_hash_byte(h, 0);
    return kp_hash_str(h, effect);
}

static bool
entry_is(const struct kp_toleration *t, enum kp_toleration_op op,
         const char *key, const char *value, const char *effect)
{
    return t->op == op && strcmp(t->key, key) == 0 &&
           strcmp(t->effect, effect) == 0 &&
           (op != KP_TOL_EQUAL || strcmp(t->value, value) == 0);
}

const struct kp_tol_index *
kp_tol_index_build(struct kp_arena *a, const struct kp_toleration *tol,
                   size_t n)
{
    struct kp_tol_index *ix;
    size_t cap = 16, i;

    if (n < KP_TOL_INDEX_MIN || kp_shortcut_off("KP_NO_TOLERATION_INDEX"))
        return NULL;
    while (cap < 2 * n)
        cap *= 2;
    ix = kp_arena_alloc(a, sizeof(*ix));
    ix->mask = cap - 1;
    ix->slot = kp_arena_alloc(a, cap * sizeof(*ix->slot));
    memset(ix->slot, 0, cap * sizeof(*ix->slot));
    for (i = 0; i < n; i++) {
        const struct kp_toleration *t = &tol[i];
        uint64_t h;
        size_t s;

        if (t->op == KP_TOL_OTHER)
            continue;                   /* tolerates nothing */
        h = entry_hash(t->op, t->key, t->value, t->effect);
        for (s = h & ix->mask; ix->slot[s].t; s = (s + 1) & ix->mask)
            if (ix->slot[s].h == h &&
                entry_is(ix->slot[s].t, t->op, t->key, t->value, t->effect))
                break;                  /* the same entry twice */
        if (!ix->slot[s].t) {
            ix->slot[s].t = t;
            ix->slot[s].h = h;
        }
    }
    return ix;
}

static bool
has(const struct kp_tol_index *ix, enum kp_toleration_op op, const char *key,
    const char *value, const char *effect)
{
    uint64_t h = entry_hash(op, key, value, effect);
    size_t s;

    for (s = h & ix->mask; ix->slot[s].t; s = (s + 1) & ix->mask)
        if (ix->slot[s].h == h &&
            entry_is(ix->slot[s].t, op, key, value, effect))
            return true;
    return false;
}

bool
kp_tol_index_tolerates(const struct kp_tol_index *ix,
                       const struct kp_taint *taint)
{
    const char *keys[2] = {"", taint->key}, *effects[2] = {"", taint->effect};
    int k, e;

    for (k = 0; k < 2; k++)
        for (e = 0; e < 2; e++) {
            if (has(ix, KP_TOL_EXISTS, keys[k], "", effects[e]) ||
                has(ix, KP_TOL_EQUAL, keys[k], taint->value, effects[e]))
                return true;
            if (!effects[1][0])
                break;                  /* e = 1 is e = 0 again */
        }
    return false;
}
