/*
 * options.h - the flag table: one row per flag (long, short, argument,
 * help, handler).  The parser (spf13/pflag's rules), --help and the
 * completions are all generated from it.
 */
#ifndef KP_OPTIONS_H
#define KP_OPTIONS_H

#include "kp.h"

enum kp_arg {
    KP_ARG_NONE,                /* boolean: --flag, --flag=true|false */
    KP_ARG_REQUIRED,
    KP_ARG_LEVEL                /* -v: counts up, or -v=N, -v N, --v=N */
};

struct kp_flag {
    const char *long_name;
    char short_name;            /* 0: none */
    enum kp_arg arg;
    const char *arg_name;       /* e.g. "FILE" */
    const char *values;         /* allowed values, space separated, or NULL */
    const char *help;
    int (*handle)(struct kp_options *o, const char *arg,
                  struct kp_error *err);
};

extern const struct kp_flag kp_flags[];
extern const size_t kp_nflags;

/*
 * Parse argv into o (POD arguments included).  Returns 0, 1 when --help
 * or --version was printed into out, or -1 with a usage error.
 * o->files and o->pods point into argv and malloc'ed arrays that
 * kp_options_release() frees.
 */
int kp_options_parse(struct kp_options *o, int argc, char **argv,
                     struct kp_buf *out, struct kp_error *err);
/*
 * The same; the first argument that is no flag's and reads "explain" is
 * the command, returned in *command (NULL when none): flags may come
 * before or after it, as with kubectl's subcommands.
 */
int kp_options_parse_command(struct kp_options *o, int argc, char **argv,
                             const char **command, struct kp_buf *out,
                             struct kp_error *err);
void kp_options_release(struct kp_options *o);
void kp_usage(struct kp_buf *out);
/* the same, naming the program prog ("kubectl preempt"); NULL: default */
void kp_usage_as(const char *prog, struct kp_buf *out);

#endif
