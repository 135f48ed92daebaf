#!/usr/bin/env bash
# Verification of the power plugin against SimGrid itself, on real MPI runs:
#  A. lu_like on 3 hosts given only SimGrid-format properties (wattage_per_state in both the
#     3-value and the 2-value form, wattage_off), while a daemon actor changes pstates every
#     0.737 ms and switches the idle host off and on: every host's energy and the total equal
#     SimGrid's own host_energy plugin (sg_host_get_consumed_energy) within 1e-9 relative.
#     Every shared link's bytes equal the integral of SimGrid's Link::get_usage() over the run
#     (sampled at every time step, so exact), under contention, and links.csv's energy follows.
#  B. poll_vs_sleep spinning on MPI_Iprobe with smpi/iprobe-cpu-usage:0.3: same equality (SMPI's
#     iprobe computations are bounded to 0.3 of a core, which SimGrid sees as CPU load).
#  C. haec-box 2x2x2 with the PNC link model (bandwidth factors from the model): link bytes
#     equal the usage integral; optical/wireless energy from the default link wattage.
source "$(dirname "$0")/common.sh"

# The probe: SimGrid's figures with full precision (its own log prints %f only).
cat > probe.cpp <<'CPP'
#include <simgrid/plugins/energy.h>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
namespace sg4 = simgrid::s4u;
static std::map<std::string, double> usage_integral;
static void dvfs()
{
  sg4::Actor::self()->daemonize();
  auto* e = sg4::Engine::get_instance();
  sg4::Host *h0 = e->host_by_name("h0"), *h1 = e->host_by_name("h1"), *h2 = e->host_by_name("h2");
  for (int i = 1;; ++i) {
    sg4::this_actor::sleep_for(0.000737);
    h0->set_pstate(i % 3);
    h1->set_pstate((i + 1) % 3);
    if (i % 4 == 1) {
      h2->turn_off();
      sg4::Link::by_name("l2")->turn_off();
    }
    if (i % 4 == 3) {
      h2->turn_on();
      sg4::Link::by_name("l2")->turn_on();
    }
  }
}
struct Probe {
  Probe()
  {
    if (std::getenv("PROBE_DVFS"))
      sg4::Engine::on_platform_created_cb(
          [] { sg4::Actor::create("dvfs", sg4::Engine::get_instance()->host_by_name("h0"), dvfs); });
    // Rates are constant between two time advances: summing usage * delta is the exact integral.
    sg4::Engine::on_time_advance_cb([](double delta) {
      for (auto* l : sg4::Engine::get_instance()->get_all_links())
#if SIMGRID_VERSION >= 33400 // Link::get_usage became get_load in SimGrid 3.34
        usage_integral[l->get_name()] += l->get_load() * delta;
#else
        usage_integral[l->get_name()] += l->get_usage() * delta;
#endif
    });
    sg4::Engine::on_simulation_end_cb([] {
      FILE* f = std::fopen("probe.txt", "w");
      if (std::getenv("PROBE_HOSTS"))
        for (auto* h : sg4::Engine::get_instance()->get_all_hosts())
          std::fprintf(f, "host %s %.17g\n", h->get_cname(), sg_host_get_consumed_energy(h));
      for (auto* l : sg4::Engine::get_instance()->get_all_links())
        std::fprintf(f, "link %s %.17g %s\n", l->get_cname(), usage_integral[l->get_name()],
                     l->get_sharing_policy() == sg4::Link::SharingPolicy::SHARED ? "shared" : "other");
      std::fprintf(f, "clock %.17g\n", sg4::Engine::get_clock());
      std::fclose(f);
    });
  }
} probe;
CPP
# Against the SimGrid the suite is built against (ctest gives its directories), not the system's.
g++ -O1 -shared -fPIC -o probe.so probe.cpp -I"$HAEC_SIMGRID_INCLUDEDIR" -L"$HAEC_SIMGRID_LIBDIR" -lsimgrid \
  -Wl,-rpath,"$HAEC_SIMGRID_LIBDIR"

cat > p.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="h0" speed="2Gf,1.5Gf,1Gf" core="4">
      <prop id="wattage_per_state" value="95:120:200, 93:115:170, 90:110:150"/>
      <prop id="wattage_off" value="10"/>
    </host>
    <host id="h1" speed="2Gf,1.5Gf,1Gf" core="4">
      <prop id="wattage_per_state" value="100:200, 93.5:111.25:171, 90:150"/>
    </host>
    <host id="h2" speed="1Gf,0.5Gf,0.25Gf" core="2">
      <prop id="wattage_per_state" value="50:60:80, 45:55:70, 40:50:60"/>
      <prop id="wattage_off" value="7.5"/>
    </host>
    <link id="l0" bandwidth="1.25GBps" latency="1.5us"><prop id="wattage_range" value="3:13"/></link>
    <link id="l1" bandwidth="1GBps" latency="1.5us"><prop id="wattage_range" value="2.1:24.3"/></link>
    <link id="l2" bandwidth="1.25GBps" latency="1.5us"><prop id="wattage_range" value="1:4"/><prop id="wattage_off" value="0.25"/></link>
    <link id="bb" bandwidth="0.5GBps" latency="0.5us"><prop id="wattage_range" value="1:5"/></link>
    <route src="h0" dst="h1"><link_ctn id="l0"/><link_ctn id="bb"/><link_ctn id="l1"/></route>
    <route src="h0" dst="h2"><link_ctn id="l0"/><link_ctn id="bb"/><link_ctn id="l2"/></route>
    <route src="h1" dst="h2"><link_ctn id="l1"/><link_ctn id="bb"/><link_ctn id="l2"/></route>
  </zone>
</platform>
XML
printf 'h0:3\nh1:3\n' > hostfile

compare() { # $1: result dir, $2: "hosts" to compare host energies too
  "$py" - "$1" "$2" <<'PY'
import csv, json, sys
out, what = sys.argv[1], sys.argv[2]
ref_host, ref_link, kind = {}, {}, {}
for line in open("probe.txt"):
    f = line.split()
    if f[0] == "host": ref_host[f[1]] = float(f[2])
    elif f[0] == "link": ref_link[f[1]] = float(f[2]); kind[f[1]] = f[3]
    else: clock = float(f[1])
summary = json.load(open(out + "/summary.json"))
hosts = list(csv.DictReader(open(out + "/hosts.csv")))
links = list(csv.DictReader(open(out + "/links.csv")))
def rel(a, b): return abs(a - b) / max(abs(b), 1e-300)
bad = 0
assert abs(summary["makespan_s"] - clock) <= 1e-15 * clock, (summary["makespan_s"], clock)
if what == "hosts":
    worst = 0
    for h in hosts:
        e, r = float(h["energy_j"]), ref_host[h["host"]]
        worst = max(worst, rel(e, r))
        if rel(e, r) > 1e-9: print("FAIL host", h["host"], e, "SimGrid", r); bad = 1
        t = float(h["busy_s"]) + float(h["idle_s"]) + float(h["off_s"])
        if rel(t, clock) > 1e-12: print("FAIL busy+idle+off", h["host"], t, clock); bad = 1
    tot = sum(ref_host.values())
    if rel(summary["host_energy_j"], tot) > 1e-9: print("FAIL total", summary["host_energy_j"], tot); bad = 1
    print(f"hosts: {len(hosts)}, total {summary['host_energy_j']:.12g} J vs SimGrid host_energy {tot:.12g} J, "
          f"worst relative difference {worst:.2e}")
worst, checked = 0, 0
for l in links:
    name = l["link"]
    if kind[name] != "shared": continue  # FATPIPE usage is the largest flow, not the sum
    b, r = float(l["bytes"]), ref_link[name]
    checked += 1
    if r == 0:
        if b != 0: print("FAIL link", name, b, "usage integral 0"); bad = 1
        continue
    worst = max(worst, rel(b, r))
    if rel(b, r) > 1e-9: print("FAIL link", name, "bytes", b, "usage integral", r); bad = 1
print(f"links: {checked} shared links, bytes vs usage integral worst relative difference {worst:.2e}")
assert summary["energy_j"] == summary["host_energy_j"] + summary["link_energy_j"] or \
    rel(summary["energy_j"], summary["host_energy_j"] + summary["link_energy_j"]) < 1e-15
sys.exit(bad)
PY
}

# A. lu_like with pstate changes and on/off.
mkdir outA
PROBE_DVFS=1 PROBE_HOSTS=1 LD_PRELOAD="$build/lib/libhaec_suite.so:$work/probe.so" smpirun -np 6 -platform p.xml \
  -hostfile hostfile --cfg=plugin:host_energy --cfg=haec/power:yes --cfg=haec/out:outA --cfg=smpi/host-speed:1Gf --cfg=surf/precision:1e-13 \
  "$build/bin/lu_like" 40 > A.out 2> A.err || { cat A.err; exit 1; }
compare outA hosts
# The run really exercised every case: three pstates on h0, h2 off part of the time, link energy
# of l0 = 3 W * T + 10 W * bytes / 1.25 GB/s.
"$py" - <<'PY'
import csv
h = {r["host"]: r for r in csv.DictReader(open("outA/hosts.csv"))}
assert all(float(h["h0"][f"pstate{p}_s"]) > 0 for p in range(3)), h["h0"]
assert float(h["h2"]["off_s"]) > 0 and float(h["h2"]["busy_s"]) == 0, h["h2"]
T = float(open("probe.txt").read().split("clock")[1])
l = {r["link"]: r for r in csv.DictReader(open("outA/links.csv"))}
e = 3 * T + 10 * float(l["l0"]["bytes"]) / 1.25e9
assert abs(float(l["l0"]["energy_j"]) - e) < 1e-12 * e, (l["l0"], e)
# l2 (unused) is switched off with h2: idle power while on, its wattage_off while off.
off = float(l["l2"]["off_s"])
assert off > 0 and abs(off - float(h["h2"]["off_s"])) < 1e-12, (l["l2"], h["h2"]["off_s"])
e2 = 1 * (T - off) + 0.25 * off
assert float(l["l2"]["bytes"]) == 0 and abs(float(l["l2"]["energy_j"]) - e2) < 1e-12 * e2, (l["l2"], e2)
assert float(l["bb"]["bytes"]) > 0
print("A: pstates 0-2 used on h0, h2 off for", h["h2"]["off_s"], "s; l0 energy", l["l0"]["energy_j"], "J")
PY

# B. MPI_Iprobe polling at 0.3 of a core (h0 waits, h1 sends after 20 ms).
printf 'h0\nh1\n' > hostfile2
mkdir outB
PROBE_HOSTS=1 LD_PRELOAD="$build/lib/libhaec_suite.so:$work/probe.so" smpirun -np 2 -platform p.xml \
  -hostfile hostfile2 --cfg=plugin:host_energy --cfg=haec/power:yes --cfg=haec/out:outB \
  --cfg=smpi/iprobe-cpu-usage:0.3 "$build/bin/poll_vs_sleep" iprobe 20 > B.out 2> B.err || { cat B.err; exit 1; }
grep -q "mode iprobe" B.out
compare outB hosts
"$py" - <<'PY'
import csv
h = {r["host"]: r for r in csv.DictReader(open("outB/hosts.csv"))}
busy = float(h["h0"]["busy_s"])
assert busy > 0.02, h["h0"]  # h0 spun the whole wait
print(f"B: h0 polled {busy:.6f} s at 0.3 of a core: {float(h['h0']['mean_power_w']):.3f} W mean")
PY

# C. haec-box with the PNC model: bandwidth factors come from the link model.
"$build/bin/haec" platform haec-box:2x2x2 --out box.json > /dev/null
printf 'node-0-0-0\nnode-1-0-0\nnode-0-1-0\nnode-1-1-0\nnode-0-0-1\nnode-1-0-1\nnode-0-1-1\nnode-1-1-1\n' > hostfile3
mkdir outC
LD_PRELOAD="$build/lib/libhaec_suite.so:$work/probe.so" smpirun -np 8 -platform "$build/lib/libhaec_suite.so" \
  --cfg=haec/platform:box.json -hostfile hostfile3 --cfg=haec/link/model:pnc --cfg=network/crosstraffic:0 --cfg=surf/precision:1e-13 \
  --cfg=haec/power:yes --cfg=haec/out:outC --cfg=smpi/host-speed:1Gf "$build/bin/lu_like" 10 > C.out 2> C.err ||
  { cat C.err; exit 1; }
compare outC links
"$py" - <<'PY'
import csv, json
T = json.load(open("outC/summary.json"))["makespan_s"]
bw = {"optical": 31.25e9, "wireless": 12.5e9}
watt = {"optical": (2.1, 24.3), "wireless": (0.0, 2.124)}
n = {"optical": 0, "wireless": 0}
for l in csv.DictReader(open("outC/links.csv")):
    if l["type"] not in watt: continue
    idle, busy = watt[l["type"]]
    e = idle * T + (busy - idle) * float(l["bytes"]) / bw[l["type"]]
    assert abs(float(l["energy_j"]) - e) <= 1e-12 * max(e, 1e-30), (l, e)
    n[l["type"]] += 1
assert n == {"optical": 16, "wireless": 8}, n  # 2x2 boards (a 2-ring is one wire), aligned wireless; directed
print(f"C: {n['optical']} optical, {n['wireless']} wireless links: energy = idle * T + e_bit * bits")
PY
echo "power verification passed"
