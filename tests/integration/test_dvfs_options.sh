#!/usr/bin/env bash
# DVFS options in real runs (plugins/dvfs/README.md):
#   - a host's haec:governor property overrides --governor for that host;
#   - switch energy is charged per switch; a switch latency delays the new frequency;
#   - iterations given by the user: SMPI's MPI_Iteration_in markers (sampi.h), every:K:MPI_Fn, site:SITE.
source "$(dirname "$0")/common.sh"
cat > p.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="h0" speed="2Gf,1.5Gf,1Gf"><prop id="wattage_per_state" value="90:100:160,90:100:140,90:100:120"/></host>
    <host id="h1" speed="2Gf,1.5Gf,1Gf"><prop id="wattage_per_state" value="90:100:160,90:100:140,90:100:120"/>
      <prop id="haec:governor" value="powersave"/></host>
    <link id="l" bandwidth="1.25GBps" latency="1.5us"/>
    <route src="h0" dst="h1"><link_ctn id="l"/></route>
  </zone>
</platform>
XML
printf 'h0\nh1\n' > hostfile
cat > iter.c <<'C'
/* 12 iterations marked with SMPI's MPI_Iteration_in/out; rank 1 computes 3x more. */
#include <mpi.h>
#include <smpi/smpi.h>
int AMPI_Iteration_in(MPI_Comm comm);
int AMPI_Iteration_out(MPI_Comm comm);
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int it = 0; it < 12; ++it) {
    AMPI_Iteration_in(MPI_COMM_WORLD);
    smpi_execute_flops(rank == 1 ? 3e9 : 1e9);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &it, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    AMPI_Iteration_out(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
C
"$haec" cc -O2 -o iter iter.c
run() { local out=$1; shift; "$haec" run --platform p.xml --hostfile hostfile -np 2 --out "$out" --quiet "$@" -- ./iter; }
run marker --governor performance --iterations marker --cfg haec/dvfs/switch-energy:2.5
run every --governor performance --iterations every:2:MPI_Barrier
run latency --governor mix --iterations marker --cfg haec/dvfs/switch-latency:0.05 --cfg haec/dvfs/switch-energy:2.5
run nolatency --governor mix --iterations marker
site=$(grep -o 'MPI_Allreduce@iter+0x[0-9a-f]*' marker/regions.csv | head -1)
[ -n "$site" ] || { echo "FAIL: no MPI_Allreduce site in regions.csv"; cat marker/regions.csv; exit 1; }
run site --governor performance --iterations "site:$site"
$py - <<'PY'
import csv, json
def its(d):
    rows = list(csv.DictReader(open(d + "/iterations.csv")))
    return {r: max(int(x["iteration"]) for x in rows if x["rank"] == r) for r in ("0", "1")}
g = {r["host"]: r["governor"] for r in csv.DictReader(open("marker/dvfs.csv"))}
assert g == {"h0": "performance", "h1": "powersave"}, g
h = {r["host"]: r for r in csv.DictReader(open("marker/hosts.csv"))}
assert float(h["h1"]["pstate2_s"]) > 0 and float(h["h1"]["pstate0_s"]) == 0, h["h1"]   # powersave: slowest only
assert float(h["h0"]["pstate2_s"]) == 0, h["h0"]
m = json.load(open("marker/summary.json"))
assert m["pstate_switches"] == 1 and m["dvfs_switch_energy_j"] == 2.5, m      # h1 went to its slowest pstate once
assert its("marker") == {"0": 11, "1": 11}, its("marker")  # one per MPI_Iteration_in; the 12th is still open at the end
assert its("every") == {"0": 5, "1": 5}, its("every")      # every 2nd MPI_Barrier (6 boundaries)
assert its("site") == {"0": 11, "1": 11}, its("site")      # each call of that site
a, b = json.load(open("latency/summary.json")), json.load(open("nolatency/summary.json"))
assert a["dvfs_switch_energy_j"] == 2.5 * a["pstate_switches"] and a["pstate_switches"] > 0, a
assert b["pstate_switches"] > 0
print("dvfs options: per-host governor, switch energy, latency, marker/every/site iterations ok")
PY
echo "dvfs options ok"
