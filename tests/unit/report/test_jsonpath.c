/*
 * test_jsonpath.c - core/report/jsonpath.c against the tables of client-go's
 * util/jsonpath: jsonpath_test.go (TestTypesInput, TestStructInput,
 * TestJSONInput, TestKubernetes, TestEmptyRange, TestNestedRanges,
 * TestFilterPartialMatchesSometimesMissingAnnotations, TestNegativeIndex,
 * TestRunningPodsJSONPathOutput, TestStep) and parser_test.go (TestParser,
 * TestFailParser).
 *
 * Upstream feeds some tables Go structs; here every input is JSON, as
 * kubectl feeds unstructured objects.  Where that changes the expected
 * text it is said on the row: objects print with sorted keys (a map, not
 * a struct), and a map's Go type is map[string]interface {}.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "jsonpath.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* expect is the output, or with ERR the error text ("" = any error) */
enum { OK, ERR };

struct row {
    const char *name;
    const char *tmpl;
    const char *input;          /* JSON */
    const char *expect;
    int want;
};

static const char types_json[] =
    "{\"bools\": [true, false, true, false],"
    " \"integers\": [1, 2, 3, 4],"
    " \"floats\": [1.0, 2.2, 3.3, 4.0],"
    " \"strings\": [\"one\", \"two\", \"three\", \"four\"],"
    " \"interfaces\": [true, \"one\", 1, 1.1],"
    " \"maps\": [{\"name\": \"one\", \"value\": 1},"
    "  {\"name\": \"two\", \"value\": 2.02},"
    "  {\"name\": \"three\", \"value\": 3.03},"
    "  {\"name\": \"four\", \"value\": 4.04}],"
    " \"structs\": [{\"name\": \"one\", \"value\": 1, \"type\": \"integer\"},"
    "  {\"name\": \"two\", \"value\": 2.002, \"type\": \"float\"},"
    "  {\"name\": \"three\", \"value\": 3, \"type\": \"integer\"},"
    "  {\"name\": \"four\", \"value\": 4.004, \"type\": \"float\"}]}";

#define T types_json
/* structs print as maps: keys sorted (name, type, value) */
#define S1 "{\"name\":\"one\",\"type\":\"integer\",\"value\":1}"
#define S2 "{\"name\":\"two\",\"type\":\"float\",\"value\":2.002}"
#define S3 "{\"name\":\"three\",\"type\":\"integer\",\"value\":3}"
#define S4 "{\"name\":\"four\",\"type\":\"float\",\"value\":4.004}"
#define M1 "{\"name\":\"one\",\"value\":1}"
#define M2 "{\"name\":\"two\",\"value\":2.02}"
#define M3 "{\"name\":\"three\",\"value\":3.03}"
#define M4 "{\"name\":\"four\",\"value\":4.04}"

/* TestTypesInput (sliceTests), allowMissingKeys false */
static const struct row types_rows[] = {
    {"boolSlice", "{ .bools }", T, "[true,false,true,false]", OK},
    {"boolSliceIndex", "{ .bools[0] }", T, "true", OK},
    {"boolSliceIndex", "{ .bools[-1] }", T, "false", OK},
    {"boolSubSlice", "{ .bools[0:2] }", T, "true false", OK},
    {"boolSubSliceFirst2", "{ .bools[:2] }", T, "true false", OK},
    {"boolSubSliceStep2", "{ .bools[:4:2] }", T, "true true", OK},
    {"integerSlice", "{ .integers }", T, "[1,2,3,4]", OK},
    {"integerSliceIndex", "{ .integers[0] }", T, "1", OK},
    {"integerSliceIndexReverse", "{ .integers[-2] }", T, "3", OK},
    {"integerSubSliceFirst2", "{ .integers[0:2] }", T, "1 2", OK},
    {"integerSubSliceFirst2Alt", "{ .integers[:2] }", T, "1 2", OK},
    {"integerSubSliceStep2", "{ .integers[:4:2] }", T, "1 3", OK},
    {"floatSlice", "{ .floats }", T, "[1,2.2,3.3,4]", OK},
    {"floatSliceIndex", "{ .floats[0] }", T, "1", OK},
    {"floatSliceIndexReverse", "{ .floats[-2] }", T, "3.3", OK},
    {"floatSubSliceFirst2", "{ .floats[0:2] }", T, "1 2.2", OK},
    {"floatSubSliceFirst2Alt", "{ .floats[:2] }", T, "1 2.2", OK},
    {"floatSubSliceStep2", "{ .floats[:4:2] }", T, "1 3.3", OK},
    {"stringSlice", "{ .strings }", T,
     "[\"one\",\"two\",\"three\",\"four\"]", OK},
    {"stringSliceIndex", "{ .strings[0] }", T, "one", OK},
    {"stringSliceIndexReverse", "{ .strings[-2] }", T, "three", OK},
    {"stringSubSliceFirst2", "{ .strings[0:2] }", T, "one two", OK},
    {"stringSubSliceFirst2Alt", "{ .strings[:2] }", T, "one two", OK},
    {"stringSubSliceStep2", "{ .strings[:4:2] }", T, "one three", OK},
    {"interfaceSlice", "{ .interfaces }", T, "[true,\"one\",1,1.1]", OK},
    {"interfaceSliceIndex", "{ .interfaces[0] }", T, "true", OK},
    {"interfaceSliceIndexReverse", "{ .interfaces[-2] }", T, "1", OK},
    {"interfaceSubSliceFirst2", "{ .interfaces[0:2] }", T, "true one", OK},
    {"interfaceSubSliceFirst2Alt", "{ .interfaces[:2] }", T, "true one", OK},
    {"interfaceSubSliceStep2", "{ .interfaces[:4:2] }", T, "true 1", OK},
    {"mapSlice", "{ .maps }", T, "[" M1 "," M2 "," M3 "," M4 "]", OK},
    {"mapSliceIndex", "{ .maps[0] }", T, M1, OK},
    {"mapSliceIndexReverse", "{ .maps[-2] }", T, M3, OK},
    {"mapSubSliceFirst2", "{ .maps[0:2] }", T, M1 " " M2, OK},
    {"mapSubSliceFirst2Alt", "{ .maps[:2] }", T, M1 " " M2, OK},
    {"mapSubSliceStepOdd", "{ .maps[::2] }", T, M1 " " M3, OK},
    {"mapSubSliceStepEven", "{ .maps[1::2] }", T, M2 " " M4, OK},
    {"structSlice", "{ .structs }", T, "[" S1 "," S2 "," S3 "," S4 "]", OK},
    {"structSliceIndex", "{ .structs[0] }", T, S1, OK},
    {"structSliceIndexReverse", "{ .structs[-2] }", T, S3, OK},
    {"structSubSliceFirst2", "{ .structs[0:2] }", T, S1 " " S2, OK},
    {"structSubSliceFirst2Alt", "{ .structs[:2] }", T, S1 " " S2, OK},
    {"structSubSliceStepOdd", "{ .structs[::2] }", T, S1 " " S3, OK},
    {"structSubSliceStepEven", "{ .structs[1::2] }", T, S2 " " S4, OK},
};

/* the store struct of TestStructInput, fields in declaration order */
static const char store_json[] =
    "{\"Book\": ["
    "{\"Category\": \"reference\", \"Author\": \"Nigel Rees\","
    " \"Title\": \"Sayings of the Centurey\", \"Price\": 8.95},"
    "{\"Category\": \"fiction\", \"Author\": \"Evelyn Waugh\","
    " \"Title\": \"Sword of Honour\", \"Price\": 12.99},"
    "{\"Category\": \"fiction\", \"Author\": \"Herman Melville\","
    " \"Title\": \"Moby Dick\", \"Price\": 8.99}],"
    " \"Bicycle\": [{\"Color\": \"red\", \"Price\": 19.95, \"IsNew\": true},"
    "  {\"Color\": \"green\", \"Price\": 20.01, \"IsNew\": false}],"
    " \"Name\": \"jsonpath\","
    " \"Labels\": {\"engieer\": 10, \"web/html\": 15, \"k8s-app\": 20},"
    " \"Employees\": {\"jason\": \"manager\", \"dan\": \"clerk\"}}";

#define ST store_json
#define RED "{\"Color\":\"red\",\"IsNew\":true,\"Price\":19.95}"
#define GREEN "{\"Color\":\"green\",\"IsNew\":false,\"Price\":20.01}"
#define MOBY "{\"Author\":\"Herman Melville\",\"Category\":\"fiction\"," \
    "\"Price\":8.99,\"Title\":\"Moby Dick\"}"

/* TestStructInput (storeTests), allowMissingKeys false */
static const struct row store_rows[] = {
    {"plain", "hello jsonpath", "null", "hello jsonpath", OK},
    {"recursive", "{..}", "[1, 2, 3]", "[1,2,3]", OK},
    {"filter", "{[?(@<5)]}", "[2, 6, 3, 7]", "2 3", OK},
    {"quote", "{\"{\"}", "null", "{", OK},
    {"union", "{[1,3,4]}", "[0, 1, 2, 3, 4]", "1 3 4", OK},
    {"array", "{[0:2]}", "[\"Monday\", \"Tudesday\"]", "Monday Tudesday", OK},
    {"variable", "hello {.Name}", ST, "hello jsonpath", OK},
    {"dict/", "{$.Labels.web/html}", ST, "15", OK},
    {"dict/", "{$.Employees.jason}", ST, "manager", OK},
    {"dict/", "{$.Employees.dan}", ST, "clerk", OK},
    {"dict-", "{.Labels.k8s-app}", ST, "20", OK},
    {"nest", "{.Bicycle[*].Color}", ST, "red green", OK},
    {"allarray", "{.Book[*].Author}", ST,
     "Nigel Rees Evelyn Waugh Herman Melville", OK},
    {"allfields", "{range .Bicycle[*]}{ \"{\" }{ @.* }{ \"} \" }{end}", ST,
     "{red 19.95 true} {green 20.01 false} ", OK},
    {"recurfields", "{..Price}", ST, "8.95 12.99 8.99 19.95 20.01", OK},
    {"recurdotfields", "{...Price}", ST, "8.95 12.99 8.99 19.95 20.01", OK},
    {"superrecurfields",
     "{............................................................Price}",
     ST, "", ERR},
    {"allstructsSlice", "{.Bicycle}", ST, "[" RED "," GREEN "]", OK},
    {"allstructs", "{range .Bicycle[*]}{ @ }{ \" \" }{end}", ST,
     RED " " GREEN " ", OK},
    {"lastarray", "{.Book[-1:]}", ST, MOBY, OK},
    {"recurarray", "{..Book[2]}", ST, MOBY, OK},
    {"bool", "{.Bicycle[?(@.IsNew==true)]}", ST, RED, OK},
};

/* TestStructInput (missingKeyTests), allowMissingKeys true */
static const struct row missing_rows[] = {
    {"nonexistent field", "{.hello}", ST, "", OK},
    {"nonexistent field 2", "before-{.hello}after", ST, "before-after", OK},
};

/* TestStructInput (failStoreTests): the error texts */
static const struct row fail_rows[] = {
    {"invalid identifier", "{hello}", ST, "unrecognized identifier hello",
     ERR},
    {"nonexistent field", "{.hello}", ST, "hello is not found", ERR},
    /* upstream: map[string]int (a typed Go map) */
    {"invalid array", "{.Labels[0]}", ST,
     "map[string]interface {} is not array or slice", ERR},
    {"invalid filter operator", "{.Book[?(@.Price<>10)]}", ST,
     "unrecognized filter operator <>", ERR},
    {"redundant end", "{range .Labels.*}{@}{end}{end}", ST,
     "not in range, nothing to end", ERR},
};

static const char points_json[] =
    "[{\"id\": \"i1\", \"x\":4, \"y\":-5},"
    " {\"id\": \"i2\", \"x\":-2, \"y\":-5, \"z\":1},"
    " {\"id\": \"i3\", \"x\":  8, \"y\":  3 },"
    " {\"id\": \"i4\", \"x\": -6, \"y\": -1 },"
    " {\"id\": \"i5\", \"x\":  0, \"y\":  2, \"z\": 1 },"
    " {\"id\": \"i6\", \"x\":  1, \"y\":  4 }]";

/* TestJSONInput */
static const struct row points_rows[] = {
    {"exists filter", "{[?(@.z)].id}", points_json, "i2 i5", OK},
    {"bracket key", "{[0]['id']}", points_json, "i1", OK},
};

static const char nodes_json[] =
    "{\"kind\": \"List\", \"items\":["
    "{\"kind\":\"None\", \"metadata\":{\"name\":\"127.0.0.1\","
    "  \"labels\":{\"kubernetes.io/hostname\":\"127.0.0.1\"}},"
    " \"status\":{\"capacity\":{\"cpu\":\"4\"}, \"ready\": true,"
    "  \"addresses\":[{\"type\": \"LegacyHostIP\","
    "   \"address\":\"127.0.0.1\"}]}},"
    "{\"kind\":\"None\", \"metadata\":{\"name\":\"127.0.0.2\","
    "  \"labels\":{\"kubernetes.io/hostname\":\"127.0.0.2\"}},"
    " \"status\":{\"capacity\":{\"cpu\":\"8\"}, \"ready\": false,"
    "  \"addresses\":[{\"type\": \"LegacyHostIP\", \"address\":\"127.0.0.2\"},"
    "   {\"type\": \"another\", \"address\":\"127.0.0.3\"}]}}],"
    " \"users\":[{\"name\": \"myself\", \"user\": {}},"
    "  {\"name\": \"e2e\", \"user\": {\"username\": \"admin\","
    "   \"password\": \"secret\"}}]}";

#define N nodes_json

/* TestKubernetes (nodesTests, and randomPrintOrderTests in input order) */
static const struct row nodes_rows[] = {
    {"range item", "{range .items[*]}{.metadata.name}, {end}{.kind}", N,
     "127.0.0.1, 127.0.0.2, List", OK},
    {"range item with quote",
     "{range .items[*]}{.metadata.name}{\"\\t\"}{end}", N,
     "127.0.0.1\t127.0.0.2\t", OK},
    {"range addresss", "{.items[*].status.addresses[*].address}", N,
     "127.0.0.1 127.0.0.2 127.0.0.3", OK},
    {"double range", "{range .items[*]}{range .status.addresses[*]}"
     "{.address}, {end}{end}", N, "127.0.0.1, 127.0.0.2, 127.0.0.3, ", OK},
    {"item name", "{.items[*].metadata.name}", N, "127.0.0.1 127.0.0.2", OK},
    {"union nodes capacity",
     "{.items[*]['metadata.name', 'status.capacity']}", N,
     "127.0.0.1 127.0.0.2 {\"cpu\":\"4\"} {\"cpu\":\"8\"}", OK},
    {"range nodes capacity",
     "{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}", N,
     "[127.0.0.1, {\"cpu\":\"4\"}] [127.0.0.2, {\"cpu\":\"8\"}] ", OK},
    {"user password", "{.users[?(@.name==\"e2e\")].user.password}", N,
     "secret", OK},
    {"hostname", "{.items[0].metadata.labels.kubernetes\\.io/hostname}", N,
     "127.0.0.1", OK},
    {"hostname filter", "{.items[?(@.metadata.labels.kubernetes\\.io/"
     "hostname==\"127.0.0.1\")].kind}", N, "None", OK},
    {"bool item", "{.items[?(@..ready==true)].metadata.name}", N,
     "127.0.0.1", OK},
    {"recursive name", "{..name}", N, "127.0.0.1 127.0.0.2 myself e2e", OK},
};

/* TestEmptyRange, allowMissingKeys true */
static const struct row empty_rows[] = {
    {"empty range", "{range .items[*]}{.metadata.name}{end}",
     "{\"items\":[]}", "", OK},
    {"empty nested range", "{range .items[*]}{.metadata.name}{\":\"}"
     "{range @.spec.containers[*]}{.name}{\",\"}{end}{\"+\"}{end}",
     "{\"items\":[]}", "", OK},
};

static const char nested_json[] =
    "{\"items\": [{\"metadata\": {\"name\": \"pod1\"}, \"spec\": "
    "{\"containers\": [{\"name\": \"foo\", \"another\": [{\"name\": "
    "\"value1\"}, {\"name\": \"value2\"}]}, {\"name\": \"bar\", \"another\": "
    "[{\"name\": \"value1\"}, {\"name\": \"value2\"}]}]}}, {\"metadata\": "
    "{\"name\": \"pod2\"}, \"spec\": {\"containers\": [{\"name\": \"baz\", "
    "\"another\": [{\"name\": \"value1\"}, {\"name\": \"value2\"}]}]}}]}";

/* TestNestedRanges */
static const struct row nested_rows[] = {
    {"nested range with a trailing newline",
     "{range .items[*]}{.metadata.name}{\":\"}{range @.spec.containers[*]}"
     "{.name}{\",\"}{end}{\"+\"}{end}", nested_json,
     "pod1:foo,bar,+pod2:baz,+", OK},
    {"nested range with a trailing character within another nested range "
     "with a trailing newline",
     "{range .items[*]}{.metadata.name}{\"~\"}{range @.spec.containers[*]}"
     "{.name}{\":\"}{range @.another[*]}{.name}{\",\"}{end}{\"+\"}{end}"
     "{\"#\"}{end}", nested_json,
     "pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#",
     OK},
    {"two nested ranges at the same level with a trailing newline",
     "{range .items[*]}{.metadata.name}{\"\\t\"}"
     "{range @.spec.containers[*]}{.name}{\" \"}{end}{\"\\t\"}"
     "{range @.spec.containers[*]}{.name}{\" \"}{end}{\"\\n\"}{end}",
     nested_json, "pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n", OK},
};

static const char annotations_json[] =
    "{\"kind\": \"List\", \"items\": ["
    "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"pod1\","
    " \"annotations\": {\"color\": \"blue\"}}},"
    "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"pod2\"}},"
    "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"pod3\","
    " \"annotations\": {\"color\": \"green\"}}},"
    "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"pod4\","
    " \"annotations\": {\"color\": \"blue\"}}}]}";

#define BLUE "{.items[?(@.metadata.annotations.color==\"blue\")]." \
    "metadata.name}"

/* TestFilterPartialMatchesSometimesMissingAnnotations: allow, then not */
static const struct row partial_allow_rows[] = {
    {"filter, should only match a subset, some items don't have "
     "annotations, tolerate missing items", BLUE, annotations_json,
     "pod1 pod4", OK},
};
static const struct row partial_strict_rows[] = {
    {"filter, should only match a subset, some items don't have "
     "annotations, error on missing items", BLUE, annotations_json, "", ERR},
};

static const char four_json[] =
    "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"spec\": {\"containers\": ["
    "{\"image\": \"radial/busyboxplus:curl\", \"name\": \"fake0\"},"
    "{\"image\": \"radial/busyboxplus:curl\", \"name\": \"fake1\"},"
    "{\"image\": \"radial/busyboxplus:curl\", \"name\": \"fake2\"},"
    "{\"image\": \"radial/busyboxplus:curl\", \"name\": \"fake3\"}]}}";

#define F four_json

/* TestNegativeIndex */
static const struct row negative_rows[] = {
    {"test containers[0], it equals containers[0]",
     "{.spec.containers[0].name}", F, "fake0", OK},
    {"test containers[0:0], it equals the empty set",
     "{.spec.containers[0:0].name}", F, "", OK},
    {"test containers[0:-1], it equals containers[0:3]",
     "{.spec.containers[0:-1].name}", F, "fake0 fake1 fake2", OK},
    {"test containers[-1:0], expect error",
     "{.spec.containers[-1:0].name}", F, "", ERR},
    {"test containers[-1], it equals containers[3]",
     "{.spec.containers[-1].name}", F, "fake3", OK},
    {"test containers[-1:], it equals containers[3:]",
     "{.spec.containers[-1:].name}", F, "fake3", OK},
    {"test containers[-2], it equals containers[2]",
     "{.spec.containers[-2].name}", F, "fake2", OK},
    {"test containers[-2:], it equals containers[2:]",
     "{.spec.containers[-2:].name}", F, "fake2 fake3", OK},
    {"test containers[-3], it equals containers[1]",
     "{.spec.containers[-3].name}", F, "fake1", OK},
    {"test containers[-4], it equals containers[0]",
     "{.spec.containers[-4].name}", F, "fake0", OK},
    {"test containers[-4:], it equals containers[0:]",
     "{.spec.containers[-4:].name}", F, "fake0 fake1 fake2 fake3", OK},
    {"test containers[-5], expect a error cause it out of bounds",
     "{.spec.containers[-5].name}", F, "", ERR},
    {"test containers[5:5], expect empty set",
     "{.spec.containers[5:5].name}", F, "", OK},
    {"test containers[-5:-5], expect empty set",
     "{.spec.containers[-5:-5].name}", F, "", OK},
    {"test containers[3:1], expect a error cause start index is greater "
     "than end index", "{.spec.containers[3:1].name}", F, "", ERR},
    {"test containers[-1:-2], it equals containers[3:2], expect a error "
     "cause start index is greater than end index",
     "{.spec.containers[-1:-2].name}", F, "", ERR},
};

/* TestRunningPodsJSONPathOutput, allowMissingKeys true */
static const struct row running_rows[] = {
    {"range over pods without selecting the last one",
     "{range .items[?(.status.phase==\"Running\")]}{.metadata.name}"
     "{\" is Running\\n\"}{end}",
     "{\"kind\": \"List\", \"items\": ["
     "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"pod1\"},"
     " \"status\": {\"phase\": \"Running\"}},"
     "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"pod2\"},"
     " \"status\": {\"phase\": \"Running\"}},"
     "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"pod3\"},"
     " \"status\": {\"phase\": \"Running\"}},"
     "{\"resourceVersion\": \"\"}]}",
     "pod1 is Running\npod2 is Running\npod3 is Running\n", OK},
};

static const char six_json[] =
    "{\"spec\": {\"containers\": [{\"name\": \"fake0\"}, {\"name\": "
    "\"fake1\"}, {\"name\": \"fake2\"}, {\"name\": \"fake3\"}, {\"name\": "
    "\"fake4\"}, {\"name\": \"fake5\"}]}}";

#define SX six_json
#define ALL6 "fake0 fake1 fake2 fake3 fake4 fake5"

/* TestStep */
static const struct row step_rows[] = {
    {"test containers[0:], it equals containers[0:6:1]",
     "{.spec.containers[0:].name}", SX, ALL6, OK},
    {"test containers[0:6:], it equals containers[0:6:1]",
     "{.spec.containers[0:6:].name}", SX, ALL6, OK},
    {"test containers[0:6:1]", "{.spec.containers[0:6:1].name}", SX, ALL6,
     OK},
    {"test containers[0:6:0], it errors", "{.spec.containers[0:6:0].name}",
     SX, "", ERR},
    {"test containers[0:6:-1], it errors", "{.spec.containers[0:6:-1].name}",
     SX, "", ERR},
    {"test containers[1:4:2]", "{.spec.containers[1:4:2].name}", SX,
     "fake1 fake3", OK},
    {"test containers[1:4:3]", "{.spec.containers[1:4:3].name}", SX,
     "fake1", OK},
    {"test containers[1:4:4]", "{.spec.containers[1:4:4].name}", SX,
     "fake1", OK},
    {"test containers[0:6:2]", "{.spec.containers[0:6:2].name}", SX,
     "fake0 fake2 fake4", OK},
    {"test containers[0:6:3]", "{.spec.containers[0:6:3].name}", SX,
     "fake0 fake3", OK},
    {"test containers[0:6:5]", "{.spec.containers[0:6:5].name}", SX,
     "fake0 fake5", OK},
    {"test containers[0:6:6]", "{.spec.containers[0:6:6].name}", SX,
     "fake0", OK},
};

static int nrows_run;

/* testJSONPath / testFailJSONPath: one row */
static void
run_row(const struct row *r, bool allow)
{
    struct kp_jsonpath *jp;
    struct kp_buf out;
    cJSON *in = cJSON_Parse(r->input);
    char msg[512] = "";
    int rc;

    nrows_run++;
    if (!in) {
        printf("#   %s: bad input JSON\n", r->name);
        check_test_failed = 1;
        return;
    }
    kp_buf_init(&out);
    jp = kp_jsonpath_parse(r->name, r->tmpl, msg, sizeof(msg));
    rc = jp ? 0 : -1;
    if (jp) {
        kp_jsonpath_allow_missing_keys(jp, allow);
        rc = kp_jsonpath_execute(jp, in, &out, msg, sizeof(msg));
    }
    kp_buf_add(&out, "", 1);
    if (r->want == ERR && rc == 0) {
        printf("#   %s: expected an error, got \"%s\"\n", r->name, out.data);
        check_test_failed = 1;
    } else if (r->want == ERR && r->expect[0] && strcmp(msg, r->expect)) {
        printf("#   %s: error \"%s\", expected \"%s\"\n", r->name, msg,
               r->expect);
        check_test_failed = 1;
    } else if (r->want == OK && rc < 0) {
        printf("#   %s: error %s\n", r->name, msg);
        check_test_failed = 1;
    } else if (r->want == OK && strcmp(out.data, r->expect)) {
        printf("#   %s: got \"%s\", expected \"%s\"\n", r->name, out.data,
               r->expect);
        check_test_failed = 1;
    }
    kp_buf_release(&out);
    kp_jsonpath_free(jp);
    cJSON_Delete(in);
}

#define RUN_ROWS(rows, allow)                                              \
    do {                                                                   \
        size_t i_;                                                         \
        for (i_ = 0; i_ < NELEM(rows); i_++)                               \
            run_row(&(rows)[i_], allow);                                   \
    } while (0)

static void
test_jsonpath__types_input(void)
{
    RUN_ROWS(types_rows, false);
}

static void
test_jsonpath__struct_input(void)
{
    RUN_ROWS(store_rows, false);
    RUN_ROWS(missing_rows, true);
    RUN_ROWS(fail_rows, false);
}

static void
test_jsonpath__json_input(void)
{
    RUN_ROWS(points_rows, false);
}

static void
test_jsonpath__kubernetes(void)
{
    RUN_ROWS(nodes_rows, false);
}

static void
test_jsonpath__empty_range(void)
{
    RUN_ROWS(empty_rows, true);
}

static void
test_jsonpath__nested_ranges(void)
{
    RUN_ROWS(nested_rows, false);
}

static void
test_jsonpath__filter_partial_matches_sometimes_missing_annotations(void)
{
    RUN_ROWS(partial_allow_rows, true);
    RUN_ROWS(partial_strict_rows, false);
}

static void
test_jsonpath__negative_index(void)
{
    RUN_ROWS(negative_rows, false);
}

static void
test_jsonpath__running_pods_jsonpath_output(void)
{
    RUN_ROWS(running_rows, true);
}

static void
test_jsonpath__step(void)
{
    RUN_ROWS(step_rows, false);
}

/* parser_test.go TestParser: the tree in kp_jsonpath_dump's words */
struct parser_row {
    const char *name;
    const char *text;
    const char *nodes;          /* NULL: a parse error */
};

#define OSIMAGE "list | filter(==) | list | field(status) | " \
    "field(nodeInfo) | field(osImage) | list | "

static const struct parser_row parser_rows[] = {
    {"plain", "hello jsonpath", "text(hello jsonpath)"},
    {"variable", "hello {.jsonpath}",
     "text(hello ) | list | field(jsonpath)"},
    {"arrayfiled", "hello {['jsonpath']}",
     "text(hello ) | list | field(jsonpath)"},
    {"quote", "{\"{\"}", "list | text({)"},
    {"array", "{[1:3]}", "list | array(1,3,_)"},
    {"allarray", "{.book[*].author}",
     "list | field(book) | array(_,_,_) | field(author)"},
    {"wildcard", "{.bicycle.*}", "list | field(bicycle) | *"},
    {"filter", "{[?(@.price<3)]}",
     "list | filter(<) | list | field(price) | list | int(3)"},
    {"recursive", "{..}", "list | .."},
    {"recurField", "{..price}", "list | .. | field(price)"},
    {"arraydict", "{['book.price']}", "list | field(book) | field(price)"},
    {"union", "{['bicycle.price', 3, 'book.price']}",
     "list | union | list | field(bicycle) | field(price) | list | "
     "array(3,4d,_) | list | field(book) | field(price)"},
    {"range", "{range .items}{.name},{end}",
     "list | ident(range) | field(items) | list | field(name) | text(,) | "
     "list | ident(end)"},
    {"malformat input", "{\\\\\\}", NULL},
    {"paired parentheses in quotes",
     "{[?(@.status.nodeInfo.osImage == \"()\")]}", OSIMAGE "text(())"},
    {"paired parentheses in double quotes and with double quotes escape",
     "{[?(@.status.nodeInfo.osImage == \"(\\\"\\\")\")]}",
     OSIMAGE "text((\"\"))"},
    {"unregular parentheses in double quotes",
     "{[?(@.test == \"())(\")]}",
     "list | filter(==) | list | field(test) | list | text(())()"},
    {"plain text in single quotes",
     "{[?(@.status.nodeInfo.osImage == 'Linux')]}", OSIMAGE "text(Linux)"},
    {"test filter suffix",
     "{[?(@.status.nodeInfo.osImage == \"{[()]}\")]}",
     OSIMAGE "text({[()]})"},
    {"double inside single", "{[?(@.status.nodeInfo.osImage == \"''\")]}",
     OSIMAGE "text('')"},
    {"single inside double", "{[?(@.status.nodeInfo.osImage == '\"\"')]}",
     OSIMAGE "text(\"\")"},
    {"single containing escaped single",
     "{[?(@.status.nodeInfo.osImage == '\\\\\\'')]}", OSIMAGE "text(\\')"},
    {"negative index slice, equals a[len-5] to a[len-1]", "{[-5:]}",
     "list | array(-5,_,_)"},
    {"negative index slice, equals a[len-1]", "{[-1]}",
     "list | array(-1,0d,_)"},
    {"negative index slice, equals a[1] to a[len-1]", "{[1:-1]}",
     "list | array(1,-1,_)"},
};

static void
test_jsonpath__parser(void)
{
    size_t i;

    for (i = 0; i < NELEM(parser_rows); i++) {
        const struct parser_row *r = &parser_rows[i];
        char msg[512];
        struct kp_jsonpath *jp = kp_jsonpath_parse(r->name, r->text, msg,
                                                   sizeof(msg));
        struct kp_buf b;

        nrows_run++;
        if (!jp) {
            if (r->nodes) {
                printf("#   %s: parse error %s\n", r->name, msg);
                check_test_failed = 1;
            }
            continue;
        }
        kp_buf_init(&b);
        kp_jsonpath_dump(jp, &b);
        kp_buf_add(&b, "", 1);
        if (!r->nodes || strcmp(b.data, r->nodes)) {
            printf("#   %s: got \"%s\", expected \"%s\"\n", r->name, b.data,
                   r->nodes ? r->nodes : "an error");
            check_test_failed = 1;
        }
        kp_buf_release(&b);
        kp_jsonpath_free(jp);
    }
}

/* parser_test.go TestFailParser */
static void
test_jsonpath__fail_parser(void)
{
    static const struct {
        const char *name, *text, *err;
    } rows[] = {
        {"unclosed action", "{.hello", "unclosed action"},
        {"unrecognized character", "{*}",
         "unrecognized character in action: U+002A '*'"},
        {"invalid number", "{+12.3.0}", "cannot parse number +12.3.0"},
        {"unterminated array", "{[1}", "unterminated array"},
        {"unterminated filter", "{[?(.price]}", "unterminated filter"},
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        char msg[512] = "nil";
        struct kp_jsonpath *jp = kp_jsonpath_parse(rows[i].name,
                                                   rows[i].text, msg,
                                                   sizeof(msg));

        nrows_run++;
        kp_jsonpath_free(jp);
        CHECK_EQ_STR(jp ? "nil" : msg, rows[i].err);
    }
}

/*
 * Not an upstream row: in an exists filter an error is no error, and
 * evalArray hands back its input with one, so an out-of-range index
 * counts as present (while a missing field does not).
 */
static void
test_jsonpath__exists_filter_counts_what_a_failed_step_returns(void)
{
    static const struct row rows[] = {
        {"out of range", "{[?(@.a[3])].id}",
         "[{\"id\": \"x\", \"a\": [1]}, {\"id\": \"y\"}]", "x", OK},
        {"missing field", "{[?(@.b)].id}",
         "[{\"id\": \"x\", \"a\": [1]}, {\"id\": \"y\", \"b\": 0}]", "y",
         OK},
    };

    RUN_ROWS(rows, false);
    nrows_run -= (int)NELEM(rows);
}

/*
 * Not an upstream row: a JSON null prints "null", as kubectl v1.32 prints
 * it (kubernetes/kubernetes PR #119883), where fmt.Sprint gave "<nil>";
 * a null inside an object or list was JSON already.  An exists filter
 * keeps a member whose value is null, as kubectl's does.
 */
static void
test_jsonpath__null_prints_null_as_kubectl_1_32(void)
{
    static const struct row rows[] = {
        {"null member", "{.a}", "{\"a\": null}", "null", OK},
        {"null in a wildcard", "{.p[*].n}",
         "{\"p\": [{\"n\": null}, {\"n\": \"x\"}]}", "null x", OK},
        {"null in a range", "{range .p[*]}{.n}{\";\"}{end}",
         "{\"p\": [{\"n\": null}, {\"n\": \"x\"}]}", "null;x;", OK},
        {"null inside an object", "{.p[0]}",
         "{\"p\": [{\"n\": null}]}", "{\"n\":null}", OK},
        {"exists keeps a null", "{.p[?(@.n)].i}",
         "{\"p\": [{\"i\": 1, \"n\": null}, {\"i\": 2}]}", "1", OK},
    };

    RUN_ROWS(rows, false);
    nrows_run -= (int)NELEM(rows);
}

int
main(void)
{
    RUN(test_jsonpath__types_input);
    RUN(test_jsonpath__struct_input);
    RUN(test_jsonpath__json_input);
    RUN(test_jsonpath__kubernetes);
    RUN(test_jsonpath__empty_range);
    RUN(test_jsonpath__nested_ranges);
    RUN(test_jsonpath__filter_partial_matches_sometimes_missing_annotations);
    RUN(test_jsonpath__negative_index);
    RUN(test_jsonpath__running_pods_jsonpath_output);
    RUN(test_jsonpath__step);
    RUN(test_jsonpath__parser);
    RUN(test_jsonpath__fail_parser);
    RUN(test_jsonpath__exists_filter_counts_what_a_failed_step_returns);
    RUN(test_jsonpath__null_prints_null_as_kubectl_1_32);
    printf("# %d upstream rows\n", nrows_run);
    return check_done();
}
