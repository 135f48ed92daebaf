#!/usr/bin/env bash
# A full disk at each output file: the result directory is written on a small tmpfs filled up to
# leave 0, 1, 2, ... free pages, so that the write that fails moves through every file haec and the
# simulator write (platform.json, hostfile, mapping.txt, command.txt, the log, the CSV tables,
# summary.json, the staging rename). Every run must either succeed with the same results as on an
# empty disk, or fail (exit 3) with one "haec: " line and leave nothing but the filler and, at
# most, <out>.failed.log. The tmpfs is mounted in a user namespace (unshare -rm); where that is not
# allowed the test says so and skips.
if [[ -z ${HAEC_IN_NAMESPACE:-} ]]; then
  if unshare -rm true 2> /dev/null; then
    exec unshare -rm env HAEC_IN_NAMESPACE=1 bash "$0" "$@"
  fi
  echo "SKIP: cannot mount a tmpfs here (unshare -rm refused)"
  exit 0
fi
source "$(dirname "$0")/common.sh" "$@"

# A small replay: deterministic, and every result file of an energy run.
printf '0 init\n0 compute 1e6\n0 send 1 0 4096\n0 recv 1 1 4096\n0 allreduce 8 0\n0 finalize\n' > t0.txt
printf '1 init\n1 recv 0 0 4096\n1 compute 2e6\n1 send 0 1 4096\n1 allreduce 8 0\n1 finalize\n' > t1.txt
printf '%s\n%s\n' "$TMP/t0.txt" "$TMP/t1.txt" > t.trace
RUN=("$HAEC" run -q --platform cluster:2 --replay t.trace --messages --power --link dor)

mkdir disk
mount -t tmpfs -o size=2m tmpfs disk || { echo "SKIP: tmpfs mount refused"; exit 0; }
PAGE=4096
"${RUN[@]}" --out disk/ref > /dev/null || fail "reference run on an empty tmpfs"
cp -r disk/ref ref && rm -rf disk/ref
files=$(cd ref && ls | tr '\n' ' ')
echo "result files: $files"

free_pages() { echo $(( $(stat -f -c '%a' disk) )); }
total=$(free_pages)
successes=0 failures=0
for keep in $(seq 0 40); do
  head -c $(( (total - keep) * PAGE )) /dev/zero > disk/filler 2> /dev/null
  [[ $(free_pages) == "$keep" ]] || fail "filler: $(free_pages) pages free, want $keep"
  "${RUN[@]}" --out disk/out > out 2> err
  status=$?
  left=$(cd disk && ls -A | grep -v '^filler$' | tr '\n' ' ')
  if [[ $status == 0 ]]; then
    successes=$((successes + 1))
    for f in summary.json messages.csv msg_sizes.csv hops.csv hosts.csv links.csv traffic_matrix.csv platform.json \
             hostfile mapping.txt; do
      [[ ! -e ref/$f ]] || cmp -s "ref/$f" "disk/out/$f" || fail "$keep free pages: $f differs from the reference"
    done
    [[ $left == "out " ]] || fail "$keep free pages: success left '$left'"
  else
    failures=$((failures + 1))
    [[ $status == 3 ]] || { cat err >&2; fail "$keep free pages: exit $status, want 3"; }
    [[ $(wc -l < err) == 1 ]] && grep -q "^haec: " err || { cat err >&2; fail "$keep free pages: not one 'haec: ' line"; }
    [[ -z $left || $left == "out.failed.log " ]] || fail "$keep free pages: failure left '$left'"
  fi
  echo "$keep free pages: exit $status $(head -c 160 err)"
  rm -rf disk/out disk/out.failed.log disk/filler
  (( successes >= 3 )) && break
done
(( failures >= 5 && successes >= 1 )) || fail "the sweep did not cross from failing to succeeding runs ($failures, $successes)"
umount disk
echo PASS
