#!/usr/bin/env bash
# CI for the firmware: builds every board (firmware/build.sh) and runs the
# firmware-in-the-loop smoke test (the QEMU board driven by the real host link).
# Fails loudly if anything it needs is missing and cannot be installed.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

need_packages=()
command -v qemu-system-arm >/dev/null || need_packages+=(qemu-system-arm)
rustup_lld="$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
[ -x "$rustup_lld" ] || command -v ld.lld-19 >/dev/null || need_packages+=(lld-19)
if [ ${#need_packages[@]} -gt 0 ]; then
    echo "firmware/ci.sh: installing ${need_packages[*]}" >&2
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && apt-get install -y -qq "${need_packages[@]}" >/dev/null
    else
        sudo apt-get update -qq && sudo apt-get install -y -qq "${need_packages[@]}" >/dev/null
    fi || { echo "firmware/ci.sh: FAILED to install ${need_packages[*]}" >&2; exit 1; }
fi

firmware/build.sh
cargo test -p cubed-firmware
CUBED_REQUIRE_FIRMWARE=1 cargo test --test integration firmware_qemu -- --nocapture
echo "firmware/ci.sh: boards built, core tests and the QEMU smoke test passed"
