# Shared by the full-disk tests (tests/faults/test_*full_disk.sh). Source it first, with the
# script's arguments: the tests mount a small tmpfs, which needs a user namespace (unshare -rm), so
# this re-runs the script inside one, or skips the test where that is not allowed.
if [[ -z ${HAEC_IN_NAMESPACE:-} ]]; then
  if unshare -rm true 2> /dev/null; then
    exec unshare -rm env HAEC_IN_NAMESPACE=1 bash "$0" "$@"
  fi
  echo "SKIP: cannot mount a tmpfs here (unshare -rm refused)"
  exit 0
fi
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"

PAGE=4096

# A small two-rank replay, t.trace: deterministic, and every result file of an energy run.
write_small_trace() {
  printf '0 init\n0 compute 1e6\n0 send 1 0 4096\n0 recv 1 1 4096\n0 allreduce 8 0\n0 finalize\n' > t0.txt
  printf '1 init\n1 recv 0 0 4096\n1 compute 2e6\n1 send 0 1 4096\n1 allreduce 8 0\n1 finalize\n' > t1.txt
  printf '%s\n%s\n' "$TMP/t0.txt" "$TMP/t1.txt" > t.trace
}

# A 2 MiB tmpfs on ./disk (skips the test where mounting is refused).
mount_small_disk() {
  mkdir disk
  mount -t tmpfs -o size=2m tmpfs disk || { echo "SKIP: tmpfs mount refused"; exit 0; }
}

free_pages() { echo $(( $(stat -f -c '%a' disk) )); }

# Fills the disk (disk/filler) up to KEEP free pages, from TOTAL free pages when empty.
fill_disk_to() {
  local keep=$1 total=$2
  head -c $(( (total - keep) * PAGE )) /dev/zero > disk/filler 2> /dev/null
  [[ $(free_pages) == "$keep" ]] || fail "filler: $(free_pages) pages free, want $keep"
}
