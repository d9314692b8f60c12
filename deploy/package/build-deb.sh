#!/usr/bin/env bash
# Builds cubed's Debian package for amd64 or arm64 (a Raspberry Pi's 64-bit OS): the binary
# with the USB camera backend, /etc/cubed (the config and the designs, as conffiles), the
# systemd unit and udev rule of deploy/, the Pico's UF2 under /usr/share/cubed/firmware, and
# the maintainer scripts beside this file. Prints the .deb's path and size.
#
#   deploy/package/build-deb.sh                      amd64, a release build
#   deploy/package/build-deb.sh --arch arm64         cross-built for aarch64-unknown-linux-gnu
#   deploy/package/build-deb.sh --binary PATH        package an already built binary
#   deploy/package/build-deb.sh --out DIR            where the .deb goes (default target/package)
#   deploy/package/build-deb.sh --profile NAME       the cargo profile built (default release;
#                                                    CI's arm64 check uses `ci-package`)
#   deploy/package/build-deb.sh --uf2 PATH           package an already built Pico firmware
#                                                    (default: firmware/build.sh's, built if missing)
#
# arm64 needs the aarch64 C toolchain (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross: installed
# when run as root) and a Rust standard library for the target: `rustup target add
# aarch64-unknown-linux-gnu`, else Debian's (tools/cross-rust.sh). The camera backend needs
# libclang at build time (Debian libclang1-14).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE="$ROOT/deploy/package"
CROSS_WHO=build-deb.sh
# shellcheck source=../../tools/cross-rust.sh
source "$ROOT/tools/cross-rust.sh"

arch=amd64 binary="" out="$ROOT/target/package" profile=release uf2=""
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) arch=${2:?--arch needs amd64 or arm64}; shift 2 ;;
        --binary) binary=${2:?--binary needs a path}; shift 2 ;;
        --out) out=${2:?--out needs a folder}; shift 2 ;;
        --profile) profile=${2:?--profile needs a cargo profile}; shift 2 ;;
        --uf2) uf2=${2:?--uf2 needs a path}; shift 2 ;;
        *) die "unknown argument '$1' (see the top of $0)" ;;
    esac
done
case "$arch" in
    amd64) triple=x86_64-unknown-linux-gnu ;;
    arm64) triple=aarch64-unknown-linux-gnu ;;
    *) die "--arch $arch: amd64 or arm64" ;;
esac
TARGET_DIR=$(realpath -m "${CARGO_TARGET_DIR:-$ROOT/target}")
export CARGO_TARGET_DIR="$TARGET_DIR"

need_packages() {
    local missing=()
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return
    [ "$(id -u)" = 0 ] || die "needs ${missing[*]}: sudo apt-get install ${missing[*]}"
    echo "installing ${missing[*]}" >&2
    (apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 \
        || { apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null; }) \
        || die "cannot install ${missing[*]}"
}

# The binary for `triple` in `profile`, with the camera backend; echoes its path.
build_binary() {
    need_packages libclang1-14
    local features=(--profile "$profile" --features camera --bin cubed)
    if [ "$arch" = amd64 ]; then
        (cd "$ROOT" && cargo build "${features[@]}") >&2 || die "cargo build failed"
        echo "$TARGET_DIR/$profile/cubed"
        return
    fi
    need_packages gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    # The package's binary is stripped below: line tables built for it would be thrown away
    # (a cross build has its own target folder; the host's release build keeps its settings).
    export CARGO_PROFILE_RELEASE_DEBUG=false
    local kind
    kind=$(choose_toolchain "$triple")
    describe_toolchain "$kind" cubed "$triple"
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
    export BINDGEN_EXTRA_CLANG_ARGS_aarch64_unknown_linux_gnu="--sysroot=/usr/aarch64-linux-gnu"
    if [ "$kind" = rustup ]; then
        (cd "$ROOT" && cargo build --target "$triple" "${features[@]}") >&2 || die "cargo build failed"
    else
        ensure_target_std "$triple" arm64 >&2
        (cd "$ROOT" && debian_cargo build --target "$triple" "${features[@]}") >&2 \
            || die "cargo build failed"
    fi
    echo "$TARGET_DIR/$triple/$profile/cubed"
}

# The Pico's UF2 (where firmware/build.sh leaves it), built if missing; echoes its path.
pico_uf2() {
    local uf2 found="$TARGET_DIR/thumbv6m-none-eabi/release"
    uf2=$(ls "$found"/*.uf2 2>/dev/null | head -n1 || true)
    if [ -z "$uf2" ]; then
        CARGO_TARGET_DIR="$TARGET_DIR" "$ROOT/firmware/build.sh" pico >&2 \
            || die "building the Pico firmware failed"
        uf2=$(ls "$found"/*.uf2 | head -n1)
    fi
    echo "$uf2"
}

version=$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$ROOT/Cargo.toml" | head -n1)
[ -n "$version" ] || die "no version in Cargo.toml"
[ -n "$binary" ] || binary=$(build_binary)
[ -x "$binary" ] || die "no binary at $binary"
# The package promises the USB camera: its version line says whether the binary has it.
grep -qaF '(USB webcams: built in)' "$binary" \
    || die "$binary has no USB camera backend (its \`cubed --version\` says not built in): build it with --features camera, or give no --binary and this script builds it"
if [ -n "$uf2" ]; then
    [ -f "$uf2" ] || die "--uf2 $uf2: no such file"
    [ "$(head -c 4 "$uf2" | od -An -tx1 | tr -d ' ')" = 5546320a ] \
        || die "--uf2 $uf2: not a UF2 file (it does not start with UF2's magic 'UF2\n')"
else
    uf2=$(pico_uf2)
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/cubed_${version}-1_$arch"
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/etc/cubed" "$root/lib/systemd/system" \
    "$root/lib/udev/rules.d" "$root/usr/share/cubed/firmware" "$root/usr/share/doc/cubed"

strip_tool=strip
[ "$arch" = arm64 ] && strip_tool=aarch64-linux-gnu-strip
"$strip_tool" -o "$root/usr/bin/cubed" "$binary" || die "$strip_tool $binary failed"
chmod 0755 "$root/usr/bin/cubed"

# The configuration: the repository's, with the run history under /var/lib/cubed.
cp -r "$ROOT/config/." "$root/etc/cubed/"
sed -i 's|^# dir = "~/.local/share/cubed".*|dir = "/var/lib/cubed"              # run history (SQLite), photos, the calibrated palette|' \
    "$root/etc/cubed/cubed.toml"
grep -q '^dir = "/var/lib/cubed"' "$root/etc/cubed/cubed.toml" \
    || die "config/cubed.toml has no '# dir = \"~/.local/share/cubed\"' line to set"
(cd "$root" && find etc -type f | sort | sed 's|^|/|') >"$root/DEBIAN/conffiles"

# The packaged unit: the package's paths, without the by-hand steps (lines marked ####).
sed '/^####/d; s|/usr/local/bin/cubed|/usr/bin/cubed|g; s|/usr/local/share/doc/cubed|/usr/share/doc/cubed|g' \
    "$ROOT/deploy/cubed.service" >"$root/lib/systemd/system/cubed.service"
cp "$ROOT/deploy/99-cubed.rules" "$root/lib/udev/rules.d/99-cubed.rules"
cp "$uf2" "$root/usr/share/cubed/firmware/cubed-pico.uf2"
cp "$ROOT/README.md" "$root/usr/share/doc/cubed/README.md"
# The guides the README links to, beside it as it links them (docs/*.md, with the photos its
# examples read), the pages a builder needs beside the robot (every design key, flashing, the
# Pico's wiring), and what those pages link to (the figures, the protocol, the metrics, the
# unit and udev rule as written, the designs as shipped): the package's test follows every link.
doc="$root/usr/share/doc/cubed"
mkdir -p "$doc/docs" "$doc/firmware/boards/pico" "$doc/firmware-protocol" "$doc/deploy" "$doc/config"
cp "$ROOT"/docs/*.md "$doc/docs/"
cp -r "$ROOT/docs/photos" "$doc/docs/photos"
cp "$ROOT/ROBOT-DESIGN.md" "$ROOT/BENCHMARKS.md" "$ROOT/ARCHITECTURE.md" "$doc/"
cp "$ROOT/firmware/README.md" "$doc/firmware/README.md"
cp "$ROOT/firmware/boards/pico/README.md" "$doc/firmware/boards/pico/README.md"
cp "$ROOT/firmware-protocol/PROTOCOL.md" "$doc/firmware-protocol/PROTOCOL.md"
cp "$ROOT/deploy/METRICS.md" "$ROOT/deploy/prometheus.yml" "$ROOT/deploy/cubed.service" \
    "$ROOT/deploy/99-cubed.rules" "$doc/deploy/"
cp -r "$ROOT/config/robots" "$doc/config/robots"
cp "$HERE/copyright" "$root/usr/share/doc/cubed/copyright"
for script in postinst prerm postrm; do
    install -m 0755 "$HERE/$script" "$root/DEBIAN/$script"
done

# The newest glibc symbol version the binary needs.
glibc=$(readelf -V --wide "$root/usr/bin/cubed" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n1)
[ -n "$glibc" ] || die "cannot read the glibc version $binary needs (readelf -V)"
installed_kb=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version-1/" -e "s/@ARCH@/$arch/" -e "s/@GLIBC@/$glibc/" -e "s/@INSTALLED_KB@/$installed_kb/" \
    "$HERE/control" >"$root/DEBIAN/control"

mkdir -p "$out"
deb="$out/cubed_${version}-1_$arch.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null || die "dpkg-deb failed"
echo "$deb ($(stat -c %s "$deb") bytes; installed $installed_kb KB)"
