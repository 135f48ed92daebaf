#!/usr/bin/env bash
# Unreadable inputs and unwritable outputs: every input kind given as a file haec may not read, and
# an --out where it may not write, is one line naming the file (exit 2) and leaves nothing. Run as
# an unprivileged user (root reads everything: as root the test runs haec as nobody).
source "$(dirname "$0")/common.sh" "$@"
RUNAS=()
if [[ $(id -u) == 0 ]]; then
  command -v setpriv > /dev/null || { echo "SKIP: root without setpriv"; exit 0; }
  RUNAS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  chmod 755 "$TMP"
  "${RUNAS[@]}" test -x "$HAEC" || { echo "SKIP: nobody cannot run $HAEC"; exit 0; }
fi
DATA="$SRC/tests/bad_inputs/data"
APP="$BUILD/bin/pingpong"
mkdir w && chmod 777 w && cd w

locked() { # NAME SOURCE: a copy nobody may read
  cp -r "$1" "$2"
  chmod -R a-r "$2"
  chmod a-x "$2" 2> /dev/null
}
"$HAEC" platform cluster:2 --out plat.json > /dev/null
locked plat.json p.json
cp "$DATA/malformed.xml" x.xml && sed -i 's/.*//' x.xml && "$HAEC" platform cluster:2 > /dev/null
printf 'node-0\nnode-1\n' > hosts && locked hosts h.hostfile
locked "$DATA/duplicate_rank.mapping" m.mapping
locked "$SRC/tests/data/mapping/traffic_ok.csv" t.csv
printf '0 init\n0 finalize\n' > r0.txt && printf '1 init\n1 finalize\n' > r1.txt
printf '%s\n%s\n' "$PWD/r0.txt" "$PWD/r1.txt" > ok.trace && locked ok.trace list.trace
cp r1.txt r1locked.txt && chmod a-r r1locked.txt && printf '%s\n%s\n' "$PWD/r0.txt" "$PWD/r1locked.txt" > rank.trace
echo '{"profiles": {"a": {"dynamic_scale": 1}}}' > wl.json && locked wl.json w.json
locked "$DATA/calibration_one_size.csv" s.csv
locked "$DATA/regions_real" regions
mkdir ro && chmod 555 ro

expect() { # PATTERN CMD...: exit 2, one line matching, nothing new in the directory
  local pattern=$1
  shift
  local before
  before=$(find . | sort)
  "${RUNAS[@]}" "$@" > ../out 2> ../err
  local status=$?
  [[ $status == 2 ]] || { cat ../err >&2; fail "exit $status, want 2: $*"; }
  [[ $(wc -l < ../err) == 1 ]] || { cat ../err >&2; fail "not one line: $*"; }
  grep -qE -- "^haec: .*$pattern" ../err || { cat ../err >&2; fail "error does not match /$pattern/: $*"; }
  [[ $before == "$(find . | sort)" ]] || fail "files left behind: $*"
  echo "ok: $(cat ../err)"
}
expect "p.json.*(Permission denied|cannot read)" "$HAEC" run --platform p.json -np 2 --out o -- "$APP"
expect "h.hostfile" "$HAEC" run --platform cluster:2 --hostfile h.hostfile -np 2 --out o -- "$APP"
expect "m.mapping" "$HAEC" run --platform haec-box:2x2x2 --mapping-file m.mapping -np 2 --out o -- "$APP"
expect "t.csv" "$HAEC" run --platform haec-box:2x2x2 --map min-md --traffic t.csv -np 2 --out o -- "$APP"
expect "list.trace" "$HAEC" run --platform cluster:2 --replay list.trace --out o
expect "r1locked.txt" "$HAEC" run --platform cluster:2 --replay rank.trace --out o
expect "r1locked.txt" "$HAEC" trace check rank.trace
expect "w.json" "$HAEC" run --platform cluster:2 -np 2 --workloads w.json --out o -- "$APP"
expect "s.csv" "$HAEC" calibrate net s.csv --out o
expect "regions" "$HAEC" calibrate regions --real regions --smpi regions --out f.csv
expect "--out ro/o: cannot create a directory in .*ro \(Permission denied\)" \
  "$HAEC" run --platform cluster:2 -np 2 --out ro/o -- "$APP"
expect "--out ro/sub/o: cannot create .*Permission denied" "$HAEC" run --platform cluster:2 -np 2 --out ro/sub/o -- "$APP"
expect "--out ro/tr.txt: cannot create a directory in" "$HAEC" trace record --platform cluster:2 -np 2 --out ro/tr.txt -- "$APP"
echo PASS
