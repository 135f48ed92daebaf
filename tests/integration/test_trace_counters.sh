#!/usr/bin/env bash
# Hardware counters per computation burst (recording side; libs/trace/README.md "Counters"):
#  1. where PAPI cannot count (no CPU PMU, as on this VM) `haec run --counters PAPI_TOT_INS` of a real
#     program says so in one line and exits 2 without a result (the option would do nothing);
#  2. with events this machine counts (perf software events: no PMU needed) a recording annotates
#     every compute line, and the big bursts' perf::TASK-CLOCK (thread CPU ns) agrees with the flops
#     SMPI charged for them at 1 Gf (SMPI times bursts with the thread's CPU clock too);
#  3. the annotated trace passes the check and replays (our reader and SimGrid's) to the emulation's
#     makespan; export writes the counters as accumulated PAPI metrics before every enter/leave, and
#     import gives back the same files;
#  4. (run first: needs no counting) an archive in Score-P's layout (trace_otf2_counters_gen.c) imports to hand-computed annotations;
#     counters missing on a rank or before a call: one line, exit 2, nothing written.
source "$(dirname "$0")/common.sh"

# --- 1. the no-PMU line (only where PAPI_TOT_INS really cannot be counted)
tot_ins=$(papi_command_line PAPI_TOT_INS 2>&1 || true)
if grep -q "Failed adding: PAPI_TOT_INS" <<< "$tot_ins"; then
  set +e
  "$haec" run --platform cluster:2 -np 2 --counters PAPI_TOT_INS --out nopmu --quiet -- "$build/bin/pingpong" 2> err
  rc=$?
  set -e
  [ $rc -eq 2 ] || fail "--counters where PAPI cannot count: exit $rc, not 2"
  want="haec: --counters: PAPI cannot count here (PAPI_TOT_INS: PAPI_ENOEVNT: Event does not exist; no CPU PMU: perf::CYCLES does not count either); run on a machine with a CPU PMU, or drop --counters"
  if grep -q "because: Event does not exist" <<< "$tot_ins"; then
    [ "$(cat err)" = "$want" ] || fail "no-PMU line: $(cat err)"
  else # e.g. perf_event_paranoid forbids counting: the same line with PAPI's reason
    grep -qE "^haec: --counters: PAPI cannot count here \(PAPI_TOT_INS: .*\); run on a machine" err && [ "$(grep -c . err)" -eq 1 ] ||
      fail "cannot-count line: $(cat err)"
  fi
  [ ! -e nopmu ] || fail "--counters where PAPI cannot count left $(ls nopmu)"
  echo "no-PMU line ok (exit 2, nothing written)"
else
  echo "note: this machine counts PAPI_TOT_INS; the no-PMU line is not checked here"
fi

# --- 4. Score-P layout: known values, and missing counters
cc -O1 -o gen "$source_dir/tests/integration/trace_otf2_counters_gen.c" $(pkg-config --cflags --libs otf2)
./gen sp
"$haec" trace import sp/traces.otf2 --out sp.txt --host-speed 2Gf > /dev/null
printf '0 init\n# 0 haec_counters PAPI_TOT_INS=1000 PAPI_L3_TCM=10\n0 compute 2000000\n0 send 1 3 800 6\n# 0 haec_counters PAPI_TOT_INS=2000 PAPI_L3_TCM=4\n0 compute 1800000\n0 allreduce 16 0 6\n0 finalize\n' > want0
printf '1 init\n# 1 haec_counters PAPI_TOT_INS=400 PAPI_L3_TCM=2\n1 compute 1000000\n1 recv 0 3 800 6\n# 1 haec_counters PAPI_TOT_INS=800 PAPI_L3_TCM=4\n1 compute 1600000.0000000002\n1 allreduce 16 0 6\n1 finalize\n' > want1
diff want0 sp.txt_files/rank-0.txt && diff want1 sp.txt_files/rank-1.txt || fail "Score-P layout import"
"$haec" run --platform cluster:2 --replay sp.txt --out sp_rep --quiet
bad() { # pattern command...
  local pattern=$1; shift
  set +e; "$@" > /dev/null 2> err; local rc=$?; set -e
  [ $rc -eq 2 ] && [ "$(grep -c . err)" -eq 1 ] && grep -qE "^haec: .*$pattern" err || fail "'$*' exit $rc: $(cat err)"
}
./gen spm missing
bad "spm/traces.otf2: event [0-9]+: counters missing around the computation before MPI_Recv \(rank 1 at 0.0005 s\)" \
  "$haec" trace import spm/traces.otf2 --out m.txt
./gen spg gap
bad "event [0-9]+: counters missing around the computation before MPI_Allreduce \(rank 0 at 0.002 s\)" \
  "$haec" trace import spg/traces.otf2 --out g.txt
[ ! -e m.txt ] && [ ! -e m.txt_files ] && [ ! -e g.txt ] && [ ! -e g.txt_files ] || fail "partial output left"
# --- 2. live counting with software events
task_clock=$(papi_command_line perf::TASK-CLOCK 2>&1 || true)
if ! grep -q "Successfully added: perf::TASK-CLOCK" <<< "$task_clock"; then
  echo "SKIP: PAPI cannot count perf::TASK-CLOCK here (perf_event_paranoid?)"; exit 77
fi
"$haec" trace record --platform cluster:4 -np 4 --counters perf::TASK-CLOCK,perf::PAGE-FAULTS --out t.txt --keep-run emu \
  -- "$build/bin/lu_like" 3 400 > record.out
grep -q HAEC_COUNTERS=perf::TASK-CLOCK,perf::PAGE-FAULTS emu/command.txt || fail "command.txt lacks HAEC_COUNTERS"
/usr/bin/python3 - <<'PY' || fail "annotations"
import glob, sys
pairs = []
for f in sorted(glob.glob("t.txt_files/rank-*.txt")):
    lines = open(f).read().splitlines()
    for i, line in enumerate(lines):
        w = line.split()
        if w[1] == "compute":
            a = lines[i - 1].split()
            if a[:3] != ["#", w[0], "haec_counters"] or [x.split("=")[0] for x in a[3:]] != ["perf::TASK-CLOCK", "perf::PAGE-FAULTS"]:
                sys.exit(f"{f}:{i + 1}: compute without its annotation")
            pairs.append((float(a[3].split("=")[1]), float(w[2])))
big = [(c, f) for c, f in pairs if f > 1e6]   # bursts over 1 ms at 1 Gf
ratio = sum(c for c, f in big) / sum(f for c, f in big)
print(f"{len(pairs)} bursts annotated; {len(big)} over 1 ms: TASK-CLOCK ns / flops at 1 Gf = {ratio:.3f}")
sys.exit(0 if len(big) >= 5 and 0.85 < ratio < 1.1 else 1)
PY

# SMPI's thread contexts (a thread per rank, an event set per thread): every compute annotated too.
"$haec" trace record --platform cluster:2 -np 2 --cfg contexts/factory:thread --counters perf::TASK-CLOCK --out th.txt \
  -- "$build/bin/lu_like" 2 > /dev/null
"$haec" trace check th.txt > /dev/null
[ "$(grep -c ' compute ' th.txt_files/rank-1.txt)" -eq "$(grep -c 'haec_counters perf::TASK-CLOCK=' th.txt_files/rank-1.txt)" ] ||
  fail "thread contexts: compute lines without annotation"

# A burst around MPI_Comm_split (paused by libhaec_pmpi) is clean; around PMPI_Comm_split (unseen:
# SMPI switches ranks inside it) haec run says how many bursts include other ranks' code, and a
# recording is refused. Of the 28 bursts (7 per rank: before each of the 3 barriers, the 3
# MPI_Comm_free and MPI_Finalize), those before a barrier span the unseen split.
"$haec" cc -O1 "$source_dir/tests/integration/counters_switch.c" -o switch
"$haec" run --platform cluster:4 -np 4 --counters perf::TASK-CLOCK --out sw_ok --quiet -- ./switch 2> err
[ ! -s err ] || fail "wrapped MPI_Comm_split: $(cat err)"
"$haec" run --platform cluster:4 -np 4 --counters perf::TASK-CLOCK --out sw_pmpi --quiet -- ./switch pmpi 2> err
grep -qE "^haec: --counters: [0-9]+ of 28 computation bursts \(first: rank [0-9] before MPI_Barrier\) spanned a call that switched" err &&
  [ "$(grep -c . err)" -eq 1 ] || fail "interleaved bursts not reported: $(cat err)"
set +e; "$haec" trace record --platform cluster:4 -np 4 --counters perf::TASK-CLOCK --out sw.txt -- ./switch pmpi > /dev/null 2> err
rc=$?; set -e
[ $rc -eq 2 ] && [ "$(grep -c . err)" -eq 1 ] && grep -q "before MPI_Barrier, the computation spanned an unwr.*simulate this program online with haec run" err &&
  [ ! -e sw.txt ] && [ ! -e sw.txt_files ] || fail "recording of interleaved bursts: exit $rc: $(cat err)"

# The two halves meet: live counts through haec_suite_computation_counters price every computation
# of an emulation under the counter model, including those SMPI charges at MPI_Wtime (pingpong
# times itself), and counters.csv holds as many computations per region as regions.csv.
printf '{"events": ["perf::TASK-CLOCK"], "pstates": [{"p_static": 20.0, "coefficients": [1e-9]}, {"p_static": 15.0, "coefficients": [1e-9]}]}\n' > tc.json
"$haec" run --platform "$source_dir/calibration/examples/counters/two.xml" -np 2 --counters perf::TASK-CLOCK \
  --power-model counters --counter-coefficients tc.json --out model --quiet -- "$build/bin/pingpong"
/usr/bin/python3 - <<'PY' || fail "counter model on live counts"
import csv
regions = {r["region"]: int(r["computations"]) for r in csv.DictReader(open("model/regions.csv"))}
counted = {}
for r in csv.DictReader(open("model/counters.csv")):
    counted[r["region"]] = counted.get(r["region"], 0) + int(r["computations"])
assert counted == regions, (counted, regions)
print(f"counter model on live counts: {sum(regions.values())} computations, all counted")
PY

# --- 3. check, replay (the annotations read beside SimGrid's reader; plain smpirun skips them), export, import
"$haec" trace check t.txt > /dev/null
"$haec" run --platform cluster:4 --replay t.txt --events --out rep --quiet
/usr/bin/python3 - <<'PY' || fail "replay makespans differ from the emulation"
import json
m = [json.load(open(d + "/summary.json"))["makespan_s"] for d in ("emu", "rep")]
print("makespans", m)
assert abs(m[1] - m[0]) <= 1e-9 * m[0]
PY
"$haec" trace export rep --out otf > export.out
grep -q "^counters .*2 PAPI metrics" export.out || fail "export did not report counters: $(cat export.out)"
otf2-print otf/traces.otf2 > print.txt 2> print.err
otf2-print -G otf/traces.otf2 > defs.txt 2>> print.err
[ ! -s print.err ] || fail "otf2-print warns: $(head -2 print.err)"
grep -q 'METRIC_CLASS .*Occurrence: SYNCHRONOUS_STRICT, Kind: CPU, 2 Members' defs.txt || fail "metric class"
grep -q 'METRIC_MEMBER .*Name: "perf::TASK-CLOCK".*Type: PAPI, Mode: ACCUMULATED_START, Value Type: UINT64' defs.txt ||
  fail "metric member"
/usr/bin/python3 - <<'PY' || fail "exported metric values"
# Every ENTER and LEAVE follows a METRIC of its location at its time; a rank's last value is the
# sum of its annotations.
import glob, re
last, prev = {}, None
for line in open("print.txt"):
    w = line.split()
    if not w or w[0] not in ("METRIC", "ENTER", "LEAVE"):
        continue
    if w[0] == "METRIC":
        prev = (w[1], w[2])
        last[int(w[1])] = int(re.search(r'"perf::TASK-CLOCK" <\d+>; UINT64; (\d+)', line).group(1))
    else:
        assert prev == (w[1], w[2]), f"{w[0]} at {w[1]} {w[2]} without its metric"
        prev = None
for r in range(4):
    total = sum(int(l.split()[3].split("=")[1]) for l in open(f"t.txt_files/rank-{r}.txt") if " haec_counters " in l)
    assert last[r] == total, (r, last[r], total)
print("metrics before every enter/leave; accumulated TASK-CLOCK per rank = the annotations' sums", [last[r] for r in range(4)])
PY
"$haec" trace import otf/traces.otf2 --out back.txt > /dev/null
diff -r t.txt_files back.txt_files > /dev/null || fail "import of the export differs from the recorded trace"

echo "trace counters ok"
