/*
 * fuzz_stream.c - libFuzzer target: the List-page splitter of the live
 * path (core/util/json_stream.c).
 *
 * The first input byte picks a chunk size (1..256), the rest is one
 * page.  It is split twice, fed whole and fed in chunks of that size;
 * both must agree on the outcome, the error message and every item
 * (byte for byte); an object, array or string item must end with its
 * closing bracket or quote (kp_json_scan_value leaves the rest of the
 * grammar to cJSON, which gets every item too).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
    size_t n;           /* items */
    uint64_t hash;      /* of their bytes, in order */
};

static int
on_item(void *ctx, const char *text, size_t len, long index,
        struct kp_error *err)
{
    struct seen *s = ctx;
    cJSON *it;
    size_t i;

    (void)err;
    if (index != (long)s->n || len == 0)
        abort();
    /* an object or array item ends with its own closing bracket */
    if ((text[0] == '{' && text[len - 1] != '}') ||
        (text[0] == '[' && text[len - 1] != ']') ||
        (text[0] == '"' && (len < 2 || text[len - 1] != '"')))
        abort();
    /* the loader parses it next: it must not crash cJSON either */
    it = cJSON_ParseWithLength(text, len);
    cJSON_Delete(it);
    for (i = 0; i < len; i++)
        s->hash = (s->hash ^ (unsigned char)text[i]) * 1099511628211ULL;
    s->hash = (s->hash ^ 0xFF) * 1099511628211ULL;
    s->n++;
    return 0;
}

static int
split(const char *page, size_t len, size_t chunk, struct seen *s,
      struct kp_error *err)
{
    struct kp_list_stream *ls = kp_list_stream_new("PodList", "v1", on_item,
                                                   s);
    size_t off = 0;
    int r = 0;

    memset(err, 0, sizeof(*err));
    while (r == 0 && off < len) {
        size_t n = len - off < chunk ? len - off : chunk;

        r = kp_list_stream_feed(ls, page + off, n, err);
        off += n;
    }
    if (r == 0)
        r = kp_list_stream_finish(ls, err);
    kp_list_stream_free(ls);
    return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct seen whole = {0, 14695981039346656037ULL};
    struct seen parts = {0, 14695981039346656037ULL};
    struct kp_error e1, e2;
    int r1, r2;

    if (size < 1)
        return 0;
    r1 = split((const char *)data + 1, size - 1, size, &whole, &e1);
    r2 = split((const char *)data + 1, size - 1, 1 + data[0], &parts, &e2);
    if (r1 != r2 || whole.n != parts.n || whole.hash != parts.hash ||
        strcmp(e1.msg, e2.msg) != 0)
        abort();
    if (r1 < 0 && (!e1.msg[0] || strchr(e1.msg, '\n')))
        abort();
    return 0;
}
