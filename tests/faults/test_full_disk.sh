#!/usr/bin/env bash
# A full disk at each output file: the result directory is written on a small tmpfs filled up to
# leave 0, 1, 2, ... free pages, so that the write that fails moves through every file haec and the
# simulator write (platform.json, hostfile, mapping.txt, command.txt, the log, the CSV tables,
# summary.json, the staging rename). Every run must either succeed with the same results as on an
# empty disk, or fail (exit 3) with one "haec: " line and leave nothing but the filler and, at
# most, <out>.failed.log. The tmpfs is mounted in a user namespace (unshare -rm); where that is not
# allowed the test skips (full_disk.sh).
source "$(dirname "$0")/full_disk.sh" "$@"

write_small_trace
RUN=("$HAEC" run -q --platform cluster:2 --replay t.trace --messages --power --link dor)

mount_small_disk
"${RUN[@]}" --out disk/ref > /dev/null || fail "reference run on an empty tmpfs"
cp -r disk/ref ref && rm -rf disk/ref
files=$(cd ref && ls | tr '\n' ' ')
echo "result files: $files"

total=$(free_pages)
successes=0 failures=0
for keep in $(seq 0 40); do
  fill_disk_to "$keep" "$total"
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
