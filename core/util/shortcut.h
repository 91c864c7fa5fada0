/*
 * shortcut.h - the switches of issue 27's shortcuts: each one, set in
 * the environment to a non-empty value other than 0, turns one off, and
 * the report is the same byte for byte with or without it (README,
 * Scale):
 *
 *   KP_NO_TOLERATION_INDEX   core/api/toleration_index.c
 *   KP_NO_PORT_HASH          core/sched/framework/host_port_info.c
 *   KP_NO_SPARSE_RESOURCES   core/sched/framework/cluster_state.c
 *                            (init_res_slots)
 *   KP_NO_YAML_STREAM        core/load/input.c load_yaml
 *
 * and issue 31's:
 *
 *   KP_NO_LAZY_TABLES        core/sched/simulate.c tables_wanted
 *   KP_NO_PDB_INDEX          core/sched/plugins/defaultpreemption/
 *                            default_preemption.c (pdb_index.h)
 *   KP_NO_NOMINATED_COPY     core/sched/framework/cluster_state.c
 *                            (nominated_copy.c)
 *   KP_NO_NODE_TEMPLATE      core/sched/framework/cluster_state.c
 *                            (kp_cluster_init_from)
 *   KP_NO_NONZERO_SUM        core/sched/framework/cluster_state.c
 *                            (fill_node: kp_node_info.nonzero_kept)
 *   KP_NO_SCORE_PASS         core/sched/score.c kp_prioritize_nodes
 *   KP_NO_NOMINATED_SUM      core/sched/framework/cluster_state.c
 *                            (kp_cluster.nominated_min, nominated_sum)
 *   KP_NO_DIAG_TERMS         core/sched/diagnosis.c term_counts
 *   KP_NO_ASCII_SKIP         core/load/snapshot_load.c read_top_level
 *                            (kp_json_marks.non_ascii)
 *   KP_NO_IPA_MEMO           core/sched/plugins/interpodaffinity/
 *                            scoring.c kept_memo
 *   KP_NO_FIX_RELOAD_SKIP    core/fix_add_node.c (snapshot_save.h)
 *   KP_NO_FIT_SUMS           core/sched/plugins/defaultpreemption/
 *                            default_preemption.c empty_on_sums
 *   KP_NO_DIAG_AHEAD         core/sched/simulate.c attempt_pod (ahead)
 *   KP_NO_TABLE_ONCE         core/sched/framework/cluster_state.c
 *                            kp_cluster_remove_all
 *   KP_NO_KEEP_PARALLEL      core/sched/simulate.c keep_candidates
 *   KP_NO_TABLE_HOOKS        core/sched/framework/cycle_state.c
 *                            (kp_plugin.add_table_pod, ...: the
 *                            InterPodAffinity and PodTopologySpread
 *                            filtering.c hooks)
 *   KP_NO_PARALLEL_RENDER    core/report/render.c json_pods_parallel
 *   KP_NO_LARGEST_ALLOC      core/sched/diagnosis.c largest_alloc
 *   KP_NO_DIAG_PARALLEL      core/sched/diagnosis.c make_filters
 *                            (kp_diagnose_filters_on: masks,
 *                            resource_walk, taint_walk) and
 *                            diagnosis_detail.c kp_diag_pdb_blocks
 *   KP_NO_TERM_PREFILL       core/sched/plugins/helper/selcount.c
 *                            fill_from_index (kp_selcount_entry.pm)
 *   KP_NO_TERM_DOMAINS       core/sched/plugins/helper/term_domains.c
 *                            and selcount.c kp_selcount_domains
 *                            (interpodaffinity/filtering.c count_cluster,
 *                            scoring.c existing_from_domains)
 *   KP_NO_TERM_INDEX         core/sched/plugins/helper/term_domains.c
 *                            kp_term_domains_visit
 *   KP_NO_LABEL_HASH         core/sched/plugins/helper/tpcount.c
 *                            kp_tpcount_kept_hash (labels.h kp_label.h)
 *   KP_NO_TERM_MEMO          core/sched/plugins/helper/selcount.c
 *                            kp_term_intern (by the term's address)
 *   KP_NO_STATE_COW          core/sched/framework/cycle_state.c
 *                            kp_cycle_clone_shared (nominated_copy.c)
 *   KP_NO_NS_HASH            core/sched/framework/cycle_state.c
 *                            kp_ns_hash_on (kp_victim_table.ns_hash:
 *                            podtopologyspread/filtering.c
 *                            table_same_ns, selcount.c
 *                            kp_selcount_recount)
 *   KP_NO_HIST_FROM_GROUPS   core/sched/simulate.c ahead_on
 *                            (diagnosis.c kp_diagnose_histogram)
 *   KP_NO_RES_COLUMN         core/sched/diagnosis.c resource_scan
 *                            (kp_cluster.res_stride)
 *   KP_NO_TAINT_MASK         core/sched/diagnosis.c taint_bits
 *   KP_NO_ALONE_COPY         core/sched/framework/nominated_copy.c
 *                            copy_locks
 */
#ifndef KP_SHORTCUT_H
#define KP_SHORTCUT_H

#include <stdatomic.h>
#include <stdbool.h>

/* whether the environment variable env turns its shortcut off */
bool kp_shortcut_off(const char *env);

/*
 * kp_shortcut_off read once into *seen (1 off, 0 on, -1 not read yet),
 * for a switch asked on every node, from several threads
 */
bool kp_shortcut_off_once(atomic_int *seen, const char *env);

#endif
