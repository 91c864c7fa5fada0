/*
 * gen.h - a deterministic random cluster for the incremental-state
 * self-check (tests/selfcheck/README.md).
 *
 * The randomness comes from a seed (splitmix64) or from a byte stream
 * (a fuzzer's input: each choice takes one or two bytes, 0 once they run
 * out), so one seed, or one input, always gives the same cluster.
 */
#ifndef SC_GEN_H
#define SC_GEN_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

struct sc_rng {
    uint64_t state;
    const uint8_t *data;        /* NULL: seeded */
    size_t size, pos;
};

/* A stream from a seed, or from size bytes (borrowed, read once each). */
void sc_rng_seed(struct sc_rng *r, uint64_t seed);
void sc_rng_bytes(struct sc_rng *r, const uint8_t *data, size_t size);

/* A number in 0..n-1 (0 when n is 0). */
uint32_t sc_rng_below(struct sc_rng *r, uint32_t n);

/*
 * A cluster as `kubectl get -o json` prints it: {"apiVersion": "v1",
 * "kind": "List", "items": [...]}, with Namespaces, PriorityClasses,
 * Nodes, Pods and PodDisruptionBudgets.  The caller owns the result
 * (cJSON_Delete).
 */
cJSON *sc_gen_cluster(struct sc_rng *r);

#endif
