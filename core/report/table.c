/*
 * table.c - the aligned text table of the human outputs (table.h).
 */
#include "table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "term_escape.h"

void
kp_table_init(struct kp_table *t, size_t ncols, const char *const *headers)
{
    memset(t, 0, sizeof(*t));
    t->ncols = ncols;
    t->headers = headers;
}

void
kp_table_row_after(struct kp_table *t, char **cells, char *after)
{
    size_t c;

    if (t->nrows == t->caprows) {
        t->caprows = t->caprows ? t->caprows * 2 : 16;
        t->cells = kp_xrealloc(t->cells, t->caprows * t->ncols *
                               sizeof(char *));
        t->after = kp_xrealloc(t->after, t->caprows * sizeof(char *));
    }
    /* cells hold what a snapshot or a server said: escaped before the
     * widths are measured (term_escape.h) */
    for (c = 0; c < t->ncols; c++)
        t->cells[t->nrows * t->ncols + c] = kp_term_escape_take(cells[c]);
    if (after && kp_term_needs_escape(after, strlen(after),
                                      KP_TERM_KEEP_LINES)) {
        struct kp_buf b;

        kp_buf_init(&b);
        kp_term_escape(&b, after, strlen(after), KP_TERM_KEEP_LINES);
        kp_buf_add(&b, "", 1);
        free(after);
        after = b.data;
    }
    t->after[t->nrows] = after;
    t->nrows++;
}

void
kp_table_row(struct kp_table *t, char **cells)
{
    kp_table_row_after(t, cells, NULL);
}

void
kp_table_release(struct kp_table *t)
{
    size_t r;

    for (r = 0; r < t->nrows * t->ncols; r++)
        free(t->cells[r]);
    for (r = 0; r < t->nrows; r++)
        free(t->after[r]);
    free(t->cells);
    free(t->after);
    t->cells = t->after = NULL;
    t->nrows = t->caprows = 0;
}

void
kp_table_print(struct kp_table *t, bool no_headers, struct kp_buf *out)
{
    size_t *w, r, c;

    if (t->nrows == 0) {
        kp_table_release(t);
        return;
    }
    w = kp_xcalloc(t->ncols, sizeof(size_t));
    for (c = 0; c < t->ncols; c++) {
        w[c] = no_headers ? 0 : strlen(t->headers[c]);
        for (r = 0; r < t->nrows; r++)
            if (strlen(t->cells[r * t->ncols + c]) > w[c])
                w[c] = strlen(t->cells[r * t->ncols + c]);
    }
    for (r = no_headers ? 1 : 0; r <= t->nrows; r++) {
        for (c = 0; c < t->ncols; c++) {
            const char *s = r == 0 ? t->headers[c]
                                   : t->cells[(r - 1) * t->ncols + c];

            if (c + 1 == t->ncols)
                kp_buf_printf(out, "%s\n", s);
            else
                kp_buf_printf(out, "%-*s   ", (int)w[c], s);
        }
        if (r > 0 && t->after[r - 1])
            kp_buf_puts(out, t->after[r - 1]);
    }
    free(w);
    kp_table_release(t);
}

char *
kp_cellf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    s = kp_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}
