#!/usr/bin/env bash
# README command 1: install what is missing, build, run the demonstration study.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh" # the system's SimGrid; HAEC_SIMGRID=4.1: SimGrid 4.1, built first (scripts/build-simgrid.sh)
/usr/bin/python3 "$here/scripts/demo_ciorba2014.py" --build "${HAEC_BUILD_DIR:-$here/build}" --out "${HAEC_DEMO_OUT:-$here/results/demo}"
