#!/usr/bin/env bash
# Cost of symbolisation in reports: wall time of
#   ordex explore -n 6 examples/probe_race.c
# whose 10 findings and their orderings name source lines (about 150 look-ups
# across the snapshot processes).  Runs each given ordex binary ROUNDS times
# (default 9), interleaved round by round after one warm-up run each, in a
# scratch directory, and prints a Markdown table of the median, fastest and
# slowest runs (append it to bench/RESULTS.md).
#
#   bench/symbolize.sh [ORDEX_BINARY ...]      default: the current build
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
./tools/setup.sh
./tools/build.sh
bins=("$@")
[ ${#bins[@]} -eq 0 ] && bins=("$top/.cache/bin/ordex")
rounds=${ROUNDS:-9}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prog="$top/examples/probe_race.c"

# run BIN: prints the wall seconds of one exploration
run() {
    local t0 t1
    t0=$(date +%s%N)
    (cd "$work" && ORDEX_HOME="$top" "$1" explore -n 6 "$prog" >/dev/null 2>&1) || [ $? -eq 1 ]
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}

declare -A times
for b in "${bins[@]}"; do
    run "$b" >/dev/null # compiles the program into the cache
    times[$b]=""
done
for ((i = 0; i < rounds; i++)); do
    for b in "${bins[@]}"; do
        times[$b]+="$(run "$b") "
    done
done

echo "| binary | runs | median s | fastest s | slowest s |"
echo "|---|---:|---:|---:|---:|"
for b in "${bins[@]}"; do
    # shellcheck disable=SC2086
    printf '%s\n' ${times[$b]} | sort -n | awk -v name="$b" '
        { t[NR] = $1 }
        END { m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
              printf "| %s | %d | %.3f | %.3f | %.3f |\n", name, NR, m, t[1], t[NR] }'
done
