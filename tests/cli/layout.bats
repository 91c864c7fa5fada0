#!/usr/bin/env bats
# layout.bats - issue 28: tests/tools/layout_check holds core/ and cmd/ to
# README's allowed-dependency table ("Who may include whom").  tests/run
# runs it on the tree; here it is shown to fail, naming file, line and
# arrow, on a copy of the tree with a forbidden #include, a table with a
# circle, a module circle, and a file in a folder the table lacks.

load '../helpers/common'

setup() {
    need python3
    T="$BATS_TEST_TMPDIR/tree"
    mkdir -p "$T"
    cp -r "$ROOT/core" "$ROOT/cmd" "$ROOT/README.md" "$T/"
}

@test "layout: the tree as it is passes" {
    run "$ROOT/tests/tools/layout_check" --root "$T"
    assert_success
    assert_line "ok 3 - every #include goes to its own room or one its row allows"
    assert_line "ok 5 - no circle among the modules' #includes"
}

@test "layout: the cluster model including the loader fails, naming the line" {
    sed -i 's|^#include "snapshot.h"$|#include "snapshot.h"\n#include "snapshot_load.h"|' \
        "$T/core/cluster/snapshot.c"
    run "$ROOT/tests/tools/layout_check" --root "$T"
    assert_failure
    assert_line "not ok 3 - every #include goes to its own room or one its row allows"
    assert_line --partial "#   core/cluster/snapshot.c:12 includes snapshot_load.h: core/cluster -> core/load is not in the table"
}

@test "layout: a plugin including the scheduling attempt fails" {
    sed -i '0,/^#include "plugins.h"$/s||#include "plugins.h"\n#include "simulate.h"|' \
        "$T/core/sched/plugins/nodename/node_name.c"
    run "$ROOT/tests/tools/layout_check" --root "$T"
    assert_failure
    assert_line --partial "core/sched/plugins/* -> core/sched is not in the table"
}

@test "layout: a circle in the table fails" {
    sed -i 's#^| `core/util` | |$#| `core/util` | `core/api` |#' "$T/README.md"
    run "$ROOT/tests/tools/layout_check" --root "$T"
    assert_failure
    assert_line "not ok 4 - the table's rooms form floors (no circle)"
    assert_line --partial "#   circle in the table: core/api core/util"
}

@test "layout: two modules of one room including each other fail" {
    # help.c reads options.c's flag table; options.c calling help.c again
    # is the circle command.c was split out to break
    sed -i 's|^#include "options_int.h"$|#include "options_int.h"\n#include "help.h"|' \
        "$T/cmd/options.c"
    run "$ROOT/tests/tools/layout_check" --root "$T"
    assert_failure
    assert_line "not ok 5 - no circle among the modules' #includes"
    assert_line "#   circle: cmd/help cmd/options"
}

@test "layout: a folder the table does not name fails" {
    mkdir -p "$T/core/newroom"
    printf '#include "arena.h"\n' >"$T/core/newroom/x.c"
    run "$ROOT/tests/tools/layout_check" --root "$T"
    assert_failure
    assert_line "#   core/newroom/x.c: no room in README's table"
}

@test "layout: two headers of one name fail" {
    cp "$T/core/util/arena.h" "$T/core/api/arena.h"
    run "$ROOT/tests/tools/layout_check" --root "$T"
    assert_failure
    assert_line "not ok 1 - every header's base name is unique"
    assert_line "#   arena.h: core/api/arena.h core/util/arena.h"
}
