/*
 * check.h - the smallest unit-test harness that does the job.
 *
 * Each test is a void function; RUN(fn) runs it and prints a TAP line.
 * CHECK* macros record a failure with file:line and go on.  check_done()
 * prints "# N passed, N failed" (read by tests/run) and returns the exit
 * status for main().
 */
#ifndef KP_CHECK_H
#define KP_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_test_failed;
static int check_npassed, check_nfailed, check_seq;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("#   %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__,    \
                   #cond);                                                 \
            check_test_failed = 1;                                         \
        }                                                                  \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                 \
    do {                                                                   \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);    \
        if (check_a_ != check_b_) {                                        \
            printf("#   %s:%d: %s == %lld, expected %lld\n", __FILE__,     \
                   __LINE__, #a, check_a_, check_b_);                      \
            check_test_failed = 1;                                         \
        }                                                                  \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                 \
    do {                                                                   \
        const char *check_a_ = (a), *check_b_ = (b);                       \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {   \
            printf("#   %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, \
                   __LINE__, #a, check_a_ ? check_a_ : "(null)",           \
                   check_b_ ? check_b_ : "(null)");                        \
            check_test_failed = 1;                                         \
        }                                                                  \
    } while (0)

#define RUN(fn)                                                            \
    do {                                                                   \
        check_test_failed = 0;                                             \
        fn();                                                              \
        check_seq++;                                                       \
        if (check_test_failed) {                                           \
            check_nfailed++;                                               \
            printf("not ok %d - %s\n", check_seq, #fn);                    \
        } else {                                                           \
            check_npassed++;                                               \
            printf("ok %d - %s\n", check_seq, #fn);                        \
        }                                                                  \
    } while (0)

static inline int
check_done(void)
{
    printf("# %d passed, %d failed\n", check_npassed, check_nfailed);
    return check_nfailed ? 1 : 0;
}

#endif
