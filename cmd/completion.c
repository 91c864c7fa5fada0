/*
 * completion.c - shell completion scripts generated from the flag table.
 * (Placeholder until the completions work lands: prints an error.)
 */
#include <stdio.h>

#include "completion.h"

int
kp_completion_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("error: completion is not available yet\n", stderr);
    return 2;
}
