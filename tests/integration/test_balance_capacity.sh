#!/usr/bin/env bash
# Capacity-aware load balancing (plugins/balance/README.md "Capacity"), real
# SimGrid runs:
#   - 64 ranks of stencil_imbalance, 4 a node, on 16 twelve-core taurus nodes: every rank has a
#     core of its own, no plan can shorten the run, GreedyLB and RefineLB migrate nobody;
#   - the same trace on 16 single-core taurus-node hosts: GreedyLB every 5 still shortens the run
#     by more than 11 %;
#   - two single-core hosts whose pstates differ (2 and 1 Gflop/s), 4 equal ranks each: ranks move
#     to the fast host and the run shortens; at equal pstates the plans are not worth their
#     migrations and nobody moves.
source "$(dirname "$0")/common.sh"
for n in $(seq 0 15); do echo "node-$n:4"; done > hostfile
"$haec" trace record --platform cluster:16,preset=taurus-node -np 64 --hostfile hostfile --oversubscribe --out t/s.txt --quiet \
  --cfg smpi/simulate-computation:no -- "$build/bin/stencil_imbalance" --iters 30 > /dev/null
run() { local p=$1 out=$2; shift 2; "$haec" run --platform "cluster:16,preset=$p" --hostfile hostfile --oversubscribe --replay t/s.txt --out "$out" --quiet "$@"; }
run taurus many-none
run taurus many-greedy --balance greedy --every 5
run taurus many-refine --balance refine --every 5
run taurus-node one-none
run taurus-node one-greedy --balance greedy --every 5

# Two hosts, one at its slow pstate (emulation of equal ranks; iterations at each barrier).
xml() {
  cat <<X
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="slow" speed="2Gf,1Gf" pstate="$1"/>
    <host id="fast" speed="2Gf,1Gf" pstate="0"/>
    <link id="l" bandwidth="1.25GBps" latency="15us"/>
    <route src="slow" dst="fast"><link_ctn id="l"/></route>
  </zone>
</platform>
X
}
xml 1 > pstates.xml
xml 0 > equal.xml
printf 'slow:4\nfast:4\n' > hostfile2
cat > even.c <<'C'
#include <mpi.h>
#include <smpi/smpi.h>
int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  for (int it = 1; it <= 20; ++it) {
    smpi_execute_flops(1e9); /* every rank the same work */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
C
"$haec" cc -O2 -o even even.c
lb=(--balance greedy --every 5 --iterations every:1:MPI_Barrier)
"$haec" run --platform pstates.xml --hostfile hostfile2 --oversubscribe -np 8 --out ps-none --quiet -- ./even
"$haec" run --platform pstates.xml --hostfile hostfile2 --oversubscribe -np 8 --out ps-lb --quiet "${lb[@]}" -- ./even
"$haec" run --platform equal.xml --hostfile hostfile2 --oversubscribe -np 8 --out eq-lb --quiet "${lb[@]}" -- ./even

$py - <<'PY'
import csv, json
s = {d: json.load(open(d + "/summary.json"))
     for d in ["many-none", "many-greedy", "many-refine", "one-none", "one-greedy", "ps-none", "ps-lb", "eq-lb"]}
def change(run, base):
    return 100 * (s[run]["makespan_s"] / s[base]["makespan_s"] - 1)
# Twelve cores, four ranks: balancing steps happen, nobody moves, the makespan is untouched.
for r in ["many-greedy", "many-refine"]:
    assert s[r]["balance_steps"] >= 5 and s[r]["migrations"] == 0, (r, s[r])
    assert abs(change(r, "many-none")) < 0.01, (r, change(r, "many-none"))
# Single-core hosts: GreedyLB still pays.
assert s["one-greedy"]["migrations"] > 0 and change("one-greedy", "one-none") < -11, change("one-greedy", "one-none")
# Pstates: the first plan gives the fast host more ranks (predicted 20 s on the slow host,
# 10 s on the fast one; optimum 3 ranks slow, 5 fast: 15 s / 12.5 s).
m = list(csv.DictReader(open("ps-lb/migrations.csv")))
to_fast = sum(x["to"] == "fast" for x in m) - sum(x["to"] == "slow" for x in m)
assert s["ps-lb"]["migrations"] == len(m) > 0 and to_fast > 0, m
first = [r for r in csv.DictReader(open("ps-lb/balance.csv")) if r["step"] == "0"]
before = {r["node"]: float(r["load_before_s"]) for r in first}
after = {r["node"]: float(r["load_after_s"]) for r in first}
assert first[0]["executed"] == "1" and abs(before["slow"] - 2 * before["fast"]) < 0.01 * before["slow"], first
assert max(after.values()) < 0.8 * max(before.values()), first
assert change("ps-lb", "ps-none") < -15, change("ps-lb", "ps-none")
# Equal pstates, equal ranks: plans (if any) are not worth their migrations.
assert s["eq-lb"]["balance_steps"] == 4 and s["eq-lb"]["migrations"] == 0, s["eq-lb"]
print("capacity: taurus 12 cores greedy %d / refine %d migrations (%+.3f %%); single core greedy %d migrations %+.1f %%; "
      "pstates %d migrations %+.1f %%, equal pstates %d migrations (%d plans skipped)"
      % (s["many-greedy"]["migrations"], s["many-refine"]["migrations"], change("many-greedy", "many-none"),
         s["one-greedy"]["migrations"], change("one-greedy", "one-none"), len(m), change("ps-lb", "ps-none"),
         s["eq-lb"]["migrations"], s["eq-lb"]["balance_plans_skipped"]))
PY
echo "balance capacity ok"
