/*
 * test_render_kubectl.c - core/report/render_kubectl.c against kubectl's tables:
 * k8s.io/kubectl/pkg/cmd/get customcolumn_test.go (TestMassageJSONPath,
 * TestNewColumnPrinterFromSpec, TestNewColumnPrinterFromTemplate,
 * TestColumnPrint, TestIndividualPrintObjOnExistingTabWriter,
 * TestSliceColumnPrint) and sorter_test.go (TestSortingPrinter), plus
 * the YAML and name printers on a small report.
 *
 * The objects upstream prints become the pods of a report document
 * ({"pods": [...]}), the List that custom-columns and --sort-by walk.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "render_kubectl.h"
#include "tmpdir.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static int nrows_run;

/* Render doc as output/arg: 0 and the text in *out, or -1 and the error. */
static int
render(enum kp_output output, const char *arg, bool no_headers,
       const char *doc, char **out, char *msg)
{
    struct kp_options o;
    struct kp_error err = {0, ""};
    struct kp_buf b;
    int rc;

    kp_options_init(&o);
    o.output = output;
    o.output_arg = arg;
    o.no_headers = no_headers;
    kp_buf_init(&b);
    rc = kp_kubectl_check(&o, &err);
    if (rc == 0)
        rc = kp_render_kubectl(&o, "pods", doc, strlen(doc), &b, &err);
    kp_buf_add(&b, "", 1);
    *out = b.data;
    strcpy(msg, err.msg);
    return rc;
}

/* TestMassageJSONPath */
static void
test_render_kubectl__massage_jsonpath(void)
{
    static const struct {
        const char *in, *out;   /* out NULL: an error */
    } rows[] = {
        {"foo.bar", "{.foo.bar}"}, {"{foo.bar}", "{.foo.bar}"},
        {".foo.bar", "{.foo.bar}"}, {"{.foo.bar}", "{.foo.bar}"},
        {"", ""}, {"{foo.bar", NULL}, {"foo.bar}", NULL},
        {"{foo.bar}}", NULL}, {"{{foo.bar}", NULL},
    };
    struct kp_error err;
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        char *out = kp_relaxed_jsonpath(rows[i].in, &err);

        nrows_run++;
        if (rows[i].out) {
            CHECK(out != NULL);
            CHECK_EQ_STR(out ? out : "", rows[i].out);
        } else {
            CHECK(out == NULL);
        }
        free(out);
    }
}

#define POD_FOO "{\"pods\": [{\"apiVersion\": \"baz\", " \
    "\"metadata\": {\"name\": \"foo\"}}]}"

/* TestNewColumnPrinterFromSpec: errors, columns, no headers */
static void
test_render_kubectl__new_column_printer_from_spec(void)
{
    static const struct {
        const char *name, *spec;
        bool no_headers;
        const char *out;        /* NULL: an error */
    } rows[] = {
        {"empty", "", false, NULL},
        {"invalid1", "invalid", false, NULL},
        {"invalid2", "invalid=foobar", false, NULL},
        {"invalid3", "invalid,foobar:blah", false, NULL},
        {"ok", "NAME:metadata.name,API_VERSION:apiVersion", false,
         "NAME   API_VERSION\nfoo    baz\n"},
        {"no-headers", "API_VERSION:apiVersion", true, "baz\n"},
    };
    char *out, msg[512];
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        int rc = render(KP_OUTPUT_CUSTOM_COLUMNS, rows[i].spec,
                        rows[i].no_headers, POD_FOO, &out, msg);

        nrows_run++;
        if (!rows[i].out) {
            CHECK_EQ_INT(rc, -1);
        } else {
            CHECK_EQ_INT(rc, 0);
            CHECK_EQ_STR(out, rows[i].out);
        }
        free(out);
    }
    /* the errors' texts */
    render(KP_OUTPUT_CUSTOM_COLUMNS, "", false, POD_FOO, &out, msg);
    free(out);
    CHECK_EQ_STR(msg, "custom-columns format specified but no custom "
                 "columns given");
    render(KP_OUTPUT_CUSTOM_COLUMNS, "invalid,foobar:blah", false, POD_FOO,
           &out, msg);
    free(out);
    CHECK_EQ_STR(msg, "unexpected custom-columns spec: invalid, expected "
                 "<header>:<json-path-expr>");
}

/* TestNewColumnPrinterFromTemplate */
static void
test_render_kubectl__new_column_printer_from_template(void)
{
    static const struct {
        const char *name, *tmpl, *out;
    } rows[] = {
        {"empty", "", NULL},
        {"invalid1", "invalid", NULL},
        {"invalid2", "invalid=foobar", NULL},
        {"invalid3", "invalid,foobar:blah", NULL},
        {"ok", "NAME               API_VERSION\n{metadata.name}    "
         "{apiVersion}", "NAME   API_VERSION\nfoo    baz\n"},
        {"ok-2", "NAME               \t\tAPI_VERSION\n\t\t\t\t\t\t\t"
         "{metadata.name}    {apiVersion}", "NAME   API_VERSION\nfoo    "
         "baz\n"},
    };
    char path[300], *out, msg[512];
    size_t i;

    if (tmpdir_make("kp-columns") < 0) {
        CHECK(0);
        return;
    }
    snprintf(path, sizeof(path), "%s/columns", tmpdir);
    for (i = 0; i < NELEM(rows); i++) {
        FILE *f = fopen(path, "w");
        int rc;

        fputs(rows[i].tmpl, f);
        fclose(f);
        rc = render(KP_OUTPUT_CUSTOM_COLUMNS_FILE, path, false, POD_FOO,
                    &out, msg);
        nrows_run++;
        if (!rows[i].out) {
            CHECK_EQ_INT(rc, -1);
        } else {
            CHECK_EQ_INT(rc, 0);
            CHECK_EQ_STR(out, rows[i].out);
        }
        free(out);
    }
    render(KP_OUTPUT_CUSTOM_COLUMNS_FILE, "/nonexistent/x", false, POD_FOO,
           &out, msg);
    free(out);
    CHECK_EQ_STR(msg, "error reading template /nonexistent/x, open "
                 "/nonexistent/x: No such file or directory");
    tmpdir_remove();
}

/* TestColumnPrint and TestIndividualPrintObjOnExistingTabWriter */
static void
test_render_kubectl__column_print(void)
{
    static const struct {
        const char *spec, *doc, *out;
    } rows[] = {
        {"NAME:{.metadata.name}", "{\"pods\": [{\"metadata\": {\"name\": "
         "\"foo\"}}]}", "NAME\nfoo\n"},
        {"NAME:{.metadata.name}", "{\"pods\": [{\"metadata\": {\"name\": "
         "\"foo\"}}, {\"metadata\": {\"name\": \"bar\"}}]}",
         "NAME\nfoo\nbar\n"},
        {"NAME:{.metadata.name},API_VERSION:{.apiVersion}", POD_FOO,
         "NAME   API_VERSION\nfoo    baz\n"},
        {"NAME:{.metadata.name},API_VERSION:{.apiVersion},"
         "NOT_FOUND:{.notFound}", POD_FOO,
         "NAME   API_VERSION   NOT_FOUND\nfoo    baz           <none>\n"},
        {"NAME:{.metadata.name},LONG COLUMN NAME:{.metadata.labels.label1},"
         "LABEL 2:{.metadata.labels.label2}",
         "{\"pods\": [{\"metadata\": {\"name\": \"foo\", \"labels\": "
         "{\"label1\": \"foo\", \"label2\": \"foo\"}}}, {\"metadata\": "
         "{\"name\": \"bar\", \"labels\": {\"label1\": \"bar\", \"label2\": "
         "\"bar\"}}}]}",
         "NAME   LONG COLUMN NAME   LABEL 2\nfoo    foo                foo\n"
         "bar    bar                bar\n"},
    };
    char *out, msg[512];
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        nrows_run++;
        CHECK_EQ_INT(render(KP_OUTPUT_CUSTOM_COLUMNS, rows[i].spec, false,
                            rows[i].doc, &out, msg), 0);
        CHECK_EQ_STR(out, rows[i].out);
        free(out);
    }
}

/* TestSliceColumnPrint */
static void
test_render_kubectl__slice_column_print(void)
{
    static const char doc[] =
        "{\"pods\": [{\"metadata\": {\"name\": \"fake-name\", \"namespace\": "
        "\"fake-namespace\"}, \"spec\": {\"containers\": [{\"name\": "
        "\"fake0\"}, {\"name\": \"fake1\"}, {\"name\": \"fake2\"}, "
        "{\"name\": \"fake3\"}]}}]}";
    static const struct {
        const char *spec, *out;         /* out NULL: an error */
    } rows[] = {
        {"containers[0]", "fake0"}, {"containers[3]", "fake3"},
        {"containers[5]", NULL}, {"containers[-1]", "fake3"},
        {"containers[-2]", "fake2"}, {"containers[-4]", "fake0"},
        {"containers[-5]", NULL}, {"containers[0:0]", "<none>"},
        {"containers[0:3]", "fake0,fake1,fake2"},
        {"containers[1:]", "fake1,fake2,fake3"}, {"containers[3:1]", NULL},
        {"containers[0:-1]", "fake0,fake1,fake2"},
        {"containers[-1:]", "fake3"},
        {"containers[-4:]", "fake0,fake1,fake2,fake3"},
        {"containers[-3:-1]", "fake1,fake2"}, {"containers[-2:-3]", NULL},
        {"containers[4:4]", "<none>"}, {"containers[-5:-5]", "<none>"},
    };
    char spec[128], want[128], *out, msg[512];
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        int rc;

        snprintf(spec, sizeof(spec), "CONTAINER:.spec.%s.name",
                 rows[i].spec);
        rc = render(KP_OUTPUT_CUSTOM_COLUMNS, spec, false, doc, &out, msg);
        nrows_run++;
        if (!rows[i].out) {
            CHECK_EQ_INT(rc, -1);
        } else {
            snprintf(want, sizeof(want), "CONTAINER\n%s\n", rows[i].out);
            CHECK_EQ_INT(rc, 0);
            CHECK_EQ_STR(out, want);
        }
        free(out);
    }
    render(KP_OUTPUT_CUSTOM_COLUMNS, "C:.spec.containers[5].name", false,
           doc, &out, msg);
    free(out);
    CHECK_EQ_STR(msg, "array index out of bounds: index 5, length 4");
}

/* TestSortingPrinter: items (each with "id"), field, ids sorted or error */
struct sort_row {
    const char *name, *items, *field, *want;
};

#define RES(id, k, v) "{\"id\": \"" id "\", \"spec\": {\"containers\": " \
    "[{\"resources\": {\"requests\": {" k "}}}]}}"
#define CPU(id, v) RES(id, "\"cpu\": \"" v "\"", v)
#define MEM(id, v) RES(id, "\"memory\": \"" v "\"", v)
#define NONE(id) RES(id, "", "")
#define NAMED(id) "{\"id\": \"" id "\", \"metadata\": {\"name\": \"" id "\"}}"

static const struct sort_row sort_rows[] = {
    {"empty", "", "{.metadata.name}", ""},
    {"in-order-already", NAMED("a") "," NAMED("b") "," NAMED("c"),
     "{.metadata.name}", "a b c"},
    {"reverse-order", NAMED("b") "," NAMED("c") "," NAMED("a"),
     "{.metadata.name}", "a b c"},
    {"random-order-timestamp",
     "{\"id\": \"300\", \"metadata\": {\"creationTimestamp\": "
     "\"1970-01-01T00:05:00Z\"}}, {\"id\": \"100\", \"metadata\": "
     "{\"creationTimestamp\": \"1970-01-01T00:01:40Z\"}}, {\"id\": \"200\", "
     "\"metadata\": {\"creationTimestamp\": \"1970-01-01T00:03:20Z\"}}",
     "{.metadata.creationTimestamp}", "100 200 300"},
    {"random-order-numbers",
     "{\"id\": \"5\", \"spec\": {\"replicas\": 5}}, {\"id\": \"1\", "
     "\"spec\": {\"replicas\": 1}}, {\"id\": \"9\", \"spec\": "
     "{\"replicas\": 9}}", "{.spec.replicas}", "1 5 9"},
    {"v1.List in order", NAMED("a") "," NAMED("b") "," NAMED("c"),
     "{.metadata.name}", "a b c"},
    {"v1.List in reverse", NAMED("c") "," NAMED("b") "," NAMED("a"),
     "{.metadata.name}", "a b c"},
    {"some-missing-fields",
     "{\"id\": \"2\", \"status\": {\"availableReplicas\": 2}}, {\"id\": "
     "\"none\", \"status\": {}}, {\"id\": \"1\", \"status\": "
     "{\"availableReplicas\": 1}}", "{.status.availableReplicas}",
     "none 1 2"},
    {"all-missing-fields",
     "{\"id\": \"a\", \"status\": {\"replicas\": 0}}, {\"id\": \"b\", "
     "\"status\": {\"replicas\": 0}}", "{.status.availableReplicas}",
     "!couldn't find any field with path \"{.status.availableReplicas}\" "
     "in the list of objects"},
    {"model-invalid-fields",
     "{\"id\": \"a\", \"status\": {\"replicas\": 0}}, {\"id\": \"b\", "
     "\"status\": {\"replicas\": 0}}, {\"id\": \"c\", \"status\": "
     "{\"replicas\": 0}}", "{.invalid}",
     "!couldn't find any field with path \"{.invalid}\" in the list of "
     "objects"},
    {"empty fields",
     "{\"id\": \"300\", \"metadata\": {\"creationTimestamp\": "
     "\"1970-01-01T00:05:00Z\"}, \"lastTimestamp\": "
     "\"1970-01-01T00:05:00Z\"}, {\"id\": \"200\", \"metadata\": "
     "{\"creationTimestamp\": \"1970-01-01T00:03:20Z\"}, "
     "\"lastTimestamp\": null}", "{.lastTimestamp}", "200 300"},
    {"pod-resources-cpu-random-order-with-missing-fields",
     CPU("0.5", "0.5") "," CPU("10", "10") "," CPU("100m", "100m") ","
     NONE("none"), "{.spec.containers[].resources.requests.cpu}",
     "none 100m 0.5 10"},
    {"pod-resources-memory-random-order-with-missing-fields",
     MEM("128Mi", "128Mi") "," MEM("10Ei", "10Ei") "," MEM("8Ti", "8Ti") ","
     MEM("64Gi", "64Gi") "," MEM("55Pi", "55Pi") "," MEM("2Ki", "2Ki") ","
     NONE("none"), "{.spec.containers[].resources.requests.memory}",
     "none 2Ki 128Mi 64Gi 8Ti 55Pi 10Ei"},
    {"pod-unstructured-resources-cpu-random-order-with-missing-fields",
     CPU("0.5", "0.5") "," CPU("10", "10") "," CPU("100m", "100m") ","
     NONE("none"), "{.spec.containers[].resources.requests.cpu}",
     "none 100m 0.5 10"},
    {"pod-unstructured-resources-memory-random-order-with-missing-fields",
     MEM("128Mi", "128Mi") "," MEM("10Ei", "10Ei") "," MEM("8Ti", "8Ti") ","
     MEM("64Gi", "64Gi") "," MEM("55Pi", "55Pi") "," MEM("2Ki", "2Ki") ","
     NONE("none"), "{.spec.containers[].resources.requests.memory}",
     "none 2Ki 128Mi 64Gi 8Ti 55Pi 10Ei"},
};

/* The ids of doc's pods in the order of pos (queuePositions). */
static void
ids_in_order(cJSON *pods, const int *pos, size_t n, char *out, size_t len)
{
    size_t i;

    out[0] = '\0';
    for (i = 0; i < n; i++) {
        cJSON *p = cJSON_GetArrayItem(pods, pos[i] - 1);
        const char *id = cJSON_GetObjectItemCaseSensitive(p, "id")->valuestring;

        if (i)
            strncat(out, " ", len - strlen(out) - 1);
        strncat(out, id, len - strlen(out) - 1);
    }
}

static void
sort_one(const struct sort_row *r)
{
    char doc[4096], got[512];
    struct kp_error err = {0, ""};
    cJSON *d, *p;
    int *pos, rc, k = 0;
    size_t n;

    snprintf(doc, sizeof(doc), "{\"pods\": [%s]}", r->items);
    d = cJSON_Parse(doc);
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(d, "pods"))
        cJSON_AddNumberToObject(p, "queuePosition", ++k);
    cJSON_PrintPreallocated(d, doc, sizeof(doc), 0);
    rc = kp_kubectl_sort(r->field, doc, strlen(doc), &pos, &n, &err);
    nrows_run++;
    if (r->want[0] == '!') {
        CHECK_EQ_INT(rc, -1);
        CHECK_EQ_STR(err.msg, r->want + 1);
    } else if (rc < 0) {
        printf("#   %s: %s\n", r->name, err.msg);
        check_test_failed = 1;
    } else {
        ids_in_order(cJSON_GetObjectItemCaseSensitive(d, "pods"), pos, n, got,
                     sizeof(got));
        if (strcmp(got, r->want)) {
            printf("#   %s: got \"%s\", expected \"%s\"\n", r->name, got,
                   r->want);
            check_test_failed = 1;
        }
    }
    free(pos);
    cJSON_Delete(d);
}

static void
test_render_kubectl__sorting_printer(void)
{
    size_t i;

    for (i = 0; i < NELEM(sort_rows); i++)
        sort_one(&sort_rows[i]);
}

/* kubectl's isLess: bools cannot be sorted (klog.Exitf's text) */
static void
test_render_kubectl__sort_by_a_bool_is_an_error(void)
{
    static const char doc[] = "{\"pods\": [{\"queuePosition\": 1, \"b\": "
                              "true}, {\"queuePosition\": 2, \"b\": false}]}";
    struct kp_error err = {0, ""};
    int *pos;
    size_t n;

    CHECK_EQ_INT(kp_kubectl_sort(".b", doc, strlen(doc), &pos, &n, &err), -1);
    CHECK_EQ_STR(err.msg, "Field {.b} in *unstructured.Unstructured is an "
                 "unsortable type: interface, err: unsortable type: bool");
}

/*
 * YAMLPrinter: block style, strings quoted only where YAML needs it; a
 * key too ("n" is a YAML 1.1 bool, go-yaml v2 quotes it).
 */
static void
test_render_kubectl__yaml_is_block_style_and_quotes_ambiguous_strings(void)
{
    static const char doc[] =
        "{\"apiVersion\": \"kubectl-preempt/v1\", \"pods\": [{\"name\": "
        "\"a\", \"node\": null, \"victims\": [], \"n\": 3, \"ok\": true, "
        "\"s\": \"true\", \"t\": \"123\", \"u\": \"\", \"m\": \"0/4 nodes: "
        "x\", \"o\": {}}]}";
    char *out, msg[512];

    CHECK_EQ_INT(render(KP_OUTPUT_YAML, "", false, doc, &out, msg), 0);
    CHECK_EQ_STR(out, "apiVersion: kubectl-preempt/v1\npods:\n- name: a\n"
                 "  node: null\n  victims: []\n  \"n\": 3\n  ok: true\n"
                 "  s: \"true\"\n  t: \"123\"\n  u: \"\"\n"
                 "  m: '0/4 nodes: x'\n  o: {}\n");
    free(out);
}

/* NamePrinter: pod/NAME */
static void
test_render_kubectl__name_prints_pod_slash_name(void)
{
    char *out, msg[512];

    CHECK_EQ_INT(render(KP_OUTPUT_NAME, "", false, "{\"pods\": [{\"name\": "
                        "\"a\"}, {\"name\": \"b\"}]}", &out, msg), 0);
    CHECK_EQ_STR(out, "pod/a\npod/b\n");
    free(out);
}

/* JSONPathPrinter: parse and execute errors in kubectl's words */
static void
test_render_kubectl__jsonpath_errors_are_kubectls(void)
{
    char *out, msg[512];

    CHECK_EQ_INT(render(KP_OUTPUT_JSONPATH, "{.a", false, "{}", &out, msg),
                 -1);
    free(out);
    CHECK_EQ_STR(msg, "error parsing jsonpath {.a, unclosed action");
    CHECK_EQ_INT(render(KP_OUTPUT_JSONPATH, "", false, "{}", &out, msg), -1);
    free(out);
    CHECK_EQ_STR(msg, "template format specified but no template given");
    CHECK_EQ_INT(render(KP_OUTPUT_JSONPATH, "{.a[1]}", false,
                        "{\"a\": [1]}", &out, msg), -1);
    free(out);
    CHECK_EQ_STR(msg, "error executing jsonpath \"{.a[1]}\": Error executing "
                 "template: array index out of bounds: index 1, length 1. "
                 "Printing more information for debugging the template:\n"
                 "\ttemplate was:\n\t\t{.a[1]}");
}

int
main(void)
{
    RUN(test_render_kubectl__massage_jsonpath);
    RUN(test_render_kubectl__new_column_printer_from_spec);
    RUN(test_render_kubectl__new_column_printer_from_template);
    RUN(test_render_kubectl__column_print);
    RUN(test_render_kubectl__slice_column_print);
    RUN(test_render_kubectl__sorting_printer);
    RUN(test_render_kubectl__sort_by_a_bool_is_an_error);
    RUN(test_render_kubectl__yaml_is_block_style_and_quotes_ambiguous_strings);
    RUN(test_render_kubectl__name_prints_pod_slash_name);
    RUN(test_render_kubectl__jsonpath_errors_are_kubectls);
    printf("# %d upstream rows\n", nrows_run);
    return check_done();
}
