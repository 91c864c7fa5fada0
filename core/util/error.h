/*
 * error.h - one error type for the whole library.
 *
 * Fallible functions return 0 (or a pointer) on success and -1 (or NULL)
 * on failure, filling a struct kp_error passed last.  Callers add context
 * on the way up with kp_error_prefix().  Only cmd/ prints errors.
 */
#ifndef KP_ERROR_H
#define KP_ERROR_H

#include <stdarg.h>

enum kp_exit {
    KP_EXIT_OK = 0,
    KP_EXIT_ERROR = 1,
    KP_EXIT_USAGE = 2,
    KP_EXIT_FAIL_ON = 3
};

struct kp_error {
    int exit_code;
    char msg[4096];
};

/* Set err (if non-NULL) to code and a formatted message; returns -1. */
int kp_errorf(struct kp_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set err's message to a + sep + b, truncated to fit. */
void kp_error_join(struct kp_error *err, const char *a, const char *sep,
                   const char *b);

/* Prepend "<prefix>: " to err's message; returns -1. */
int kp_error_prefix(struct kp_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
