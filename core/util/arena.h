/*
 * arena.h - bump allocator and string interning.
 *
 * Everything a snapshot holds lives in one arena and is released at once
 * by kp_arena_release().  Allocation failure aborts through kp_xmalloc
 * (as git's xmalloc): the analysis cannot go on without memory.
 *
 * Ownership, the one rule of core/: memory that comes from an arena
 * (kp_arena_*) belongs to that arena and is never freed alone; it lives
 * until the arena's release, reset or a rollback past it, and nothing may
 * keep a pointer into it beyond that (the sanitizer build poisons it).
 * Memory from kp_x* belongs to whoever holds the pointer and is freed by
 * the *_release of the struct that holds it.  A function that returns
 * arena memory says which arena; one that hands over malloc'd memory says
 * "caller frees".
 */
#ifndef KP_ARENA_H
#define KP_ARENA_H

#include <stddef.h>

struct kp_arena_chunk;

struct kp_arena {
    struct kp_arena_chunk *head;
    struct kp_arena_chunk *spare;   /* chunks kept by kp_arena_reset() */
    size_t total;               /* bytes handed out, for the memory limit */
    size_t peak;                /* the most total has been (reset keeps it) */
    /* string interning table (open addressing) */
    const char **strs;
    size_t nstrs, capstrs;
};

void *kp_xmalloc(size_t n);
void *kp_xcalloc(size_t n, size_t size);
void *kp_xrealloc(void *p, size_t n);

/* append item to the array arr of n items and cap slots, doubling it (64
 * at first) when full; kp_xrealloc stops the program when memory is out */
#define KP_PUSH(arr, n, cap, item)                                       \
    do {                                                                 \
        if ((n) == (cap)) {                                              \
            (cap) = (cap) ? (cap) * 2 : 64;                              \
            (arr) = kp_xrealloc((arr), (cap) * sizeof(*(arr)));          \
        }                                                                \
        (arr)[(n)++] = (item);                                           \
    } while (0)
char *kp_xstrdup(const char *s);

void kp_arena_init(struct kp_arena *a);
/* Zeroed, 16-byte aligned memory owned by the arena. */
void *kp_arena_alloc(struct kp_arena *a, size_t n);
/* n bytes, not zeroed: for arrays written whole before they are read */
void *kp_arena_alloc_uninit(struct kp_arena *a, size_t n);
/* Copy of s (NULL stays NULL). */
char *kp_arena_strdup(struct kp_arena *a, const char *s);
char *kp_arena_strndup(struct kp_arena *a, const char *s, size_t n);
/*
 * The strings given, up to a NULL, one after another in one new string:
 * with kp_arena_join below, the string-joins of core/
 * (kp_arena_concat(a, dir, "/", name, NULL)).
 */
char *kp_arena_concat(struct kp_arena *a, const char *s, ...)
    __attribute__((sentinel));
/* The n strings of items with sep between them ("" for n == 0). */
char *kp_arena_join(struct kp_arena *a, const char *const *items, size_t n,
                    const char *sep);
/* One shared copy per distinct string; NULL stays NULL. */
const char *kp_arena_intern(struct kp_arena *a, const char *s);
/* Copy of an array of n elements of size sz. */
void *kp_arena_memdup(struct kp_arena *a, const void *p, size_t n);
void kp_arena_release(struct kp_arena *a);
/*
 * Hand what src allocated over to dst: it lives as long as dst's (until
 * dst's release or reset) and src is left empty (its spare chunks and
 * no interned strings).  Threads that each filled an arena of their own
 * give them to one owner this way.
 */
void kp_arena_adopt(struct kp_arena *dst, struct kp_arena *src);
/*
 * Forget everything allocated (as kp_arena_release) but keep the standard
 * chunks for the next allocations: a scratch arena reused for each pod
 * does not go back to malloc (and the kernel) every time.
 */
void kp_arena_reset(struct kp_arena *a);

/*
 * A position in the arena, to take back what was allocated after it
 * (kp_arena_rollback): scratch copies made for one check and dropped.
 * Nothing allocated after the mark may be used after the rollback.
 */
struct kp_arena_mark {
    struct kp_arena_chunk *head;
    size_t used, total;
};
void kp_arena_mark(const struct kp_arena *a, struct kp_arena_mark *m);
void kp_arena_rollback(struct kp_arena *a, const struct kp_arena_mark *m);

#endif
