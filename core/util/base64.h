/*
 * base64.h - standard base64 (RFC 4648, padded), as Go's
 * encoding/base64.StdEncoding, for kubeconfig's *-data fields and the
 * exec plugins' KUBERNETES_EXEC_INFO.  Declarations moved verbatim from
 * core/live/kubeconfig.h (issue 28).
 */
#ifndef KP_BASE64_H
#define KP_BASE64_H

#include <stddef.h>

#include "arena.h"
#include "error.h"

struct kp_blob {
    unsigned char *data;
    size_t len;
};

/*
 * Decode standard base64 (padding required, CR/LF ignored) into a new
 * arena blob.  On failure says at which input byte.
 */
int kp_base64_decode(struct kp_arena *a, const char *in, struct kp_blob *out,
                     struct kp_error *err);

/* Standard base64 of data, kp_xmalloc'ed, NUL-terminated. */
char *kp_base64_encode(const unsigned char *data, size_t len);

#endif
