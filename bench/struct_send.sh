#!/usr/bin/env bash
# Struct-typed sends against the same bytes as an hindexed type of MPI_BYTE
# (bench/struct_send.c): wall time and peak memory of `ordex run -n 2` for
# each layout, the median of RUNS runs, as a Markdown table for RESULTS.md.
#
#   bench/struct_send.sh [MSGS [ELEMS]]     default 20 messages of 1000000 structs
# RUNS (default 3) sets the runs per layout; ORDEX_BIN another ordex binary to
# measure (a build of an older commit, say) instead of this tree's.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
./tools/setup.sh
./tools/build.sh
msgs=${1:-20}
elems=${2:-1000000}
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${ORDEX_BIN:-$top/.cache/bin/ordex}
ORDEX_HOME="$top" .cache/bin/ordexcc -O2 -o "$work/struct_send.so" bench/struct_send.c

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "| layout | messages | elements each | wall s (median of $runs) | simulate s | peak MiB |"
echo "|---|---:|---:|---:|---:|---:|"
for layout in struct hindexed mixed; do
    : >"$work/wall"
    : >"$work/sim"
    : >"$work/rss"
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e" -o "$work/time" env ORDEX_HOME="$top" "$bin" run -q -n 2 \
            --json "$work/out.json" "$work/struct_send.so" "$layout" "$msgs" "$elems" >/dev/null
        cat "$work/time" >>"$work/wall"
        grep -o '"elapsed_s": *[0-9.]*' "$work/out.json" | grep -o '[0-9.]*$' >>"$work/sim"
        grep -o '"peak_rss_bytes": *[0-9]*' "$work/out.json" | grep -o '[0-9]*$' >>"$work/rss"
    done
    wall=$(median <"$work/wall")
    sim=$(median <"$work/sim")
    rss=$(median <"$work/rss")
    printf '| %s | %d | %d | %s | %s | %.0f |\n' "$layout" "$msgs" "$elems" "$wall" "$sim" \
        "$(echo "$rss / 1048576" | bc -l)"
done
