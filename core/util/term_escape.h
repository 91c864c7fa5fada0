/*
 * term_escape.h - bytes for a terminal: what came from a snapshot or a
 * server never reaches one raw.
 *
 * kubectl's printers.EscapeTerminal (k8s.io/cli-runtime/pkg/printers/
 * terminal.go) replaces ESC by "^[" and CR by "\r"; that leaves BEL,
 * backspace, SO/SI and the C1 controls (U+0080-U+009F, CSI among them)
 * raw.  Here ESC and CR are spelt as kubectl spells them, every other
 * C0 control and DEL as \xNN, C1 controls as \u00NN; tab and newline
 * only when the caller says so (a table cell: they would break the
 * columns).
 */
#ifndef KP_TERM_ESCAPE_H
#define KP_TERM_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

enum kp_term_flags {
    KP_TERM_CELL = 0,               /* tab and newline escaped too */
    KP_TERM_KEEP_LINES = 1 << 0     /* tab and newline kept */
};

/* True when s[0..n) has a byte kp_term_escape would change. */
bool kp_term_needs_escape(const char *s, size_t n, unsigned flags);
/* Append s[0..n) to b, escaped. */
void kp_term_escape(struct kp_buf *b, const char *s, size_t n,
                    unsigned flags);
/* s escaped (KP_TERM_CELL) as a new malloc'ed string; s is freed. */
char *kp_term_escape_take(char *s);

#endif
