#!/usr/bin/env bash
# Installs the Debian packages ordex needs, once.  Quiet when all are there.
set -euo pipefail

need=(bazel-bootstrap gcc binutils pkg-config libglib2.0-dev libcunit1-dev libmpich-dev mpich
      valgrind gdb libdw-dev libjson-glib-dev)
[ "${ORDEX_SETUP_EXTRA:-}" ] && read -r -a extra <<<"$ORDEX_SETUP_EXTRA" && need+=("${extra[@]}")

missing=()
for p in "${need[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "ordex: installing Debian packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "ordex: need root (or sudo) to install: ${missing[*]}" >&2; exit 2; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -qq "${missing[@]}" >/tmp/ordex-apt.log 2>&1; then
    $sudo apt-get update -qq >>/tmp/ordex-apt.log 2>&1 || true
    if ! $sudo apt-get install -y -qq "${missing[@]}" >>/tmp/ordex-apt.log 2>&1; then
        echo "ordex: installing ${missing[*]} failed; see /tmp/ordex-apt.log" >&2
        exit 2
    fi
fi
