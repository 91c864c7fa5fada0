/*
 * fuzz_load.c - libFuzzer target: a snapshot buffer through the loader,
 * the admission rules and the whole analysis.
 *
 * The input is what -f reads (a List, an XxxList, single objects or
 * concatenated documents), passed to kp_snapshot_load_buffer() without a
 * terminating NUL so that ASan catches any read past its end.  A loaded
 * snapshot goes through kp_snapshot_finish() and kp_analyze() with
 * kp_options_init()'s defaults; the parity of the input's last byte picks
 * the mode (odd: queue, even: independent), so a crasher stays a plain
 * JSON file: "}" ends in queue mode, "}\n" in independent mode.  The
 * report is then rendered as table, wide and JSON, and everything is
 * released.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "kp.h"
#include "report.h"
#include "simulate.h"
#include "snapshot.h"
#include "snapshot_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
render_all(const struct kp_snapshot *snap, const struct kp_report *rep)
{
    struct kp_buf out;

    kp_buf_init(&out);
    kp_render_table(snap, rep, false, false, &out);
    kp_render_table(snap, rep, true, true, &out);
    kp_render_json(snap, rep, &out);
    kp_buf_release(&out);
}

static void
analyze(const struct kp_snapshot *snap, enum kp_mode mode)
{
    struct kp_options o;
    struct kp_report rep;
    struct kp_error err;

    kp_options_init(&o);
    o.mode = mode;
    memset(&err, 0, sizeof(err));
    if (kp_analyze(snap, &o, &rep, &err) == 0)
        render_all(snap, &rep);
    kp_report_release(&rep);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct kp_snapshot snap;
    struct kp_options defaults;
    struct kp_error err;
    enum kp_mode mode;
    char *buf;

    if (size == 0)
        return 0;
    mode = data[size - 1] & 1 ? KP_MODE_QUEUE : KP_MODE_INDEPENDENT;
    /* An exact-size copy: no NUL after the input, ASan sees overreads. */
    buf = malloc(size);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    kp_options_init(&defaults);
    memset(&err, 0, sizeof(err));
    kp_snapshot_init(&snap);
    if (kp_snapshot_load_buffer(&snap, buf, size, "fuzz.json", &err) == 0 &&
        kp_snapshot_finish(&snap, defaults.scheduler_name, &err) == 0)
        analyze(&snap, mode);
    kp_snapshot_release(&snap);
    free(buf);
    return 0;
}
