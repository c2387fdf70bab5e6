#!/usr/bin/env bash
# What the buffer checks (simulator/bufcheck.h: every buffer against the
# variable or heap block it points into, bounds and C types) cost `ordex
# run`, as a Markdown table for RESULTS.md:
#
#   ring  examples/ring.c, -n 64, 5000 rounds: 640,000 sends and receives of
#         a local `long` (the checks find it among main's locals: the frame
#         walk of every call)
#   heat  examples/heat.c, -n 4, 4096 cells, 20000 steps: 160,000 MPI_Sendrecv
#         calls on two heap arrays that swap every step
#
# Both built as `ordex run prog.c` builds them (-O0 -g, instrumented).  Each
# case runs RUNS times (default 9) with --buffer-checks=on and =off in turn;
# the table gives the median and the minimum of the wall seconds and of the
# CPU seconds (user + system) of each, and the median's change.
#
#   bench/buffer_checks.sh
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
./tools/setup.sh
./tools/build.sh
runs=${RUNS:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ORDEX_HOME="$top" ORDEX_CACHE="$work/cache"
bin=.cache/bin/ordex

stat_of() { # FILE COLUMN: "median min"
    cut -d' ' -f"$2" "$1" | sort -n | awk '{v[NR] = $1} END {printf "%s %s", v[int((NR + 1) / 2)], v[1]}'
}

echo "| case | arguments | checks | wall s median | wall s min | CPU s median | CPU s min |"
echo "|---|---|---|---:|---:|---:|---:|"
for case in "ring 64 examples/ring.c 5000" "heat 4 examples/heat.c 4096 20000"; do
    set -- $case
    name=$1 n=$2 prog=$3
    shift 3
    "$bin" run -q -n "$n" "$prog" "$@" >/dev/null 2>&1 # compile once, outside the timings
    : >"$work/on"
    : >"$work/off"
    for _ in $(seq "$runs"); do
        for mode in on off; do
            /usr/bin/time -f "%e %U %S" -o "$work/one" \
                "$bin" run -q -n "$n" --buffer-checks="$mode" "$prog" "$@" >/dev/null 2>&1
            awk '{printf "%s %.2f\n", $1, $2 + $3}' "$work/one" >>"$work/$mode"
        done
    done
    for mode in on off; do
        read -r wmed wmin <<<"$(stat_of "$work/$mode" 1)"
        read -r cmed cmin <<<"$(stat_of "$work/$mode" 2)"
        echo "| $name | -n $n $* | $mode | $wmed | $wmin | $cmed | $cmin |"
        eval "${mode}_c=$cmed ${mode}_w=$wmed"
    done
    printf '| %s | | change | %+.1f%% | | %+.1f%% | |\n' "$name" \
        "$(echo "($on_w / $off_w - 1) * 100" | bc -l)" "$(echo "($on_c / $off_c - 1) * 100" | bc -l)"
done
