#!/usr/bin/env bash
# Configures and builds everything into build/ (programs in build/bin, libraries in build/lib).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${HAEC_BUILD_DIR:-$here/build}"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" > "$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)"
