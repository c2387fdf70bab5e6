#!/usr/bin/env bash
# What the instrumentation of loads and stores (scheduler/access_hook.h)
# costs a program that computes, as a Markdown table for RESULTS.md:
#
#  1. `ordex run -n 2` of examples/heat.c (1-D heat equation, MPI halo
#     exchange) and of bench/stencil.c (2-D Jacobi, no MPI), each built by
#     ordexcc at -O0 (as `ordex run prog.c` builds) and at -O2, with and
#     without --no-access-checks; nothing is tracked (no one-sided
#     communication), so the instrumented program's calls stay disarmed;
#  2. bench/access_cost (one rank of stencil.c run by the scheduler) with
#     nothing tracked, with a byte tracked in another GiB of address space
#     (calls armed), and with one in the GiB of the program's heap.
#
#   bench/access.sh            RUNS (default 5) runs per case, median wall seconds
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
./tools/setup.sh
./tools/build.sh
bazel build -c opt //bench:access_cost >/dev/null 2>&1
cost="$(bazel info -c opt bazel-bin 2>/dev/null)/bench/access_cost"
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ORDEX_HOME="$top" ORDEX_CACHE="$work/cache"
cc=.cache/bin/ordexcc
bin=.cache/bin/ordex

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# time_of CMD...: median wall seconds of RUNS runs of CMD (its output dropped).
time_of() {
    : >"$work/t"
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e" -o "$work/one" "$@" >/dev/null 2>&1
        cat "$work/one" >>"$work/t"
    done
    median <"$work/t"
}

for prog in examples/heat.c bench/stencil.c; do
    name=$(basename "$prog" .c)
    for opt in -O0 -O2; do
        "$cc" $opt -o "$work/$name$opt-checked.so" "$prog"
        "$cc" --no-access-checks $opt -o "$work/$name$opt-plain.so" "$prog"
    done
done

echo "| program | arguments | ordexcc | plain s | instrumented s | ratio |"
echo "|---|---|---|---:|---:|---:|"
for prog in "heat 200000 500" "stencil 1024 100"; do
    set -- $prog
    name=$1
    shift
    for opt in -O0 -O2; do
        plain=$(time_of "$bin" run -q -n 2 "$work/$name$opt-plain.so" "$@")
        checked=$(time_of "$bin" run -q -n 2 "$work/$name$opt-checked.so" "$@")
        printf '| %s | %s | %s | %s | %s | %.2fx |\n' "$name" "$*" "$opt" "$plain" "$checked" \
            "$(echo "$checked / $plain" | bc -l)"
    done
done

echo
echo "| stencil 1024 100, one rank | ordexcc | plain s | nothing tracked s | tracked elsewhere s | tracked near s |"
echo "|---|---|---:|---:|---:|---:|"
for opt in -O0 -O2; do
    one() { # mode so: median of the run times access_cost prints
        : >"$work/t"
        for _ in $(seq "$runs"); do "$cost" "$1" "$2" 1024 100 2>/dev/null >>"$work/t"; done
        median <"$work/t"
    }
    p=$(one none "$work/stencil$opt-plain.so")
    n=$(one none "$work/stencil$opt-checked.so")
    o=$(one other "$work/stencil$opt-checked.so")
    f=$(one near "$work/stencil$opt-checked.so")
    printf '| | %s | %s | %s (%.2fx) | %s (%.2fx) | %s (%.2fx) |\n' "$opt" "$p" \
        "$n" "$(echo "$n / $p" | bc -l)" "$o" "$(echo "$o / $p" | bc -l)" "$f" "$(echo "$f / $p" | bc -l)"
done
