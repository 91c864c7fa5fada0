/*
 * render_kubectl.h - the report printed as kubectl prints objects:
 * -o yaml, name, jsonpath[-file], custom-columns[-file], and --sort-by
 * (kubectl's printers in k8s.io/cli-runtime/pkg/printers and
 * k8s.io/kubectl/pkg/cmd/get: customcolumn.go, sorter.go).
 *
 * They all start from the -o json document (kp_render_json), parsed
 * whole.  The document is the List: a jsonpath template sees all of it
 * ({.pods[*].name}), custom-columns and --sort-by see each of its pods
 * (explain: each of its preemptions).
 */
#ifndef KP_RENDER_KUBECTL_H
#define KP_RENDER_KUBECTL_H

#include <stdbool.h>
#include <stddef.h>

#include "kp.h"

/* true when o->output is rendered from the JSON document. */
bool kp_kubectl_output(const struct kp_options *o);

/*
 * Read and parse o's template or columns before anything is loaded, so
 * that a bad one fails first, with kubectl's message (exit 1).
 */
int kp_kubectl_check(const struct kp_options *o, struct kp_error *err);

/*
 * Render the -o json text of a report as o->output into out; items names
 * the document's list of objects: "pods" (the run's PreemptionReport),
 * "preemptions" (explain's PreemptionHistory).
 */
int kp_render_kubectl(const struct kp_options *o, const char *items,
                      const char *json, size_t len, struct kp_buf *out,
                      struct kp_error *err);

/*
 * --sort-by EXPR over the document's pods: *pos gets their
 * queuePositions in sorted order (malloc'ed, *n of them).  kubectl's
 * errors; exit 1.
 */
int kp_kubectl_sort(const char *expr, const char *json, size_t len,
                    int **pos, size_t *n, struct kp_error *err);

/*
 * RelaxedJSONPathExpression: "a.b", ".a.b", "{a.b}" -> "{.a.b}", of any
 * length, malloc'ed; NULL with kubectl's error.
 */
char *kp_relaxed_jsonpath(const char *in, struct kp_error *err);

#endif
