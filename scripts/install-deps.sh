#!/usr/bin/env bash
# Installs the Debian 12 packages haec-smpi needs, only those that are missing.
set -euo pipefail
packages=(build-essential gfortran cmake pkg-config libsimgrid-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev
          libscotch-dev # the scotch mapping strategy (libs/mapping/scotch)
          libcli11-dev libboost-context-dev libeigen3-dev python3 python3-numpy python3-matplotlib openmpi-bin libopenmpi-dev
          clang libclang-rt-14-dev # clang + libclang-rt: libFuzzer targets (scripts/fuzz.sh)
          libopen-trace-format2-dev otf2-tools # OTF2 import/export (haec trace), otf2-print in tests
          time valgrind # bench/: /usr/bin/time (CPU time and peak RSS of process trees), leak checks
          gfortran libboost-stacktrace-dev libeigen3-dev # scripts/build-simgrid.sh: SimGrid 3.32 as Debian builds it
          libpapi-dev papi-tools # counter recording (pmpi/counters), papi_avail in tests
          python3-pil # scripts/: animated GIFs of snapshots (matplotlib PillowWriter)
          python3-hypothesis # tests/fuzz/fuzz_campaign_report.py: the campaign report's fuzz target
          libglpk-dev # GLPK: the DVFS coordinated plan's linear program (plugins/dvfs/model/plan_lp.cpp)
          liblemon-dev # LEMON: the same program as a minimum-cost circulation (plugins/dvfs/model/plan_flow.cpp)
          libjemalloc2 # haec run --allocator: the malloc of a replay's simulator (faster than glibc's at scale)
          libabsl-dev # Abseil's flat hash maps: the core's per-message tables (core/model)
          python3-scipy # scripts/dvfs_float_lp.py: the least energy that keeps a run's makespan (linear program)
          chromium slurm-wlm # haec campaign: the report test loads the page; the Slurm executor test starts a local Slurm
          python3-sphinx python3-myst-parser) # the manual (docs/): Sphinx with Markdown pages; its browser test uses chromium
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
