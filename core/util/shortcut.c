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
