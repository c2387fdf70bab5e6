#!/usr/bin/env bash
# Builds the ordex binary when a source changed, and keeps a copy at
# .cache/bin/ordex (with ordexcc beside it) so launchers need not ask Bazel.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
bin=.cache/bin/ordex
if [ -x "$bin" ] && [ -z "$(find cli scheduler simulator perfmodel predict output stategraph checkpoint include third_party \
        tools/calibrate WORKSPACE BUILD copts.bzl .bazelrc -newer "$bin" -print -quit 2>/dev/null)" ]; then
    exit 0
fi
log=$(mktemp)
if ! bazel build -c opt //cli:ordex >"$log" 2>&1; then
    grep -E "error|ERROR" "$log" | head -n 40 >&2
    echo "ordex: the build failed (full log: $log)" >&2
    exit 2
fi
rm -f "$log"
mkdir -p .cache/bin
out="$(bazel info -c opt bazel-bin 2>/dev/null)/cli/ordex"
cp -f "$out" "$bin.tmp" && chmod u+w "$bin.tmp" && mv -f "$bin.tmp" "$bin"
ln -sf ordex .cache/bin/ordexcc
