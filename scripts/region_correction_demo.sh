#!/usr/bin/env bash
# Region correction factors on this machine (calibration/README.md):
#   1. builds apps/bt_like twice with the region recorder (calibration/regions): mpicc (Debian
#      OpenMPI) and smpicc;
#   2. runs it for real (mpirun, NP ranks on this machine's cores) and under SMPI uncorrected
#      (haec run, cluster:NP at the benchmark host's speed), recording per-region times;
#   3. fits the factors (haec calibrate regions) and reruns SMPI with smpi/comp-adjustment-file;
#   4. writes OUT/regions.csv, OUT/summary.md (per region: real, SMPI before and after, errors; and
#      the totals), OUT/factors.csv and the three records.
# Usage: scripts/region_correction_demo.sh BUILD_DIR OUT_DIR [NP] [ITERATIONS]
set -euo pipefail
build="$(cd "${1:?usage: region_correction_demo.sh BUILD_DIR OUT_DIR [NP] [ITERATIONS]}" && pwd)"
out="${2:?usage: region_correction_demo.sh BUILD_DIR OUT_DIR [NP] [ITERATIONS]}"
np="${3:-2}"
iters="${4:-20}"
src="$(cd "$(dirname "$0")/.." && pwd)"
haec="$build/bin/haec"
if [ -e "$out" ]; then echo "region_correction_demo: $out already exists; remove it or choose another directory" >&2; exit 2; fi
command -v mpicc > /dev/null || { echo "region_correction_demo: mpicc not found; install openmpi-bin libopenmpi-dev" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="$work/out"
mkdir -p "$stage"/{real,smpi_before,smpi_after}
app_args=(--iters "$iters" --mode real)
# The same relative source path in both builds: the region keys carry file basenames and lines.
cp "$src/apps/bt_like.c" "$src/apps/cost_injection.h" "$src/apps/app_start.h" "$work/"
(cd "$work" && mpicc -O2 -include "$src/calibration/regions/haec_regions.h" bt_like.c \
   "$src/calibration/regions/region_recorder.c" -lm -o bt_real)
(cd "$work" && smpicc -O2 -include "$src/calibration/regions/haec_regions.h" bt_like.c \
   "$src/calibration/regions/region_recorder.c" -lm -o bt_smpi 2> /dev/null)

root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
echo "+ real run: mpirun -np $np bt_like ${app_args[*]}"
HAEC_REGIONS_OUT="$stage/real" mpirun "${root[@]}" --oversubscribe -np "$np" "$work/bt_real" "${app_args[@]}" \
  > "$stage/real_stdout.txt"

# SMPI at the benchmark host's speed: the platform's hosts compute as fast as this machine is
# declared to, so an uncorrected run is SMPI's best prediction without region factors.
smpi() { # record_dir extra_cfg...
  local rec="$1"; shift
  HAEC_REGIONS_OUT="$rec" "$haec" run --platform "cluster:$np,speed=2.3Gf" --host-speed 2.3Gf -np "$np" \
    --cfg smpi/wtime:0 "$@" --out "$work/run-$(basename "$rec")" --quiet -- "$work/bt_smpi" "${app_args[@]}" > /dev/null
}
echo "+ SMPI run, uncorrected"
smpi "$stage/smpi_before"
"$haec" calibrate regions --real "$stage/real" --smpi "$stage/smpi_before" --out "$stage/factors.csv" \
  --table "$stage/aligned.csv" > /dev/null
"$haec" calibrate regions --check "$stage/factors.csv" --smpi "$stage/smpi_before" > /dev/null
echo "+ SMPI run with --cfg smpi/comp-adjustment-file:factors.csv"
smpi "$stage/smpi_after" --cfg "smpi/comp-adjustment-file:$stage/factors.csv"

/usr/bin/python3 - "$stage" "$np" "$iters" <<'PY'
import csv, glob, os, sys
stage, np, iters = sys.argv[1], sys.argv[2], sys.argv[3]
def record(d):
    t = {}
    for f in glob.glob(os.path.join(stage, d, "rank*.csv")):
        for r in csv.DictReader(open(f)):
            c, s = t.get(r["region"], (0, 0.0))
            t[r["region"]] = (c + int(r["count"]), s + float(r["total_s"]))
    return t
real, before, after = record("real"), record("smpi_before"), record("smpi_after")
written = {r["region"] for r in csv.DictReader(open(os.path.join(stage, "aligned.csv"))) if r["written"] == "yes"}
rows = []
for key in sorted(real, key=lambda k: -real[k][1]):
    r, b, a = real[key][1], before[key][1], after[key][1]
    rows.append({"region": key, "count": real[key][0], "real_s": r, "smpi_before_s": b, "smpi_after_s": a,
                 "err_before_pct": 100 * (b - r) / r if r > 0 else float("nan"),
                 "err_after_pct": 100 * (a - r) / r if r > 0 else float("nan"),
                 "corrected": "yes" if key in written else "no"})
with open(os.path.join(stage, "regions.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader(); w.writerows(rows)
tr, tb, ta = (sum(x[1] for x in t.values()) for t in (real, before, after))
md = [f"# Region correction factors: bt_like ({np} ranks, {iters} iterations, --mode real)\n",
      "Real run: Debian OpenMPI (`mpirun`) on this machine. SMPI: `haec run --platform cluster:%s,speed=2.3Gf "
      "--host-speed 2.3Gf`, before and after `--cfg smpi/comp-adjustment-file:factors.csv`. Times are summed "
      "over ranks; error = (SMPI - real) / real. Regions under 1 us are not corrected (SMPI does not simulate "
      "them).\n" % np,
      "| region (prev call site -> call site) | count | real (ms) | SMPI before (ms) | error before | SMPI after (ms) | error after |",
      "|---|---|---|---|---|---|---|"]
for r in rows:
    if r["real_s"] < 1e-5:
        continue
    md.append(f"| {r['region']} | {r['count']} | {1e3*r['real_s']:.3f} | {1e3*r['smpi_before_s']:.3f} | "
              f"{r['err_before_pct']:+.1f} % | {1e3*r['smpi_after_s']:.3f} | {r['err_after_pct']:+.1f} % |")
md.append(f"| **all regions** | | {1e3*tr:.3f} | {1e3*tb:.3f} | {100*(tb-tr)/tr:+.1f} % | {1e3*ta:.3f} | "
          f"{100*(ta-tr)/tr:+.1f} % |")
md.append(f"\nRegions under 10 us of real time are in regions.csv only ({sum(1 for r in rows if r['real_s'] < 1e-5)} of them).")
open(os.path.join(stage, "summary.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md))
PY
mkdir -p "$(dirname "$out")"
mv "$stage" "$out"
echo "region_correction_demo: results in $out"
