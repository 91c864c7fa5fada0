/*
 * host_port_info.c - HostPortInfo (pkg/scheduler/framework/types.go):
 * the (ip, protocol, port) triples a NodeInfo's pods use, as a set, with
 * Add, Remove and CheckConflict (see framework.h).
 *
 * Upstream keeps a map of IP to a map of (protocol, port); here the
 * triples are an array, scanned while the set is small.  From
 * KP_PORT_HASH_MIN triples on, the array is also hashed by (port,
 * protocol) (linear probing, backward-shift deletion: every triple of a
 * (port, protocol) lies in the run of occupied slots from its hash), so
 * CheckConflict looks at the triples of the wanted (port, protocol) only,
 * whatever their IPs, and Add and Remove find a triple without a scan
 * (issue 27: 65,000 host ports on four pods took 26 s).
 * KP_NO_PORT_HASH=1 in the environment keeps every set a scanned array
 * (the shortcut off, shortcut.h); the answers are the same.
 */
#include <stdlib.h>
#include <string.h>

#include "framework.h"
#include "hash.h"
#include "shortcut.h"

#define KP_PORT_HASH_MIN 16

static bool
same_port(const struct kp_host_port *a, const struct kp_host_port *b)
{
    return a->port == b->port &&
           (a->ip == b->ip || strcmp(a->ip, b->ip) == 0) &&
           (a->protocol == b->protocol ||
            strcmp(a->protocol, b->protocol) == 0);
}

/* HostPortInfo.sanitize: no IP is 0.0.0.0, no protocol TCP */
static struct kp_host_port
sanitize(const struct kp_host_port *hp)
{
    struct kp_host_port s = *hp;

    if (!s.ip || !s.ip[0])
        s.ip = "0.0.0.0";
    if (!s.protocol || !s.protocol[0])
        s.protocol = "TCP";
    return s;
}

static size_t
port_hash(const struct kp_host_port *hp)
{
    return (size_t)kp_hash_str(kp_hash_u64(KP_HASH_SEED,
                                           (uint64_t)(uint32_t)hp->port),
                               hp->protocol);
}

static bool
same_key(const struct kp_host_port *a, const struct kp_host_port *b)
{
    return a->port == b->port &&
           (a->protocol == b->protocol ||
            strcmp(a->protocol, b->protocol) == 0);
}

static void *
grow(struct kp_arena *a, void *old, size_t oldsize, size_t size)
{
    void *p;

    if (!a)
        return kp_xrealloc(old, size);
    p = kp_arena_alloc(a, size);
    if (oldsize)
        memcpy(p, old, oldsize);
    return p;
}

/* (re)builds the slots, nslots of them, from e */
static void
rehash(struct kp_port_set *s, struct kp_arena *a, size_t nslots)
{
    size_t i, mask = nslots - 1;

    if (a)
        s->slot = kp_arena_alloc(a, nslots * sizeof(*s->slot));
    else
        s->slot = kp_xrealloc(s->slot, nslots * sizeof(*s->slot));
    s->nslots = nslots;
    memset(s->slot, 0, nslots * sizeof(*s->slot));
    for (i = 0; i < s->n; i++) {
        size_t h = port_hash(&s->e[i]) & mask;

        while (s->slot[h])
            h = (h + 1) & mask;
        s->slot[h] = (uint32_t)(i + 1);
    }
}

/* the slot holding a triple equal to hp, or nslots */
static size_t
find_slot(const struct kp_port_set *s, const struct kp_host_port *hp)
{
    size_t mask = s->nslots - 1, h = port_hash(hp) & mask;

    for (; s->slot[h]; h = (h + 1) & mask)
        if (same_port(&s->e[s->slot[h] - 1], hp))
            return h;
    return s->nslots;
}

void
kp_port_set_add(struct kp_port_set *s, struct kp_arena *a,
                const struct kp_host_port *in)
{
    struct kp_host_port san = sanitize(in);
    const struct kp_host_port *hp = &san;
    size_t i;

    if (hp->port <= 0)
        return;
    if (s->nslots) {
        if (find_slot(s, hp) != s->nslots)
            return;
    } else {
        for (i = 0; i < s->n; i++)
            if (same_port(&s->e[i], hp))
                return;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4;

        s->e = grow(a, s->e, s->n * sizeof(*s->e), cap * sizeof(*s->e));
        s->cap = cap;
    }
    s->e[s->n++] = *hp;
    if (s->nslots && 2 * s->n > s->nslots) {
        rehash(s, a, 2 * s->nslots);
    } else if (s->nslots) {
        size_t mask = s->nslots - 1, h = port_hash(hp) & mask;

        while (s->slot[h])
            h = (h + 1) & mask;
        s->slot[h] = (uint32_t)s->n;
    } else if (s->n >= KP_PORT_HASH_MIN && !kp_shortcut_off("KP_NO_PORT_HASH")) {
        size_t nslots = 64;

        while (nslots < 2 * s->n)
            nslots *= 2;
        rehash(s, a, nslots);
    }
}

/* empties slot h, moving up the triples of its run (no tombstones) */
static void
delete_slot(struct kp_port_set *s, size_t h)
{
    size_t mask = s->nslots - 1, j = h;

    s->slot[h] = 0;
    for (;;) {
        size_t home;

        j = (j + 1) & mask;
        if (!s->slot[j])
            return;
        home = port_hash(&s->e[s->slot[j] - 1]) & mask;
        /* j's triple may fill h when its home is not in (h, j] */
        if (((j - home) & mask) >= ((j - h) & mask)) {
            s->slot[h] = s->slot[j];
            s->slot[j] = 0;
            h = j;
        }
    }
}

void
kp_port_set_remove(struct kp_port_set *s, const struct kp_host_port *in)
{
    struct kp_host_port san = sanitize(in);
    const struct kp_host_port *hp = &san;
    size_t i, h, last;

    if (!s->nslots) {
        for (i = 0; i < s->n; i++) {
            if (same_port(&s->e[i], hp)) {
                memmove(&s->e[i], &s->e[i + 1],
                        (s->n - i - 1) * sizeof(*s->e));
                s->n--;
                return;
            }
        }
        return;
    }
    h = find_slot(s, hp);
    if (h == s->nslots)
        return;
    i = s->slot[h] - 1;
    delete_slot(s, h);
    last = s->n - 1;
    if (i != last) {
        /* the last triple fills the hole: its slot says so */
        h = port_hash(&s->e[last]) & (s->nslots - 1);
        while (s->slot[h] != last + 1)
            h = (h + 1) & (s->nslots - 1);
        s->slot[h] = (uint32_t)(i + 1);
        s->e[i] = s->e[last];
    }
    s->n--;
}

bool
kp_port_set_has(const struct kp_port_set *s, const struct kp_host_port *in)
{
    struct kp_host_port hp = sanitize(in);
    size_t i;

    if (s->nslots)
        return find_slot(s, &hp) != s->nslots;
    for (i = 0; i < s->n; i++)
        if (same_port(&s->e[i], &hp))
            return true;
    return false;
}

/*
 * CheckConflict: a wanted 0.0.0.0 conflicts with the (protocol, port) on
 * any IP; another IP with the same one on that IP or on 0.0.0.0.
 */
static bool
conflicts(const struct kp_host_port *u, const struct kp_host_port *hp,
          bool any)
{
    return any || strcmp(u->ip, "0.0.0.0") == 0 || strcmp(u->ip, hp->ip) == 0;
}

bool
kp_port_set_conflict(const struct kp_port_set *s,
                     const struct kp_host_port *in)
{
    struct kp_host_port san = sanitize(in);
    const struct kp_host_port *hp = &san;
    bool any = strcmp(hp->ip, "0.0.0.0") == 0;
    size_t i;

    if (hp->port <= 0)
        return false;
    if (s->nslots) {
        size_t mask = s->nslots - 1, h = port_hash(hp) & mask;

        for (; s->slot[h]; h = (h + 1) & mask) {
            const struct kp_host_port *u = &s->e[s->slot[h] - 1];

            if (same_key(u, hp) && conflicts(u, hp, any))
                return true;
        }
        return false;
    }
    for (i = 0; i < s->n; i++) {
        const struct kp_host_port *u = &s->e[i];

        if (same_key(u, hp) && conflicts(u, hp, any))
            return true;
    }
    return false;
}

void
kp_port_set_copy(struct kp_port_set *dst, const struct kp_port_set *src,
                 struct kp_arena *a)
{
    if (a) {
        dst->n = dst->cap = src->n;
        dst->e = src->n ? kp_arena_memdup(a, src->e,
                                          src->n * sizeof(*src->e)) : NULL;
        dst->nslots = src->nslots;
        dst->slot = src->nslots ? kp_arena_memdup(a, src->slot, src->nslots *
                                                  sizeof(*src->slot)) : NULL;
        return;
    }
    if (dst->cap < src->n) {
        dst->cap = src->n;
        dst->e = kp_xrealloc(dst->e, dst->cap * sizeof(*dst->e));
    }
    dst->n = src->n;
    if (src->n)
        memcpy(dst->e, src->e, src->n * sizeof(*src->e));
    if (!src->nslots) {
        free(dst->slot);
        dst->slot = NULL;
        dst->nslots = 0;
        return;
    }
    if (dst->nslots != src->nslots)
        dst->slot = kp_xrealloc(dst->slot, src->nslots * sizeof(*dst->slot));
    dst->nslots = src->nslots;
    memcpy(dst->slot, src->slot, src->nslots * sizeof(*src->slot));
}

void
kp_port_set_free(struct kp_port_set *s)
{
    free(s->e);
    free(s->slot);
    s->e = NULL;
    s->slot = NULL;
    s->n = s->cap = s->nslots = 0;
}
