/*
 * select.h - which pods a report shows, as kubectl get selects them:
 * POD... ("NAME" in the current namespace or "NAMESPACE/NAME"), -n
 * (-A wins over it), -l, and with --config the --scheduler-name given.
 * The run (run.c) and explain (explain.c) select with the same rules.
 */
#ifndef KP_SELECT_H
#define KP_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "error.h"
#include "kp.h"
#include "labels.h"
#include "model.h"

struct kp_select {
    const struct kp_options *o;
    const char *default_ns;         /* of a POD without "NAMESPACE/" */
    bool has_selector;              /* -l given */
    struct kp_selector sel;
};

/*
 * -l parsed into a's memory (a bad one is a usage error, exit 2);
 * default_ns is the namespace of a bare POD without -n: the context's
 * (live) or "default".
 */
int kp_select_init(struct kp_select *s, const struct kp_options *o,
                   const char *default_ns, struct kp_arena *a,
                   struct kp_error *err);
/* ns is -n's (any with -A or without -n); ns may be NULL (unknown). */
bool kp_select_namespace(const struct kp_select *s, const char *ns);
/* p is in -n's namespace, matches -l and --config's --scheduler-name. */
bool kp_select_pod(const struct kp_select *s, const struct kp_pod *p);
/*
 * A POD argument's namespace (into ns, nsz bytes) and name: "NS/NAME",
 * else "NAME" in default_ns.
 */
void kp_select_split(const struct kp_select *s, const char *arg, char *ns,
                     size_t nsz, const char **name);
/* Whether arg (a POD argument) names ns/name. */
bool kp_select_names(const struct kp_select *s, const char *arg,
                     const char *ns, const char *name);

#endif
