/*
 * test_snapshot_rollback.c - loading List items one at a time
 * (kp_snapshot_load_item) and dropping what was loaded since a mark
 * (kp_snapshot_rollback), as a live list restarted after 410 Gone does;
 * kp_strmap_remove underneath.  Run from the repository root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "snapshot.h"
#include "snapshot_load.h"
#include "strmap.h"

static const char GPU_POD[] =
    "{\"metadata\":{\"name\":\"gpu-0\",\"namespace\":\"ml\"},"
    "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":"
    "{\"example.com/gpu\":\"1\"}}}]}}";

/* Load every item of a fixture List as the live path does: 0 or -1. */
static int
load_items(struct kp_snapshot *s, const char *fixture, const char *kind,
           struct kp_error *err)
{
    FILE *f = fopen(fixture, "rb");
    char buf[1 << 16];
    size_t len = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    cJSON *doc, *it;
    long i = 0;
    int r = 0;

    if (f)
        fclose(f);
    buf[len] = '\0';
    doc = cJSON_Parse(buf);
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(doc, "items")) {
        char *text = cJSON_PrintUnformatted(it);

        if (r == 0)
            r = kp_snapshot_load_item(s, text, strlen(text), kind, i++,
                                      "<api:test>", NULL, err);
        free(text);
    }
    cJSON_Delete(doc);
    return doc ? r : -1;
}

static void
test_snapshot__rollback_drops_objects_names_and_resources(void)
{
    struct kp_snapshot s;
    struct kp_snapshot_mark m;
    struct kp_error err;
    size_t nres;

    kp_snapshot_init(&s);
    CHECK_EQ_INT(load_items(&s, "tests/fixtures/live/nodes.json", "Node",
                            &err), 0);
    CHECK_EQ_INT(s.nnodes, 3);
    nres = s.nres;
    kp_snapshot_mark(&s, &m);
    CHECK_EQ_INT(load_items(&s, "tests/fixtures/live/pods.json", "Pod",
                            &err), 0);
    CHECK_EQ_INT(kp_snapshot_load_item(&s, GPU_POD, strlen(GPU_POD), "Pod",
                                       12, "<api:test>", NULL, &err), 0);
    kp_snapshot_warn(&s, "a warning of the dropped list");
    CHECK_EQ_INT(s.npods, 13);
    CHECK_EQ_INT(s.nres, nres + 1);
    CHECK(kp_snapshot_pod(&s, "ml", "gpu-0") != NULL);

    kp_snapshot_rollback(&s, &m);
    CHECK_EQ_INT(s.npods, 0);
    CHECK_EQ_INT(s.nnodes, 3);
    CHECK_EQ_INT(s.nres, nres);
    CHECK_EQ_INT(s.nwarnings, 0);
    CHECK(kp_snapshot_pod(&s, "ml", "gpu-0") == NULL);
    CHECK(kp_snapshot_pod(&s, "prod", "api-0") == NULL);
    CHECK(kp_snapshot_node(&s, s.nodes[0]->name) == s.nodes[0]);

    /* the same objects load again: no "duplicate object" */
    CHECK_EQ_INT(load_items(&s, "tests/fixtures/live/pods.json", "Pod",
                            &err), 0);
    CHECK_EQ_INT(kp_snapshot_load_item(&s, GPU_POD, strlen(GPU_POD), "Pod",
                                       12, "<api:test>", NULL, &err), 0);
    CHECK_EQ_INT(s.npods, 13);
    CHECK_EQ_INT(s.nres, nres + 1);
    CHECK_EQ_INT(kp_snapshot_resource_id(&s, "example.com/gpu"), (int)nres);
    CHECK(kp_snapshot_pod(&s, "ml", "gpu-0") == s.pods[12]);
    /* and a duplicate is still one */
    CHECK_EQ_INT(kp_snapshot_load_item(&s, GPU_POD, strlen(GPU_POD), "Pod",
                                       0, "<api:test>", NULL, &err), -1);
    CHECK_EQ_STR(err.msg, "<api:test>: pod 'ml/gpu-0': metadata.name: "
                 "duplicate object");
    CHECK_EQ_INT(kp_snapshot_finish(&s, "default-scheduler", &err), 0);
    kp_snapshot_release(&s);
}

static void
test_snapshot__rollback_of_storage_and_claims_flag(void)
{
    struct kp_snapshot s;
    struct kp_snapshot_mark m;
    struct kp_error err;

    kp_snapshot_init(&s);
    kp_snapshot_mark(&s, &m);
    s.has_pvc_input = true;
    CHECK_EQ_INT(load_items(&s, "tests/fixtures/live/"
                            "persistentvolumeclaims.json",
                            "PersistentVolumeClaim", &err), 0);
    CHECK(s.npvcs > 0);
    kp_snapshot_rollback(&s, &m);
    CHECK_EQ_INT(s.npvcs, 0);
    CHECK(!s.has_pvc_input);
    CHECK_EQ_INT(load_items(&s, "tests/fixtures/live/"
                            "persistentvolumeclaims.json",
                            "PersistentVolumeClaim", &err), 0);
    kp_snapshot_release(&s);
}

static void
test_snapshot__load_item_reports_bad_text_at_its_index(void)
{
    struct kp_snapshot s;
    struct kp_error err;
    cJSON *kept = NULL;

    kp_snapshot_init(&s);
    CHECK_EQ_INT(kp_snapshot_load_item(&s, "{\"a\":}", 6, "Pod", 4,
                                       "<api:pods>", NULL, &err), -1);
    CHECK_EQ_STR(err.msg, "<api:pods>: items[4]: invalid JSON at byte 5 of "
                 "the item");
    CHECK_EQ_INT(kp_snapshot_load_item(&s, "{} {}", 5, "Pod", 1,
                                       "<api:pods>", &kept, &err), -1);
    CHECK(kept == NULL);
    CHECK_EQ_INT(kp_snapshot_load_item(&s, "[]", 2, "Pod", 2,
                                       "<api:pods>", NULL, &err), -1);
    CHECK_EQ_STR(err.msg, "<api:pods>: items[2]: expected an object, got "
                 "an array");
    CHECK_EQ_INT(kp_snapshot_load_item(&s, GPU_POD, strlen(GPU_POD), "Pod",
                                       0, "<api:pods>", &kept, &err), 0);
    CHECK(cJSON_IsObject(kept));
    cJSON_Delete(kept);
    kp_snapshot_release(&s);
}

static void
test_strmap__remove_keeps_every_other_key_reachable(void)
{
    static char keys[2000][16];
    struct kp_strmap m;
    int i, bad = 0;

    kp_strmap_init(&m);
    for (i = 0; i < 2000; i++) {
        snprintf(keys[i], sizeof(keys[i]), "k%d", i);
        kp_strmap_put(&m, keys[i], keys[i]);
    }
    for (i = 0; i < 2000; i += 3)
        if (kp_strmap_remove(&m, keys[i]) != keys[i])
            bad++;
    CHECK(kp_strmap_remove(&m, "k0") == NULL);
    CHECK(kp_strmap_remove(&m, "absent") == NULL);
    for (i = 0; i < 2000; i++)
        if ((kp_strmap_get(&m, keys[i]) != NULL) != (i % 3 != 0))
            bad++;
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(m.n, 2000 - 667);
    kp_strmap_release(&m);
}

int
main(void)
{
    RUN(test_snapshot__rollback_drops_objects_names_and_resources);
    RUN(test_snapshot__rollback_of_storage_and_claims_flag);
    RUN(test_snapshot__load_item_reports_bad_text_at_its_index);
    RUN(test_strmap__remove_keeps_every_other_key_reachable);
    return check_done();
}
