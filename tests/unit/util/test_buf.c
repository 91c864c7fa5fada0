/*
 * test_buf.c - the growable buffer: kp_buf_add_buf, which the parallel
 * -o json render (render.c) uses to put each pod's object after the
 * last, keeps the bytes in order whether they are copied or, a
 * megabyte or more with a sink, written to the sink straight away.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "buf.h"

/* n bytes of c */
static void
fill(struct kp_buf *b, char c, size_t n)
{
    char chunk[4096];

    memset(chunk, c, sizeof(chunk));
    while (n) {
        size_t k = n < sizeof(chunk) ? n : sizeof(chunk);

        kp_buf_add(b, chunk, k);
        n -= k;
    }
}

/* without a sink: a copy, src left as it was */
static void
test_buf__add_buf_without_sink_copies(void)
{
    struct kp_buf b, src, empty;

    kp_buf_init(&b);
    kp_buf_init(&src);
    kp_buf_init(&empty);
    kp_buf_puts(&b, "head,");
    kp_buf_puts(&src, "pod");
    kp_buf_add_buf(&b, &src);
    kp_buf_add_buf(&b, &empty);
    kp_buf_add_buf(&b, &src);
    CHECK_EQ_STR(b.data, "head,podpod");
    CHECK_EQ_STR(src.data, "pod");
    kp_buf_release(&b);
    kp_buf_release(&src);
}

/*
 * With a sink: what b held goes first, then a large src written as it
 * is, then what follows; the sink sees every byte once, in order.
 */
static void
test_buf__add_buf_with_sink_keeps_the_order(void)
{
    struct kp_buf b, big, small;
    char *mem = NULL;
    size_t len = 0, big_len = 3 * 1024 * 1024 + 17, i;
    FILE *sink = open_memstream(&mem, &len);
    bool ok = true;

    CHECK(sink != NULL);
    kp_buf_init(&b);
    kp_buf_init(&big);
    kp_buf_init(&small);
    kp_buf_set_sink(&b, sink);
    kp_buf_puts(&b, "<");
    fill(&big, 'x', big_len);
    kp_buf_puts(&small, "s");
    kp_buf_add_buf(&b, &small);
    kp_buf_add_buf(&b, &big);
    /* the large one went out: nothing is left waiting */
    CHECK(b.len == 0);
    kp_buf_add_buf(&b, &small);
    kp_buf_puts(&b, ">");
    fwrite(b.data, 1, b.len, sink);
    fclose(sink);
    CHECK(!b.sink_error);
    CHECK(len == big_len + 4);
    CHECK(len >= 4 && memcmp(mem, "<s", 2) == 0 &&
          memcmp(mem + len - 2, "s>", 2) == 0);
    for (i = 2; len == big_len + 4 && i < 2 + big_len; i++)
        if (mem[i] != 'x')
            ok = false;
    CHECK(ok);
    free(mem);
    kp_buf_release(&b);
    kp_buf_release(&big);
    kp_buf_release(&small);
}

/*
 * kp_buf_printf formats into the room the buffer has and again when the
 * text is longer: every length around the room's end comes out whole,
 * after what was there, and an empty format adds nothing.
 */
static void
test_buf__printf_at_every_length(void)
{
    static char want[6000];
    size_t n, pre;
    bool ok = true;

    /* a new buffer holds 4096 bytes: texts end before, at and after */
    for (pre = 3300; pre < 4096 && ok; pre += 13)
        for (n = 0; n < 900 && ok; n++) {
            struct kp_buf b;

            kp_buf_init(&b);
            fill(&b, 'p', pre);
            memset(want, 'p', pre);
            memset(want + pre, 'q', n);
            want[pre + n] = '\0';
            kp_buf_printf(&b, "%.*s", (int)n, want + pre);
            ok = b.len == pre + n && b.data && strcmp(b.data, want) == 0;
            kp_buf_release(&b);
        }
    CHECK(ok);
    {
        struct kp_buf b;

        kp_buf_init(&b);
        kp_buf_puts(&b, "a");
        kp_buf_printf(&b, "%s", "");
        kp_buf_printf(&b, "%d-%s", 42, "x");
        CHECK_EQ_STR(b.data, "a42-x");
        CHECK(b.len == 5);
        kp_buf_release(&b);
    }
}

int
main(void)
{
    RUN(test_buf__printf_at_every_length);
    RUN(test_buf__add_buf_without_sink_copies);
    RUN(test_buf__add_buf_with_sink_keeps_the_order);
    return check_done();
}
