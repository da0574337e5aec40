#!/usr/bin/env bash
# Prepare what fluidc's interop tests need: a Python venv with PaddlePaddle 3.3.1, numpy and six (the 2018 scripts' helper)
# (to run tests/interop/paddle_helper.py) and protoc (to decode program files).
#
# Idempotent: a marker file in the venv records a completed install, so re-runs
# return at once. Progress goes to stderr; the last line of stdout is the venv's
# python path, so callers can do:  PY=$(scripts/setup-interop.sh | tail -n1)
#
#   FLUIDC_VENV   venv location (default: <repo>/target/interop-venv)
set -euo pipefail

exec 3>&1 1>&2 # everything to stderr; fd 3 keeps the real stdout

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${FLUIDC_VENV:-$repo/target/interop-venv}
requirements="paddlepaddle==3.3.1 numpy six==1.17.0 scipy==1.17.1"
marker=$venv/.fluidc-interop-complete

sudo=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then sudo=sudo; fi
apt_updated=""
apt_install() {
    if [ -z "$apt_updated" ]; then
        $sudo apt-get update
        apt_updated=1
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

if ! command -v protoc >/dev/null; then
    echo "setup-interop: installing protoc" >&2
    apt_install protobuf-compiler
fi

if [ -x "$venv/bin/python" ] && [ "$(cat "$marker" 2>/dev/null)" = "$requirements" ]; then
    echo "setup-interop: $venv is ready" >&2
else
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
        echo "setup-interop: installing python3-venv" >&2
        apt_install python3-venv
    fi
    if [ ! -x "$venv/bin/python" ]; then
        echo "setup-interop: creating $venv" >&2
        python3 -m venv --clear "$venv"
    fi
    echo "setup-interop: installing $requirements into $venv" >&2
    rm -f "$marker"
    # shellcheck disable=SC2086 # word splitting of $requirements is intended
    "$venv/bin/python" -m pip install --disable-pip-version-check --quiet $requirements
    "$venv/bin/python" -W ignore -c 'import numpy, paddle, six'
    printf '%s\n' "$requirements" >"$marker"
fi

echo "$venv/bin/python" >&3
