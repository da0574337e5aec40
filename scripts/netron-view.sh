#!/usr/bin/env bash
# Exports the MLP of testdata/train/mlp_adam.py as a Paddle inference model
# (`fluidc export`), opens it in Netron under headless Chromium, checks that
# its ops are drawn and writes the screenshot to docs/netron_mlp.png (linked
# from docs/models.md). Outside CI: it installs Debian's chromium and a venv
# (target/netron-venv) with Netron and Playwright.
#
#   scripts/netron-view.sh [SCRIPT] [PNG]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
script=${1:-testdata/train/mlp_adam.py}
png=${2:-docs/netron_mlp.png}
if [ ! -x /usr/bin/chromium ]; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
fi
venv=target/netron-venv
if [ ! -x "$venv/bin/netron" ] || [ ! -d "$venv/lib/python3.11/site-packages/playwright" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q netron==9.3.3 playwright==1.65.2
fi
cargo build --release --locked
mkdir -p target/netron "$(dirname "$png")"
target/release/fluidc export "$script" -o target/netron/model
"$venv/bin/python" scripts/netron_view.py target/netron/model.pdmodel "$png" \
    mul elementwise_add relu softmax cross_entropy mean
