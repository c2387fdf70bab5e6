#!/usr/bin/env bash
# Builds the ordex binary when a source changed, and keeps a copy at
# .cache/bin/ordex (with ordexcc beside it, and ordex-dist-agent, the MPI
# transport of `ordex explore --distributed`) so launchers need not ask Bazel.
#
# Up to date: no file of the directories the binary is built from (and of
# the Bazel set-up) is newer than the copy, whose time is that of the start
# of the build it came from (an edit made during a build is seen next time).
# A failed build asks dpkg (tools/setup.sh --missing) whether a package went
# missing since setup.sh's last check, and builds again once if so.
set -euo pipefail
case "${BASH_SOURCE[0]}" in
*/*) cd "${BASH_SOURCE[0]%/*}/.." ;;
*) cd .. ;;
esac
bin=.cache/bin/ordex
if [ -x "$bin" ] && [ -z "$(find cli toolchain util scheduler simulator perfmodel predict output stategraph checkpoint include third_party \
        tools/calibrate WORKSPACE BUILD copts.bzl .bazelrc -newer "$bin" -print -quit 2>/dev/null)" ]; then
    exit 0
fi
mkdir -p .cache/bin
began=.cache/bin/.build-began.$$
trap 'rm -f "$began"' EXIT
: >"$began"
log=$(mktemp)
build() { bazel build -c opt //cli:ordex //stategraph:ordex-dist-agent >"$log" 2>&1; }
if ! build && ! { [ -n "$(tools/setup.sh --missing)" ] && tools/setup.sh --full && build; }; then
    grep -E "error|ERROR" "$log" | head -n 40 >&2
    echo "ordex: the build failed (full log: $log)" >&2
    exit 2
fi
rm -f "$log"
bb="$(bazel info -c opt bazel-bin 2>/dev/null)"
agent=.cache/bin/ordex-dist-agent
cp -f "$bb/stategraph/ordex-dist-agent" "$agent.tmp" && chmod u+w "$agent.tmp" && mv -f "$agent.tmp" "$agent"
cp -f "$bb/cli/ordex" "$bin.tmp" && chmod u+w "$bin.tmp" && touch -r "$began" "$bin.tmp" && mv -f "$bin.tmp" "$bin"
ln -sf ordex .cache/bin/ordexcc
