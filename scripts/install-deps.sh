#!/usr/bin/env bash
# Installs the Debian 12 packages Attention Lens needs, only those that are missing.
# Idempotent; uses sudo when not run as root.
set -euo pipefail

packages=(
    cmake ninja-build g++ pkg-config
    qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev
    libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev
    # tokenizer.json: a fast JSON reader and a regex engine with Unicode properties; curl
    # fetches the test tokenizers (scripts/fetch-tokenizers.sh).
    libsimdjson-dev libpcre2-dev curl ca-certificates
    xvfb xauth fonts-dejavu-core
    # Translations: lrelease/lupdate and their CMake package; Qt's own German texts.
    qt6-l10n-tools qt6-tools-dev qt6-translations-l10n
    # Man pages from --help, and what scripts/check-install.sh validates the installed files
    # and the .deb with.
    help2man man-db bsdextrautils desktop-file-utils appstream shared-mime-info libglib2.0-bin
    libxml2-utils file dpkg-dev
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if ((${#missing[@]} == 0)); then
    exit 0
fi

echo "Installing missing packages: ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null; then
        echo "error: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    sudo=(sudo)
fi
# sudo drops the caller's environment, so the frontend is passed through env: without it
# debconf tries a dialog frontend with no terminal and prints "unable to initialize frontend".
apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
"${apt[@]}" update -q
"${apt[@]}" install -y -q --no-install-recommends "${missing[@]}"
