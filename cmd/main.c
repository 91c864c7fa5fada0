/*
 * main.c - kubectl-preempt's entry point: parse flags, run, print the
 * output or one error line, return the contract's exit status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kp.h"
#include "selfcheck.h"
#include "completion.h"
#include "help.h"
#include "options.h"
#include "recorder.h"
#include "term_escape.h"

/*
 * One line on stderr: prefix, then text with every control byte but tab
 * and newline escaped (it quotes what a snapshot or a server said).
 */
static void
print_line(const char *prefix, const char *text)
{
    struct kp_buf b;

    kp_buf_init(&b);
    kp_buf_puts(&b, prefix);
    kp_term_escape(&b, text, strlen(text), KP_TERM_KEEP_LINES);
    kp_buf_add(&b, "\n", 1);
    fwrite(b.data, 1, b.len, stderr);
    kp_buf_release(&b);
}

static int
print_error(const struct kp_error *err)
{
    print_line("error: ", err->msg);
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

/* Human-readable outputs: what escaped their tables escaped here. */
static bool
human_output(const struct kp_options *o)
{
    return o->output == KP_OUTPUT_TABLE || o->output == KP_OUTPUT_WIDE ||
           o->output == KP_OUTPUT_SUMMARY || o->output == KP_OUTPUT_NAME ||
           o->output == KP_OUTPUT_CUSTOM_COLUMNS ||
           o->output == KP_OUTPUT_CUSTOM_COLUMNS_FILE;
}

static int
write_report(const struct kp_options *o, struct kp_buf *b)
{
    struct kp_buf e;
    int rc;

    if (!human_output(o) || b->sink_error ||
        !kp_term_needs_escape(b->data, b->len, KP_TERM_KEEP_LINES))
        return write_out(b);
    kp_buf_init(&e);
    kp_term_escape(&e, b->data, b->len, KP_TERM_KEEP_LINES);
    rc = write_out(&e);
    kp_buf_release(&e);
    return rc;
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
        print_line("warning: ", r->warnings[*printed]);
}

/*
 * Progress on a terminal (issue 26): one line on stderr, rewritten in
 * place ("kubectl-preempt: analysing pending pods 1200/2000"), at most
 * ten times a second and at each new phase, erased when the run is over.
 */
struct progress_state {
    const char *phase;
    struct timespec last;
    bool shown;
    bool counted;               /* the phase's count was shown once */
};

static void
show_progress(void *ctx, const char *phase, size_t done, size_t total)
{
    struct progress_state *ps = ctx;
    struct timespec now;
    long ms;
    bool same;

    if (!phase) {
        if (ps->shown)
            fputs("\r\033[K", stderr);
        ps->shown = false;
        fflush(stderr);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    ms = (long)(now.tv_sec - ps->last.tv_sec) * 1000 +
         (now.tv_nsec - ps->last.tv_nsec) / 1000000;
    /*
     * A phase's updates at most every 100 ms, but its first count always
     * (a short phase would otherwise never show one)
     */
    same = ps->phase && strcmp(ps->phase, phase) == 0;
    if (same && ms < 100 && (ps->counted || !total))
        return;
    ps->counted = (same && ps->counted) || total != 0;
    ps->phase = phase;
    ps->last = now;
    ps->shown = true;
    if (total)
        fprintf(stderr, "\r\033[Kkubectl-preempt: %s %zu/%zu", phase, done,
                total);
    else
        fprintf(stderr, "\r\033[Kkubectl-preempt: %s", phase);
    fflush(stderr);
}

/* Only for a person watching: stderr a terminal, a human output. */
static bool
wants_progress(const struct kp_options *o)
{
    return isatty(STDERR_FILENO) && (o->output == KP_OUTPUT_TABLE ||
                                     o->output == KP_OUTPUT_WIDE ||
                                     o->output == KP_OUTPUT_SUMMARY);
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
        struct kp_buf m;

        kp_buf_init(&m);
        kp_buf_printf(&m, "unknown command \"%s\" for \"%s version\"",
                      o->pods[0], o->program_name);
        kp_buf_add(&m, "", 1);
        print_line("error: ", m.data);
        kp_buf_release(&m);
        return KP_EXIT_USAGE;
    }
    kp_buf_init(&b);
    kp_version_text(&b);
    rc = write_out(&b) < 0 ? KP_EXIT_ERROR : KP_EXIT_OK;
    kp_buf_release(&b);
    return rc;
}

/*
 * "help [COMMAND]": the command's help on stdout, as kubectl help
 * COMMAND; an unknown topic is a usage error (cobra prints "Unknown help
 * topic" and the root usage).
 */
static int
print_help(const struct kp_options *o)
{
    const char *topic = o->npods ? o->pods[0] : NULL;
    char *argv[] = {"completion", "--help", NULL};
    struct kp_buf b;
    int rc;

    if (o->npods > 1 || (topic && !kp_help_topic(topic))) {
        fprintf(stderr, "error: unknown help topic \"%s\": expected "
                "explain, version, completion or help\n",
                o->pods[o->npods > 1 && kp_help_topic(topic) ? 1 : 0]);
        return KP_EXIT_USAGE;
    }
    if (topic && strcmp(topic, "completion") == 0)
        return kp_completion_main(2, argv);
    kp_buf_init(&b);
    kp_help(o->program_name, topic, &b);
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
    struct progress_state ps = {NULL, {0, 0}, false, false};
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
    if (rc == 0 && command && strcmp(command, "record") == 0) {
        kp_buf_release(&help);
        rc = kp_record(&o, &err);
        kp_options_release(&o);
        return rc < 0 ? print_error(&err) : KP_EXIT_OK;
    }
    if (rc == 0 && command && (strcmp(command, "version") == 0 ||
                               strcmp(command, "help") == 0)) {
        rc = command[0] == 'v' ? print_version(&o) : print_help(&o);
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
    if (!explain && wants_progress(&o)) {
        o.progress = show_progress;
        o.progress_ctx = &ps;
    }
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
    if (write_report(&o, &r.out) < 0) {
        perror("error: writing output");
        rc = KP_EXIT_ERROR;
    }
    if (r.scheduler_note[0])
        print_line("", r.scheduler_note);
    if (r.notice[0])
        print_line("", r.notice);
    if (r.fail_notes.len || r.regressions.len) {
        /* they quote pod, node and PDB names: escaped as every line */
        struct kp_buf b;

        kp_buf_init(&b);
        if (r.regressions.len)
            kp_term_escape(&b, r.regressions.data, r.regressions.len,
                           KP_TERM_KEEP_LINES);
        if (r.fail_notes.len)
            kp_term_escape(&b, r.fail_notes.data, r.fail_notes.len,
                           KP_TERM_KEEP_LINES);
        fwrite(b.data, 1, b.len, stderr);
        kp_buf_release(&b);
    }
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
