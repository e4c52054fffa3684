#!/usr/bin/env bash
# Builds the Debian package for release: a portable Release build (no -march=native, so the
# binaries run on any x86-64) in build-package/, then cpack -G DEB. Prints the .deb's path.
#   ./scripts/package.sh
# The Release build of test.sh (build/) makes a package too (scripts/check-install.sh checks
# it), but one tuned to the machine that built it.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset package >/dev/null
cmake --build --preset package
(cd build-package && cpack -G DEB >/dev/null)
ls build-package/attention-lens_*.deb
