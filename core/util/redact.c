/*
 * redact.c - see redact.h.  Mirrors nothing upstream: kubectl prints
 * what the server says as is, which is how a token echoed by a proxy
 * ends up in a CI log.
 */
#include "redact.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

static void
wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;

    while (n--)
        *v++ = 0;
}

void
kp_redact_add(struct kp_redact *r, const char *secret, size_t len)
{
    size_t i;

    if (!secret || len < KP_REDACT_MIN_LEN)
        return;
    for (i = 0; i < r->n; i++)
        if (r->len[i] == len && memcmp(r->secret[i], secret, len) == 0)
            return;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 8;
        r->secret = kp_xrealloc(r->secret, r->cap * sizeof(*r->secret));
        r->len = kp_xrealloc(r->len, r->cap * sizeof(*r->len));
    }
    r->secret[r->n] = kp_xmalloc(len + 1);
    memcpy(r->secret[r->n], secret, len);
    r->secret[r->n][len] = '\0';
    r->len[r->n++] = len;
}

void
kp_redact_add_pem(struct kp_redact *r, const char *pem, size_t len)
{
    const char *p = pem, *end = pem + len, *first = NULL, *last = NULL;
    size_t first_len = 0, last_len = 0;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

        if (n && p[n - 1] == '\r')
            n--;
        if (n >= 16 && p[0] != '-' && !memchr(p, ':', n)) {
            if (!first) {
                first = p;
                first_len = n;
            } else if (n >= first_len) {
                last = p;
                last_len = n;
            }
        }
        p = nl ? nl + 1 : end;
    }
    kp_redact_add(r, first, first_len);
    kp_redact_add(r, last, last_len);
}

static char *
base64(const unsigned char *in, size_t n)
{
    static const char tab[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = kp_xmalloc(4 * ((n + 2) / 3) + 1), *o = out;
    size_t i;

    for (i = 0; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 |
                     in[i + 2];

        *o++ = tab[v >> 18];
        *o++ = tab[(v >> 12) & 63];
        *o++ = tab[(v >> 6) & 63];
        *o++ = tab[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)in[i] << 16 |
                     (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);

        *o++ = tab[v >> 18];
        *o++ = tab[(v >> 12) & 63];
        *o++ = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        *o++ = '=';
    }
    *o = '\0';
    return out;
}

void
kp_redact_add_basic(struct kp_redact *r, const char *user,
                    const char *password)
{
    size_t ul = user ? strlen(user) : 0, pl = password ? strlen(password) : 0;
    char *up, *b;

    if (!pl)
        return;
    kp_redact_add(r, password, pl);
    up = kp_xmalloc(ul + pl + 2);
    memcpy(up, user ? user : "", ul);
    up[ul] = ':';
    memcpy(up + ul + 1, password, pl + 1);
    b = base64((const unsigned char *)up, ul + pl + 1);
    kp_redact_add(r, b, strlen(b));
    wipe(up, ul + pl + 1);
    wipe(b, strlen(b));
    free(up);
    free(b);
}

/* The first secret at or after text[from], its index in *which. */
static const char *
next_secret(const struct kp_redact *r, const char *text, size_t len,
            size_t from, size_t *which)
{
    const char *best = NULL;
    size_t i;

    for (i = 0; i < r->n; i++) {
        const char *hit = memmem(text + from, len - from, r->secret[i],
                                 r->len[i]);

        if (hit && (!best || hit < best || (hit == best &&
                                            r->len[i] > r->len[*which]))) {
            best = hit;
            *which = i;
        }
    }
    return best;
}

char *
kp_redact_dup(const struct kp_redact *r, const char *text, size_t len,
              size_t *out_len)
{
    size_t from = 0, which = 0, n = 0, cap;
    const char *hit;
    char *out;

    if (!r || !r->n || !text)
        return NULL;
    hit = next_secret(r, text, len, 0, &which);
    if (!hit)
        return NULL;
    cap = len + 1;
    out = kp_xmalloc(cap);
    while (hit) {
        size_t keep = (size_t)(hit - text) - from;
        size_t need = n + keep + sizeof(KP_REDACTED) + (len - from);

        if (need > cap) {
            cap = need;
            out = kp_xrealloc(out, cap);
        }
        memcpy(out + n, text + from, keep);
        n += keep;
        memcpy(out + n, KP_REDACTED, sizeof(KP_REDACTED) - 1);
        n += sizeof(KP_REDACTED) - 1;
        from = (size_t)(hit - text) + r->len[which];
        hit = next_secret(r, text, len, from, &which);
    }
    if (n + (len - from) + 1 > cap)
        out = kp_xrealloc(out, n + (len - from) + 1);
    memcpy(out + n, text + from, len - from);
    n += len - from;
    out[n] = '\0';
    if (out_len)
        *out_len = n;
    return out;
}

void
kp_redact_str(const struct kp_redact *r, char *s, size_t cap)
{
    size_t n;
    char *clean = kp_redact_dup(r, s, strlen(s), &n);

    if (!clean)
        return;
    if (n >= cap)
        n = cap - 1;
    memcpy(s, clean, n);
    s[n] = '\0';
    free(clean);
}

void
kp_redact_release(struct kp_redact *r)
{
    size_t i;

    for (i = 0; i < r->n; i++) {
        wipe(r->secret[i], r->len[i]);
        free(r->secret[i]);
    }
    free(r->secret);
    free(r->len);
    memset(r, 0, sizeof(*r));
}
