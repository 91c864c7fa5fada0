/*
 * term_escape.c - escaping for the terminal (term_escape.h); widens
 * cli-runtime's printers/terminal.go EscapeTerminal to every control.
 */
#include "term_escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of s at i that form one control: 1 or 2 (C1), 0 if none. */
static size_t
control_at(const unsigned char *s, size_t n, size_t i, unsigned flags)
{
    unsigned char c = s[i];

    if (c == '\t' || c == '\n')
        return (flags & KP_TERM_KEEP_LINES) ? 0 : 1;
    if (c < 0x20 || c == 0x7F)
        return 1;
    /* U+0080..U+009F in UTF-8: C2 80 .. C2 9F */
    if (c == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F)
        return 2;
    return 0;
}

bool
kp_term_needs_escape(const char *s, size_t n, unsigned flags)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i;

    for (i = 0; i < n; i++)
        if ((u[i] < 0x20 || u[i] == 0x7F || u[i] == 0xC2) &&
            control_at(u, n, i, flags))
            return true;
    return false;
}

void
kp_term_escape(struct kp_buf *b, const char *s, size_t n, unsigned flags)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, run = 0, w;

    while (i < n) {
        w = control_at(u, n, i, flags);
        if (!w) {
            i++;
            continue;
        }
        kp_buf_add(b, s + run, i - run);
        if (w == 2)
            kp_buf_printf(b, "\\u%04x", u[i + 1]);
        else if (u[i] == 0x1B)
            kp_buf_puts(b, "^[");
        else if (u[i] == '\r')
            kp_buf_puts(b, "\\r");
        else if (u[i] == '\n')
            kp_buf_puts(b, "\\n");
        else if (u[i] == '\t')
            kp_buf_puts(b, "\\t");
        else
            kp_buf_printf(b, "\\x%02x", u[i]);
        i += w;
        run = i;
    }
    kp_buf_add(b, s + run, n - run);
}

char *
kp_term_escape_take(char *s)
{
    struct kp_buf b;
    size_t n = strlen(s);

    if (!kp_term_needs_escape(s, n, KP_TERM_CELL))
        return s;
    kp_buf_init(&b);
    kp_term_escape(&b, s, n, KP_TERM_CELL);
    kp_buf_add(&b, "", 1);
    free(s);
    return b.data;
}
