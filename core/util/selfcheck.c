/*
 * selfcheck.c - the recorder of selfcheck.h; the checks are in
 * selfcheck_state.c.
 */
#include "selfcheck.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static size_t nchecks, nfailures;
static char first[512];

bool
kp_selfcheck_enabled(void)
{
#ifdef KP_SELFCHECK
    return true;
#else
    return false;
#endif
}

size_t
kp_selfcheck_checks(void)
{
    size_t n;

    pthread_mutex_lock(&lock);
    n = nchecks;
    pthread_mutex_unlock(&lock);
    return n;
}

size_t
kp_selfcheck_failures(void)
{
    size_t n;

    pthread_mutex_lock(&lock);
    n = nfailures;
    pthread_mutex_unlock(&lock);
    return n;
}

const char *
kp_selfcheck_first(void)
{
    return first;
}

void
kp_selfcheck_reset(void)
{
    pthread_mutex_lock(&lock);
    nchecks = nfailures = 0;
    first[0] = '\0';
    pthread_mutex_unlock(&lock);
}

void
kp_selfcheck_count(void)
{
    pthread_mutex_lock(&lock);
    nchecks++;
    pthread_mutex_unlock(&lock);
}

void
kp_selfcheck_fail(const char *fmt, ...)
{
    va_list ap;

    pthread_mutex_lock(&lock);
    if (nfailures++ == 0) {
        va_start(ap, fmt);
        vsnprintf(first, sizeof(first), fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&lock);
}
