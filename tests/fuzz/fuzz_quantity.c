/*
 * fuzz_quantity.c - libFuzzer target: resource.Quantity parsing and its
 * int64 conversions.
 *
 * The input, up to its first NUL, is one quantity string for
 * kp_quantity_parse(); whatever parses goes through
 * kp_quantity_milli_value() and kp_quantity_value(), whose results are
 * checked against each other (same sign; milli within the saturated
 * range of value * 1000).  The same bytes are also tried as
 * kp_parse_int64() input and, wrapped as a JSON string and parsed as a
 * JSON document, through kp_quantity_from_json().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "quantity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Both conversions round away from zero: they agree on the sign. */
static void
check_conversions(const struct kp_quantity *q)
{
    int64_t milli = kp_quantity_milli_value(q);
    int64_t value = kp_quantity_value(q);

    if ((milli > 0) != (value > 0) || (milli < 0) != (value < 0))
        abort();
    if (q->negative && q->nano == 0)
        abort();        /* negative is false for zero (quantity.h) */
    if (value > 0 && value < INT64_MAX / 1000 &&
        (milli > value * 1000 || milli <= (value - 1) * 1000))
        abort();
    if (value < 0 && value > INT64_MIN / 1000 &&
        (milli < value * 1000 || milli >= (value + 1) * 1000))
        abort();
}

static void
from_json(const char *text)
{
    struct kp_quantity q;
    struct kp_error err;
    cJSON *j = cJSON_Parse(text);

    if (!j)
        return;
    if (kp_quantity_from_json(j, &q, &err) == 0)
        check_conversions(&q);
    cJSON_Delete(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct kp_quantity q;
    struct kp_error err;
    int64_t n;
    char *s, *json;
    size_t len;

    s = malloc(size + 1);
    json = malloc(size + 3);
    if (!s || !json) {
        free(s);
        free(json);
        return 0;
    }
    memcpy(s, data, size);
    s[size] = '\0';
    len = strlen(s);
    if (kp_quantity_parse(s, &q, &err) == 0)
        check_conversions(&q);
    (void)kp_parse_int64(s, len, &n);
    /* As a JSON document: a string "..." or a bare number. */
    json[0] = '"';
    memcpy(json + 1, s, len);
    memcpy(json + 1 + len, "\"", 2);
    from_json(json);
    from_json(s);
    free(json);
    free(s);
    return 0;
}
