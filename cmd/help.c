/*
 * help.c - --help, "help [COMMAND]" and "COMMAND --help", per command,
 * generated from the flag table (kp_flags[] in options.c) as kubectl's
 * (cobra's) help is generated from each command's flag set: usage,
 * description, examples, the flags the command takes, each with its
 * allowed values, wrapped within 80 columns.
 */
#include "help.h"

#include <stdio.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define WIDTH 80
#define TAB 8                   /* a flag's text starts after a tab */

/*
 * Flags that explain does not take: it refuses the what-ifs, --add and
 * --explain-nodes (core/explain/explain.c, check_options), and replays no
 * scheduling, so the simulation's flags do nothing there.  A flag not
 * listed (a new row of the table) is shown for both commands.
 */
static const char *const not_for_explain[] = {
    "sort-by", "add", "only-added", "cordon", "drain", "drain-selector",
    "force", "remove-node", "remove-nodes-selector", "add-node",
    "add-node-file", "explain-nodes", "mode",
    "min-candidate-nodes-percentage", "min-candidate-nodes-absolute",
    "offset", "config", "profile", "ignore-unknown-plugins", "kube-version",
};

/* Flags of record alone (recorder.h). */
static const char *const only_record[] = {
    "dir", "snapshot-interval", "max-disk", "max-age"};

/* The flags record takes besides its own: connecting, -v, --help. */
static const char *const record_also[] = {
    "kubeconfig", "context", "cluster", "user", "server", "token",
    "certificate-authority", "insecure-skip-tls-verify", "request-timeout",
    "as", "as-group", "as-uid", "client-certificate", "client-key",
    "tls-server-name", "username", "password", "disable-compression",
    "verbose", "help"};

/* The flags version and completion take besides their arguments. */
static const char *const only_help[] = {"help"};

struct command {
    const char *name;           /* NULL: the root command */
    const char *usage;          /* after the program name */
    const char *brief;          /* its line under "Commands:" */
    const char *about;
    const char *examples;       /* PROG stands for the program's name */
};

static const struct command commands[] = {
    {NULL, "[flags] [POD...]", NULL,
     "Replays kube-scheduler's preemption for pending pods and reports, "
     "for each, whether it fits, whom it would preempt, on which node, and "
     "which PodDisruptionBudgets that violates.  POD is NAME, "
     "NAMESPACE/NAME or pod/NAME.  Without -f the live cluster is read.",
     "  # every pending pod of a snapshot, in scheduling-queue order\n"
     "  kubectl get nodes,pods,pdb,priorityclasses -A -o json > c.json\n"
     "  PROG -f c.json\n"
     "\n"
     "  # one pod, with the node, victims and message\n"
     "  PROG -f c.json prod/api-0 -o wide\n"
     "\n"
     "  # the live cluster's pending pods of namespace prod, as JSON\n"
     "  PROG -n prod -o json\n"
     "\n"
     "  # what draining node-a would do; exit 3 if a PDB would be broken\n"
     "  PROG -f c.json --drain node-a --fail-on pdb-violation\n"
     "\n"
     "  # kubectl's idioms\n"
     "  PROG -f c.json -o jsonpath='{.items[*].metadata.name}'\n"
     "  PROG -f c.json -o custom-columns=NAME:.metadata.name,NODE:.node\n"},
    {"explain", "explain [flags] [POD...]",
     "list past preemptions (events, conditions) and nominated pods",
     "Lists past preemptions found in the -f files or the live cluster "
     "(Preempted events, DisruptionTarget conditions) with the victim, the "
     "preemptor, the node, the time and the PodDisruptionBudgets that "
     "covered the victim, then the pods still waiting on their nominated "
     "node.  -o summary and name, --sort-by and --fail-on unschedulable "
     "and drain-blocked do not apply.",
     "  # the preemptions of a snapshot and its events\n"
     "  kubectl get events -A -o json > events.json\n"
     "  PROG explain -f c.json -f events.json\n"
     "\n"
     "  # of the live cluster, namespace batch, as JSON\n"
     "  PROG explain -n batch -o json\n"
     "\n"
     "  # one line per victim\n"
     "  PROG explain -f c.json -o custom-columns=VICTIM:.metadata.name\n"},
    {"record", "record --dir DIR [flags]",
     "watch the live cluster into a recording, for explain --from",
     "Lists what a live run reads, and events, into DIR, then watches "
     "every list from its resourceVersion and appends each change, until "
     "SIGINT or SIGTERM: a full snapshot every --snapshot-interval, the "
     "oldest dropped past --max-disk or --max-age.  -f DIR --at TIME "
     "replays a moment; explain --from DIR --since DURATION explains the "
     "preemptions of a window with their victims as they were.",
     "  # keep a day of history, a snapshot every 10 minutes\n"
     "  PROG record --dir /var/lib/kp-record\n"
     "\n"
     "  # the next morning: last night's preemptions, and one moment\n"
     "  PROG explain --from /var/lib/kp-record --since 12h\n"
     "  PROG -f /var/lib/kp-record --at 2026-11-27T03:09:00Z -o wide\n"},
    {"version", "version", "print the version and the releases replayed",
     "Prints the version, the kube-scheduler releases whose preemption it "
     "replays and the versions of the libraries it runs with.",
     "  PROG version\n"},
    {"completion", "completion bash|zsh|fish",
     "print a shell completion script",
     "Prints a shell completion script (run 'PROG completion --help').",
     "  source <(PROG completion bash)\n"},
    {"help", "help [COMMAND]", "print a command's help",
     "Prints the help of a command.",
     "  PROG help explain\n"},
};

static bool
listed(const char *name, const char *const *list, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

/* Whether command cmd (NULL: the root) takes flag f. */
static bool
takes(const char *cmd, const struct kp_flag *f)
{
    bool rec = listed(f->long_name, only_record, NELEM(only_record));

    if (!cmd)
        return true;        /* the root's help lists every flag */
    if (strcmp(cmd, "explain") == 0)
        return !rec && !listed(f->long_name, not_for_explain,
                               NELEM(not_for_explain));
    if (strcmp(cmd, "record") == 0)
        return rec || listed(f->long_name, record_also, NELEM(record_also));
    return listed(f->long_name, only_help, NELEM(only_help));
}

/* s with every "PROG" replaced by prog */
static void
put_prog(struct kp_buf *out, const char *s, const char *prog)
{
    const char *p;

    while ((p = strstr(s, "PROG")) != NULL) {
        kp_buf_add(out, s, (size_t)(p - s));
        kp_buf_puts(out, prog);
        s = p + 4;
    }
    kp_buf_puts(out, s);
}

/*
 * text filled into lines of at most WIDTH columns, each starting with
 * indent (a tab counts TAB columns); a word longer than a line is kept
 * whole.
 */
static void
fill(struct kp_buf *out, const char *indent, const char *text)
{
    size_t room = WIDTH - (indent[0] == '\t' ? TAB : strlen(indent));
    size_t col = 0;
    const char *s = text;

    while (*s) {
        size_t n;

        while (*s == ' ')
            s++;
        if (!*s)
            break;
        n = strcspn(s, " ");
        if (col && col + 1 + n > room) {
            kp_buf_puts(out, "\n");
            col = 0;
        }
        kp_buf_puts(out, col ? " " : indent);
        kp_buf_add(out, s, n);
        col += (col ? 1 : 0) + n;
        s += n;
    }
    if (col)
        kp_buf_puts(out, "\n");
}

static const char *
first_word(const char *s, char *w, size_t n)
{
    size_t k = strcspn(s, " ");

    snprintf(w, n, "%.*s", (int)(k < n ? k : n - 1), s);
    return w;
}

static void
put_flag(struct kp_buf *out, const struct kp_flag *f)
{
    struct kp_buf v;
    const char *s;
    char w[64];

    if (f->short_name)
        kp_buf_printf(out, "  -%c, ", f->short_name);
    else
        kp_buf_puts(out, "      ");
    kp_buf_printf(out, "--%s%s%s\n", f->long_name,
                  f->arg_name ? " " : "", f->arg_name ? f->arg_name : "");
    fill(out, "\t", f->help);
    /* the allowed values, unless the text already names them */
    if (!f->values || strstr(f->help, first_word(f->values, w, sizeof(w))))
        return;
    kp_buf_init(&v);
    kp_buf_puts(&v, "Values: ");
    for (s = f->values; *s; s++) {
        if (*s == ' ')
            kp_buf_puts(&v, ", ");
        else
            kp_buf_add(&v, s, 1);
    }
    kp_buf_add(&v, "", 1);
    fill(out, "\t", v.data);
    kp_buf_release(&v);
}

static const struct command *
find(const char *name)
{
    size_t i;

    for (i = 1; name && i < NELEM(commands); i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

bool
kp_help_topic(const char *name)
{
    return find(name) != NULL;
}

void
kp_help(const char *prog, const char *cmd, struct kp_buf *out)
{
    const struct command *c = find(cmd);
    size_t i;

    if (!prog)
        prog = "kubectl-preempt";
    if (!c) {
        c = &commands[0];
        kp_buf_printf(out, "Usage: %s %s\n", prog, c->usage);
        for (i = 1; i < NELEM(commands); i++)
            kp_buf_printf(out, "       %s %s\n", prog, commands[i].usage);
    } else {
        kp_buf_printf(out, "Usage: %s %s\n", prog, c->usage);
    }
    kp_buf_puts(out, "\n");
    fill(out, "", c->about);
    kp_buf_puts(out, "\nExamples:\n");
    put_prog(out, c->examples, prog);
    if (c == &commands[0]) {
        kp_buf_puts(out, "\nCommands:\n");
        for (i = 1; i < NELEM(commands); i++)
            kp_buf_printf(out, "  %-12s%s\n", commands[i].name,
                          commands[i].brief);
    }
    kp_buf_puts(out, "\nFlags:\n");
    for (i = 0; i < kp_nflags; i++)
        if (takes(c->name, &kp_flags[i]))
            put_flag(out, &kp_flags[i]);
    if (c == &commands[0] || strcmp(c->name, "explain") == 0)
        kp_buf_puts(out, "\nExit status: 0 analysis done, 1 bad input or "
                    "cluster error,\n2 usage error, 3 a --fail-on condition "
                    "matched.\n");
    if (c == &commands[0])
        kp_buf_printf(out, "\nUse \"%s help COMMAND\" or \"%s COMMAND "
                      "--help\"\nfor a command's help.\n", prog, prog);
}
