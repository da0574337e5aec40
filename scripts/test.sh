#!/usr/bin/env bash
# Runs every test: installs what the interop tests need (Paddle 3.3.1 venv,
# protoc) if missing, then the whole workspace's tests, interop included.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup-interop.sh >/dev/null
cargo test --workspace --locked "$@"
