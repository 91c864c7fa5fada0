/*
 * selfcheck.h - the incremental-state self-check of the test build.
 *
 * The dry run and the queue update state in place: the PreFilter states
 * of InterPodAffinity and PodTopologySpread through AddPod/RemovePod,
 * NodeInfo aggregates and used host ports, the victim tables, the PDB
 * budgets of queue mode and the per-node copies of the nominated pods.
 * Built with -DKP_SELFCHECK (the test build: make selfcheck), core/
 * compares each of them, at every step, with the same state recomputed
 * from scratch, and records every disagreement here; the normal build
 * compiles the calls away (KP_SELFCHECK_* below are empty).
 *
 * The recorder is always built (so that drivers link against either
 * build): kp_selfcheck_failures() is 0 in a build without the checks.
 */
#ifndef KP_SELFCHECK_H
#define KP_SELFCHECK_H

#include <stdbool.h>
#include <stddef.h>

/* Whether this build runs the checks (compiled with -DKP_SELFCHECK). */
bool kp_selfcheck_enabled(void);
/* Checks run and disagreements found since the last reset. */
size_t kp_selfcheck_checks(void);
size_t kp_selfcheck_failures(void);
/* The first disagreement's one-line description ("" when none). */
const char *kp_selfcheck_first(void);
void kp_selfcheck_reset(void);

/* For the checks themselves (thread-safe). */
void kp_selfcheck_count(void);
void kp_selfcheck_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

#endif
