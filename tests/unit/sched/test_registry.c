/*
 * test_registry.c - config/ keeps a profile's plugin switches and weights
 * by the indexes of the simulated Filter and Score tables
 * (core/sched/plugins/registry.c), knowing them by name only
 * (kp_cfg_sim_filters, kp_cfg_sim_scores in core/config/config.c, issue
 * 28: config/ sits below the framework).  The two must agree, or a
 * --config that turns NodePorts off would turn another plugin off.
 */
#include "check.h"
#include "config.h"
#include "config_int.h"
#include "framework.h"
#include "score.h"

/* Same Filter plugins, same order, and a PreFilter where config says. */
static void
test_registry__filters_match_config_names(void)
{
    size_t i;

    CHECK_EQ_INT(kp_cfg_nsim_filters, kp_nfilter_plugins);
    CHECK(kp_nfilter_plugins <= KP_CFG_MAX_FILTERS);
    for (i = 0; i < kp_nfilter_plugins && i < kp_cfg_nsim_filters; i++) {
        CHECK_EQ_STR(kp_cfg_sim_filters[i].name, kp_filter_plugins[i]->name);
        CHECK_EQ_INT(kp_cfg_sim_filters[i].pre_filter,
                     kp_filter_plugins[i]->pre_filter != NULL);
    }
}

/* Same Score plugins, same order. */
static void
test_registry__scores_match_config_names(void)
{
    size_t i;

    CHECK_EQ_INT(kp_cfg_nsim_scores, kp_nscore_plugins);
    CHECK(kp_nscore_plugins <= KP_CFG_MAX_SCORES);
    for (i = 0; i < kp_nscore_plugins && i < kp_cfg_nsim_scores; i++)
        CHECK_EQ_STR(kp_cfg_sim_scores[i], kp_score_plugins[i]->name);
}

int
main(void)
{
    RUN(test_registry__filters_match_config_names);
    RUN(test_registry__scores_match_config_names);
    return check_done();
}
