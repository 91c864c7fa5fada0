/*
 * main.c - kubectl-preempt's entry point: parse flags, run, print the
 * output or one error line, return the contract's exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/kp.h"
#include "../core/selfcheck.h"
#include "completion.h"
#include "options.h"

static int
print_error(const struct kp_error *err)
{
    fprintf(stderr, "error: %s\n", err->msg);
    return err->exit_code ? err->exit_code : KP_EXIT_ERROR;
}

static int
write_out(const struct kp_buf *b)
{
    if (b->sink_error)
        return -1;
    if (b->len && fwrite(b->data, 1, b->len, stdout) != b->len)
        return -1;
    return fflush(stdout) == 0 ? 0 : -1;
}

/* Warnings go to stderr before any output (and only once). */
static void
print_warnings(void *ctx, struct kp_run_result *r)
{
    size_t i;

    (void)ctx;
    for (i = 0; i < r->nwarnings; i++) {
        fprintf(stderr, "warning: %s\n", r->warnings[i]);
        free(r->warnings[i]);
    }
    r->nwarnings = 0;
}

int
main(int argc, char **argv)
{
    struct kp_options o;
    struct kp_run_result r;
    struct kp_error err = {0, ""};
    struct kp_buf help;
    const char *command;
    bool explain;
    int rc;

    if (argc >= 2 && strcmp(argv[1], "completion") == 0)
        return kp_completion_main(argc - 1, argv + 1);
    /* "explain [flags] [POD...]": the same flags, another command */
    kp_options_init(&o);
    kp_buf_init(&help);
    rc = kp_options_parse_command(&o, argc, argv, &command, &help, &err);
    explain = rc == 0 && command && strcmp(command, "explain") == 0;
    if (rc != 0) {
        if (rc > 0)
            write_out(&help);
        kp_buf_release(&help);
        kp_options_release(&o);
        return rc > 0 ? KP_EXIT_OK : print_error(&err);
    }
    kp_buf_release(&help);
    /* a JSON report goes out as it is rendered: it can be gigabytes */
    o.stream = stdout;
    o.before_stream = print_warnings;
    rc = explain ? kp_explain(&o, &r, &err) : kp_run(&o, &r, &err);
    /* on failure the one error line is all that stderr gets */
    if (rc == 0)
        print_warnings(NULL, &r);
    if (rc < 0) {
        kp_run_result_release(&r);
        kp_options_release(&o);
        return print_error(&err);
    }
    rc = r.exit_code;
    if (write_out(&r.out) < 0) {
        perror("error: writing output");
        rc = KP_EXIT_ERROR;
    }
    if (r.scheduler_note[0])
        fprintf(stderr, "%s\n", r.scheduler_note);
    if (r.notice[0])
        fprintf(stderr, "%s\n", r.notice);
    kp_run_result_release(&r);
    kp_options_release(&o);
    /* the test build's self-check (core/selfcheck.h): loud, exit 70 */
    if (kp_selfcheck_failures() > 0) {
        fprintf(stderr, "selfcheck: %zu disagreement(s), first: %s\n",
                kp_selfcheck_failures(), kp_selfcheck_first());
        return 70;
    }
    return rc;
}
