/*
 * help.h - the help of each command (help.c), generated from the flag
 * table.
 */
#ifndef KP_HELP_H
#define KP_HELP_H

#include <stdbool.h>

#include "options.h"

/*
 * The help of command cmd ("explain", "version", "completion", "help";
 * NULL or another name: the root command's), naming the program prog
 * (NULL: "kubectl-preempt").
 */
void kp_help(const char *prog, const char *cmd, struct kp_buf *out);
/* whether name is a command that has its own help */
bool kp_help_topic(const char *name);

#endif
