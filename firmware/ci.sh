#!/usr/bin/env bash
# CI for the firmware: builds every board (firmware/build.sh: the Pico's ELF and UF2),
# installs the RP2040 emulator (rp2040js, pinned by package-lock.json), runs the core's
# tests and then the Pico firmware as built on the emulated chip (tests/pico). Fails
# loudly if anything it needs is missing and cannot be installed.
#
#   firmware/ci.sh            all of it
#   firmware/ci.sh --prepare  only build and install (.ci/run then runs every test once)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

need_packages=()
command -v node >/dev/null || need_packages+=(nodejs)
command -v npm >/dev/null || need_packages+=(npm)
command -v python3 >/dev/null || need_packages+=(python3)
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
(cd firmware/boards/pico/emulator && npm ci --no-audit --no-fund --loglevel=error)
if [ "${1:-}" = --prepare ]; then
    echo "firmware/ci.sh: boards built, emulator installed"
    exit 0
fi
cargo test -p cubed-firmware
CUBED_REQUIRE_FIRMWARE=1 cargo test --test integration pico::
echo "firmware/ci.sh: boards built, core tests and the emulated Pico's tests passed"
