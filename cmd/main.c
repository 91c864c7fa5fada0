/*
 * main.c - kubectl-preempt's entry point: parse flags, run, print the
 * output or one error line, return the contract's exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp.h"
#include "selfcheck.h"
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

/*
 * Warnings go to stderr before any output, each once: *printed counts
 * those already out (the JSON report, streamed, reads them after).
 */
static void
print_warnings(void *ctx, struct kp_run_result *r)
{
    size_t *printed = ctx;

    for (; *printed < r->nwarnings; (*printed)++)
        fprintf(stderr, "warning: %s\n", r->warnings[*printed]);
}

static bool
ends_with_name(const char *path, const char *name)
{
    const char *base = path ? strrchr(path, '/') : NULL;

    base = base ? base + 1 : path;
    return base && strcmp(base, name) == 0;
}

/*
 * How the user called us, for --help: "kubectl preempt" when kubectl ran
 * the plugin.  kubectl (pkg/cmd/cmd.go, DefaultPluginHandler.Execute)
 * execs the plugin with argv[0] its full path and the environment
 * unchanged, so nothing it sets tells; the shell's "_" does: it names
 * the command the shell started (kubectl), and kubectl passes it on.
 * The plugin mechanism before kubectl 1.12 set KUBECTL_PLUGINS_CALLER.
 * Without "_" (not started by a shell), an absolute argv[0] is taken as
 * kubectl's exec.
 */
static const char *
program_name(const char *argv0)
{
    const char *underscore = getenv("_");

    if (getenv("KUBECTL_PLUGINS_CALLER") ||
        ends_with_name(underscore, "kubectl"))
        return "kubectl preempt";
    if (!underscore && argv0 && argv0[0] == '/' &&
        ends_with_name(argv0, "kubectl-preempt"))
        return "kubectl preempt";
    return "kubectl-preempt";
}

static int
print_version(const struct kp_options *o)
{
    struct kp_buf b;
    int rc;

    if (o->npods > 0) {
        fprintf(stderr, "error: unknown command \"%s\" for "
                "\"%s version\"\n", o->pods[0], o->program_name);
        return KP_EXIT_USAGE;
    }
    kp_buf_init(&b);
    kp_version_text(&b);
    rc = write_out(&b) < 0 ? KP_EXIT_ERROR : KP_EXIT_OK;
    kp_buf_release(&b);
    return rc;
}

int
main(int argc, char **argv)
{
    struct kp_options o;
    struct kp_run_result r;
    struct kp_error err = {0, ""};
    struct kp_buf help;
    size_t printed = 0;
    const char *command;
    bool explain;
    int rc;

    if (argc >= 2 && strcmp(argv[1], "completion") == 0)
        return kp_completion_main(argc - 1, argv + 1);
    /* "explain [flags] [POD...]": the same flags, another command */
    kp_options_init(&o);
    o.program_name = program_name(argv[0]);
    kp_buf_init(&help);
    rc = kp_options_parse_command(&o, argc, argv, &command, &help, &err);
    explain = rc == 0 && command && strcmp(command, "explain") == 0;
    if (rc == 0 && command && strcmp(command, "version") == 0) {
        rc = print_version(&o);
        kp_buf_release(&help);
        kp_options_release(&o);
        return rc;
    }
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
    o.stream_ctx = &printed;
    rc = explain ? kp_explain(&o, &r, &err) : kp_run(&o, &r, &err);
    /* on failure the one error line is all that stderr gets */
    if (rc == 0)
        print_warnings(&printed, &r);
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
    if (r.regressions.len)
        fwrite(r.regressions.data, 1, r.regressions.len, stderr);
    kp_run_result_release(&r);
    kp_options_release(&o);
    /* the test build's self-check (core/util/selfcheck.h): loud, exit 70 */
    if (kp_selfcheck_failures() > 0) {
        fprintf(stderr, "selfcheck: %zu disagreement(s), first: %s\n",
                kp_selfcheck_failures(), kp_selfcheck_first());
        return 70;
    }
    return rc;
}
