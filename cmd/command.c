/*
 * command.c - the command around the parser (cobra's Command.Execute, as
 * kubectl runs it): parse the flags (options.c), answer --help from the
 * command's help (help.c) and --version, then check the options and the
 * command.  Moved verbatim from options.c (issue 28): the parser no
 * longer calls the help, which reads the parser's flag table.
 */
#include "help.h"
#include "options.h"
#include "options_int.h"

#include <stddef.h>

void
kp_usage(struct kp_buf *out)
{
    kp_usage_as(NULL, out);
}

/* the root command's help (help.c) */
void
kp_usage_as(const char *prog, struct kp_buf *out)
{
    kp_help(prog, NULL, out);
}

/*
 * The command whose help --help asks for: the one before it, else the
 * first later word that names one ("--help explain"), as cobra finds the
 * command before it reads --help.
 */
static const char *
help_command(const struct parser *p, const char **command)
{
    int i;

    if (command && *command)
        return *command;
    for (i = p->i; i < p->argc; i++)
        if (p->argv[i][0] != '-' && kp_help_topic(p->argv[i]))
            return p->argv[i];
    return NULL;
}

int
kp_options_parse_command(struct kp_options *o, int argc, char **argv,
                         const char **command, struct kp_buf *out,
                         struct kp_error *err)
{
    struct parser p = {o, argc, argv, 1, err};
    int rc;

    if (command)
        *command = NULL;
    rc = parse_args(&p, command);
    if (rc == 1)
        kp_help(o->program_name, help_command(&p, command), out);
    if (rc == 2)
        kp_version_text(out);
    if (rc != 0)
        return rc < 0 ? -1 : 1;
    if (check_options(o, err) < 0)
        return -1;
    return check_command(o, command ? *command : NULL, err);
}

int
kp_options_parse(struct kp_options *o, int argc, char **argv,
                 struct kp_buf *out, struct kp_error *err)
{
    return kp_options_parse_command(o, argc, argv, NULL, out, err);
}
