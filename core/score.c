/*
 * score.c - which feasible node a pod that fits is placed on.
 *
 * Approximation of section 16 of the semantics: the highest
 * NodeResourcesFit LeastAllocated score (mean over cpu and memory,
 * counting 100m cpu / 200Mi memory for a pod without requests), ties to
 * the first feasible node in input order.
 */
#include "report.h"

#define DEFAULT_CPU 100
#define DEFAULT_MEM (200LL * 1024 * 1024)

static int64_t
least_allocated(int64_t alloc, int64_t used)
{
    if (alloc <= 0 || used > alloc)
        return 0;
    return (alloc - used) * 100 / alloc;
}

int
kp_select_host(struct kp_cycle *c, const int *feasible, size_t n)
{
    const struct kp_pod *p = c->pod;
    int64_t cpu = kp_resvec_get(&p->req, KP_RES_CPU);
    int64_t mem = kp_resvec_get(&p->req, KP_RES_MEMORY);
    int64_t best = -1;
    int best_node = feasible[0];
    size_t i;

    if (cpu == 0)
        cpu = DEFAULT_CPU;
    if (mem == 0)
        mem = DEFAULT_MEM;
    for (i = 0; i < n; i++) {
        const struct kp_node_info *ni = &c->cl->nodes[feasible[i]];
        const struct kp_resvec *al = &ni->node->allocatable;
        int64_t s = (least_allocated(kp_resvec_get(al, KP_RES_CPU),
                                     ni->used[KP_RES_CPU] + cpu) +
                     least_allocated(kp_resvec_get(al, KP_RES_MEMORY),
                                     ni->used[KP_RES_MEMORY] + mem)) / 2;

        if (s > best) {
            best = s;
            best_node = feasible[i];
        }
    }
    return best_node;
}
