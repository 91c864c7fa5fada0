/*
 * fuzz_jsonpath.c - libFuzzer target: kubectl's template language
 * (core/report/jsonpath.c, client-go util/jsonpath) and the custom-columns
 * and --sort-by paths (core/report/render_kubectl.c).
 *
 * The first byte picks what the rest of the input (up to its first NUL)
 * is, byte % 3:
 *   0  a -o jsonpath template: parsed, then executed on a fixed report
 *      document with missing keys allowed and refused;
 *   1  a custom-columns / --sort-by path: relaxed (kp_relaxed_jsonpath),
 *      parsed, and run on each pod of the document;
 *   2  a --sort-by expression: the document's pods sorted by it.
 * Issue 27: 50,000 nested {range} overflowed the stack; a template must
 * now end in output or an error, whatever its nesting.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "jsonpath.h"
#include "render_kubectl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char DOC[] =
    "{\"apiVersion\": \"kubectl-preempt/v1\", \"kind\": \"PreemptionReport\","
    " \"pods\": [{\"namespace\": \"prod\", \"name\": \"checkout-0\","
    " \"priority\": 1000000, \"result\": \"Preempts\", \"nominatedNode\":"
    " \"node-a\", \"victims\": [{\"namespace\": \"batch\", \"name\":"
    " \"etl-0\", \"priority\": 1000, \"violatesPDB\": true}], \"ratio\":"
    " 0.5, \"labels\": {\"app\": \"web\", \"a.b/c\": \"\"}},"
    " {\"namespace\": \"ml\", \"name\": \"train-1\", \"priority\": -3,"
    " \"result\": \"Unschedulable\", \"nominatedNode\": null, \"victims\":"
    " [], \"sampled\": false}], \"warnings\": [\"w\"]}";

static void
fuzz_template(const cJSON *doc, const char *s)
{
    struct kp_jsonpath *jp;
    struct kp_buf out;
    char msg[512];
    int allow;

    jp = kp_jsonpath_parse("fuzz", s, msg, sizeof(msg));
    if (!jp)
        return;
    /* the bound of the tool is 20M nodes: seconds, over the fuzz timeout
     * under ASan for a few {range}s without {end} */
    kp_jsonpath_set_max_steps(jp, 100000);
    for (allow = 0; allow < 2; allow++) {
        kp_jsonpath_allow_missing_keys(jp, allow);
        kp_buf_init(&out);
        (void)kp_jsonpath_execute(jp, doc, &out, msg, sizeof(msg));
        kp_buf_release(&out);
    }
    kp_jsonpath_free(jp);
}

static void
fuzz_column(const cJSON *doc, const char *s)
{
    struct kp_jsonpath *jp;
    struct kp_jp_results r;
    struct kp_error err;
    const cJSON *p;
    char msg[512], *path = kp_relaxed_jsonpath(s, &err);

    if (!path)
        return;
    jp = kp_jsonpath_parse("column", path, msg, sizeof(msg));
    free(path);
    if (!jp)
        return;
    kp_jsonpath_allow_missing_keys(jp, 1);
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, "pods")) {
        if (kp_jsonpath_find(jp, p, &r, msg, sizeof(msg)) == 0)
            kp_jp_results_release(&r);
    }
    kp_jsonpath_free(jp);
}

static void
fuzz_sort(const char *s)
{
    struct kp_error err;
    int *pos = NULL;
    size_t n = 0;

    if (kp_kubectl_sort(s, DOC, sizeof(DOC) - 1, &pos, &n, &err) == 0)
        free(pos);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cJSON *doc;
    char *s;

    if (size == 0)
        return 0;
    if (!doc)
        doc = cJSON_Parse(DOC);
    s = malloc(size);
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    if (data[0] % 3 == 0)
        fuzz_template(doc, s);
    else if (data[0] % 3 == 1)
        fuzz_column(doc, s);
    else
        fuzz_sort(s);
    free(s);
    return 0;
}
