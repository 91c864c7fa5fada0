/* completion.h - "kubectl-preempt completion SHELL" (completion.c). */
#ifndef KP_COMPLETION_H
#define KP_COMPLETION_H

int kp_completion_main(int argc, char **argv);

#endif
