/*
 * runner.c - run a command once, its stdout to OUT (or /dev/null), and print
 * on one line:
 *
 *   wall_s=S user_s=S sys_s=S maxrss_kb=K status=N
 *
 * wall_s is CLOCK_MONOTONIC from fork to reap; user_s and sys_s the child's
 * CPU time; maxrss_kb the child's peak
 * resident set (wait4's rusage); status its exit status (128+signal when
 * killed).  With -t SECONDS the child is killed (SIGKILL) after that long.
 *
 *   runner [-t SECONDS] OUT -- COMMAND [ARG...]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t timed_out;
static pid_t child;

static void
on_alarm(int sig)
{
    (void)sig;
    timed_out = 1;
    if (child > 0)
        kill(child, SIGKILL);
}

int
main(int argc, char **argv)
{
    const char *out;
    int i = 1, status, fd;
    unsigned timeout = 0;
    double t0, t1;
    struct rusage ru;

    if (argc > 3 && strcmp(argv[1], "-t") == 0) {
        timeout = (unsigned)strtoul(argv[2], NULL, 10);
        i = 3;
    }
    if (argc - i < 3 || strcmp(argv[i + 1], "--") != 0) {
        fputs("usage: runner [-t SECONDS] OUT -- COMMAND [ARG...]\n", stderr);
        return 2;
    }
    out = argv[i];
    fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(out);
        return 2;
    }
    t0 = now();
    child = fork();
    if (child < 0) {
        perror("fork");
        return 2;
    }
    if (child == 0) {
        dup2(fd, 1);
        close(fd);
        execvp(argv[i + 2], argv + i + 2);
        perror(argv[i + 2]);
        _exit(127);
    }
    close(fd);
    if (timeout) {
        signal(SIGALRM, on_alarm);
        alarm(timeout);
    }
    while (wait4(child, &status, 0, &ru) < 0)
        if (errno != EINTR) {
            perror("wait4");
            return 2;
        }
    t1 = now();
    printf("wall_s=%.3f user_s=%.3f sys_s=%.3f maxrss_kb=%ld status=%d%s\n",
           t1 - t0,
           (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6,
           ru.ru_maxrss,
           WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
           timed_out ? " timeout=1" : "");
    return 0;
}
