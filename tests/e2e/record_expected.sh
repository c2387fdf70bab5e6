#!/usr/bin/env bash
# Records the expected stdout of the correct programs under real MPICH.
#
# Every entry: NAME N SOURCE [ARGS...].  The program is built with mpicc.mpich, run
# with `mpiexec.mpich -n N`, and its stdout is written sorted by line (LC_ALL=C) to
# expected/NAME.out; the end-to-end tests compare ordex's sorted stdout with it.
# heap.c prints heap offsets that differ between allocators: only its
# "contents" lines are kept.  Run from anywhere; needs mpicc.mpich and mpiexec.mpich.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

record() {
    local name=$1 n=$2 src=$3
    shift 3
    mpicc.mpich -o "$work/prog" "$top/$src"
    timeout 120 mpiexec.mpich -n "$n" "$work/prog" "$@" >"$work/out" 2>/dev/null
    if [ "$name" = heap.n4 ]; then
        grep ' contents ' "$work/out" >"$work/out2" || true
        mv "$work/out2" "$work/out"
    fi
    LC_ALL=C sort "$work/out" >"$here/expected/$name.out"
    echo "expected/$name.out: $(wc -l <"$here/expected/$name.out") lines"
}

# A program linked with the user's own shared library (userlib_lib.c), found
# next to the program through its run path.
record_userlib() {
    local name=$1 n=$2
    mpicc.mpich -shared -fPIC -o "$work/libuserlib.so" "$top/tests/programs/userlib_lib.c"
    mpicc.mpich -o "$work/userlib" "$top/tests/programs/userlib.c" -L"$work" -luserlib \
        -Wl,-rpath,'$ORIGIN'
    timeout 120 mpiexec.mpich -n "$n" "$work/userlib" >"$work/out" 2>/dev/null
    LC_ALL=C sort "$work/out" >"$here/expected/$name.out"
    echo "expected/$name.out: $(wc -l <"$here/expected/$name.out") lines"
}

mkdir -p "$here/expected"
record ring.n4.k3 4 examples/ring.c 3
record ring.n1.k5 1 examples/ring.c 5
record heat.n4 4 examples/heat.c
record heat.n3 3 examples/heat.c
record heat.n4.64.10 4 examples/heat.c 64 10
record mergesort.n4 4 examples/mergesort.c
record mergesort.n2 2 examples/mergesort.c
record neighbor_exchange.n4.fixed 4 examples/neighbor_exchange.c --fixed
record neighbor_exchange.n3.fixed 3 examples/neighbor_exchange.c --fixed
record neighbor_exchange.n2 2 examples/neighbor_exchange.c
record pingpong.n2 2 examples/pingpong.c
record pingpong.n3 3 examples/pingpong.c
record deadlock_else.n2 2 examples/deadlock_else.c
record deadlock_cycle.n4 4 examples/deadlock_cycle.c
record barrier_comm.n1 1 examples/barrier_comm.c
record waitany_race.n2 2 examples/waitany_race.c
record wildcard_deadlock.n2 2 examples/wildcard_deadlock.c
record probe_race.n2 2 examples/probe_race.c
record bcast_sync.n2 2 examples/bcast_sync.c
record bcast_sync.n4 4 examples/bcast_sync.c
record bcast_sync.n1 1 examples/bcast_sync.c
record benign_any_source.n4 4 examples/benign_any_source.c
record benign_any_source.n2 2 examples/benign_any_source.c
record benign_waitall.n4 4 examples/benign_waitall.c
record benign_waitall.n2 2 examples/benign_waitall.c
record floyd_steinberg.n4 4 examples/floyd_steinberg.c
record floyd_steinberg.n3 3 examples/floyd_steinberg.c
record floyd_steinberg.n1 1 examples/floyd_steinberg.c
record lu.n4 4 examples/lu.c
record lu.n3 3 examples/lu.c
record lu.n1 1 examples/lu.c
record nbexchange.n4 4 examples/nbexchange.c
record nbexchange.n2 2 examples/nbexchange.c
record nbexchange.n5 5 examples/nbexchange.c

record globals.n4 4 tests/programs/globals.c
record heap.n4 4 tests/programs/heap.c
record wildcard.n4 4 tests/programs/wildcard.c
record persistent.n4 4 tests/programs/persistent.c
record probe.n4 4 tests/programs/probe.c
record sendrecv_replace.n4 4 tests/programs/sendrecv_replace.c
record sendrecv_replace.n1 1 tests/programs/sendrecv_replace.c
record bsend.n4 4 tests/programs/bsend.c
record fixed_match.n3 3 tests/programs/fixed_match.c
record ssend.n4 4 tests/programs/ssend.c
record ssend.n3 3 tests/programs/ssend.c
record waitany.n4 4 tests/programs/waitany.c
record collectives.n4 4 tests/programs/collectives.c
record collectives.n3 3 tests/programs/collectives.c
record collectives.n1 1 tests/programs/collectives.c
record datatypes.n2 2 tests/programs/datatypes.c
record heap_limit.n2 2 tests/programs/heap_limit.c
record cart.n4 4 tests/programs/cart.c
record mprobe.n4 4 tests/programs/mprobe.c
record comm_split.n4 4 tests/programs/comm_split.c
record comm_split.n3 3 tests/programs/comm_split.c
record comm_create_disjoint.n4 4 tests/programs/comm_create_disjoint.c
record comm_create_disjoint.n5 5 tests/programs/comm_create_disjoint.c
record comm_create_disjoint.n1 1 tests/programs/comm_create_disjoint.c
record coll_blocking_mix.n1 1 tests/programs/coll_blocking_mix.c
record coll_blocking_mix.n3 3 tests/programs/coll_blocking_mix.c
record coll_blocking_mix.n4 4 tests/programs/coll_blocking_mix.c
record free_pending.n1 1 tests/programs/free_pending.c
record free_pending.n3 3 tests/programs/free_pending.c
record free_pending.n4 4 tests/programs/free_pending.c
record leaks.n1 1 tests/programs/leaks.c free
record leaks.n3 3 tests/programs/leaks.c free
record leaks.n4 4 tests/programs/leaks.c free
record request_free_active.n3 3 tests/programs/request_free_active.c wait
record alias.n1 1 tests/programs/alias.c
record alias.n3 3 tests/programs/alias.c
record alias.n4 4 tests/programs/alias.c
record errors_return.n4 4 tests/programs/errors_return.c
record attrs.n3 3 tests/programs/attrs.c
record attrs.n1 1 tests/programs/attrs.c
record errhandlers.n2 2 tests/programs/errhandlers.c
record info.n2 2 tests/programs/info.c
record typearrays.n4 4 tests/programs/typearrays.c
record comm_more.n4 4 tests/programs/comm_more.c
record intercomm.n4 4 tests/programs/intercomm.c
record intercoll.n3 3 tests/programs/intercoll.c
record intercoll.n4 4 tests/programs/intercoll.c
record grequest.n2 2 tests/programs/grequest.c
record topo_graph.n4 4 tests/programs/topo_graph.c
record_userlib userlib.n3 3
record_userlib userlib.n4 4
record getopt_ranks.n4 4 tests/programs/getopt_ranks.c -m 4 extra -i 2
record rand_ranks.n4 4 tests/programs/rand_ranks.c
record strtok_ranks.n4 4 tests/programs/strtok_ranks.c
record env_ranks.n4 4 tests/programs/env_ranks.c
record getpid_ranks.n4 4 tests/programs/getpid_ranks.c
record fork_child.n4 4 tests/programs/fork_child.c
record signal_ok.n4 4 tests/programs/signal_ok.c
