/*
 * test_json_stream.c - kp_list_stream (core/util/json_stream.c): List pages
 * split into items while their bytes arrive, in chunks of any size, give
 * the items of a whole-document parse; malformed and truncated pages
 * give one clear error and never a crash.  Run from the repository root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "json_stream.h"

/* What the item callback received: the items, as one compact array. */
struct got {
    cJSON *items;
    long next_index;
    int bad_index;
    int fail_at;            /* return -1 for this item (1-based), 0 never */
};

static int
on_item(void *ctx, const char *text, size_t len, long index,
        struct kp_error *err)
{
    struct got *g = ctx;
    cJSON *it = cJSON_ParseWithLength(text, len);

    if (index != g->next_index)
        g->bad_index++;
    g->next_index++;
    cJSON_AddItemToArray(g->items, it ? it : cJSON_CreateString("?"));
    if (g->fail_at && g->next_index == g->fail_at)
        return kp_errorf(err, KP_EXIT_ERROR, "stop at item %ld", index);
    return 0;
}

/* xorshift: the same "random" chunk sizes every run */
static unsigned
next_rand(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/*
 * Feed body in chunks: chunk 0 means sizes drawn from 1..max with seed,
 * else that size.  Returns feed/finish's result; g receives the items.
 */
static int
split(const char *body, size_t len, size_t chunk, size_t max,
      unsigned seed, struct got *g, struct kp_list_stream *ls,
      struct kp_error *err)
{
    size_t off = 0;

    kp_list_stream_reset(ls);
    g->items = cJSON_CreateArray();
    g->next_index = 0;
    while (off < len) {
        size_t n = chunk ? chunk : 1 + next_rand(&seed) % max;

        if (n > len - off)
            n = len - off;
        if (kp_list_stream_feed(ls, body + off, n, err) < 0)
            return -1;
        off += n;
    }
    return kp_list_stream_finish(ls, err);
}

static char *
read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

/* A compact page with the items of a fixture, members in a given order. */
static char *
page_of(const char *fixture, int items_first, const char *cont)
{
    size_t len;
    char *text = read_file(fixture, &len), *out;
    cJSON *doc = text ? cJSON_Parse(text) : NULL;
    cJSON *page = cJSON_CreateObject(), *md = cJSON_CreateObject();
    cJSON *items = cJSON_DetachItemFromObjectCaseSensitive(doc, "items");

    cJSON_AddStringToObject(md, "resourceVersion", "4242");
    if (cont)
        cJSON_AddStringToObject(md, "continue", cont);
    if (items_first)
        cJSON_AddItemToObject(page, "items", items);
    cJSON_AddStringToObject(page, "kind", "PodList");
    cJSON_AddStringToObject(page, "apiVersion", "v1");
    cJSON_AddItemToObject(page, "metadata", md);
    if (!items_first)
        cJSON_AddItemToObject(page, "items", items);
    out = cJSON_Print(page);        /* indented: white space everywhere */
    cJSON_Delete(page);
    cJSON_Delete(doc);
    free(text);
    return out;
}

static int
same_items(const char *body, const cJSON *got)
{
    cJSON *doc = cJSON_Parse(body);
    int r = cJSON_Compare(cJSON_GetObjectItemCaseSensitive(doc, "items"),
                          got, 1);

    cJSON_Delete(doc);
    return r;
}

/* ---- tests ------------------------------------------------------------ */

static void
test_json_stream__random_chunks_give_the_items_of_a_whole_parse(void)
{
    struct kp_list_stream *ls;
    struct got g = {0};
    struct kp_error err;
    char *body = page_of("tests/fixtures/live/pods.json", 0, "tok-2");
    size_t len = strlen(body), sizes[] = {1, 2, 3, 7, 64, 4096, 0};
    unsigned seed;
    int i;

    ls = kp_list_stream_new("PodList", "v1", on_item, &g);
    for (i = 0; sizes[i]; i++) {
        CHECK_EQ_INT(split(body, len, sizes[i], 0, 0, &g, ls, &err), 0);
        CHECK(same_items(body, g.items));
        CHECK_EQ_STR(kp_list_stream_continue(ls), "tok-2");
        CHECK_EQ_INT(kp_list_stream_nitems(ls), 12);
        cJSON_Delete(g.items);
    }
    for (seed = 1; seed <= 200; seed++) {
        CHECK_EQ_INT(split(body, len, 0, seed % 2 ? 9 : 300, seed, &g, ls,
                           &err), 0);
        CHECK(same_items(body, g.items));
        CHECK_EQ_INT(cJSON_GetArraySize(g.items), 12);
        cJSON_Delete(g.items);
    }
    CHECK_EQ_INT(g.bad_index, 0);
    kp_list_stream_free(ls);
    free(body);
}

static void
test_json_stream__items_before_kind_and_metadata_are_split_alike(void)
{
    struct kp_list_stream *ls;
    struct got g = {0};
    struct kp_error err;
    char *body = page_of("tests/fixtures/live/pods.json", 1, NULL);

    ls = kp_list_stream_new("PodList", "v1", on_item, &g);
    CHECK_EQ_INT(split(body, strlen(body), 5, 0, 0, &g, ls, &err), 0);
    CHECK(same_items(body, g.items));
    CHECK(kp_list_stream_continue(ls) == NULL);
    cJSON_Delete(g.items);
    kp_list_stream_free(ls);
    free(body);
}

static void
test_json_stream__strings_with_escapes_and_brackets_stay_whole(void)
{
    const char *body =
        "{\"items\":[{\"a\":\"x\\\"}]{[\\\\\",\"b\":[1,-2.5e3,true,null]},"
        "{\"c\":\"\\u00e9]\"}],\"kind\":\"PodList\",\"other\":{\"x\":[]},"
        "\"metadata\":{\"continue\":\"c\\\"1\"}}  \n";
    struct kp_list_stream *ls;
    struct got g = {0};
    struct kp_error err;
    size_t chunk;

    ls = kp_list_stream_new("PodList", "v1", on_item, &g);
    for (chunk = 1; chunk <= strlen(body); chunk++) {
        CHECK_EQ_INT(split(body, strlen(body), chunk, 0, 0, &g, ls, &err), 0);
        CHECK(same_items(body, g.items));
        CHECK_EQ_STR(kp_list_stream_continue(ls), "c\"1");
        cJSON_Delete(g.items);
    }
    kp_list_stream_free(ls);
}

static void
test_json_stream__every_truncation_is_an_error_not_a_crash(void)
{
    char *body = page_of("tests/fixtures/live/pods.json", 0, "t");
    size_t len = strlen(body), cut;
    struct kp_list_stream *ls;
    struct got g = {0};
    struct kp_error err;
    int bad = 0;

    ls = kp_list_stream_new("PodList", "v1", on_item, &g);
    for (cut = 0; cut < len; cut += 1 + cut / 64) {
        memset(&err, 0, sizeof(err));
        if (split(body, cut, 1 + cut % 13, 0, 0, &g, ls, &err) != -1 ||
            strncmp(err.msg, "the response is not a complete JSON object",
                    42) != 0)
            bad++;
        cJSON_Delete(g.items);
    }
    CHECK_EQ_INT(bad, 0);
    kp_list_stream_free(ls);
    free(body);
}

/* One malformed page: its exact error, in chunks of 1 and whole. */
static void
check_error(const char *body, const char *want)
{
    struct kp_list_stream *ls;
    struct got g = {0};
    struct kp_error err;
    size_t chunk;

    ls = kp_list_stream_new("PodList", "v1", on_item, &g);
    for (chunk = 1; chunk <= strlen(body); chunk += strlen(body) - 1) {
        memset(&err, 0, sizeof(err));
        CHECK_EQ_INT(split(body, strlen(body), chunk, 0, 0, &g, ls, &err),
                     -1);
        CHECK_EQ_STR(err.msg, want);
        cJSON_Delete(g.items);
        if (strlen(body) < 2)
            break;
    }
    kp_list_stream_free(ls);
}

static void
test_json_stream__malformed_pages_give_one_line_saying_what_and_where(void)
{
    check_error("<html>proxy error</html>",
                "the response is not a complete JSON object");
    check_error("", "the response is not a complete JSON object");
    check_error("{\"kind\":\"PodList\",\"items\":[{},]}",
                "invalid JSON at byte 30 (in items[1]): expected a value");
    check_error("{\"kind\" \"PodList\"}", "invalid JSON at byte 8: "
                "expected ':'");
    check_error("{\"kind\":\"NodeList\",\"items\":[]}",
                "kind is 'NodeList', expected 'PodList'");
    check_error("{\"kind\":\"Pod\nList\"}",
                "kind is 'Pod?List', expected 'PodList'");
    check_error("{\"apiVersion\":\"v2\",\"items\":[]}",
                "apiVersion is 'v2', expected 'v1'");
    check_error("{\"kind\":\"PodList\",\"kind\":\"PodList\"}",
                "duplicate member 'kind'");
    check_error("{\"items\":{}}", "items: expected an array");
    check_error("{\"items\":[]}x", "invalid JSON at byte 12: data after "
                "the end of the object");
    check_error("{\"items\":[{\"a\":\"x\ty\"}]}",
                "invalid JSON at byte 17 (in items[0]): control character "
                "in a string");
    check_error("{\"items\":[{\"a\":01}]}",
                "invalid JSON at byte 15 (in items[0]): invalid number");
    check_error("{\"items\":[{}],}", "invalid JSON at byte 14: expected a "
                "member name");
    check_error("{\"metadata\":{\"continue\":5}}",
                "metadata.continue: expected a string");
    check_error("{\"items\":[{\"a\":[}]}", "invalid JSON at byte 16 (in "
                "items[0]): expected ']'");
    check_error("{\"metadata\":{\"a\":]}", "invalid JSON at byte 17: "
                "expected '}'");
}

static void
test_json_stream__an_item_callback_error_stops_the_page(void)
{
    char *body = page_of("tests/fixtures/live/pods.json", 0, NULL);
    struct kp_list_stream *ls;
    struct got g = {0};
    struct kp_error err;

    g.fail_at = 3;
    ls = kp_list_stream_new(NULL, NULL, on_item, &g);
    CHECK_EQ_INT(split(body, strlen(body), 100, 0, 0, &g, ls, &err), -1);
    CHECK_EQ_STR(err.msg, "stop at item 2");
    CHECK_EQ_INT(cJSON_GetArraySize(g.items), 3);
    /* the error sticks until the next page */
    CHECK_EQ_INT(kp_list_stream_feed(ls, "{", 1, &err), -1);
    cJSON_Delete(g.items);
    g.fail_at = 0;
    CHECK_EQ_INT(split("{\"items\":null}", 14, 1, 0, 0, &g, ls, &err), 0);
    CHECK_EQ_INT(cJSON_GetArraySize(g.items), 0);
    cJSON_Delete(g.items);
    kp_list_stream_free(ls);
    free(body);
}

/* Bytes of every value mixed in: never a crash, always 0 or one error. */
static void
test_json_stream__garbage_never_crashes(void)
{
    static const char alphabet[] = "{}[]\",:\\ tnf0-1e.\"items\"kind";
    struct kp_list_stream *ls;
    struct got g = {0};
    struct kp_error err;
    unsigned seed = 7;
    char buf[64];
    int i, errors = 0;

    ls = kp_list_stream_new("PodList", "v1", on_item, &g);
    for (i = 0; i < 20000; i++) {
        size_t n = 1 + next_rand(&seed) % (sizeof(buf) - 1), k;

        buf[0] = '{';
        for (k = 1; k < n; k++)
            buf[k] = alphabet[next_rand(&seed) % (sizeof(alphabet) - 1)];
        if (split(buf, n, 1 + i % 5, 0, 0, &g, ls, &err) < 0) {
            errors++;
            CHECK(err.msg[0] != '\0' && strchr(err.msg, '\n') == NULL);
        }
        cJSON_Delete(g.items);
    }
    CHECK(errors > 0);
    kp_list_stream_free(ls);
}

int
main(void)
{
    RUN(test_json_stream__random_chunks_give_the_items_of_a_whole_parse);
    RUN(test_json_stream__items_before_kind_and_metadata_are_split_alike);
    RUN(test_json_stream__strings_with_escapes_and_brackets_stay_whole);
    RUN(test_json_stream__every_truncation_is_an_error_not_a_crash);
    RUN(test_json_stream__malformed_pages_give_one_line_saying_what_and_where);
    RUN(test_json_stream__an_item_callback_error_stops_the_page);
    RUN(test_json_stream__garbage_never_crashes);
    return check_done();
}
