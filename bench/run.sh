#!/usr/bin/env bash
# Builds fluidc in release mode, prepares the peers (the Paddle 3.3.1 venv,
# Go from Debian's golang-go) and valgrind (for the callgrind phase table),
# and runs bench/run.py, which writes BENCHMARKS.md. Pass --quick for a
# short run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release --locked
cargo build --release --locked --example parse_time --example stream_floor --example fma_peak
bash scripts/setup-interop.sh >/dev/null
if [ ! -x /usr/bin/time ]; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y time
fi
if ! command -v valgrind >/dev/null; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y valgrind
fi
if ! command -v go >/dev/null; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y golang-go
fi
python3 bench/run.py --write BENCHMARKS.md "$@"
