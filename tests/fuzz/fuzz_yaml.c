/*
 * fuzz_yaml.c - libFuzzer target: the YAML to JSON converter behind
 * --add manifests (kp_yaml_to_json, core/util/yaml_json.c).
 *
 * The input is a YAML stream, passed without a terminating NUL so that
 * ASan catches a read past its end.  A stream that converts must give a
 * JSON array with one value per document; each value is printed with
 * cJSON_PrintUnformatted, parsed back and compared with the original
 * (cJSON_Compare), which aborts on a tree that cJSON cannot write out and
 * read again (a non-finite number, a bad key).  A stream that does not
 * convert must leave *docs NULL and set an error message (which may hold
 * a newline from a quoted key: add.c flattens it for the command line).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "yaml_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_round_trip(const cJSON *docs)
{
    char *text = cJSON_PrintUnformatted(docs);
    cJSON *again;

    if (!text) {
        fprintf(stderr, "fuzz_yaml: cJSON_PrintUnformatted failed\n");
        abort();
    }
    again = cJSON_Parse(text);
    if (!again || !cJSON_Compare(docs, again, 1)) {
        fprintf(stderr, "fuzz_yaml: JSON does not read back: %.200s\n",
                text);
        abort();
    }
    cJSON_Delete(again);
    free(text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct kp_error err;
    cJSON *docs = NULL;
    char *buf;

    /* An exact-size copy: no NUL after the input, ASan sees overreads. */
    buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    if (size)
        memcpy(buf, data, size);
    memset(&err, 0, sizeof(err));
    if (kp_yaml_to_json(buf, size, &docs, &err) == 0) {
        if (!cJSON_IsArray(docs)) {
            fprintf(stderr, "fuzz_yaml: success without an array\n");
            abort();
        }
        check_round_trip(docs);
        cJSON_Delete(docs);
    } else if (docs || !err.msg[0]) {
        fprintf(stderr, "fuzz_yaml: bad failure (docs %p, msg '%s')\n",
                (void *)docs, err.msg);
        abort();
    }
    free(buf);
    return 0;
}
