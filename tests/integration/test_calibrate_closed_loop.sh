#!/usr/bin/env bash
# Closed loop of the network calibration (calibration/README.md): run calibration-net under SMPI
# with known settings and calibration-net's default sampling, fit them back with `haec calibrate
# net`, require every threshold within one sampling step and every value within 2 %
# (closed_loop/check.py), then run SMPI again under the fitted settings and require every
# (operation, size) median within 2 % of the first run (closed_loop/compare.py). Three settings:
# the thesis's taurus calibration (5 segments) on a SPLITDUPLEX cluster, 3 segments on a SHARED
# route, 6 segments with the route given. Then: too small a sample is refused, and so is a route
# that does not match the platform.
source "$(dirname "$0")/common.sh"
here="$source_dir/calibration/closed_loop"
printf 'node-0\nnode-1\n' > inter.hosts
printf 'node-0\nnode-0\n' > intra.hosts
measure() { # SETTINGS PLATFORM HOSTFILE OUT [calibration-net options]
  local cfg="$1" platform="$2" hosts="$3" out="$4"; shift 4
  smpirun -np 2 -platform "$here/$platform" -hostfile "$hosts" --cfg=smpi/simulate-computation:no \
    --cfg=smpi/wtime:0 $(grep '^--cfg=' "$cfg" | tr '\n' ' ') "$build/bin/calibration-net" --out "$out" "$@" \
    > "$out.log" 2>&1 || { cat "$out.log"; exit 1; }
}
sizes() { cut -d, -f2 "$1" | tail -n +2 | sort -n | uniq | paste -sd, -; }
fail() { echo "FAILED: $*"; exit 1; }
# closed_loop NAME SETTINGS PLATFORM [haec calibrate net options]: fit, check, rerun, compare.
closed_loop() {
  local name="$1" cfg="$here/$2" platform="$3"; shift 3
  "$haec" calibrate net "$name.csv" --out "$name-fit" "$@" > "$name-fit.txt"
  grep -q '^# in-sample: 380 (operation, size) medians' "$name-fit.txt"
  grep -q '^# held-out: fitted on half' "$name-fit.txt"
  if grep -q '^# warning' "$name-fit.txt"; then fail "$name: the fit has warnings"; fi
  "$py" "$here/check.py" "$cfg" "$name-fit" "$(sizes "$name.csv")" $CHECK_ARGS
  measure "$name-fit/smpi.cfg" "$platform" inter.hosts "$name-rerun.csv"
  "$py" "$here/compare.py" "$name.csv" "$name-rerun.csv"
}

# 1. The thesis's taurus settings (its Figure 4.8) on the two-host cluster, fitted with defaults
#    (route derived from the data) and with the loopback from an intra-node run.
measure "$here/thesis.cfg" platform.xml inter.hosts thesis.csv
measure "$here/thesis.cfg" platform.xml intra.hosts thesis-intra.csv
grep -q "(inter-node), 76 sizes 1..4194304, 10 repetitions" thesis.csv.log
grep -q "(intra-node)" thesis-intra.csv.log
[ "$(grep -c '^MPI_Ssend,' thesis.csv)" -eq 760 ]
CHECK_ARGS="--loopback 5e9 2e-6" closed_loop thesis thesis.cfg platform.xml --intra thesis-intra.csv
[ -s thesis-fit/net.png ] || fail "no net.png"
grep -q '<prop id="smpi/bw-factor"' thesis-fit/config.xml
grep -q '<link id="loopback" bandwidth="5000000000Bps" latency="2e-06s"' thesis-fit/config.xml

# 2. Three segments, A and D inside segments, on a SHARED route (crosstraffic share 0.05).
measure "$here/three.cfg" platform-shared.xml inter.hosts three.csv
CHECK_ARGS="--route 1.25e9 20e-6" closed_loop three three.cfg platform-shared.xml --no-plot

# 3. Six segments; the factors' maxima are below 1 and the minimum lat-factor above 1, so the
#    route must be given (cluster links: SPLITDUPLEX, no reverse share).
measure "$here/six.cfg" platform.xml inter.hosts six.csv
CHECK_ARGS="--route 1.25e9 30e-6" closed_loop six six.cfg platform.xml --no-plot \
  --bandwidth 1.25e9 --latency 30e-6 --no-crosstraffic

# 4. 20 sizes x 5 repetitions cannot resolve the thesis's segments: refused in one line naming
#    the fix, nothing written; --accept-poor-fit writes it with # warning: lines.
measure "$here/thesis.cfg" platform.xml inter.hosts small.csv --count 20 --reps 5
status=0; "$haec" calibrate net small.csv --out small-fit --no-plot > small.out 2> small.err || status=$?
[ "$status" -eq 2 ] || fail "small sample: exit status $status, expected 2"
[ "$(wc -l < small.err)" -eq 1 ] || fail "small sample: the error is not one line"
[ ! -e small-fit ] || fail "small sample: small-fit was written"
grep -q '^haec: small.csv: .*; measure more sizes (calibration-net --count 120) or repetitions' small.err
"$haec" calibrate net small.csv --out small-fit --no-plot --accept-poor-fit > small.out
grep -q '^# warning: small.csv: ' small-fit/smpi.cfg

# 5. A route that does not match the platform: the cluster's links are SPLITDUPLEX, so without
#    --no-crosstraffic the largest bw-factor comes out 1.05: refused, naming the flag.
status=0; "$haec" calibrate net thesis.csv --bandwidth 1.25e9 --latency 30e-6 --out bad-route --no-plot \
  > /dev/null 2> bad-route.err || status=$?
[ "$status" -eq 2 ] || fail "wrong route: exit status $status, expected 2"
grep -q 'bw-factor 1.05 .*> 1.*--no-crosstraffic' bad-route.err
echo "closed loop passed"
