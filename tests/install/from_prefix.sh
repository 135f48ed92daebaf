#!/usr/bin/env bash
# Run by tests/integration/test_install.sh in a private mount namespace (unshare), from a copy in
# its scratch directory: hides the build and source trees, then uses the installation only.
#   from_prefix.sh PREFIX WORK BUILD SOURCE SIMGRID_PREFIX
# Empty directories are mounted over BUILD and SOURCE, as if both were deleted; SIMGRID_PREFIX (the
# SimGrid the suite was built against, a dependency like any other library) stays visible even
# when it lies inside them. Writes its results under WORK/installed/; the caller compares them.
set -euo pipefail
prefix="$1" work="$2" build="$3" source_dir="$4" simgrid="$5"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. Hide the trees (the SimGrid prefix moved aside first, put back after).
keep="$work/simgrid-kept"
mkdir -p "$keep"
mount --bind "$simgrid" "$keep"
for tree in "$build" "$source_dir"; do
  mount -t tmpfs -o size=1m,mode=0755 haec-hidden "$tree"
done
if [ ! -e "$simgrid/bin/smpirun" ]; then # it was inside a hidden tree
  mkdir -p "$simgrid"
  mount --bind "$keep" "$simgrid"
fi
[ ! -e "$build/CMakeCache.txt" ] && [ ! -e "$source_dir/CMakeLists.txt" ] || fail "the build tree is still visible"
[ -e "$simgrid/bin/smpirun" ] || fail "SimGrid's smpirun is not visible in $simgrid"

# 2. Only the installation's programs, from a directory of their own.
export PATH="$prefix/bin:/usr/local/bin:/usr/bin:/bin"
unset LD_LIBRARY_PATH LD_PRELOAD
out="$work/installed"
mkdir -p "$out"
cd "$out"
haec_run() { haec run --platform haec-box:2x2x2 --map block-xyz --link dor --power -np 16 \
               --cfg smpi/simulate-computation:no --quiet "$@"; }

# 3. A CMake project: the toolchain file, find_package(haec-smpi), FindMPI.
cmake -S "$work/fixtures/cmake_project" -B cmake-build -DAPP_DIR="$work/apps" \
      -DCMAKE_TOOLCHAIN_FILE="$prefix/lib/cmake/haec-smpi/haec-smpi-toolchain.cmake" > cmake.log 2>&1 \
  || { cat cmake.log; fail "the CMake project does not configure with the installed package"; }
cmake --build cmake-build > cmake-build.log 2>&1 || { cat cmake-build.log; fail "the CMake project does not build"; }
# ... and a project with the system's compiler finds the package by CMAKE_PREFIX_PATH and is told
# that it does not build with haec's compilers.
mkdir plain-project
printf '%s\n' "cmake_minimum_required(VERSION 3.22)" "project(plain C)" "find_package(haec-smpi REQUIRED)" \
  'file(WRITE ${CMAKE_BINARY_DIR}/uses.txt "${HAEC_SMPI_USES_COMPILERS} ${HAEC_SMPI_C_COMPILER}")' \
  > plain-project/CMakeLists.txt
CC=cc cmake -S plain-project -B plain-build -DCMAKE_PREFIX_PATH="$prefix" > plain.log 2>&1 || { cat plain.log; fail "find_package(haec-smpi) failed"; }
[ "$(cat plain-build/uses.txt)" = "FALSE $prefix/bin/haec-cc" ] || fail "plain project: $(cat plain-build/uses.txt)"

# 4. configure + make with CC=haec-cc (SMPI_PRETEND_CC=1 for configure, as with smpicc).
cp -r "$work/fixtures/make_project" make-build
cp "$work/apps/lu_like.c" "$work/apps/"*.h make-build/
(cd make-build && SMPI_PRETEND_CC=1 CC=haec-cc ./configure && make) > make.log 2>&1 || { cat make.log; fail "SMPI_PRETEND_CC=1 CC=haec-cc ./configure && make failed"; }
grep -q '^#define BUILD_COMPILER "haec-cc"' make-build/build_info.h || fail "build_info.h does not name haec-cc"

# 5. Run them: an emulation, a recorded trace, its replay, an installed example trace, a C++ program,
# a Fortran program when gfortran is there.
haec_run --out emulation -- cmake-build/lu_like 3 --mode flops
haec trace record --platform haec-box:2x2x2 --cfg smpi/simulate-computation:no -np 16 --out lu.txt -q \
  -- make-build/lu_like 3 --mode flops
haec run --platform torus:4x2x2 --map xyz --link dor --power --replay lu.txt --out replay --quiet
haec run --platform cluster:4 --replay "$prefix/share/haec/examples/campaigns/lu_like16/trace.txt" --out example --quiet
haec run --platform cluster:4 -np 4 --out cxx --quiet -- cmake-build/ranks
grep -q "c++ ranks 4, sum of ranks 6" cxx/stdout.txt || fail "the C++ program did not run: $(cat cxx/stdout.txt)"
if command -v gfortran > /dev/null; then
  printf '%s\n' "program hello" "  include 'mpif.h'" "  integer :: ierr, rank, n" "  call MPI_Init(ierr)" \
    "  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)" "  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)" \
    "  if (rank == 0) print *, 'fortran ranks', n" "  call MPI_Finalize(ierr)" "end program hello" > hello.f90
  haec-fc hello.f90 -o hello_f > fc.log 2>&1 || { cat fc.log; fail "haec-fc failed"; }
  haec run --platform cluster:4 -np 4 --out fortran --quiet -- ./hello_f
  grep -q "fortran ranks *4" fortran/stdout.txt || fail "the Fortran program did not run: $(cat fortran/stdout.txt)"
fi
# 6. What haec runs from share/haec: a two-run campaign of the installed example trace, its report.
printf '{"name": "install check", "trace": "%s", "run": {"power": true},\n "axes": {"platform": ["cluster:2,preset=taurus", "cluster:4,preset=taurus"]}}\n' \
  "$prefix/share/haec/examples/campaigns/lu_like16/trace.txt" > campaign.json
haec campaign run campaign.json --out campaign -j 2 > campaign.log 2>&1 || { cat campaign.log; fail "haec campaign run failed"; }
haec campaign report campaign > report.log 2>&1 || { cat report.log; fail "haec campaign report failed"; }
[ -s campaign/report/index.html ] && [ -s campaign/report/time_vs_nodes.png ] || fail "no campaign report: $(cat report.log)"
# 7. The installed manual, when the build had one: haec's help names its pages there.
if [ -e "$prefix/share/doc/haec-smpi/html/index.html" ]; then
  haec run --help | grep -qF "HTML: $prefix/share/doc/haec-smpi/html/guide/running.html" \
    || fail "haec run --help does not name the installed manual: $(haec run --help | tail -2)"
fi
echo "from the prefix: built with CMake and with configure + make, emulation, trace, replay, campaign report: ok"
