#!/usr/bin/env bash
# Fuzzes ordex's input parsers with libFuzzer (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer): the trace reader, the platform loader with
# --set overrides, the size/time/bandwidth parsers and option parsing
# (tests/fuzz/fuzz_*.c).  Each harness runs for FUZZ_SECONDS (default 60)
# from its corpus; the report gives executions, coverage and findings.
# Nothing here asserts anything: an input that fails is saved under
# $FUZZ_OUT/NAME/ (default /tmp/ordex-fuzz); copy it into
# tests/fuzz/corpus/NAME/ with the fix, so ./test runs it from then on.
#
#   bench/fuzz.sh                    # every harness, 60 s each
#   FUZZ_SECONDS=600 bench/fuzz.sh trace platform
#
# Needs clang (Debian package clang, with its libFuzzer runtime).  Builds in
# an output base of its own, so the regular build's cache stays as it is.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
seconds=${FUZZ_SECONDS:-60}
out=${FUZZ_OUT:-/tmp/ordex-fuzz}
base=${FUZZ_OUTPUT_BASE:-$HOME/.cache/ordex-fuzz-bazel}
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(options platform trace units)
command -v clang >/dev/null || { echo "fuzz.sh: needs clang (apt-get install clang)" >&2; exit 2; }
targets=()
for n in "${names[@]}"; do targets+=("//tests/fuzz:fuzz_${n}_fuzzer"); done
CC=clang bazel --output_base="$base" build --config=fuzz "${targets[@]}" >/tmp/ordex-fuzz-build.log 2>&1 ||
    { grep -E "error" /tmp/ordex-fuzz-build.log | head -20; exit 2; }
bin="$(CC=clang bazel --output_base="$base" info --config=fuzz bazel-bin 2>/dev/null)/tests/fuzz"
echo "| harness | seconds | executions | exec/s | coverage (edges) | features | new inputs | findings |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for n in "${names[@]}"; do
    mkdir -p "$out/$n/corpus" "$out/$n/findings"
    log="$out/$n/log"
    # The grown corpus stays in $out; the seeds come from the tree.
    "$bin/fuzz_${n}_fuzzer" -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$out/$n/findings/" "$out/$n/corpus" "tests/fuzz/corpus/$n" \
        >"$log" 2>&1 || true
    execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
    rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
    added=$(grep -oE 'stat::new_units_added: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
    ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
    found=$(find "$out/$n/findings" -type f | wc -l)
    echo "| $n | $seconds | $execs | $rate | $cov | $ft | $added | $found |"
    if [ "$found" -gt 0 ]; then
        find "$out/$n/findings" -type f | head -n 5 | sed 's/^/    finding: /' >&2
    fi
done
