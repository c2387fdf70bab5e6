#!/usr/bin/env bash
# Records the expected stdout of the one-sided (RMA) programs under real
# Open MPI.
#
# Debian's MPICH 4.0.2 returns wrong RMA results on these machines, so the
# RMA programs are recorded with Open MPI instead (packages openmpi-bin and
# libopenmpi-dev, see tools/setup.sh).  Every entry: NAME N SOURCE [ARGS...].
# The program is built with mpicc.openmpi (-Wall -Wextra -Werror), run with
# `mpirun.openmpi --oversubscribe -n N`, and its stdout is written sorted by
# line (LC_ALL=C) to expected/NAME.out; the end-to-end tests (test_rma.c)
# compare ordex's sorted stdout with it.
#
# Not recorded: one-rank runs of windows made by MPI_Win_create or
# MPI_Win_allocate (Open MPI 4.1's default one-sided components refuse them:
# MPI_ERR_WIN), and tests/programs/rma_acc.c (its MPI_Compare_and_swap
# crashes in Open MPI 4.1's osc/rdma over the vader transport); ordex's
# answers for those are checked by value in test_rma.c.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for tool in mpicc.openmpi mpirun.openmpi; do
    command -v "$tool" >/dev/null || {
        echo "record_expected_openmpi.sh: $tool not found (apt-get install openmpi-bin libopenmpi-dev)" >&2
        exit 2
    }
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

record() {
    local name=$1 n=$2 src=$3
    shift 3
    mpicc.openmpi -Wall -Wextra -Werror -o "$work/prog" "$top/$src"
    timeout 120 mpirun.openmpi --oversubscribe -n "$n" "$work/prog" "$@" >"$work/out" 2>/dev/null
    LC_ALL=C sort "$work/out" >"$here/expected/$name.out"
    echo "expected/$name.out: $(wc -l <"$here/expected/$name.out") lines"
}

mkdir -p "$here/expected"
record rma_halo.n4 4 examples/rma_halo.c
record rma_halo.n3 3 examples/rma_halo.c
record rma_halo.n2.100.30 2 examples/rma_halo.c 100 30
record rma_counter.n3 3 examples/rma_counter.c
record rma_counter.n4.k3 4 examples/rma_counter.c 3
record rma_pscw.n4 4 examples/rma_pscw.c
record rma_pscw.n2.6 2 examples/rma_pscw.c 6
record rma_shared.n4 4 examples/rma_shared.c
record rma_shared.n1 1 examples/rma_shared.c
record rma_shared.n3.16.25 3 examples/rma_shared.c 16 25
record rma_lockq.n3 3 examples/rma_lockq.c
record rma_lockq.n4.6 4 examples/rma_lockq.c 6
record rma_ring.n4 4 tests/programs/rma_ring.c
record rma_ring.n2 2 tests/programs/rma_ring.c
record rma_types.n3 3 tests/programs/rma_types.c
record rma_types.n2 2 tests/programs/rma_types.c
