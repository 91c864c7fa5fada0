/*
 * fuzz_selfcheck.c - libFuzzer target: the incremental-state self-check
 * (tests/selfcheck/README.md) over clusters drawn from the input.
 *
 * The input is not a cluster: its bytes are the random stream of the
 * self-check's generator (tests/selfcheck/gen.c; each choice takes one or
 * two bytes, 0 once they run out), so every input is a valid cluster and
 * the fuzzer steers its shape.  The cluster goes through kp_run() (-o
 * json, read from a memfd as /proc/self/fd/N) in queue and in independent
 * mode; a disagreement recorded by core/'s checks (built with
 * -DKP_SELFCHECK, as every target of tests/fuzz/Makefile.inc) aborts with
 * the message and the cluster on stderr, and so does a cluster that does
 * not load (a bug of the generator).  To see a crasher's cluster:
 * build-fuzz/fuzz_selfcheck CRASHER prints it before aborting.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../selfcheck/gen.h"
#include "kp.h"
#include "selfcheck.h"
#include "memfd_input.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!kp_selfcheck_enabled()) {
        fprintf(stderr, "fuzz_selfcheck: core/ built without "
                "-DKP_SELFCHECK (make fuzz-clean, then build again)\n");
        abort();
    }
    memfd_open("kp-fuzz-selfcheck");
    return 0;
}

static void
fail(const char *mode, const char *what, const char *text)
{
    fprintf(stderr, "fuzz_selfcheck: %s mode: %s\ncluster:\n%s\n", mode,
            what, text);
    abort();
}

static void
check(const char *text, enum kp_mode mode)
{
    const char *name = mode == KP_MODE_QUEUE ? "queue" : "independent";
    const char *files[1] = {memfd_path};
    struct kp_options o;
    struct kp_run_result r;
    struct kp_error err;
    int rc;

    kp_options_init(&o);
    o.files = files;
    o.nfiles = 1;
    o.output = KP_OUTPUT_JSON;
    o.mode = mode;
    memset(&err, 0, sizeof(err));
    kp_selfcheck_reset();
    rc = kp_run(&o, &r, &err);
    kp_run_result_release(&r);
    if (rc < 0)
        fail(name, err.msg, text);
    if (kp_selfcheck_failures() > 0)
        fail(name, kp_selfcheck_first(), text);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sc_rng rng;
    cJSON *cluster;
    char *text;

    sc_rng_bytes(&rng, data, size);
    cluster = sc_gen_cluster(&rng);
    text = cJSON_PrintUnformatted(cluster);
    cJSON_Delete(cluster);
    if (!text || store((const uint8_t *)text, strlen(text)) < 0)
        abort();
    check(text, KP_MODE_QUEUE);
    check(text, KP_MODE_INDEPENDENT);
    free(text);
    return 0;
}
