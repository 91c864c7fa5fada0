/*
 * test_add.c - core/whatif/add.c: what --add makes of the kinds issue 14 added
 * (CronJob, ReplicationController), and that an object with a pod
 * template of a kind it cannot expand is an error, not a silent skip.
 * Mirrors cronjob/utils.go (getJobFromTemplate2: one Job from
 * spec.jobTemplate) and replication_controller.go (spec.replicas pods).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "add.h"
#include "check.h"
#include "labels.h"
#include "snapshot.h"
#include "tmpdir.h"

/* Add text (written to a file) to an empty snapshot; rc of the add. */
static int
add_text(struct kp_snapshot *s, const char *text, struct kp_error *err)
{
    char path[300];

    snprintf(path, sizeof(path), "%s/m.yaml", tmpdir);
    write_text(path, text, 0600);
    kp_snapshot_init(s);
    return kp_snapshot_add_manifests(s, path, "default", err);
}

static bool
has_label(const struct kp_pod *p, const char *key, const char *value)
{
    const char *v = kp_labels_get(&p->labels, key);

    return v && strcmp(v, value) == 0;
}

static void
test_add__cronjob_makes_one_run_of_its_job(void)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};

    CHECK_EQ_INT(add_text(&s,
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly}\n"
        "spec:\n  schedule: '0 2 * * *'\n  jobTemplate:\n    spec:\n"
        "      parallelism: 3\n      completions: 2\n      template:\n"
        "        spec:\n          containers: [{name: c, image: i}]\n",
        &err), 0);
    CHECK_EQ_INT(s.npods, 2);
    if (s.npods == 2) {
        CHECK_EQ_STR(s.pods[0]->name, "nightly-added-0");
        CHECK_EQ_STR(s.pods[1]->name, "nightly-added-1");
        CHECK_EQ_STR(s.pods[0]->ns, "default");
        CHECK(s.pods[0]->from_add);
        CHECK(has_label(s.pods[0], "job-name", "nightly-added"));
    }
    kp_snapshot_release(&s);
}

static void
test_add__suspended_cronjob_makes_no_pods(void)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};

    CHECK_EQ_INT(add_text(&s,
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: paused}\n"
        "spec:\n  suspend: true\n  jobTemplate:\n    spec:\n"
        "      template:\n        spec:\n"
        "          containers: [{name: c, image: i}]\n", &err), 0);
    CHECK_EQ_INT(s.npods, 0);
    kp_snapshot_release(&s);
}

static void
test_add__cronjob_without_job_template_names_the_field(void)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};

    CHECK_EQ_INT(add_text(&s,
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: paused}\n"
        "spec: {schedule: x}\n", &err), -1);
    CHECK(strstr(err.msg, "cronjob 'default/paused': spec.jobTemplate: "
                 "missing") != NULL);
    kp_snapshot_release(&s);
}

static void
test_add__replication_controller_makes_replicas_pods(void)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};

    CHECK_EQ_INT(add_text(&s,
        "apiVersion: v1\nkind: ReplicationController\n"
        "metadata: {name: legacy, namespace: prod}\n"
        "spec:\n  replicas: 3\n  template:\n    metadata:\n"
        "      labels: {app: legacy}\n    spec:\n"
        "      containers: [{name: c, image: i}]\n", &err), 0);
    CHECK_EQ_INT(s.npods, 3);
    if (s.npods == 3) {
        CHECK_EQ_STR(s.pods[2]->name, "legacy-added-2");
        CHECK_EQ_STR(s.pods[2]->ns, "prod");
        CHECK(has_label(s.pods[2], "app", "legacy"));
    }
    kp_snapshot_release(&s);
}

static void
test_add__unknown_kind_with_pod_template_is_an_error(void)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};

    CHECK_EQ_INT(add_text(&s,
        "apiVersion: example.com/v1\nkind: Thing\nmetadata: {name: t}\n"
        "spec:\n  jobTemplate:\n    spec:\n      template:\n"
        "        spec: {containers: [{name: c, image: i}]}\n", &err), -1);
    CHECK_EQ_INT(err.exit_code, 1);
    CHECK(strstr(err.msg, "document 1: thing 'default/t': "
                 "spec.jobTemplate.spec.template: kind Thing is not "
                 "supported by --add") != NULL);
    kp_snapshot_release(&s);
}

static void
test_add__objects_without_pods_are_counted_in_one_warning(void)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};

    CHECK_EQ_INT(add_text(&s,
        "kind: Service\nmetadata: {name: a}\n---\n"
        "kind: ConfigMap\nmetadata: {name: b}\n---\n"
        "kind: Service\nmetadata: {name: c}\n", &err), 0);
    CHECK_EQ_INT(s.npods, 0);
    CHECK_EQ_INT(s.nwarnings, 1);
    if (s.nwarnings == 1)
        CHECK(strstr(s.warnings[0], "ignored 3 object(s) that make no "
                     "pods (Service, ConfigMap)") != NULL);
    kp_snapshot_release(&s);
}

int
main(void)
{
    if (tmpdir_make("kp-test-add") < 0)
        return 2;
    RUN(test_add__cronjob_makes_one_run_of_its_job);
    RUN(test_add__suspended_cronjob_makes_no_pods);
    RUN(test_add__cronjob_without_job_template_names_the_field);
    RUN(test_add__replication_controller_makes_replicas_pods);
    RUN(test_add__unknown_kind_with_pod_template_is_an_error);
    RUN(test_add__objects_without_pods_are_counted_in_one_warning);
    tmpdir_remove();
    return check_done();
}
