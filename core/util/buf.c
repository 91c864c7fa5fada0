/* buf.c - see buf.h. */
#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

void
kp_buf_init(struct kp_buf *b)
{
    memset(b, 0, sizeof(*b));
}

void
kp_buf_release(struct kp_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

#define FLUSH_AT (1024 * 1024)

void
kp_buf_set_sink(struct kp_buf *b, FILE *sink)
{
    b->sink = sink;
}

static void
reserve(struct kp_buf *b, size_t n)
{
    if (b->sink && b->len >= FLUSH_AT) {
        if (!b->sink_error && fwrite(b->data, 1, b->len, b->sink) != b->len)
            b->sink_error = true;
        b->len = 0;
    }
    if (b->len + n + 1 <= b->cap)
        return;
    while (b->len + n + 1 > b->cap)
        b->cap = b->cap ? b->cap * 2 : 4096;
    b->data = kp_xrealloc(b->data, b->cap);
}

void
kp_buf_add(struct kp_buf *b, const char *s, size_t n)
{
    reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void
kp_buf_add_buf(struct kp_buf *b, const struct kp_buf *src)
{
    if (!b->sink || src->len < FLUSH_AT) {
        kp_buf_add(b, src->data ? src->data : "", src->len);
        return;
    }
    if (!b->sink_error &&
        (fwrite(b->data ? b->data : "", 1, b->len, b->sink) != b->len ||
         fwrite(src->data, 1, src->len, b->sink) != src->len))
        b->sink_error = true;
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void
kp_buf_puts(struct kp_buf *b, const char *s)
{
    kp_buf_add(b, s, strlen(s));
}

/*
 * Formatted straight into the room the buffer has (at least PRINTF_ROOM
 * bytes made first), measured and formatted again only when it did not
 * fit: one vsnprintf for most calls instead of two.
 */
#define PRINTF_ROOM 128

void
kp_buf_printf(struct kp_buf *b, const char *fmt, ...)
{
    va_list ap;
    size_t room;
    int n;

    reserve(b, PRINTF_ROOM);
    room = b->cap - b->len;
    va_start(ap, fmt);
    n = vsnprintf(b->data + b->len, room, fmt, ap);
    va_end(ap);
    if (n <= 0) {
        b->data[b->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        reserve(b, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}

void
kp_buf_json_str(struct kp_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    kp_buf_add(b, "\"", 1);
    for (;;) {
        const unsigned char *run = p;

        /* the bytes that need no escape go in as one run */
        while (*p >= 0x20 && *p != '"' && *p != '\\')
            p++;
        if (p > run)
            kp_buf_add(b, (const char *)run, (size_t)(p - run));
        if (!*p)
            break;
        switch (*p) {
        case '"':
            kp_buf_add(b, "\\\"", 2);
            break;
        case '\\':
            kp_buf_add(b, "\\\\", 2);
            break;
        case '\n':
            kp_buf_add(b, "\\n", 2);
            break;
        case '\t':
            kp_buf_add(b, "\\t", 2);
            break;
        case '\r':
            kp_buf_add(b, "\\r", 2);
            break;
        default:
            kp_buf_printf(b, "\\u%04x", *p);
        }
        p++;
    }
    kp_buf_add(b, "\"", 1);
}

void
kp_buf_json_str_or_null(struct kp_buf *b, const char *s)
{
    if (s)
        kp_buf_json_str(b, s);
    else
        kp_buf_puts(b, "null");
}
