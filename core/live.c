/*
 * live.c - see live.h.  Wired to api_client.c once it lands.
 */
#include "live.h"

int
kp_load_live(struct kp_snapshot *s, const struct kp_options *o,
             char *default_ns, size_t ns_len, struct kp_error *err)
{
    (void)s;
    (void)o;
    (void)default_ns;
    (void)ns_len;
    return kp_errorf(err, KP_EXIT_ERROR,
                     "reading a live cluster is not available in this "
                     "build; use -f FILE");
}
