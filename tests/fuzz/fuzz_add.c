/*
 * fuzz_add.c - libFuzzer target: --add, a manifest (JSON or YAML, one or
 * more documents) expanded into pending pods against a small fixed
 * cluster (core/whatif/add.c, with core/util/yaml_json.c behind it).
 *
 * kp_snapshot_add_manifests() takes a path, so each input is written to a
 * memfd read as /proc/self/fd/N (as fuzz_kubeconfig does).  The cluster is
 * loaded anew for every input from BASE below: two nodes (one with a
 * NoSchedule GPU taint and an instance-type label, for DaemonSets), a
 * running pod, the PriorityClasses the fixtures name, a PDB, a
 * StorageClass and an empty PVC list (so that StatefulSet claim templates
 * create claims).  A manifest that is accepted goes through
 * kp_snapshot_finish() and, while the snapshot holds at most MAX_ANALYZE
 * pods (a Deployment may ask for 100000), kp_analyze() and the JSON
 * rendering; the parity of the input's last byte picks the mode (odd:
 * queue, even: independent), as in fuzz_load.  A refused manifest must
 * leave a one-line message without control characters.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "add.h"
#include "buf.h"
#include "kp.h"
#include "report.h"
#include "simulate.h"
#include "snapshot.h"
#include "snapshot_load.h"
#include "memfd_input.h"

#define MAX_ANALYZE 200

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char BASE[] =
    "{\"kind\":\"List\",\"items\":["
    "{\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"prod\"},"
    "\"value\":1000},"
    "{\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"prod-critical\"},"
    "\"value\":1000000,\"preemptionPolicy\":\"PreemptLowerPriority\"},"
    "{\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"batch\"},"
    "\"value\":10,\"globalDefault\":true,\"preemptionPolicy\":\"Never\"},"
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"node-a\",\"labels\":{"
    "\"kubernetes.io/hostname\":\"node-a\","
    "\"topology.kubernetes.io/zone\":\"a\"}},"
    "\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"8Gi\","
    "\"pods\":\"110\"}}},"
    "{\"kind\":\"Node\",\"metadata\":{\"name\":\"gpu-1\",\"labels\":{"
    "\"kubernetes.io/hostname\":\"gpu-1\","
    "\"topology.kubernetes.io/zone\":\"b\","
    "\"node.kubernetes.io/instance-type\":\"g5.xlarge\"}},"
    "\"spec\":{\"taints\":[{\"key\":\"nvidia.com/gpu\","
    "\"effect\":\"NoSchedule\"}]},"
    "\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\","
    "\"pods\":\"110\",\"nvidia.com/gpu\":\"1\"}}},"
    "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"etl-0\",\"namespace\":"
    "\"prod\",\"labels\":{\"app\":\"etl\"},"
    "\"creationTimestamp\":\"2024-01-01T00:00:00Z\"},"
    "\"spec\":{\"nodeName\":\"node-a\",\"priorityClassName\":\"batch\","
    "\"priority\":10,\"containers\":[{\"name\":\"c\",\"resources\":{"
    "\"requests\":{\"cpu\":\"3\",\"memory\":\"1Gi\"}}}]},"
    "\"status\":{\"phase\":\"Running\","
    "\"startTime\":\"2024-01-01T00:00:01Z\"}},"
    "{\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"etl\","
    "\"namespace\":\"prod\"},\"spec\":{\"selector\":{\"matchLabels\":{"
    "\"app\":\"etl\"}}},\"status\":{\"disruptionsAllowed\":0}},"
    "{\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"standard\","
    "\"annotations\":{"
    "\"storageclass.kubernetes.io/is-default-class\":\"true\"}},"
    "\"provisioner\":\"ebs.csi.aws.com\","
    "\"volumeBindingMode\":\"WaitForFirstConsumer\"}"
    "]}\n"
    "{\"kind\":\"PersistentVolumeClaimList\",\"items\":[]}\n";


int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    memfd_open("kp-fuzz-add");
    return 0;
}

static void
analyze(const struct kp_snapshot *snap, enum kp_mode mode)
{
    struct kp_options o;
    struct kp_report rep;
    struct kp_error err;
    struct kp_buf out;

    kp_options_init(&o);
    o.mode = mode;
    memset(&err, 0, sizeof(err));
    if (kp_analyze(snap, &o, &rep, &err) == 0) {
        kp_buf_init(&out);
        kp_render_table(snap, &rep, true, false, &out);
        kp_render_json(snap, &rep, &out);
        kp_buf_release(&out);
    }
    kp_report_release(&rep);
}

static void
check_message(const struct kp_error *err)
{
    const unsigned char *p = (const unsigned char *)err->msg;

    if (!*p) {
        fprintf(stderr, "fuzz_add: refused without a message\n");
        abort();
    }
    for (; *p; p++)
        if (*p < 0x20 || *p == 0x7F) {
            fprintf(stderr, "fuzz_add: control character 0x%02X in the "
                    "message '%s'\n", *p, err->msg);
            abort();
        }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct kp_snapshot snap;
    struct kp_error err;
    enum kp_mode mode;

    if (store(data, size) < 0)
        abort();
    mode = size && !(data[size - 1] & 1) ? KP_MODE_INDEPENDENT
                                         : KP_MODE_QUEUE;
    memset(&err, 0, sizeof(err));
    kp_snapshot_init(&snap);
    if (kp_snapshot_load_buffer(&snap, BASE, sizeof(BASE) - 1, "base.json",
                                &err) < 0) {
        fprintf(stderr, "fuzz_add: base cluster: %s\n", err.msg);
        abort();
    }
    if (kp_snapshot_add_manifests(&snap, memfd_path, NULL, &err) < 0)
        check_message(&err);
    else if (kp_snapshot_finish(&snap, "default-scheduler", &err) == 0 &&
             snap.npods <= MAX_ANALYZE)
        analyze(&snap, mode);
    kp_snapshot_release(&snap);
    return 0;
}
