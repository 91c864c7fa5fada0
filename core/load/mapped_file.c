/*
 * mapped_file.c - SIGBUS on a truncated mapped snapshot turned into an
 * error (mapped_file.h).  No upstream counterpart: kubectl reads files
 * with os.ReadFile, never maps them.
 *
 * The handler needs the mapping's bounds and a flag as process state (a
 * signal handler has no other way to reach them): they are set only
 * while a guard is up, around one file's load.
 */
#include "mapped_file.h"

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uintptr_t guard_lo, guard_hi;
static volatile sig_atomic_t guard_hit;
static struct sigaction guard_old;

static void
on_sigbus(int sig, siginfo_t *si, void *ctx)
{
    uintptr_t a = (uintptr_t)si->si_addr;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

    (void)ctx;
    if (a >= guard_lo && a < guard_hi &&
        mmap((void *)(a & ~(page - 1)), page, PROT_READ,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
        guard_hit = 1;
        return;                 /* the read is retried: it gets zeros */
    }
    /* not ours: the default action, as without the guard */
    sigaction(sig, &guard_old, NULL);
    raise(sig);
}

int
kp_mapped_file_guard(const void *p, size_t len)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    guard_lo = (uintptr_t)p;
    guard_hi = (uintptr_t)p + len;
    guard_hit = 0;
    return sigaction(SIGBUS, &sa, &guard_old);
}

bool
kp_mapped_file_unguard(void)
{
    sigaction(SIGBUS, &guard_old, NULL);
    guard_lo = guard_hi = 0;
    return guard_hit != 0;
}

bool
kp_mapped_file_changed(int fd, const struct stat *before)
{
    struct stat now;

    if (fstat(fd, &now) < 0)
        return true;
    return now.st_size != before->st_size ||
           now.st_mtim.tv_sec != before->st_mtim.tv_sec ||
           now.st_mtim.tv_nsec != before->st_mtim.tv_nsec;
}
