#!/usr/bin/env bash
# Installs the Debian packages ordex needs to build, test and run.  Quiet
# when all are there.
#
#   tools/setup.sh            fast path: trusts the stamp (below) when current
#   tools/setup.sh --full     asks dpkg about every package (./test does)
#   tools/setup.sh --missing  prints the packages not installed, installs nothing
#
# The stamp, .cache/setup.stamp, lists the packages the last full check found
# installed.  It is current while it names every package needed now and is
# newer than dpkg's status file (/var/lib/dpkg/status, rewritten whenever a
# package is installed, upgraded or removed); then no dpkg-query runs, so the
# launchers start in a few milliseconds.  Adding a package below, or removing
# one from the machine, makes the next call check again.  Delete the stamp to
# force a check.  ORDEX_SETUP_EXTRA="pkg ..." adds packages for one call.
set -euo pipefail
# The checkout's top directory, found without starting a process.
case "${BASH_SOURCE[0]}" in
*/*) top="${BASH_SOURCE[0]%/*}/.." ;;
*) top=.. ;;
esac
stamp="$top/.cache/setup.stamp"
status=/var/lib/dpkg/status

# Every package the build links or includes from, and the tools ordex runs.
# The static archives linked into ordex (third_party/pkg_config.bzl) come
# from the -dev packages named beside them (`dpkg -S` of each archive).
need=(
    bazel-bootstrap # Bazel 4.2.3
    gcc             # the compiler: the build, ordexcc and `ordex run prog.c`
    libc6-dev       # the C library's headers and link files
    binutils        # as and ld, for gcc
    pkg-config      # names GLib's and elfutils' include dirs and static archives
    libglib2.0-dev  # glib.h, libglib-2.0.a
    libpcre2-dev    # libpcre2-8.a (GLib's, linked statically)
    libdw-dev       # elfutils/libdw.h, dwarf.h, libdw.a
    libelf-dev      # libelf.h, gelf.h, libelf.a
    zlib1g-dev      # libz.a     (elfutils' compressed sections)
    liblzma-dev     # liblzma.a  (elfutils' compressed sections)
    libbz2-dev      # libbz2.a   (elfutils' compressed sections)
    libxxhash-dev   # xxhash.h: the state hash (checkpoint/hash.c), header only
    valgrind        # valgrind/valgrind.h, memcheck.h (client requests)
    libcunit1-dev   # CUnit, the unit and end-to-end tests
    libjson-glib-dev # json-glib: tests read back the JSON ordex writes
    libmpich-dev    # mpi.h; mpicc.mpich for `ordex calibrate` and the cross-check
    mpich           # mpiexec.mpich for the same
    gdb             # `ordex replay --gdb`
    openmpi-bin     # mpirun.openmpi: the RMA programs' expected output (MPICH 4.0.2 gets RMA wrong here)
    libopenmpi-dev  # mpicc.openmpi for the same (tests/e2e/record_expected_openmpi.sh)
)
[ "${ORDEX_SETUP_EXTRA:-}" ] && read -r -a extra <<<"$ORDEX_SETUP_EXTRA" && need+=("${extra[@]}")

mode=${1:-}
case "$mode" in
"" | --full | --missing) ;;
*)
    echo "tools/setup.sh: unknown option '$mode' (expected --full or --missing)" >&2
    exit 2
    ;;
esac

# The fast path: only shell built-ins, no process started.
if [ -z "$mode" ] && [ -f "$stamp" ] && [ "$stamp" -nt "$status" ]; then
    declare -A stamped=()
    while IFS= read -r p; do stamped[$p]=1; done <"$stamp"
    current=1
    for p in "${need[@]}"; do
        [ -n "${stamped[$p]:-}" ] || { current=0; break; }
    done
    [ $current -eq 1 ] && exit 0
fi

# missing_packages: prints the packages of `need` dpkg does not have
# installed, one per line (one dpkg-query for all).
missing_packages() {
    declare -A ok=()
    local p s
    while read -r p s; do
        [ "$s" = "install ok installed" ] && ok[$p]=1
    done < <(dpkg-query -W -f='${Package} ${Status}\n' "${need[@]}" 2>/dev/null || true)
    for p in "${need[@]}"; do
        [ -n "${ok[$p]:-}" ] || echo "$p"
    done
}

# The stamp carries the time the check began: a package removed while it ran
# leaves dpkg's status file newer than the stamp.
mkdir -p "$top/.cache"
began="$stamp.began.$$"
trap 'rm -f "$began" "$stamp.tmp.$$"' EXIT
write_stamp() {
    printf '%s\n' "${need[@]}" >"$stamp.tmp.$$"
    touch -r "$began" "$stamp.tmp.$$"
    mv -f "$stamp.tmp.$$" "$stamp"
}

: >"$began"
mapfile -t missing < <(missing_packages)
if [ "$mode" = --missing ]; then
    [ ${#missing[@]} -eq 0 ] || printf '%s\n' "${missing[@]}"
    exit 0
fi
if [ ${#missing[@]} -eq 0 ]; then
    write_stamp
    exit 0
fi

rm -f "$stamp"
echo "ordex: installing Debian packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "ordex: need root (or sudo) to install: ${missing[*]}" >&2; exit 2; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
log=/tmp/ordex-apt.log
if ! $sudo apt-get install -y -qq "${missing[@]}" >"$log" 2>&1; then
    $sudo apt-get update -qq >>"$log" 2>&1 || true
    if ! $sudo apt-get install -y -qq "${missing[@]}" >>"$log" 2>&1; then
        echo "ordex: installing ${missing[*]} failed; see $log" >&2
        exit 2
    fi
fi
# Installing Open MPI makes it Debian's default `mpicc`, `mpiexec` and mpi.h (it has the
# higher alternatives priority); ordex's unqualified uses (tests/crosscheck_mpich.sh) and
# the build mean MPICH, so point the alternatives back at it.
for alt in "mpi /usr/bin/mpicc.mpich" "mpirun /usr/bin/mpirun.mpich" \
    "mpi-x86_64-linux-gnu /usr/include/x86_64-linux-gnu/mpich"; do
    read -r name path <<<"$alt"
    if [ -e "$path" ] && update-alternatives --query "$name" >/dev/null 2>&1; then
        $sudo update-alternatives --set "$name" "$path" >>"$log" 2>&1 || true
    fi
done
: >"$began" # apt-get has rewritten dpkg's status: check from now on
mapfile -t missing < <(missing_packages)
if [ ${#missing[@]} -ne 0 ]; then
    echo "ordex: still not installed after apt-get: ${missing[*]}; see $log" >&2
    exit 2
fi
write_stamp
