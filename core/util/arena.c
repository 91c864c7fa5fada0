/* arena.c - see arena.h. */
#include "arena.h"
#include "hash.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/*
 * The debug arena of the sanitizer build (as libgit2's GIT_DEBUG_POOL):
 * under ASan, memory given back by kp_arena_rollback/reset is poisoned
 * and each allocation unpoisons only its own bytes, so a pointer kept
 * past a reset or a rollback is a use-after-poison report, not a silent
 * read of the next pod's data.
 */
#if defined(__SANITIZE_ADDRESS__)
#define KP_ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KP_ARENA_ASAN 1
#endif
#endif
#ifdef KP_ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/*
 * Chunks are 256 KiB until an arena has held BIG_AFTER bytes (a reset
 * arena keeps taking big ones: a scratch arena's arrays of one status
 * per node then come from kept chunks, not from malloc), then 4 MiB,
 * aligned on 2 MiB and offered to the kernel for transparent huge pages:
 * a snapshot of 150,000 pods is gigabytes of model read in random order,
 * and 4 KiB pages make that a page fault per page and a TLB miss per
 * pod.  Both sizes are kept for reuse by kp_arena_reset().
 */
#define CHUNK_SIZE (256 * 1024)
#define BIG_CHUNK (4 * 1024 * 1024)
#define BIG_DATA (BIG_CHUNK - sizeof(struct kp_arena_chunk))
#define BIG_AFTER (4 * 1024 * 1024)
#define HUGE_PAGE (2 * 1024 * 1024)

struct kp_arena_chunk {
    struct kp_arena_chunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

void *
kp_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);

    if (!p) {
        fputs("fatal: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *
kp_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);

    if (!p) {
        fputs("fatal: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *
kp_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);

    if (!q) {
        fputs("fatal: out of memory\n", stderr);
        abort();
    }
    return q;
}

char *
kp_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;

    return memcpy(kp_xmalloc(n), s, n);
}

void
kp_arena_init(struct kp_arena *a)
{
    memset(a, 0, sizeof(*a));
}

static struct kp_arena_chunk *
big_chunk(void)
{
    void *p = NULL;

    /* header and data fill two huge pages exactly */
    if (posix_memalign(&p, HUGE_PAGE, BIG_CHUNK) != 0 || !p) {
        fputs("fatal: out of memory\n", stderr);
        abort();
    }
#ifdef MADV_HUGEPAGE
    madvise(p, BIG_CHUNK, MADV_HUGEPAGE);
#endif
    return p;
}

/* n bytes, not zeroed. */
static void *
alloc_raw(struct kp_arena *a, size_t n)
{
    struct kp_arena_chunk *c = a->head;
    void *p;

    n = (n + 15) & ~(size_t)15;
    if (!c || c->size - c->used < n) {
        size_t want = a->peak >= BIG_AFTER ? BIG_DATA : CHUNK_SIZE;
        size_t size = n > want / 4 ? n : want;

        if (size == want && a->spare && a->spare->size >= n) {
            c = a->spare;
            a->spare = c->next;
            size = c->size;
        } else if (size == BIG_DATA) {
            c = big_chunk();
        } else {
            c = kp_xmalloc(sizeof(*c) + size);
        }
        c->size = size;
        c->used = 0;
        if (size == n && a->head) {
            /* big block: keep the current chunk in front */
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    p = c->data + c->used;
    UNPOISON(p, n);
    c->used += n;
    a->total += n;
    if (a->total > a->peak)
        a->peak = a->total;
    return p;
}

void *
kp_arena_alloc_uninit(struct kp_arena *a, size_t n)
{
    return alloc_raw(a, n);
}

void *
kp_arena_alloc(struct kp_arena *a, size_t n)
{
    void *p = alloc_raw(a, n);

    memset(p, 0, n);
    return p;
}

char *
kp_arena_strndup(struct kp_arena *a, const char *s, size_t n)
{
    char *p;

    if (!s)
        return NULL;
    p = alloc_raw(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *
kp_arena_strdup(struct kp_arena *a, const char *s)
{
    return s ? kp_arena_strndup(a, s, strlen(s)) : NULL;
}

char *
kp_arena_concat(struct kp_arena *a, const char *s, ...)
{
    va_list ap;
    const char *t;
    size_t n = 0, k;
    char *out, *p;

    va_start(ap, s);
    for (t = s; t; t = va_arg(ap, const char *))
        n += strlen(t);
    va_end(ap);
    out = p = alloc_raw(a, n + 1);
    va_start(ap, s);
    for (t = s; t; t = va_arg(ap, const char *)) {
        k = strlen(t);
        memcpy(p, t, k);
        p += k;
    }
    va_end(ap);
    *p = '\0';
    return out;
}

char *
kp_arena_join(struct kp_arena *a, const char *const *items, size_t n,
              const char *sep)
{
    size_t len = 0, k, i, lsep = strlen(sep);
    char *out, *p;

    for (i = 0; i < n; i++)
        len += strlen(items[i]) + (i ? lsep : 0);
    out = p = alloc_raw(a, len + 1);
    for (i = 0; i < n; i++) {
        if (i) {
            memcpy(p, sep, lsep);
            p += lsep;
        }
        k = strlen(items[i]);
        memcpy(p, items[i], k);
        p += k;
    }
    *p = '\0';
    return out;
}

void *
kp_arena_memdup(struct kp_arena *a, const void *p, size_t n)
{
    void *q;

    if (!n)
        return NULL;
    q = alloc_raw(a, n);
    memcpy(q, p, n);
    return q;
}

static uint64_t
hash_str(const char *s)
{
    return kp_hash_str(KP_HASH_SEED, s);
}

static void
intern_grow(struct kp_arena *a)
{
    size_t cap = a->capstrs ? a->capstrs * 2 : 1024;
    const char **t = kp_xcalloc(cap, sizeof(*t));
    size_t i;

    for (i = 0; i < a->capstrs; i++) {
        size_t j;

        if (!a->strs[i])
            continue;
        j = hash_str(a->strs[i]) & (cap - 1);
        while (t[j])
            j = (j + 1) & (cap - 1);
        t[j] = a->strs[i];
    }
    free(a->strs);
    a->strs = t;
    a->capstrs = cap;
}

const char *
kp_arena_intern(struct kp_arena *a, const char *s)
{
    size_t j;

    if (!s)
        return NULL;
    if ((a->nstrs + 1) * 2 > a->capstrs)
        intern_grow(a);
    j = hash_str(s) & (a->capstrs - 1);
    while (a->strs[j]) {
        if (strcmp(a->strs[j], s) == 0)
            return a->strs[j];
        j = (j + 1) & (a->capstrs - 1);
    }
    a->strs[j] = kp_arena_strdup(a, s);
    a->nstrs++;
    return a->strs[j];
}

void
kp_arena_release(struct kp_arena *a)
{
    kp_arena_reset(a);
    while (a->spare) {
        struct kp_arena_chunk *n = a->spare->next;

        free(a->spare);
        a->spare = n;
    }
    memset(a, 0, sizeof(*a));
}

void
kp_arena_adopt(struct kp_arena *dst, struct kp_arena *src)
{
    struct kp_arena_chunk *tail = src->head;

    if (tail) {
        while (tail->next)
            tail = tail->next;
        /* behind dst's current chunk, whose room stays in use */
        if (dst->head) {
            tail->next = dst->head->next;
            dst->head->next = src->head;
        } else {
            tail->next = NULL;
            dst->head = src->head;
        }
        dst->total += src->total;
        if (dst->total > dst->peak)
            dst->peak = dst->total;
    }
    free(src->strs);
    src->strs = NULL;
    src->nstrs = src->capstrs = 0;
    src->head = NULL;
    src->total = 0;
}

void
kp_arena_mark(const struct kp_arena *a, struct kp_arena_mark *m)
{
    m->head = a->head;
    m->used = a->head ? a->head->used : 0;
    m->total = a->total;
}

void
kp_arena_rollback(struct kp_arena *a, const struct kp_arena_mark *m)
{
    /*
     * Chunks started after the mark go back to the spares (blocks of
     * their own are freed); a block that went in behind the marked chunk
     * stays until the next reset.
     */
    while (a->head && a->head != m->head) {
        struct kp_arena_chunk *c = a->head;

        a->head = c->next;
        if (c->size == CHUNK_SIZE || c->size == BIG_DATA) {
            POISON(c->data, c->size);
            c->used = 0;
            c->next = a->spare;
            a->spare = c;
        } else {
            free(c);
        }
    }
    if (a->head) {
        POISON(a->head->data + m->used, a->head->used - m->used);
        a->head->used = m->used;
    }
    a->total = m->total;
}

void
kp_arena_reset(struct kp_arena *a)
{
    static const struct kp_arena_mark empty = {NULL, 0, 0};

    /* back to nothing: every chunk to the spares */
    kp_arena_rollback(a, &empty);
    free(a->strs);
    a->strs = NULL;
    a->nstrs = a->capstrs = 0;
}
