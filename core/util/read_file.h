/*
 * read_file.h - read a whole file, never more than a cap.
 *
 * Every file the tool reads whole (templates, the kubeconfig, the
 * scheduler configuration, what-if node files, an exec plugin's output)
 * has a documented cap (README "Security"), enforced while reading: a
 * file that grows without end (/dev/zero, a FIFO) holds at most the cap
 * plus one read in memory.
 */
#ifndef KP_READ_FILE_H
#define KP_READ_FILE_H

#include <stddef.h>
#include <stdio.h>

/* The caps, one per kind of file (README "Security"). */
#define KP_CAP_TEMPLATE     ((size_t)16 << 20)  /* -o *-file= templates */
#define KP_CAP_KUBECONFIG   ((size_t)16 << 20)
#define KP_CAP_SCHED_CONFIG ((size_t)16 << 20)  /* --config */
#define KP_CAP_NODE_FILE    ((size_t)256 << 20) /* --add-node-file */
#define KP_CAP_TOKEN_FILE   ((size_t)1 << 20)   /* tokenFile */
#define KP_CAP_EXEC_OUTPUT  ((size_t)1 << 20)   /* an exec plugin's stdout */
#define KP_CAP_CA_FILE      ((size_t)1 << 20)   /* a CA file handed to one */

/*
 * Read f to its end, at most max bytes, into a NUL-terminated buffer
 * (*out, owned by the caller, *len bytes without the NUL).  Returns 0,
 * EFBIG when f holds more than max bytes (nothing past max + 1 is read),
 * or the errno of a failed read.
 */
int kp_read_stream(FILE *f, size_t max, char **out, size_t *len);

/*
 * kp_read_stream on the file at path ("-" is standard input when
 * allow_stdin).  EISDIR for a directory; else as kp_read_stream or the
 * errno of open.
 */
int kp_read_file(const char *path, size_t max, int allow_stdin, char **out,
                 size_t *len);

/* "16 MiB", "1 GiB": a cap for messages, into out. */
const char *kp_cap_text(size_t max, char *out, size_t outlen);

#endif
