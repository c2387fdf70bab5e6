#!/usr/bin/env bash
# Start-up cost of the launcher: N calls of `./ordex --help` (set-up check,
# staleness check, then the binary printing its usage), after one call that
# may install and build.  Prints the seconds of every call and their mean,
# median, minimum and maximum, and the same for the binary alone.
#
#   bench/launcher.sh [CHECKOUT]      default: this checkout; N=10 by default
#
# CHECKOUT lets another checkout (an older commit's worktree) be timed the
# same way.  Results go to bench/RESULTS.md ("Launcher start-up").
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$(cd "${1:-$top}" && pwd)"
n=${N:-10}
[ -x "$dir/ordex" ] || { echo "bench/launcher.sh: no ordex launcher in $dir" >&2; exit 2; }
"$dir/ordex" --help >/dev/null

# times LABEL CMD...: N calls of CMD, then one summary line.
times() {
    local label=$1 s e all=()
    shift
    for _ in $(seq "$n"); do
        s=$(date +%s%N)
        "$@" >/dev/null 2>&1
        e=$(date +%s%N)
        all+=("$(awk -v d=$((e - s)) 'BEGIN{printf "%.4f", d / 1e9}')")
    done
    printf '%s\n' "${all[@]}" | sort -n | awk -v label="$label" -v list="${all[*]}" '
        {a[NR] = $1; s += $1}
        END {
            med = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
            printf "%s: mean %.4f s, median %.4f, min %.4f, max %.4f (%s)\n", label, s / NR, med, a[1], a[NR], list
        }'
}
times "./ordex --help" "$dir/ordex" --help
times "binary alone" env ORDEX_HOME="$dir" "$dir/.cache/bin/ordex" --help
