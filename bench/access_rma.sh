#!/usr/bin/env bash
# What checking plain loads and stores of window memory costs a program
# whose every access touches tracked memory, as a Markdown table for
# RESULTS.md: `ordex run -n 4` of tests/programs/rma_race_stencil_fence_ok.c
# (a 1-D stencil over an MPI window, halos put between fences; arguments:
# points per rank, steps), built by ordexcc at -O0 (as `ordex run prog.c`
# builds) and at -O2, with the instrumentation (the default) and with
# --no-access-checks.
#
#   bench/access_rma.sh [POINTS STEPS]    RUNS (default 5) runs per case, median wall seconds
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
./tools/setup.sh
./tools/build.sh
points=${1:-100000}
steps=${2:-100}
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ORDEX_HOME="$top" ORDEX_CACHE="$work/cache"
cc=.cache/bin/ordexcc
bin=.cache/bin/ordex
prog=tests/programs/rma_race_stencil_fence_ok.c

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

time_of() {
    : >"$work/t"
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e" -o "$work/one" "$@" >/dev/null 2>&1
        cat "$work/one" >>"$work/t"
    done
    median <"$work/t"
}

echo "| ordexcc | plain s | checked s | ratio |"
echo "|---|---:|---:|---:|"
for opt in -O0 -O2; do
    "$cc" $opt -o "$work/checked$opt.so" "$prog"
    "$cc" --no-access-checks $opt -o "$work/plain$opt-off.so" "$prog"
    checked=$(time_of "$bin" run -q -n 4 "$work/checked$opt.so" "$points" "$steps")
    plain=$(time_of "$bin" run -q -n 4 "$work/plain$opt-off.so" "$points" "$steps")
    printf '| %s | %s | %s | %.1fx |\n' "$opt" "$plain" "$checked" "$(echo "$checked / $plain" | bc -l)"
done
