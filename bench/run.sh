#!/usr/bin/env bash
# bench/run.sh - scale benchmark of kubectl-preempt against a bare cJSON parse,
# on every cluster shape of bench/gen.c.
#
#   SHAPES="default fits ..." bench/run.sh [small|medium|large|NODES:PODS:PENDING:PDBS ...]
#   bench/run.sh --table RESULTS.TSV   # only print the tables of earlier runs
#
# For each shape and size: generate bench/data/SIZE.json (shape default) or
# bench/data/SHAPE-SIZE.json once (deterministic; reused while bench/gen.c
# is unchanged), then measure
#   parse   bench/cjson_parse: cJSON_ParseWithLength of the whole file
#   load    kubectl-preempt -o json --scheduler-name <none>: load, no pod analysed
#   queue   kubectl-preempt -o json --mode queue (default parallelism)
#   queue1  the same with KUBECTL_PREEMPT_PARALLELISM=1
#   load1   the load-only run with KUBECTL_PREEMPT_PARALLELISM=1 (the
#           load is on the threads too: queue1's analysis is queue1
#           minus load1, not minus the default's load)
#   queue2  the same with KUBECTL_PREEMPT_PARALLELISM=2 (only when the
#           default is not 2 threads already, i.e. nproc != 2)
#   indep   kubectl-preempt -o json --mode independent
# Wall time on CLOCK_MONOTONIC (bench/runner.c), best of $RUNS (default 3)
# runs, one run for files over 1 GB; CPU time (user+sys) of the best run;
# peak RSS from wait4().  A tool run over $TIMEOUT seconds (default 600) is
# killed and reported as such.  The analysis is the whole run minus the
# load-only run; per pending pod it is what issue 16's first target
# bounds.  The queue report of 1 thread is compared (cmp) with the
# default's.
#
# Environment: SHAPES (default: default fits affinity nominated pdb), BIN
# (default build/kubectl-preempt), DATA (bench/data), TOOLS (build/bench:
# gen, cjson_parse, runner; built here when missing), RUNS, TIMEOUT, CC,
# CFLAGS, KEEP_OUT=1 to keep the reports of files over 1 GB (deleted
# after counting otherwise: 1.6 GB each).
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${BIN:-build/kubectl-preempt}
DATA=${DATA:-bench/data}
TOOLS=${TOOLS:-build/bench}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-600}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g}
SHAPES=${SHAPES:-default fits affinity nominated pdb}
KEEP_OUT=${KEEP_OUT:-0}
table_only=
if [ "${1:-}" = --table ]; then
    table_only=${2:?--table needs a results.tsv}
fi
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(small medium large)
read -r -a shapes <<<"$SHAPES"

nproc_=$(nproc)
threads_default=$nproc_
[ "$threads_default" -le 16 ] || threads_default=16
machine="machine: $nproc_ CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo) RAM, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
results=$DATA/results.tsv

if [ -z "$table_only" ]; then
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
for shape in "${shapes[@]}"; do
    case $shape in
    default | fits | affinity | nominated | pdb) ;;
    *) echo "run.sh: unknown shape $shape" >&2; exit 2 ;;
    esac
done

# field NAME "k=v k=v ..." -> v
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

# measure NAME RUNS TIMEOUT CMD... : best wall of RUNS runs; sets M_WALL,
# M_CPU (user+sys of that run), M_RSS (max over runs, KB), M_STATUS, M_OUT.
# Environment for the command: prefix it with env VAR=...
measure() {
    local name=$1 runs=$2 to=$3; shift 3
    local i line wall best="" cpu=0 rss=0 r st=0
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

printf 'shape\tsize\tnodes\tpods\tpending\tpdbs\tbytes\tparse_s\tparse_rss_kb\tload_s\tload_cpu_s\tload_rss_kb\tqueue_s\tqueue_cpu_s\tqueue_rss_kb\tqueue_status\tqueue1_s\tqueue1_cpu_s\tqueue1_status\tqueue2_s\tqueue2_cpu_s\tqueue2_status\tindep_s\tindep_cpu_s\tindep_rss_kb\tindep_status\tsame_1_vs_default\tqueue_results\tload1_s\tload1_cpu_s\twhatif_s\twhatif_cpu_s\twhatif_status\n' >"$results"
echo "$machine" >&2

for shape in "${shapes[@]}"; do
for size in "${sizes[@]}"; do
    case $size in
    small | medium | large) args=("$size") ;;
    *:*:*:*) IFS=: read -r -a args <<<"$size" ;;
    *) echo "run.sh: unknown size $size" >&2; exit 2 ;;
    esac
    if [ "$shape" = default ]; then
        cur=$size
    else
        cur=$shape-$size
    fi
    file=$DATA/$cur.json
    stamp="$(cksum <bench/gen.c) ${args[*]} --shape $shape"
    if [ ! -s "$file" ] || [ "$(cat "$file.stamp" 2>/dev/null)" != "$stamp" ]; then
        echo "== $cur: generating $file" >&2
        rm -f "$file.stamp"
        "$TOOLS/gen" "${args[@]}" --shape "$shape" -o "$file" 2> >(tee "$file.info" >&2)
        wait
        echo "$stamp" >"$file.stamp"
    fi
    rm -f "$DATA"/stderr-"$cur"-*.log
    bytes=$(stat -c %s "$file")
    runs=$RUNS
    [ "$bytes" -lt 1000000000 ] || runs=1
    echo "== $cur: $bytes bytes, $runs run(s) each" >&2

    # bare cJSON: best in-process parse time of $runs runs
    pbest="" prss=0
    for ((i = 0; i < runs; i++)); do
        line=$("$TOOLS/runner" "$DATA/cjson-$cur.txt" -- "$TOOLS/cjson_parse" "$file")
        out=$(cat "$DATA/cjson-$cur.txt")
        echo "  parse run $((i + 1)): $out (process: $line)" >&2
        p=$(field parse_s "$out")
        r=$(field maxrss_kb "$line")
        [ "$r" -gt "$prss" ] && prss=$r
        if [ -z "$pbest" ] || awk "BEGIN{exit !($p < $pbest)}"; then pbest=$p; fi
    done

    measure load "$runs" "$TIMEOUT" "$BIN" -f "$file" -o json --scheduler-name kubectl-preempt-bench-none
    load_s=$M_WALL load_cpu=$M_CPU load_rss=$M_RSS
    [ "$M_STATUS" = 0 ] || load_s=">$M_WALL(status $M_STATUS)"
    measure queue "$runs" "$TIMEOUT" "$BIN" -f "$file" -o json --mode queue
    q_s=$M_WALL q_cpu=$M_CPU q_rss=$M_RSS q_st=$M_STATUS q_out=$M_OUT
    qres=$({ grep -o '"result": "[A-Za-z]*"' "$M_OUT" || true; } | sort | uniq -c |
           awk '{gsub(/"/, "", $3); printf "%s%s=%s", (NR > 1 ? "," : ""), $3, $1}')
    measure load1 "$runs" "$TIMEOUT" env KUBECTL_PREEMPT_PARALLELISM=1 "$BIN" -f "$file" -o json --scheduler-name kubectl-preempt-bench-none
    load1_s=$M_WALL load1_cpu=$M_CPU
    measure queue1 "$runs" "$TIMEOUT" env KUBECTL_PREEMPT_PARALLELISM=1 "$BIN" -f "$file" -o json --mode queue
    q1_s=$M_WALL q1_cpu=$M_CPU q1_st=$M_STATUS
    same=no
    [ "$q_st" != 0 ] || [ "$q1_st" != 0 ] || ! cmp -s "$q_out" "$M_OUT" || same=yes
    q2_s=$q_s q2_cpu=$q_cpu q2_st=$q_st
    if [ "$threads_default" != 2 ]; then
        measure queue2 "$runs" "$TIMEOUT" env KUBECTL_PREEMPT_PARALLELISM=2 "$BIN" -f "$file" -o json --mode queue
        q2_s=$M_WALL q2_cpu=$M_CPU q2_st=$M_STATUS
    fi
    measure indep "$runs" "$TIMEOUT" "$BIN" -f "$file" -o json --mode independent
    i_s=$M_WALL i_cpu=$M_CPU i_rss=$M_RSS i_st=$M_STATUS
    # issue 25: a what-if (the first node cordoned) runs the baseline too
    node1=$(grep -m1 -o '"name": "ip-[^"]*"' "$file" | sed 's/.*"\(ip-[^"]*\)"$/\1/')
    measure whatif "$runs" "$TIMEOUT" "$BIN" -f "$file" -o json --mode queue --cordon "$node1"
    w_s=$M_WALL w_cpu=$M_CPU w_st=$M_STATUS

    snap=$(grep -m1 -o '"snapshot": {[^}]*}' "$DATA/out-$cur-load.json" || true)
    nodes=$(sed -n 's/.*"nodes": \([0-9]*\).*/\1/p' <<<"$snap")
    pods=$(sed -n 's/.*"pods": \([0-9]*\).*/\1/p' <<<"$snap")
    pend=$(sed -n 's/.*(\([0-9]*\) pending).*/\1/p' "$file.info" 2>/dev/null || true)
    pdbs=$(sed -n 's/.*"podDisruptionBudgets": \([0-9]*\).*/\1/p' <<<"$snap")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$shape" "$size" "${nodes:-?}" "${pods:-?}" "${pend:-?}" "${pdbs:-?}" "$bytes" \
        "$pbest" "$prss" "$load_s" "$load_cpu" "$load_rss" "$q_s" "$q_cpu" "$q_rss" "$q_st" \
        "$q1_s" "$q1_cpu" "$q1_st" "$q2_s" "$q2_cpu" "$q2_st" \
        "$i_s" "$i_cpu" "$i_rss" "$i_st" "$same" "${qres:-}" \
        "$load1_s" "$load1_cpu" "$w_s" "$w_cpu" "$w_st" >>"$results"
    if [ "$bytes" -ge 1000000000 ] && [ "$KEEP_OUT" != 1 ]; then
        rm -f "$DATA"/out-"$cur"-*.json
    fi
done
done
echo
echo "$machine"
echo "binary: $BIN; default parallelism $threads_default threads; wall time best of $RUNS (one run over 1 GB); CPU = user+sys of that run; RSS = peak resident set"
else
    results=$table_only
fi

# the tables
echo
awk -F'\t' '
function mb(b) { return sprintf("%.0f", b / 1e6) }
function kmb(k) { return sprintf("%.0f", k / 1024) }
function secs(s, st) { return (st != 0 && st != "") ? sprintf(">%s (killed)", s) : s }
function ok(st) { return st == 0 || st == "" }
function ratio(a, b) { return (a + 0 > 0 && b + 0 > 0) ? sprintf("%.2f", a / b) : "-" }
function perpod(w, l, n, st) { return (ok(st) && n + 0 > 0) ? sprintf("%.2f", (w - l) * 1000 / n) : "-" }
NR == 1 { next }
NR == 2 {
    print "| shape | size | nodes / pods / pending / PDBs | file MB | cJSON parse s | load only s (CPU) | 1 thread load s | queue s (CPU) | 1 thread queue s (CPU) | independent s (CPU) | queue ms / pending pod | indep ms / pending pod | queue CPU ms / pending pod | analysis speedup 2 vs 1 thread | queue / parse | indep / parse | peak RSS MB | file + 1 GB, MB |"
    print "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
}
{
    a1 = $17 - ($29 != "" ? $29 : $10); a2 = $20 - $10
    rss = $15 > $25 ? $15 : $25
    printf "| %s | %s | %s / %s / %s / %s | %s | %s | %s (%s) | %s | %s (%s) | %s (%s) | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s |\n",
        $1, $2, $3, $4, $5, $6, mb($7), $8, $10, $11, ($29 != "" ? $29 : "-"),
        secs($13, $16), $14,
        secs($17, $19), $18, secs($23, $26), $24,
        perpod($13, $10, $5, $16), perpod($23, $10, $5, $26),
        perpod($14, $11, $5, $16),
        (ok($19) && ok($22)) ? ratio(a1, a2) : "-",
        ok($16) ? ratio($13, $8) : ">" ratio($13, $8),
        ok($26) ? ratio($23, $8) : ">" ratio($23, $8),
        kmb(rss), mb($7 + 1e9)
}' "$results"
echo
awk -F'\t' '
function ok(st) { return st == 0 || st == "" }
function met(c) { return c ? "met" : "NOT met" }
NR == 1 { next }
{
    pend = $5 + 0; a1 = $17 - ($29 != "" ? $29 : $10); a2 = $20 - $10
    aq = $13 - $10
    rss = ($15 > $25 ? $15 : $25) * 1024
    printf "%s %s: results %s; 1 thread prints the same report: %s\n", $1, $2, $28, $27
    printf "  analysis <= 1 ms per pending pod (queue): %s (queue %.2f ms, independent %.2f ms; queue CPU %.2f ms)\n",
        met(ok($16) && pend > 0 && aq * 1000 / pend <= 1),
        pend ? aq * 1000 / pend : 0, pend ? ($23 - $10) * 1000 / pend : 0,
        pend ? ($14 - $11) * 1000 / pend : 0
    printf "  whole run <= 0.75x parse (queue): %s (queue %.2fx, independent %.2fx)\n",
        met(ok($16) && $13 <= 0.75 * $8), $13 / $8, $23 / $8
    if (a1 < 0.5)
        printf "  2 threads >= 1.6x faster than 1 (analysis): not judged (the 1-thread analysis took %.3f s, under 0.5 s)\n", a1
    else
        printf "  2 threads >= 1.6x faster than 1 (analysis): %s (%s)\n",
            met(ok($19) && ok($22) && a2 > 0 && a1 / a2 >= 1.6),
            (a2 > 0 ? sprintf("%.2fx", a1 / a2) : "2-thread analysis not measurable")
    printf "  peak RSS <= file + 1 GB: %s (%.0f MB for %.0f MB)\n",
        met(rss <= $7 + 1e9), rss / 1e6, $7 / 1e6
    if ($31 != "")
        printf "  what-if (--cordon, baseline + change) <= 1.5x the queue run: %s (%.3f s for %.3f s: %.2fx; CPU %.2fx)\n",
            met(ok($33) && $31 <= 1.5 * $13), $31, $13,
            ($13 > 0 ? $31 / $13 : 0), ($14 > 0 ? $32 / $14 : 0)
}' "$results"
