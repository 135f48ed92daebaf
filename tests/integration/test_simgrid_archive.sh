#!/usr/bin/env bash
# scripts/build-simgrid.sh accepts SimGrid 4.1's source only (--check-archive: the same
# verification it runs before a build): the offline copy by its sha256; a repacked archive of the
# same tree (another sha256, a docs/ folder added, as in a forge's tag archive) by the checksums of
# its files; and refuses, exit 1 with one line, an archive with one file changed and a file that is
# not an archive. Skipped (77) when the offline copy (../shared/simgrid/ beside the repository, or
# HAEC_SIMGRID_ARCHIVE) is not on this machine.
source "$(dirname "$0")/common.sh"
script="$source_dir/scripts/build-simgrid.sh"
archive="${HAEC_SIMGRID_ARCHIVE:-$source_dir/../shared/simgrid/simgrid-4.1.tar.gz}"
[ -f "$archive" ] || skip "no offline SimGrid 4.1 archive ($archive)"

check() { # EXPECTED-STATUS ARCHIVE
  set +e
  "$script" --check-archive "$2" > check.out 2> check.err
  local status=$?
  set -e
  [ "$status" -eq "$1" ] || fail "$2: exit $status, expected $1: $(cat check.err)"
  [ "$1" -eq 0 ] || [ "$(grep -c . check.err)" -eq 1 ] || fail "$2: not one line: $(cat check.err)"
}
check 0 "$archive"
echo "offline copy: $(cat check.out)"

mkdir tree && tar -xzf "$archive" -C tree
top=$(ls tree)
mkdir -p "tree/$top/docs" && echo "documentation" > "tree/$top/docs/index.rst"
tar -czf repacked.tar.gz -C tree "$top"
check 0 repacked.tar.gz
echo "repacked with docs/: accepted"

echo "// changed" >> "tree/$top/src/smpi/internals/smpi_replay.cpp"
tar -czf changed.tar.gz -C tree "$top"
check 1 changed.tar.gz
grep -q "is not SimGrid 4.1's source" check.err || fail "changed file: $(cat check.err)"
echo "one file changed: refused: $(cat check.err)"

echo "not an archive" > bogus.tar.gz
check 1 bogus.tar.gz
grep -q "cannot be unpacked" check.err || fail "bogus archive: $(cat check.err)"
echo "not an archive: refused"
echo PASS
