/* error.c - see error.h. */
#include "error.h"

#include <stdio.h>
#include <string.h>

int
kp_errorf(struct kp_error *err, int code, const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return -1;
    err->exit_code = code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return -1;
}

void
kp_error_join(struct kp_error *err, const char *a, const char *sep,
              const char *b)
{
    size_t cap = sizeof(err->msg) - 1, len = 0;
    const char *parts[3] = {a, sep, b};
    int i;

    for (i = 0; i < 3; i++) {
        size_t n = strlen(parts[i]);

        if (n > cap - len)
            n = cap - len;
        memcpy(err->msg + len, parts[i], n);
        len += n;
    }
    err->msg[len] = '\0';
}

int
kp_error_prefix(struct kp_error *err, const char *fmt, ...)
{
    char prefix[512];
    char old[sizeof(err->msg)];
    va_list ap;

    if (!err)
        return -1;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof(prefix), fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof(old));
    kp_error_join(err, prefix, ": ", old);
    return -1;
}
