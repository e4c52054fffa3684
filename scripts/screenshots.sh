#!/usr/bin/env bash
# Screenshots of the app as it opens on the screens classrooms use, for a person to look at:
#   ./scripts/screenshots.sh [OUTDIR] [app options...]
# writes <OUTDIR>/<width>x<height>[-2x|-bigfont].png for 1280x720, 1366x768, 1920x1080, a 4K
# screen at twice the scale and a larger system font, each under its own X server (xvfb-run)
# with fresh settings. Extra options go to the app, e.g. --preset gpt2-small --step scores.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-screenshots}
shift || true
app=build/src/app/attention-lens
if [[ ! -x $app ]]; then
    echo "Build first: ./scripts/build.sh" >&2
    exit 1
fi
mkdir -p "$out"
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
export XDG_CONFIG_HOME=$config XDG_RUNTIME_DIR=$config/runtime
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

shoot() {  # name, screen WxH, environment...
    local name=$1 screen=$2
    shift 2
    env "$@" xvfb-run -a -s "-screen 0 ${screen}x24" "$app" --screenshot "$out/$name.png" \
        "${extra[@]}"
    echo "$out/$name.png"
}
extra=("$@")
shoot 1280x720 1280x720
shoot 1366x768 1366x768
shoot 1920x1080 1920x1080
shoot 3840x2160-2x 3840x2160 QT_SCALE_FACTOR=2
shoot 1366x768-bigfont 1366x768 QT_FONT_DPI=120
