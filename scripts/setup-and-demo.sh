#!/usr/bin/env bash
# README command 1: install what is missing, build, run the demonstration study.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh" # builds SimGrid 4.1 first (scripts/build-simgrid.sh) unless HAEC_SIMGRID says otherwise
/usr/bin/python3 "$here/scripts/demo_seed004.py" --build "${HAEC_BUILD_DIR:-$here/build}" --out "${HAEC_DEMO_OUT:-$here/results/demo}"
