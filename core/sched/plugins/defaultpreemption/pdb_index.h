/*
 * pdb_index.h - the PDBs of a node's victim table numbered 0..m-1 on
 * that node, so that filterPodsWithPDBViolation
 * (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go,
 * filterPodsWithPDBViolation: a copy of every matching PDB's
 * DisruptionsAllowed counted down per victim) counts the budgets of one
 * SelectVictimsOnNode in a dense array of m entries instead of searching
 * a table per call.  Built once with the victim table (victim_table.c,
 * build_table), so once per change of the node's pods, not once per pod
 * and node; KP_NO_PDB_INDEX=1 counts in the per-call table as before
 * (default_preemption.c).
 */
#ifndef KP_PDB_INDEX_H
#define KP_PDB_INDEX_H

#include <stddef.h>
#include <stdint.h>

/*
 * For the n PDB entries pdb[0..n) (snapshot indexes, repeats allowed):
 * local[k] is the position of pdb[k] in ids, ids the distinct ones in
 * order of first appearance; returns how many there are (<= n).
 */
size_t kp_pdb_index_build(const int32_t *pdb, size_t n, uint32_t *local,
                          int32_t *ids);

#endif
