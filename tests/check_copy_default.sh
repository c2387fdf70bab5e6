#!/usr/bin/env bash
# Checks that the default snapshots of `ordex explore` (copies inside one
# process, switching to fork where they cannot go on) find what fork
# snapshots find: every example and every test program is explored twice,
# by default and with --checkpoint=fork, and the two JSON reports must give
# the same verdict, the same findings (kind, location, message), the same
# number of distinct outcomes per pass and the same counts (branching
# states, transitions, orderings, merges): with one job both searches go
# depth first in the same order, so even a search cut by --max-states must
# cover the same orderings (not one cut by --max-time, whose counts are
# left out).
#
#   tests/check_copy_default.sh [PROGRAM.c...]
#
# Ranks and arguments come from the program's header, from its first line
# `ordex explore ... -n N NAME.c ARGS` whose arguments are not placeholders
# (upper case; [optional] ones are left out); otherwise -n 3 and none.  Prints one line per
# program (ok, DIFF with both summaries, or SKIP when a run failed the same
# way under both), then "copy-default: N passed, N failed".  Nothing here
# asserts a timing.
#
# Environment:
#   CHECK_MAX_STATES   --max-states of every run (default 2000)
#   CHECK_MAX_TIME     --max-time of every run, a guard only (default 120)
set -uo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top" || exit 2
./tools/build.sh || exit 2
export ORDEX_HOME="$top"
ordex="$top/.cache/bin/ordex"
max_states=${CHECK_MAX_STATES:-2000}
max_time=${CHECK_MAX_TIME:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/logs"

if [ $# -gt 0 ]; then
    progs=("$@")
else
    progs=(examples/*.c tests/programs/*.c)
fi

# "N|ARGS" for a program, from its header.
setup_of() {
    local src=$1 base line rest n args
    base=$(basename "$src")
    while IFS= read -r line; do
        rest=${line#*ordex explore}
        n=$(sed -nE 's/.*-n ([0-9]+).*/\1/p' <<<"$rest")
        args=$(sed -nE "s/.*${base//./\\.}(.*)$/\1/p" <<<"$rest")
        args=$(sed -E 's/\[[^]]*\]//g; s/:.*//' <<<"$args")
        [ -n "$n" ] || continue
        if grep -qE '[A-Z]|\(|<' <<<"$args"; then
            continue
        fi
        echo "$n|$(echo $args)"
        return
    done < <(sed -n '1,60p' "$src" | grep -E "ordex explore .*-n [0-9]+ .*${base//./\\.}")
    echo "3|"
}

# The fields compared, one per line.
summary() {
    jq -r '[.verdict,
            ([.findings[] | "\(.kind)@\(.location // "-"): \(.message)"] | sort | join(" | ")),
            (.stats.outcomes | map(tostring) | join(",")),
            (if (.incomplete // "" | test("time limit")) then "counts not compared (time limit)"
             else "states=\(.stats.states) transitions=\(.stats.transitions) paths=\(.stats.paths) merged=\(.stats.merged)" end)]
           | join("\n")' "$1" 2>/dev/null |
        sed -E 's/polled in vain [0-9]+ times/polled in vain N times/g' # counted until a timeout
}

passed=0
failed=0
for src in "${progs[@]}"; do
    name=${src%.c}
    name=${name//\//_}
    IFS='|' read -r n args <<<"$(setup_of "$src")"
    # shellcheck disable=SC2086 # the arguments are words
    set -- $args
    [ "$(basename "$src")" = rank_log.c ] && set -- "$work/logs"
    for way in default fork; do
        opt=()
        [ "$way" = fork ] && opt=(--checkpoint=fork)
        (cd "$work" && timeout $((max_time + 60)) "$ordex" explore --jobs 1 "${opt[@]}" \
            --max-states "$max_states" --max-time "$max_time" --trace-dir "$work/traces" \
            --json "$work/$name.$way.json" -n "$n" "$top/$src" "$@" \
            >"$work/$name.$way.out" 2>"$work/$name.$way.err" </dev/null)
        echo $? >"$work/$name.$way.status"
    done
    sd=$(summary "$work/$name.default.json")
    sf=$(summary "$work/$name.fork.json")
    std=$(cat "$work/$name.default.status")
    stf=$(cat "$work/$name.fork.status")
    switched=$(jq -r '.checkpoint_switched // empty' "$work/$name.default.json" 2>/dev/null)
    note=${switched:+ (switched to fork: $switched)}
    if [ -z "$sd" ] && [ -z "$sf" ] && [ "$std" = "$stf" ]; then
        echo "SKIP $src -n $n $*: no report under either (exit $std)"
    elif [ "$sd" = "$sf" ] && [ "$std" = "$stf" ]; then
        echo "ok $src -n $n $*: $(tail -n 1 <<<"$sd")$note"
        passed=$((passed + 1))
    else
        echo "DIFF $src -n $n $*: exit $std (default) vs $stf (fork)"
        diff <(echo "$sd") <(echo "$sf") | sed 's/^/    /'
        [ -z "$sd" ] && tail -n 3 "$work/$name.default.err" | sed 's/^/    default: /'
        [ -z "$sf" ] && tail -n 3 "$work/$name.fork.err" | sed 's/^/    fork: /'
        failed=$((failed + 1))
    fi
done
echo "copy-default: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
