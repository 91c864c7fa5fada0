/*
 * test_rollout.c - the rollout arithmetic (core/whatif/rollout.c) with
 * kubernetes/kubernetes' own tables, as data:
 * pkg/controller/deployment/util/deployment_util_test.go
 * TestResolveFenceposts, TestNewRSNewReplicas (its RollingUpdate rows:
 * allRSs is one ReplicaSet of 5 replicas), TestMaxUnavailable; and
 * intstr's GetScaledValueFromIntOrPercent rounding.
 */
#include "check.h"
#include "rollout.h"

/* TestResolveFenceposts: NULL stands for an unset value ("0"). */
static void
test_resolve_fenceposts(void)
{
    static const struct {
        const char *surge, *unavailable;
        int32_t desired, surge_want, unavailable_want;
        bool error;
    } rows[] = {
        {"0%", "0%", 0, 0, 1, false},
        {"39%", "39%", 10, 4, 3, false},
        {"oops", "39%", 10, 0, 0, true},
        {"55%", "urg", 10, 0, 0, true},
        {NULL, "39%", 10, 0, 3, false},
        {"39%", NULL, 10, 4, 0, false},
        {NULL, NULL, 10, 0, 1, false},
    };
    size_t i;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        int32_t s = 0, u = 0;
        int rc = kp_rollout_fenceposts(rows[i].surge ? rows[i].surge : "0",
                                       rows[i].unavailable ?
                                       rows[i].unavailable : "0",
                                       rows[i].desired, &s, &u);

        printf("# row %zu\n", i);
        CHECK_EQ_INT(rc < 0, rows[i].error);
        if (rows[i].error)
            continue;
        CHECK_EQ_INT(s, rows[i].surge_want);
        CHECK_EQ_INT(u, rows[i].unavailable_want);
    }
}

/* TestNewRSNewReplicas, RollingUpdate rows (maxUnavailable 1) */
static void
test_new_rs_new_replicas(void)
{
    static const struct {
        int32_t dep, new_rs, surge, want;
    } rows[] = {
        {1, 5, 1, 5},       /* can not scale up - to newRSReplicas */
        {6, 2, 10, 6},      /* scale up - to depReplicas */
    };
    size_t i;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        CHECK_EQ_INT(kp_rollout_new_rs_replicas(rows[i].dep, rows[i].surge,
                                                5, rows[i].new_rs),
                     rows[i].want);
    /* the README example: 3 replicas, 25%/25%, no new pod yet */
    CHECK_EQ_INT(kp_rollout_new_rs_replicas(3, 1, 3, 0), 1);
    CHECK_EQ_INT(kp_rollout_new_rs_replicas(3, 1, 4, 1), 1);
}

/* TestMaxUnavailable (maxSurge 1) */
static void
test_max_unavailable(void)
{
    static const struct {
        int32_t replicas;
        const char *unavailable;
        bool rolling;
        int32_t want;
    } rows[] = {
        {10, "5", true, 5},     /* less than replicas */
        {10, "10", true, 10},   /* equal replicas */
        {5, "10", true, 5},     /* greater than replicas */
        {0, "10", true, 0},     /* replicas is 0 */
        {0, "0", false, 0},     /* Recreate */
        {10, "50%", true, 5},
        {10, "100%", true, 10},
        {5, "100%", true, 5},
    };
    size_t i;

    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        int32_t u = -1;

        CHECK_EQ_INT(kp_rollout_max_unavailable("1", rows[i].unavailable,
                                                rows[i].replicas,
                                                rows[i].rolling, &u), 0);
        CHECK_EQ_INT(u, rows[i].want);
    }
}

/* GetScaledValueFromIntOrPercent: ceil or floor of value% of total */
static void
test_scaled(void)
{
    int32_t v = -1;

    CHECK_EQ_INT(kp_rollout_scaled("25%", 3, true, &v), 0);
    CHECK_EQ_INT(v, 1);
    CHECK_EQ_INT(kp_rollout_scaled("25%", 3, false, &v), 0);
    CHECK_EQ_INT(v, 0);
    CHECK_EQ_INT(kp_rollout_scaled("25%", 8, true, &v), 0);
    CHECK_EQ_INT(v, 2);
    CHECK_EQ_INT(kp_rollout_scaled("7", 3, true, &v), 0);
    CHECK_EQ_INT(v, 7);
    CHECK_EQ_INT(kp_rollout_scaled("", 3, true, &v), -1);
    CHECK_EQ_INT(kp_rollout_scaled("-1", 3, true, &v), -1);
    CHECK_EQ_INT(kp_rollout_scaled("5%%", 3, true, &v), -1);
}

int
main(void)
{
    RUN(test_resolve_fenceposts);
    RUN(test_new_rs_new_replicas);
    RUN(test_max_unavailable);
    RUN(test_scaled);
    return check_done();
}
