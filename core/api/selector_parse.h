/* selector_parse.h - label selector strings (-l); see selector_parse.c. */
#ifndef KP_SELECTOR_PARSE_H
#define KP_SELECTOR_PARSE_H

#include "labels.h"

/* Parse s; an invalid selector is a usage error (exit 2). */
int kp_selector_parse(struct kp_arena *a, const char *s,
                      struct kp_selector *out, struct kp_error *err);

#endif
