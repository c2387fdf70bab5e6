#!/usr/bin/env bash
# Cost of one message under `ordex run`: N ranks pass a token around a ring
# (examples/ring.c built with `ordexcc -O2`), about MSGS messages per case.
# Prints a Markdown table with the CPU time per message, the set-up (a run of
# one round) subtracted, from /usr/bin/time (user and system seconds; the
# least of REPS runs, since load on a shared machine only ever adds) and
# from perf's task-clock when perf is there (the mean of REPS runs, and the
# least: finer than /usr/bin/time's 10 ms, and what load disturbs least).
#
#   bench/msgcost.sh [N ...]      default N = 2 64 1000
#   ORDEX=path/to/ordex           binary to measure (default .cache/bin/ordex)
#   ORDEX_OPTS="--buffer-checks=off"  options for `ordex run` (split at spaces)
#   MSGS=400000 REPS=5
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
if [ -z "${ORDEX:-}" ]; then
    ./tools/build.sh
    ORDEX="$top/.cache/bin/ordex"
fi
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(2 64 1000)
msgs=${MSGS:-400000}
reps=${REPS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ORDEX_HOME="$top" .cache/bin/ordexcc -O2 -o "$work/ring.so" examples/ring.c

# least CMD...: the least user+system seconds of $reps runs, as "user sys elapsed"
least() {
    local best="" u s e
    for ((i = 0; i < reps; i++)); do
        /usr/bin/time -f "%U %S %e" -o "$work/time" "$@" >/dev/null 2>&1
        read -r u s e <"$work/time"
        if [ -z "$best" ] || awk -v a="$u $s" -v b="$best" 'BEGIN{split(a,x," ");split(b,y," ");exit !(x[1]+x[2] < y[1]+y[2])}'; then
            best="$u $s $e"
        fi
    done
    echo "$best"
}

# task CMD...: perf's mean task-clock in ms over $reps runs, or "-"
task() {
    if ! command -v perf >/dev/null 2>&1; then
        echo -
        return
    fi
    perf stat -x, -e task-clock -r "$reps" "$@" 2>&1 >/dev/null | awk -F, '/task-clock/{print $1; f=1} END{if(!f) print "-"}'
}

# task_least CMD...: perf's least task-clock in ms of $reps runs, or "-"
task_least() {
    if ! command -v perf >/dev/null 2>&1; then
        echo -
        return
    fi
    for ((i = 0; i < reps; i++)); do
        perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/{print $1}'
    done | sort -g | awk 'NR == 1 {print; f=1} END{if(!f) print "-"}'
}

echo "| ranks | rounds | messages | user s | sys s | elapsed s | set-up user+sys s | CPU ns/msg (time) | CPU ns/msg (task-clock) | CPU ns/msg (least task-clock) | msg/s (elapsed) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
    k=$((msgs / n))
    [ "$k" -lt 10 ] && k=10
    m=$((n * k))
    # shellcheck disable=SC2206 # the options are words
    run=("$ORDEX" run -q ${ORDEX_OPTS:-} -n "$n" "$work/ring.so")
    read -r u s e < <(least "${run[@]}" "$k")
    read -r u1 s1 _ < <(least "${run[@]}" 1)
    t=$(task "${run[@]}" "$k")
    t1=$(task "${run[@]}" 1)
    l=$(task_least "${run[@]}" "$k")
    l1=$(task_least "${run[@]}" 1)
    per=$(awk -v u="$u" -v s="$s" -v u1="$u1" -v s1="$s1" -v m="$m" -v n="$n" \
        'BEGIN{printf "%.0f", ((u + s) - (u1 + s1)) * 1e9 / (m - n)}')
    pert=$(awk -v t="$t" -v t1="$t1" -v m="$m" -v n="$n" \
        'BEGIN{if (t == "-" || t1 == "-") print "-"; else printf "%.0f", (t - t1) * 1e6 / (m - n)}')
    perl=$(awk -v t="$l" -v t1="$l1" -v m="$m" -v n="$n" \
        'BEGIN{if (t == "-" || t1 == "-") print "-"; else printf "%.0f", (t - t1) * 1e6 / (m - n)}')
    rate=$(awk -v m="$m" -v e="$e" 'BEGIN{printf "%.0f", (e > 0 ? m / e : 0)}')
    echo "| $n | $k | $m | $u | $s | $e | $(awk -v a="$u1" -v b="$s1" 'BEGIN{printf "%.2f", a + b}') | $per | $pert | $perl | $rate |"
done
