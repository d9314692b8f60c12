# shellcheck shell=bash
# The Rust toolchain for cross builds, sourced by firmware/build.sh (the boards) and
# deploy/package/build-deb.sh (cubed for arm64). The ordinary toolchain when it can be had
# (`rustup target add TRIPLE`); only where rustup cannot fetch a target (no network to it), a
# private Debian Rust toolchain (rustc-web and its library sources, plus a target's standard
# library such as libstd-rust-web-dev:arm64, fetched with apt-get download and unpacked with
# dpkg -x, never installed: they conflict with rustup).
#
# Environment: CUBED_FW_TOOLCHAIN       where the Debian toolchain is cached
#                                       (default ~/.cache/cubed-fw-toolchain)
#              CUBED_FW_TOOLCHAIN_KIND  rustup or debian: use that one, no fallback

CROSS_CACHE=${CUBED_FW_TOOLCHAIN:-${XDG_CACHE_HOME:-$HOME/.cache}/cubed-fw-toolchain}
TOOLROOT="$CROSS_CACHE/root"

die() { echo "${CROSS_WHO:-cross-rust}: $*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# The versioned package names change with Debian point releases: look them up.
toolchain_packages() {
    local deps
    if ! deps=$(apt-cache depends rustc-web libstd-rust-web-dev 2>/dev/null); then
        # A fresh machine may have no package lists yet.
        [ "$(id -u)" = 0 ] && apt-get update -qq >&2 || true
        deps=$(apt-cache depends rustc-web libstd-rust-web-dev 2>/dev/null) \
            || die "apt-cache cannot see rustc-web (run 'apt-get update' first)"
    fi
    local std llvm
    std=$(grep -o 'libstd-rust-web-[0-9][0-9.]*' <<<"$deps" | head -n1)
    [ -n "$std" ] || die "no libstd-rust-web-<version> among rustc-web's dependencies"
    llvm=$(apt-cache depends "$std" | grep -o 'libllvm[0-9][0-9]*' | head -n1)
    [ -n "$llvm" ] || die "no libllvm<N> among $std's dependencies"
    echo rustc-web rust-web-src libstd-rust-web-dev "$std" "$llvm"
}

ensure_toolchain() {
    if [ -x "$TOOLROOT/usr/bin/rustc" ]; then
        return
    fi
    command -v apt-get >/dev/null || die "the cross toolchain needs apt-get (Debian/Ubuntu)"
    echo "fetching the Debian Rust toolchain into $CROSS_CACHE (once)" >&2
    local packages debs="$CROSS_CACHE/debs"
    packages=$(toolchain_packages)
    rm -rf "$debs" "$TOOLROOT.partial"
    mkdir -p "$debs" "$TOOLROOT.partial"
    # shellcheck disable=SC2086
    (cd "$debs" && apt-get download $packages) || die "apt-get download $packages failed"
    for deb in "$debs"/*.deb; do
        dpkg -x "$deb" "$TOOLROOT.partial" || die "dpkg -x $deb failed"
    done
    rm -rf "$TOOLROOT"
    mv "$TOOLROOT.partial" "$TOOLROOT"
    rm -rf "$debs"
}

# The Debian standard library for a Linux target (e.g. arm64's, for aarch64-unknown-linux-gnu)
# unpacked beside the host's in the private root; adds the Debian architecture if needed.
ensure_target_std() {
    local triple=$1 arch=$2
    [ -d "$TOOLROOT/usr/lib/rustlib/$triple/lib" ] && return
    if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
        echo "adding the Debian architecture $arch (dpkg --add-architecture $arch; apt-get update)" >&2
        as_root dpkg --add-architecture "$arch" && as_root apt-get update -qq \
            || die "cannot add the architecture $arch to apt"
    fi
    local debs="$CROSS_CACHE/debs-$arch"
    rm -rf "$debs" && mkdir -p "$debs"
    echo "fetching Debian's Rust standard library for $triple into $TOOLROOT (once)" >&2
    (cd "$debs" && apt-get download "libstd-rust-web-dev:$arch") \
        || die "apt-get download libstd-rust-web-dev:$arch failed"
    dpkg -x "$debs"/*.deb "$TOOLROOT" || die "dpkg -x of libstd-rust-web-dev:$arch failed"
    rm -rf "$debs"
    [ -d "$TOOLROOT/usr/lib/rustlib/$triple/lib" ] \
        || die "libstd-rust-web-dev:$arch holds no standard library for $triple"
}

# Whether the ordinary toolchain has `triple`, adding it if rustup can.
rustup_has_target() {
    local triple=$1
    command -v rustup >/dev/null || return 1
    rustup target list --installed 2>/dev/null | grep -qx "$triple" && return 0
    echo "trying: rustup target add $triple" >&2
    timeout 60 rustup target add "$triple" >&2 2>/dev/null
}

# Which toolchain builds for `triple`: rustup, else debian (set up on first use).
choose_toolchain() {
    local triple=$1 kind=${CUBED_FW_TOOLCHAIN_KIND:-}
    case "$kind" in
        rustup) rustup_has_target "$triple" || die "rustup cannot add $triple (CUBED_FW_TOOLCHAIN_KIND=rustup)" ;;
        debian) ;;
        "") if rustup_has_target "$triple"; then kind=rustup; else kind=debian; fi ;;
        *) die "CUBED_FW_TOOLCHAIN_KIND is '$kind': rustup or debian" ;;
    esac
    if [ "$kind" = debian ]; then ensure_toolchain >&2; fi
    echo "$kind"
}

# Says which toolchain builds for `triple` and why.
describe_toolchain() {
    local kind=$1 what=$2 triple=$3
    case "$kind" in
        rustup) echo "building $what for $triple with rustup's toolchain ($(rustc --version))" >&2 ;;
        *)
            local version why="rustup could not add the target"
            version=$(debian_rustc --version 2>/dev/null || echo "version unknown")
            [ "${CUBED_FW_TOOLCHAIN_KIND:-}" = debian ] && why="CUBED_FW_TOOLCHAIN_KIND=debian"
            echo "building $what for $triple with Debian's rustc ($version, from $TOOLROOT): $why" >&2 ;;
    esac
}

# Runs the private Debian rustc.
debian_rustc() {
    LD_LIBRARY_PATH="$TOOLROOT/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$TOOLROOT/usr/bin/rustc" "$@"
}

# Runs cargo with the private Debian rustc (stable cargo drives it; RUSTC_BOOTSTRAP lets the
# firmware use -Zbuild-std).
debian_cargo() {
    RUSTC="$TOOLROOT/usr/bin/rustc" \
        LD_LIBRARY_PATH="$TOOLROOT/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        RUSTC_BOOTSTRAP=1 cargo "$@"
}
