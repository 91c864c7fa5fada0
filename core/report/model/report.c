/*
 * report.c - the report model's own life cycle (report.h): what
 * kp_analyze fills (core/sched/simulate.c) is released here, by its owner.
 */
#include <string.h>

#include "report.h"

void
kp_report_release(struct kp_report *rep)
{
    kp_strmap_release(&rep->node_statuses);
    kp_arena_release(&rep->arena);
    memset(rep, 0, sizeof(*rep));
}
