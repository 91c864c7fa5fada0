/*
 * test_toleration_index.c - the pod's toleration set
 * (core/api/toleration_index.c) answers TolerationsTolerateTaint exactly
 * as the scan of every toleration with Toleration.ToleratesTaint
 * (k8s.io/api/core/v1/toleration.go) does: empty key with Exists
 * tolerates every taint, empty effect matches every effect, Equal (or an
 * empty operator) compares values, Lt/Gt tolerate nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corev1.h"
#include "toleration_index.h"

static const char *keys[] = {"", "a", "b", "dedicated"};
static const char *values[] = {"", "x", "y"};
static const char *effects[] = {"", "NoSchedule", "PreferNoSchedule",
                                "NoExecute"};

static uint64_t rng = 88172645463325252ULL;

static size_t
pick(size_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (size_t)(rng % n);
}

/* the scan, Toleration.ToleratesTaint over every toleration */
static bool
scan(const struct kp_toleration *tol, size_t n, const struct kp_taint *t)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (kp_tolerates(&tol[i], t))
            return true;
    return false;
}

static void
random_sets_agree_with_the_scan(void)
{
    struct kp_arena a;
    int round;
    size_t disagree = 0, tolerated = 0, checks = 0;

    kp_arena_init(&a);
    for (round = 0; round < 3000; round++) {
        struct kp_toleration tol[24];
        struct kp_pod p;
        size_t n = KP_TOL_INDEX_MIN + pick(24 - KP_TOL_INDEX_MIN + 1), i;
        size_t k, v, e;

        for (i = 0; i < n; i++) {
            tol[i].key = keys[pick(4)];
            tol[i].value = values[pick(3)];
            tol[i].effect = effects[pick(4)];
            tol[i].op = (enum kp_toleration_op)pick(3);
            /* an empty key with Exists tolerates everything: rarely */
            if (!tol[i].key[0] && tol[i].op == KP_TOL_EXISTS && pick(8))
                tol[i].key = "a";
        }
        memset(&p, 0, sizeof(p));
        p.tolerations = tol;
        p.ntolerations = n;
        p.tol_index = kp_tol_index_build(&a, tol, n);
        CHECK(p.tol_index != NULL);
        if (!p.tol_index)
            break;
        for (k = 1; k < 4; k++)
            for (v = 0; v < 3; v++)
                for (e = 0; e < 4; e++) {
                    struct kp_taint t = {keys[k], values[v], effects[e],
                                         NULL};
                    bool want = scan(tol, n, &t);

                    checks++;
                    tolerated += want;
                    if (kp_tolerates_any(&p, &t) != want)
                        disagree++;
                }
    }
    CHECK_EQ_INT(disagree, 0);
    /* both answers are common */
    CHECK(tolerated > checks / 10 && tolerated < checks - checks / 10);
    kp_arena_release(&a);
}

static void
rules_of_toleratestaint(void)
{
    struct kp_arena a;
    struct kp_toleration tol[KP_TOL_INDEX_MIN];
    struct kp_pod p;
    struct kp_taint gpu = {"gpu", "true", "NoSchedule", NULL};
    struct kp_taint gpu_pref = {"gpu", "true", "PreferNoSchedule", NULL};
    struct kp_taint gpu_false = {"gpu", "false", "NoSchedule", NULL};
    struct kp_taint other = {"other", "", "NoExecute", NULL};
    size_t i;

    kp_arena_init(&a);
    for (i = 0; i < KP_TOL_INDEX_MIN; i++) {
        tol[i].key = "filler";
        tol[i].op = KP_TOL_OTHER;
        tol[i].value = "";
        tol[i].effect = "";
    }
    memset(&p, 0, sizeof(p));
    p.tolerations = tol;
    p.ntolerations = KP_TOL_INDEX_MIN;
    /* Equal with an empty effect: every effect, only that value */
    tol[0].key = "gpu";
    tol[0].op = KP_TOL_EQUAL;
    tol[0].value = "true";
    p.tol_index = kp_tol_index_build(&a, tol, p.ntolerations);
    CHECK(kp_tolerates_any(&p, &gpu));
    CHECK(kp_tolerates_any(&p, &gpu_pref));
    CHECK(!kp_tolerates_any(&p, &gpu_false));
    CHECK(!kp_tolerates_any(&p, &other));
    /* Lt/Gt: nothing */
    tol[0].op = KP_TOL_OTHER;
    p.tol_index = kp_tol_index_build(&a, tol, p.ntolerations);
    CHECK(!kp_tolerates_any(&p, &gpu));
    /* Exists with an empty key and the taint's effect: every key */
    tol[1].key = "";
    tol[1].op = KP_TOL_EXISTS;
    tol[1].effect = "NoExecute";
    p.tol_index = kp_tol_index_build(&a, tol, p.ntolerations);
    CHECK(kp_tolerates_any(&p, &other));
    CHECK(!kp_tolerates_any(&p, &gpu));
    /* Equal with an empty key: every key with that value */
    tol[2].key = "";
    tol[2].op = KP_TOL_EQUAL;
    tol[2].value = "false";
    p.tol_index = kp_tol_index_build(&a, tol, p.ntolerations);
    CHECK(kp_tolerates_any(&p, &gpu_false));
    CHECK(!kp_tolerates_any(&p, &gpu));
    kp_arena_release(&a);
}

static void
switch_and_size_threshold(void)
{
    struct kp_arena a;
    struct kp_toleration tol[KP_TOL_INDEX_MIN];
    size_t i;

    kp_arena_init(&a);
    for (i = 0; i < KP_TOL_INDEX_MIN; i++) {
        tol[i].key = "k";
        tol[i].op = KP_TOL_EXISTS;
        tol[i].value = "";
        tol[i].effect = "";
    }
    CHECK(kp_tol_index_build(&a, tol, KP_TOL_INDEX_MIN - 1) == NULL);
    CHECK(kp_tol_index_build(&a, tol, KP_TOL_INDEX_MIN) != NULL);
    setenv("KP_NO_TOLERATION_INDEX", "1", 1);
    CHECK(kp_tol_index_build(&a, tol, KP_TOL_INDEX_MIN) == NULL);
    setenv("KP_NO_TOLERATION_INDEX", "0", 1);
    CHECK(kp_tol_index_build(&a, tol, KP_TOL_INDEX_MIN) != NULL);
    unsetenv("KP_NO_TOLERATION_INDEX");
    kp_arena_release(&a);
}

int
main(void)
{
    RUN(random_sets_agree_with_the_scan);
    RUN(rules_of_toleratestaint);
    RUN(switch_and_size_threshold);
    return check_done();
}
