#!/usr/bin/env bash
# README command 2 (and .ci/run): install what is missing, build, run every test.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh"
cd "${HAEC_BUILD_DIR:-$here/build}"
ctest --output-on-failure -j2 "$@"
