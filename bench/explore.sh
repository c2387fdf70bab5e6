#!/usr/bin/env bash
# Exploration benchmark: state graphs of the data-driven ports.
#
# Runs `ordex explore --json` on examples/nbexchange.c (2 iterations, fixed in the
# program), floyd_steinberg.c, lu.c and mergesort.c at 2, 4, 6 and 8 ranks, each
# in these variants:
#   por      default settings: partial-order reduction on, copy snapshots
#            (in-process; fork where they cannot go on), --jobs = the cores
#   jobs1    --jobs 1 (one process, depth-first order)
#   jobs2    --jobs 2 (two workers with copy snapshots sharing the work)
#   fork     --checkpoint=fork (copy-on-write snapshot processes)
#   no-por   --no-por
#   replay   --checkpoint=replay
#   copy     --checkpoint=copy (the default, named)
#   dist2    --distributed under mpiexec.mpich -n 2 (one job per process)
#   dist4    --distributed under mpiexec.mpich -n 4
# Every case has a wall-clock cap (--max-time); a case that hits it is reported
# as "incomplete" with the numbers reached so far.  Prints a Markdown table
# (append it to bench/RESULTS.md).  Nothing here asserts a timing.
#
#   bench/explore.sh
#
# Environment:
#   EXPLORE_MAX_TIME     cap in seconds for every case (default 60)
#   EXPLORE_SMALL_TIME   cap for the fork, no-por and replay variants at 6 ranks and
#                        more (default 15), so that the whole script stays under
#                        about 30 minutes on 2 cores
#   EXPLORE_RANKS        rank counts (default "2 4 6 8")
#   EXPLORE_PROGRAMS     programs (default "nbexchange floyd_steinberg lu mergesort")
#   EXPLORE_VARIANTS     variants (default "por fork no-por replay")
#
# Problem sizes (program arguments, see each example's header):
#   nbexchange 1        vector length 1 (the state graph does not depend on it)
#   floyd_steinberg 8   8x8 image: one 8-column chunk per row, 8 rows
#   lu 1                block size 1: 8x8 matrix (8 block columns are fixed)
#   mergesort 24        24 values (divisible by 2, 4, 6 and 8)
#
# Columns: transitions = deliveries (edges of the state graph: every event
# fired, summed over both passes -- standard sends buffered and unbuffered);
# states = branching states; snapshots = checkpoints taken; time s = the
# exploration's own elapsed time (JSON elapsed_s); transitions/s = transitions /
# time s; peak MiB = the JSON's peak_rss_bytes (largest single ordex process);
# tree MiB = /usr/bin/time -f %M of the whole command.  Linux reports there the
# largest resident set of the command or of any descendant it (transitively)
# waited for -- the maximum over the process tree, not a sum of it; wall s =
# the whole command, start-up included; cpu s = user + system time of the
# whole command and the descendants it waited for (with --jobs 2 on a busy
# machine, compare it with wall s to see whether the workers got two cores).
set -uo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top" || exit 2
./tools/setup.sh || exit 2
./tools/build.sh || exit 2
export ORDEX_HOME="$top"
ordex="$top/.cache/bin/ordex"

cap=${EXPLORE_MAX_TIME:-60}
small_cap=${EXPLORE_SMALL_TIME:-15}
read -r -a ranks <<<"${EXPLORE_RANKS:-2 4 6 8}"
read -r -a programs <<<"${EXPLORE_PROGRAMS:-nbexchange floyd_steinberg lu mergesort}"
read -r -a variants <<<"${EXPLORE_VARIANTS:-por fork no-por replay}"

args_of() {
    case "$1" in
    nbexchange) echo 1 ;;
    floyd_steinberg) echo 8 ;;
    lu) echo 1 ;;
    mergesort) echo 24 ;;
    *) echo "" ;;
    esac
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Compile every program once (cached), so no case pays for the compiler.
for p in "${programs[@]}"; do
    # shellcheck disable=SC2046
    "$ordex" run -q -n 1 "examples/$p.c" $(args_of "$p") >/dev/null 2>"$work/warm.err" || {
        echo "bench/explore.sh: examples/$p.c does not build or run:" >&2
        cat "$work/warm.err" >&2
        exit 2
    }
done

# num KEY FILE: the number after "KEY": in the JSON file.
num() { sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p" "$2" | head -n 1; }

echo "| program | ranks | variant | verdict | transitions | states | snapshots | time s | transitions/s | peak MiB | tree MiB | wall s | cpu s |"
echo "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for p in "${programs[@]}"; do
    for n in "${ranks[@]}"; do
        for variant in "${variants[@]}"; do
            opts=()
            t=$cap
            case "$variant" in
            fork) opts=(--checkpoint=fork) ;;
            no-por) opts=(--no-por) ;;
            replay) opts=(--checkpoint=replay) ;;
            copy) opts=(--checkpoint=copy) ;;
            jobs1) opts=(--jobs 1) ;;
            jobs2) opts=(--jobs 2) ;;
            dist2 | dist4) opts=(--distributed) ;;
            esac
            # dist2, dist4: one exploration over mpiexec.mpich -n 2 (or 4)
            # processes of this machine (docs/distributed.md).
            launch=()
            case "$variant" in
            dist2) launch=(mpiexec.mpich -n 2) ;;
            dist4) launch=(mpiexec.mpich -n 4) ;;
            esac
            if [ "$variant" = fork ] || [ "$variant" = no-por ] || [ "$variant" = replay ] &&
                [ "$n" -ge 6 ]; then
                t=$small_cap
            fi
            json="$work/$p-$n-$variant.json"
            rm -f "$json" "$work/time"
            # A generous outer timeout only in case ordex ignored --max-time.
            # shellcheck disable=SC2046
            /usr/bin/time -f "%e %M %U %S" -o "$work/time" \
                timeout -k 10 $((t + 120)) "${launch[@]}" "$ordex" explore "${opts[@]}" --max-time "$t" \
                --json "$json" -n "$n" "examples/$p.c" $(args_of "$p") \
                >"$work/out" 2>"$work/err"
            rc=$?
            read -r wall tree_kib usr sys < <(tail -n 1 "$work/time" 2>/dev/null || echo "? 0 0 0")
            if [ -s "$json" ]; then
                verdict=$(sed -n 's/.*"verdict": "\([a-z]*\)".*/\1/p' "$json" | head -n 1)
                if grep -q '"incomplete"' "$json"; then
                    # An error found before the cap stays an error; note the cap.
                    [ "$verdict" = error ] && verdict="error (cap hit)" || verdict=incomplete
                fi
                tr=$(num transitions "$json")
                st=$(num states "$json")
                sn=$(num snapshots "$json")
                el=$(num elapsed_s "$json")
                pk=$(num peak_rss_bytes "$json")
                rate=$(awk -v a="$tr" -v b="$el" 'BEGIN{printf "%.0f", (b > 0 ? a / b : 0)}')
                el=$(awk -v b="$el" 'BEGIN{printf "%.3f", b}')
                pk=$(awk -v b="$pk" 'BEGIN{printf "%.1f", b / 1048576}')
            else
                verdict="failed (exit $rc)"
                tr=-; st=-; sn=-; el=-; rate=-; pk=-
            fi
            tree=$(awk -v k="$tree_kib" 'BEGIN{printf "%.1f", k / 1024}')
            cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN{printf "%.2f", u + s}')
            echo "| $p | $n | $variant | $verdict | $tr | $st | $sn | $el | $rate | $pk | $tree | $wall | $cpu |"
        done
    done
done
