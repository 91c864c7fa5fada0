/*
 * kube_version.h - the replayed kube-scheduler minor (kube_version.c).
 */
#ifndef KP_KUBE_VERSION_H
#define KP_KUBE_VERSION_H

#include <stddef.h>

#define KP_KUBE_MINOR_MIN 31
#define KP_KUBE_MINOR_MAX 38
/* what runs without --kube-version or a detected version */
#define KP_KUBE_MINOR_DEFAULT 37

/* The minor of "v1.34.2" / "1.34" (any, even unsupported), or -1. */
int kp_kube_version_minor(const char *s);

/*
 * The minor of an API server's /version body (len bytes of JSON): its
 * major "1" and minor ("36", or "36+" as EKS and GKE print it), else its
 * gitVersion ("v1.36.2", "v1.36.2-eks-1234"); any minor, even
 * unsupported, or -1 when it names none.
 */
int kp_kube_version_from_server(const char *body, size_t len);

/*
 * Every rule of the replay keyed on a release: one row each in
 * kp_kube_rules (kube_version.c), which docs/versions.md lists with the
 * test that pins it.
 */
enum kp_kube_rule {
    KP_RULE_INPLACE_RESIZE,         /* 1.33 */
    KP_RULE_SIDECAR_NONZERO,        /* 1.32 */
    KP_RULE_SIDECAR_HOST_PORTS,     /* 1.33 */
    KP_RULE_FIT_UNRESOLVABLE,       /* 1.34 */
    KP_RULE_DRA_POST_FILTER,        /* 1.34 */
    KP_RULE_POD_LEVEL_RESOURCES,    /* 1.34 */
    KP_RULE_TAINT_GENERIC_REASON,   /* 1.34 */
    KP_RULE_BA_BALANCE_CHANGE,      /* 1.36 */
    KP_RULE_NODE_DECLARED_FEATURES, /* 1.36 */
    KP_RULE_IMAGE_VOLUME_SCORE,     /* 1.36 */
    KP_RULE_PREEMPT_MESSAGE,        /* 1.37 */
    KP_RULE_STORAGE_CAPACITY_SCORING, /* 1.37 */
    KP_RULE_IMAGE_VOLUME_THRESHOLD, /* 1.37 */
    KP_RULE_PDB_EMPTY_SELECTOR,     /* 1.38 */
    KP_RULE_PTS_EMPTY_SELECTOR,     /* 1.38 */
    KP_RULE_QUANTITY_SATURATE,      /* 1.38 */
    KP_NRULES
};

struct kp_kube_rule_row {
    enum kp_kube_rule id;
    int since;                  /* first minor where the rule holds */
    const char *source;         /* PR or feature gate */
    const char *what;
    const char *test;           /* the test that pins it */
};

extern const struct kp_kube_rule_row kp_kube_rules[KP_NRULES];

/* Whether rule r holds in minor (0: the default, KP_KUBE_MINOR_DEFAULT). */
int kp_kube_rule_on(enum kp_kube_rule r, int minor);

#endif
