/*
 * decode_namespace.c - Namespace (core/v1) JSON into struct kp_namespace:
 * the name and the labels that a pod affinity term's namespaceSelector
 * is matched against (plugins/interpodaffinity reads them through the
 * scheduler's Namespace lister).
 *
 * The API server's defaulting (SetDefaults_Namespace in
 * pkg/apis/core/v1/defaults.go, run on every object it serves) sets the
 * label kubernetes.io/metadata.name to the namespace's name, so the
 * scheduler always sees it.  A snapshot written by hand, or one trimmed of
 * labels, may lack it: it is set here the same way (overwriting another
 * value, as the defaulting does), so that a selector on it behaves as in
 * the cluster.
 */
#include <string.h>

#include "json_util.h"
#include "snapshot.h"

#define LABEL_METADATA_NAME "kubernetes.io/metadata.name"

/* labels with key set to value: replaced in place, else appended. */
static void
set_label(struct kp_snapshot *s, struct kp_labels *l, const char *key,
          const char *value)
{
    struct kp_label *items;
    size_t i;

    items = kp_arena_alloc(&s->arena, (l->n + 1) * sizeof(*items));
    if (l->n)
        memcpy(items, l->items, l->n * sizeof(*items));
    for (i = 0; i < l->n && strcmp(items[i].key, key) != 0; i++)
        ;
    items[i].key = kp_arena_intern(&s->arena, key);
    items[i].value = value;
    items[i].h = kp_label_hash(items[i].key, value);
    if (i == l->n)
        l->n++;
    l->items = items;
}

int
kp_decode_namespace(struct kp_snapshot *s, const cJSON *obj,
                    struct kp_namespace *ns, struct kp_error *err)
{
    const cJSON *md;

    if (kp_json_obj(obj, "metadata", &md, err) < 0)
        return -1;
    if (kp_json_istr(&s->arena, md, "name", &ns->name, err) < 0)
        return kp_error_path(err, "metadata");
    if (!ns->name || !ns->name[0])
        return kp_errorf(err, KP_EXIT_ERROR, "metadata.name: missing");
    if (kp_labels_from_json(&s->arena, kp_json_get(md, "labels"),
                            &ns->labels, err) < 0)
        return kp_error_path(err, "metadata.labels");
    set_label(s, &ns->labels, LABEL_METADATA_NAME, ns->name);
    return 0;
}
