/*
 * options_int.h - what options.c (the flag table and its parser) and
 * command.c (the command: --help, --version, the checks) share (issue
 * 28): the parser's state, moved verbatim from options.c, and the three
 * steps command.c runs, whose file-local names are kept.
 */
#ifndef KP_OPTIONS_INT_H
#define KP_OPTIONS_INT_H

#include "options.h"

struct parser {
    struct kp_options *o;
    int argc;
    char **argv;
    int i;                      /* the next argument to read */
    struct kp_error *err;
};

int parse_args(struct parser *p, const char **command);
int check_options(struct kp_options *o, struct kp_error *err);
int check_command(const struct kp_options *o, const char *command,
                  struct kp_error *err);

#endif
