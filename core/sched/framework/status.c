/*
 * status.c - the Filter plugins' Status (kp_status, framework.h): a code
 * and its reasons, as pkg/scheduler/framework/interface.go's Status
 * (NewStatus, AppendReason).  Moved verbatim from framework.c (issue 28).
 */
#include "framework.h"

#include <stdlib.h>
#include <string.h>

struct kp_status
kp_status_new(enum kp_code code, const char *reason)
{
    struct kp_status st = kp_status_ok();

    st.code = code;
    if (reason)
        kp_status_add_reason(&st, reason);
    return st;
}

void
kp_status_add_reason(struct kp_status *st, const char *reason)
{
    kp_status_add_reason_in(st, reason, NULL);
}

void
kp_status_add_reason_in(struct kp_status *st, const char *reason,
                        struct kp_arena *a)
{
    size_t k;
    const char **more;

    if (st->nreasons < KP_MAX_REASONS) {
        st->reasons[st->nreasons++] = reason;
        return;
    }
    /* a plugin that can have more reasons passes an arena: never drop */
    if (!a)
        abort();
    k = (size_t)st->nreasons - KP_MAX_REASONS;
    /* capacities are powers of two from 4: grow when k reaches one */
    if (k == 0 || (k >= 4 && (k & (k - 1)) == 0)) {
        more = kp_arena_alloc(a, (k ? 2 * k : 4) * sizeof(*more));
        if (k)
            memcpy(more, st->more, k * sizeof(*more));
        st->more = more;
    }
    st->more[k] = reason;
    st->nreasons++;
}
