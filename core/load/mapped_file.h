/*
 * mapped_file.h - a snapshot file mapped while it loads, and what happens
 * when another process truncates or rewrites it meanwhile.
 *
 * A page of a mapping past the end of a truncated file raises SIGBUS.
 * While a guard is up, that SIGBUS (and only for addresses inside the
 * mapping) is answered by mapping a page of zeros there and noting it:
 * the loader reads NUL bytes, fails, and the caller reports the file as
 * changed.  A file rewritten in place shows in its size or modification
 * time, compared before and after the load (a file replaced by a rename
 * is not seen: the old one stays mapped, one consistent moment).
 */
#ifndef KP_MAPPED_FILE_H
#define KP_MAPPED_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/*
 * Raise the guard over [p, p + len) (one at a time).  0, or -1 when the
 * handler cannot be installed.
 */
int kp_mapped_file_guard(const void *p, size_t len);
/* Lower it; true when a truncated page was read meanwhile. */
bool kp_mapped_file_unguard(void);
/* True when fd no longer has the size and modification time of before. */
bool kp_mapped_file_changed(int fd, const struct stat *before);

#endif
