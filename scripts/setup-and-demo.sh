#!/usr/bin/env bash
# README command 1: install what is missing, build, run the demonstration study.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh"
# The patched SimGrid (faster at scale, same results; skipped when built; HAEC_SIMGRID=debian: never).
"$here/scripts/build-simgrid.sh" || echo "WARNING: the patched SimGrid is not used (see above): haec run uses Debian's library"
/usr/bin/python3 "$here/scripts/demo_seed004.py" --build "${HAEC_BUILD_DIR:-$here/build}" --out "${HAEC_DEMO_OUT:-$here/results/demo}"
