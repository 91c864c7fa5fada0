/*
 * strmap.h - string-keyed hash map (open addressing), for name indexes.
 * Keys are borrowed: they must outlive the map (arena strings do).
 */
#ifndef KP_STRMAP_H
#define KP_STRMAP_H

#include <stddef.h>

struct kp_strmap_slot {
    const char *key;
    void *value;
};

struct kp_strmap {
    struct kp_strmap_slot *slots;
    size_t n, cap;
};

void kp_strmap_init(struct kp_strmap *m);
/* Insert key; returns the previous value, or NULL when key was new. */
void *kp_strmap_put(struct kp_strmap *m, const char *key, void *value);
void *kp_strmap_get(const struct kp_strmap *m, const char *key);
/*
 * Remove key (backward-shift deletion, no tombstones); returns its value,
 * or NULL when it was absent.
 */
void *kp_strmap_remove(struct kp_strmap *m, const char *key);
void kp_strmap_release(struct kp_strmap *m);

#endif
