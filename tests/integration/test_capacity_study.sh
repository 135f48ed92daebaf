#!/usr/bin/env bash
# The thesis's capacity study as the README shows it (section "The thesis's capacity study,
# redone"): examples/campaigns/capacity.json run as a campaign, every makespan and energy equal to
# the README's table (counted flops, so the figures do not depend on the machine; 1e-9 relative),
# and the conclusions the README draws from them: on the fat tree 256 nodes are slower than 128
# for more energy; on the HAEC box every doubling speeds up by more than 1.9x.
source "$(dirname "$0")/common.sh"
# The example names the default build's program; this test uses its own build's.
sed "s#\"../../build/bin/stencil_imbalance\"#\"$build/bin/stencil_imbalance\"#" \
  "$source_dir/examples/campaigns/capacity.json" > capacity.json
grep -q "\"$build/bin/stencil_imbalance\"" capacity.json || { echo "FAIL: the app path was not rewritten"; exit 1; }
"$haec" campaign run capacity.json --out c --jobs 2 2> run.err || { cat run.err; echo "FAIL: campaign"; exit 1; }
/usr/bin/python3 - c/results.csv <<'PY'
import csv, sys
want = {  # platform: (makespan s, energy J), README table
    "fat-tree:1;16;1;1": (0.02109451108790083, 37.53587323705347),
    "fat-tree:2;16,2;1,2;1,1": (0.011695281167733284, 41.01091520148449),
    "fat-tree:2;16,4;1,2;1,1": (0.010963066316256678, 71.30838043590795),
    "fat-tree:2;16,8;1,2;1,1": (0.007516955399956307, 95.40292929088959),
    "fat-tree:2;16,16;1,2;1,1": (0.007754745384206291, 190.3602931852021),
    "haec-box:4x2x2": (0.04105386058216769, 43.57212025421252),
    "haec-box:4x4x2": (0.020779965712903317, 45.50527267476629),
    "haec-box:4x4x4": (0.010360591096897659, 45.43238414144894),
    "haec-box:8x4x4": (0.0051447667433813515, 45.07052657093441),
    "haec-box:8x8x4": (0.002636411695440197, 46.265478209581545),
}
got = {}
for r in csv.DictReader(open(sys.argv[1])):
    spec = r["machine"].split()[0][len("platform="):].split(",link-bw")[0]
    got[spec] = (float(r["makespan_s"]), float(r["energy_j"]))
bad = [f"{k}: got {got.get(k)}, README {v}" for k, v in want.items()
       if k not in got or any(abs(g - w) > 1e-9 * w for g, w in zip(got[k], v))]
if bad:
    sys.exit("FAIL: " + "; ".join(bad))
ft = [got[k] for k in list(want)[:5]]
hb = [got[k] for k in list(want)[5:]]
if not (ft[4][0] > ft[3][0] and ft[4][1] > ft[3][1]):
    sys.exit("FAIL: 256 fat-tree nodes are not slower and costlier than 128")
if any(a[0] / b[0] <= 1.9 for a, b in zip(hb, hb[1:])):
    sys.exit("FAIL: a HAEC box doubling speeds up by 1.9x or less")
print("capacity study: 10 runs equal to the README's table")
PY
