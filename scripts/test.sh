#!/usr/bin/env bash
# README command 2 (and .ci/run): install what is missing, build, run every test.
#   scripts/test.sh          the default suite on SimGrid 4.1 (scripts/build-simgrid.sh; ctest: unit,
#                            integration, bad_inputs, faults, determinism, architecture, docs: the
#                            manual built and its tutorials run), the quality gates (the ASan+UBSan
#                            build with its tests, scripts/test-asan.sh, and a 10 s smoke run of every
#                            fuzz target), then ctest again on a second build against the system's
#                            SimGrid (Debian 12: 3.32) in build-simgrid-system/
#   scripts/test.sh --quick  the default suite only
# HAEC_SIMGRID=system: the default suite on the system's SimGrid only (no 4.1 build, no second build).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh" # builds SimGrid 4.1 first unless HAEC_SIMGRID says otherwise
(cd "${HAEC_BUILD_DIR:-$here/build}" && ctest --output-on-failure -j2)
[ "${1:-}" = "--quick" ] && exit 0
echo "== quality gate: sanitizers =="
"$here/scripts/test-asan.sh"
echo "== quality gate: fuzzing smoke (10 s per target) =="
"$here/scripts/fuzz.sh" 10
[ -n "${HAEC_SIMGRID:-}" ] && exit 0
echo "== the system's SimGrid ($(pkg-config --modversion simgrid)) =="
HAEC_SIMGRID=system HAEC_BUILD_DIR="$here/build-simgrid-system" "$here/scripts/build.sh"
(cd "$here/build-simgrid-system" && ctest --output-on-failure -j2)
