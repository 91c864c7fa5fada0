/*
 * decode_score.h - the Pod fields only scoring reads, decoded alongside
 * decode_pod.c: the non-zero requests of
 * pkg/scheduler/framework/types.go (calculateResource, NonZeroRequested)
 * and noderesources/resource_allocation.go, and the controller kind
 * behind PodTopologySpread's system default constraints.
 */
#ifndef KP_DECODE_SCORE_H
#define KP_DECODE_SCORE_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "error.h"
#include "model.h"
#include "quantity.h"

struct kp_snapshot;

/* schedutil.DefaultMilliCPURequest, DefaultMemoryRequest */
#define KP_DEFAULT_MILLI_CPU 100
#define KP_DEFAULT_MEMORY (200LL * 1024 * 1024)

/*
 * component-helpers PodRequests with NonMissingContainerRequests
 * {cpu: 100m, memory: 200Mi}, for cpu ([0]) and memory ([1]).
 */
struct kp_nonzero {
    /* summed as quantities, read as int64 once (kp_quantity_read) */
    struct kp_quantity sum[2];  /* app and restartable init containers */
    struct kp_quantity side[2]; /* restartable init containers so far */
    struct kp_quantity init[2]; /* max over init containers */
    /*
     * v1.31 (framework/types.go calculateResource before #127878): the
     * app containers' non-zero requests read one by one and summed,
     * against the largest of the init containers' cumulative lists
     * (an init container with the sidecars before it, a sidecar with
     * the sidecars up to it), read as a list: a default where no member
     * names the resource.
     */
    int64_t old_sum[2], old_init[2];
    struct kp_quantity old_side[2];
    bool old_side_named[2];
};

/*
 * One container, in spec order (init containers first).  cpu and mem
 * are its requests after API defaulting (limits stand in), NULL when
 * zero; a resource named in neither requests nor limits counts as the
 * default.
 */
void kp_nonzero_container(struct kp_nonzero *nz, const cJSON *container,
                          bool init, bool sidecar,
                          const struct kp_quantity *cpu,
                          const struct kp_quantity *mem);
/*
 * Set p->nonzero_cpu/mem: max(app + sidecars, init), replaced by a
 * pod-level request when spec.resources.requests names the resource,
 * plus overhead, read as s reads quantities (kp_quantity_read).
 * pod_requests is that JSON object (may be NULL); pod_level and
 * overhead hold cpu and memory, NULL where zero.
 */
void kp_nonzero_finish(struct kp_snapshot *s, struct kp_pod *p,
                       const struct kp_nonzero *nz,
                       const cJSON *pod_requests,
                       const struct kp_quantity *const pod_level[2],
                       const struct kp_quantity *const overhead[2]);
/*
 * spec.volumes[].image.reference into p->image_volumes (ImageLocality
 * scores them from v1.36, #130231).  Errors name the field
 * ("volumes[0].image.reference: expected a string").
 */
int kp_decode_image_volumes(struct kp_arena *a, const cJSON *spec,
                            struct kp_pod *p, struct kp_error *err);
/*
 * metadata.ownerReferences: p->controller_kind is the kind of the entry
 * with controller: true (interned), NULL when none.  Errors name the
 * field ("ownerReferences[0].kind: expected a string").
 */
int kp_decode_controller_kind(struct kp_arena *a, const cJSON *md,
                              struct kp_pod *p, struct kp_error *err);

#endif
