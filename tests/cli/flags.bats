#!/usr/bin/env bats
# flags.bats - the command line: --help, --version, usage errors, and the
# man page and completion scripts that go with the flag table.
#
# The flags are read from --help (generated from kp_flags[] in
# cmd/options.c), so a flag added there without its man page entry, or
# missing from a completion script, fails here; the checked-in scripts
# must equal what `kubectl-preempt completion SHELL` prints, so they
# cannot drift.  Regenerate them with
#     build/kubectl-preempt completion bash > completions/kubectl-preempt.bash
#     build/kubectl-preempt completion zsh > completions/_kubectl-preempt
#     build/kubectl-preempt completion fish > completions/kubectl-preempt.fish
#
# Completion is exercised against a fake kubectl that logs its arguments
# and answers like a small cluster.  KP_BIN overrides the binary under
# test (default build/kubectl-preempt).

load '../helpers/common'

KP="$(cd "$(dirname "$KP")" && pwd)/$(basename "$KP")"
MAN="$ROOT/man/kubectl-preempt.1"
COMP="$ROOT/completions"
CLUSTER="$ROOT/examples/cluster.json"

setup() {
    BIN="$BATS_TEST_TMPDIR/bin"
    KLOG="$BATS_TEST_TMPDIR/kubectl.log"
    mkdir -p "$BIN"
    ln -sf "$KP" "$BIN/kubectl-preempt"
    cat >"$BIN/kubectl" <<'EOF'
#!/bin/sh
# fake kubectl: log the arguments, answer like a small cluster
printf '%s\n' "$*" >>"$KLOG"
case "$*" in
*"get namespaces"*) printf 'default\nkube-system\nprod\n' ;;
*"config view"*contexts*) printf 'kind-dev\narn:aws:eks:eu-west-1:1:cluster/prod\n' ;;
*"get pods"*--all-namespaces*) printf 'prod/api-0\nbatch/job-1\n' ;;
*"get pods"*--namespace=prod*{.metadata.namespace}*) printf 'prod/api-0\n' ;;
*"get pods"*--namespace=prod*) printf 'api-0\napi-1\n' ;;
*"get pods"*) printf 'web-0\n' ;;
esac
EOF
    chmod +x "$BIN/kubectl"
    export KLOG
    export PATH="$BIN:$PATH"
}

# The left column of --help, one flag per line: "-f, --filename FILE".
help_flags() {
    "$KP" --help | awk -F '  +' '$2 ~ /^-/ { print $2 }'
}

# Every spelling of every flag of --help, one per line: --filename, -f.
help_spellings() {
    help_flags | grep -oE -- '-{1,2}[A-Za-z][A-Za-z-]*'
}

# man_tags SECTION: the tag of each .TP of that section of the man page,
# fonts and escapes removed: "-f, --filename FILE".
man_tags() {
    awk -v sec="$1" '/^\.SH / { in_sec = ($2 == sec) }
         in_sec && tp { print; tp = 0; next }
         in_sec && /^\.TP/ { tp = 1 }' "$MAN" |
        sed 's/\\f[BIRP]//g; s/\\-/-/g'
}

# The commands of the usage lines of --help: explain, completion.
help_commands() {
    "$KP" --help | sed -n '/^Usage:/,/^$/p' |
        awk '{ i = $1 == "Usage:" ? 3 : 2 } $i != "" && $i !~ /^\[/ { print $i }'
}

# The values FLAG allows, from the flag table, one per line.
flag_values() {
    "$KP" completion args | awk -v f="$1" '$1 == f && $3 == "values" {
        for (i = 5; i <= NF; i++) print $i }'
}

# bash_complete LINE: what the bash script offers for LINE, the cursor at
# its end, one candidate per line.
bash_complete() {
    bash -c 'source <(kubectl-preempt completion bash) || exit 1
        COMP_LINE=$1
        COMP_POINT=${#1}
        read -ra COMP_WORDS <<<"$1"
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _kubectl_preempt
        printf "%s\n" "${COMPREPLY[@]}"' _ "$1"
}

@test "--help lists every flag of the man page, and the man page every flag of --help" {
    run diff <(help_flags | sort) <(man_tags OPTIONS | sort)
    assert_success
    assert_output ''
    [ "$(help_flags | wc -l)" -ge 20 ]
}

@test "the man page names every value of -o, --mode and --fail-on" {
    local flag kind values v missing=''
    while read -r flag _ kind _ values; do
        [ "$kind" = values ] || continue
        for v in $values; do
            grep -qE "^\.BR? ${v//-/\\\\-}( |\$)" "$MAN" ||
                missing+=" $flag:$v"
        done
    done < <("$KP" completion args)
    assert_equal "$missing" ''
}

@test "every flag of --help is in each completion script" {
    local s missing=''
    for s in $(help_spellings); do
        grep -qE -- "(^|[ (])$s( |\$|\))" "$COMP/kubectl-preempt.bash" ||
            missing+=" bash:$s"
        case $s in
        --*) grep -qE -- "(\\{|^ *|,|')$s[]=[}']" "$COMP/_kubectl-preempt" ||
                 missing+=" zsh:$s"
             grep -qE -- "-l ${s#--}( |\$)" "$COMP/kubectl-preempt.fish" ||
                 missing+=" fish:$s" ;;
        *) grep -qE -- "\\{$s[+,]" "$COMP/_kubectl-preempt" ||
               missing+=" zsh:$s"
           grep -qE -- "-s ${s#-} " "$COMP/kubectl-preempt.fish" ||
               missing+=" fish:$s" ;;
        esac
    done
    assert_equal "$missing" ''
}

@test "every command of the usage is completed and has its entry in the man page" {
    run diff <(help_commands | sort) <("$KP" completion commands | sort)
    assert_success
    [ "$(help_commands | wc -l)" -ge 1 ]
    run diff <(help_commands | sort) \
             <(man_tags COMMANDS | awk '{ print $1 }' | sort)
    assert_success
}

@test "completion flags prints exactly the flags of --help" {
    run diff <(help_spellings | sort) <("$KP" completion flags | sort)
    assert_success
}

@test "the man page SYNOPSIS is the usage of --help" {
    command -v groff >/dev/null || skip "groff is not installed"
    run diff <("$KP" --help | sed -n '/^Usage:/,/^$/p' |
                   sed 's/^Usage://; s/^ *//; /^$/d') \
             <(groff -man -Tascii -P-cbou "$MAN" |
                   sed -n '/^SYNOPSIS/,/^[A-Z]/p' |
                   sed '/^[A-Z]/d; s/^ *//; /^$/d')
    assert_success
}

@test "the man page renders without groff warnings" {
    command -v groff >/dev/null || skip "groff is not installed"
    run --separate-stderr groff -man -Tutf8 -ww -z "$MAN"
    assert_success
    assert_equal "$stderr" ''
}

@test "the man page carries the version --version prints" {
    run "$KP" --version
    assert_success
    grep -qF "\"${lines[0]}\"" "$MAN"
}

@test "--version prints the name and a version number, then the scheduler and libraries" {
    run --separate-stderr "$KP" --version
    assert_success
    assert_line --index 0 --regexp '^kubectl-preempt [0-9]+\.[0-9]+\.[0-9]+$'
    assert_line --index 1 'kube-scheduler: v1.31 to v1.38'
    assert_line --index 2 --regexp '^cJSON: [0-9]+\.[0-9]+\.[0-9]+$'
    assert_line --index 3 --regexp '^libcurl: libcurl/[0-9]'
    assert_line --index 4 --regexp '^libyaml: [0-9]+\.[0-9]+\.[0-9]+$'
    assert_equal "${#lines[@]}" 5
    assert_equal "$stderr" ''
}

@test "the version command prints what --version prints" {
    run --separate-stderr "$KP" --version
    local want=$output
    run --separate-stderr "$KP" version
    assert_success
    assert_equal "$output" "$want"
    run --separate-stderr "$KP" version extra
    assert_failure 2
    assert_output ''
    assert_equal "$stderr" 'error: unknown command "extra" for "kubectl-preempt version"'
}

@test "--help and -h print the usage on stdout and exit 0" {
    run --separate-stderr "$KP" --help
    assert_success
    assert_line --index 0 'Usage: kubectl-preempt [flags] [POD...]'
    assert_equal "$stderr" ''
    local help=$output
    run "$KP" -h
    assert_output "$help"
}

@test "an unknown flag exits 2 with an error line on stderr and nothing on stdout" {
    run --separate-stderr "$KP" --no-such-flag
    assert_failure 2
    assert_output ''
    assert_equal "${stderr_lines[0]}" "error: unknown flag: --no-such-flag"
    [ "$(grep -c '^error:' <<<"$stderr")" = 1 ]
}

@test "an unknown shorthand exits 2 naming the letter and the word, as pflag" {
    run --separate-stderr "$KP" -f "$CLUSTER" -Ax
    assert_failure 2
    assert_output ''
    assert_equal "$stderr" "error: unknown shorthand flag: 'x' in -Ax"
}

@test "-n=prod, -o=json and -f=FILE read the value after =, as kubectl does" {
    need jq
    run --separate-stderr "$KP" -f="$CLUSTER" -n=prod -o=json
    assert_success
    [ "$(jq -r '[.pods[].namespace] | unique | join(",")' <<<"$output")" = prod ]
    run --separate-stderr "$KP" -f"$CLUSTER" -nprod -ojson
    assert_success
    [ "$(jq -r '[.pods[].namespace] | unique | join(",")' <<<"$output")" = prod ]
}

@test "-v=6, --v=6 and -v 6 set the verbosity and are no unknown flags" {
    local a
    for a in -v=6 --v=6 '-v 6' -v6 -vv --verbose; do
        # shellcheck disable=SC2086
        run --separate-stderr "$KP" -f "$CLUSTER" $a
        assert_success
        assert_line --index 0 --regexp '^NAMESPACE +NAME'
    done
}

@test "flags before the explain command work as after it" {
    need jq
    run --separate-stderr "$KP" -f "$CLUSTER" -o json explain
    assert_success
    local before=$output
    run --separate-stderr "$KP" explain -f "$CLUSTER" -o json
    assert_success
    assert_equal "$output" "$before"
    assert_equal "$(jq -r .kind <<<"$output")" PreemptionHistory
}

@test "live-cluster flags before explain reach the command" {
    run --separate-stderr "$KP" --kubeconfig /nonexistent/kc explain
    assert_failure 1
    assert_output ''
    assert_regex "$stderr" '/nonexistent/kc'
}

@test "pod/NAME, pods/NAME and po/NAME name a pod as NAME does" {
    local a
    run "$KP" -f "$CLUSTER" -n prod checkout-0 -o json
    assert_success
    local want=$output
    for a in pod/checkout-0 pods/checkout-0 po/checkout-0; do
        run "$KP" -f "$CLUSTER" -n prod "$a" -o json
        assert_success
        assert_equal "$output" "$want"
    done
}

@test "-- ends the flags: what follows is a pod" {
    run --separate-stderr "$KP" -f "$CLUSTER" -- -n
    assert_failure 1
    assert_output ''
    assert_equal "$stderr" "error: pod 'default/-n' not found"
}

@test "boolean flags take =true and =false" {
    run "$KP" -f "$CLUSTER" --no-headers=false
    assert_success
    assert_line --index 0 --regexp '^NAMESPACE'
    run "$KP" -f "$CLUSTER" --no-headers=true
    assert_success
    refute_line --regexp '^NAMESPACE'
    run --separate-stderr "$KP" -f "$CLUSTER" --no-headers=maybe
    assert_failure 2
    assert_equal "$stderr" 'error: invalid argument "maybe" for "--no-headers" flag: expected true or false'
}

@test "--fail-on takes a comma-separated list as well as repetition" {
    run "$KP" -f "$CLUSTER" --fail-on unschedulable,pdb-violation
    assert_failure 3
    run "$KP" -f "$CLUSTER" --fail-on unschedulable --fail-on pdb-violation
    assert_failure 3
    run --separate-stderr "$KP" -f "$CLUSTER" --fail-on preemption,evicted
    assert_failure 2
    assert_equal "$stderr" "error: invalid value 'evicted' for --fail-on: expected preemption, pdb-violation, unschedulable, drain-blocked, rollout-blocked, newly-unschedulable, new-preemption, new-pdb-violation or regression"
}

@test "an invalid --mode exits 2 with an error naming the value" {
    run --separate-stderr "$KP" -f "$CLUSTER" --mode fifo
    assert_failure 2
    assert_output ''
    assert_equal "${stderr_lines[0]}" \
        "error: invalid mode 'fifo': expected queue or independent"
}

@test "an invalid --output exits 2 with an error naming the value" {
    run --separate-stderr "$KP" -f "$CLUSTER" -o xml
    assert_failure 2
    assert_output ''
    assert_regex "${stderr_lines[0]}" \
        "^error: invalid output format 'xml': expected table, wide, json"
}

@test "an invalid --fail-on exits 2 with an error naming the value" {
    run --separate-stderr "$KP" -f "$CLUSTER" --fail-on eviction
    assert_failure 2
    assert_output ''
    assert_equal "${stderr_lines[0]}" "error: invalid value 'eviction' for --fail-on: expected preemption, pdb-violation, unschedulable, drain-blocked, rollout-blocked, newly-unschedulable, new-preemption, new-pdb-violation or regression"
}

@test "a flag without its value exits 2 and prints nothing on stdout" {
    run --separate-stderr "$KP" -f "$CLUSTER" -o
    assert_failure 2
    assert_output ''
    assert_equal "${stderr_lines[0]}" "error: flag needs an argument: 'o' in -o"
}

@test "completion with an unknown shell exits 2 with a usage error" {
    run --separate-stderr "$KP" completion tcsh
    assert_failure 2
    assert_output ''
    assert_equal "${stderr_lines[0]}" \
        "error: unknown shell 'tcsh': expected bash, zsh or fish"
}

@test "completion without a shell exits 2 with a usage error" {
    run --separate-stderr "$KP" completion
    assert_failure 2
    assert_output ''
    assert_regex "${stderr_lines[0]}" '^error: .*bash, zsh or fish'
}

@test "the checked-in completion scripts equal the generated ones" {
    run diff <("$KP" completion bash) "$COMP/kubectl-preempt.bash"
    assert_success
    run diff <("$KP" completion zsh) "$COMP/_kubectl-preempt"
    assert_success
    run diff <("$KP" completion fish) "$COMP/kubectl-preempt.fish"
    assert_success
}

@test "completion bash defines a completion function when sourced" {
    run bash -c 'source <(kubectl-preempt completion bash) &&
                 complete -p kubectl-preempt'
    assert_success
    assert_output 'complete -F _kubectl_preempt kubectl-preempt'
}

@test "completion bash is clean under shellcheck" {
    command -v shellcheck >/dev/null || skip "shellcheck is not installed"
    run shellcheck -s bash "$COMP/kubectl-preempt.bash"
    assert_success
}

@test "completion zsh parses" {
    command -v zsh >/dev/null || skip "zsh is not installed"
    run zsh -n "$COMP/_kubectl-preempt"
    assert_success
}

@test "completion fish parses" {
    command -v fish >/dev/null || skip "fish is not installed"
    run fish --no-config -n "$COMP/kubectl-preempt.fish"
    assert_success
}

@test "completion bash completes flags, and the values of -o, --mode and --fail-on" {
    run bash_complete 'kubectl-preempt --out'
    assert_output '--output'
    run bash_complete 'kubectl-preempt -o '
    assert_output "$(flag_values -o)"
    assert_line 'json'
    run bash_complete 'kubectl-preempt --output=w'
    assert_output 'wide'
    run bash_complete 'kubectl-preempt --mode i'
    assert_output 'independent'
    run bash_complete 'kubectl-preempt --fail-on p'
    assert_output $'preemption\npdb-violation'
}

@test "completion bash completes file names for -f" {
    cd "$ROOT"
    run bash_complete 'kubectl-preempt -f examples/clu'
    assert_output 'examples/cluster.json'
}

@test "completion bash completes the shells after completion" {
    run bash_complete 'kubectl-preempt completion '
    assert_output $'bash\nzsh\nfish'
}

@test "completion bash completes the commands first, and flags after explain" {
    run bash_complete 'kubectl-preempt e'
    assert_output 'explain'
    run bash_complete 'kubectl-preempt explain -o w'
    assert_output 'wide'
    run bash_complete 'kubectl-preempt explain -n prod '
    assert_output ''
}

@test "completion bash completes namespaces after -n through kubectl" {
    run bash_complete 'kubectl-preempt --context kind-dev -n '
    assert_output $'default\nkube-system\nprod'
    run cat "$KLOG"
    assert_output --partial '--context=kind-dev get namespaces'
}

@test "completion bash completes pending pods with the -n, --context and --kubeconfig typed" {
    run bash_complete 'kubectl-preempt --context kind-dev --kubeconfig /k/c -n prod a'
    assert_output $'api-0\napi-1'
    run cat "$KLOG"
    assert_output --partial '--context=kind-dev --kubeconfig=/k/c get pods --namespace=prod --field-selector=spec.nodeName=,spec.schedulerName=default-scheduler'
}

@test "completion bash completes NAMESPACE/NAME with -A or a slash" {
    run bash_complete 'kubectl-preempt -A '
    assert_output $'prod/api-0\nbatch/job-1'
    run bash_complete 'kubectl-preempt prod/'
    assert_output 'prod/api-0'
}

@test "completion bash completes the pending pods of the -f snapshot" {
    run bash_complete "kubectl-preempt -f $CLUSTER -n prod s"
    assert_output $'search-0\nsidecar-light'
    [ ! -e "$KLOG" ]
}

@test "completion fish completes the values of -o and pods through kubectl" {
    command -v fish >/dev/null || skip "fish is not installed"
    run fish --no-config -c "source $COMP/kubectl-preempt.fish
        complete -C 'kubectl-preempt -o '
        complete -C 'kubectl-preempt -n prod '"
    assert_success
    assert_line --regexp '^json	'
    assert_line 'api-0'
}

@test "kubectl_complete-preempt answers with candidates and cobra directives" {
    local c="$COMP/kubectl_complete-preempt"
    [ -x "$c" ]
    run "$c" --out
    assert_output $'--output\n:4'
    run "$c" -o ''
    assert_output "$(flag_values -o)"$'\n:4'
    run "$c" --fail-on=pdb
    assert_output $'pdb-violation\n:4'
    run "$c" -f ''
    assert_output ':0'
    run "$c" completion ''
    assert_output $'bash\nzsh\nfish\n:4'
    run "$c" expl
    assert_output $'explain\n:4'
    run "$c" explain --mode ''
    assert_output $'queue\nindependent\n:4'
}

@test "kubectl_complete-preempt completes pending pods with the flags typed" {
    run "$COMP/kubectl_complete-preempt" --context kind-dev -nprod ''
    assert_output $'api-0\napi-1\n:4'
    run cat "$KLOG"
    assert_output --partial '--context=kind-dev get pods --namespace=prod --field-selector=spec.nodeName='
    run "$COMP/kubectl_complete-preempt" -f "$CLUSTER" ''
    assert_line 'prod/checkout-0'
    assert_line --index 5 ':4'
}
