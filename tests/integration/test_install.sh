#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then haec from that prefix alone: the build and source
# trees hidden (empty directories mounted over them in a private mount namespace, as if deleted),
# lu_like built with haec-cc by a CMake project (toolchain file, find_package(haec-smpi), FindMPI)
# and by `CC=haec-cc ./configure && make`, an emulation, a trace recorded and replayed, a Fortran
# program (tests/install/from_prefix.sh). Their results equal the build tree's, bit for bit; what is
# installed refers to no build or source path (RUNPATHs, scripts, package files).
source "$(dirname "$0")/common.sh"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" > install.log 2>&1 || { cat install.log; fail "cmake --install failed"; }

# 1. What an installation holds.
for f in bin/haec bin/haec-cc bin/haec-cxx bin/haec-f77 bin/haec-fc bin/haec-simgrid-probe bin/haec-exec lib/libhaec_suite.so \
         lib/libhaec_pmpi.so share/haec/campaign/report.py share/haec/calibration/plot_net.py \
         share/haec/calibration/plot_power.py share/haec/scripts/plot_power.py share/haec/platforms/torus-8x8x8.json \
         share/haec/examples/campaigns/demo.json lib/pkgconfig/haec-smpi.pc lib/cmake/haec-smpi/haec-smpi-config.cmake \
         lib/cmake/haec-smpi/haec-smpi-targets.cmake lib/cmake/haec-smpi/haec-smpi-toolchain.cmake \
         share/man/man1/haec.1 share/man/man1/haec-run.1 share/man/man1/haec-cc.1; do
  [ -e "$prefix/$f" ] || fail "cmake --install did not install $f"
done
if [ -e "$build/docs/html/index.html" ]; then # the manual was built: it is installed too
  [ -e "$prefix/share/doc/haec-smpi/html/index.html" ] || fail "the built manual was not installed"
fi
for c in cc cxx f77 fc; do
  [ "$(readlink "$prefix/bin/haec-$c")" = haec ] || fail "bin/haec-$c is not a link to haec"
done
man -l "$prefix/share/man/man1/haec-run.1" 2> man.err | grep -q -- "--platform" || { cat man.err; fail "haec-run.1 does not render"; }
pc() { PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config "$@" haec-smpi; }
[ "$(realpath "$(pc --variable=cc)")" = "$(realpath "$prefix/bin/haec")" ] || fail "haec-smpi.pc: cc is $(pc --variable=cc)"
simgrid="$(pc --variable=simgrid_prefix)"
[ -x "$simgrid/bin/smpirun" ] || fail "haec-smpi.pc: no smpirun in simgrid_prefix '$simgrid'"

# No path of the build or source tree, SimGrid's prefix aside, in what the installed programs read.
trees=("$build" "$source_dir" "$(realpath "$build")" "$(realpath "$source_dir")")
while IFS= read -r -d '' f; do
  if head -c 4 "$f" | grep -q ELF; then
    text=$(readelf -d "$f" | grep -E 'RUNPATH|RPATH' || true)
  else
    text=$(cat "$f")
  fi
  for t in "${trees[@]}"; do
    leaks=$(printf '%s\n' "$text" | grep -oaE -- "$t[^ \"':;]*" | grep -vF -- "$simgrid" || true)
    [ -z "$leaks" ] || fail "$f refers to the build or source tree: $(echo $leaks | head -c 200)"
  done
done < <(find "$prefix/bin" "$prefix/lib" "$prefix/share/haec" "$prefix/share/man" -type f -print0)

# 2. The build tree's results, to compare with.
cp -r "$source_dir/apps" apps
cp -r "$source_dir/tests/install" fixtures
mkdir reference
(cd reference
 "$haec" cc -O2 ../apps/lu_like.c -o lu_like -lm
 "$haec" run --platform haec-box:2x2x2 --map block-xyz --link dor --power -np 16 --cfg smpi/simulate-computation:no \
   --quiet --out emulation -- ./lu_like 3 --mode flops
 "$haec" trace record --platform haec-box:2x2x2 --cfg smpi/simulate-computation:no -np 16 --out lu.txt -q \
   -- ./lu_like 3 --mode flops
 "$haec" run --platform torus:4x2x2 --map xyz --link dor --power --replay lu.txt --out replay --quiet
 "$haec" run --platform cluster:4 --replay "$source_dir/examples/campaigns/lu_like16/trace.txt" --out example --quiet)

# 3. From the prefix, the trees hidden.
if unshare --mount true 2> /dev/null; then
  namespace=(unshare --mount)
elif unshare --mount --map-root-user true 2> /dev/null; then
  namespace=(unshare --mount --map-root-user)
else
  skip "no private mount namespace here (unshare --mount): cannot hide the build tree"
fi
"${namespace[@]}" bash "$work/fixtures/from_prefix.sh" "$prefix" "$work" "$(realpath "$build")" \
  "$(realpath "$source_dir")" "$simgrid" || fail "running from the prefix failed (above)"

# 4. What the installation built and ran equals what the build tree did.
"$py" - "$prefix" "$simgrid" <<'PY'
import json, os, sys
prefix, simgrid = sys.argv[1:]
package = dict(line.split(" ", 1) for line in open("installed/cmake-build/package.txt").read().splitlines())
for key, want in (("haec", "bin/haec"), ("haec-cc", "bin/haec-cc"), ("pmpi", "lib/libhaec_pmpi.so")):
    assert os.path.realpath(package[key]) == os.path.realpath(os.path.join(prefix, want)), (key, package[key])
assert os.path.basename(package["c_compiler"]) == os.path.basename(package["mpi_c_compiler"]) == "haec-cc", package
assert package["simgrid"].endswith(simgrid), package
for run in ("emulation", "replay", "example"):
    ref = json.load(open(f"reference/{run}/summary.json"))
    got = json.load(open(f"installed/{run}/summary.json"))
    for key in ("makespan_s", "energy_j", "messages", "bytes", "app_messages", "transfer_hops"):
        assert ref.get(key) == got.get(key), (run, key, ref.get(key), got.get(key))
    checks = got["checks"]  # the PMPI layer saw the messages; nothing failed
    assert got["app_messages"] > 0 and checks["traffic_matrix_total"]["result"] == "passed", (run, checks)
    assert all(c["result"] in ("passed", "not checked") for c in checks.values()), (run, checks)
    print(f"{run}: makespan {got['makespan_s']!r} s, energy {got.get('energy_j')!r} J, "
          f"{got['app_messages']} messages: as in the build tree")
PY
for r in $(seq 0 15); do
  cmp "reference/lu.txt_files/rank-$r.txt" "installed/lu.txt_files/rank-$r.txt" \
    || fail "the trace recorded from the prefix differs (rank $r)"
done
echo "installed into a temporary prefix, built and ran from it alone: ok"
