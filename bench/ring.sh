#!/usr/bin/env bash
# Ring benchmark: N ranks pass a token for K rounds (examples/ring.c).
# Measures messages simulated per second and peak memory of ordex and of
# SimGrid's SMPI (smpicc/smpirun, Debian's libsimgrid-dev) on the same source,
# in the same run, and prints a Markdown table (append it to bench/RESULTS.md).
#
#   bench/ring.sh [N ...]         default N = 2 64 1000 10000
# Each case runs N*K ~= MSGS messages (default 400000, at least 10 rounds).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
ORDEX_SETUP_EXTRA="libsimgrid-dev" ./tools/setup.sh
./tools/build.sh
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(2 64 1000 10000)
msgs=${MSGS:-400000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ORDEX_HOME="$top" .cache/bin/ordexcc -O2 -o "$work/ring.so" examples/ring.c
smpicc -O2 -o "$work/ring.smpi" examples/ring.c 2>/dev/null

# measure CMD...: prints "seconds peak_kib status"
measure() {
    local out
    out=$( { /usr/bin/time -f "%e %M" "$@" >/dev/null 2>"$work/err"; } 2>&1; echo "rc=$?")
    local rc=${out##*rc=}
    local times
    times=$(tail -n 1 "$work/err")
    echo "$times $rc"
}

echo "| ranks | rounds | messages | ordex s | ordex msg/s | ordex peak MiB | SMPI s | SMPI msg/s | SMPI peak MiB | speed-up |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
    k=$(( msgs / n )); [ "$k" -lt 10 ] && k=10
    m=$(( n * k ))
    read -r ot om orc < <(measure env ORDEX_HOME="$top" .cache/bin/ordex run -q -n "$n" "$work/ring.so" "$k")
    # SMPI: one host per rank on a crossbar cluster.
    plat="$work/plat-$n.xml"; hosts="$work/hosts-$n"
    cat >"$plat" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-$((n - 1))" speed="1Gf" bw="10GBps" lat="1us"/>
</platform>
XML
    seq 0 $((n - 1)) | sed 's/^/node-/' >"$hosts"
    read -r st sm src < <(measure smpirun -np "$n" -platform "$plat" -hostfile "$hosts" \
        --cfg=smpi/display-timing:no --log=root.thres:critical "$work/ring.smpi" "$k")
    orate=$(awk -v m="$m" -v t="$ot" 'BEGIN{printf "%.0f", (t > 0 ? m / t : 0)}')
    srate=$(awk -v m="$m" -v t="$st" 'BEGIN{printf "%.0f", (t > 0 ? m / t : 0)}')
    speed=$(awk -v a="$st" -v b="$ot" 'BEGIN{printf "%.1fx", (b > 0 ? a / b : 0)}')
    [ "$orc" = 0 ] || ot="$ot (exit $orc)"
    [ "$src" = 0 ] || st="$st (exit $src)"
    echo "| $n | $k | $m | $ot | $orate | $((om / 1024)) | $st | $srate | $((sm / 1024)) | $speed |"
done
