/*
 * hash.h - the one string hash of core/: 64-bit FNV-1a, continued over
 * several strings by passing the running value back (KP_HASH_SEED to
 * start).  The seed is the one this project's tables have always used
 * (not FNV's published offset basis): table order, and so any output
 * that walks a table, stays as it was.
 */
#ifndef KP_HASH_H
#define KP_HASH_H

#include <stddef.h>
#include <stdint.h>

#define KP_HASH_SEED 1469598103934665603ULL

static inline uint64_t
kp_hash_str(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* One byte more, e.g. a separator between two strings hashed as a pair. */
static inline uint64_t
kp_hash_byte(uint64_t h, unsigned char c)
{
    return (h ^ c) * 1099511628211ULL;
}

/* n bytes of any kind (a key built in a buffer) */
static inline uint64_t
kp_hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;

    for (i = 0; i < n; i++)
        h = kp_hash_byte(h, b[i]);
    return h;
}

/* A 64-bit value, its bytes from the lowest up. */
static inline uint64_t
kp_hash_u64(uint64_t h, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++, v >>= 8)
        h = kp_hash_byte(h, (unsigned char)v);
    return h;
}

#endif
