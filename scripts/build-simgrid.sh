#!/usr/bin/env bash
# Builds SimGrid 4.1 with haec-smpi's patches (third_party_patches/simgrid-4.1/*.patch, applied in
# lexical order with patch -p1) and installs it into PREFIX: headers, libsimgrid,
# smpicc/smpicxx/smpiff/smpirun and simgrid.pc. A build of the suite uses it when configured with
# HAEC_SIMGRID=4.1 (scripts/build.sh runs this script then; scripts/test-simgrid41.sh builds and
# tests the suite against it); by default the suite uses the system's SimGrid (Debian 12: 3.32)
# as it is, and with HAEC_SIMGRID=system this script builds nothing.
#
#   scripts/build-simgrid.sh [PREFIX]      default: build/simgrid-prefix of the repository
#   scripts/build-simgrid.sh --check-archive ARCHIVE   only verify ARCHIVE (exit 0: it is v4.1)
#
# The source, verified before use:
#   1. $HAEC_SIMGRID_ARCHIVE, else
#   2. ../shared/simgrid/simgrid-4.1.tar.gz next to the repository (SimGrid's v4.1 tree without
#      its docs/ folder, for machines without internet access), else
#   3. a download of SimGrid's v4.1 tag archive (GitLab at Inria, then Framagit, then GitHub).
# An archive is accepted when its sha256 is the shared export's, or when the files of the tree it
# holds (docs/ aside) are v4.1's, byte for byte: kSourceManifest is the sha256 of their sorted
# `sha256sum` list (the shared export and a `git archive` of tag v4.1, commit 535b880f, give the
# same). The tag archives of the forges have no published checksum of their own.
#
# Skipped (exit 0) when the prefix holds a build of the same source, patches and script. Any
# failure leaves no prefix behind, prints why, and exits 1. Build choices (measured, see
# docs/incoming/port41-simgrid-versions.md): SimGrid's own optimisation (-O3), no LTO and no debug
# information (-g0: the library only), SMPI and Fortran on; Java, Python, ns-3, model checking,
# sthread and documentation off; `make install` of what remains.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
check_only=""
[ "${1:-}" = --check-archive ] && { check_only="${2:?usage: build-simgrid.sh --check-archive ARCHIVE}"; shift 2; }
prefix="${1:-$here/build/simgrid-prefix}"
mkdir -p "$(dirname "$prefix")"
prefix="$(cd "$(dirname "$prefix")" && pwd)/$(basename "$prefix")"
work="$prefix-src"
info="share/haec-simgrid/build-info.txt" # read by haec --version (tools/haec/install_paths.cpp)
say() { echo "build-simgrid: $*"; }
fail() { echo "build-simgrid: $*" >&2; rm -rf "$prefix" "$work"; exit 1; }

kArchiveSha256=4f30bd837849140492edab8c521a00f0ffc596af05696a3ad37ca53f3e359628  # the shared export
kSourceManifest=defee514d028f09098e34b102fe4cde005b7d5ab78cad17109bc0c14044037b5 # v4.1's files, docs/ aside
kDownloads=(https://gitlab.inria.fr/simgrid/simgrid/-/archive/v4.1/simgrid-v4.1.tar.gz
            https://framagit.org/simgrid/simgrid/-/archive/v4.1/simgrid-v4.1.tar.gz
            https://github.com/simgrid/simgrid/archive/refs/tags/v4.1.tar.gz)

if [ "${HAEC_SIMGRID:-}" = system ]; then
  say "HAEC_SIMGRID=system: the system's SimGrid is used as it is"; exit 0
fi

# The sha256 of the sorted list of the files of the tree in $1, docs/ aside.
manifest() { (cd "$1" && find . -type f ! -path './docs/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-64; }
# Whether archive $1 (sha256 $2) is SimGrid 4.1's source, unpacked into directory $3: "" or why not.
verify() {
  tar -xzf "$1" -C "$3" --strip-components=1 2> /dev/null || { echo "cannot be unpacked (not a .tar.gz)"; return; }
  [ "$2" = "$kArchiveSha256" ] && return
  local got; got=$(manifest "$3")
  [ "$got" = "$kSourceManifest" ] || echo "is not SimGrid 4.1's source (its files' manifest is ${got:0:16}...)"
}
if [ -n "$check_only" ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  why=$(verify "$check_only" "$(sha256sum < "$check_only" | cut -c1-64)" "$tmp")
  [ -z "$why" ] || { echo "build-simgrid: $check_only $why" >&2; exit 1; }
  say "$check_only: SimGrid 4.1's source"; exit 0
fi

# 1. The archive: where it is, and what it is.
archive="${HAEC_SIMGRID_ARCHIVE:-}"
[ -z "$archive" ] && [ -f "$here/../shared/simgrid/simgrid-4.1.tar.gz" ] && archive="$here/../shared/simgrid/simgrid-4.1.tar.gz"
if [ -n "$archive" ]; then
  [ -r "$archive" ] || fail "cannot read the SimGrid archive $archive (HAEC_SIMGRID_ARCHIVE)"
  archive="$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")"
  archive_sha=$(sha256sum < "$archive" | cut -c1-64)
else
  archive_sha=download
fi
patches=("$here"/third_party_patches/simgrid-4.1/*.patch)
[ -e "${patches[0]}" ] || patches=()
# The key of a build: the archive, the patches' changes (their explanatory headers aside) and this script.
changes() { for p in "${patches[@]}"; do sed -n '/^diff --git/,$p' "$p"; done; }
key="simgrid 4.1 ($archive_sha); patches $(changes | sha256sum | cut -c1-16); script $(sha256sum < "$0" | cut -c1-16)"
if [ -f "$prefix/$info" ] && [ "$(head -1 "$prefix/$info")" = "$key" ]; then
  say "up to date ($prefix)"; exit 0
fi
rm -rf "$prefix" "$work"
mkdir -p "$work/src"
t0=$(date +%s)
if [ "$archive_sha" = download ]; then
  for url in "${kDownloads[@]}"; do
    say "downloading $url"
    if curl -fsSL --retry 2 -o "$work/simgrid-4.1.tar.gz" "$url"; then archive="$work/simgrid-4.1.tar.gz"; break; fi
  done
  [ -n "$archive" ] || fail "no SimGrid 4.1 archive: none at ../shared/simgrid/, HAEC_SIMGRID_ARCHIVE unset, and no download worked"
  archive_sha=$(sha256sum < "$archive" | cut -c1-64)
fi
src="$work/src"
why=$(verify "$archive" "$archive_sha" "$src")
[ -z "$why" ] || fail "$archive $why"
say "source verified: $archive"

# 2. Our patches, in lexical order.
for p in "${patches[@]}"; do
  patch -d "$src" -p1 --forward --quiet < "$p" || fail "patch $(basename "$p") does not apply to SimGrid 4.1"
done

# 3. Configure, build and install (straight into the prefix: SimGrid's programs name it in their
#    run path). SimGrid adds -g3 to every compilation; a build type of our own puts -g0 after it.
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cd "$work" # SimGrid's configure leaves a test program in the current directory
cmake -S "$src" -B "$work/build" -DCMAKE_INSTALL_PREFIX="$prefix" "${launcher[@]}" -DCMAKE_BUILD_TYPE=NoDebugInfo \
    -DCMAKE_C_FLAGS_NODEBUGINFO=-g0 -DCMAKE_CXX_FLAGS_NODEBUGINFO=-g0 -DCMAKE_Fortran_FLAGS_NODEBUGINFO=-g0 \
    -Denable_compile_optimizations=ON -Denable_lto=OFF -Denable_smpi=ON -Denable_fortran=ON -Denable_java=OFF \
    -Denable_python=OFF -Denable_ns3=OFF -Denable_model-checking=OFF -Denable_sthread=OFF \
    -Denable_documentation=OFF -Denable_smpi_MPICH3_testsuite=OFF -Denable_smpi_MBI_testsuite=OFF \
    > "$work/configure.log" 2>&1 || fail "cmake failed: $(tail -3 "$work/configure.log" | tr '\n' ' ')"
say "building SimGrid 4.1 (about 15 minutes on 2 cores; log $work/build.log)"
nice cmake --build "$work/build" -j"${HAEC_SIMGRID_JOBS:-$(nproc)}" > "$work/build.log" 2>&1 \
  || fail "build failed: $(grep -m1 -E 'error|Error' "$work/build.log" || tail -1 "$work/build.log")"
cmake --install "$work/build" > "$work/install.log" 2>&1 || fail "install failed: $(tail -1 "$work/install.log")"
t1=$(date +%s)
mkdir -p "$(dirname "$prefix/$info")"
{
  echo "$key"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((t1 - t0)) s on $(nproc) cores from $archive"
  for p in "${patches[@]}"; do echo "patch $(basename "$p" .patch) sha256 $(sha256sum < "$p" | cut -c1-64)"; done
} > "$prefix/$info.new"
mv "$prefix/$info.new" "$prefix/$info" # last: the prefix is complete
rm -rf "$work"
say "done in $((t1 - t0)) s: $prefix"
