#!/usr/bin/env bash
# What reading the program's debug information costs at start-up, as a
# Markdown table for RESULTS.md, on two programs:
#
#   ring  examples/ring.c 1 (one round: start-up dominates), a small file
#   big   a generated ring with 3000 functions, each with a local of its own
#         struct type (about 3.4 MB of program, most of it DWARF)
#
# each with `ordex run -n 64` (the buffer checks look up main's locals, so
# the DWARF is read) and `ordex explore -n 3` (the dead-variable analysis
# reads it too).  For each: how many times the program's file is opened
# other than by the dynamic linker (the loader's checks and the readers of
# debug information; counted with strace -k, in every process explore
# forks), and the median of RUNS (default 21) runs of the wall seconds and
# of the peak resident memory (KiB, the largest process).
#
#   bench/debuginfo.sh [ORDEX_BINARY]
#
# The binary defaults to the one ./ordex builds; pass another (an older
# build) to compare.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
bin=${1:-}
if [ -z "$bin" ]; then
    ./tools/setup.sh
    ./tools/build.sh
    bin=.cache/bin/ordex
fi
runs=${RUNS:-21}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ORDEX_HOME="$top" ORDEX_CACHE="$work/cache"

big="$work/big.c"
{
    echo '#include <mpi.h>'
    echo '#include <stdio.h>'
    for i in $(seq 0 2999); do
        m=$((i % 7 + 1))
        echo "struct s$i { int a; double b[$m]; long c; };"
        echo "static long f$i(long x) { struct s$i v = {(int)x, {0}, x}; long t = v.a + v.c;" \
            "for (int k = 0; k < $m; k++) t += (long)v.b[k]; return t + x * $i; }"
    done
    cat <<'MAIN'
int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long token = f0(rank) + f2999(rank);
    if (rank == 0) {
        MPI_Send(&token, 1, MPI_LONG, 1 % size, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_LONG, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&token, 1, MPI_LONG, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token++;
        MPI_Send(&token, 1, MPI_LONG, (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("token %ld\n", token);
    MPI_Finalize();
    return 0;
}
MAIN
} >"$big"

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "| program | command | reads of the program | wall s median | peak RSS KiB median |"
echo "|---|---|---:|---:|---:|"
for prog in "ring examples/ring.c 1" "big $big"; do
    set -- $prog
    name=$1
    shift
    stem=$(basename "$1" .c)
    for cmd in "run -q -n 64" "explore -q -n 3"; do
        # shellcheck disable=SC2086
        "$bin" $cmd "$@" >/dev/null 2>&1 || true # compile once, outside the timings
        # Opens of the program's file, less those of the dynamic linker
        # (each rank's copy), from the stack strace shows for each.
        # shellcheck disable=SC2086
        reads=$(strace -f -k -e trace=openat "$bin" $cmd "$@" 2>&1 >/dev/null |
            awk -v stem="$stem-" '
                index($0, "openat(") && index($0, stem) && /\.so"/ {
                    if (open && !dl) n++; open = 1; dl = 0; next }
                /^ > / { if (open && /_dl_|dlopen/) dl = 1; next }
                { if (open && !dl) n++; open = 0 }
                END { if (open && !dl) n++; print n + 0 }')
        : >"$work/t"
        for _ in $(seq "$runs"); do
            # shellcheck disable=SC2086
            /usr/bin/time -f "%e %M" -o "$work/one" "$bin" $cmd "$@" >/dev/null 2>&1 || true
            cat "$work/one" >>"$work/t"
        done
        echo "| $name | ordex $cmd | $reads | $(cut -d' ' -f1 "$work/t" | median) |" \
            "$(cut -d' ' -f2 "$work/t" | median) |"
    done
done
