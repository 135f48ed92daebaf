#!/usr/bin/env bash
# Bad input to `haec run` / `haec map` / `haec platform`: a one-line error naming the input,
# a non-zero exit, and no result directory (nor staging leftovers).
set -uo pipefail
build="$(cd "$1" && pwd)"
haec="$build/bin/haec"
app="$build/bin/pingpong"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
printf 'node-0-0-0\nnowhere-host\n' > bad.hostfile
printf 'xyz\n0 0 0 1 0\n' > short.mapping
printf 'src_rank,dst_rank,messages,bytes\n0,1,x,3\n' > bad.traffic
fails=0
# expect STATUS PATTERN -- command...
expect() {
  local pattern="$1"; shift
  rm -rf out
  "$@" > stdout.txt 2> stderr.txt
  local status=$?
  local lines
  lines=$(grep -c . stderr.txt)
  if [ "$status" -eq 0 ] || ! grep -Eq "$pattern" stderr.txt || [ "$lines" -ne 1 ] || [ -e out ] || ls -d out.tmp-* >/dev/null 2>&1; then
    echo "FAIL: $* -> status $status, stderr:"; cat stderr.txt; fails=$((fails + 1))
  else
    echo "ok: $(head -1 stderr.txt)"
  fi
}
run() { "$haec" run --out out "$@"; }
expect "unknown link model"            run --link warp -np 2 -- "$app"
expect "unknown mapping strategy|unknown .*strategy" run --map zigzag -np 2 -- "$app"
expect "haec-box:3x3"                  run --platform haec-box:3x3 -np 2 -- "$app"
expect "hyperbox"                      run --platform hyperbox:3x3x3 -np 2 -- "$app"
expect "0x3x3"                         run --platform torus:0x3x3 -np 2 -- "$app"
expect "optical-bw"                    run --platform haec-box:3x3x3,optical-bw=0Gbps -np 2 -- "$app"
expect "link-lat"                      run --platform torus:2x2x2,link-lat=-1us -np 2 -- "$app"
expect "wireless-ber"                  run --platform haec-box:2x2x2,wireless-ber=1 -np 2 -- "$app"
expect "wireless-ber"                  run --platform haec-box:2x2x2,wireless-ber=-0.1 -np 2 -- "$app"
expect "places 1 ranks but -np is 4"   run --platform haec-box:2x2x2 --mapping-file short.mapping -np 4 -- "$app"
expect "nowhere-host"                  run --platform haec-box:2x2x2 --hostfile bad.hostfile -np 2 -- "$app"
expect "missing.trace"                 run --platform haec-box:2x2x2 --replay missing.trace -np 2
expect "not found or not executable"   run --platform haec-box:2x2x2 -np 2 -- ./no-such-app
expect "min-md"                        run --platform haec-box:2x2x2 --map min-md -np 2 -- "$app"
expect "bad.traffic:2"                 run --platform haec-box:2x2x2 --map min-md --traffic bad.traffic -np 2 -- "$app"
expect "positive"                      run --platform haec-box:2x2x2 -np 0 -- "$app"
expect "did you mean haec/link/window" run --platform haec-box:2x2x2 --cfg haec/link/windo:4 -np 2 -- "$app"
expect "window"                        run --platform haec-box:2x2x2 --link dor --cfg haec/link/window:0 -np 2 -- "$app"
expect "payload|packet"                run --platform haec-box:2x2x2 --link pnc --cfg haec/link/packet-size:8 -np 2 -- "$app"
expect "not a number|number"           run --platform haec-box:2x2x2 --link dor --cfg haec/link/d-out:fast -np 2 -- "$app"
expect "nothing to run"                run --platform haec-box:2x2x2 -np 2
expect "no such platform file"         run --platform missing.xml -np 2 -- "$app"
expect "hyperbox"                      "$haec" map --platform hyperbox:2 -np 2 --out out
expect "board=cube|board"              "$haec" platform haec-box:2x2x2,board=cube
mkdir out_exists && expect "already exists" "$haec" run --platform haec-box:2x2x2 -np 2 --out out_exists -- "$app"
[ -d out_exists ] || { echo "FAIL: existing directory was touched"; fails=$((fails + 1)); }
echo "$fails failed"
[ "$fails" -eq 0 ]
