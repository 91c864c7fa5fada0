/*
 * helpers.h - build a snapshot from a compact JSON List for unit tests,
 * and run the analysis on it.
 */
#ifndef KP_TEST_HELPERS_H
#define KP_TEST_HELPERS_H

#include <string.h>

#include "framework.h"
#include "kp.h"
#include "report.h"
#include "simulate.h"
#include "snapshot.h"
#include "snapshot_load.h"

static inline int
load_snapshot(struct kp_snapshot *s, const char *json)
{
    struct kp_error err = {0, ""};

    kp_snapshot_init(s);
    if (kp_snapshot_load_buffer(s, json, strlen(json), "test.json",
                                &err) < 0 ||
        kp_snapshot_finish(s, "default-scheduler", &err) < 0) {
        printf("#   load failed: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static inline int
analyze(struct kp_snapshot *s, struct kp_report *rep, enum kp_mode mode)
{
    struct kp_options o;
    struct kp_error err = {0, ""};
    size_t i;

    kp_options_init(&o);
    o.mode = mode;
    if (kp_analyze(s, &o, rep, &err) < 0)
        return -1;
    for (i = 0; i < rep->npods; i++)
        rep->pods[i].reported = true;
    return 0;
}

static inline const struct kp_pod_report *
report_for(const struct kp_report *rep, const char *name)
{
    size_t i;

    for (i = 0; i < rep->npods; i++)
        if (strcmp(rep->pods[i].pod->name, name) == 0)
            return &rep->pods[i];
    return NULL;
}

#define NODE(name, cpu, pods)                                              \
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\"},"            \
    "\"status\":{\"allocatable\":{\"cpu\":\"" cpu "\",\"memory\":\"16Gi\"," \
    "\"pods\":\"" pods "\"}}}"

#define POD(ns, name, prio, cpu, node, extra)                              \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"" ns "\",\"name\":\"" \
    name "\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"" extra "},"   \
    "\"spec\":{\"priority\":" prio ",\"nodeName\":\"" node "\","          \
    "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"        \
    "{\"cpu\":\"" cpu "\"}}}]},\"status\":{\"phase\":\"Running\","        \
    "\"startTime\":\"2026-01-01T00:00:00Z\"}}"

#define LIST(...) "{\"kind\":\"List\",\"items\":[" __VA_ARGS__ "]}"

#endif
