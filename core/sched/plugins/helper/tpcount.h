/*
 * tpcount.h - a (topology key, topology value) -> int64 counter, the C
 * shape of the Go maps map[topologyPair]int64 (interpodaffinity) and
 * map[string]int (podtopologyspread, one map per constraint).
 *
 * Open addressing in an arena.  Entries are never removed; one whose
 * count returns to 0 stays as "present with 0", and nonzero counts the
 * entries a Go map that deletes zeroed keys would hold
 * (len(topologyToMatchedTermCount)); used counts every entry (the
 * domains of TpValueToMatchNum).  Keys and values are borrowed
 * (snapshot-owned strings).
 *
 * kp_tpcount_clone() is upstream's Clone() without the copy: the clone
 * overlays its source and records only its own changes, so the
 * per-node copies of the preemption dry run cost nothing until a pod is
 * added or removed.  The source must not change while a clone of it is
 * in use; the cycle states guarantee it (a clone is made, changed and
 * dropped before its source changes again).
 */
#ifndef KP_TPCOUNT_H
#define KP_TPCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "labels.h"

struct kp_tpcount_slot {
    const char *key;            /* NULL: empty slot */
    const char *value;
    uint64_t h;                 /* kp_tpcount_hash(key, value) */
    int64_t n;
};

/* at most this many distinct keys are listed in kp_tpcount.keys */
#define KP_TPCOUNT_KEYS 4

struct kp_tpcount {
    size_t cap;                 /* power of two, or 0 */
    size_t nslots;              /* own slots in use */
    size_t used;                /* entries present (domains), base's too */
    size_t nonzero;             /* entries with n != 0, base's too */
    struct kp_tpcount_slot *slots;  /* own counts, or deltas over base */
    const struct kp_tpcount *base;  /* the map this clone overlays */
    /*
     * The distinct keys of the entries, the base's included, when there
     * are at most KP_TPCOUNT_KEYS (nkeys above: more, not listed): a
     * node label of another key has no count (kp_tpcount_any_label).
     */
    size_t nkeys;
    const char *keys[KP_TPCOUNT_KEYS];
};

void kp_tpcount_init(struct kp_tpcount *m);
/* Add delta to (key, value), creating the entry (possibly with 0). */
void kp_tpcount_add(struct kp_arena *a, struct kp_tpcount *m,
                    const char *key, const char *value, int64_t delta);
/*
 * The hash kp_tpcount_add computes for (key, value), and kp_tpcount_add
 * with it made beforehand (on another thread: the same map, entry for
 * entry, as kp_tpcount_add's)
 */
uint64_t kp_tpcount_hash(const char *key, const char *value);
void kp_tpcount_add_hashed(struct kp_arena *a, struct kp_tpcount *m,
                           const char *key, const char *value, uint64_t h,
                           int64_t delta);
/* The count, 0 when absent. */
int64_t kp_tpcount_get(const struct kp_tpcount *m, const char *key,
                       const char *value);
/* kp_tpcount_get with the pair's kp_tpcount_hash made beforehand */
int64_t kp_tpcount_get_hashed(const struct kp_tpcount *m, const char *key,
                              const char *value, uint64_t h);
/*
 * kp_tpcount_hash of a label's pair, of any key that is the label's key:
 * the hash the label keeps (labels.h), or, with KP_NO_LABEL_HASH set,
 * the pair hashed afresh.
 */
uint64_t kp_tpcount_label_hash(const struct kp_label *l);
/* the same for a hash kept elsewhere (a label column's, framework.h) */
uint64_t kp_tpcount_kept_hash(uint64_t kept, const char *key,
                              const char *value);
/*
 * A node's value of label key (NULL: it has none) and, when it has one,
 * its pair's hash in *h: from the label column col and its hashes colh
 * (kp_cluster_label_column, by node index) when there is one, else from
 * the node's labels
 */
const char *kp_tpcount_node_pair(const char *const *col,
                                 const uint64_t *colh, size_t index,
                                 const struct kp_labels *labels,
                                 const char *key, uint64_t *h);
/* Whether (key, value) has an entry (a domain, even with count 0). */
bool kp_tpcount_has(const struct kp_tpcount *m, const char *key,
                    const char *value);
/*
 * The entry of (key, value) in m, which is not a clone, or NULL when
 * absent: a lookup that only reads (several threads may call it), for
 * kp_tpcount_add_entry later.
 */
struct kp_tpcount_slot *kp_tpcount_entry(const struct kp_tpcount *m,
                                         const char *key, const char *value);
/*
 * kp_tpcount_add to an entry kp_tpcount_entry found in m; valid while m
 * has gained no entry since (its slots have not moved).
 */
void kp_tpcount_add_entry(struct kp_tpcount *m, struct kp_tpcount_slot *e,
                          int64_t delta);
/* dst becomes a copy of src (an overlay: see above). */
void kp_tpcount_clone(struct kp_tpcount *dst, const struct kp_tpcount *src);
/*
 * Call fn for every entry of a map that is not a clone (PreFilter's
 * critical paths), in slot order, with the entry's kp_tpcount_hash (for
 * kp_tpcount_add_hashed to another map of the same key).
 */
void kp_tpcount_each(const struct kp_tpcount *m,
                     void (*fn)(void *arg, const char *value, uint64_t h,
                                int64_t n),
                     void *arg);
/*
 * Call fn for every (key, value) of m, a clone's layers included (a pair
 * set in several layers is visited once per layer): for comparisons.
 */
void kp_tpcount_each_pair(const struct kp_tpcount *m,
                          void (*fn)(void *arg, const char *key,
                                     const char *value),
                          void *arg);
/*
 * Whether a and b hold the same counts (absent reads as 0) and, when
 * domains is set, the same entries (present with 0 included); why gets
 * the first difference.
 */
bool kp_tpcount_same(const struct kp_tpcount *a, const struct kp_tpcount *b,
                     bool domains, char *why, size_t whylen);
/*
 * Sum of the counts of the node's label pairs: the node's domain of
 * every key in the map, summed over the keys (InterPodAffinity Score).
 */
int64_t kp_tpcount_sum_labels(const struct kp_tpcount *m,
                              const struct kp_labels *node_labels);
/* Whether some label pair of the node has a count > 0. */
bool kp_tpcount_any_label(const struct kp_tpcount *m,
                          const struct kp_labels *node_labels);

#endif
