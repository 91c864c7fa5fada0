# common.bash - what every tests/cli/*.bats file starts with.  Load it
# first:
#     load '../helpers/common'
# It sets up bats (1.5 or later, bats-support, bats-assert), ROOT (the
# repository) and KP (the binary under test: $KP_BIN, else
# build/kubectl-preempt), and gives need().

bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
KP="${KP_BIN:-$ROOT/build/kubectl-preempt}"

# need TOOL...: skip this test (or, in setup_file, the file's tests),
# saying which tool is missing, unless every TOOL is on PATH.  A test
# that runs jq, kubectl or python3 calls it first, so that a machine
# without one shows "# SKIP jq is not installed" rather than a failure
# (tests/run lists the skips).
need() {
    local t
    for t in "$@"; do
        command -v "$t" >/dev/null 2>&1 ||
            skip "$t is not installed (this test needs it)"
    done
}
