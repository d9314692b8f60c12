#!/usr/bin/env bash
# min2phase beside cubed's solver on the same cubes and budgets, in one run on this host:
#   bench/min2phase/run.sh MIN2PHASE_CHECKOUT [CUBES] [SEED]
# MIN2PHASE_CHECKOUT is a clone of github.com/cs0x7f/min2phase (built here from its sources
# with javac: Debian's default-jdk-headless). Prints min2phase's one-thread averages, then
# cubed's one thread and two (`cubed-bench solver --threads-side-by-side`) on the same cubes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
checkout=${1:?usage: run.sh MIN2PHASE_CHECKOUT [CUBES] [SEED]}
cubes=${2:-200}
seed=${3:-1}
command -v javac >/dev/null || { echo "run.sh: needs javac (apt-get install default-jdk-headless)" >&2; exit 1; }
[ -f "$checkout/src/Search.java" ] || { echo "run.sh: $checkout has no src/Search.java: give a min2phase clone" >&2; exit 1; }
[ -x "$root/target/release/cubed-bench" ] && [ -x "$root/target/release/cubed" ] \
    || { echo "run.sh: build first: cargo build --release --workspace" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -d "$work" "$checkout"/src/*.java "$here/Yardstick.java"
"$root/target/release/cubed" scramble --seed "$seed" --count "$cubes" >"$work/cubes.txt"
(cd "$root" && target/release/cubed-bench solver --cubes "$cubes" --seed "$seed" --budgets 10,100 \
    --long-cubes 0 --no-startup --threads-side-by-side | tail -n 4)
java -cp "$work" Yardstick 10 100 <"$work/cubes.txt"
