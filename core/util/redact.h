/*
 * redact.h - the credentials in use, and text scrubbed of them.
 *
 * Whatever the API server, an exec credential plugin or a file says may
 * quote the credentials sent with the request (a proxy echoing the
 * Authorization header, a Status message built from it, a plugin's
 * output).  The live path registers every credential it holds here and
 * passes every such text through kp_redact before it reaches a message,
 * the snapshot or --snapshot-out: each occurrence of a credential is
 * replaced with KP_REDACTED.  Credentials shorter than
 * KP_REDACT_MIN_LEN bytes are not looked for (they would match
 * everywhere and are no secret).
 */
#ifndef KP_REDACT_H
#define KP_REDACT_H

#include <stddef.h>

#define KP_REDACTED "[REDACTED]"
#define KP_REDACT_MIN_LEN 4

struct kp_redact {
    char **secret;
    size_t *len;
    size_t n, cap;
};

/* Add a copy of secret (len bytes); short or repeated ones are ignored. */
void kp_redact_add(struct kp_redact *r, const char *secret, size_t len);

/*
 * Add a PEM private key: the lines of its base64 body (its first and
 * last full lines; the server never sees the key, these catch a file
 * quoted back in a message).
 */
void kp_redact_add_pem(struct kp_redact *r, const char *pem, size_t len);

/* Add the base64 of "user:password" as sent by basic auth, and both. */
void kp_redact_add_basic(struct kp_redact *r, const char *user,
                         const char *password);

/*
 * text (len bytes) with every secret replaced: NULL when it holds none
 * (the common case: nothing is copied), else a new NUL-terminated
 * string of *out_len bytes that the caller frees.
 */
char *kp_redact_dup(const struct kp_redact *r, const char *text,
                    size_t len, size_t *out_len);

/* The same in place, in a NUL-terminated string of capacity cap. */
void kp_redact_str(const struct kp_redact *r, char *s, size_t cap);

/* Wipe and free the secrets. */
void kp_redact_release(struct kp_redact *r);

#endif
