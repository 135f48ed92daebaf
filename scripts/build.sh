#!/usr/bin/env bash
# Configures and builds everything into build/ (programs in build/bin, libraries in build/lib).
# The SimGrid it builds against (HAEC_SIMGRID): unset or `system`, the system's SimGrid (Debian 12:
# 3.32); `4.1`, SimGrid 4.1 with our patches, built first by scripts/build-simgrid.sh into
# build/simgrid-prefix (skipped when up to date); a directory, the SimGrid installed there.
# HAEC_BUILD_DIR: another build directory.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${HAEC_BUILD_DIR:-$here/build}"
simgrid="${HAEC_SIMGRID:-system}"
if [ "$simgrid" = 4.1 ]; then "$here/scripts/build-simgrid.sh"; fi
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" -DHAEC_SIMGRID="$simgrid" \
  > "$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)"
