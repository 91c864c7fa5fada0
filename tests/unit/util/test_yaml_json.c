/*
 * test_yaml_json.c - core/util/yaml_json.c: YAML manifests read as kubectl
 * reads them (sigs.k8s.io/yaml over go-yaml v2, whose resolve_test.go
 * lists the YAML 1.1 plain-scalar rows checked here).
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "yaml_json.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The JSON of the first document of yaml, or the error message. */
static char *
convert(const char *yaml)
{
    struct kp_error err = {0, ""};
    cJSON *docs;
    char *out;

    if (kp_yaml_to_json(yaml, strlen(yaml), &docs, &err) < 0)
        return strdup(err.msg);
    out = cJSON_PrintUnformatted(cJSON_GetArrayItem(docs, 0));
    cJSON_Delete(docs);
    return out;
}

static const struct {
    const char *yaml;
    const char *json;
} rows[] = {
    /* null, bools (YAML 1.1 spellings), ints, floats */
    {"v: ~", "{\"v\":null}"},
    {"v:", "{\"v\":null}"},
    {"v: Null", "{\"v\":null}"},
    {"v: yes", "{\"v\":true}"},
    {"v: Off", "{\"v\":false}"},
    {"v: y", "{\"v\":true}"},
    {"v: TRUE", "{\"v\":true}"},
    {"v: 3", "{\"v\":3}"},
    {"v: -12", "{\"v\":-12}"},
    {"v: 0x1F", "{\"v\":31}"},
    {"v: 0755", "{\"v\":493}"},
    {"v: 0b101", "{\"v\":5}"},
    {"v: 1_000", "{\"v\":1000}"},
    {"v: 0.5", "{\"v\":0.5}"},
    {"v: 1e3", "{\"v\":1000}"},
    /* strings: quoted, not a number, timestamps, .inf */
    {"v: \"3\"", "{\"v\":\"3\"}"},
    {"v: 'yes'", "{\"v\":\"yes\"}"},
    {"v: !!str 3", "{\"v\":\"3\"}"},
    {"v: 1Gi", "{\"v\":\"1Gi\"}"},
    {"v: 500m", "{\"v\":\"500m\"}"},
    {"v: 08", "{\"v\":8}"},
    {"v: 2026-11-21T09:00:00Z", "{\"v\":\"2026-11-21T09:00:00Z\"}"},
    {"v: .inf", "{\"v\":\".inf\"}"},
    {"v: yess", "{\"v\":\"yess\"}"},
    {"v: |\n  a\n  b\n", "{\"v\":\"a\\nb\\n\"}"},
    /* collections, flow style, keys resolved to strings */
    {"a: [1, x, {b: no}]", "{\"a\":[1,\"x\",{\"b\":false}]}"},
    {"- a\n- b: 1\n", "[\"a\",{\"b\":1}]"},
    {"on: 1\n2: x\n", "{\"true\":1,\"2\":\"x\"}"},
    {"{\"a\": [true, null, 1.5]}", "{\"a\":[true,null,1.5]}"},
    /* errors */
    /* anchors, aliases, merge keys as go-yaml v2 (decode.go d.merge) */
    {"a: &x 1\nb: *x\n", "{\"a\":1,\"b\":1}"},
    {"base: &b\n  a: 1\n  b: 2\nx:\n  <<: *b\n  b: 3\n",
     "{\"base\":{\"a\":1,\"b\":2},\"x\":{\"a\":1,\"b\":3}}"},
    {"a: &a {x: 1}\nb: &b {x: 2, z: 2}\nc:\n  <<: [*a, *b]\n",
     "{\"a\":{\"x\":1},\"b\":{\"x\":2,\"z\":2},\"c\":{\"x\":1,\"z\":2}}"},
    {"c:\n  <<: {p: 1}\n  q: 2\n", "{\"c\":{\"p\":1,\"q\":2}}"},
    {"\"<<\": 1\n", "{\"<<\":1}"},
    {"c:\n  <<: 5\n", "line 2, column 7: map merge requires map or sequence "
                     "of maps as the value"},
    {"a: &a [*a]\n", "line 1, column 8: anchor 'a' value contains itself"},
    {"a: *nope\n", "line 1, column 4: unknown anchor 'nope' referenced"},
    {"a: 1\na: 2\n", "line 2, column 1: duplicate key 'a'"},
    {"? [a]\n: 1\n", "line 1, column 3: mapping keys must be scalars"},
    {"a: [1\n", "invalid YAML at line 2, column 1: did not find expected "
                "',' or ']' (while parsing a flow sequence)"},
};

static void
test_yaml_json__scalars_collections_and_errors(void)
{
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        char *got = convert(rows[i].yaml);

        if (strcmp(got, rows[i].json) != 0)
            printf("#   row %zu: %s\n", i, rows[i].yaml);
        CHECK_EQ_STR(got, rows[i].json);
        free(got);
    }
}

static void
test_yaml_json__documents_in_order_empty_ones_null(void)
{
    static const char yaml[] = "---\na: 1\n---\n---\n- b\n";
    struct kp_error err = {0, ""};
    cJSON *docs;

    CHECK_EQ_INT(kp_yaml_to_json(yaml, strlen(yaml), &docs, &err), 0);
    CHECK_EQ_INT(cJSON_GetArraySize(docs), 3);
    CHECK(cJSON_IsObject(cJSON_GetArrayItem(docs, 0)));
    CHECK(cJSON_IsNull(cJSON_GetArrayItem(docs, 1)));
    CHECK(cJSON_IsArray(cJSON_GetArrayItem(docs, 2)));
    cJSON_Delete(docs);
}

static void
test_yaml_json__deep_nesting_is_refused(void)
{
    char yaml[4096];
    size_t i;
    char *got;

    for (i = 0; i < 1000; i++)
        yaml[i] = '[';
    yaml[i] = '\0';
    got = convert(yaml);
    CHECK(strstr(got, "nesting too deep") != NULL);
    free(got);
}

int
main(void)
{
    RUN(test_yaml_json__scalars_collections_and_errors);
    RUN(test_yaml_json__documents_in_order_empty_ones_null);
    RUN(test_yaml_json__deep_nesting_is_refused);
    return check_done();
}
