/*
 * table.h - the column-aligned text table every human output prints
 * (-o table, wide and summary of the run, explain's tables): kubectl's
 * printer (k8s.io/cli-runtime/pkg/printers, tabwriter with padding 3),
 * the last column not padded.
 *
 * Cells are malloc'ed and handed to the table, which frees them when it
 * is printed (kp_table_print) or released.
 */
#ifndef KP_TABLE_H
#define KP_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

struct kp_table {
    size_t ncols, nrows, caprows;
    const char *const *headers;     /* ncols of them */
    char **cells;                   /* nrows * ncols */
    char **after;                   /* per row: printed under it, or NULL */
};

void kp_table_init(struct kp_table *t, size_t ncols,
                   const char *const *headers);
/* Add a row of t->ncols cells (taken). */
void kp_table_row(struct kp_table *t, char **cells);
/* The same; after (taken, or NULL) is printed as is under the row. */
void kp_table_row_after(struct kp_table *t, char **cells, char *after);
/*
 * Append t to out (nothing when it has no rows), the headers first
 * unless no_headers, then release it.
 */
void kp_table_print(struct kp_table *t, bool no_headers, struct kp_buf *out);
void kp_table_release(struct kp_table *t);

/* A malloc'ed printf: a cell. */
char *kp_cellf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
