/*
 * snapshot_load.h - the loader: kubectl's JSON (-f files, standard input,
 * live pages) decoded into the cluster model of core/cluster/snapshot.h.
 * The decoders (decode_*.c) fill one object each; kp_snapshot_add_object
 * indexes it (the informers' add handlers, pkg/scheduler/eventhandlers.go).
 * Declarations moved verbatim from snapshot.h (issue 28).
 */
#ifndef KP_SNAPSHOT_LOAD_H
#define KP_SNAPSHOT_LOAD_H

#include <cjson/cJSON.h>

#include "quantity.h"
#include "snapshot.h"

/*
 * Load every JSON document of buf (a List, an XxxList, a single object or
 * several concatenated documents).  source names the file in errors.
 */
/* The List annotation --snapshot-out writes the server's version in. */
#define KP_SERVER_VERSION_ANNOTATION "kubectl-preempt.io/server-version"

int kp_snapshot_load_buffer(struct kp_snapshot *s, const char *buf,
                            size_t len, const char *source,
                            struct kp_error *err);
/*
 * Load one item of a List whose items are of kind item_kind ("Pod"):
 * text is the item's JSON (len bytes, one value, already checked by
 * kp_json_scan_value), index its place in the page's items.  The same
 * path as the items of a List read from a file; kp_list_stream
 * (json_stream.h) feeds it from live pages.  source must outlive s (an
 * interned string); errors are prefixed with it.  When keep is not NULL
 * it receives the parsed item (the caller deletes it), else NULL.
 */
int kp_snapshot_load_item(struct kp_snapshot *s, const char *text,
                          size_t len, const char *item_kind, long index,
                          const char *source, cJSON **keep,
                          struct kp_error *err);

/*
 * Pull the next item of a List: 1 with *item set (the caller deletes
 * it), 0 after the last one, -1 with err set.
 */
typedef int (*kp_item_pull_fn)(void *ctx, cJSON **item,
                               struct kp_error *err);
/*
 * Load one document that is a List (kind List or XxxList, or no kind
 * and an items array) given as its members but items (header, "items"
 * an empty array) and its items, pulled one at a time: what
 * kp_snapshot_load_buffer does with the document's text, the same
 * checks in the same order and the same errors (prefixed with source),
 * without the items as one tree (YAML: input.c).
 */
int kp_snapshot_load_list_pulled(struct kp_snapshot *s, cJSON *header,
                                 kp_item_pull_fn pull, void *ctx,
                                 const char *source, struct kp_error *err);

/* Read path ("-" for standard input) and load it. */
int kp_snapshot_load_file(struct kp_snapshot *s, const char *path,
                          struct kp_error *err);
/*
 * Stream fd (a pipe, standard input, a device) into the loader as
 * kp_snapshot_load_file does, the first n bytes already read into pre
 * (what was read to tell JSON from YAML).
 */
int kp_snapshot_load_fd(struct kp_snapshot *s, int fd, const char *source,
                        const char *pre, size_t n, struct kp_error *err);
/*
 * Decode one object of the given kind (items of XxxList lack "kind").
 * Unknown kinds are counted and skipped.
 */
int kp_snapshot_add_object(struct kp_snapshot *s, const cJSON *obj,
                           const char *kind, const char *source,
                           struct kp_error *err);

/* Decoders (decode_*.c); obj is the object, errors are field paths. */
int kp_decode_node(struct kp_snapshot *s, const cJSON *obj,
                   struct kp_node *n, struct kp_error *err);
int kp_decode_pod(struct kp_snapshot *s, const cJSON *obj,
                  struct kp_pod *p, struct kp_error *err);
int kp_decode_pdb(struct kp_snapshot *s, const cJSON *obj,
                  struct kp_pdb *p, struct kp_error *err);
int kp_decode_priority_class(struct kp_snapshot *s, const cJSON *obj,
                             struct kp_priority_class *pc,
                             struct kp_error *err);
/* decode_storage.c: PersistentVolumeClaim, PersistentVolume,
 * StorageClass and CSINode (storage.k8s.io/v1). */
int kp_decode_pvc(struct kp_snapshot *s, const cJSON *obj, struct kp_pvc *p,
                  struct kp_error *err);
int kp_decode_pv(struct kp_snapshot *s, const cJSON *obj, struct kp_pv *p,
                 struct kp_error *err);
int kp_decode_storage_class(struct kp_snapshot *s, const cJSON *obj,
                            struct kp_storage_class *sc,
                            struct kp_error *err);
/* decode_workload.c: a Service, ReplicationController, ReplicaSet or
 * StatefulSet, for helper.DefaultSelector */
int kp_decode_spread_source(struct kp_snapshot *s, const cJSON *obj,
                            enum kp_spread_source_kind kind,
                            struct kp_spread_source *out,
                            struct kp_error *err);
int kp_decode_csinode(struct kp_snapshot *s, const cJSON *obj,
                      struct kp_csinode *cn, struct kp_error *err);
/*
 * decode_namespace.c: name and labels, with the kubernetes.io/metadata.name
 * label the API server's defaulting gives every Namespace.
 */
int kp_decode_namespace(struct kp_snapshot *s, const cJSON *obj,
                        struct kp_namespace *ns, struct kp_error *err);
/*
 * decode_event.c: keep an Event of reason Preempted (others are skipped),
 * and a pod's DisruptionTarget condition set by preemption.
 */
int kp_snapshot_add_event(struct kp_snapshot *s, const cJSON *obj,
                          const char *source, struct kp_error *err);
void kp_snapshot_note_disruption(struct kp_snapshot *s, const cJSON *obj,
                                 const struct kp_pod *p);
/* decode_pod.c: what a drain reads, the mirror annotation and emptyDir
 * (kubectl drain's filters, k8s.io/kubectl/pkg/drain/filters.go). */
int kp_whatif_decode_pod(struct kp_snapshot *s, const cJSON *md,
                         const cJSON *spec, struct kp_pod *p,
                         struct kp_error *err);
/* A ResourceList object {name: quantity} into a sparse vector. */
int kp_decode_resources(struct kp_snapshot *s, const cJSON *obj,
                        struct kp_resvec *out, struct kp_error *err);
/*
 * The same as quantities, before they are read as int64 (a pod sums its
 * containers' quantities first): the non-zero ones, at most cap (more
 * is an error, as kp_decode_resources).
 */
struct kp_res_quantity {
    int id;
    struct kp_quantity q;
};
int kp_decode_quantities(struct kp_snapshot *s, const cJSON *obj,
                         struct kp_res_quantity *out, size_t cap, size_t *n,
                         struct kp_error *err);
/*
 * q as kube-scheduler reads resource id (MilliValue for cpu, Value for
 * the rest): as 1.31-1.37 do, or 1.38 with s->quantity_saturate; sets
 * s->quantity_wraps when the two differ.
 */
int64_t kp_quantity_read(struct kp_snapshot *s, int id,
                         const struct kp_quantity *q);

#endif
