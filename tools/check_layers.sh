#!/usr/bin/env bash
# Keeps the layers as docs/architecture.md draws them: fails when a package
# includes a header of a package it must not depend on, or a private header
# of the simulator.  Prints one line per violation and a closing line
# "layers: N passed, N failed" (one check per package).
set -uo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top" || exit 2

# package -> the packages whose headers it may include (besides its own).
declare -A allowed=(
    [util]=""
    [scheduler]="util"
    [perfmodel]="util"
    [checkpoint]="scheduler util"
    [simulator]="scheduler perfmodel include util"
    [output]="simulator util"
    [stategraph]="simulator scheduler checkpoint util"
    [predict]="stategraph simulator scheduler perfmodel output util"
    [toolchain]="scheduler util"
    [cli]="stategraph predict output perfmodel toolchain util"
)
# The simulator's headers other packages may include: its API for the run
# loop and the front end, the one for strategies, and simulated time.
public_sim="simulator/sim.h simulator/events.h simulator/timed.h"

passed=0
failed=0
for pkg in util scheduler perfmodel checkpoint simulator output stategraph predict toolchain cli; do
    bad=0
    while IFS= read -r hit; do
        file=${hit%%:*}
        rest=${hit#*:}
        line=${rest%%:*}
        header=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$rest")
        dep=${header%%/*}
        [ "$dep" = "$pkg" ] && continue
        ok=0
        for a in ${allowed[$pkg]}; do
            [ "$a" = "$dep" ] && ok=1
        done
        if [ $ok -eq 1 ] && [ "$dep" = simulator ] && ! grep -qw "$header" <<<"$public_sim"; then
            echo "layers: $file:$line includes $header, a private header of the simulator"
            bad=1
        elif [ $ok -eq 0 ]; then
            echo "layers: $file:$line includes $header, but $pkg must not depend on $dep" \
                "(allowed: ${allowed[$pkg]:-none})"
            bad=1
        fi
    done < <(grep -nE '^\s*#\s*include\s+"[a-z_]+/' "$pkg"/*.c "$pkg"/*.h 2>/dev/null)
    if [ $bad -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "layers: $passed passed, $failed failed"
[ $failed -eq 0 ]
