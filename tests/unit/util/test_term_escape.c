/*
 * test_term_escape.c - bytes for the terminal (core/util/term_escape.c):
 * cli-runtime's EscapeTerminal spellings for ESC and CR, every other
 * control escaped, UTF-8 text and (when asked) tab and newline kept.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "term_escape.h"

static char *
escaped(const char *s, unsigned flags)
{
    struct kp_buf b;

    kp_buf_init(&b);
    kp_term_escape(&b, s, strlen(s), flags);
    kp_buf_add(&b, "", 1);
    return b.data;
}

/* OSC title and clear-screen, as issue 27 found them in -o wide */
static void
test_term_escape__window_title_and_clear_screen_are_spelt_out(void)
{
    char *e = escaped("x\x1b]0;pwned\x07\x1b[2J", KP_TERM_CELL);

    CHECK_EQ_STR(e, "x^[]0;pwned\\x07^[[2J");
    free(e);
}

static void
test_term_escape__c1_controls_and_del_are_escaped_other_utf8_kept(void)
{
    char *e = escaped("a\xc2\x9b" "b\x7f" "c\xc2\xa0\xc3\xa9", KP_TERM_CELL);

    CHECK_EQ_STR(e, "a\\u009bb\\x7fc\xc2\xa0\xc3\xa9");
    free(e);
    CHECK(!kp_term_needs_escape("gr\xc3\xbc\xc3\x9f", 6, KP_TERM_CELL));
}

static void
test_term_escape__lines_kept_only_when_asked(void)
{
    char *cell = escaped("a\tb\nc\r", KP_TERM_CELL);
    char *lines = escaped("a\tb\nc\r", KP_TERM_KEEP_LINES);

    CHECK_EQ_STR(cell, "a\\tb\\nc\\r");
    CHECK_EQ_STR(lines, "a\tb\nc\\r");
    CHECK(!kp_term_needs_escape("a\tb\n", 4, KP_TERM_KEEP_LINES));
    CHECK(kp_term_needs_escape("a\tb\n", 4, KP_TERM_CELL));
    free(cell);
    free(lines);
}

static void
test_term_escape__take_returns_clean_strings_unchanged(void)
{
    char *s = strdup("prod/checkout-0"), *t = kp_term_escape_take(s);

    CHECK(s == t);
    free(t);
    t = kp_term_escape_take(strdup("a\x1b" "b"));
    CHECK_EQ_STR(t, "a^[b");
    free(t);
}

int
main(void)
{
    RUN(test_term_escape__window_title_and_clear_screen_are_spelt_out);
    RUN(test_term_escape__c1_controls_and_del_are_escaped_other_utf8_kept);
    RUN(test_term_escape__lines_kept_only_when_asked);
    RUN(test_term_escape__take_returns_clean_strings_unchanged);
    return check_done();
}
