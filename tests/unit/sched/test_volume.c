/*
 * test_volume.c - the storage loader and the four volume plugins.
 *
 * Rows of kubernetes/kubernetes pkg/scheduler/framework/plugins:
 * volumerestrictions/volume_restrictions_test.go (TestGCEDiskConflicts,
 * TestAWSDiskConflicts, TestRBDDiskConflicts, TestISCSIDiskConflicts,
 * TestAccessModeConflicts), volumezone/volume_zone_test.go
 * (TestSingleZone, TestMultiZone, TestWithBinding),
 * nodevolumelimits/csi_test.go (TestCSILimits) and
 * volumebinding/volume_binding_test.go (TestVolumeBinding, the PreFilter
 * and Filter statuses), each run against one plugin as upstream does:
 * its PreFilter, then its Filter on every node.
 *
 * Translation: upstream objects without a namespace live in "default";
 * unnamed pods get names; pods that upstream puts in a NodeInfo are bound
 * to that node; names with '/' (not valid object names) use '-'
 * ("csi-kubernetes.io/aws-ebs-0" is "csi-kubernetes.io-aws-ebs-0").
 * The listers' NotFound texts are the real informers' (singular
 * resource: persistentvolumeclaim "x", storageclass.storage.k8s.io "x");
 * upstream's fake listers print plurals in three rows.  A StorageClass
 * without volumeBindingMode is Immediate (API defaulting), so the
 * VolumeZone row that expects "VolumeBindingMode not set" is run with an
 * explicit Immediate class (see volume_zone__with_binding).  Rows that
 * need an empty set of PVCs load an empty PersistentVolumeClaimList, as
 * the API returns it: without any PVCs in the input the PVC-dependent
 * checks are not run (volume__no_pvc_input_leaves_claims_out).
 */
#include <stdio.h>
#include <string.h>

#include "plugin_rows.h"
#include "plugin_state.h"
#include "volume.h"

/* ---- JSON builders ---- */

#define V_VOLS(...) ",\"volumes\":[" __VA_ARGS__ "]"
#define V_PVC(vol, claim)                                                  \
    "{\"name\":\"" vol "\",\"persistentVolumeClaim\":{\"claimName\":\""    \
    claim "\"}}"
#define V_EPH(vol) "{\"name\":\"" vol "\",\"ephemeral\":{}}"
#define V_SRC(vol, key, body) "{\"name\":\"" vol "\",\"" key "\":{" body "}}"
#define V_GCE(pd, ro) V_SRC("g", "gcePersistentDisk",                      \
                            "\"pdName\":\"" pd "\",\"readOnly\":" ro)
#define V_EBS(id) V_SRC("e", "awsElasticBlockStore", "\"volumeID\":\"" id "\"")
#define V_RBD(mons, pool, image)                                           \
    V_SRC("r", "rbd", "\"monitors\":[" mons "],\"pool\":\"" pool           \
          "\",\"image\":\"" image "\",\"fsType\":\"ext4\"")
#define V_ISCSI(iqn)                                                       \
    V_SRC("i", "iscsi", "\"targetPortal\":\"127.0.0.1:3260\",\"iqn\":\""  \
          iqn "\",\"lun\":0,\"fsType\":\"ext4\"")
#define V_CM "{\"name\":\"cm\",\"configMap\":{\"name\":\"x\"}}"
#define V_SECRET "{\"name\":\"sec\",\"secret\":{\"secretName\":\"x\"}}"
#define V_EMPTYDIR "{\"name\":\"no-restriction\",\"emptyDir\":{}}"

#define S_PVC(ns, name, meta, spec, status)                                \
    "{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"namespace\":\""   \
    ns "\",\"name\":\"" name "\"" meta "},\"spec\":{" spec "},"            \
    "\"status\":{" status "}}"
#define S_PV(name, labels, spec, status)                                   \
    "{\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"" name        \
    "\",\"labels\":{" labels "}},\"spec\":{" spec "},\"status\":{" status  \
    "}}"
#define S_SC(name, body)                                                   \
    "{\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"" name "\"}"      \
    body "}"
#define S_CSINODE(name, drivers)                                           \
    "{\"kind\":\"CSINode\",\"metadata\":{\"name\":\"" name "\"},"          \
    "\"spec\":{\"drivers\":[" drivers "]}}"
#define NO_PVCS " {\"kind\":\"PersistentVolumeClaimList\",\"items\":[]}"
#define BIND_DONE ",\"annotations\":{\"pv.kubernetes.io/bind-completed\":" \
    "\"yes\"}"
#define AM(m) "\"accessModes\":[\"" m "\"]"
#define NA(key, vals)                                                      \
    ",\"nodeAffinity\":{\"required\":{\"nodeSelectorTerms\":[{"            \
    "\"matchExpressions\":[{\"key\":\"" key "\",\"operator\":\"In\","      \
    "\"values\":[" vals "]}]}]}}"
#define WFFC ",\"volumeBindingMode\":\"WaitForFirstConsumer\""
#define IMMEDIATE ",\"volumeBindingMode\":\"Immediate\""

/* ---- one plugin against a snapshot ---- */

struct vfix {
    struct kp_snapshot s;
    struct kp_cluster cl;
    struct kp_arena scratch;
    struct kp_cycle c;
    struct kp_status pre;
    int idx;
    bool loaded;
};

/* Load json, then run only the plugin's PreFilter for pod ("ns/name"). */
static bool
vsetup(struct vfix *f, const char *json, const char *plugin, const char *pod)
{
    const char *slash = strchr(pod, '/');
    char ns[64] = "default";
    const struct kp_plugin *pl;

    memset(f, 0, sizeof(*f));
    if (slash)
        snprintf(ns, sizeof(ns), "%.*s", (int)(slash - pod), pod);
    if (load_snapshot(&f->s, json) < 0) {
        kp_snapshot_release(&f->s);
        return false;
    }
    f->loaded = true;
    kp_cluster_init(&f->cl, &f->s, "default-scheduler");
    kp_arena_init(&f->scratch);
    f->c.cl = &f->cl;
    f->c.scratch = &f->scratch;
    f->c.pod = kp_snapshot_pod(&f->s, ns, slash ? slash + 1 : pod);
    f->idx = row_plugin_index(plugin);
    if (!f->c.pod || f->idx < 0) {
        printf("#   no pending pod '%s' or plugin '%s'\n", pod, plugin);
        return false;
    }
    pl = kp_filter_plugins[f->idx];
    f->pre = pl->pre_filter ? pl->pre_filter(&f->c, f->idx) : kp_status_ok();
    f->c.skip[f->idx] = f->pre.code == KP_SKIP;
    return true;
}

static void
vteardown(struct vfix *f)
{
    if (!f->loaded)
        return;
    kp_arena_release(&f->scratch);
    kp_cluster_release(&f->cl);
    kp_snapshot_release(&f->s);
    f->loaded = false;
}

/* The reasons joined with '|'. */
static const char *
reasons_of(const struct kp_status *st, char *buf, size_t n)
{
    size_t o = 0;
    int i;

    buf[0] = '\0';
    for (i = 0; i < st->nreasons && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "|" : "",
                              st->reasons[i]);
    return buf;
}

struct vrow {
    const char *name;
    const char *json;
    const char *pod;        /* "ns/name", or a name in "default" */
    char pre;               /* PreFilter: S ok, K skip, R unresolvable, E */
    const char *pre_msg;    /* its reason, when R or E */
    const char *want;       /* Filter on each node: S, U, R, E */
    const char *reason;     /* the reasons of U/R/E, '|'-joined */
};

static bool
check_vrow(const char *plugin, const struct vrow *r)
{
    struct vfix f;
    char got[1024];
    bool ok = vsetup(&f, r->json, plugin, r->pod);
    size_t i;

    if (ok && row_code_letter(f.pre.code) != r->pre) {
        printf("#   PreFilter: got %c (%s), want %c\n",
               row_code_letter(f.pre.code),
               reasons_of(&f.pre, got, sizeof(got)), r->pre);
        ok = false;
    } else if (ok && r->pre_msg &&
               strcmp(reasons_of(&f.pre, got, sizeof(got)), r->pre_msg)) {
        printf("#   PreFilter: '%s', want '%s'\n", got, r->pre_msg);
        ok = false;
    }
    for (i = 0; ok && r->want && r->pre != 'R' && r->pre != 'E' &&
                i < f.s.nnodes; i++) {
        struct kp_status st = f.c.skip[f.idx] ? kp_status_ok() :
            kp_filter_plugins[f.idx]->filter(&f.c, f.idx, &f.cl.nodes[i]);
        char l = row_code_letter(st.code);

        reasons_of(&st, got, sizeof(got));
        if (l != r->want[i] ||
            (l != 'S' && r->reason && strcmp(got, r->reason) != 0)) {
            printf("#   node %s: got %c (%s), want %c (%s)\n",
                   f.s.nodes[i]->name, l, got, r->want[i],
                   r->reason ? r->reason : "");
            ok = false;
        }
    }
    if (!ok)
        printf("#   row: %s\n", r->name);
    vteardown(&f);
    return ok;
}

static void
run_vrows(const char *plugin, const struct vrow *rows, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        CHECK(check_vrow(plugin, &rows[i]));
}

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the loader ---- */

static void
test_volume__decodes_storage_objects(void)
{
    struct kp_snapshot s;
    const struct kp_pvc *pvc;
    const struct kp_pv *pv;
    const struct kp_storage_class *sc;
    const struct kp_csinode *cn;
    const char *json = T_LIST(
        S_PVC("prod", "data-0", ",\"uid\":\"u-1\",\"annotations\":{"
              "\"pv.kubernetes.io/bind-completed\":\"yes\","
              "\"volume.beta.kubernetes.io/storage-class\":\"beta\","
              "\"volume.kubernetes.io/selected-node\":\"node-1\"}",
              "\"accessModes\":[\"ReadWriteOncePod\",\"ReadOnlyMany\"],"
              "\"storageClassName\":\"gold\",\"volumeName\":\"pv-0\","
              "\"volumeMode\":\"Block\","
              "\"resources\":{\"requests\":{\"storage\":\"10Gi\"}}",
              "\"phase\":\"Bound\"") ","
        S_PV("pv-0", L("topology.kubernetes.io/zone", "z1"),
             "\"capacity\":{\"storage\":\"20Gi\"}," AM("ReadWriteOnce") ","
             "\"storageClassName\":\"gold\",\"claimRef\":{\"namespace\":"
             "\"prod\",\"name\":\"data-0\",\"uid\":\"u-1\"},"
             "\"awsElasticBlockStore\":{\"volumeID\":\"aws://z1/vol-1\"}"
             NA("zone", Q("z1")), "\"phase\":\"Bound\"") ","
        S_SC("gold", ",\"provisioner\":\"ebs.csi.aws.com\"" WFFC
             ",\"allowedTopologies\":[{\"matchLabelExpressions\":[{\"key\":"
             "\"zone\",\"values\":[\"z1\",\"z2\"]}]}]") ","
        S_SC("plain", "") ","
        S_CSINODE("node-1", "{\"name\":\"ebs.csi.aws.com\",\"nodeID\":\"i-1\","
                  "\"topologyKeys\":[\"zone\"],\"allocatable\":{\"count\":25}},"
                  "{\"name\":\"nolimit\",\"nodeID\":\"i-1\"}"));

    if (load_snapshot(&s, json) < 0) {
        CHECK(false);
        kp_snapshot_release(&s);
        return;
    }
    CHECK(s.has_pvc_input && kp_snapshot_volumes_evaluated(&s));
    CHECK_EQ_INT(s.nunknown_kinds, 0);
    pvc = kp_snapshot_pvc(&s, "prod", "data-0");
    CHECK(pvc != NULL);
    if (pvc) {
        CHECK_EQ_STR(pvc->storage_class, "beta");   /* annotation wins */
        CHECK_EQ_STR(pvc->volume_name, "pv-0");
        CHECK_EQ_STR(pvc->selected_node, "node-1");
        CHECK(pvc->bind_completed && pvc->block);
        CHECK_EQ_INT(pvc->access_modes, KP_AM_RWOP | KP_AM_ROX);
        CHECK_EQ_INT(pvc->phase, KP_CLAIM_BOUND);
        CHECK_EQ_INT(kp_quantity_value(&pvc->request), 10737418240LL);
    }
    pv = kp_snapshot_pv(&s, "pv-0");
    CHECK(pv != NULL);
    if (pv) {
        CHECK_EQ_INT(pv->kind, KP_PV_AWS_EBS);
        CHECK_EQ_STR(pv->claim_uid, "u-1");
        CHECK_EQ_STR(kp_pv_csi_handle(&s.arena, pv), "vol-1");
        CHECK_EQ_STR(kp_pv_csi_driver(pv->kind), "ebs.csi.aws.com");
        CHECK(!pv->available && !pv->node_affinity.is_null);
    }
    sc = kp_snapshot_storage_class(&s, "gold");
    CHECK(sc && sc->binding_mode == KP_BINDING_WAIT_FOR_FIRST_CONSUMER &&
          sc->nallowed == 1 && sc->allowed[0].exprs[0].nvalues == 2);
    sc = kp_snapshot_storage_class(&s, "plain");
    CHECK(sc && sc->binding_mode == KP_BINDING_IMMEDIATE &&
          sc->provisioner[0] == '\0');
    cn = kp_snapshot_csinode(&s, "node-1");
    CHECK(cn && cn->ndrivers == 2 && cn->drivers[0].has_count &&
          cn->drivers[0].count == 25 && !cn->drivers[1].has_count &&
          cn->drivers[0].ntopology_keys == 1);
    kp_snapshot_release(&s);
}

/* A typed list of claims, even empty, says the input carries claims. */
static void
test_volume__empty_claim_list_marks_pvc_input(void)
{
    struct kp_snapshot s;

    if (load_snapshot(&s, T_LIST(T_NODE("n", "")) NO_PVCS) == 0)
        CHECK(s.has_pvc_input && s.npvcs == 0);
    else
        CHECK(false);
    kp_snapshot_release(&s);
    if (load_snapshot(&s, T_LIST(T_NODE("n", ""))) == 0)
        CHECK(!s.has_pvc_input && !kp_snapshot_volumes_evaluated(&s));
    else
        CHECK(false);
    kp_snapshot_release(&s);
}

static void
check_load_error(const char *json, const char *want)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};

    kp_snapshot_init(&s);
    CHECK(kp_snapshot_load_buffer(&s, json, strlen(json), "t.json",
                                  &err) < 0);
    CHECK_EQ_STR(err.msg, want);
    kp_snapshot_release(&s);
}

static void
test_volume__strict_decoding_names_object_and_field(void)
{
    check_load_error(T_LIST(S_PVC("prod", "c", "", "\"volumeName\":7", "")),
                     "t.json: persistentvolumeclaim 'prod/c': "
                     "spec.volumeName: expected a string");
    check_load_error(T_LIST(S_PVC("prod", "c", "", AM("ReadWriteSome"), "")),
                     "t.json: persistentvolumeclaim 'prod/c': "
                     "spec.accessModes[0]: unsupported value "
                     "'ReadWriteSome'");
    check_load_error(T_LIST(S_PVC("prod", "c", "", "", "") ","
                            S_PVC("prod", "c", "", "", "")),
                     "t.json: persistentvolumeclaim 'prod/c': "
                     "metadata.name: duplicate object");
    check_load_error(T_LIST(S_PV("v", "", "\"capacity\":{\"storage\":"
                                 "\"1.5.0\"}", "")),
                     "t.json: persistentvolume 'v': spec.capacity."
                     "storage: invalid quantity '1.5.0'");
    check_load_error(T_LIST(S_SC("s", ",\"volumeBindingMode\":\"Later\"")),
                     "t.json: storageclass 's': volumeBindingMode: "
                     "unsupported value 'Later'");
    check_load_error(T_LIST(S_CSINODE("n", "{\"name\":\"d\",\"allocatable\":"
                                      "{\"count\":\"3\"}}")),
                     "t.json: csinode 'n': spec.drivers[0].allocatable."
                     "count: expected an integer");
    check_load_error("{\"kind\":\"PersistentVolumeClaimList\",\"items\":["
                     "{\"metadata\":{\"name\":\"c\"},\"status\":{"
                     "\"phase\":\"Gone\"}}]}",
                     "t.json: persistentvolumeclaim 'default/c': "
                     "status.phase: unsupported value 'Gone'");
}

/* ---- VolumeRestrictions ---- */

#define VR "VolumeRestrictions"
#define R_DISK "node(s) had no available disk"
#define R_RWOP "node has pod using PersistentVolumeClaim with the same " \
    "name and ReadWriteOncePod access mode"
#define N1 T_NODE("node-1", "")
#define P_NONE T_POD("p", "", "", "")
#define ON1(name, vols) T_POD(name, "node-1", "", V_VOLS(vols))
#define PEND(vols) T_POD("p", "", "", V_VOLS(vols))

/* The four in-tree tables: nothing, one state, same, different. */
#define DISK_ROWS(a, b)                                                    \
    {"nothing", T_LIST(N1 "," P_NONE), "p", 'K', NULL, NULL, NULL},        \
    {"one state", T_LIST(N1 "," ON1("e", a) "," P_NONE), "p", 'K', NULL,   \
     NULL, NULL},                                                          \
    {"same state", T_LIST(N1 "," ON1("e", a) "," PEND(a)), "p", 'S', NULL, \
     "U", R_DISK},                                                         \
    {"different state", T_LIST(N1 "," ON1("e", a) "," PEND(b)), "p", 'S', \
     NULL, "S", NULL}

static const struct vrow gce_rows[] = {
    DISK_ROWS(V_GCE("foo", "false"), V_GCE("bar", "false")),
    {"pod with a volume that doesn't have restrictions",
     T_LIST(N1 "," PEND(V_EMPTYDIR)), "p", 'K', NULL, NULL, NULL},
};

static const struct vrow aws_rows[] = {
    DISK_ROWS(V_EBS("foo"), V_EBS("bar")),
};

static const struct vrow rbd_rows[] = {
    DISK_ROWS(V_RBD(Q("a") "," Q("b"), "foo", "bar"),
              V_RBD(Q("c") "," Q("d"), "foo", "bar")),
};

static const struct vrow iscsi_rows[] = {
    DISK_ROWS(V_ISCSI("iqn.2016-12.server:storage.target01"),
              V_ISCSI("iqn.2017-12.server:storage.target01")),
};

static void
test_volume_restrictions__gce_disk_conflicts(void)
{
    run_vrows(VR, gce_rows, NROWS(gce_rows));
}

static void
test_volume_restrictions__aws_disk_conflicts(void)
{
    run_vrows(VR, aws_rows, NROWS(aws_rows));
}

static void
test_volume_restrictions__rbd_disk_conflicts(void)
{
    run_vrows(VR, rbd_rows, NROWS(rbd_rows));
}

static void
test_volume_restrictions__iscsi_disk_conflicts(void)
{
    run_vrows(VR, iscsi_rows, NROWS(iscsi_rows));
}

/* Not upstream rows: the read-only and shared-monitor rules. */
static const struct vrow read_only_rows[] = {
    {"GCE PD mounted read-only by both pods",
     T_LIST(N1 "," ON1("e", V_GCE("foo", "true")) ","
            PEND(V_GCE("foo", "true"))), "p", 'S', NULL, "S", NULL},
    {"GCE PD read-only here, read-write there",
     T_LIST(N1 "," ON1("e", V_GCE("foo", "false")) ","
            PEND(V_GCE("foo", "true"))), "p", 'S', NULL, "U", R_DISK},
    {"AWS EBS conflicts even when read-only",
     T_LIST(N1 "," ON1("e", V_SRC("e", "awsElasticBlockStore",
                                  "\"volumeID\":\"v\",\"readOnly\":true")) ","
            PEND(V_SRC("e", "awsElasticBlockStore",
                       "\"volumeID\":\"v\",\"readOnly\":true"))),
     "p", 'S', NULL, "U", R_DISK},
    {"RBD sharing one monitor of two",
     T_LIST(N1 "," ON1("e", V_RBD(Q("a") "," Q("b"), "foo", "bar")) ","
            PEND(V_RBD(Q("b") "," Q("c"), "foo", "bar"))),
     "p", 'S', NULL, "U", R_DISK},
    {"RBD without a pool is in pool rbd (API default)",
     T_LIST(N1 "," ON1("e", V_RBD(Q("a"), "", "bar")) ","
            PEND(V_RBD(Q("a"), "rbd", "bar"))), "p", 'S', NULL, "U", R_DISK},
};

static void
test_volume_restrictions__read_only_and_monitor_rules(void)
{
    run_vrows(VR, read_only_rows, NROWS(read_only_rows));
}

#define RWOP_PVCS                                                          \
    S_PVC("default", "claim-with-rwop-1", "", AM("ReadWriteOncePod"), "") \
    "," S_PVC("default", "claim-with-rwop-2", "", AM("ReadWriteOncePod"), \
              "") ","                                                      \
    S_PVC("default", "claim-with-rwx", "", AM("ReadWriteMany"), "")
#define POD_RWX ON1("pod-with-rwx", V_PVC("v", "claim-with-rwx"))
#define POD_ONE ON1("pod-with-one-pvc", V_PVC("v", "claim-with-rwop-1"))
#define POD_TWO ON1("pod-with-two-pvcs", V_PVC("v1", "claim-with-rwop-1") \
                    "," V_PVC("v2", "claim-with-rwop-2"))

static const struct vrow access_mode_rows[] = {
    {"nothing", T_LIST(N1 "," P_NONE) NO_PVCS, "p", 'K', NULL, NULL, NULL},
    {"failed to get PVC",
     T_LIST(N1 "," PEND(V_PVC("v", "claim-with-rwop-1"))) NO_PVCS, "p", 'R',
     "persistentvolumeclaim \"claim-with-rwop-1\" not found", NULL, NULL},
    {"no access mode conflict",
     T_LIST(N1 "," POD_RWX "," RWOP_PVCS ","
            PEND(V_PVC("v", "claim-with-rwop-1"))), "p", 'K', NULL, NULL,
     NULL},
    {"access mode conflict, unschedulable",
     T_LIST(N1 "," POD_ONE "," POD_RWX "," RWOP_PVCS ","
            PEND(V_PVC("v", "claim-with-rwop-1"))), "p", 'S', NULL, "U",
     R_RWOP},
    {"two conflicts, unschedulable",
     T_LIST(N1 "," POD_TWO "," POD_RWX "," RWOP_PVCS ","
            PEND(V_PVC("v1", "claim-with-rwop-1") ","
                 V_PVC("v2", "claim-with-rwop-2"))), "p", 'S', NULL, "U",
     R_RWOP},
};

static void
test_volume_restrictions__access_mode_conflicts(void)
{
    run_vrows(VR, access_mode_rows, NROWS(access_mode_rows));
}

/*
 * TestAccessModeConflicts "two conflicts": the count is 2; RemovePod of
 * the pod using both claims (a preemption victim) brings it to 0 and the
 * node passes; AddPod (a nominated pod) brings it back.
 */
static void
test_volume_restrictions__remove_pod_frees_read_write_once_pod(void)
{
    struct vfix f;
    const struct vrow *r = &access_mode_rows[4];
    struct kp_cycle c;
    struct kp_node_info *ni;
    const struct kp_pod *holder;

    if (!vsetup(&f, r->json, VR, "p")) {
        CHECK(false);
        vteardown(&f);
        return;
    }
    CHECK_EQ_INT(kp_vr_state_conflicts(f.c.state[f.idx]), 2);
    holder = kp_snapshot_pod(&f.s, "default", "pod-with-two-pvcs");
    kp_cycle_clone(&c, &f.c);
    ni = kp_node_info_clone(&f.scratch, &f.cl.nodes[0], f.cl.nres, 1);
    kp_cycle_remove_pod(&c, ni, holder);
    CHECK_EQ_INT(kp_vr_state_conflicts(c.state[f.idx]), 0);
    CHECK_EQ_INT(kp_filter_plugins[f.idx]->filter(&c, f.idx, ni).code,
                 KP_SUCCESS);
    /* the PreFilter state of the cycle itself is untouched */
    CHECK_EQ_INT(kp_vr_state_conflicts(f.c.state[f.idx]), 2);
    kp_cycle_add_pod(&c, ni, holder);
    CHECK_EQ_INT(kp_vr_state_conflicts(c.state[f.idx]), 2);
    CHECK_EQ_INT(kp_filter_plugins[f.idx]->filter(&c, f.idx, ni).code,
                 KP_UNSCHEDULABLE);
    vteardown(&f);
}

/* ---- VolumeZone ---- */

#define VZ "VolumeZone"
#define R_ZONE "node(s) had no available volume zone"
#define BZ "failure-domain.beta.kubernetes.io/zone"
#define BR "failure-domain.beta.kubernetes.io/region"
#define GZ "topology.kubernetes.io/zone"
#define GR "topology.kubernetes.io/region"
#define ZPV(name, labels) S_PV(name, labels, "", "")
#define ZPVC(name, vol) S_PVC("default", name, "", "\"volumeName\":\"" vol \
                              "\"", "")
#define HOST1(labels) T_NODE("host1", labels)
#define ZPOD(claim) PEND(V_PVC("v", claim))

#define SINGLE_ZONE_OBJECTS                                                \
    ZPV("Vol_1", L(BZ, "us-west1-a")) ","                                  \
    ZPV("Vol_2", L(BR, "us-west1") "," L("uselessLabel", "none")) ","      \
    ZPV("Vol_3", L(BR, "us-west1")) ","                                    \
    ZPV("Vol_Stable_1", L(GZ, "us-west1-a")) ","                           \
    ZPV("Vol_Stable_2", L(GR, "us-west1") "," L("uselessLabel", "none"))   \
    "," ZPV("Vol_Stable_3", L(GZ, "us-west1-a") "," L(GR, "us-west1-a"))   \
    "," ZPVC("PVC_1", "Vol_1") "," ZPVC("PVC_2", "Vol_2") ","              \
    ZPVC("PVC_3", "Vol_3") "," ZPVC("PVC_4", "Vol_not_exist") ","          \
    ZPVC("PVC_Stable_1", "Vol_Stable_1") ","                               \
    ZPVC("PVC_Stable_2", "Vol_Stable_2") ","                               \
    ZPVC("PVC_Stable_3", "Vol_Stable_3")
#define SZ(node, pod) T_LIST(SINGLE_ZONE_OBJECTS "," node "," pod)
#define USELESS "," L("uselessLabel", "none")

static const struct vrow single_zone_rows[] = {
    {"pod without volume", SZ(HOST1(L(BZ, "us-west1-a")), P_NONE), "p", 'K',
     NULL, NULL, NULL},
    {"node without labels", SZ(HOST1(""), ZPOD("PVC_1")), "p", 'S', NULL,
     "S", NULL},
    {"beta zone label matched",
     SZ(HOST1(L(BZ, "us-west1-a") USELESS), ZPOD("PVC_1")), "p", 'S', NULL,
     "S", NULL},
    {"beta region label matched",
     SZ(HOST1(L(BR, "us-west1") USELESS), ZPOD("PVC_2")), "p", 'S', NULL,
     "S", NULL},
    {"beta region label doesn't match",
     SZ(HOST1(L(BR, "no_us-west1") USELESS), ZPOD("PVC_2")), "p", 'S', NULL,
     "R", R_ZONE},
    {"beta zone label doesn't match",
     SZ(HOST1(L(BZ, "no_us-west1-a") USELESS), ZPOD("PVC_1")), "p", 'S',
     NULL, "R", R_ZONE},
    {"zone label matched",
     SZ(HOST1(L(GZ, "us-west1-a") USELESS), ZPOD("PVC_Stable_1")), "p", 'S',
     NULL, "S", NULL},
    {"region label matched",
     SZ(HOST1(L(GR, "us-west1") USELESS), ZPOD("PVC_Stable_2")), "p", 'S',
     NULL, "S", NULL},
    {"region label doesn't match",
     SZ(HOST1(L(GR, "no_us-west1") USELESS), ZPOD("PVC_Stable_2")), "p",
     'S', NULL, "R", R_ZONE},
    {"zone label doesn't match",
     SZ(HOST1(L(GZ, "no_us-west1-a") USELESS), ZPOD("PVC_Stable_1")), "p",
     'S', NULL, "R", R_ZONE},
    {"pv with zone and region, node with only zone",
     SZ(HOST1(L(GZ, "us-west1-a")), ZPOD("PVC_Stable_3")), "p", 'S', NULL,
     "R", R_ZONE},
    {"pv with zone,node with beta zone",
     SZ(HOST1(L(BZ, "us-west1-a")), ZPOD("PVC_Stable_1")), "p", 'S', NULL,
     "R", R_ZONE},
    {"pv with beta label,node with ga label, matched",
     SZ(HOST1(L(GZ, "us-west1-a")), ZPOD("PVC_1")), "p", 'S', NULL, "S",
     NULL},
    {"pv with beta label,node with ga label, don't match",
     SZ(HOST1(L(GZ, "us-west1-b")), ZPOD("PVC_1")), "p", 'S', NULL, "R",
     R_ZONE},
};

static void
test_volume_zone__single_zone(void)
{
    run_vrows(VZ, single_zone_rows, NROWS(single_zone_rows));
}

#define MULTI_ZONE_OBJECTS                                                 \
    ZPV("Vol_1", L(BZ, "us-west1-a")) ","                                  \
    ZPV("Vol_2", L(BZ, "us-west1-b") USELESS) ","                          \
    ZPV("Vol_3", L(BZ, "us-west1-c__us-west1-a")) ","                      \
    ZPV("Vol_Stable_1", L(GZ, "us-west1-a")) ","                           \
    ZPV("Vol_Stable_2", L(GZ, "us-west1-c__us-west1-a")) ","               \
    ZPVC("PVC_1", "Vol_1") "," ZPVC("PVC_2", "Vol_2") ","                  \
    ZPVC("PVC_3", "Vol_3") "," ZPVC("PVC_4", "Vol_not_exist") ","          \
    ZPVC("PVC_Stable_1", "Vol_Stable_1") ","                               \
    ZPVC("PVC_Stable_2", "Vol_Stable_2")
#define MZ(node, pod) T_LIST(MULTI_ZONE_OBJECTS "," node "," pod)

static const struct vrow multi_zone_rows[] = {
    {"node without labels", MZ(HOST1(""), ZPOD("PVC_3")), "p", 'S', NULL,
     "S", NULL},
    {"beta zone label matched",
     MZ(HOST1(L(BZ, "us-west1-a") USELESS), ZPOD("PVC_3")), "p", 'S', NULL,
     "S", NULL},
    {"beta zone label doesn't match",
     MZ(HOST1(L(BZ, "us-west1-b") USELESS), ZPOD("PVC_1")), "p", 'S', NULL,
     "R", R_ZONE},
    {"zone label matched",
     MZ(HOST1(L(GZ, "us-west1-a") USELESS), ZPOD("PVC_Stable_2")), "p", 'S',
     NULL, "S", NULL},
    {"zone label doesn't match",
     MZ(HOST1(L(GZ, "us-west1-b") USELESS), ZPOD("PVC_Stable_1")), "p", 'S',
     NULL, "R", R_ZONE},
};

static void
test_volume_zone__multi_zone(void)
{
    run_vrows(VZ, multi_zone_rows, NROWS(multi_zone_rows));
}

#define BINDING_OBJECTS                                                    \
    S_SC("Class_Immediate", IMMEDIATE) "," S_SC("Class_Wait", WFFC) ","    \
    ZPV("Vol_1", L(BZ, "us-west1-a")) "," ZPVC("PVC_1", "Vol_1") ","       \
    S_PVC("default", "PVC_NoSC", "", "\"storageClassName\":\"Class_0\"",   \
          "") ","                                                          \
    S_PVC("default", "PVC_EmptySC", "", "", "") ","                        \
    S_PVC("default", "PVC_WaitSC", "",                                     \
          "\"storageClassName\":\"Class_Wait\"", "") ","                   \
    S_PVC("default", "PVC_ImmediateSC", "",                                \
          "\"storageClassName\":\"Class_Immediate\"", "")
#define WB(claim)                                                          \
    T_LIST(BINDING_OBJECTS "," HOST1(L(BZ, "us-west1-a") USELESS) ","      \
           ZPOD(claim))

/*
 * TestWithBinding.  "unbound volume no storage class": the real lister's
 * text (singular).  "unbound volume immediate binding mode": upstream's
 * class has no volumeBindingMode ("VolumeBindingMode not set for
 * StorageClass"), which the API server never stores; with the Immediate
 * it defaults to, the claim has no volume: "PersistentVolume had no name".
 */
static const struct vrow with_binding_rows[] = {
    {"label zone failure domain matched", WB("PVC_1"), "p", 'S', NULL, "S",
     NULL},
    {"unbound volume empty storage class", WB("PVC_EmptySC"), "p", 'R',
     "PersistentVolumeClaim had no pv name and storageClass name", NULL,
     NULL},
    {"unbound volume no storage class", WB("PVC_NoSC"), "p", 'R',
     "storageclass.storage.k8s.io \"Class_0\" not found", NULL, NULL},
    {"unbound volume immediate binding mode", WB("PVC_ImmediateSC"), "p",
     'R', "PersistentVolume had no name", NULL, NULL},
    {"unbound volume wait binding mode", WB("PVC_WaitSC"), "p", 'K', NULL,
     NULL, NULL},
};

static void
test_volume_zone__with_binding(void)
{
    run_vrows(VZ, with_binding_rows, NROWS(with_binding_rows));
}

/* Not upstream rows: a missing PV; a label that does not parse. */
static const struct vrow zone_extra_rows[] = {
    {"PVC bound to a PV that does not exist",
     SZ(HOST1(L(BZ, "us-west1-a")), ZPOD("PVC_4")), "p", 'R',
     "persistentvolume \"Vol_not_exist\" not found", NULL, NULL},
    {"a PV label with an empty zone is ignored",
     T_LIST(ZPV("v", L(GZ, "a__")) "," ZPVC("c", "v") ","
            HOST1(L(GZ, "b")) "," ZPOD("c")), "p", 'K', NULL, NULL, NULL},
    {"zones are trimmed of spaces",
     T_LIST(ZPV("v", L(GZ, " a __ b ")) "," ZPVC("c", "v") ","
            HOST1(L(GZ, "b")) "," ZPOD("c")), "p", 'S', NULL, "S", NULL},
};

static void
test_volume_zone__missing_pv_and_label_parsing(void)
{
    run_vrows(VZ, zone_extra_rows, NROWS(zone_extra_rows));
}

/* ---- NodeVolumeLimits (TestCSILimits) ---- */

#define NVL "NodeVolumeLimits"
#define R_MAX "node(s) exceed max volume count"
#define EBS "ebs.csi.aws.com"
#define GCE "pd.csi.storage.gke.io"
#define INTREE_EBS "kubernetes.io/aws-ebs"
#define HOSTPATH "kubernetes.io/hostpath"
#define CSI_NODE "node-for-max-pd-test-1"

/* Pods: name, node ("" pending), volumes. */
#define CPOD(name, node, vols) T_POD(name, node, "", V_VOLS(vols))
#define EPHEMERAL_POD(uid, node, vols)                                     \
    T_POD_X("test", "abc", node, "", ",\"uid\":\"" uid "\"", V_VOLS(vols))
#define RUNNING CPOD("running", CSI_NODE, V_PVC("v", "csi-" EBS "-3"))
#define EBS_TWO(name, node)                                                \
    CPOD(name, node, V_PVC("v1", "csi-" EBS "-1") ","                       \
         V_PVC("v2", "csi-" EBS "-2"))
#define EBS_ONE(name, node) CPOD(name, node, V_PVC("v", "csi-" EBS "-0"))
#define GCE_TWO(name, node)                                                \
    CPOD(name, node, V_PVC("v1", "csi-" GCE "-1") ","                       \
         V_PVC("v2", "csi-" GCE "-2"))
#define PENDING_VOL(name, node) CPOD(name, node, V_PVC("v", "csi-4"))
#define INTREE_ONE(name, node)                                             \
    CPOD(name, node, V_PVC("v", "csi-kubernetes.io-aws-ebs-0"))
#define INTREE_TWO(name, node)                                             \
    CPOD(name, node, V_PVC("v1", "csi-kubernetes.io-aws-ebs-1") ","         \
         V_PVC("v2", "csi-kubernetes.io-aws-ebs-2"))
#define INLINE_EBS(name, node, id) CPOD(name, node, V_EBS(id))
#define EPH_CLAIM(name, owner)                                             \
    S_PVC("test", name, owner, "\"storageClassName\":\"csi-sc\"", "")
#define OWNED(uid)                                                         \
    ",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\","       \
    "\"name\":\"abc\",\"uid\":\"" uid "\",\"controller\":true}]"

struct csi_row {
    const char *name;
    const char *pod;            /* the pending pod's "ns/name" */
    const char *pods;           /* the pending pod and the node's pods */
    const char *extra;          /* extra claims, or "" */
    const char *drivers[2];
    int max_vols;
    const char *limit;          /* "csinode", "csinode-with-no-limit", "" */
    char pre;                   /* S or K */
    char want;                  /* S, U, R, E */
    const char *reason;
};

/*
 * getFakeCSIPVLister / getFakeCSIPVCLister / getFakeCSIStorageClassLister
 * / getNodeWithPodAndVolumeLimits: per driver four claims csi-<d>-<j>
 * bound to PVs of the same name (CSI; AWS EBS in-tree or hostPath for
 * those plugins), claims csi-4 (class csi-sc), csi-5 (no class) and
 * csi-6 (class csi-sc, bound to a missing PV), the class csi-sc of the
 * first driver, and the node with its CSINode.
 */
static void
csi_snapshot(struct gen_buf *b, const struct csi_row *r)
{
    int d, j;

    b->n = 0;
    gen_printf(b, "{\"kind\":\"List\",\"items\":[%s", T_NODE(CSI_NODE, ""));
    for (d = 0; d < 2 && r->drivers[d]; d++) {
        const char *dr = r->drivers[d];
        char name[128];

        for (j = 0; j < 4; j++) {
            snprintf(name, sizeof(name), "csi-%s-%d", dr, j);
            for (char *p = name; *p; p++)
                if (*p == '/')
                    *p = '-';
            gen_printf(b, ",{\"kind\":\"PersistentVolumeClaim\",\"metadata\":"
                       "{\"namespace\":\"default\",\"name\":\"%s\"},\"spec\":"
                       "{\"volumeName\":\"%s\"}}", name, name);
            if (strcmp(dr, INTREE_EBS) == 0)
                gen_printf(b, ",{\"kind\":\"PersistentVolume\",\"metadata\":"
                           "{\"name\":\"%s\"},\"spec\":{\"awsElasticBlock"
                           "Store\":{\"volumeID\":\"%s\"}}}", name, name);
            else if (strcmp(dr, HOSTPATH) == 0)
                gen_printf(b, ",{\"kind\":\"PersistentVolume\",\"metadata\":"
                           "{\"name\":\"%s\"},\"spec\":{\"hostPath\":{\"path\""
                           ":\"/tmp\"}}}", name);
            else
                gen_printf(b, ",{\"kind\":\"PersistentVolume\",\"metadata\":"
                           "{\"name\":\"%s\"},\"spec\":{\"csi\":{\"driver\":"
                           "\"%s\",\"volumeHandle\":\"%s\"}}}", name, dr,
                           name);
        }
    }
    gen_printf(b, ",%s,%s,%s", S_PVC("default", "csi-4", "",
                                     "\"storageClassName\":\"csi-sc\"", ""),
               S_PVC("default", "csi-5", "", "", ""),
               S_PVC("default", "csi-6", "", "\"storageClassName\":"
                     "\"csi-sc\",\"volumeName\":\"missing-in-action\"", ""));
    gen_printf(b, ",{\"kind\":\"StorageClass\",\"metadata\":{\"name\":"
               "\"csi-sc\"},\"provisioner\":\"%s\"}", r->drivers[0]);
    if (r->limit[0]) {
        gen_printf(b, ",{\"kind\":\"CSINode\",\"metadata\":{\"name\":\"%s\"},"
                   "\"spec\":{\"drivers\":[", CSI_NODE);
        for (d = 0; d < 2 && r->drivers[d]; d++) {
            gen_printf(b, "%s{\"name\":\"%s\",\"nodeID\":\"%s\"", d ? "," : "",
                       r->drivers[d], CSI_NODE);
            if (strcmp(r->limit, "csinode") == 0)
                gen_printf(b, ",\"allocatable\":{\"count\":%d}", r->max_vols);
            gen_printf(b, "}");
        }
        gen_printf(b, "]}}");
    }
    gen_printf(b, ",%s%s%s]}", r->pods, r->extra[0] ? "," : "", r->extra);
}

#define D1(a) {a, NULL}
#define D2(a, b) {a, b}

static const struct csi_row csi_rows[] = {
    {"fits when node volume limit >= new pods CSI volume", "p",
     EBS_ONE("p", "") "," RUNNING "," EBS_TWO("two", CSI_NODE), "", D1(EBS),
     4, "csinode", 'S', 'S', NULL},
    {"doesn't when node volume limit <= pods CSI volume", "p",
     EBS_ONE("p", "") "," RUNNING "," EBS_TWO("two", CSI_NODE), "", D1(EBS),
     2, "csinode", 'S', 'U', R_MAX},
    {"should when driver does not support volume limits", "p",
     EBS_ONE("p", "") "," RUNNING "," EBS_TWO("two", CSI_NODE), "", D1(EBS),
     2, "csinode-with-no-limit", 'S', 'S', NULL},
    {"count pending PVCs towards volume limit <= pods CSI volume", "p",
     EBS_ONE("p", "") "," PENDING_VOL("pending", CSI_NODE) ","
     EBS_TWO("two", CSI_NODE), "", D1(EBS), 2, "csinode", 'S', 'U', R_MAX},
    {"count multiple pending pvcs towards volume limit >= pods CSI volume",
     "p", EBS_ONE("p", "") "," PENDING_VOL("pending", CSI_NODE) ","
     PENDING_VOL("pending-2", CSI_NODE) "," EBS_TWO("two", CSI_NODE), "",
     D1(EBS), 4, "csinode", 'S', 'S', NULL},
    {"should count PVCs with invalid PV name but valid SC", "p",
     EBS_ONE("p", "") "," CPOD("missing-pv", CSI_NODE, V_PVC("v", "csi-6"))
     "," EBS_TWO("two", CSI_NODE), "", D1(EBS), 2, "csinode", 'S', 'U',
     R_MAX},
    {"don't count pvcs with missing SC towards volume limit", "p",
     EBS_ONE("p", "") "," RUNNING "," CPOD("no-sc", CSI_NODE,
                                           V_PVC("v", "csi-5")), "",
     D1(EBS), 2, "csinode", 'S', 'S', NULL},
    {"count pvcs with the same type towards volume limit", "p",
     EBS_ONE("p", "") "," GCE_TWO("gce", CSI_NODE) ","
     EBS_TWO("two", CSI_NODE), "", D2(EBS, GCE), 2, "csinode", 'S', 'U',
     R_MAX},
    {"don't count pvcs with different type towards volume limit", "p",
     GCE_TWO("p", "") "," EBS_TWO("two", CSI_NODE) "," RUNNING, "",
     D2(EBS, GCE), 2, "csinode", 'S', 'S', NULL},
    {"should count in-tree volumes if migration is enabled", "p",
     INTREE_ONE("p", "") "," INTREE_TWO("intree", CSI_NODE), "",
     D2(INTREE_EBS, EBS), 2, "csinode", 'S', 'U', R_MAX},
    {"nil csi node", "p",
     INLINE_EBS("p", "", "aws-inline1") "," INTREE_TWO("intree", CSI_NODE),
     "", D2(INTREE_EBS, EBS), 0, "", 'S', 'S', NULL},
    {"should count unbound in-tree volumes if migration is enabled", "p",
     PENDING_VOL("p", "") "," INTREE_TWO("intree", CSI_NODE), "",
     D2(INTREE_EBS, EBS), 2, "csinode", 'S', 'U', R_MAX},
    {"should not limit pod if volume used does not report limits", "p",
     INTREE_ONE("p", "") "," INTREE_TWO("intree", CSI_NODE), "",
     D2(INTREE_EBS, EBS), 2, "csinode-with-no-limit", 'S', 'S', NULL},
    {"should not count non-migratable in-tree volumes", "p",
     CPOD("p", "", V_PVC("v", "csi-kubernetes.io-hostpath-0")) ","
     EBS_TWO("two", CSI_NODE), "", D2(HOSTPATH, EBS), 2, "csinode", 'S',
     'S', NULL},
    {"should count in-tree inline volumes if migration is enabled", "p",
     INLINE_EBS("p", "", "aws-inline1") "," INTREE_TWO("intree", CSI_NODE),
     "", D2(INTREE_EBS, EBS), 2, "csinode", 'S', 'U', R_MAX},
    {"should count in-tree and csi volumes if migration is enabled (when "
     "scheduling in-tree volumes)", "p",
     INTREE_ONE("p", "") "," EBS_TWO("two", CSI_NODE), "",
     D2(INTREE_EBS, EBS), 2, "csinode", 'S', 'U', R_MAX},
    {"should count in-tree, inline and csi volumes if migration is enabled "
     "(when scheduling in-tree volumes)", "p",
     INLINE_EBS("p", "", "aws-inline1") "," EBS_TWO("two", CSI_NODE) ","
     INTREE_ONE("intree", CSI_NODE), "", D2(INTREE_EBS, EBS), 3, "csinode",
     'S', 'U', R_MAX},
    {"should not count in-tree, inline and csi volumes if migration is "
     "enabled (when scheduling in-tree volumes)", "p",
     INLINE_EBS("p", "", "csi-" EBS "-1") "," EBS_TWO("two", CSI_NODE) ","
     INTREE_ONE("intree", CSI_NODE), "", D2(INTREE_EBS, EBS), 3, "csinode",
     'S', 'S', NULL},
    {"should count in-tree and csi volumes if migration is enabled (when "
     "scheduling csi volumes)", "p",
     EBS_ONE("p", "") "," INTREE_TWO("intree", CSI_NODE), "",
     D2(INTREE_EBS, EBS), 2, "csinode", 'S', 'U', R_MAX},
    /* ephemeral volumes */
    {"ephemeral volume missing", "test/abc",
     EPHEMERAL_POD("12345", "", V_EPH("xyz")), "", D1(EBS), 0,
     "csinode-with-no-limit", 'S', 'R',
     "looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not "
     "found"},
    {"ephemeral volume not owned", "test/abc",
     EPHEMERAL_POD("12345", "", V_EPH("xyz")), EPH_CLAIM("abc-xyz", ""),
     D1(EBS), 0, "csinode-with-no-limit", 'S', 'E',
     "PVC test/abc-xyz was not created for pod test/abc (pod is not owner)"},
    {"ephemeral volume unbound", "test/abc",
     EPHEMERAL_POD("12345", "", V_EPH("xyz")),
     EPH_CLAIM("abc-xyz", OWNED("12345")), D1(EBS), 0,
     "csinode-with-no-limit", 'S', 'S', NULL},
    {"ephemeral doesn't when node volume limit <= pods CSI volume",
     "test/abc", EPHEMERAL_POD("12345", "", V_EPH("xyz")) "," RUNNING ","
     EBS_TWO("two", CSI_NODE), EPH_CLAIM("abc-xyz", OWNED("12345")),
     D1(EBS), 2, "csinode", 'S', 'U', R_MAX},
    {"ephemeral doesn't when node volume limit <= pods ephemeral CSI volume",
     "p", EBS_ONE("p", "") "," RUNNING ","
     EPHEMERAL_POD("12345II", CSI_NODE, V_EPH("x") "," V_EPH("y")),
     EPH_CLAIM("abc-x", OWNED("12345II")) ","
     EPH_CLAIM("abc-y", OWNED("12345II")), D1(EBS), 2, "csinode", 'S', 'U',
     R_MAX},
    {"persistent doesn't when node volume limit <= pods ephemeral CSI "
     "volume + persistent volume, ephemeral disabled", "p",
     EBS_ONE("p", "") "," RUNNING ","
     EPHEMERAL_POD("12345", CSI_NODE, V_EPH("xyz")) ","
     EBS_TWO("two", CSI_NODE), EPH_CLAIM("abc-xyz", OWNED("12345")),
     D1(EBS), 3, "csinode", 'S', 'U', R_MAX},
    {"persistent doesn't when node volume limit <= pods ephemeral CSI "
     "volume + persistent volume", "p",
     EBS_ONE("p", "") "," RUNNING ","
     EPHEMERAL_POD("12345", CSI_NODE, V_EPH("xyz")) ","
     EBS_TWO("two", CSI_NODE), EPH_CLAIM("abc-xyz", OWNED("12345")),
     D1(EBS), 3, "csinode", 'S', 'U', R_MAX},
    {"persistent okay when node volume limit > pods ephemeral CSI volume + "
     "persistent volume", "p",
     EBS_ONE("p", "") "," RUNNING ","
     EPHEMERAL_POD("12345", CSI_NODE, V_EPH("xyz")) ","
     EBS_TWO("two", CSI_NODE), EPH_CLAIM("abc-xyz", OWNED("12345")),
     D1(EBS), 5, "csinode", 'S', 'S', NULL},
    {"skip Filter when the pod only uses secrets and configmaps", "p",
     CPOD("p", "", V_CM "," V_SECRET), "", D1(EBS), 2, "csinode", 'K', 'S',
     NULL},
    {"don't skip Filter when the pod has pvcs", "p",
     CPOD("p", "", V_CM "," V_SECRET "," V_PVC("v", "csi-" EBS "-0")), "",
     D1(EBS), 2, "csinode", 'S', 'S', NULL},
    {"don't skip Filter when the pod has ephemeral volumes", "test/abc",
     EPHEMERAL_POD("12345", "", V_CM "," V_SECRET "," V_EPH("xyz")), "",
     D1(EBS), 0, "csinode-with-no-limit", 'S', 'R',
     "looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not "
     "found"},
    {"don't skip Filter when the pod has inline migratable volumes", "p",
     CPOD("p", "", V_CM "," V_SECRET "," V_EBS("aws-inline1")) ","
     INTREE_TWO("intree", CSI_NODE), "", D2(INTREE_EBS, EBS), 2, "csinode",
     'S', 'U', R_MAX},
};

static bool
check_csi_row(const struct csi_row *r)
{
    static struct gen_buf b;
    struct vrow v = {r->name, NULL, r->pod, r->pre, NULL, NULL, r->reason};
    char want[2] = {r->want, '\0'};

    csi_snapshot(&b, r);
    v.json = b.s;
    v.want = r->pre == 'S' ? want : NULL;
    return check_vrow(NVL, &v);
}

static void
test_node_volume_limits__csi_limits(void)
{
    size_t i;

    for (i = 0; i < NROWS(csi_rows); i++)
        CHECK(check_csi_row(&csi_rows[i]));
}

/* ---- VolumeBinding (TestVolumeBinding) ---- */

#define VB "VolumeBinding"
#define R_BIND "node(s) didn't find available persistent volumes to bind"
#define R_NODE "node(s) had volume node affinity conflict"
#define R_PV_GONE "node(s) unavailable due to one or more pvc(s) bound to " \
    "non-existent pv(s)"
#define HN "kubernetes.io/hostname"
/* makeNode: the hostname label is the node name */
#define MNODE(name, extra) T_NODE(name, L(HN, name) extra)
#define CLASSES                                                            \
    S_SC("immediate-sc", IMMEDIATE) "," S_SC("wait-sc", WFFC) ","          \
    S_SC("wait-hdd-sc", WFFC)
#define MPVC(name, sc, extra)                                              \
    S_PVC("default", name, "", "\"storageClassName\":\"" sc "\"" extra, "")
/* withBoundPV: volumeName and the bind-completed annotation */
#define MPVC_BOUND(name, sc, pv, status)                                   \
    S_PVC("default", name, BIND_DONE, "\"storageClassName\":\"" sc         \
          "\",\"volumeName\":\"" pv "\"", status)
#define REQ(q) ",\"resources\":{\"requests\":{\"storage\":\"" q "\"}}"
#define MPV(name, sc, phase, extra)                                        \
    S_PV(name, "", "\"storageClassName\":\"" sc "\"" extra,               \
         "\"phase\":\"" phase "\"")
#define CAP(q) ",\"capacity\":{\"storage\":\"" q "\"}"
#define NA2(k1, v1, k2, v2)                                                \
    ",\"nodeAffinity\":{\"required\":{\"nodeSelectorTerms\":[{"            \
    "\"matchExpressions\":[{\"key\":\"" k1 "\",\"operator\":\"In\","       \
    "\"values\":[\"" v1 "\"]},{\"key\":\"" k2 "\",\"operator\":\"In\","    \
    "\"values\":[\"" v2 "\"]}]}]}}"
#define POD_A(vols) T_POD("pod-a", "", "", V_VOLS(vols))
#define VB_LIST(...) T_LIST(CLASSES "," __VA_ARGS__) NO_PVCS
#define LOCAL(pv, sc, cap, node)                                           \
    MPV(pv, sc, "Available", CAP(cap) NA(HN, Q(node)))
#define ZONAL(pv, cap, r, z)                                               \
    MPV(pv, "wait-sc", "Available", CAP(cap) NA2(GR, r, GZ, z))
#define ZNODE(name, r, z) MNODE(name, "," L(GR, r) "," L(GZ, z))

static const struct vrow binding_rows[] = {
    {"pod has not pvcs", VB_LIST(MNODE("node-a", "") "," POD_A("")),
     "pod-a", 'K', NULL, NULL, NULL},
    {"all bound",
     VB_LIST(MNODE("node-a", "") "," POD_A(V_PVC("", "pvc-a")) ","
             MPVC_BOUND("pvc-a", "wait-sc", "pv-a", "") ","
             MPV("pv-a", "wait-sc", "Available", "")),
     "pod-a", 'S', NULL, "S", NULL},
    {"all bound with local volumes",
     VB_LIST(MNODE("node-a", "") ","
             POD_A(V_PVC("volume-a", "pvc-a") "," V_PVC("volume-b", "pvc-b"))
             "," MPVC_BOUND("pvc-a", "wait-sc", "pv-a", "") ","
             MPVC_BOUND("pvc-b", "wait-sc", "pv-b", "") ","
             MPV("pv-a", "wait-sc", "Bound", NA(HN, Q("node-a"))) ","
             MPV("pv-b", "wait-sc", "Bound", NA(HN, Q("node-a")))),
     "pod-a", 'S', NULL, "S", NULL},
    {"PVC does not exist",
     VB_LIST(MNODE("node-a", "") "," POD_A(V_PVC("", "pvc-a"))), "pod-a",
     'R', "persistentvolumeclaim \"pvc-a\" not found", NULL, NULL},
    {"Part of PVCs do not exist",
     VB_LIST(MNODE("node-a", "") ","
             POD_A(V_PVC("", "pvc-a") "," V_PVC("", "pvc-b")) ","
             MPVC_BOUND("pvc-a", "wait-sc", "pv-a", "")), "pod-a", 'R',
     "persistentvolumeclaim \"pvc-b\" not found", NULL, NULL},
    {"immediate claims not bound",
     VB_LIST(MNODE("node-a", "") "," POD_A(V_PVC("", "pvc-a")) ","
             MPVC("pvc-a", "immediate-sc", "")), "pod-a", 'R',
     "pod has unbound immediate PersistentVolumeClaims", NULL, NULL},
    {"unbound claims no matches",
     VB_LIST(MNODE("node-a", "") "," POD_A(V_PVC("", "pvc-a")) ","
             MPVC("pvc-a", "wait-sc", "")), "pod-a", 'S', NULL, "R",
     R_BIND},
    {"bound and unbound unsatisfied",
     VB_LIST(MNODE("node-a", "," L("foo", "barbar")) ","
             POD_A(V_PVC("", "pvc-a") "," V_PVC("", "pvc-b")) ","
             MPVC_BOUND("pvc-a", "wait-sc", "pv-a", "") ","
             MPVC("pvc-b", "wait-sc", "") ","
             MPV("pv-a", "wait-sc", "Available", NA("foo", Q("bar")))),
     "pod-a", 'S', NULL, "R", R_NODE "|" R_BIND},
    {"pvc not found",
     VB_LIST(MNODE("node-a", "") "," POD_A(V_PVC("", "pvc-a"))), "pod-a",
     'R', "persistentvolumeclaim \"pvc-a\" not found", NULL, NULL},
    {"pv not found",
     VB_LIST(MNODE("node-a", "") "," POD_A(V_PVC("", "pvc-a")) ","
             MPVC_BOUND("pvc-a", "wait-sc", "pv-a", "")), "pod-a", 'S',
     NULL, "R", R_PV_GONE},
    {"pv not found claim lost",
     VB_LIST(MNODE("node-a", "") "," POD_A(V_PVC("", "pvc-a")) ","
             MPVC_BOUND("pvc-a", "wait-sc", "pv-a", "\"phase\":\"Lost\"")),
     "pod-a", 'R', "persistentvolumeclaim \"pvc-a\" bound to non-existent "
     "persistentvolume \"pv-a\"", NULL, NULL},
    {"local volumes with close capacity are preferred",
     VB_LIST(MNODE("node-a", "") "," MNODE("node-b", "") ","
             MNODE("node-c", "") "," POD_A(V_PVC("", "pvc-a")) ","
             MPVC("pvc-a", "wait-sc", REQ("50Gi")) ","
             LOCAL("pv-a-0", "wait-sc", "200Gi", "node-a") ","
             LOCAL("pv-a-1", "wait-sc", "200Gi", "node-a") ","
             LOCAL("pv-b-0", "wait-sc", "100Gi", "node-b") ","
             LOCAL("pv-b-1", "wait-sc", "100Gi", "node-b")),
     "pod-a", 'S', NULL, "SSR", R_BIND},
    {"local volumes with close capacity are preferred (multiple pvcs)",
     VB_LIST(MNODE("node-a", "") "," MNODE("node-b", "") ","
             MNODE("node-c", "") ","
             POD_A(V_PVC("", "pvc-0") "," V_PVC("", "pvc-1")) ","
             MPVC("pvc-0", "wait-sc", REQ("50Gi")) ","
             MPVC("pvc-1", "wait-hdd-sc", REQ("100Gi")) ","
             LOCAL("pv-a-0", "wait-sc", "200Gi", "node-a") ","
             LOCAL("pv-a-1", "wait-sc", "200Gi", "node-a") ","
             LOCAL("pv-a-2", "wait-hdd-sc", "200Gi", "node-a") ","
             LOCAL("pv-a-3", "wait-hdd-sc", "200Gi", "node-a") ","
             LOCAL("pv-b-0", "wait-sc", "100Gi", "node-b") ","
             LOCAL("pv-b-1", "wait-sc", "100Gi", "node-b") ","
             LOCAL("pv-b-2", "wait-hdd-sc", "100Gi", "node-b") ","
             LOCAL("pv-b-3", "wait-hdd-sc", "100Gi", "node-b")),
     "pod-a", 'S', NULL, "SSR", R_BIND},
    {"zonal volumes with close capacity are preferred",
     VB_LIST(ZNODE("zone-a-node-a", "region-a", "zone-a") ","
             ZNODE("zone-a-node-b", "region-a", "zone-a") ","
             ZNODE("zone-b-node-a", "region-b", "zone-b") ","
             ZNODE("zone-b-node-b", "region-b", "zone-b") ","
             ZNODE("zone-c-node-a", "region-c", "zone-c") ","
             ZNODE("zone-c-node-b", "region-c", "zone-c") ","
             POD_A(V_PVC("", "pvc-a")) ","
             MPVC("pvc-a", "wait-sc", REQ("50Gi")) ","
             ZONAL("pv-a-0", "200Gi", "region-a", "zone-a") ","
             ZONAL("pv-a-1", "200Gi", "region-a", "zone-a") ","
             ZONAL("pv-b-0", "100Gi", "region-b", "zone-b") ","
             ZONAL("pv-b-1", "100Gi", "region-b", "zone-b")),
     "pod-a", 'S', NULL, "SSSSRR", R_BIND},
};

static void
test_volume_binding__volume_binding(void)
{
    run_vrows(VB, binding_rows, NROWS(binding_rows));
}

/* "all bound with local volumes": PreFilterResult{NodeNames: {node-a}}. */
static void
test_volume_binding__local_volumes_narrow_the_nodes(void)
{
    struct vfix f;

    if (vsetup(&f, binding_rows[2].json, VB, "pod-a")) {
        CHECK(f.c.restricted && f.c.nallowed == 1);
        CHECK(f.c.nallowed == 1 && strcmp(f.c.allowed[0], "node-a") == 0);
        CHECK_EQ_INT(f.c.nrestricting, 1);
    } else {
        CHECK(false);
    }
    vteardown(&f);
    /* "all bound": a PV without hostname affinity narrows nothing */
    if (vsetup(&f, binding_rows[1].json, VB, "pod-a"))
        CHECK(!f.c.restricted);
    else
        CHECK(false);
    vteardown(&f);
}

/* ---- whole analyses: preemption frees volumes ---- */

/* A pod with a priority, bound to node ("" pending), with volumes. */
#define APOD(name, prio, node, vols)                                       \
    "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\",\"name\":\"" \
    name "\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},\"spec\":{"   \
    "\"priority\":" #prio ",\"nodeName\":\"" node "\",\"containers\":[{"   \
    "\"name\":\"c\"}]" V_VOLS(vols) "}}"

/* A ReadWriteOncePod claim bound to a PV (else VolumeBinding rejects). */
#define RWOP_DATA                                                          \
    S_PVC("default", "data", BIND_DONE, AM("ReadWriteOncePod")             \
          ",\"volumeName\":\"pv-data\"", "\"phase\":\"Bound\"") ","            \
    S_PV("pv-data", "", AM("ReadWriteOncePod") ",\"claimRef\":{"           \
         "\"namespace\":\"default\",\"name\":\"data\"}", "\"phase\":\"Bound\"")

struct analysis {
    struct kp_snapshot s;
    struct kp_report rep;
    bool ok;
};

static const struct kp_pod_report *
analyse(struct analysis *a, const char *json, enum kp_mode mode,
        const char *pod)
{
    memset(a, 0, sizeof(*a));
    a->ok = load_snapshot(&a->s, json) == 0 &&
            analyze(&a->s, &a->rep, mode) == 0;
    return a->ok ? report_for(&a->rep, pod) : NULL;
}

static void
analysis_release(struct analysis *a)
{
    kp_report_release(&a->rep);
    kp_snapshot_release(&a->s);
}

/* The victim holds the ReadWriteOncePod claim: evicting it frees node-1. */
static void
test_volume__preemption_frees_read_write_once_pod_claim(void)
{
    struct analysis a;
    const struct kp_pod_report *pr = analyse(&a, T_LIST(
        T_NODE("node-1", "") "," T_NODE("node-2", "") ","
        RWOP_DATA ","
        APOD("holder", 0, "node-1", V_PVC("v", "data")) ","
        APOD("p", 100, "", V_PVC("v", "data"))), KP_MODE_INDEPENDENT, "p");

    CHECK(pr != NULL);
    if (pr) {
        CHECK_EQ_INT(pr->result, KP_RESULT_PREEMPTS);
        CHECK(pr->nominated_node == 0);     /* node-1 */
        CHECK_EQ_INT(pr->nvictims, 1);
        CHECK(pr->nvictims == 1 &&
              strcmp(pr->victims[0].pod->name, "holder") == 0);
        CHECK_EQ_INT(pr->ncandidates, 1);
        CHECK(strstr(pr->message, "0/2 nodes are available: 2 " R_RWOP
                     ". preemption: found a potential placement for pod "
                     "on node node-1, preempting 1 victims") != NULL);
    }
    analysis_release(&a);
}

/* The same claim with a higher-priority holder: nothing to preempt. */
static void
test_volume__higher_priority_claim_holder_is_not_preempted(void)
{
    struct analysis a;
    const struct kp_pod_report *pr = analyse(&a, T_LIST(
        T_NODE("node-1", "") ","
        RWOP_DATA ","
        APOD("holder", 1000, "node-1", V_PVC("v", "data")) ","
        APOD("p", 100, "", V_PVC("v", "data"))), KP_MODE_INDEPENDENT, "p");

    CHECK(pr && pr->result == KP_RESULT_UNSCHEDULABLE);
    analysis_release(&a);
}

/*
 * In queue mode the first pod takes the free ReadWriteOncePod claim; the
 * second, of lower priority, then conflicts with it on every node.
 */
static void
test_volume__queue_mode_placed_pod_holds_the_claim(void)
{
    struct analysis a;
    const struct kp_pod_report *first, *second;
    const char *json = T_LIST(
        T_NODE("node-1", "") "," T_NODE("node-2", "") ","
        RWOP_DATA ","
        APOD("first", 100, "", V_PVC("v", "data")) ","
        APOD("second", 50, "", V_PVC("v", "data")));

    first = analyse(&a, json, KP_MODE_QUEUE, "first");
    second = a.ok ? report_for(&a.rep, "second") : NULL;
    CHECK(first && first->result == KP_RESULT_FITS);
    CHECK(second && second->result == KP_RESULT_UNSCHEDULABLE);
    analysis_release(&a);
}

/* An in-tree disk in use by a lower-priority pod: evicting it frees it. */
static void
test_volume__preemption_frees_gce_disk(void)
{
    struct analysis a;
    const struct kp_pod_report *pr = analyse(&a, T_LIST(
        T_NODE("node-1", "") "," T_NODE("node-2", "") ","
        APOD("low", 0, "node-1", V_GCE("disk-1", "false")) ","
        APOD("high", 1000, "node-2", V_GCE("disk-1", "true")) ","
        APOD("p", 100, "", V_GCE("disk-1", "false"))),
        KP_MODE_INDEPENDENT, "p");

    CHECK(pr != NULL);
    if (pr) {
        CHECK_EQ_INT(pr->result, KP_RESULT_PREEMPTS);
        CHECK(pr->nominated_node == 0);     /* node-1 */
        CHECK(pr->nvictims == 1 &&
              strcmp(pr->victims[0].pod->name, "low") == 0);
        CHECK(strstr(pr->message, "2 " R_DISK ".") != NULL);
    }
    analysis_release(&a);
}

/* A full attach limit: evicting the pod that uses a volume frees a slot. */
static void
test_volume__preemption_frees_attach_slot(void)
{
    struct analysis a;
    const struct kp_pod_report *pr = analyse(&a, T_LIST(
        T_NODE("node-1", "") ","
        S_CSINODE("node-1", "{\"name\":\"" EBS "\",\"allocatable\":"
                  "{\"count\":1}}") ","
        S_PVC("default", "a", BIND_DONE, "\"volumeName\":\"pv-a\"", "") ","
        S_PVC("default", "b", BIND_DONE, "\"volumeName\":\"pv-b\"", "") ","
        S_PV("pv-a", "", "\"csi\":{\"driver\":\"" EBS "\",\"volumeHandle\":"
             "\"vol-a\"}", "") ","
        S_PV("pv-b", "", "\"csi\":{\"driver\":\"" EBS "\",\"volumeHandle\":"
             "\"vol-b\"}", "") ","
        APOD("low", 0, "node-1", V_PVC("v", "a")) ","
        APOD("p", 100, "", V_PVC("v", "b"))), KP_MODE_INDEPENDENT, "p");

    CHECK(pr != NULL);
    if (pr) {
        CHECK_EQ_INT(pr->result, KP_RESULT_PREEMPTS);
        CHECK(pr->nvictims == 1 &&
              strcmp(pr->victims[0].pod->name, "low") == 0);
        CHECK(strstr(pr->message, "1 " R_MAX ".") != NULL);
    }
    analysis_release(&a);
}

/* A PreFilter rejection is the whole FitError, and nothing is tried. */
static void
test_volume__unbound_immediate_claim_rejects_the_pod(void)
{
    struct analysis a;
    const struct kp_pod_report *pr = analyse(&a, T_LIST(
        T_NODE("node-1", "") "," S_SC("fast", IMMEDIATE ",\"provisioner\":"
                                      "\"ebs.csi.aws.com\"") ","
        S_PVC("default", "c", "", "\"storageClassName\":\"fast\"", "") ","
        APOD("p", 100, "", V_PVC("v", "c"))), KP_MODE_INDEPENDENT, "p");

    CHECK(pr != NULL);
    if (pr) {
        CHECK_EQ_INT(pr->result, KP_RESULT_UNSCHEDULABLE);
        CHECK_EQ_STR(pr->message, "0/1 nodes are available: pod has unbound "
                     "immediate PersistentVolumeClaims. no new claims to "
                     "deallocate, preemption: 0/1 nodes are available: 1 "
                     "Preemption is not helpful for scheduling.");
    }
    analysis_release(&a);
}

/* An empty intersection of local PVs fails PreFilter (RunPreFilterPlugins). */
static void
test_volume__local_volumes_on_two_nodes_reject_the_pod(void)
{
    struct analysis a;
    const struct kp_pod_report *pr = analyse(&a, T_LIST(
        MNODE("node-a", "") "," MNODE("node-b", "") "," MNODE("node-c", "")
        "," CLASSES "," MPVC_BOUND("pvc-a", "wait-sc", "pv-a", "") ","
        MPVC_BOUND("pvc-b", "wait-sc", "pv-b", "") ","
        MPV("pv-a", "wait-sc", "Bound", NA(HN, Q("node-a"))) ","
        MPV("pv-b", "wait-sc", "Bound", NA(HN, Q("node-b"))) ","
        APOD("p", 100, "", V_PVC("a", "pvc-a") "," V_PVC("b", "pvc-b"))),
        KP_MODE_INDEPENDENT, "p");

    CHECK(pr && strncmp(pr->message, "0/3 nodes are available: node(s) "
                        "didn't satisfy plugin VolumeBinding.", 60) == 0);
    analysis_release(&a);
}

/* Nodes outside a PreFilterResult: no filter runs on them. */
static void
test_volume__nodes_outside_the_local_volume_are_not_filtered(void)
{
    struct analysis a;
    const struct kp_pod_report *pr = analyse(&a, T_LIST(
        MNODE("node-a", "") "," "{\"kind\":\"Node\",\"metadata\":{\"name\":"
        "\"node-b\"},\"spec\":{\"unschedulable\":true}}" ","
        CLASSES "," MPVC_BOUND("pvc-a", "wait-sc", "pv-a", "") ","
        MPV("pv-a", "wait-sc", "Bound", NA(HN, Q("node-a"))) ","
        "{\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"default\",\"name\":"
        "\"p\"},\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\","
        "\"resources\":{\"requests\":{\"cpu\":\"9\"}}}]" V_VOLS(
            V_PVC("a", "pvc-a")) "}}"), KP_MODE_INDEPENDENT, "p");

    CHECK(pr && strstr(pr->message, "0/2 nodes are available: 1 "
                       "Insufficient cpu, 1 node(s) didn't satisfy "
                       "plugin(s) [VolumeBinding].") != NULL);
    if (pr && !strstr(pr->message, "[VolumeBinding]."))
        printf("#   message: %s\n", pr->message);
    analysis_release(&a);
}

/*
 * Without PVCs in the input, PVC volumes are left out (the pod fits), a
 * warning says so once, and in-tree disks are still checked.
 */
static void
test_volume__no_pvc_input_leaves_claims_out(void)
{
    struct analysis a;
    const struct kp_pod_report *pr = analyse(&a, T_LIST(
        T_NODE("node-1", "") ","
        APOD("holder", 1000, "node-1", V_PVC("v", "data") ","
             V_EBS("vol-1")) ","
        APOD("p", 100, "", V_PVC("v", "data")) ","
        APOD("q", 100, "", V_PVC("v", "missing") "," V_EBS("vol-1"))),
        KP_MODE_INDEPENDENT, "p");

    CHECK(pr && pr->result == KP_RESULT_FITS);
    pr = a.ok ? report_for(&a.rep, "q") : NULL;
    CHECK(pr && pr->result == KP_RESULT_UNSCHEDULABLE &&
          strstr(pr->message, R_DISK) != NULL);
    CHECK_EQ_INT(a.s.nwarnings, 1);
    if (a.s.nwarnings == 1)
        CHECK_EQ_STR(a.s.warnings[0], "3 pod(s) use PersistentVolumeClaims "
                     "or ephemeral volumes, which are not evaluated: the "
                     "input has no PersistentVolumeClaims (add pvc,pv,"
                     "storageclasses,csinodes to kubectl get)");
    analysis_release(&a);
}

int
main(void)
{
    RUN(test_volume__decodes_storage_objects);
    RUN(test_volume__empty_claim_list_marks_pvc_input);
    RUN(test_volume__strict_decoding_names_object_and_field);
    RUN(test_volume_restrictions__gce_disk_conflicts);
    RUN(test_volume_restrictions__aws_disk_conflicts);
    RUN(test_volume_restrictions__rbd_disk_conflicts);
    RUN(test_volume_restrictions__iscsi_disk_conflicts);
    RUN(test_volume_restrictions__read_only_and_monitor_rules);
    RUN(test_volume_restrictions__access_mode_conflicts);
    RUN(test_volume_restrictions__remove_pod_frees_read_write_once_pod);
    RUN(test_volume_zone__single_zone);
    RUN(test_volume_zone__multi_zone);
    RUN(test_volume_zone__with_binding);
    RUN(test_volume_zone__missing_pv_and_label_parsing);
    RUN(test_node_volume_limits__csi_limits);
    RUN(test_volume_binding__volume_binding);
    RUN(test_volume_binding__local_volumes_narrow_the_nodes);
    RUN(test_volume__preemption_frees_read_write_once_pod_claim);
    RUN(test_volume__higher_priority_claim_holder_is_not_preempted);
    RUN(test_volume__queue_mode_placed_pod_holds_the_claim);
    RUN(test_volume__preemption_frees_gce_disk);
    RUN(test_volume__preemption_frees_attach_slot);
    RUN(test_volume__unbound_immediate_claim_rejects_the_pod);
    RUN(test_volume__local_volumes_on_two_nodes_reject_the_pod);
    RUN(test_volume__nodes_outside_the_local_volume_are_not_filtered);
    RUN(test_volume__no_pvc_input_leaves_claims_out);
    return check_done();
}
