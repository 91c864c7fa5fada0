/*
 * victim_memo.c - SelectVictimsOnNode's answers kept across pods
 * (victim_memo.h).
 */
#include "victim_memo.h"

#include "shortcut.h"
#include "plugins.h"
#include "arena.h"
#include "hash.h"

#include <stdlib.h>
#include <string.h>

/* answers kept per node: the last few signatures whose dry run got there */
#define MEMO_WAYS 32

struct memo_entry {
    unsigned long gen, nom_gen;
    struct kp_status st;
    unsigned long pdb_clock;        /* when it was made or checked */
    /* a success: the PDB split it was made with, and the candidate */
    size_t npotential;
    bool *split;
    size_t nvictims;
    const struct kp_pod **victims;
    bool *violating;
    int num_pdb_violations;
    bool partial;                   /* kp_candidate.partial */
};

/* the keys apart, so that a lookup reads one short array */
struct memo_node {
    uint32_t key[MEMO_WAYS];
    unsigned next;                  /* the way replaced next */
    struct memo_entry *e;           /* MEMO_WAYS, made on first use */
};

struct signature {
    const struct kp_profile *profile;
    int32_t priority;
    size_t n;
    struct kp_res_entry *e;         /* the requests, copied */
    uint64_t hash;
};

struct kp_victim_memo {
    size_t nnodes;
    struct memo_node *nodes;
    struct signature *sig;          /* sig[key - 1] */
    size_t nsig, capsig;
    uint32_t *slot;                 /* open addressing: key, 0 empty */
    size_t nslot;
};

struct kp_victim_memo *
kp_victim_memo_new(const struct kp_cluster *cl)
{
    struct kp_victim_memo *m;
    size_t n = cl->snap->nnodes;

    /* KP_NO_VICTIM_MEMO=1: every answer worked out afresh */
    if (kp_shortcut_off("KP_NO_VICTIM_MEMO"))
        return NULL;
    m = kp_xcalloc(1, sizeof(*m));

    m->nnodes = n;
    m->nodes = kp_xcalloc(n ? n : 1, sizeof(*m->nodes));
    m->nslot = 64;
    m->slot = kp_xcalloc(m->nslot, sizeof(*m->slot));
    return m;
}

static void
entry_clear(struct memo_entry *e)
{
    free((void *)e->victims);   /* the entry's one block */
    free(e->st.more);           /* the status's own copy, if any */
    memset(e, 0, sizeof(*e));
}

void
kp_victim_memo_free(struct kp_victim_memo *m)
{
    size_t i, w;

    if (!m)
        return;
    for (i = 0; i < m->nnodes; i++) {
        for (w = 0; m->nodes[i].e && w < MEMO_WAYS; w++)
            entry_clear(&m->nodes[i].e[w]);
        free(m->nodes[i].e);
    }
    for (i = 0; i < m->nsig; i++)
        free(m->sig[i].e);
    free(m->nodes);
    free(m->sig);
    free(m->slot);
    free(m);
}

static bool
same_signature(const struct signature *s, const struct kp_cycle *c)
{
    const struct kp_resvec *r = &c->pod->req;
    size_t i;

    if (s->profile != c->profile || s->priority != c->pod->priority ||
        s->n != r->n)
        return false;
    for (i = 0; i < r->n; i++)
        if (s->e[i].id != r->e[i].id || s->e[i].value != r->e[i].value)
            return false;
    return true;
}

static void
rehash(struct kp_victim_memo *m)
{
    size_t i, j, mask;

    free(m->slot);
    m->nslot *= 2;
    m->slot = kp_xcalloc(m->nslot, sizeof(*m->slot));
    mask = m->nslot - 1;
    for (i = 0; i < m->nsig; i++) {
        for (j = (size_t)m->sig[i].hash & mask; m->slot[j];
             j = (j + 1) & mask)
            ;
        m->slot[j] = (uint32_t)(i + 1);
    }
}

/*
 * Whether c's answer on a potential node reads nothing but NodeInfo
 * aggregates NodeResourcesFit checks: every Filter plugin that runs
 * there (not skipped after PreFilter, not node_static: fit_only) is
 * NodeResourcesFit.
 */
static bool
memoisable(const struct kp_cycle *c)
{
    size_t i;

    for (i = 0; i < kp_nfilter_plugins; i++) {
        const struct kp_plugin *pl = kp_filter_plugins[i];

        if (c->skip[i] || pl->node_static ||
            pl == &kp_plugin_node_resources_fit)
            continue;
        return false;
    }
    return true;
}

uint32_t
kp_victim_memo_key(struct kp_victim_memo *m, const struct kp_cycle *c)
{
    const struct kp_resvec *r = &c->pod->req;
    uint64_t h;
    size_t i, j, mask;
    struct signature *s;

    if (!m || !memoisable(c))
        return 0;
    h = kp_hash_u64(KP_HASH_SEED, (uint64_t)(uintptr_t)c->profile);
    h = kp_hash_u64(h, (uint64_t)c->pod->priority);
    for (i = 0; i < r->n; i++)
        h = kp_hash_u64(kp_hash_u64(h, (uint64_t)r->e[i].id),
                        (uint64_t)r->e[i].value);
    mask = m->nslot - 1;
    for (j = (size_t)h & mask; m->slot[j]; j = (j + 1) & mask) {
        s = &m->sig[m->slot[j] - 1];
        if (s->hash == h && same_signature(s, c))
            return m->slot[j];
    }
    if (m->nsig == m->capsig) {
        m->capsig = m->capsig ? m->capsig * 2 : 64;
        m->sig = kp_xrealloc(m->sig, m->capsig * sizeof(*m->sig));
    }
    s = &m->sig[m->nsig++];
    s->profile = c->profile;
    s->priority = c->pod->priority;
    s->n = r->n;
    s->e = kp_xmalloc((r->n ? r->n : 1) * sizeof(*s->e));
    for (i = 0; i < r->n; i++)
        s->e[i] = r->e[i];
    s->hash = h;
    m->slot[j] = (uint32_t)m->nsig;
    if (2 * m->nsig > m->nslot)
        rehash(m);
    return (uint32_t)m->nsig;
}

static struct memo_entry *
find(struct kp_victim_memo *m, uint32_t key, const struct kp_cluster *cl,
     int node)
{
    struct memo_node *mn = &m->nodes[node];
    unsigned long gen = cl->nodes[node].gen;
    unsigned long nom_gen = cl->nominated_gen[node];
    size_t w;

    for (w = 0; w < MEMO_WAYS; w++) {
        struct memo_entry *e;

        if (mn->key[w] != key)
            continue;
        e = &mn->e[w];
        return e->gen == gen && e->nom_gen == nom_gen ? e : NULL;
    }
    return NULL;
}

/* Whether a PDB of one of the potential victims changed since clock. */
static bool
pdbs_changed(const struct kp_cluster *cl, const struct kp_victim_table *vt,
             size_t first, unsigned long clock)
{
    size_t k;

    for (k = vt->pdb_off[first]; k < vt->pdb_off[vt->n]; k++)
        if (cl->pdb_changed[vt->pdb[k]] > clock)
            return true;
    return false;
}

/* *dst = *src, the reasons past the inline ones copied into a */
static void
copy_status(struct kp_status *dst, const struct kp_status *src,
            struct kp_arena *a)
{
    size_t k;

    *dst = *src;
    if (src->nreasons <= KP_MAX_REASONS)
        return;
    k = (size_t)src->nreasons - KP_MAX_REASONS;
    dst->more = kp_arena_alloc(a, k * sizeof(*dst->more));
    memcpy(dst->more, src->more, k * sizeof(*dst->more));
}

int
kp_victim_memo_get(struct kp_victim_memo *m, uint32_t key,
                   const struct kp_cluster *cl, int node,
                   const struct kp_victim_table *vt, size_t first,
                   const bool *violating, bool partial_ok,
                   struct kp_arena *a, struct kp_status *st,
                   struct kp_candidate *out)
{
    struct memo_entry *e = find(m, key, cl, node);

    if (!e || (e->partial && !partial_ok))
        return 0;
    if (e->st.code != KP_SUCCESS) {
        copy_status(st, &e->st, a);
        return 1;
    }
    if (pdbs_changed(cl, vt, first, e->pdb_clock)) {
        if (!violating)
            return -1;
        if (e->npotential != vt->n - first ||
            memcmp(e->split, violating, e->npotential * sizeof(bool)) != 0)
            return 0;
        /* the same split with today's budgets: valid until they change */
        e->pdb_clock = cl->pdb_clock;
    }
    copy_status(st, &e->st, a);
    out->node = node;
    out->nvictims = e->nvictims;
    out->num_pdb_violations = e->num_pdb_violations;
    out->partial = e->partial;
    out->victims = kp_arena_alloc(a, (e->nvictims + 1) *
                                     sizeof(*out->victims));
    out->violating = kp_arena_alloc(a, e->nvictims + 1);
    if (e->nvictims) {
        memcpy(out->victims, e->victims,
               e->nvictims * sizeof(*out->victims));
        memcpy(out->violating, e->violating, e->nvictims * sizeof(bool));
    }
    return 1;
}

void
kp_victim_memo_put(struct kp_victim_memo *m, uint32_t key,
                   const struct kp_cluster *cl, int node,
                   const bool *violating, size_t npotential,
                   const struct kp_status *st,
                   const struct kp_candidate *cand)
{
    struct memo_node *mn = &m->nodes[node];
    struct memo_entry *e = NULL;
    size_t nv, w;
    char *mem;

    if (!mn->e)
        mn->e = kp_xcalloc(MEMO_WAYS, sizeof(*mn->e));
    /* a signature has one way per node: its answer there is replaced */
    for (w = 0; w < MEMO_WAYS && !e; w++)
        if (mn->key[w] == key)
            e = &mn->e[w];
    if (!e) {
        w = mn->next;
        mn->next = (mn->next + 1) % MEMO_WAYS;
        e = &mn->e[w];
        mn->key[w] = key;
    }
    entry_clear(e);
    e->gen = cl->nodes[node].gen;
    e->nom_gen = cl->nominated_gen[node];
    e->pdb_clock = cl->pdb_clock;
    e->st = *st;
    /* reasons past the inline ones live in the cycle's arena: a copy */
    if (st->nreasons > KP_MAX_REASONS) {
        size_t k = (size_t)st->nreasons - KP_MAX_REASONS;

        e->st.more = kp_xmalloc(k * sizeof(*e->st.more));
        memcpy(e->st.more, st->more, k * sizeof(*e->st.more));
    }
    if (st->code != KP_SUCCESS)
        return;
    nv = cand->nvictims;
    /* one block: the victims, their violating flags, the split */
    mem = kp_xmalloc(nv * (sizeof(*e->victims) + 1) + npotential + 1);
    e->victims = (const struct kp_pod **)(void *)mem;
    e->violating = (bool *)(void *)(mem + nv * sizeof(*e->victims));
    e->split = e->violating + nv;
    e->npotential = npotential;
    memcpy(e->split, violating, npotential * sizeof(bool));
    e->nvictims = nv;
    e->num_pdb_violations = cand->num_pdb_violations;
    e->partial = cand->partial;
    if (nv) {
        memcpy(e->victims, cand->victims, nv * sizeof(*e->victims));
        memcpy(e->violating, cand->violating, nv * sizeof(bool));
    }
}
