/*
 * buf.h - growable byte buffer (curl's dynbuf idea, without its size
 * limit: it doubles as needed, and running out of memory aborts as every
 * kp_xmalloc does, arena.h).
 * Output is rendered into a buffer and written only when complete, or
 * (kp_buf_set_sink) a megabyte at a time once nothing can fail.
 */
#ifndef KP_BUF_H
#define KP_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct kp_buf {
    char *data;
    size_t len, cap;
    /* kp_buf_set_sink: written out once a megabyte is waiting */
    FILE *sink;
    bool sink_error;            /* a write to sink failed */
};

void kp_buf_init(struct kp_buf *b);
/*
 * From now on, whenever a megabyte or more is waiting, write it to sink
 * and empty the buffer: what was added is never read back.  The caller
 * writes what is left at the end.
 */
void kp_buf_set_sink(struct kp_buf *b, FILE *sink);
void kp_buf_release(struct kp_buf *b);
void kp_buf_add(struct kp_buf *b, const char *s, size_t n);
void kp_buf_puts(struct kp_buf *b, const char *s);
/*
 * kp_buf_add of src's bytes; with a sink, a megabyte or more of them
 * goes to the sink straight from src, after what b holds
 */
void kp_buf_add_buf(struct kp_buf *b, const struct kp_buf *src);
void kp_buf_printf(struct kp_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A JSON string literal, quoted and escaped. */
void kp_buf_json_str(struct kp_buf *b, const char *s);
/* The same, or null when s is NULL. */
void kp_buf_json_str_or_null(struct kp_buf *b, const char *s);

#endif
