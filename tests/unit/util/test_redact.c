/*
 * test_redact.c - credentials scrubbed from text that came from the
 * server (core/util/redact.c), and the page splitter's per-object bound
 * (json_stream.h).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json_stream.h"
#include "redact.h"

static void
test_redact__every_occurrence_is_replaced(void)
{
    struct kp_redact r = {0};
    size_t n = 0;
    char *out;

    kp_redact_add(&r, "s3cr3t-token", 12);
    out = kp_redact_dup(&r, "a s3cr3t-token b s3cr3t-token", 29, &n);
    CHECK_EQ_STR(out, "a [REDACTED] b [REDACTED]");
    CHECK_EQ_INT((int)n, 25);
    free(out);
    /* nothing to scrub: no copy */
    CHECK(kp_redact_dup(&r, "clean", 5, &n) == NULL);
    kp_redact_release(&r);
}

static void
test_redact__short_secrets_are_not_looked_for(void)
{
    struct kp_redact r = {0};

    kp_redact_add(&r, "abc", 3);
    CHECK(kp_redact_dup(&r, "abcabc", 6, NULL) == NULL);
    kp_redact_release(&r);
}

static void
test_redact__basic_auth_password_and_its_base64(void)
{
    struct kp_redact r = {0};
    char msg[128] = "Basic YWRtaW46aHVudGVyMi1wdw== admin:hunter2-pw";

    kp_redact_add_basic(&r, "admin", "hunter2-pw");
    kp_redact_str(&r, msg, sizeof(msg));
    CHECK_EQ_STR(msg, "Basic [REDACTED] admin:[REDACTED]");
    kp_redact_release(&r);
}

static void
test_redact__the_longest_secret_at_a_place_wins(void)
{
    struct kp_redact r = {0};
    char msg[64] = "x tokentokenMORE y";

    kp_redact_add(&r, "tokentoken", 10);
    kp_redact_add(&r, "tokentokenMORE", 14);
    kp_redact_str(&r, msg, sizeof(msg));
    CHECK_EQ_STR(msg, "x [REDACTED] y");
    kp_redact_release(&r);
}

static void
test_redact__pem_key_lines(void)
{
    static const char pem[] =
        "-----BEGIN EC PRIVATE KEY-----\n"
        "MHcCAQEEIKey1111111111111111111111111111111111111\n"
        "oAoGCCqGSM49AwEHoUQDQgAEKey22222222222222222222222\n"
        "-----END EC PRIVATE KEY-----\n";
    struct kp_redact r = {0};
    char msg[160] = "oops: MHcCAQEEIKey1111111111111111111111111111111111111";

    kp_redact_add_pem(&r, pem, sizeof(pem) - 1);
    kp_redact_str(&r, msg, sizeof(msg));
    CHECK_EQ_STR(msg, "oops: [REDACTED]");
    kp_redact_release(&r);
}

static int
count_item(void *ctx, const char *text, size_t len, long index,
           struct kp_error *err)
{
    (void)text;
    (void)len;
    (void)index;
    (void)err;
    (*(int *)ctx)++;
    return 0;
}

static void
test_json_stream__an_item_over_the_object_limit_is_refused(void)
{
    static const char head[] = "{\"kind\":\"PodList\",\"items\":[{\"a\":\"";
    int n = 0, r = 0;
    struct kp_error err;
    struct kp_list_stream *ls = kp_list_stream_new("PodList", NULL,
                                                   count_item, &n);
    char *chunk = malloc(1 << 20);
    size_t fed = 0;

    memset(chunk, 'a', 1 << 20);
    r = kp_list_stream_feed(ls, head, sizeof(head) - 1, &err);
    while (r == 0 && fed <= KP_MAX_OBJECT_BYTES) {
        r = kp_list_stream_feed(ls, chunk, 1 << 20, &err);
        fed += 1 << 20;
    }
    CHECK_EQ_INT(r, -1);
    CHECK_EQ_STR(err.msg, "items[0] is larger than 8 MiB (the per-object "
                 "limit)");
    CHECK_EQ_INT(n, 0);
    free(chunk);
    kp_list_stream_free(ls);
}

static void
test_json_stream__a_nul_byte_names_its_offset(void)
{
    static const char page[] = "{\"kind\":\"PodList\",\"items\":[]}\0";
    int n = 0;
    struct kp_error err;
    struct kp_list_stream *ls = kp_list_stream_new("PodList", NULL,
                                                   count_item, &n);

    CHECK_EQ_INT(kp_list_stream_feed(ls, page, sizeof(page) - 1, &err), -1);
    CHECK_EQ_STR(err.msg, "NUL byte at offset 29");
    kp_list_stream_free(ls);
}

int
main(void)
{
    RUN(test_redact__every_occurrence_is_replaced);
    RUN(test_redact__short_secrets_are_not_looked_for);
    RUN(test_redact__basic_auth_password_and_its_base64);
    RUN(test_redact__the_longest_secret_at_a_place_wins);
    RUN(test_redact__pem_key_lines);
    RUN(test_json_stream__an_item_over_the_object_limit_is_refused);
    RUN(test_json_stream__a_nul_byte_names_its_offset);
    return check_done();
}
