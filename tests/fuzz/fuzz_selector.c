/*
 * fuzz_selector.c - libFuzzer target: label selectors, as strings (-l)
 * and as API JSON.
 *
 * The first byte picks what the rest of the input is:
 *   0  a selector string (up to its first NUL) for kp_selector_parse();
 *   1  a JSON LabelSelector for kp_selector_from_json();
 *   2  a JSON NodeSelector for kp_node_selector_from_json().
 * (other values: byte % 3).  A JSON input may carry a "labels" member:
 * it is decoded with kp_labels_from_json() and, besides a few fixed label
 * sets, matched against whatever selector was decoded.  Every selector
 * that decodes is evaluated with kp_selector_matches() or
 * kp_node_selector_matches() (which calls the per-term matcher).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "labels.h"
#include "selector_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* (selectors read labels by key and value: the pair hash is left 0) */
static const struct kp_label fixed_items[] = {
    { "app", "web", 0 }, { "tier", "frontend", 0 }, { "version", "10", 0 },
    { "kubernetes.io/hostname", "node-1", 0 }, { "zone", "-3", 0 },
    { "empty", "", 0 },
};

static const struct kp_labels fixed_sets[] = {
    { 0, NULL },
    { 1, fixed_items },
    { sizeof(fixed_items) / sizeof(fixed_items[0]), fixed_items },
};

#define NSETS (sizeof(fixed_sets) / sizeof(fixed_sets[0]))

/* Labels from json's "labels" member, if it decodes; else NULL. */
static const struct kp_labels *
extra_labels(struct kp_arena *a, const cJSON *json, struct kp_labels *l)
{
    struct kp_error err;
    const cJSON *m;

    if (!cJSON_IsObject(json))
        return NULL;
    m = cJSON_GetObjectItemCaseSensitive(json, "labels");
    if (!m || kp_labels_from_json(a, m, l, &err) < 0)
        return NULL;
    (void)kp_labels_get(l, "app");
    (void)kp_labels_set_matches(l, &fixed_sets[2]);
    (void)kp_labels_set_matches(&fixed_sets[2], l);
    return l;
}

static void
match_selector(const struct kp_selector *s, const struct kp_labels *extra)
{
    size_t i;

    for (i = 0; i < NSETS; i++)
        (void)kp_selector_matches(s, &fixed_sets[i]);
    if (extra)
        (void)kp_selector_matches(s, extra);
}

static void
fuzz_string(struct kp_arena *a, const char *s)
{
    struct kp_selector sel;
    struct kp_error err;

    if (kp_selector_parse(a, s, &sel, &err) == 0)
        match_selector(&sel, NULL);
}

static void
fuzz_label_selector(struct kp_arena *a, const cJSON *json)
{
    struct kp_selector sel;
    struct kp_labels l;
    struct kp_error err;
    const struct kp_labels *extra = extra_labels(a, json, &l);

    if (kp_selector_from_json(a, json, &sel, &err) == 0)
        match_selector(&sel, extra);
}

static void
fuzz_node_selector(struct kp_arena *a, const cJSON *json)
{
    static const char *const names[] = { "node-1", "", "other" };
    struct kp_node_selector ns;
    struct kp_labels l;
    struct kp_error err;
    const struct kp_labels *extra = extra_labels(a, json, &l);
    size_t i;

    if (kp_node_selector_from_json(a, json, &ns, &err) < 0)
        return;
    for (i = 0; i < NSETS; i++)
        (void)kp_node_selector_matches(&ns, &fixed_sets[i], names[i]);
    (void)kp_node_selector_matches(&ns, &fixed_sets[2], NULL);
    if (extra)
        (void)kp_node_selector_matches(&ns, extra, "node-1");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct kp_arena a;
    cJSON *json;
    char *s;
    int what;

    if (size == 0)
        return 0;
    what = data[0] % 3;
    s = malloc(size);
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    kp_arena_init(&a);
    if (what == 0) {
        fuzz_string(&a, s);
    } else {
        json = cJSON_ParseWithLength(s, size - 1);
        if (json && what == 1)
            fuzz_label_selector(&a, json);
        else if (json)
            fuzz_node_selector(&a, json);
        cJSON_Delete(json);
    }
    kp_arena_release(&a);
    free(s);
    return 0;
}
