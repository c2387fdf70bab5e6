#!/usr/bin/env bash
# Prediction accuracy on this machine: for each program of bench/predict/ and
# each rank count, the program's own timing ("elapsed_s", printed by rank 0
# between two barriers) from
#   - a real run with MPICH:             mpiexec.mpich -n N prog ARGS
#   - ordex's prediction:                ordex predict -n N --no-timeline --platform here.ini prog.so ARGS
#   - SimGrid's SMPI:                    smpirun -np N -platform <XML made from here.ini> prog ARGS
# (median of REPS runs each; under ordex and SMPI MPI_Wtime is simulated time),
# and each tool's own wall time and peak memory.  Then one large case: heat on
# 1024 ranks for 100 steps on a 1024-core cluster, its wall time and peak memory.
# Prints Markdown tables (for bench/RESULTS.md, section "Prediction accuracy").
#
#   bench/predict.sh                   all cases
#   bench/predict.sh heat mergesort    only these programs (and the 1024-rank case)
#
# Environment:
#   REPS=3            runs per tool and case (the median is reported)
#   WAIT_LOAD=0.5     first wait until the 1-minute load average is below this ...
#   WAIT_MAX=3600     ... for at most this many seconds (WAIT_LOAD= empty: no waiting)
#   RUN_TIMEOUT=900   seconds before one run is stopped (reported as "timeout")
#   SKIP_LARGE=1      leave out the 1024-rank case
#   ALT_SET="K=V ..."  also predict each case with these platform overrides
#                     (ordex predict --set K=V each), in the same turns, in an
#                     extra column: a model parameter compared on the same
#                     real runs
#   ALT_ARGS="..."    the same with these ordex predict options (e.g.
#                     "--placements 0"), with ALT_SET's overrides if both
#
# On a node with more polling ranks than cores ordex simulates placements
# and predicts their mean, while the program prints the elapsed_s of the
# placement whose breakdown is shown; that number is shifted by the
# difference of the two makespans (--json: predicted_time_s - shown_time_s).
#
# The platform file bench/predict/here.ini is made once by `ordex calibrate`
# (delete it to measure again).  SMPI gets a platform built from the same file:
# one host with this machine's cores for all ranks (so ranks share cores as
# they do for real), one shared link from the host to itself with the file's
# largest bandwidth, and the file's segments as SMPI's per-size latency and
# bandwidth factors (a segment above the eager limit gets three times its
# latency, as ordex charges an intra-node rendezvous message); the eager limit, the
# send and receive overheads and the core speed (measured computation charged
# 1:1) come from the file too.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
ORDEX_SETUP_EXTRA="libsimgrid-dev" ./tools/setup.sh
./tools/build.sh

reps=${REPS:-3}
wait_load=${WAIT_LOAD-0.5}
wait_max=${WAIT_MAX:-3600}
run_timeout=${RUN_TIMEOUT:-900}
plat=${PLATFORM:-bench/predict/here.ini}
src=bench/predict

# The cases: program, ranks, arguments.  Every real run lasts at least about
# 0.2 s on a 2-core machine.  Oversubscribed (4 and 8 ranks on 2 cores) MPICH
# needs an OS time slice for every message of a ring or ping-pong, so those
# cases send fewer messages.  overlap (not one of the validation programs)
# checks that a rendezvous message posted with MPI_Irecv waits for its
# receiver's MPI_Wait, as in MPICH.
cases=(
    "pingpong 2 1048576 1000"
    "pingpong 4 1048576 1000"
    "pingpong 8 1048576 100"
    "ring 2 200000 8"
    "ring 4 100 8"
    "ring 8 50 8"
    "heat 2 2048 200"
    "heat 4 2048 200"
    "heat 8 2048 200"
    "mergesort 2 8388608"
    "mergesort 4 8388608"
    "mergesort 8 8388608"
    "overlap 2 16777216 50 1"
)
large_ranks=1024
large_args="2048 100"
large_platform=examples/platforms/cluster.ini
large_set="cluster.nodes=256"

only=("$@")
wanted() {
    [ ${#only[@]} -eq 0 ] && return 0
    local p
    for p in "${only[@]}"; do [ "$p" = "$1" ] && return 0; done
    return 1
}

load1() { cut -d' ' -f1 /proc/loadavg; }

if [ -n "$wait_load" ]; then
    waited=0
    while awk -v l="$(load1)" -v m="$wait_load" 'BEGIN{exit !(l >= m)}'; do
        if [ "$waited" -ge "$wait_max" ]; then
            echo "predict.sh: load $(load1) still >= $wait_load after ${waited}s; going on" >&2
            break
        fi
        [ "$waited" -eq 0 ] && echo "predict.sh: waiting for load < $wait_load (now $(load1))" >&2
        sleep 30
        waited=$((waited + 30))
    done
fi

if [ ! -f "$plat" ]; then
    echo "predict.sh: calibrating this machine into $plat" >&2
    ./ordex calibrate -o "$plat" >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One ordex binary for the whole run, even if the checkout is rebuilt meanwhile.
mkdir -p "$work/bin"
cp .cache/bin/ordex "$work/bin/ordex"
ln -s ordex "$work/bin/ordexcc"
export ORDEX_HOME="$top"
ordex="$work/bin/ordex"

for p in pingpong ring heat mergesort overlap; do
    mpicc.mpich -O2 -o "$work/$p.mpi" "$src/$p.c" -lm
    "$work/bin/ordexcc" -O2 -o "$work/$p.so" "$src/$p.c" -lm
    smpicc -O2 -o "$work/$p.smpi" "$src/$p.c" -lm 2>/dev/null
done

# ---------------------------------------------------------------------------
# SMPI's platform and options from the platform file.
# Prints shell assignments: cores, speed (Gflop/s), link_lat (s), link_bw
# (B/s), lat_factor, bw_factor, eager, os, or.
platform_values() {
    awk '
    function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    function num(s) { if (match(s, /^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?/)) { U = trim(substr(s, RLENGTH + 1)); return substr(s, 1, RLENGTH) + 0 } U = "?"; return 0 }
    function tsec(s,  v) {
        v = num(s)
        if (U == "s" || (U == "" && v == 0)) return v
        if (U == "ms") return v * 1e-3
        if (U == "us" || U == "µs") return v * 1e-6
        if (U == "ns") return v * 1e-9
        bad = bad " time:" s; return 0
    }
    function bps(s,  v, u, k, bits) {
        v = num(s); u = U; sub(/\/s$/, "ps", u)
        bits = (u ~ /bps$/); sub(/[bB]ps$/, "", u)
        k = 1
        if (u == "K") k = 1e3; else if (u == "M") k = 1e6; else if (u == "G") k = 1e9; else if (u == "T") k = 1e12
        else if (u == "Ki") k = 1024; else if (u == "Mi") k = 1048576; else if (u == "Gi") k = 1073741824; else if (u == "Ti") k = 1099511627776
        else if (u != "") { bad = bad " bandwidth:" s; return 1 }
        return bits ? v * k / 8 : v * k
    }
    function bytes(s,  v, u) {
        v = num(s); u = U
        if (u == "" || u == "B") return v
        if (u == "KB") return v * 1e3; if (u == "MB") return v * 1e6; if (u == "GB") return v * 1e9
        if (u == "KiB") return v * 1024; if (u == "MiB") return v * 1048576; if (u == "GiB") return v * 1073741824
        bad = bad " size:" s; return 0
    }
    /^[ \t]*#/ || /^[ \t]*$/ { next }
    /^[ \t]*\[/ { sec = $0; gsub(/[][ \t]/, "", sec); next }
    {
        i = index($0, "="); if (!i) next
        k = trim(substr($0, 1, i - 1)); v = trim(substr($0, i + 1))
        key[sec "." k] = v
        if (sec == "network" && k ~ /^segment\./) {
            split(v, f, /[ \t]+/)
            ns++; sfrom[ns] = bytes(f[1]); slat[ns] = tsec(f[2]); sbw[ns] = bps(f[3])
        }
    }
    END {
        cores = ("cluster.cores_per_node" in key) ? key["cluster.cores_per_node"] + 0 : 1
        speed = ("cluster.speed" in key) ? key["cluster.speed"] + 0 : 1
        eager = ("network.eager_limit" in key) ? bytes(key["network.eager_limit"]) : 65536
        if ("intranode.latency" in key) {
            # Every rank runs on the one node: local messages cost this.
            ns = 1; sfrom[1] = 0; slat[1] = tsec(key["intranode.latency"]); sbw[1] = bps(key["intranode.bandwidth"])
        } else if (ns == 0) {
            ns = 1; sfrom[1] = 0; slat[1] = tsec(key["network.latency"]); sbw[1] = bps(key["network.bandwidth"])
        }
        # Sort the segments by size.
        for (i = 1; i <= ns; i++) for (j = i + 1; j <= ns; j++) if (sfrom[j] < sfrom[i]) {
            t = sfrom[i]; sfrom[i] = sfrom[j]; sfrom[j] = t
            t = slat[i]; slat[i] = slat[j]; slat[j] = t
            t = sbw[i]; sbw[i] = sbw[j]; sbw[j] = t
        }
        # All ranks share one node, so every message is intra-node, and one
        # above the eager limit pays three latencies in ordex (the message
        # and the handshake round trip): split the segment that holds the
        # limit there and give SMPI that total as the latency above it.
        at = 0
        for (i = 1; i <= ns; i++) if (sfrom[i] == eager + 1) at = i
        if (!at) {
            last = 0
            for (i = 1; i <= ns && sfrom[i] <= eager; i++) last = i
            if (last) {
                for (j = ns; j > last; j--) { sfrom[j + 1] = sfrom[j]; slat[j + 1] = slat[j]; sbw[j + 1] = sbw[j] }
                ns++; sfrom[last + 1] = eager + 1; slat[last + 1] = slat[last]; sbw[last + 1] = sbw[last]
            }
        }
        lmax = 0; bmax = 0
        for (i = 1; i <= ns; i++) {
            if (sfrom[i] > eager) slat[i] *= 3
            if (slat[i] > lmax) lmax = slat[i]
            if (sbw[i] > bmax) bmax = sbw[i]
        }
        if (lmax <= 0) lmax = 1e-9
        lf = ""; bf = ""
        for (i = 1; i <= ns; i++) {
            lf = lf sprintf("%s%d:%.9g", i > 1 ? ";" : "", sfrom[i], slat[i] / lmax)
            bf = bf sprintf("%s%d:%.9g", i > 1 ? ";" : "", sfrom[i], sbw[i] / bmax)
        }
        so = ("network.send_overhead" in key) ? tsec(key["network.send_overhead"]) : 0
        sob = ("network.send_overhead_per_byte" in key) ? tsec(key["network.send_overhead_per_byte"]) : 0
        ro = ("network.recv_overhead" in key) ? tsec(key["network.recv_overhead"]) : 0
        rob = ("network.recv_overhead_per_byte" in key) ? tsec(key["network.recv_overhead_per_byte"]) : 0
        if (bad != "") { print "echo \"predict.sh: cannot read" bad "\" >&2; exit 2"; exit }
        printf "cores=%d\nspeed=%.9g\nlink_lat=%.9g\nlink_bw=%.9g\n", cores, speed, lmax, bmax
        printf "lat_factor=\"%s\"\nbw_factor=\"%s\"\neager=%d\n", lf, bf, eager
        printf "os=\"0:%.9g:%.9g\"\nor=\"0:%.9g:%.9g\"\n", so, sob, ro, rob
    }' "$1"
}
eval "$(platform_values "$plat")"
cat >"$work/smpi.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="machine" routing="Full">
    <host id="here" speed="${speed}Gf" core="$cores"/>
    <link id="shm" bandwidth="${link_bw}Bps" latency="${link_lat}s" sharing_policy="SHARED"/>
    <route src="here" dst="here"><link_ctn id="shm"/></route>
  </zone>
</platform>
XML
echo here >"$work/hosts"
smpi_opts=(
    -platform "$work/smpi.xml" -hostfile "$work/hosts"
    --cfg=smpi/host-speed:1Gf
    "--cfg=smpi/lat-factor:$lat_factor"
    "--cfg=smpi/bw-factor:$bw_factor"
    --cfg=network/crosstraffic:0
    --cfg=network/TCP-gamma:0
    "--cfg=smpi/send-is-detached-thresh:$((eager + 1))"
    "--cfg=smpi/os:$os" "--cfg=smpi/ois:$os" "--cfg=smpi/or:$or"
    --cfg=smpi/coll-selector:mpich
    --cfg=smpi/display-timing:no
    --log=root.thres:critical
)

# ---------------------------------------------------------------------------
# run OUT CMD...: runs CMD (stdout to OUT), prints "elapsed wall peak_kib
# cpu_s" where elapsed is the program's elapsed_s ("fail" or "timeout" when
# it has none) and cpu_s the CPU time of CMD and its children.
# elapsed_s ($1) of an ordex prediction moved to the mean over its
# placements, from its JSON ($2); unchanged without placements.
placed_elapsed() {
    local mean shown
    mean=$(grep -o '"predicted_time_s": [-0-9.e+]*' "$2" 2>/dev/null | awk '{ print $2 }')
    shown=$(grep -o '"shown_time_s": [-0-9.e+]*' "$2" 2>/dev/null | awk '{ print $2 }')
    if isnum "$1" && isnum "$mean" && isnum "$shown"; then
        awk -v e="$1" -v m="$mean" -v s="$shown" 'BEGIN { printf "%.9g", e + m - s }'
    else
        echo "$1"
    fi
}

run() {
    local out=$1
    shift
    local rc=0
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" timeout "$run_timeout" "$@" >"$out" 2>"$out.err" || rc=$?
    local e
    e=$(awk '$1 == "elapsed_s" { print $2 }' "$out" | tail -n 1)
    if [ "$rc" = 124 ]; then
        e=timeout
    elif [ -z "$e" ]; then
        e=fail
        {
            echo "predict.sh: $* exited with status $rc and printed no elapsed_s:"
            tail -n 5 "$out" "$out.err"
        } >&2
    fi
    tail -n 1 "$work/time" | awk -v e="$e" '{ printf "%s %s %s %.2f\n", e, $1, $2, $3 + $4 }'
}

# CPU seconds the machine has been busy since boot (all processes, and the
# time a hypervisor took from this virtual machine).
machine_cpu() {
    awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { print ($2 + $3 + $4 + $7 + $8 + $9) / hz }' /proc/stat
}
now() { date +%s.%N; }

# median of the arguments (numbers; anything else wins if it is the majority)
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
minmax() {
    printf '%s\n' "$@" | sort -g | awk 'function f(x) { return x ~ /^[0-9.eE+-]+$/ ? sprintf("%.4g", x) : x }
        NR == 1 { a = $1 } { b = $1 } END { printf "%s-%s", f(a), f(b) }'
}
isnum() { [[ $1 =~ ^[0-9.eE+-]+$ ]]; }
err_pct() { # err_pct PRED REAL: signed relative error in percent
    if isnum "$1" && isnum "$2"; then
        awk -v p="$1" -v r="$2" 'BEGIN { printf "%+.1f%%", 100 * (p - r) / r }'
    else
        echo "-"
    fi
}
abs_err() {
    if isnum "$1" && isnum "$2"; then awk -v p="$1" -v r="$2" 'BEGIN { d = (p - r) / r; print d < 0 ? -d : d }'; else echo 1e300; fi
}
fmt() { if isnum "$1"; then awk -v x="$1" 'BEGIN { printf "%.4g", x }'; else echo "$1"; fi; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

alt_set=()
for kv in ${ALT_SET:-}; do alt_set+=(--set "$kv"); done
for a in ${ALT_ARGS:-}; do alt_set+=("$a"); done
alt_head="" alt_rule=""
if [ ${#alt_set[@]} -gt 0 ]; then
    alt_head=" ordex with ${ALT_SET:-}${ALT_SET:+ }${ALT_ARGS:-} s | error |" alt_rule="---:|---:|"
fi

acc="$work/accuracy.md"
tools="$work/tools.md"
echo "| program | ranks | arguments | others' CPU | real s (min-max) | ordex s (min-max) | ordex error | SMPI s (min-max) | SMPI error | closer |$alt_head" >"$acc"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---|$alt_rule" >>"$acc"
echo "| program | ranks | real wall s | ordex wall s | ordex peak MiB | SMPI wall s | SMPI peak MiB |" >"$tools"
echo "|---|---:|---:|---:|---:|---:|---:|" >>"$tools"

echo "predict.sh: $(date -u '+%F %T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for c in "${cases[@]}"; do
    read -r prog n args <<<"$c"
    wanted "$prog" || continue
    # CPU used by other processes during the case, in cores (0 = the machine
    # ran only this benchmark).
    cpu0=$(machine_cpu) t0=$(now) own=0
    declare -a re=() rw=() oe=() ow=() om=() se=() sw=() sm=() ae=()
    # The three tools take turns, so that a slow spell of the machine
    # touches all of them rather than one.
    for ((i = 0; i < reps; i++)); do
        read -r e w m u < <(run "$work/out" mpiexec.mpich -n "$n" "$work/$prog.mpi" $args)
        re+=("$e"); rw+=("$w"); own=$(awk -v a="$own" -v b="$u" 'BEGIN { print a + b }')
        rm -f "$work/o.json"
        read -r e w m u < <(run "$work/out" "$ordex" predict -n "$n" --no-timeline --platform "$plat" \
            --json "$work/o.json" "$work/$prog.so" $args)
        e=$(placed_elapsed "$e" "$work/o.json")
        oe+=("$e"); ow+=("$w"); om+=("$m"); own=$(awk -v a="$own" -v b="$u" 'BEGIN { print a + b }')
        if [ ${#alt_set[@]} -gt 0 ]; then
            rm -f "$work/o.json"
            read -r e w m u < <(run "$work/out" "$ordex" predict -n "$n" --no-timeline --platform "$plat" \
                --json "$work/o.json" "${alt_set[@]}" "$work/$prog.so" $args)
            e=$(placed_elapsed "$e" "$work/o.json")
            ae+=("$e"); own=$(awk -v a="$own" -v b="$u" 'BEGIN { print a + b }')
        fi
        read -r e w m u < <(run "$work/out" smpirun -np "$n" "${smpi_opts[@]}" "$work/$prog.smpi" $args)
        se+=("$e"); sw+=("$w"); sm+=("$m"); own=$(awk -v a="$own" -v b="$u" 'BEGIN { print a + b }')
    done
    load=$(awk -v c0="$cpu0" -v c1="$(machine_cpu)" -v t0="$t0" -v t1="$(now)" -v own="$own" \
        'BEGIN { x = (c1 - c0 - own) / (t1 - t0); printf "%.2f", x < 0 ? 0 : x }')
    r=$(median "${re[@]}"); o=$(median "${oe[@]}"); s=$(median "${se[@]}")
    eo=$(abs_err "$o" "$r"); es=$(abs_err "$s" "$r")
    closer=$(awk -v a="$eo" -v b="$es" 'BEGIN { print (a < b ? "ordex" : (b < a ? "SMPI" : "tie")) }')
    alt_cols=""
    if [ ${#alt_set[@]} -gt 0 ]; then
        a=$(median "${ae[@]}")
        alt_cols=" $(fmt "$a") | $(err_pct "$a" "$r") |"
    fi
    echo "| $prog | $n | $args | $load | $(fmt "$r") ($(minmax "${re[@]}")) | $(fmt "$o") ($(minmax "${oe[@]}")) | $(err_pct "$o" "$r") | $(fmt "$s") ($(minmax "${se[@]}")) | $(err_pct "$s" "$r") | $closer |$alt_cols" >>"$acc"
    echo "| $prog | $n | $(median "${rw[@]}") | $(median "${ow[@]}") | $(mib "$(median "${om[@]}")") | $(median "${sw[@]}") | $(mib "$(median "${sm[@]}")") |" >>"$tools"
    echo "predict.sh: done $prog -n $n (real $r, ordex $o, SMPI $s)" >&2
done

echo "## Accuracy (elapsed_s, median of $reps runs each; error = (predicted - real) / real)"
echo
cat "$acc"
echo
echo "## Wall time and peak memory of each tool (median of $reps runs; real = the whole mpiexec)"
echo
cat "$tools"

if [ -z "${SKIP_LARGE:-}" ]; then
    declare -a le=() lw=() lm=()
    cpu0=$(machine_cpu) t0=$(now) own=0
    for ((i = 0; i < reps; i++)); do
        read -r e w m u < <(run "$work/out" "$ordex" predict -n "$large_ranks" --no-timeline \
            --platform "$large_platform" --set "$large_set" "$work/heat.so" $large_args)
        le+=("$e"); lw+=("$w"); lm+=("$m"); own=$(awk -v a="$own" -v b="$u" 'BEGIN { print a + b }')
    done
    load=$(awk -v c0="$cpu0" -v c1="$(machine_cpu)" -v t0="$t0" -v t1="$(now)" -v own="$own" \
        'BEGIN { x = (c1 - c0 - own) / (t1 - t0); printf "%.2f", x < 0 ? 0 : x }')
    echo
    echo "## Large case: heat, $large_ranks ranks, arguments $large_args, $large_platform with --set $large_set"
    echo
    echo "| ranks | others' CPU | predicted elapsed_s | ordex wall s (min-max) | ordex peak MiB (max) |"
    echo "|---:|---:|---:|---:|---:|"
    echo "| $large_ranks | $load | $(fmt "$(median "${le[@]}")") | $(median "${lw[@]}") ($(minmax "${lw[@]}")) | $(mib "$(printf '%s\n' "${lm[@]}" | sort -g | tail -n 1)") |"
fi
echo
echo "predict.sh: finished $(date -u '+%F %T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
