#!/usr/bin/env bash
# Runs every test: installs what the interop tests need (Paddle 3.3.1 venv,
# protoc) if missing, then the whole workspace's tests, interop included.
#
#   scripts/test.sh            the whole suite (what CI runs)
#   scripts/test.sh --fast     without the tier that needs Paddle, numpy or
#                              CPython (a test file is in that tier when it
#                              starts one of them through tests/common), for
#                              quick local loops; CI always runs everything
# Other arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ "${1:-}" == "--fast" ]]; then
    shift
    cargo test --locked -p fluidc-transpiler -p fluidc-runtime "$@"
    fast=()
    for f in $(grep -L "paddle_python\|run_with_paddle\|paddle_helper\|paddle_majority\|python3" tests/*.rs); do
        fast+=(--test "$(basename "$f" .rs)")
    done
    cargo test --locked -p fluidc --lib --bins "${fast[@]}" "$@"
    exit
fi
bash scripts/setup-interop.sh >/dev/null
cargo test --workspace --locked "$@"
# The kernels' fast paths (vectorized for the CPU's ISA, a vector-matrix
# product, products in row blocks) are checked bit for bit against their
# plain loops by the runtime's `*_bits` tests; only an optimized build
# vectorizes them, so those tests run once more in release mode.
cargo test --release --locked -p fluidc-runtime --lib "$@" -- bits
