#!/usr/bin/env bash
# Tests cubed's Debian packages on this machine, as root (CI): the contents of each .deb; the
# arm64 binary end to end under qemu-user (a dry run: the simulated robot on a pty, the
# simulated camera, the solver, the planner, the run history); then the amd64 package's
# maintainer scripts for real: install (the `cubed` user, /var/lib/cubed, the solver tables),
# `cubed config show` finding /etc/cubed/cubed.toml, the service's own command run as the
# `cubed` user answering /api/status and doing a run, an upgrade keeping an edited config
# and the history, remove keeping the data, purge deleting it. Exits 1 on the first failure.
#
#   deploy/package/test-deb.sh [--tables DIR] DEB...
#
# Each DEB is tested as its Architecture says: an amd64 one installed here, an arm64 one run
# under qemu. The arm64 run loads the solver tables an amd64 install built (the same bytes on
# every machine; building them under emulation takes ~100 s): from this run's amd64 package, or
# from DIR, where an amd64 run given --tables DIR leaves them. So CI tests the amd64 package
# while the arm64 one still builds, then the arm64 one alone.

die() { echo "test-deb.sh: FAILED: $*" >&2; exit 1; }
pass() { echo "test-deb.sh: ok: $*"; }
# Whether TEXT matches PATTERN. Output is matched once captured, never through `| grep -q`:
# grep leaves at its first match, and a writer still writing then dies of SIGPIPE, which
# pipefail reports as a failure.
matches() { grep -q -- "$1" <<<"$2"; }

usage="usage: $0 [--tables DIR] DEB..."
tables_dir="" amd64_deb="" arm64_deb=""
while [ $# -gt 0 ]; do
    case $1 in
        --tables) [ $# -ge 2 ] || die "--tables needs a folder; $usage"
            tables_dir=$(realpath -m "$2"); shift 2 ;;
        -*) die "unknown option $1; $usage" ;;
        *) [ -f "$1" ] || die "no such package: $1"
            arch=$(dpkg-deb -f "$1" Architecture 2>/dev/null) || die "$1 is not a Debian package"
            case $arch in
                amd64) amd64_deb=$(realpath "$1") ;;
                arm64) arm64_deb=$(realpath "$1") ;;
                *) die "$1 is for $arch: this test knows amd64 (installed) and arm64 (under qemu)" ;;
            esac
            shift ;;
    esac
done
[ -n "$amd64_deb$arm64_deb" ] || die "no package given; $usage"
command -v dpkg-deb >/dev/null || die "needs dpkg (a Debian or Ubuntu machine)"
if [ -n "$amd64_deb" ]; then
    [ "$(id -u)" = 0 ] || die "must run as root: it installs, upgrades and purges the package here"
    if dpkg -s cubed >/dev/null 2>&1; then
        die "cubed is installed on this machine already: this test would upgrade and purge it"
    fi
fi

work=$(mktemp -d)
[ -n "$tables_dir" ] || tables_dir="$work/tables"
daemon_pid=""
cleanup() {
    [ -n "$daemon_pid" ] && kill "$daemon_pid" 2>/dev/null || true
    # A failure part way leaves no package behind: the next run would refuse to start.
    if [ -n "$amd64_deb" ] && dpkg -s cubed >/dev/null 2>&1; then
        echo "test-deb.sh: purging the package this test installed" >&2
        dpkg -P cubed >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# ---- contents -------------------------------------------------------------------------------
check_contents() {
    local deb=$1 arch=$2 machine=$3 tree="$work/contents-$2"
    [ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || die "$deb is not for $arch"
    dpkg-deb -R "$deb" "$tree"
    for path in usr/bin/cubed etc/cubed/cubed.toml etc/cubed/palette.toml \
        etc/cubed/robots/four-arm.toml etc/cubed/robots/six-motor.toml \
        etc/cubed/robots/turntable-flipper.toml lib/systemd/system/cubed.service \
        lib/udev/rules.d/99-cubed.rules usr/share/cubed/firmware/cubed-pico.uf2 \
        usr/share/doc/cubed/copyright usr/share/doc/cubed/docs/raspberry-pi.md \
        usr/share/doc/cubed/ROBOT-DESIGN.md usr/share/doc/cubed/firmware/boards/pico/README.md \
        usr/share/doc/cubed/docs/photos/solved-3x3/U.jpg; do
        [ -f "$tree/$path" ] || die "$deb has no /$path"
    done
    matches "Machine:.*$machine" "$(readelf -h "$tree/usr/bin/cubed")" \
        || die "/usr/bin/cubed in $deb is not a $machine binary"
    # The package is for a robot beside a webcam: its version line says the camera is built in.
    grep -qaF '(USB webcams: built in)' "$tree/usr/bin/cubed" \
        || die "/usr/bin/cubed in $deb has no USB camera backend (built without --features camera)"
    for conf in $(cd "$tree" && find etc -type f); do
        grep -qx "/$conf" "$tree/DEBIAN/conffiles" || die "/$conf is not a conffile in $deb"
    done
    grep -q '^dir = "/var/lib/cubed"' "$tree/etc/cubed/cubed.toml" \
        || die "the packaged cubed.toml keeps its data elsewhere than /var/lib/cubed"
    grep -q '^ExecStart=/usr/bin/cubed run --config /etc/cubed/cubed.toml' \
        "$tree/lib/systemd/system/cubed.service" || die "the unit does not start /usr/bin/cubed"
    # No by-hand install steps in the packaged unit, and no wait for a robot that may not be
    # plugged in (the page would be dark for systemd's device timeout at every boot).
    ! grep -q 'sudo install\|^Wants=dev-\|^After=dev-' "$tree/lib/systemd/system/cubed.service" \
        || die "the packaged unit keeps the by-hand steps or waits for the robot's device"
    # UF2 blocks start with the magic words 0x0A324655 0x9E5D5157.
    [ "$(head -c 8 "$tree/usr/share/cubed/firmware/cubed-pico.uf2" | od -An -tx4 | tr -d ' ')" = 0a3246559e5d5157 ] \
        || die "the firmware file is no UF2"
    # Every link between the shipped pages leads to a shipped file; only the firmware's notes
    # for its developers link into the source (Rust, JavaScript, scripts, folders of code).
    local page target broken=()
    while IFS= read -r page; do
        while IFS= read -r target; do
            case "$target" in http*|mailto:*|"") continue ;; esac
            [ -e "$(dirname "$page")/$target" ] && continue
            case "$target" in *.rs|*.mjs|*.sh|*.py|core|boards/pico) [[ $page == */firmware/* ]] && continue ;; esac
            broken+=("${page#"$tree"} -> $target")
        done < <(grep -o '](\([^)#]*\)' "$page" | sed 's/^](//')
    done < <(find "$tree/usr/share/doc/cubed" -name '*.md')
    [ ${#broken[@]} -eq 0 ] || die "the shipped pages link to files the package lacks: ${broken[*]}"
    pass "$arch package: $(stat -c %s "$deb") bytes, $(dpkg-deb -f "$deb" Installed-Size) KB installed, $(wc -l <"$tree/DEBIAN/conffiles") conffiles, $(dpkg-deb -f "$deb" Depends)"
}

[ -z "$amd64_deb" ] || check_contents "$amd64_deb" amd64 "X86-64"
[ -z "$arm64_deb" ] || check_contents "$arm64_deb" arm64 "AArch64"

# ---- the service's command started as the cubed user (ExecStart, Environment and address set) ---
start_daemon() {
    (cd /var/lib/cubed && exec runuser -u cubed -- env "${environment[@]}" $exec_start --http "$address") \
        >"$work/daemon.log" 2>&1 &
    daemon_pid=$!
    for _ in $(seq 1 300); do
        curl -fsS "http://$address/api/status" >"$work/status.json" 2>/dev/null && return
        kill -0 "$daemon_pid" 2>/dev/null || { cat "$work/daemon.log"; die "the daemon exited"; }
        sleep 0.2
    done
    cat "$work/daemon.log"; die "the daemon never answered /api/status on $address"
}
# SIGTERM to cubed itself, as systemd sends it; runuser passes on its exit status.
stop_daemon() {
    kill -TERM "$(daemon_pid_real)"
    wait "$daemon_pid" || { cat "$work/daemon.log"; die "the daemon did not exit 0 on SIGTERM"; }
    daemon_pid=""
}
daemon_pid_real() { pgrep -u cubed -f "cubed run --config /etc/cubed/cubed.toml" | head -n1; }

# ---- the amd64 package installed: its scripts, its service, an upgrade, remove and purge --------
test_amd64() {
    started=$(date +%s)
    dpkg -i "$amd64_deb" || die "dpkg -i $amd64_deb"
    pass "installed in $(( $(date +%s) - started )) s (the solver tables built meanwhile)"
    id cubed | grep -q '(dialout)' || die "the cubed user is not in dialout: $(id cubed)"
    id cubed | grep -q '(video)' || die "the cubed user is not in video: $(id cubed)"
    [ "$(stat -c %U /var/lib/cubed)" = cubed ] || die "/var/lib/cubed is not the cubed user's"
    tables=$(runuser -u cubed -- env CUBED_CACHE_DIR=/var/lib/cubed/cache cubed tables)
    grep -q "3x3 tables: /var/lib/cubed/cache/.*cached" <<<"$tables" \
        || die "the install did not leave the tables in /var/lib/cubed/cache: $tables"
    pass "user cubed in dialout and video; /var/lib/cubed its own; tables cached"
    # By hand as the cubed user (its default cache, ~/.cache/cubed, is empty), as the docs
    # say to run the daemon: the package's tables are read, not built again beside them.
    tables=$(cd / && runuser -u cubed -- env -i PATH=/usr/bin:/bin HOME=/var/lib/cubed cubed tables 2>&1)
    grep -q "3x3 tables: /var/lib/cubed/cache/.*the package's" <<<"$tables" \
        || die "the cubed user's own commands do not read the package's tables: $tables"
    built=$(find /var/lib/cubed/.cache -name '*.bin' 2>/dev/null || true)
    [ -z "$built" ] || die "tables were built again beside the package's: $built"
    pass "the cubed user's commands by hand read the package's tables (none built beside them)"
    mkdir -p "$tables_dir"
    cp /var/lib/cubed/cache/* "$tables_dir/"
    if command -v systemd-analyze >/dev/null; then
        systemd-analyze verify /lib/systemd/system/cubed.service 2>&1 | grep -v 'dev-cubed' \
            | grep -i . && die "systemd-analyze verify finds fault with the unit" || true
        pass "systemd-analyze verify: the unit is sound"
    fi

    # `cubed config show` from a user with no configuration of its own finds /etc/cubed.
    shown=$(cd / && env -i PATH=/usr/bin:/bin HOME=/nonexistent cubed config show)
    grep -q "/etc/cubed/cubed.toml" <<<"$shown" || die "config show does not name /etc/cubed/cubed.toml: $shown"
    grep -q "/var/lib/cubed" <<<"$shown" || die "config show does not name /var/lib/cubed: $shown"
    pass "cubed config show finds /etc/cubed/cubed.toml and /var/lib/cubed"
    # From a user who is not the service's, the service's data folder is a note, not a failure.
    shown=$(cd / && runuser -u nobody -- env -i PATH=/usr/bin:/bin HOME=/nonexistent cubed config show) \
        || die "config show fails for a user other than cubed: $shown"
    grep -q "note: the data directory /var/lib/cubed belongs to user 'cubed'" <<<"$shown" \
        || die "config show does not say whose /var/lib/cubed is: $shown"
    pass "cubed config show, as another user, says /var/lib/cubed is the cubed user's"
    # The service's file gone: the built-in configuration is found, and the service's loss said.
    mv /etc/cubed/cubed.toml /etc/cubed/cubed.toml.away
    shown=$(cd / && env -i PATH=/usr/bin:/bin HOME=/nonexistent cubed config show)
    mv /etc/cubed/cubed.toml.away /etc/cubed/cubed.toml
    grep -q "note: the cubed service (/lib/systemd/system/cubed.service) runs with /etc/cubed/cubed.toml, which is missing" <<<"$shown" \
        || die "config show does not say the service's configuration is missing: $shown"
    pass "cubed config show says when the service's /etc/cubed/cubed.toml is missing"

    # ---- the service's own command, as the cubed user --------------------------------------------
    unit=/lib/systemd/system/cubed.service
    exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
    mapfile -t environment < <(sed -n 's/^Environment=//p' "$unit")
    port=$(( 20000 + RANDOM % 20000 ))
    address=127.0.0.1:$port

    start_daemon
    pid=$(daemon_pid_real)
    [ -n "$pid" ] || die "no cubed process runs as the cubed user"
    idle_kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
    pass "the service's command ($exec_start) runs as cubed and answers /api/status; idle RSS $((idle_kb / 1024)) MB"
    cubed start --http "$address" >/dev/null || die "cubed start"
    for _ in $(seq 1 600); do
        matches "solved" "$(cubed history --http "$address" 2>/dev/null)" && break
        sleep 0.2
    done
    matches "solved" "$(cubed history --http "$address")" || die "the run did not end solved: $(cubed history --http "$address")"
    peak_kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
    pass "a run on the simulated robot ended solved; peak RSS $((peak_kb / 1024)) MB"
    stop_daemon
    [ -f /var/lib/cubed/cubed.sqlite ] || die "no run history in /var/lib/cubed"
    [ "$(stat -c %U /var/lib/cubed/cubed.sqlite)" = cubed ] || die "the history is not the cubed user's"

    # ---- upgrade keeping an edited configuration -------------------------------------------------
    sed -i 's/^budget_ms = 300 /budget_ms = 250 /' /etc/cubed/cubed.toml
    grep -q '^budget_ms = 250 ' /etc/cubed/cubed.toml || die "could not edit the config for the upgrade test"
    next="$work/next"
    dpkg-deb -R "$amd64_deb" "$next"
    version=$(dpkg-deb -f "$amd64_deb" Version)
    sed -i "s/^Version: .*/Version: ${version}+test1/" "$next/DEBIAN/control"
    dpkg-deb --root-owner-group --build "$next" "$work/next.deb" >/dev/null
    dpkg -i "$work/next.deb" </dev/null || die "the upgrade failed"
    [ "$(dpkg-query -W -f='${Version}' cubed)" = "${version}+test1" ] || die "not upgraded"
    grep -q '^budget_ms = 250 ' /etc/cubed/cubed.toml || die "the upgrade overwrote the edited /etc/cubed/cubed.toml"
    [ -f /var/lib/cubed/cubed.sqlite ] || die "the upgrade lost the run history"
    pass "upgraded to ${version}+test1: the edited config and the history kept"

    # ---- remove, then purge ----------------------------------------------------------------------
    dpkg -r cubed || die "dpkg -r"
    [ ! -e /usr/bin/cubed ] || die "remove left /usr/bin/cubed"
    [ -f /var/lib/cubed/cubed.sqlite ] || die "remove deleted the run history"
    grep -q '^budget_ms = 250 ' /etc/cubed/cubed.toml || die "remove deleted the edited config"
    pass "removed: binary gone, /var/lib/cubed and /etc/cubed kept"
    dpkg -P cubed || die "dpkg -P"
    [ ! -e /var/lib/cubed ] || die "purge left /var/lib/cubed"
    [ ! -e /etc/cubed ] || die "purge left /etc/cubed"
    pass "purged: /var/lib/cubed and /etc/cubed gone (the cubed system user stays, as Debian advises)"
}

# ---- the arm64 binary end to end, under qemu-user ---------------------------------------------
test_arm64() {
    command -v qemu-aarch64 >/dev/null || die "needs qemu-aarch64 (apt-get install qemu-user)"
    [ -d /usr/aarch64-linux-gnu ] || die "needs the arm64 C library (apt-get install libc6-dev-arm64-cross)"
    bin="$work/contents-arm64/usr/bin/cubed"
    mkdir -p "$work/arm64-cache" "$work/arm64-data"
    # The tables are the same bytes on every machine (little-endian, built deterministically):
    # an amd64 install's copy saves building them under emulation (~100 s).
    compgen -G "$tables_dir/*" >/dev/null \
        || die "no solver tables in $tables_dir: give the amd64 package too, or --tables DIR from an amd64 run"
    cp "$tables_dir"/* "$work/arm64-cache/"
    tables=$(CUBED_CACHE_DIR="$work/arm64-cache" qemu-aarch64 -L /usr/aarch64-linux-gnu "$bin" tables) \
        || die "the arm64 binary's cubed tables failed: $tables"
    matches "3x3 tables: .*cached" "$tables" || die "the arm64 binary does not load the tables amd64 built: $tables"
    (cd "$work" && CUBED_CACHE_DIR="$work/arm64-cache" XDG_DATA_HOME="$work/arm64-data" \
        qemu-aarch64 -L /usr/aarch64-linux-gnu "$bin" dry-run --cubes 2 --config "$work/contents-arm64/etc/cubed/cubed.toml" --data-dir "$work/arm64-data") \
        >"$work/arm64-dry-run.txt" 2>&1 || { cat "$work/arm64-dry-run.txt"; die "the arm64 dry run failed"; }
    grep -q "^solved 2/2" "$work/arm64-dry-run.txt" || { cat "$work/arm64-dry-run.txt"; die "the arm64 dry run did not solve both cubes"; }
    pass "arm64 under qemu-user: the amd64-built tables load; $(sed -n 's/ · re-solves.*//p' "$work/arm64-dry-run.txt")"
}

[ -z "$amd64_deb" ] || test_amd64
[ -z "$arm64_deb" ] || test_arm64

echo "test-deb.sh: all passed"
