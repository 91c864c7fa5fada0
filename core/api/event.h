/*
 * event.h - the evidence of past preemptions that a snapshot holds: an
 * Event of reason Preempted, or a pod's DisruptionTarget condition.
 * Decoded by core/load (decode_event.c), linked to the pods still in the
 * snapshot by "kubectl-preempt explain" (core/explain/explain.c).
 *
 * Mirrors what pkg/scheduler/framework/preemption/executor.go
 * (prepareCandidate) writes back: the victim's condition and event, the
 * preemptor's status.nominatedNodeName.
 */
#ifndef KP_EVENT_H
#define KP_EVENT_H

#include <stdbool.h>
#include <stdint.h>

enum kp_event_type {
    KP_EVENT_PREEMPTED,         /* an Event, reason Preempted */
    KP_EVENT_DISRUPTION_TARGET, /* a pod's DisruptionTarget condition */
    /*
     * An Event of reason FailedScheduling: regarding is the pod, message
     * kube-scheduler's FitError (v1.37+: "... preemption: found a
     * potential placement for pod on node X, preempting N victims");
     * explain shows a preemptor's latest (issue 26).
     */
    KP_EVENT_FAILED_SCHEDULING,
    /*
     * An Event of reason Scheduled ("Successfully assigned ns/pod to
     * node"): regarding is the pod, time when it was bound; explain's
     * replay leaves out a pod bound after a preemption (issue 26) when
     * its PodScheduled condition does not say
     */
    KP_EVENT_SCHEDULED
};

/* An ObjectReference; absent fields are NULL. */
struct kp_object_ref {
    const char *kind;
    const char *ns;
    const char *name;
    const char *uid;
};

/*
 * One piece of evidence of a preemption.  For an Event, regarding is the
 * victim and related (when the scheduler recorded it) the preemptor; the
 * note names the node and, by release, the preemptor's UID ("Preempted
 * by pod <UID> on node <node>", v1.29+), its namespace/name ("Preempted
 * by <ns>/<name> on node <node>", up to v1.26.0) or nothing ("Preempted
 * by a pod on node <node>").  For a condition, regarding is the pod and
 * node its spec.nodeName.  Owned by the snapshot's arena.
 */
struct kp_event {
    enum kp_event_type type;
    const char *source;             /* file it came from */
    struct kp_object_ref regarding;
    struct kp_object_ref related;
    const char *note_uid;           /* preemptor UID from the note */
    const char *note_ns, *note_name;/* preemptor from an old note */
    const char *node;
    const char *message;
    bool has_time;
    int64_t time;                   /* ns since the epoch */
    int32_t count;                  /* occurrences (series, count) */
};

#endif
