#!/usr/bin/env bash
# Installs what is missing, builds, and opens Attention Lens on the book's example.
# Extra arguments go to the app, e.g. ./scripts/run.sh --text "Hello world" --heads 4
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
app=build/src/app/attention-lens
if [[ ! -x $app ]]; then
    echo "The desktop app was not built; showing the book example from the command line instead."
    exec build/src/cli/attention-lens-cli trace --preset book --variant self-attention-v1 --seed 123
fi
if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
    echo "No display found (DISPLAY is not set). Run this from a desktop session, or make a" >&2
    echo "screenshot instead: $app --screenshot shot.png" >&2
    exit 1
fi
if (($# == 0)); then
    set -- --preset book
fi
exec "$app" "$@"
