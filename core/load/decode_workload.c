/*
 * decode_workload.c - the objects helper.DefaultSelector
 * (pkg/scheduler/framework/plugins/helper/spread.go) reads: Service and
 * ReplicationController (spec.selector, a map of labels) and ReplicaSet
 * and StatefulSet (apps/v1, spec.selector, a LabelSelector).  Only their
 * names and selectors are kept (struct kp_spread_source).
 */
#include <string.h>

#include "json_util.h"
#include "snapshot.h"

int
kp_decode_spread_source(struct kp_snapshot *s, const cJSON *obj,
                        enum kp_spread_source_kind kind,
                        struct kp_spread_source *out, struct kp_error *err)
{
    const cJSON *md, *spec, *sel;

    memset(out, 0, sizeof(*out));
    out->kind = kind;
    if (kp_json_obj(obj, "metadata", &md, err) < 0 ||
        kp_json_obj(obj, "spec", &spec, err) < 0)
        return -1;
    if (kp_json_istr(&s->arena, md, "name", &out->name, err) < 0 ||
        kp_json_istr(&s->arena, md, "namespace", &out->ns, err) < 0)
        return kp_error_path(err, "metadata");
    if (!out->name || !out->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: missing");
    if (!out->ns || !out->ns[0])
        out->ns = "default";
    sel = kp_json_get(spec, "selector");
    if (kind == KP_SRC_SERVICE || kind == KP_SRC_REPLICATION_CONTROLLER) {
        /* a nil map selects nothing (GetPodServices); {} everything */
        out->has_map = sel && !cJSON_IsNull(sel);
        if (kp_labels_from_json(&s->arena, sel, &out->map, err) < 0)
            return kp_error_path(err, "spec.selector");
        return 0;
    }
    if (kp_selector_from_json(&s->arena, sel, &out->sel, err) < 0)
        return kp_error_path(err, "spec.selector");
    return 0;
}
