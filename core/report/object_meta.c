/*
 * object_meta.c - the "metadata" member of reported items (object_meta.h).
 */
#include "object_meta.h"

#include <stdio.h>
#include <time.h>

void
kp_format_rfc3339(int64_t ns, char *buf, size_t n)
{
    time_t t;
    struct tm tm;

    /* metav1.Time has whole seconds: a fraction is cut, toward the past */
    t = (time_t)(ns / 1000000000 - (ns % 1000000000 < 0 ? 1 : 0));
    if (!gmtime_r(&t, &tm) ||
        strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(buf, n, "0001-01-01T00:00:00Z");
}

void
kp_json_object_meta(struct kp_buf *b, const struct kp_pod *p,
                    const char *ns, const char *name, const char *uid)
{
    char when[64];
    size_t i;

    if (p) {
        ns = p->ns;
        name = p->name;
        uid = p->uid;
    }
    kp_buf_puts(b, "\"metadata\": {\"name\": ");
    kp_buf_json_str_or_null(b, name);
    kp_buf_puts(b, ", \"namespace\": ");
    kp_buf_json_str_or_null(b, name ? ns : NULL);
    kp_buf_puts(b, ", \"uid\": ");
    kp_buf_json_str_or_null(b, uid && uid[0] ? uid : NULL);
    kp_buf_puts(b, ", \"labels\": ");
    if (!p) {
        kp_buf_puts(b, "null");
    } else {
        kp_buf_puts(b, "{");
        for (i = 0; i < p->labels.n; i++) {
            kp_buf_puts(b, i ? ", " : "");
            kp_buf_json_str(b, p->labels.items[i].key);
            kp_buf_puts(b, ": ");
            kp_buf_json_str(b, p->labels.items[i].value);
        }
        kp_buf_puts(b, "}");
    }
    kp_buf_puts(b, ", \"creationTimestamp\": ");
    if (p && p->has_creation_time) {
        kp_format_rfc3339(p->creation_time, when, sizeof(when));
        kp_buf_json_str(b, when);
    } else {
        kp_buf_puts(b, "null");
    }
    kp_buf_puts(b, "}");
}
