/*
 * shortcut.c - see shortcut.h.
 */
#include "shortcut.h"

#include <stdlib.h>
#include <string.h>

bool
kp_shortcut_off(const char *env)
{
    const char *v = getenv(env);

    return v && v[0] && strcmp(v, "0") != 0;
}

bool
kp_shortcut_off_once(atomic_int *seen, const char *env)
{
    int off = atomic_load_explicit(seen, memory_order_relaxed);

    if (off < 0) {
        off = kp_shortcut_off(env);
        atomic_store_explicit(seen, off, memory_order_relaxed);
    }
    return off != 0;
}
