#!/usr/bin/env bash
# `ordex predict` of the one-sided halo exchange (examples/rma_halo.c: a put
# to each neighbour and two fences per step) against the same exchange with
# point-to-point messages (bench/halo_p2p.c: MPI_Isend/MPI_Irecv/MPI_Waitall),
# the same cells and steps, on the same platforms.  Prints a Markdown table
# for bench/RESULTS.md ("RMA against point-to-point halo exchange"):
#   - communication alone (--ignore-compute, 64 cells, 20 steps) on
#     examples/platforms/cluster.ini (16 nodes x 4 cores, 1.5 us between
#     nodes, 0.3 us inside one, 0.3 us overheads) and on the built-in
#     platform (this machine);
#   - with the measured computation (4,000,000 cells, 20 steps; the median
#     of RUNS predictions) on cluster.ini;
# then, for reference, the two programs under real MPICH on this machine
# (2 ranks, 64 cells): the time per step, (wall time of STEPS steps - wall
# time of 0 steps) / STEPS, median of RUNS, and bench/rma_fence.c (barrier,
# empty fence, put + fence per call).
#
#   bench/rma_predict.sh                 the table
#   ORDEX_BIN=path bench/rma_predict.sh  the same with another ordex binary
#                                        (e.g. one built from an older commit)
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
./tools/setup.sh
./tools/build.sh
bin=${ORDEX_BIN:-.cache/bin/ordex}
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ORDEX_HOME="$top" ORDEX_CACHE="$work/cache"

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# predict PLATFORM N CELLS STEPS IGNORE: predicted seconds, mean comm and
# blocked seconds per rank (median over RUNS when the computation counts).
predict() {
    local plat=$1 n=$2 cells=$3 steps=$4 ignore=$5 prog=$6
    local opts=(-n "$n" --no-timeline --placements 0 --json "$work/p.json")
    [ "$plat" != builtin ] && opts+=(--platform "$plat")
    [ "$ignore" = 1 ] && opts+=(--ignore-compute)
    local reps=1
    [ "$ignore" = 1 ] || reps=$runs
    : >"$work/t"
    for _ in $(seq "$reps"); do
        "$bin" predict "${opts[@]}" "$prog" "$cells" "$steps" >/dev/null 2>&1
        python3 - "$work/p.json" >>"$work/t" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["ranks"]
n = len(r)
print(d["predicted_time_s"], sum(x["compute_s"] for x in r) / n,
      sum(x["comm_s"] for x in r) / n, sum(x["blocked_s"] for x in r) / n)
EOF
    done
    # The run with the median predicted time.
    local t
    t=$(cut -d' ' -f1 "$work/t" | median)
    awk -v t="$t" '$1 == t {print; exit}' "$work/t"
}

us() { awk -v s="$1" 'BEGIN {printf "%.1f", s * 1e6}'; }

echo "| platform | ranks | cells x steps | computation | program | predicted | per step | compute/rank | comm/rank | blocked/rank |"
echo "|---|---:|---|---|---|---:|---:|---:|---:|---:|"
row() {
    local plat=$1 n=$2 cells=$3 steps=$4 ignore=$5
    for prog in examples/rma_halo.c bench/halo_p2p.c; do
        read -r t c m b < <(predict "$plat" "$n" "$cells" "$steps" "$ignore" "$prog")
        local name=${plat##*/}
        printf '| %s | %d | %s x %s | %s | %s | %s us | %s us | %s us | %s us | %s us |\n' \
            "$name" "$n" "$cells" "$steps" "$([ "$ignore" = 1 ] && echo ignored || echo measured)" \
            "${prog##*/}" "$(us "$t")" "$(awk -v t="$t" -v s="$steps" 'BEGIN {printf "%.2f", t / s * 1e6}')" \
            "$(us "$c")" "$(us "$m")" "$(us "$b")"
    done
}
for n in 4 16 64; do
    row examples/platforms/cluster.ini "$n" 64 20 1
done
row builtin 2 64 20 1
for n in 16 64; do
    row examples/platforms/cluster.ini "$n" 4000000 20 0
done

echo
echo "Real MPICH on this machine, 2 ranks, 64 cells: microseconds per step (median of $runs)"
echo
mpicc.mpich -O2 -o "$work/rma_halo" examples/rma_halo.c
mpicc.mpich -O2 -o "$work/halo_p2p" bench/halo_p2p.c 2>/dev/null
mpicc.mpich -O2 -o "$work/rma_fence" bench/rma_fence.c
steps=${STEPS:-200000}
wall() { /usr/bin/time -f "%e" -o "$work/w" mpiexec.mpich -n 2 "$@" >/dev/null && cat "$work/w"; }
for prog in rma_halo halo_p2p; do
    : >"$work/s"
    for _ in $(seq "$runs"); do
        t0=$(wall "$work/$prog" 64 0)
        t1=$(wall "$work/$prog" 64 "$steps")
        awk -v a="$t0" -v b="$t1" -v s="$steps" 'BEGIN {printf "%.2f\n", (b - a) / s * 1e6}' >>"$work/s"
    done
    echo "- $prog: $(median <"$work/s") us per step ($(sort -g "$work/s" | tr '\n' ' '))"
done
echo
echo "bench/rma_fence.c under MPICH, 2 ranks:"
echo
mpiexec.mpich -n 2 "$work/rma_fence" | sed 's/^/- /'
