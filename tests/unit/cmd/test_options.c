/*
 * test_options.c - cmd/options.c's parser against the behaviour that
 * spf13/pflag's own tests pin down (flag_test.go: TestShorthand,
 * testParse/testParseAll, TestUserDefined, TestTermination,
 * TestChangedHelper, TestWordSepNormalizedNames and the errors of
 * flag.go), translated to kubectl-preempt's flags, and the kubectl forms
 * layered on it (subcommand anywhere, TYPE/NAME, --fail-on lists).
 *
 * Each row is a command line and what the parse must give.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../../cmd/options.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct row {
    const char *name;
    const char *args;           /* split on spaces */
    int rc;                     /* 0 parsed, 1 help/version, -1 error */
    const char *error;          /* exact message when rc < 0 */
    const char *command;        /* NULL: none */
    const char *namespace;      /* NULL: unset */
    const char *selector;
    int output;
    const char *files;          /* -f values joined with "," */
    const char *pods;           /* POD values joined with "," */
    int verbose;
    unsigned fail_on;
    bool all_namespaces, only_added, no_headers, explain_nodes;
};

static const struct row rows[] = {
    /* TestShorthand: grouped booleans, interspersed args, "--" */
    {"shorthand group, interspersed argument, -- ends the flags",
     "-A interspersed -lapp=web -o=json -- --i-look-like-a-flag", 0, NULL,
     NULL, NULL, "app=web", KP_OUTPUT_JSON, "",
     "interspersed,--i-look-like-a-flag", 0, 0, true, false, false, false},
    /* testParseAll: -cs=xx is boolean c then s = "xx" */
    {"boolean shorthand then value shorthand with =", "-Af=snap.json", 0,
     NULL, NULL, NULL, NULL, KP_OUTPUT_TABLE, "snap.json", "", 0, 0, true,
     false, false, false},
    {"shorthand value attached", "-fsnap.json -nprod -owide", 0, NULL,
     NULL, "prod", NULL, KP_OUTPUT_WIDE, "snap.json", "", 0, 0, false,
     false, false, false},
    {"shorthand value with = (pflag: the value is after =)",
     "-n=prod -o=json -f=x.json", 0, NULL, NULL, "prod", NULL,
     KP_OUTPUT_JSON, "x.json", "", 0, 0, false, false, false, false},
    {"shorthand value as the next argument, even one starting with -",
     "-n -A", 0, NULL, NULL, "-A", NULL, KP_OUTPUT_TABLE, "", "", 0, 0,
     false, false, false, false},
    {"long flag with = and with the next argument",
     "--namespace=prod --output json --filename=a --filename b", 0, NULL,
     NULL, "prod", NULL, KP_OUTPUT_JSON, "a,b", "", 0, 0, false, false,
     false, false},
    {"long flag with an empty value after =", "--selector=", 0, NULL, NULL,
     NULL, "", KP_OUTPUT_TABLE, "", "", 0, 0, false, false, false, false},
    /* testParse: bool flags */
    {"boolean long flags, bare and =true", "--no-headers --explain-nodes=true",
     0, NULL, NULL, NULL, NULL, KP_OUTPUT_TABLE, "", "", 0, 0, false, false,
     true, true},
    {"boolean =false leaves the flag off (TestChangedHelper)",
     "--no-headers=false --explain-nodes=0 -A=false", 0, NULL, NULL, NULL,
     NULL, KP_OUTPUT_TABLE, "", "", 0, 0, false, false, false, false},
    {"boolean takes strconv.ParseBool's spellings",
     "--no-headers=T --explain-nodes=TRUE -A=1", 0, NULL, NULL, NULL, NULL,
     KP_OUTPUT_TABLE, "", "", 0, 0, true, false, true, true},
    {"a boolean does not take the next argument", "--no-headers false", 0,
     NULL, NULL, NULL, NULL, KP_OUTPUT_TABLE, "", "false", 0, 0, false,
     false, true, false},
    {"boolean with a value that is not one", "--no-headers=maybe", -1,
     "invalid argument \"maybe\" for \"--no-headers\" flag: expected true "
     "or false", NULL, NULL, NULL, 0, "", "", 0, 0, false, false, false,
     false},
    /* TestUserDefined: --v=1 -v2 -v 3 */
    {"verbosity as kubectl writes it: --v=1 -v2 -v 3, the last wins",
     "--v=1 -v2 -v 3", 0, NULL, NULL, NULL, NULL, KP_OUTPUT_TABLE, "", "",
     3, 0, false, false, false, false},
    {"verbosity -v=N and --v N", "-v=6", 0, NULL, NULL, NULL, NULL,
     KP_OUTPUT_TABLE, "", "", 6, 0, false, false, false, false},
    {"verbosity --v N", "--v 4 pod-a", 0, NULL, NULL, NULL, NULL,
     KP_OUTPUT_TABLE, "", "pod-a", 4, 0, false, false, false, false},
    {"-v without a number counts up, and does not take a pod name",
     "-v -vv web-0 --verbose", 0, NULL, NULL, NULL, NULL, KP_OUTPUT_TABLE,
     "", "web-0", 4, 0, false, false, false, false},
    {"-v in a group of shorthands", "-vA", 0, NULL, NULL, NULL, NULL,
     KP_OUTPUT_TABLE, "", "", 1, 0, true, false, false, false},
    {"--v needs a level", "--v", -1, "flag needs an argument: --v", NULL,
     NULL, NULL, 0, "", "", 0, 0, false, false, false, false},
    {"a level that is no number", "-v=high", -1, "invalid value 'high' for "
     "--v: expected an integer in [0, 2147483647]", NULL, NULL, NULL, 0,
     "", "", 0, 0, false, false, false, false},
    /* TestTermination */
    {"after --, flags are arguments", "-- ls -A", 0, NULL, NULL, NULL, NULL,
     KP_OUTPUT_TABLE, "", "ls,-A", 0, 0, false, false, false, false},
    {"a lone - is an argument", "-", 0, NULL, NULL, NULL, NULL,
     KP_OUTPUT_TABLE, "", "-", 0, 0, false, false, false, false},
    /* TestWordSepNormalizedNames, as kubectl's WordSepNormalizeFunc */
    {"_ in a long flag reads as -", "--all_namespaces --no_headers", 0,
     NULL, NULL, NULL, NULL, KP_OUTPUT_TABLE, "", "", 0, 0, true, false,
     true, false},
    /* flag.go's errors */
    {"unknown long flag", "--foo", -1, "unknown flag: --foo", NULL, NULL,
     NULL, 0, "", "", 0, 0, false, false, false, false},
    {"unknown long flag with a value names the flag only", "--foo=bar", -1,
     "unknown flag: --foo", NULL, NULL, NULL, 0, "", "", 0, 0, false, false,
     false, false},
    {"unknown shorthand", "-x", -1, "unknown shorthand flag: 'x' in -x",
     NULL, NULL, NULL, 0, "", "", 0, 0, false, false, false, false},
    {"unknown shorthand inside a group", "-Ax", -1, "unknown shorthand "
     "flag: 'x' in -Ax", NULL, NULL, NULL, 0, "", "", 0, 0, false, false,
     false, false},
    {"shorthand without its value", "-o", -1, "flag needs an argument: "
     "'o' in -o", NULL, NULL, NULL, 0, "", "", 0, 0, false, false, false,
     false},
    {"long flag without its value", "--output", -1, "flag needs an "
     "argument: --output", NULL, NULL, NULL, 0, "", "", 0, 0, false, false,
     false, false},
    {"three dashes", "---output", -1, "bad flag syntax: ---output", NULL,
     NULL, NULL, 0, "", "", 0, 0, false, false, false, false},
    {"no name before =", "--=json", -1, "bad flag syntax: --=json", NULL,
     NULL, NULL, 0, "", "", 0, 0, false, false, false, false},
    {"-o= is an empty format", "-o=", -1, "invalid output format '': "
     "expected table, wide, json, yaml, name, summary, describe, "
     "jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=SPEC or custom-columns-file=FILE",
     NULL, NULL, NULL, 0, "", "",
     0, 0, false, false, false, false},
    /* help */
    {"-h prints the usage", "-n prod -h", 1, NULL, NULL, NULL, NULL, 0, "",
     "", 0, 0, false, false, false, false},
    {"--help=false does not", "--help=false", 0, NULL, NULL, NULL, NULL,
     KP_OUTPUT_TABLE, "", "", 0, 0, false, false, false, false},
    /* kubectl: the subcommand among the flags */
    {"subcommand after flags", "--selector a=b explain -n prod", 0, NULL,
     "explain", "prod", "a=b", KP_OUTPUT_TABLE, "", "", 0, 0, false, false,
     false, false},
    {"subcommand first", "explain -o json web-0", 0, NULL, "explain", NULL,
     NULL, KP_OUTPUT_JSON, "", "web-0", 0, 0, false, false, false, false},
    {"explain after a pod is a pod", "web-0 explain", 0, NULL, NULL, NULL,
     NULL, KP_OUTPUT_TABLE, "", "web-0,explain", 0, 0, false, false, false,
     false},
    {"a pod named explain is pod/explain", "pod/explain", 0, NULL, NULL,
     NULL, NULL, KP_OUTPUT_TABLE, "", "explain", 0, 0, false, false, false,
     false},
    /* TYPE/NAME */
    {"pod/, pods/ and po/ name a pod; NAMESPACE/NAME stays",
     "pod/a pods/b po/c prod/d", 0, NULL, NULL, NULL, NULL,
     KP_OUTPUT_TABLE, "", "a,b,c,prod/d", 0, 0, false, false, false,
     false},
    {"pod/ without a name", "pod/", -1, "invalid pod 'pod/': expected "
     "NAME, NAMESPACE/NAME or pod/NAME", NULL, NULL, NULL, 0, "", "", 0, 0,
     false, false, false, false},
    {"pod/NAMESPACE/NAME is not a form", "pod/prod/a", -1, "invalid pod "
     "'pod/prod/a': expected NAME, NAMESPACE/NAME or pod/NAME", NULL, NULL,
     NULL, 0, "", "", 0, 0, false, false, false, false},
    /* --fail-on */
    {"--fail-on comma-separated and repeated",
     "--fail-on preemption,pdb-violation --fail-on=unschedulable", 0, NULL,
     NULL, NULL, NULL, KP_OUTPUT_TABLE, "", "", 0,
     KP_FAIL_PREEMPTION | KP_FAIL_PDB_VIOLATION | KP_FAIL_UNSCHEDULABLE,
     false, false, false, false},
    {"--fail-on rollout-blocked", "--fail-on drain-blocked,rollout-blocked",
     0, NULL, NULL, NULL, NULL, KP_OUTPUT_TABLE, "", "", 0,
     KP_FAIL_DRAIN_BLOCKED | KP_FAIL_ROLLOUT_BLOCKED,
     false, false, false, false},
    {"--fail-on names the bad item of a list",
     "--fail-on preemption,evicted", -1, "invalid value 'evicted' for "
     "--fail-on: expected preemption, pdb-violation, unschedulable, "
     "drain-blocked, rollout-blocked, newly-unschedulable, new-preemption, "
     "new-pdb-violation or regression", NULL,
     NULL, NULL, 0, "", "", 0, 0, false, false, false, false},
    {"--fail-on with an empty item", "--fail-on preemption,", -1,
     "invalid value '' for --fail-on: expected preemption, pdb-violation, "
     "unschedulable, drain-blocked, rollout-blocked, newly-unschedulable, "
     "new-preemption, new-pdb-violation or regression", NULL, NULL, NULL,
     0, "", "", 0, 0,
     false, false, false, false},
    {"--fail-on regression is the three conditions on the change",
     "--fail-on regression", 0, NULL, NULL, NULL, NULL, KP_OUTPUT_TABLE, "",
     "", 0, KP_FAIL_NEWLY_UNSCHEDULABLE | KP_FAIL_NEW_PREEMPTION |
     KP_FAIL_NEW_PDB_VIOLATION, false, false, false, false},
    {"--only-added=true with --add", "--add=m.yaml --only-added=true", 0,
     NULL, NULL, NULL, NULL, KP_OUTPUT_TABLE, "", "", 0, 0, false, true,
     false, false},
};

static void
join(char *buf, size_t n, const char **v, size_t nv)
{
    size_t i, len = 0;

    buf[0] = '\0';
    for (i = 0; i < nv && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? "," : "",
                                v[i]);
}

static void
run_row(const struct row *r)
{
    char copy[512], *argv[64], *tok, *save = NULL, got[512];
    int argc = 0, rc;
    struct kp_options o;
    struct kp_error err = {0, ""};
    struct kp_buf out;
    const char *command = NULL;

    snprintf(copy, sizeof(copy), "%s", r->args);
    argv[argc++] = "kubectl-preempt";
    for (tok = strtok_r(copy, " ", &save); tok && argc < 63;
         tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    kp_options_init(&o);
    kp_buf_init(&out);
    rc = kp_options_parse_command(&o, argc, argv, &command, &out, &err);
    if (rc != r->rc || (rc < 0 && strcmp(err.msg, r->error) != 0))
        printf("#   row '%s'\n", r->name);
    CHECK_EQ_INT(rc, r->rc);
    if (rc < 0)
        CHECK_EQ_STR(err.msg, r->error);
    if (rc == 1)
        CHECK(out.len > 0);
    if (rc == 0) {
        int before = check_test_failed;

        check_test_failed = 0;
        CHECK_EQ_STR(command ? command : "(none)",
                     r->command ? r->command : "(none)");
        CHECK_EQ_STR(o.namespace ? o.namespace : "(unset)",
                     r->namespace ? r->namespace : "(unset)");
        CHECK_EQ_STR(o.selector ? o.selector : "(unset)",
                     r->selector ? r->selector : "(unset)");
        CHECK_EQ_INT(o.output, r->output);
        join(got, sizeof(got), o.files, o.nfiles);
        CHECK_EQ_STR(got, r->files);
        join(got, sizeof(got), o.pods, o.npods);
        CHECK_EQ_STR(got, r->pods);
        CHECK_EQ_INT(o.verbose, r->verbose);
        CHECK_EQ_INT(o.fail_on, r->fail_on);
        CHECK_EQ_INT(o.all_namespaces, r->all_namespaces);
        CHECK_EQ_INT(o.only_added, r->only_added);
        CHECK_EQ_INT(o.no_headers, r->no_headers);
        CHECK_EQ_INT(o.explain_nodes, r->explain_nodes);
        if (check_test_failed)
            printf("#   row '%s'\n", r->name);
        check_test_failed |= before;
    }
    kp_buf_release(&out);
    kp_options_release(&o);
}

static void
test_options__pflag_table(void)
{
    size_t i;

    for (i = 0; i < NELEM(rows); i++)
        run_row(&rows[i]);
}

/* every row of the flag table is reachable by its names */
static void
test_options__every_flag_parses_by_long_and_short_name(void)
{
    size_t i;

    for (i = 0; i < kp_nflags; i++) {
        const struct kp_flag *f = &kp_flags[i];
        char lng[80];
        char *argv[4] = {"kubectl-preempt", lng, "1", NULL};
        struct kp_options o;
        struct kp_error err = {0, ""};
        struct kp_buf out;
        int rc;

        snprintf(lng, sizeof(lng), "--%s", f->long_name);
        kp_options_init(&o);
        kp_buf_init(&out);
        rc = kp_options_parse(&o, f->arg == KP_ARG_REQUIRED ? 3 : 2, argv,
                              &out, &err);
        if (rc < 0 && strstr(err.msg, "unknown") != NULL) {
            printf("#   --%s: %s\n", f->long_name, err.msg);
            CHECK(0);
        }
        kp_buf_release(&out);
        kp_options_release(&o);
    }
}

int
main(void)
{
    RUN(test_options__pflag_table);
    RUN(test_options__every_flag_parses_by_long_and_short_name);
    return check_done();
}
