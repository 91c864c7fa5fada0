/*
 * base64.c - see base64.h.  Moved verbatim from core/live/kubeconfig.c
 * (issue 28): exec_credential.c encodes, kubeconfig.c decodes, and
 * neither calls the other for it.
 */
#include "base64.h"

#include <string.h>

/* ---- base64 ----------------------------------------------------------- */

static int
b64_value(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* Emit the bytes of a quartet holding q sextets (2, 3 or 4). */
static size_t
b64_emit(unsigned char *o, unsigned long v, int q)
{
    if (q == 4) {
        o[0] = (unsigned char)(v >> 16);
        o[1] = (unsigned char)(v >> 8);
        o[2] = (unsigned char)v;
        return 3;
    }
    if (q == 3) {
        o[0] = (unsigned char)(v >> 10);
        o[1] = (unsigned char)(v >> 2);
        return 2;
    }
    o[0] = (unsigned char)(v >> 4);
    return 1;
}

int
kp_base64_decode(struct kp_arena *a, const char *in, struct kp_blob *out,
                 struct kp_error *err)
{
    size_t n = strlen(in), i, len = 0;
    unsigned char *buf = kp_arena_alloc(a, n / 4 * 3 + 4);
    unsigned long v = 0;
    int q = 0, data = 0, pad = 0, ended = 0;

    for (i = 0; i < n; i++) {
        int c = (unsigned char)in[i], d;

        if (c == '\r' || c == '\n')
            continue;
        if (c == '=' && !ended && data + pad >= 2) {
            pad++;
            if (data + pad == 4) {
                len += b64_emit(buf + len, v, data);
                ended = 1;
            }
            continue;
        }
        d = b64_value(c);
        if (d < 0 || pad || ended)
            return kp_errorf(err, KP_EXIT_ERROR,
                             "illegal base64 data at input byte %zu", i);
        v = (v << 6) | (unsigned long)d;
        if (++data == 4) {
            len += b64_emit(buf + len, v, 4);
            v = 0;
            data = 0;
        }
    }
    q = data + pad;
    if (q != 0 && !ended)
        return kp_errorf(err, KP_EXIT_ERROR,
                         "illegal base64 data at input byte %zu", n);
    out->data = buf;
    out->len = len;
    return 0;
}

char *
kp_base64_encode(const unsigned char *data, size_t len)
{
    static const char tab[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = kp_xmalloc((len + 2) / 3 * 4 + 1), *o = out;
    size_t i;

    for (i = 0; i + 2 < len; i += 3) {
        unsigned long v = (unsigned long)data[i] << 16 |
                          (unsigned long)data[i + 1] << 8 | data[i + 2];

        *o++ = tab[v >> 18 & 63];
        *o++ = tab[v >> 12 & 63];
        *o++ = tab[v >> 6 & 63];
        *o++ = tab[v & 63];
    }
    if (i < len) {
        unsigned long v = (unsigned long)data[i] << 16;

        if (i + 1 < len)
            v |= (unsigned long)data[i + 1] << 8;
        *o++ = tab[v >> 18 & 63];
        *o++ = tab[v >> 12 & 63];
        *o++ = i + 1 < len ? tab[v >> 6 & 63] : '=';
        *o++ = '=';
    }
    *o = '\0';
    return out;
}
