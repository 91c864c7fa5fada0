/* strmap.c - see strmap.h. */
#include "strmap.h"
#include "hash.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

static uint64_t
hash(const char *s)
{
    return kp_hash_str(KP_HASH_SEED, s);
}

void
kp_strmap_init(struct kp_strmap *m)
{
    memset(m, 0, sizeof(*m));
}

static void
grow(struct kp_strmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    struct kp_strmap_slot *s = kp_xcalloc(cap, sizeof(*s));
    size_t i;

    for (i = 0; i < m->cap; i++) {
        size_t j;

        if (!m->slots[i].key)
            continue;
        j = hash(m->slots[i].key) & (cap - 1);
        while (s[j].key)
            j = (j + 1) & (cap - 1);
        s[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->cap = cap;
}

void *
kp_strmap_put(struct kp_strmap *m, const char *key, void *value)
{
    size_t j;

    if ((m->n + 1) * 2 > m->cap)
        grow(m);
    j = hash(key) & (m->cap - 1);
    while (m->slots[j].key) {
        if (strcmp(m->slots[j].key, key) == 0) {
            void *old = m->slots[j].value;

            m->slots[j].value = value;
            return old;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->slots[j].key = key;
    m->slots[j].value = value;
    m->n++;
    return NULL;
}

void *
kp_strmap_get(const struct kp_strmap *m, const char *key)
{
    size_t j;

    if (!m->cap || !key)
        return NULL;
    j = hash(key) & (m->cap - 1);
    while (m->slots[j].key) {
        if (strcmp(m->slots[j].key, key) == 0)
            return m->slots[j].value;
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

void *
kp_strmap_remove(struct kp_strmap *m, const char *key)
{
    size_t j, k, home;
    void *old;

    if (!m->cap || !key)
        return NULL;
    j = hash(key) & (m->cap - 1);
    while (m->slots[j].key && strcmp(m->slots[j].key, key) != 0)
        j = (j + 1) & (m->cap - 1);
    if (!m->slots[j].key)
        return NULL;
    old = m->slots[j].value;
    m->slots[j].key = NULL;
    m->n--;
    /* move back the entries of the run after j that may land in j */
    for (k = (j + 1) & (m->cap - 1); m->slots[k].key;
         k = (k + 1) & (m->cap - 1)) {
        home = hash(m->slots[k].key) & (m->cap - 1);
        if (((k - home) & (m->cap - 1)) >= ((k - j) & (m->cap - 1))) {
            m->slots[j] = m->slots[k];
            m->slots[k].key = NULL;
            j = k;
        }
    }
    return old;
}

void
kp_strmap_release(struct kp_strmap *m)
{
    free(m->slots);
    memset(m, 0, sizeof(*m));
}
