#!/usr/bin/env bash
# Builds SimGrid 3.32 from Debian 12's own source package with haec-smpi's patches
# (third_party_patches/simgrid-3.32/*.patch: our lines only) into BUILD/simgrid-prefix, checks
# that it replays exactly as Debian's library does (scripts/check-simgrid-build.sh), and only then
# marks it usable: `haec run` loads it (smpirun -wrapper, LD_LIBRARY_PATH) when the mark exists.
# Debian's library stays installed and supported (`haec run --simgrid debian`).
#
#   scripts/build-simgrid.sh [BUILD_DIR]      default: $HAEC_BUILD_DIR or build/
#
# Skipped (exit 0) when the prefix is already built from the same Debian source version, patches
# and script, and checked; HAEC_SIMGRID=debian skips it altogether. A fresh build takes about
# 5 minutes on 2 cores (library only: SMPI, MSG and Fortran on; Java, Python, ns-3, model checking
# and documentation off). It needs a deb-src line for bookworm: added (as root or with sudo) to
# /etc/apt/sources.list.d/haec-bookworm-src.sources when `apt-get source` cannot find the package.
# Any failure leaves no prefix behind, prints why, and exits 1: the caller decides whether Debian's
# library is good enough (scripts/test.sh goes on with it and says so).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="$(mkdir -p "${1:-${HAEC_BUILD_DIR:-$here/build}}" && cd "${1:-${HAEC_BUILD_DIR:-$here/build}}" && pwd)"
prefix="$build/simgrid-prefix"
work="$build/simgrid-src"
say() { echo "build-simgrid: $*"; }
fail() { echo "build-simgrid: $*" >&2; rm -rf "$prefix.new"; exit 1; }

if [ "${HAEC_SIMGRID:-}" = debian ]; then
  say "HAEC_SIMGRID=debian: not building the patched SimGrid"; exit 0
fi
src_version=$(dpkg-query -W -f='${source:Version}' libsimgrid3.32 2>/dev/null) \
  || fail "libsimgrid3.32 is not installed (run scripts/install-deps.sh first)"
patches=("$here"/third_party_patches/simgrid-3.32/*.patch)
key="simgrid $src_version; patches $(cat "${patches[@]}" | sha256sum | cut -c1-16); script $(cat "$0" "$here/scripts/check-simgrid-build.sh" | sha256sum | cut -c1-16)"
if [ -f "$prefix/CHECKED" ] && [ "$(head -1 "$prefix/BUILD_INFO" 2>/dev/null)" = "$key" ]; then
  say "up to date ($prefix: $key)"; exit 0
fi
rm -rf "$prefix" "$prefix.new"
t0=$(date +%s)

# 1. Debian's source package, exactly the installed version (dpkg-source applies Debian's patches).
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo > /dev/null; then sudo "$@"; else return 1; fi; }
rm -rf "$work" && mkdir -p "$work"
if ! (cd "$work" && apt-get source -qq "simgrid=$src_version" > fetch.log 2>&1); then
  say "no deb-src entry for simgrid $src_version: adding bookworm's"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    | as_root tee /etc/apt/sources.list.d/haec-bookworm-src.sources > /dev/null \
    || fail "cannot add a deb-src line (not root, no sudo); add one for bookworm and run again"
  as_root apt-get update -qq || fail "apt-get update failed"
  (cd "$work" && apt-get source -qq "simgrid=$src_version" > fetch.log 2>&1) \
    || fail "apt-get source simgrid=$src_version failed: $(tail -1 "$work/fetch.log")"
fi
src="$(find "$work" -maxdepth 1 -type d -name 'simgrid-3.32*' | head -1)"
[ -n "$src" ] || fail "apt-get source left no simgrid-3.32 directory in $work"
for p in "${patches[@]}"; do
  patch -d "$src" -p1 --forward --quiet < "$p" || fail "patch $(basename "$p") does not apply to simgrid $src_version"
done

# 2. The library only, with Debian's compiler flags (debian/rules: dpkg-buildflags, hardening=+all,
#    -O3 on C, CMAKE_BUILD_TYPE empty) and SimGrid's own optimisation flags and LTO; without debug
#    information (-g0: Debian strips it from the library too; it does not change the code, and
#    makes the build slower and the library 4 times larger).
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cd "$work" # SimGrid's configure leaves a test program in the current directory
CFLAGS="$(dpkg-buildflags --get CFLAGS) -O3 -g0" CXXFLAGS="$(dpkg-buildflags --get CXXFLAGS) -g0" \
  LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" CPPFLAGS="$(dpkg-buildflags --get CPPFLAGS)" \
  cmake -S "$src" -B "$work/build" -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE= "${launcher[@]}" \
    -Denable_smpi=ON -Denable_msg=ON -Denable_fortran=ON -Denable_java=OFF -Denable_python=OFF -Denable_ns3=OFF \
    -Denable_model-checking=OFF -Denable_documentation=OFF -Denable_smpi_MPICH3_testsuite=OFF \
    > "$work/configure.log" 2>&1 || fail "cmake failed: see $work/configure.log"
say "building libsimgrid (about 5 minutes on 2 cores; log $work/build.log)"
nice cmake --build "$work/build" --target simgrid -j"${HAEC_SIMGRID_JOBS:-$(nproc)}" > "$work/build.log" 2>&1 \
  || fail "build failed: see $work/build.log"
mkdir -p "$prefix.new/lib"
cp -a "$work/build/lib"/libsimgrid.so* "$prefix.new/lib/"
t1=$(date +%s)
{
  echo "$key"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((t1 - t0)) s from Debian's simgrid $src_version source package"
  for p in "${patches[@]}"; do echo "patch $(basename "$p") sha256 $(sha256sum < "$p" | cut -c1-64)"; done
  echo "CFLAGS $(grep -m1 '^CMAKE_C_FLAGS:' "$work/build/CMakeCache.txt" | cut -d= -f2-)"
} > "$prefix.new/BUILD_INFO"

# 3. Same replays as Debian's library, bit for bit, or not used.
"$here/scripts/check-simgrid-build.sh" "$prefix.new" "$src" > "$prefix.new/check.log" 2>&1 \
  || { cat "$prefix.new/check.log" >&2; fail "the patched library does not replay as Debian's does: not used"; }
tail -1 "$prefix.new/check.log" > "$prefix.new/CHECKED"
mv "$prefix.new" "$prefix"
rm -rf "$work"
say "done in $(($(date +%s) - t0)) s: $prefix ($(cat "$prefix/CHECKED"))"
