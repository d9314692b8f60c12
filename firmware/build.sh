#!/usr/bin/env bash
# Builds every firmware board's release ELF (and, for the Pico, the UF2 a builder copies
# onto the board in BOOTSEL mode); prints each file and its size.
#
# Toolchain: the ordinary one when it can be had (`rustup target add` of the board's
# target, then a plain `cargo build --release`); only where rustup cannot fetch a target
# (no network to it), a private Debian Rust toolchain (rustc-web + its library sources,
# fetched with apt-get download and unpacked with dpkg -x, never installed) with
# -Zbuild-std=core. It says which it used.
#
#   firmware/build.sh            build every board
#   firmware/build.sh pico       build one board (a folder of firmware/boards)
#
# Environment: CUBED_FW_TOOLCHAIN       where the Debian toolchain is cached
#                                       (default ~/.cache/cubed-fw-toolchain)
#              CUBED_FW_TOOLCHAIN_KIND  rustup or debian: use that one, no fallback
#              CARGO_TARGET_DIR         where the ELFs go, as for cargo (default target/)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CROSS_WHO=firmware/build.sh
# shellcheck source=../tools/cross-rust.sh
source "$ROOT/tools/cross-rust.sh"
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
mkdir -p "$TARGET_DIR"
TARGET_DIR=$(cd "$TARGET_DIR" && pwd)

# rust-lld from the rustup toolchain (Debian's rustc has none), else Debian's ld.lld-19.
linker_path() {
    local sysroot
    sysroot=$(rustc --print sysroot 2>/dev/null || true)
    local bin="$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/bin"
    if [ -x "$bin/rust-lld" ]; then
        echo "$bin"
    elif command -v ld.lld-19 >/dev/null; then
        local shim="$CROSS_CACHE/lld-shim"
        mkdir -p "$shim"
        ln -sf "$(command -v ld.lld-19)" "$shim/rust-lld"
        echo "$shim"
    else
        die "no linker: need rustup's rust-lld or Debian's lld-19 (apt-get install lld-19)"
    fi
}

# Static sizes: flash = .vector_table + .text + .rodata + .data (+ boot2), RAM = .data + .bss
# (+ .uninit); the stack comes on top at run time.
report_size() {
    local elf=$1
    python3 - "$elf" <<'PY'
import struct, sys
path = sys.argv[1]
data = open(path, "rb").read()
if data[:4] != b"\x7fELF" or data[4] != 1:
    sys.exit(f"{path}: not a 32-bit ELF")
shoff, = struct.unpack_from("<I", data, 0x20)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2E)
sections = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
names_offset = sections[shstrndx][4]
def name(sh):
    end = data.index(b"\0", names_offset + sh[0])
    return data[names_offset + sh[0]:end].decode()
flash = ram = 0
SHF_ALLOC, SHT_NOBITS = 0x2, 8
for sh in sections:
    n, kind, flags, size = name(sh), sh[1], sh[2], sh[5]
    if not flags & SHF_ALLOC or size == 0:
        continue
    if kind == SHT_NOBITS:
        ram += size            # .bss, .uninit
    elif n == ".data":
        flash += size; ram += size
    else:
        flash += size          # .vector_table, .boot2, .text, .rodata
print(f"flash {flash} bytes ({flash / 1024:.1f} KiB), static RAM {ram} bytes ({ram / 1024:.1f} KiB)")
PY
}

cargo_build() {
    local kind=$1 dir=$2
    if [ "$kind" = rustup ]; then
        (cd "$dir" && CARGO_TARGET_DIR="$TARGET_DIR" cargo build --release --quiet)
    else
        (cd "$dir" && PATH="$(linker_path):$PATH" CARGO_TARGET_DIR="$TARGET_DIR" \
            debian_cargo build --release --quiet -Zbuild-std=core)
    fi
}

build_board() {
    local board=$1 dir="$ROOT/firmware/boards/$1"
    [ -f "$dir/Cargo.toml" ] || die "no board '$board' (expected $dir/Cargo.toml)"
    local triple
    triple=$(sed -n 's/^target *= *"\(.*\)"/\1/p' "$dir/.cargo/config.toml")
    [ -n "$triple" ] || die "$dir/.cargo/config.toml names no build target"
    local kind
    kind=$(choose_toolchain "$triple")
    describe_toolchain "$kind" "$board" "$triple"
    cargo_build "$kind" "$dir" || die "building board '$board' failed"
    local elf
    elf=$(sed -n '/^\[\[bin\]\]/,/^$/s/^name *= *"\(.*\)"/\1/p' "$dir/Cargo.toml" | head -n1)
    elf="$TARGET_DIR/$triple/release/$elf"
    [ -f "$elf" ] || die "board '$board' built but $elf is missing"
    echo "$board: $elf"
    echo "$board: $(report_size "$elf")"
    # The RP2040's boot ROM takes UF2 files: the file a builder copies onto the Pico.
    if [ "$triple" = thumbv6m-none-eabi ]; then
        python3 "$ROOT/firmware/elf2uf2.py" "$elf" "$elf.uf2" >/dev/null || die "writing the UF2 failed"
        echo "$board: $elf.uf2 ($(stat -c %s "$elf.uf2") bytes: copy it onto the Pico's RPI-RP2 drive)"
    fi
}

if [ $# -gt 0 ]; then
    boards=("$@")
else
    boards=()
    for dir in "$ROOT"/firmware/boards/*/; do
        boards+=("$(basename "$dir")")
    done
fi
for board in "${boards[@]}"; do
    build_board "$board"
done
