#!/usr/bin/env bash
# bench/run.sh - scale benchmark of kubectl-preempt against a bare cJSON parse.
#
#   bench/run.sh [small|medium|large|NODES:PODS:PENDING:PDBS ...]
#
# For each size: generate bench/data/SIZE.json once (deterministic; reused
# while bench/gen.c is unchanged), then measure
#   parse   bench/cjson_parse: cJSON_ParseWithLength of the whole file
#   load    kubectl-preempt -o json --scheduler-name <none>: load, no pod analysed
#   queue   kubectl-preempt -o json --mode queue
#   indep   kubectl-preempt -o json --mode independent
# Wall time on CLOCK_MONOTONIC (bench/runner.c), best of $RUNS (default 3)
# runs, one run for sizes over 1 GB; peak RSS from wait4().  A tool run over
# $TIMEOUT seconds (default 600) is killed and reported as such.
#
# Environment: BIN (default build/kubectl-preempt), DATA (bench/data),
# TOOLS (build/bench: gen, cjson_parse, runner; built here when missing),
# RUNS, TIMEOUT, CC, CFLAGS.
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${BIN:-build/kubectl-preempt}
DATA=${DATA:-bench/data}
TOOLS=${TOOLS:-build/bench}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-600}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(small medium large)

mkdir -p "$DATA" "$TOOLS"
build_tool() {     # name, extra libs
    local src=bench/$1.c out=$TOOLS/$1
    if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
        $CC -std=c11 -Wall -Wextra -D_GNU_SOURCE $CFLAGS -o "$out" "$src" ${2:-}
    fi
}
build_tool gen
build_tool runner
build_tool cjson_parse -lcjson
[ -x "$BIN" ] || { echo "run.sh: $BIN missing (make build/kubectl-preempt)" >&2; exit 1; }

# field NAME "k=v k=v ..." -> v
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

# measure NAME RUNS TIMEOUT CMD... : best wall of RUNS runs; sets M_WALL,
# M_CPU (user+sys of that run), M_RSS (max over runs, KB), M_STATUS, M_OUT
measure() {
    local name=$1 runs=$2 to=$3; shift 3
    local i line wall best="" cpu rss=0 r st=0
    M_OUT=$DATA/out-$cur-$name.json
    for ((i = 0; i < runs; i++)); do
        line=$("$TOOLS/runner" -t "$to" "$M_OUT" -- "$@" 2>>"$DATA/stderr-$cur-$name.log")
        wall=$(field wall_s "$line")
        r=$(field maxrss_kb "$line")
        st=$(field status "$line")
        [ "$r" -gt "$rss" ] && rss=$r
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
            best=$wall
            cpu=$(awk "BEGIN{printf \"%.2f\", $(field user_s "$line") + $(field sys_s "$line")}")
        fi
        echo "  $name run $((i + 1)): $line" >&2
        [ "$st" = 0 ] || break          # a failed or killed run is not repeated
    done
    M_WALL=$best M_CPU=$cpu M_RSS=$rss M_STATUS=$st
}

machine="machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo) RAM, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"

results=$DATA/results.tsv
printf 'size\tnodes\tpods\tpending\tpdbs\tbytes\tparse_s\tparse_rss_kb\tload_s\tload_rss_kb\tqueue_s\tqueue_cpu_s\tqueue_rss_kb\tqueue_status\tindep_s\tindep_cpu_s\tindep_rss_kb\tindep_status\tqueue_results\n' >"$results"
echo "$machine" >&2

for size in "${sizes[@]}"; do
    case $size in
    small) args=(small) ;;
    medium) args=(medium) ;;
    large) args=(large) ;;
    *:*:*:*) IFS=: read -r -a args <<<"$size" ;;
    *) echo "run.sh: unknown size $size" >&2; exit 2 ;;
    esac
    cur=$size
    file=$DATA/$size.json
    stamp="$(cksum <bench/gen.c) ${args[*]}"
    if [ ! -s "$file" ] || [ "$(cat "$file.stamp" 2>/dev/null)" != "$stamp" ]; then
        echo "== $size: generating $file" >&2
        rm -f "$file.stamp"
        "$TOOLS/gen" "${args[@]}" -o "$file" 2> >(tee "$file.info" >&2)
        echo "$stamp" >"$file.stamp"
    fi
    rm -f "$DATA"/stderr-"$size"-*.log
    bytes=$(stat -c %s "$file")
    runs=$RUNS
    [ "$bytes" -lt 1000000000 ] || runs=1
    echo "== $size: $bytes bytes, $runs run(s) each" >&2

    # bare cJSON: best in-process parse time of $runs runs
    pbest="" prss=0
    for ((i = 0; i < runs; i++)); do
        line=$("$TOOLS/runner" "$DATA/cjson-$size.txt" -- "$TOOLS/cjson_parse" "$file")
        out=$(cat "$DATA/cjson-$size.txt")
        echo "  parse run $((i + 1)): $out (process: $line)" >&2
        p=$(field parse_s "$out")
        r=$(field maxrss_kb "$line")
        [ "$r" -gt "$prss" ] && prss=$r
        if [ -z "$pbest" ] || awk "BEGIN{exit !($p < $pbest)}"; then pbest=$p; fi
    done

    measure load "$runs" "$TIMEOUT" "$BIN" -f "$file" -o json --scheduler-name kubectl-preempt-bench-none
    load_s=$M_WALL load_rss=$M_RSS
    [ "$M_STATUS" = 0 ] || load_s=">$M_WALL(status $M_STATUS)"
    measure queue "$runs" "$TIMEOUT" "$BIN" -f "$file" -o json --mode queue
    q_s=$M_WALL q_cpu=$M_CPU q_rss=$M_RSS q_st=$M_STATUS
    qres=$({ grep -o '"result": "[A-Za-z]*"' "$M_OUT" || true; } | sort | uniq -c |
           awk '{gsub(/"/, "", $3); printf "%s%s=%s", (NR > 1 ? "," : ""), $3, $1}')
    measure indep "$runs" "$TIMEOUT" "$BIN" -f "$file" -o json --mode independent
    i_s=$M_WALL i_cpu=$M_CPU i_rss=$M_RSS i_st=$M_STATUS

    snap=$(grep -m1 -o '"snapshot": {[^}]*}' "$DATA/out-$size-load.json" || true)
    nodes=$(sed -n 's/.*"nodes": \([0-9]*\).*/\1/p' <<<"$snap")
    pods=$(sed -n 's/.*"pods": \([0-9]*\).*/\1/p' <<<"$snap")
    pend=$(sed -n 's/.*(\([0-9]*\) pending).*/\1/p' "$file.info" 2>/dev/null || true)
    pdbs=$(sed -n 's/.*"podDisruptionBudgets": \([0-9]*\).*/\1/p' <<<"$snap")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$size" "${nodes:-?}" "${pods:-?}" "${pend:-?}" "${pdbs:-?}" "$bytes" \
        "$pbest" "$prss" "$load_s" "$load_rss" "$q_s" "$q_cpu" "$q_rss" "$q_st" \
        "$i_s" "$i_cpu" "$i_rss" "$i_st" "${qres:-}" >>"$results"
done

# the table
echo
echo "$machine"
echo "binary: $BIN; wall time best of $RUNS (one run over 1 GB); RSS = peak resident set"
echo
awk -F'\t' '
function mb(b) { return sprintf("%.0f", b / 1e6) }
function kmb(k) { return sprintf("%.0f", k / 1024) }
function secs(s, st) { return (st != 0 && st != "") ? sprintf(">%s (killed)", s) : s }
function ratio(a, b) { return (a + 0 > 0 && b + 0 > 0) ? sprintf("%.1f", a / b) : "-" }
function tratio(a, b, st) { return (st != 0 && st != "" ? ">" : "") ratio(a, b) }
NR == 1 { next }
NR == 2 {
    print "| size | nodes / pods / pending / PDBs | file MB | cJSON parse s | cJSON RSS MB | load only s | queue s | queue RSS MB | independent s | independent RSS MB | queue / parse | indep / parse | queue RSS / file | indep RSS / file |"
    print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
}
{
    printf "| %s | %s / %s / %s / %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
        $1, $2, $3, $4, $5, mb($6), $7, kmb($8), $9, secs($11, $14), kmb($13),
        secs($15, $18), kmb($17), tratio($11, $7, $14), tratio($15, $7, $18),
        ratio($13 * 1024, $6), ratio($17 * 1024, $6)
}' "$results"
echo
awk -F'\t' 'NR > 1 { printf "%s queue results: %s; CPU s (user+sys): queue %s, independent %s\n", $1, $19, $12, $16 }' "$results"
