/*
 * buf.h - growable byte buffer with a hard cap (curl's dynbuf idea).
 * Output is rendered into a buffer and written only when complete.
 */
#ifndef KP_BUF_H
#define KP_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct kp_buf {
    char *data;
    size_t len, cap;
};

void kp_buf_init(struct kp_buf *b);
void kp_buf_release(struct kp_buf *b);
void kp_buf_add(struct kp_buf *b, const char *s, size_t n);
void kp_buf_puts(struct kp_buf *b, const char *s);
void kp_buf_printf(struct kp_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A JSON string literal, quoted and escaped. */
void kp_buf_json_str(struct kp_buf *b, const char *s);

#endif
