#!/usr/bin/env bash
# README command 2 (and .ci/run): install what is missing, build, run every test.
#   scripts/test.sh          the default suite on the system's SimGrid (Debian 12: 3.32; ctest: unit,
#                            integration, bad_inputs, faults, determinism, architecture, docs: the
#                            manual built and its tutorials run), then the quality gates: the
#                            ASan+UBSan build with its tests (scripts/test-asan.sh) and a 10 s smoke
#                            run of every fuzz target
#   scripts/test.sh --quick  the default suite only
# HAEC_SIMGRID and HAEC_BUILD_DIR choose another SimGrid and build directory (scripts/build.sh);
# scripts/test-simgrid41.sh runs the default suite on SimGrid 4.1.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh"
(cd "${HAEC_BUILD_DIR:-$here/build}" && ctest --output-on-failure -j2)
[ "${1:-}" = "--quick" ] && exit 0
echo "== quality gate: sanitizers =="
"$here/scripts/test-asan.sh"
echo "== quality gate: fuzzing smoke (10 s per target) =="
"$here/scripts/fuzz.sh" 10
