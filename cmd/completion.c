/*
 * completion.c - "kubectl-preempt completion bash|zsh|fish": completion
 * scripts generated from the flag table (kp_flags[] in options.c), as
 * curl generates its own from its option docs: a new row is completed in
 * every shell without touching this file.
 *
 * What a flag's argument completes to (its kind) comes from its row: no
 * argument, the row's values, file names (arg_name FILE), a kubectl
 * lookup for the flags named in lookups[] below, else a free word.
 * Pod names come from the -f files typed so far (the binary lists the
 * pending pods), else from "kubectl get pods", passed the flags kubectl
 * shares with us (roles[] below).
 *
 * Three hidden modes serve completions/kubectl_complete-preempt, the
 * completer "kubectl preempt <TAB>" runs:
 *     completion flags     every flag, one per line: "--long", then "-s"
 *     completion commands  the commands, one per line
 *     completion names nodes|namespaces FLAG...
 *                          the nodes, or the namespaces (of Namespace
 *                          objects and pods), of the -f files among
 *                          FLAG..., one per line; nothing without -f
 *     completion args      one line per spelling of a flag:
 *                          "FLAG LONG KIND ROLE [VALUE...]", KIND and ROLE
 *                          as in kind_names[] and role_names[] below
 */
#include "completion.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "run.h"
#include "snapshot.h"

enum comp_kind {
    COMP_NONE,          /* the flag takes no argument */
    COMP_WORD,          /* free text: nothing to offer */
    COMP_FILE,
    COMP_VALUES,        /* one of the row's values */
    COMP_NAMESPACE,     /* kubectl get namespaces */
    COMP_CONTEXT,       /* kubectl config view: contexts, clusters, users */
    COMP_CLUSTER,
    COMP_USER,
    COMP_NODE           /* the -f files' nodes, else kubectl get nodes */
};

static const char *const kind_names[] = {
    "none", "word", "file", "values", "namespace", "context", "cluster",
    "user", "node"
};

/* Flags whose argument kubectl can list, by long name. */
static const struct {
    const char *long_name;
    enum comp_kind kind;
} lookups[] = {
    {"namespace", COMP_NAMESPACE},
    {"context", COMP_CONTEXT},
    {"cluster", COMP_CLUSTER},
    {"user", COMP_USER},
    {"cordon", COMP_NODE},
    {"drain", COMP_NODE},
    {"remove-node", COMP_NODE},
    {"add-node", COMP_NODE},
};

/* What the pod and namespace lookups take from a flag typed earlier. */
enum comp_role {
    ROLE_NONE,
    ROLE_NAMESPACE,     /* pods of this namespace */
    ROLE_ALL,           /* pods of every namespace, as NAMESPACE/NAME */
    ROLE_SNAPSHOT,      /* pods of these files, listed by the binary */
    ROLE_PASS,          /* passed on to the binary when it lists them */
    ROLE_SCHEDULER,     /* pods of this scheduler (and passed on) */
    ROLE_KUBECTL        /* a flag kubectl has too: passed on to kubectl */
};

static const char *const role_names[] = {
    "none", "namespace", "all", "snapshot", "pass", "scheduler", "kubectl"
};

static const struct {
    const char *long_name;
    enum comp_role role;
} roles[] = {
    {"namespace", ROLE_NAMESPACE},
    {"all-namespaces", ROLE_ALL},
    {"filename", ROLE_SNAPSHOT},
    {"add", ROLE_PASS},
    {"recursive", ROLE_PASS},
    {"scheduler-name", ROLE_SCHEDULER},
    {"kubeconfig", ROLE_KUBECTL},
    {"context", ROLE_KUBECTL},
    {"cluster", ROLE_KUBECTL},
    {"user", ROLE_KUBECTL},
    {"server", ROLE_KUBECTL},
    {"token", ROLE_KUBECTL},
    {"certificate-authority", ROLE_KUBECTL},
    {"insecure-skip-tls-verify", ROLE_KUBECTL},
    {"request-timeout", ROLE_KUBECTL},
    {"tls-server-name", ROLE_KUBECTL},
    {"client-certificate", ROLE_KUBECTL},
    {"client-key", ROLE_KUBECTL},
    {"username", ROLE_KUBECTL},
    {"password", ROLE_KUBECTL},
    {"as", ROLE_KUBECTL},
    {"as-group", ROLE_KUBECTL},
    {"as-uid", ROLE_KUBECTL},
    {"disable-compression", ROLE_KUBECTL},
};

/*
 * The commands, "kubectl-preempt COMMAND ...": completion takes a shell;
 * the others take the analysis' flags, and their POD arguments are not
 * completed.
 */
static const struct {
    const char *name;
    const char *help;
} commands[] = {
    {"explain", "list past preemptions found in the -f files"},
    {"record", "watch the live cluster into a recording for explain --from"},
    {"version", "print the version, the kube-scheduler releases replayed "
     "and the libraries' versions"},
    {"completion", "print a shell completion script"},
    {"help", "print a command's help"},
};

/* Flags that may be given more than once without taking an argument. */
static const char *const counted[] = {"verbose"};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))


/*
 * The fixed parts of the scripts.  The generated parts go between them:
 * bash: head, flag and command lists, __kubectl_preempt_arg,
 * __kubectl_preempt_note, body; zsh: head, command list,
 * __kubectl_preempt_scan, body, one _arguments spec per flag, tail;
 * fish: head, __kubectl_preempt_arg, __kubectl_preempt_note, body, one
 * "complete" per flag, the commands.
 */

/* The end of each script's opening comment. */
static const char pods_note[] =
    "# Pod names come from the snapshot files typed so far (-f), else "
    "from\n"
    "# the cluster: kubectl get pods, with the -n, -A, --context, "
    "--kubeconfig\n"
    "# (and other cluster flags) typed so far.\n"
    "\n";

static const char *const bash_head[] = {
    "# bash completion for kubectl-preempt\n"
    "#\n"
    "# Generated by 'kubectl-preempt completion bash' from the flag table "
    "in\n"
    "# cmd/options.c; do not edit.  Load it with\n"
    "#     source <(kubectl-preempt completion bash)\n"
    "# or install it as bash-completion/completions/kubectl-preempt.\n",
    pods_note,
    NULL
};

static const char *const bash_body[] = {
    "\n",
    "# __kubectl_preempt_scan WORD...: note the flags among the words "
    "before\n"
    "# the cursor; __kp_want is set when the cursor is on a flag's "
    "argument.\n"
    "__kubectl_preempt_scan()\n"
    "{\n"
    "    local w f v i\n"
    "    while (($#)); do\n"
    "        w=$1\n"
    "        shift\n"
    "        if [[ $w == -- ]]; then\n"
    "            __kp_dashdash=1\n"
    "            return\n"
    "        fi\n"
    "        [[ $w == -?* ]] || continue\n"
    "        if [[ $w == --*=* ]]; then\n"
    "            __kubectl_preempt_note \"${w%%=*}\" \"${w#*=}\"\n"
    "            continue\n"
    "        fi\n"
    "        f=$w\n"
    "        v=\n"
    "        if [[ $w != --* ]]; then\n"
    "            for ((i = 1; i < ${#w}; i++)); do\n"
    "                f=-${w:i:1}\n"
    "                v=${w:i+1}\n"
    "                __kubectl_preempt_arg \"$f\"\n"
    "                [[ $REPLY ]] && break\n"
    "                __kubectl_preempt_note \"$f\" \"\"\n"
    "            done\n"
    "            [[ $REPLY ]] || continue\n"
    "        fi\n"
    "        __kubectl_preempt_arg \"$f\"\n"
    "        if [[ $REPLY && ! $v ]]; then\n"
    "            if ((!$#)); then\n"
    "                __kp_want=$REPLY\n"
    "                return\n"
    "            fi\n"
    "            v=$1\n"
    "            shift\n"
    "        fi\n"
    "        __kubectl_preempt_note \"$f\" \"$v\"\n"
    "    done\n"
    "}\n"
    "\n",
    "# kubectl with the cluster flags typed so far; quiet, and quick to "
    "give up\n"
    "__kubectl_preempt_kubectl()\n"
    "{\n"
    "    kubectl --request-timeout=5s \"${__kp_kubectl[@]}\" \"$@\" "
    "2>/dev/null\n"
    "}\n"
    "\n",
    "# __kubectl_preempt_add CUR PREFIX: add to COMPREPLY each line of "
    "the\n"
    "# input that starts with CUR, PREFIX in front.\n"
    "__kubectl_preempt_add()\n"
    "{\n"
    "    local w\n"
    "    while IFS= read -r w; do\n"
    "        [[ $w && $w == \"$1\"* ]] && COMPREPLY+=(\"$2$w\")\n"
    "    done\n"
    "}\n"
    "\n",
    "# __kubectl_preempt_value KIND CUR [PREFIX]: complete a flag's "
    "argument.\n"
    "__kubectl_preempt_value()\n"
    "{\n"
    "    local kind=$1 cur=$2 pre=$3 nl='{\"\\n\"}{end}'\n"
    "    local -a vals\n"
    "    case $kind in\n"
    "    file)\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        __kubectl_preempt_add \"$cur\" \"$pre\" < <(compgen -f -- "
    "\"$cur\")\n"
    "        ;;\n"
    "    values\\ *)\n"
    "        read -ra vals <<<\"${kind#* }\"\n"
    "        __kubectl_preempt_add \"$cur\" \"$pre\" < <(printf '%s\\n' "
    "\"${vals[@]}\")\n"
    "        ;;\n"
    "    namespace | node)\n"
    "        if [[ $__kp_file ]]; then\n"
    "            [[ $__kp_stdin ]] && return\n"
    "            __kubectl_preempt_add \"$cur\" \"$pre\" < <(\"$__kp_self\" \\\n"
    "                completion names \"${kind}s\" \"${__kp_snap[@]}\" "
    "2>/dev/null)\n"
    "            return\n"
    "        fi\n"
    "        __kubectl_preempt_add \"$cur\" \"$pre\" < "
    "<(__kubectl_preempt_kubectl \\\n"
    "            get \"${kind}s\" -o \"jsonpath={range "
    ".items[*]}{.metadata.name}$nl\")\n"
    "        ;;\n"
    "    context | cluster | user)\n"
    "        __kubectl_preempt_add \"$cur\" \"$pre\" < "
    "<(__kubectl_preempt_kubectl \\\n"
    "            config view -o \"jsonpath={range "
    ".${kind}s[*]}{.name}$nl\")\n"
    "        ;;\n"
    "    esac\n"
    "}\n"
    "\n",
    "# __kubectl_preempt_pods CUR: the pending pods of the snapshot files "
    "typed\n"
    "# so far, else those of the cluster (no node, this scheduler's).\n"
    "__kubectl_preempt_pods()\n"
    "{\n"
    "    local cur=$1 ns=$__kp_ns name='{.metadata.name}' "
    "nl='{\"\\n\"}{end}'\n"
    "    local sel=spec.nodeName=,spec.schedulerName=${__kp_sched:-default-"
    "scheduler}\n"
    "    local -a scope=()\n"
    "    [[ $cur == */* ]] && ns=\n"
    "    if [[ $__kp_file ]]; then\n"
    "        [[ $__kp_stdin ]] && return\n"
    "        # explain: the victims and preemptors of its preemptions\n"
    "        local t='{range .items[*]}{.metadata.namespace} "
    "{.metadata.name}{\"\\n\"}'\n"
    "        [[ $__kp_cmd == explain ]] &&\n"
    "            t+='{.preemptor.namespace} {.preemptor.name}{\"\\n\"}'\n"
    "        __kubectl_preempt_add \"$cur\" \"\" < <(\"$__kp_self\" "
    "${__kp_cmd:+\"$__kp_cmd\"} \\\n"
    "            \"${__kp_snap[@]}\" -o \"jsonpath=$t{end}\" 2>/dev/null |\n"
    "            awk -v ns=\"$ns\" 'NF == 2 && !seen[$0]++ && "
    "(ns == \"\" || $1 == ns) {\n"
    "                print ns == \"\" ? $1 \"/\" $2 : $2 }')\n"
    "        return\n"
    "    fi\n"
    "    if [[ $cur == */* ]]; then\n"
    "        scope=(--namespace=\"${cur%%/*}\")\n"
    "        name='{.metadata.namespace}/{.metadata.name}'\n"
    "    elif [[ $ns ]]; then\n"
    "        scope=(--namespace=\"$ns\")\n"
    "    elif [[ $__kp_all ]]; then\n"
    "        scope=(--all-namespaces)\n"
    "        name='{.metadata.namespace}/{.metadata.name}'\n"
    "    fi\n"
    "    __kubectl_preempt_add \"$cur\" \"\" < "
    "<(__kubectl_preempt_kubectl get pods \\\n"
    "        \"${scope[@]}\" --field-selector=\"$sel\" \\\n"
    "        -o \"jsonpath={range .items[*]}$name$nl\")\n"
    "}\n"
    "\n",
    "# Readline replaces only what follows the last COMP_WORDBREAKS "
    "character\n"
    "# of the word (\"--output=w\", \"arn:aws:...\"): drop what comes "
    "before.\n"
    "__kubectl_preempt_trim()\n"
    "{\n"
    "    local wb=${COMP_WORDBREAKS//[!=:]/} pre i\n"
    "    [[ $wb ]] || return\n"
    "    pre=${1%\"${1##*[\"$wb\"]}\"}\n"
    "    [[ $pre ]] || return\n"
    "    for i in \"${!COMPREPLY[@]}\"; do\n"
    "        COMPREPLY[i]=${COMPREPLY[i]#\"$pre\"}\n"
    "    done\n"
    "}\n"
    "\n",
    "_kubectl_preempt()\n"
    "{\n"
    "    local line=${COMP_LINE:0:COMP_POINT} cur n c REPLY\n"
    "    local __kp_self __kp_want='' __kp_dashdash='' __kp_ns='' "
    "__kp_all=''\n"
    "    local __kp_cmd=''\n"
    "    local __kp_file='' __kp_stdin='' __kp_sched=''\n"
    "    local -a words=() __kp_kubectl=() __kp_snap=()\n"
    "    read -ra words <<<\"$line\"\n"
    "    [[ $line == *[[:space:]] ]] && words+=(\"\")\n"
    "    n=${#words[@]}\n"
    "    ((n >= 2)) || return\n"
    "    cur=${words[n-1]}\n"
    "    __kp_self=${words[0]/#\\~/$HOME}\n"
    "    COMPREPLY=()\n"
    "    for c in \"${__kubectl_preempt_commands[@]}\"; do\n"
    "        ((n > 2)) && [[ ${words[1]} == \"$c\" ]] && __kp_cmd=$c\n"
    "    done\n"
    "    if [[ $__kp_cmd == completion ]]; then\n"
    "        ((n == 3)) && __kubectl_preempt_add \"$cur\" \"\" < <(printf "
    "'%s\\n' \\\n"
    "            bash zsh fish)\n"
    "        return\n"
    "    fi\n"
    "    __kubectl_preempt_scan \"${words[@]:1:n-2}\"\n"
    "    if [[ $__kp_want ]]; then\n"
    "        __kubectl_preempt_value \"$__kp_want\" \"$cur\"\n"
    "    elif [[ ! $__kp_dashdash && $cur == -[!-]=* ]]; then\n"
    "        __kubectl_preempt_arg \"${cur:0:2}\"\n"
    "        [[ $REPLY ]] && __kubectl_preempt_value \"$REPLY\" "
    "\"${cur:3}\" \\\n"
    "            \"${cur:0:3}\"\n"
    "    elif [[ ! $__kp_dashdash && $cur == --*=* ]]; then\n"
    "        __kubectl_preempt_arg \"${cur%%=*}\"\n"
    "        [[ $REPLY ]] && __kubectl_preempt_value \"$REPLY\" "
    "\"${cur#*=}\" \\\n"
    "            \"${cur%%=*}=\"\n"
    "    elif [[ ! $__kp_dashdash && $cur == -* ]]; then\n"
    "        __kubectl_preempt_add \"$cur\" \"\" < <(printf '%s\\n' \\\n"
    "            \"${__kubectl_preempt_flags[@]}\")\n"
    "    else\n"
    "        # explain's pods come from the -f files only\n"
    "        [[ $__kp_cmd && ($__kp_cmd != explain || ! $__kp_file) ]] ||\n"
    "            __kubectl_preempt_pods \"$cur\"\n"
    "        ((n == 2)) && __kubectl_preempt_add \"$cur\" \"\" < <(printf "
    "'%s\\n' \\\n"
    "            \"${__kubectl_preempt_commands[@]}\")\n"
    "    fi\n"
    "    __kubectl_preempt_trim \"$cur\"\n"
    "}\n"
    "\n",
    "complete -F _kubectl_preempt kubectl-preempt\n",
    NULL
};

static const char *const zsh_head[] = {
    "#compdef kubectl-preempt\n"
    "#\n"
    "# zsh completion for kubectl-preempt.  Generated by\n"
    "# 'kubectl-preempt completion zsh' from the flag table in "
    "cmd/options.c;\n"
    "# do not edit.  Install it as _kubectl-preempt in a directory of "
    "$fpath,\n"
    "# or load it after compinit with\n"
    "#     source <(kubectl-preempt completion zsh)\n",
    pods_note,
    "# __kubectl_preempt_opt FLAG...: set reply to the values given to "
    "these\n"
    "# flags on the command line, REPLY to the last; false if none was "
    "given.\n"
    "__kubectl_preempt_opt()\n"
    "{\n"
    "    local k v\n"
    "    reply=()\n"
    "    for k; do\n"
    "        (( ${+opt_args[$k]} )) || continue\n"
    "        v=${opt_args[$k]//\\\\:/$'\\1'}\n"
    "        for v in \"${(@s.:.)v}\"; do\n"
    "            v=${v//$'\\1'/:}\n"
    "            reply+=(\"${v/#\\~/$HOME}\")\n"
    "        done\n"
    "    done\n"
    "    REPLY=${reply[-1]}\n"
    "    (( ${#reply} ))\n"
    "}\n"
    "\n",
    NULL
};

static const char *const zsh_body[] = {
    "\n",
    "# kubectl with the cluster flags typed so far; quiet, and quick to "
    "give up\n"
    "__kubectl_preempt_kubectl()\n"
    "{\n"
    "    local __kp_ns='' __kp_all='' __kp_file='' __kp_stdin='' "
    "__kp_sched=''\n"
    "    local REPLY\n"
    "    local -a __kp_kubectl __kp_snap reply\n"
    "    __kubectl_preempt_scan\n"
    "    # not the flag whose value is being completed (__kp_skip)\n"
    "    kubectl --request-timeout=5s "
    "\"${(@)__kp_kubectl:#--${__kp_skip}=*}\" \\\n"
    "        \"$@\" 2>/dev/null\n"
    "}\n"
    "\n",
    "# __kubectl_preempt_value KIND: complete a flag's argument.\n"
    "__kubectl_preempt_value()\n"
    "{\n"
    "    local __kp_skip=$1\n"
    "    local -a list\n"
    "    local nl='{\"\\n\"}{end}'\n"
    "    case $1 in\n"
    "    namespace | node)\n"
    "        local __kp_ns='' __kp_all='' __kp_file='' __kp_stdin=''\n"
    "        local __kp_sched='' REPLY\n"
    "        local -a __kp_kubectl __kp_snap reply\n"
    "        __kubectl_preempt_scan\n"
    "        if [[ -n $__kp_file ]]; then\n"
    "            [[ -n $__kp_stdin ]] || list=(${(f)\"$(${~words[1]} "
    "completion \\\n"
    "                names ${1}s $__kp_snap 2>/dev/null)\"})\n"
    "        else\n"
    "            list=(${(f)\"$(__kubectl_preempt_kubectl get ${1}s \\\n"
    "                -o \"jsonpath={range "
    ".items[*]}{.metadata.name}$nl\")\"})\n"
    "        fi\n"
    "        ;;\n"
    "    context | cluster | user)\n"
    "        list=(${(f)\"$(__kubectl_preempt_kubectl config view \\\n"
    "            -o \"jsonpath={range .${1}s[*]}{.name}$nl\")\"})\n"
    "        ;;\n"
    "    esac\n"
    "    _wanted $1 expl $1 compadd -a list\n"
    "}\n"
    "\n",
    "# The pending pods of the snapshot files typed so far, else those of "
    "the\n"
    "# cluster (no node, this scheduler's).\n"
    "__kubectl_preempt_pods()\n"
    "{\n"
    "    local __kp_ns='' __kp_all='' __kp_file='' __kp_stdin='' "
    "__kp_sched=''\n"
    "    local REPLY\n"
    "    local -a __kp_kubectl __kp_snap reply pods scope\n"
    "    local ns name='{.metadata.name}' nl='{\"\\n\"}{end}' sel\n"
    "    [[ -n $__kp_cmd ]] && return 1\n"
    "    __kubectl_preempt_scan\n"
    "    sel=spec.nodeName=,spec.schedulerName=${__kp_sched:-default-schedu"
    "ler}\n"
    "    ns=$__kp_ns\n"
    "    [[ $PREFIX == */* ]] && ns=\n"
    "    if [[ -n $__kp_file ]]; then\n"
    "        [[ -n $__kp_stdin ]] && return 1\n"
    "        pods=(${(f)\"$(${~words[1]} $__kp_snap --output=table \\\n"
    "            --no-headers 2>/dev/null | awk -v ns=\"$ns\" \\\n"
    "            'ns == \"\" { print $1 \"/\" $2 } ns != \"\" && $1 == ns "
    "{ print $2 }')\"})\n"
    "    else\n"
    "        if [[ $PREFIX == */* ]]; then\n"
    "            scope=(--namespace=${PREFIX%%/*})\n"
    "            name='{.metadata.namespace}/{.metadata.name}'\n"
    "        elif [[ -n $ns ]]; then\n"
    "            scope=(--namespace=$ns)\n"
    "        elif [[ -n $__kp_all ]]; then\n"
    "            scope=(--all-namespaces)\n"
    "            name='{.metadata.namespace}/{.metadata.name}'\n"
    "        fi\n"
    "        pods=(${(f)\"$(__kubectl_preempt_kubectl get pods $scope \\\n"
    "            --field-selector=$sel -o \"jsonpath={range "
    ".items[*]}$name$nl\")\"})\n"
    "    fi\n"
    "    _wanted pods expl 'pending pod' compadd -a pods\n"
    "}\n"
    "\n",
    "# The first argument: a pod, or a command.\n"
    "__kubectl_preempt_first()\n"
    "{\n"
    "    local ret=1\n"
    "    __kubectl_preempt_pods && ret=0\n"
    "    if (( CURRENT == 2 )) && [[ -z $__kp_cmd ]]; then\n"
    "        _describe -t commands command __kubectl_preempt_commands && "
    "ret=0\n"
    "    fi\n"
    "    return ret\n"
    "}\n"
    "\n",
    "_kubectl-preempt()\n"
    "{\n"
    "    local curcontext=$curcontext state line ret=1 __kp_cmd=''\n"
    "    local -A opt_args\n"
    "    if (( CURRENT > 2 )) && [[ $words[2] == completion ]]; then\n"
    "        (( CURRENT == 3 )) && _wanted shells expl shell compadd bash "
    "zsh fish\n"
    "        return\n"
    "    fi\n"
    "    # another command takes the same flags: complete as if it were "
    "not there\n"
    "    if (( CURRENT > 2 )) &&\n"
    "        (( ${__kubectl_preempt_commands[(I)${(b)words[2]}:*]} )); "
    "then\n"
    "        __kp_cmd=$words[2]\n"
    "        words=(\"$words[1]\" \"${(@)words[3,-1]}\")\n"
    "        (( CURRENT-- ))\n"
    "    fi\n"
    "    _arguments -s -S : \\\n",
    NULL
};

static const char *const zsh_tail[] = {
    "        '1: :__kubectl_preempt_first' \\\n"
    "        '*: :__kubectl_preempt_pods' && ret=0\n"
    "    return ret\n"
    "}\n"
    "\n",
    "if [[ $funcstack[1] == _kubectl-preempt ]]; then\n"
    "    _kubectl-preempt \"$@\"\n"
    "else\n"
    "    compdef _kubectl-preempt kubectl-preempt\n"
    "fi\n",
    NULL
};

static const char *const fish_head[] = {
    "# fish completion for kubectl-preempt.  Generated by\n"
    "# 'kubectl-preempt completion fish' from the flag table in "
    "cmd/options.c;\n"
    "# do not edit.  Load it with\n"
    "#     kubectl-preempt completion fish | source\n"
    "# or install it as ~/.config/fish/completions/kubectl-preempt.fish.\n",
    pods_note,
    NULL
};

static const char *const fish_body[] = {
    "\n",
    "function __kubectl_preempt_scan --description 'Note the flags before "
    "the cursor'\n"
    "    set -g __kp_kubectl\n"
    "    set -g __kp_snap\n"
    "    set -g __kp_ns\n"
    "    set -g __kp_all\n"
    "    set -g __kp_file\n"
    "    set -g __kp_stdin\n"
    "    set -g __kp_sched default-scheduler\n"
    "    set -l t (commandline -opc)\n"
    "    set -e t[1]\n"
    "    while set -q t[1]\n"
    "        set -l w $t[1]\n"
    "        set -e t[1]\n"
    "        test \"$w\" = --; and break\n"
    "        string match -qr -- '^-.' $w; or continue\n"
    "        if string match -q -- '--*=*' $w\n"
    "            set -l kv (string split -m1 = -- $w)\n"
    "            __kubectl_preempt_note $kv[1] $kv[2]\n"
    "            continue\n"
    "        end\n"
    "        set -l f $w\n"
    "        set -l v\n"
    "        set -l k\n"
    "        if not string match -q -- '--*' $w\n"
    "            for i in (seq 2 (string length -- $w))\n"
    "                set f -(string sub -s $i -l 1 -- $w)\n"
    "                set k (__kubectl_preempt_arg $f)\n"
    "                if test -n \"$k\"\n"
    "                    set v (string sub -s (math $i + 1) -- $w)\n"
    "                    break\n"
    "                end\n"
    "                __kubectl_preempt_note $f ''\n"
    "            end\n"
    "            test -n \"$k\"; or continue\n"
    "        end\n"
    "        set k (__kubectl_preempt_arg $f)\n"
    "        if test -n \"$k\"; and test -z \"$v\"\n"
    "            set -q t[1]; or break\n"
    "            set v $t[1]\n"
    "            set -e t[1]\n"
    "        end\n"
    "        __kubectl_preempt_note $f \"$v\"\n"
    "    end\n"
    "end\n"
    "\n",
    "function __kubectl_preempt_kubectl --description 'kubectl with the "
    "cluster flags typed so far'\n"
    "    kubectl --request-timeout=5s $__kp_kubectl $argv 2>/dev/null\n"
    "end\n"
    "\n",
    "function __kubectl_preempt_value --description 'Complete the "
    "argument of a flag'\n"
    "    __kubectl_preempt_scan\n"
    "    set -l nl '{\"\\n\"}{end}'\n"
    "    switch $argv[1]\n"
    "        case namespace node\n"
    "            if test -n \"$__kp_file\"\n"
    "                test -n \"$__kp_stdin\"; and return\n"
    "                set -l self (commandline -opc)[1]\n"
    "                $self completion names $argv[1]s $__kp_snap 2>/dev/null\n"
    "                return\n"
    "            end\n"
    "            __kubectl_preempt_kubectl get $argv[1]s \\\n"
    "                -o \"jsonpath={range .items[*]}{.metadata.name}$nl\"\n"
    "        case context cluster user\n"
    "            __kubectl_preempt_kubectl config view \\\n"
    "                -o \"jsonpath={range .$argv[1]s[*]}{.name}$nl\"\n"
    "    end\n"
    "end\n"
    "\n",
    "function __kubectl_preempt_pods --description 'Pending pods of the "
    "snapshot or the cluster'\n"
    "    __kubectl_preempt_scan\n"
    "    set -l cur (commandline -ct)\n"
    "    set -l ns $__kp_ns\n"
    "    set -l name '{.metadata.name}'\n"
    "    set -l nl '{\"\\n\"}{end}'\n"
    "    set -l scope\n"
    "    string match -q -- '*/*' $cur; and set ns\n"
    "    if test -n \"$__kp_file\"\n"
    "        test -n \"$__kp_stdin\"; and return\n"
    "        set -l self (commandline -opc)[1]\n"
    "        $self $__kp_snap --output=table --no-headers 2>/dev/null | "
    "awk -v ns=\"$ns\" \\\n"
    "            'ns == \"\" { print $1 \"/\" $2 } ns != \"\" && $1 == ns "
    "{ print $2 }'\n"
    "        return\n"
    "    end\n"
    "    if string match -q -- '*/*' $cur\n"
    "        set scope --namespace=(string split -m1 / -- $cur)[1]\n"
    "        set name '{.metadata.namespace}/{.metadata.name}'\n"
    "    else if test -n \"$ns\"\n"
    "        set scope --namespace=$ns\n"
    "    else if test -n \"$__kp_all\"\n"
    "        set scope --all-namespaces\n"
    "        set name '{.metadata.namespace}/{.metadata.name}'\n"
    "    end\n"
    "    __kubectl_preempt_kubectl get pods $scope \\\n"
    "        --field-selector=spec.nodeName=,spec.schedulerName=$__kp_sched"
    " \\\n"
    "        -o \"jsonpath={range .items[*]}$name$nl\"\n"
    "end\n"
    "\n",
    "function __kubectl_preempt_nwords --description 'Count the words "
    "before the cursor'\n"
    "    count (commandline -opc)\n"
    "end\n"
    "\n",
    "function __kubectl_preempt_in --description 'True after one of these "
    "commands'\n"
    "    set -l t (commandline -opc)\n"
    "    contains -- \"$t[2]\" $argv\n"
    "end\n"
    "\n",
    "complete -c kubectl-preempt -e\n"
    "complete -c kubectl-preempt -f\n",
    NULL
};

/* What the flag's argument completes to, from its row of kp_flags[]. */
static enum comp_kind
flag_kind(const struct kp_flag *f)
{
    size_t i;

    if (f->arg != KP_ARG_REQUIRED)
        return COMP_NONE;
    if (f->values)
        return COMP_VALUES;
    if (f->arg_name && strcmp(f->arg_name, "FILE") == 0)
        return COMP_FILE;
    for (i = 0; i < NELEM(lookups); i++)
        if (strcmp(f->long_name, lookups[i].long_name) == 0)
            return lookups[i].kind;
    return COMP_WORD;
}

/* What the pod and namespace lookups take from the flag, if anything. */
static enum comp_role
flag_role(const struct kp_flag *f)
{
    size_t i;

    for (i = 0; i < NELEM(roles); i++)
        if (strcmp(f->long_name, roles[i].long_name) == 0)
            return roles[i].role;
    return ROLE_NONE;
}

/* Whether zsh should offer the flag again once it was given. */
static int
repeatable(const struct kp_flag *f)
{
    size_t i;

    if (strstr(f->help, "repeatable"))
        return 1;
    for (i = 0; i < NELEM(counted); i++)
        if (strcmp(f->long_name, counted[i]) == 0)
            return 1;
    return 0;
}

/* --help and --version stand alone: nothing is offered with them */
static int
alone(const struct kp_flag *f)
{
    return strcmp(f->long_name, "help") == 0 ||
           strcmp(f->long_name, "version") == 0;
}

/* One of the fixed parts of a script below. */
static void
put_text(struct kp_buf *b, const char *const *text)
{
    for (; *text; text++)
        kp_buf_puts(b, *text);
}

/* pre and s in POSIX single quotes (bash, zsh, sh) */
static void
put_sq(struct kp_buf *b, const char *pre, const char *s)
{
    kp_buf_printf(b, "'%s", pre);
    for (; *s; s++) {
        if (*s == '\'')
            kp_buf_puts(b, "'\\''");
        else
            kp_buf_add(b, s, 1);
    }
    kp_buf_puts(b, "'");
}

/* s in fish single quotes: \ and ' take a backslash */
static void
put_fish_sq(struct kp_buf *b, const char *s)
{
    kp_buf_puts(b, "'");
    for (; *s; s++) {
        if (*s == '\'' || *s == '\\')
            kp_buf_puts(b, "\\");
        kp_buf_add(b, s, 1);
    }
    kp_buf_puts(b, "'");
}

/* The flag's spellings, long first, joined by sep: "--output|-o" */
static void
put_spellings(struct kp_buf *b, const struct kp_flag *f, const char *sep)
{
    kp_buf_printf(b, "--%s", f->long_name);
    if (f->short_name)
        kp_buf_printf(b, "%s-%c", sep, f->short_name);
}

/* ---- what the lookups keep, in every shell ---- */

/* A shell's statement on a variable: pre VAR mid VALUE post. */
struct shell_stmt {
    const char *pre, *mid, *post;
};

/*
 * How a shell spells the function that keeps what the pod and namespace
 * lookups need from the flags typed so far (bash and fish
 * __kubectl_preempt_note, zsh __kubectl_preempt_scan): one arm per flag
 * with a role, whose statements put_note_arm() picks by the role.
 */
struct note_syntax {
    const char *head, *tail;    /* the function around the arms */
    void (*open)(struct kp_buf *b, const struct kp_flag *f);
    const char *next;           /* between two statements of an arm */
    const char *close;          /* after its last statement */
    struct shell_stmt set;      /* VAR=VALUE */
    struct shell_stmt append;   /* VAR+=(VALUE) */
    const char *if_stdin;       /* "if the value is - then", before a set */
    const char *value;          /* the flag's value */
    const char *path;           /* a FILE flag's, ~ expanded (NULL: value) */
    const char *values;         /* what __kp_snap takes (NULL: value) */
};

/* VAR and VALUE, or "--FLAG" or "--FLAG=VALUE" when flag is given */
static void
put_stmt(struct kp_buf *b, const struct shell_stmt *st, const char *var,
         const char *flag, const char *value)
{
    kp_buf_printf(b, "%s%s%s", st->pre, var, st->mid);
    if (flag)
        kp_buf_printf(b, "--%s%s", flag, value ? "=" : "");
    kp_buf_printf(b, "%s%s", value ? value : "", st->post);
}

/* one arm: what the lookups keep from the flag f with role r */
static void
put_note_arm(struct kp_buf *b, const struct note_syntax *sx,
             const struct kp_flag *f, enum comp_role r)
{
    const char *v = flag_kind(f) == COMP_FILE && sx->path ? sx->path
                                                          : sx->value;

    sx->open(b, f);
    if (r == ROLE_NAMESPACE) {
        put_stmt(b, &sx->set, "__kp_ns", NULL, v);
    } else if (r == ROLE_ALL) {
        put_stmt(b, &sx->set, "__kp_all", NULL, "1");
    } else if (r == ROLE_PASS && f->arg != KP_ARG_REQUIRED) {
        put_stmt(b, &sx->append, "__kp_snap", f->long_name, NULL);
    } else if (r == ROLE_SNAPSHOT || r == ROLE_PASS) {
        if (r == ROLE_SNAPSHOT) {
            put_stmt(b, &sx->set, "__kp_file", NULL, "1");
            kp_buf_puts(b, sx->next);
        }
        kp_buf_puts(b, sx->if_stdin);
        put_stmt(b, &sx->set, "__kp_stdin", NULL, "1");
        kp_buf_puts(b, sx->next);
        put_stmt(b, &sx->append, "__kp_snap", f->long_name,
                 sx->values ? sx->values : v);
    } else if (r == ROLE_SCHEDULER) {
        put_stmt(b, &sx->set, "__kp_sched", NULL, v);
        kp_buf_puts(b, sx->next);
        put_stmt(b, &sx->append, "__kp_snap", f->long_name, v);
    } else {
        put_stmt(b, &sx->append, "__kp_kubectl", f->long_name,
                 f->arg != KP_ARG_REQUIRED ? NULL : v);
    }
    kp_buf_puts(b, sx->close);
}

static void
put_notes(struct kp_buf *b, const struct note_syntax *sx)
{
    size_t i;

    kp_buf_puts(b, sx->head);
    for (i = 0; i < kp_nflags; i++) {
        enum comp_role r = flag_role(&kp_flags[i]);

        if (r != ROLE_NONE)
            put_note_arm(b, sx, &kp_flags[i], r);
    }
    kp_buf_puts(b, sx->tail);
}

/* ---- bash ---- */

/* __kubectl_preempt_flags=(--filename -f ...), wrapped at 76 columns */
static void
bash_flag_list(struct kp_buf *b)
{
    static const char start[] = "__kubectl_preempt_flags=(";
    size_t i, col = sizeof(start) - 1;

    kp_buf_puts(b, start);
    for (i = 0; i < kp_nflags; i++) {
        const struct kp_flag *f = &kp_flags[i];
        size_t w = strlen(f->long_name) + 2 + (f->short_name ? 3 : 0);

        if (i > 0 && col + 1 + w > 76) {
            kp_buf_puts(b, "\n    ");
            col = 4;
        } else if (i > 0) {
            kp_buf_puts(b, " ");
            col++;
        }
        put_spellings(b, f, " ");
        col += w;
    }
    kp_buf_puts(b, ")\n__kubectl_preempt_commands=(");
    for (i = 0; i < NELEM(commands); i++)
        kp_buf_printf(b, "%s%s", i ? " " : "", commands[i].name);
    kp_buf_puts(b, ")\n\n");
}

/* "    --output | -o)": a case arm's pattern */
static void
bash_case(struct kp_buf *b, const struct kp_flag *f)
{
    kp_buf_puts(b, "    ");
    put_spellings(b, f, " | ");
    kp_buf_puts(b, ")");
}

static void
bash_arg_fn(struct kp_buf *b)
{
    size_t i;

    kp_buf_puts(b,
        "# __kubectl_preempt_arg FLAG: set REPLY to what FLAG's argument\n"
        "# completes to (file, namespace, context, cluster, user, word or\n"
        "# \"values V...\"); empty when FLAG takes no argument.\n"
        "__kubectl_preempt_arg()\n"
        "{\n"
        "    case $1 in\n");
    for (i = 0; i < kp_nflags; i++) {
        const struct kp_flag *f = &kp_flags[i];
        enum comp_kind k = flag_kind(f);

        if (k == COMP_NONE)
            continue;
        bash_case(b, f);
        kp_buf_puts(b, " REPLY=");
        put_sq(b, k == COMP_VALUES ? "values " : kind_names[k],
               k == COMP_VALUES ? f->values : "");
        kp_buf_puts(b, " ;;\n");
    }
    kp_buf_puts(b, "    *) REPLY='' ;;\n    esac\n}\n\n");
}

static void
bash_note_open(struct kp_buf *b, const struct kp_flag *f)
{
    bash_case(b, f);
    kp_buf_puts(b, "\n        ");
}

static const struct note_syntax bash_notes = {
    .head = "# __kubectl_preempt_note FLAG VALUE: keep what the pod and\n"
            "# namespace lookups need from a flag typed earlier.\n"
            "__kubectl_preempt_note()\n"
            "{\n"
            "    case $1 in\n",
    .tail = "    esac\n}\n",
    .open = bash_note_open,
    .next = "\n        ",
    .close = "\n        ;;\n",
    .set = {"", "=", ""},
    .append = {"", "+=(", ")"},
    .if_stdin = "[[ $2 == - ]] && ",
    .value = "\"$2\"",
    .path = "\"${2/#\\~/$HOME}\"",
};

static void
emit_bash(struct kp_buf *b)
{
    put_text(b, bash_head);
    bash_flag_list(b);
    bash_arg_fn(b);
    put_notes(b, &bash_notes);
    put_text(b, bash_body);
}

/* ---- zsh ---- */

/* s inside a single-quoted _arguments description */
static void
put_zsh_desc(struct kp_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'')
            kp_buf_puts(b, "'\\''");
        else if (strchr("[]:\\", *s))
            kp_buf_printf(b, "\\%c", *s);
        else
            kp_buf_add(b, s, 1);
    }
}

/* the action that completes the flag's argument */
static void
zsh_action(struct kp_buf *b, const struct kp_flag *f, enum comp_kind k)
{
    if (k == COMP_FILE)
        kp_buf_puts(b, "_files");
    else if (k == COMP_VALUES)
        kp_buf_printf(b, "(%s)", f->values);
    else if (k == COMP_WORD)
        kp_buf_puts(b, " ");
    else
        kp_buf_printf(b, "{__kubectl_preempt_value %s}", kind_names[k]);
}

/* '(-o --output)'{-o+,--output=}'[output format]:FORMAT:(table wide)' */
static void
zsh_spec(struct kp_buf *b, const struct kp_flag *f)
{
    enum comp_kind k = flag_kind(f);
    const char *s_arg = k == COMP_NONE ? "" : "+";
    const char *l_arg = k == COMP_NONE ? "" : "=";

    kp_buf_puts(b, "        ");
    if (alone(f))
        kp_buf_puts(b, "'(- *)'");
    else if (repeatable(f))
        kp_buf_puts(b, "'*'");
    else if (f->short_name)
        kp_buf_printf(b, "'(-%c --%s)'", f->short_name, f->long_name);
    if (f->short_name)
        kp_buf_printf(b, "{-%c%s,--%s%s}'[", f->short_name, s_arg,
                      f->long_name, l_arg);
    else
        kp_buf_printf(b, "--%s%s'[", f->long_name, l_arg);
    put_zsh_desc(b, f->help);
    kp_buf_puts(b, "]");
    if (k != COMP_NONE) {
        kp_buf_printf(b, ":%s:", f->arg_name ? f->arg_name : "ARG");
        zsh_action(b, f, k);
    }
    kp_buf_puts(b, "' \\\n");
}

static void
zsh_scan_open(struct kp_buf *b, const struct kp_flag *f)
{
    kp_buf_puts(b, "    if __kubectl_preempt_opt ");
    if (f->short_name)
        kp_buf_printf(b, "-%c ", f->short_name);
    kp_buf_printf(b, "--%s; then\n        ", f->long_name);
}

/* __kubectl_preempt_scan reads the flags typed so far from opt_args */
static const struct note_syntax zsh_notes = {
    .head = "# Keep what the pod and namespace lookups need from the flags\n"
            "# typed so far (opt_args).\n"
            "__kubectl_preempt_scan()\n"
            "{\n",
    .tail = "}\n",
    .open = zsh_scan_open,
    .next = "\n        ",
    .close = "\n    fi\n",
    .set = {"", "=", ""},
    .append = {"", "+=(", ")"},
    .if_stdin = "(( ${reply[(I)-]} )) && ",
    .value = "$REPLY",
    .values = "${^reply}",
};

/* the commands, NAME:DESCRIPTION, for _describe */
static void
zsh_commands(struct kp_buf *b)
{
    size_t i;

    kp_buf_puts(b, "# The commands, for _describe.\n"
                "typeset -ga __kubectl_preempt_commands=(\n");
    for (i = 0; i < NELEM(commands); i++) {
        char item[256];

        snprintf(item, sizeof(item), "%s:%s", commands[i].name,
                 commands[i].help);
        kp_buf_puts(b, "    ");
        put_sq(b, "", item);
        kp_buf_puts(b, "\n");
    }
    kp_buf_puts(b, ")\n\n");
}

static void
emit_zsh(struct kp_buf *b)
{
    size_t i;

    put_text(b, zsh_head);
    zsh_commands(b);
    put_notes(b, &zsh_notes);
    put_text(b, zsh_body);
    for (i = 0; i < kp_nflags; i++)
        zsh_spec(b, &kp_flags[i]);
    put_text(b, zsh_tail);
}

/* ---- fish ---- */

/* "        case --output -o", and the indent of its first statement */
static void
fish_case(struct kp_buf *b, const struct kp_flag *f)
{
    kp_buf_puts(b, "        case ");
    put_spellings(b, f, " ");
    kp_buf_puts(b, "\n            ");
}

static void
fish_arg_fn(struct kp_buf *b)
{
    size_t i;

    kp_buf_puts(b,
        "function __kubectl_preempt_arg "
        "--description 'What the argument of a flag completes to'\n"
        "    switch $argv[1]\n");
    for (i = 0; i < kp_nflags; i++) {
        const struct kp_flag *f = &kp_flags[i];
        enum comp_kind k = flag_kind(f);

        if (k == COMP_NONE)
            continue;
        fish_case(b, f);
        kp_buf_printf(b, "echo %s%s%s\n", kind_names[k],
                      k == COMP_VALUES ? " " : "",
                      k == COMP_VALUES ? f->values : "");
    }
    kp_buf_puts(b, "    end\nend\n\n");
}

static const struct note_syntax fish_notes = {
    .head = "function __kubectl_preempt_note "
            "--description 'Keep what the lookups need from a flag'\n"
            "    switch $argv[1]\n",
    .tail = "    end\nend\n",
    .open = fish_case,
    .next = "\n            ",
    .close = "\n",
    .set = {"set -g ", " ", ""},
    .append = {"set -ga ", " ", ""},
    .if_stdin = "test \"$argv[2]\" = -; and ",
    .value = "$argv[2]",
    .path = "(string replace -r -- '^~/' $HOME/ $argv[2])",
};

static void
fish_complete(struct kp_buf *b, const struct kp_flag *f)
{
    enum comp_kind k = flag_kind(f);

    kp_buf_puts(b, "complete -c kubectl-preempt");
    if (f->short_name)
        kp_buf_printf(b, " -s %c", f->short_name);
    kp_buf_printf(b, " -l %s", f->long_name);
    if (k == COMP_FILE) {
        kp_buf_puts(b, " -r -F");
    } else if (k == COMP_VALUES) {
        kp_buf_puts(b, " -x -a ");
        put_fish_sq(b, f->values);
    } else if (k != COMP_NONE) {
        kp_buf_puts(b, " -x");
        if (k != COMP_WORD)
            kp_buf_printf(b, " -a '(__kubectl_preempt_value %s)'",
                          kind_names[k]);
    }
    kp_buf_puts(b, " \\\n    -d ");
    put_fish_sq(b, f->help);
    kp_buf_puts(b, "\n");
}

/* the commands, the shells after "completion", the pods after no command */
static void
fish_commands(struct kp_buf *b)
{
    size_t i;

    for (i = 0; i < NELEM(commands); i++) {
        kp_buf_printf(b, "complete -c kubectl-preempt "
                      "-n 'test (__kubectl_preempt_nwords) -eq 1' \\\n"
                      "    -a %s -d ", commands[i].name);
        put_fish_sq(b, commands[i].help);
        kp_buf_puts(b, "\n");
    }
    kp_buf_puts(b,
        "complete -c kubectl-preempt \\\n"
        "    -n '__kubectl_preempt_in completion; "
        "and test (__kubectl_preempt_nwords) -eq 2' \\\n"
        "    -a 'bash zsh fish'\n"
        "complete -c kubectl-preempt -n 'not __kubectl_preempt_in");
    for (i = 0; i < NELEM(commands); i++)
        kp_buf_printf(b, " %s", commands[i].name);
    kp_buf_puts(b, "' \\\n    -a '(__kubectl_preempt_pods)'\n");
}

static void
emit_fish(struct kp_buf *b)
{
    size_t i;

    put_text(b, fish_head);
    fish_arg_fn(b);
    put_notes(b, &fish_notes);
    put_text(b, fish_body);
    for (i = 0; i < kp_nflags; i++)
        fish_complete(b, &kp_flags[i]);
    fish_commands(b);
}

/* ---- hidden modes for completions/kubectl_complete-preempt ---- */

/* every flag, one per line: "--long", then "-s" */
static void
emit_flags(struct kp_buf *b)
{
    size_t i;

    for (i = 0; i < kp_nflags; i++) {
        kp_buf_printf(b, "--%s\n", kp_flags[i].long_name);
        if (kp_flags[i].short_name)
            kp_buf_printf(b, "-%c\n", kp_flags[i].short_name);
    }
}

/* the commands, one per line */
static void
emit_commands(struct kp_buf *b)
{
    size_t i;

    for (i = 0; i < NELEM(commands); i++)
        kp_buf_printf(b, "%s\n", commands[i].name);
}

/* one line per spelling: "FLAG LONG KIND ROLE [VALUE...]" */
static void
emit_args(struct kp_buf *b)
{
    size_t i;

    for (i = 0; i < kp_nflags; i++) {
        const struct kp_flag *f = &kp_flags[i];
        enum comp_kind k = flag_kind(f);
        const char *role = role_names[flag_role(f)];
        const char *sep = k == COMP_VALUES ? " " : "";
        const char *vals = k == COMP_VALUES ? f->values : "";

        kp_buf_printf(b, "--%s --%s %s %s%s%s\n", f->long_name, f->long_name,
                      kind_names[k], role, sep, vals);
        if (f->short_name)
            kp_buf_printf(b, "-%c --%s %s %s%s%s\n", f->short_name,
                          f->long_name, kind_names[k], role, sep, vals);
    }
}

static const struct {
    const char *name;
    void (*emit)(struct kp_buf *b);
} modes[] = {
    {"bash", emit_bash},
    {"zsh", emit_zsh},
    {"fish", emit_fish},
    {"flags", emit_flags},      /* hidden */
    {"args", emit_args},        /* hidden */
    {"commands", emit_commands}, /* hidden */
};

static const char usage[] =
    "Usage: kubectl-preempt completion bash|zsh|fish\n"
    "\n"
    "Prints a completion script for the shell, generated from the flags:\n"
    "    source <(kubectl-preempt completion bash)      # bash, ~/.bashrc\n"
    "    source <(kubectl-preempt completion zsh)       # zsh, after "
    "compinit\n"
    "    kubectl-preempt completion fish | source       # fish\n"
    "Pod names complete from the -f files typed so far, else from the\n"
    "cluster's pending pods (kubectl get pods, with -n, -A, --context,\n"
    "--kubeconfig and the other cluster flags typed so far).\n";

static int
usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
usage_error(const char *fmt, ...)
{
    va_list ap;

    fputs("error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nRun 'kubectl-preempt completion --help' for usage.\n", stderr);
    return KP_EXIT_USAGE;
}

static int
put_unique(struct kp_strmap *seen, const char *name)
{
    if (kp_strmap_get(seen, name))
        return 0;
    kp_strmap_put(seen, name, (void *)name);
    return printf("%s\n", name) < 0 ? -1 : 0;
}

/*
 * "completion names nodes|namespaces FLAG...": what -n, --drain,
 * --cordon, ... complete to when -f files were typed (issue 29): the
 * files' nodes, or their namespaces (Namespace objects, then the pods'),
 * in input order.  No -f, or input that does not load: nothing.
 */
static int
names_main(int argc, char **argv)
{
    struct kp_options o;
    struct kp_snapshot s;
    struct kp_error err = {0, ""};
    struct kp_strmap seen;
    struct kp_buf help;
    char ns[256] = "default";
    size_t i;
    bool nodes;

    if (argc < 2 || (strcmp(argv[1], "nodes") != 0 &&
                     strcmp(argv[1], "namespaces") != 0))
        return usage_error("completion names takes nodes or namespaces");
    nodes = argv[1][0] == 'n' && argv[1][1] == 'o';
    kp_options_init(&o);
    kp_buf_init(&help);
    kp_snapshot_init(&s);
    kp_strmap_init(&seen);
    if (kp_options_parse(&o, argc - 1, argv + 1, &help, &err) == 0 &&
        o.nfiles > 0 &&
        kp_run_load(&s, &o, NULL, ns, sizeof(ns), NULL, &err) == 0) {
        for (i = 0; nodes && i < s.nnodes; i++)
            put_unique(&seen, s.nodes[i]->name);
        for (i = 0; !nodes && i < s.nnamespaces; i++)
            put_unique(&seen, s.namespaces[i]->name);
        for (i = 0; !nodes && i < s.npods; i++)
            put_unique(&seen, s.pods[i]->ns);
    }
    kp_strmap_release(&seen);
    kp_snapshot_release(&s);
    kp_buf_release(&help);
    kp_options_release(&o);
    return fflush(stdout) == 0 ? KP_EXIT_OK : KP_EXIT_ERROR;
}

int
kp_completion_main(int argc, char **argv)
{
    struct kp_buf b;
    size_t i;
    int rc = KP_EXIT_OK;

    if (argc < 2)
        return usage_error("completion needs a shell: bash, zsh or fish");
    if (strcmp(argv[1], "names") == 0)
        return names_main(argc - 1, argv + 1);
    if (argc > 2)
        return usage_error("unexpected argument '%s': completion takes one "
                           "shell", argv[2]);
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        fputs(usage, stdout);
        return fflush(stdout) == 0 ? KP_EXIT_OK : KP_EXIT_ERROR;
    }
    for (i = 0; i < NELEM(modes); i++)
        if (strcmp(argv[1], modes[i].name) == 0)
            break;
    if (i == NELEM(modes))
        return usage_error("unknown shell '%s': expected bash, zsh or fish",
                           argv[1]);
    kp_buf_init(&b);
    modes[i].emit(&b);
    if (fwrite(b.data, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
        perror("error: writing the completion script");
        rc = KP_EXIT_ERROR;
    }
    kp_buf_release(&b);
    return rc;
}
