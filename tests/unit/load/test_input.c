/*
 * test_input.c - core/load/input.c: -f as kubectl's resource builder reads it
 * (cli-runtime pkg/resource/visitor.go): JSON or YAML by name or by the
 * first character, directories in lexical order with their extensions,
 * -R, and the errors naming file and document.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "input.h"
#include "tmpdir.h"

#define NODE_JSON(n) "{\"kind\": \"Node\", \"metadata\": {\"name\": \"" n "\"}}"
#define NODE_YAML(n) "kind: Node\nmetadata:\n  name: " n "\n"

static char path[512];

static const char *
at(const char *rel)
{
    snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
    return path;
}

/* Load rel (with -R when recursive) into a new snapshot; the error. */
static int
load(const char *rel, bool recursive, struct kp_snapshot *s,
     struct kp_error *err)
{
    struct kp_input in = {recursive, "", 0, 0};

    kp_snapshot_init(s);
    return kp_input_load(s, &in, at(rel), err);
}

/* The node names of s, space separated. */
static const char *
node_names(const struct kp_snapshot *s)
{
    static char buf[256];
    size_t i, n = 0;

    buf[0] = '\0';
    for (i = 0; i < s->nnodes && n < sizeof(buf); i++)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? " " : "",
                              s->nodes[i]->name);
    return buf;
}

static void
test_input__yaml_by_name_or_first_character(void)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};

    write_text(at("a.yml"), NODE_YAML("y1") "---\n" NODE_YAML("y2"), 0644);
    CHECK_EQ_INT(load("a.yml", false, &s, &err), 0);
    CHECK_EQ_STR(node_names(&s), "y1 y2");
    kp_snapshot_release(&s);
    /* no extension: a YAML document does not start with { [ or " */
    write_text(at("b.txt"), "# c\n" NODE_YAML("y3"), 0644);
    CHECK_EQ_INT(load("b.txt", false, &s, &err), 0);
    CHECK_EQ_STR(node_names(&s), "y3");
    kp_snapshot_release(&s);
    write_text(at("c.txt"), NODE_JSON("j1"), 0644);
    CHECK_EQ_INT(load("c.txt", false, &s, &err), 0);
    CHECK_EQ_STR(node_names(&s), "j1");
    kp_snapshot_release(&s);
}

static void
test_input__yaml_error_names_file_and_document(void)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};
    char want[600];

    write_text(at("bad.yaml"), NODE_YAML("ok") "---\nkind: Node\n"
               "metadata:\n  name: x\nspec:\n  unschedulable: 3\n", 0644);
    CHECK_EQ_INT(load("bad.yaml", false, &s, &err), -1);
    snprintf(want, sizeof(want), "%s: document 2: node 'x': "
             "spec.unschedulable: expected a boolean", at("bad.yaml"));
    CHECK_EQ_STR(err.msg, want);
    kp_snapshot_release(&s);
}

static void
test_input__directory_lexical_order_extensions_and_recursion(void)
{
    struct kp_snapshot s;
    struct kp_error err = {0, ""};

    mkdir(at("d"), 0755);
    mkdir(at("d/sub"), 0755);
    write_text(at("d/b.json"), NODE_JSON("b"), 0644);
    write_text(at("d/a.yaml"), NODE_YAML("a"), 0644);
    write_text(at("d/c.yml"), NODE_YAML("c"), 0644);
    write_text(at("d/logs.txt"), "not a manifest {", 0644);
    write_text(at("d/sub/z.json"), NODE_JSON("z"), 0644);
    /* a FIFO would block: only regular files are read */
    CHECK_EQ_INT(mkfifo(at("d/pipe.json"), 0644), 0);
    CHECK_EQ_INT(load("d", false, &s, &err), 0);
    CHECK_EQ_STR(node_names(&s), "a b c");
    kp_snapshot_release(&s);
    CHECK_EQ_INT(load("d", true, &s, &err), 0);
    CHECK_EQ_STR(node_names(&s), "a b c z");
    kp_snapshot_release(&s);
}

static void
test_input__cluster_info_dump_is_noted(void)
{
    struct kp_snapshot s;
    struct kp_input in = {true, "", 0, 0};
    struct kp_error err = {0, ""};

    mkdir(at("dump"), 0755);
    mkdir(at("dump/prod"), 0755);
    write_text(at("dump/nodes.json"), "{\"kind\": \"NodeList\", \"items\": ["
               NODE_JSON("n1") "]}", 0644);
    write_text(at("dump/prod/pods.json"), "{\"kind\": \"PodList\", "
               "\"items\": []}", 0644);
    kp_snapshot_init(&s);
    CHECK_EQ_INT(kp_input_load(&s, &in, at("dump"), &err), 0);
    CHECK_EQ_STR(in.dump_dir, at("dump"));
    kp_input_warn_missing(&s, &in);
    CHECK_EQ_INT((int)s.nwarnings, 1);
    kp_snapshot_release(&s);
}

int
main(void)
{
    if (tmpdir_make("kp-input") < 0)
        return 2;
    RUN(test_input__yaml_by_name_or_first_character);
    RUN(test_input__yaml_error_names_file_and_document);
    RUN(test_input__directory_lexical_order_extensions_and_recursion);
    RUN(test_input__cluster_info_dump_is_noted);
    tmpdir_remove();
    return check_done();
}
